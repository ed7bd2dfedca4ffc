package org.ibtwin.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ibtwin.interop.ToolSim.Result;
import org.ibtwin.format.tools.HostOutputs;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;

/**
 * ibstat, ibstatus, sminfo, ibaddr, ibportstate, ibroute, ibtracert and dump_fts (dump_lfts, dump_mfts) of ibtwin
 * against the real infiniband-diags on the same
 * running {@code ibsim -r} after a real {@code opensm -o} gave out LIDs: identical stdout and exit codes, for every
 * node (ibstat attached at each), every LID (ibaddr) and every port (ibportstate queries), every switch (ibroute,
 * unicast and multicast), and the error cases. sminfo's activity count moves with every sweep of the running
 * OpenSM, so it is compared with that number masked.
 *
 * <p>ibstatus is a shell script whose {@code cd} and {@code [ -d ]} libumad2sim cannot intercept, so it cannot run
 * on ibsim: each of its lines is compared with what {@code cat} of the sysfs file the script reads gives under
 * libumad2sim, and the output is read back by the doctor's ibstatus reader. ibportstate's changes are compared on
 * two ibsims of the same fabric: the real tool changes a port of one, ours the same port of the other, and what the
 * tools print, and a real query after, must be the same.
 *
 * <p>One fabric per subclass, so that each class stays near half a minute.
 */
@Tag("interop")
abstract class DiagToolsInteropTest {
    private static final Duration TOOL_TIMEOUT = Duration.ofSeconds(30);
    private static final int FIRST_PORT = 18400;
    private static final int LAST_PORT = 18480;

    private static RealTools tools;
    private int compared;

    @BeforeAll
    static void findTools() {
        tools = RealTools.findOrSkip();
        RealTools.requireOrSkip("infiniband-diags", "ibstat", "sminfo", "ibaddr", "ibportstate", "ibroute",
                "ibtracert", "dump_fts", "dump_lfts", "dump_mfts", "ibqueryerrors", "smpquery");
    }

    void run(Path net, Path dir, String what, boolean changes) throws Exception {
        long t0 = System.nanoTime();
        List<String> nodes = nodeNames(net);
        try (ToolSim sim = start(net, dir)) {
            sim.sweep();
            List<Target> targets = discover(sim);
            hostTools(sim, nodes);
            addresses(sim, targets);
            portStates(sim, targets);
            routes(sim, targets);
            traces(sim, targets);
            String at = targets.get(0).node();
            for (String[] a : new String[][] {{"dump_fts"}, {"dump_lfts"}, {"dump_mfts"}, {"dump_fts", "-n"},
                {"dump_fts", "-a", "1", "3"}, {"dump_fts", "-M", "-n"}}) {
                same(sim, at, a[0], Arrays.copyOfRange(a, 1, a.length));
            }
            errors(sim, targets);
            queryErrors(sim, targets);
            smInfo(sim, targets);
        }
        if (changes) {
            portChanges(net, dir);
        }
        System.out.printf(Locale.ROOT, "INTEROP diag tools %s: %d identical comparisons, %d ms%n", what, compared,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
    }

    /** The ibsim node names of a net file or ibnetdiscover dump, in order. */
    private static List<String> nodeNames(Path net) throws IOException {
        List<String> names = new ArrayList<>();
        Matcher m = Pattern.compile("(?m)^(?:Switch|Hca|Ca)\\s+\\d+\\s+\"([^\"]+)\"").matcher(Files.readString(net));
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    // ---- what is compared

    /** ibstat at every node (a few of them for the bigger fabrics), ibstatus against the sysfs files. */
    private void hostTools(ToolSim sim, List<String> nodes) throws Exception {
        int n = 0;
        for (String node : nodes) {
            if (n++ >= 4) {
                break;
            }
            for (List<String> a : n > 2 ? List.of(List.<String>of(), List.of("ibsim0", "1"))
                    : List.of(List.<String>of(), List.of("-s"), List.of("-p"), List.of("-l"), List.of("ibsim0"),
                    List.of("ibsim0", "0"), List.of("ibsim0", "1"), List.of("ibsim0", "2"), List.of("mlx5_0"))) {
                same(sim, node, "ibstat", a.toArray(String[]::new));
            }
            Result ours = sim.oursAt(node, "ibstatus");
            assertThat(ours.exit()).isZero();
            String[] lines = ours.out().split("\n");
            Matcher h = Pattern.compile("^Infiniband device 'ibsim0' port (\\d+) status:$").matcher(lines[0]);
            assertThat(h.matches()).as(ours.out()).isTrue();
            String dirPath = "/sys/class/infiniband/ibsim0/ports/" + h.group(1) + "/";
            String[] files = {"gids/0", "lid", "sm_lid", "state", "phys_state", "rate"};
            UmadClient.Result cat = sim.client().withSimHost(node).run(Path.of("/bin/sh"), "-c",
                    "for f in " + String.join(" ", files) + "; do echo \"$(cat " + dirPath + "$f)\"; done");
            String[] want = cat.out().split("\n");
            for (int i = 0; i < files.length; i++) {
                String got = lines[i + 1].substring(lines[i + 1].indexOf(":\t") + 1).trim();
                assertThat(got).as("ibstatus %s at %s", files[i], node).isEqualTo(want[i].trim());
            }
            assertThat(lines[7]).isEqualTo("\tlink_layer:\t IB");
            assertThat(HostOutputs.ibstatus(ours.out(), "ibstatus")).hasSize(1);
            assertThat(HostOutputs.ibstat(sim.oursAt(node, "ibstat").out(), "ibstat")).hasSize(1);
            compared++;
        }
    }

    /** ibaddr for every LID and a few forms. */
    private void addresses(ToolSim sim, List<Target> targets) throws Exception {
        String at = targets.get(0).node();
        same(sim, at, "ibaddr");
        for (Target t : targets.subList(0, Math.min(10, targets.size()))) {
            String lid = Integer.toString(t.lid());
            same(sim, at, "ibaddr", lid);
            same(sim, at, "ibaddr", "-L", lid);
        }
        Target last = targets.get(targets.size() - 1);
        same(sim, at, "ibaddr", "-g", Integer.toString(last.lid()));
        same(sim, at, "ibaddr", "-l", Integer.toString(last.lid()));
        same(sim, at, "ibaddr", "-D", "0,1");
    }

    /**
     * ibportstate's query of every port of every node by directed route (the peer of an active switch port too),
     * and of a few ports by LID: ibsim does not answer the combined route to the peer of a LID-routed switch port,
     * so there both tools time out (-t 100) and fail alike.
     */
    private void portStates(ToolSim sim, List<Target> targets) throws Exception {
        String at = targets.get(0).node();
        for (Target t : targets.subList(0, Math.min(8, targets.size()))) {
            String path = String.join(",", Arrays.stream(t.path()).mapToObj(Integer::toString).toList());
            for (int p : t.ports()) {
                same(sim, at, "ibportstate", "-D", path, Integer.toString(p));
            }
            for (int p : t.ports().subList(0, Math.min(2, t.ports().size()))) {
                same(sim, at, "ibportstate", "-t", "100", Integer.toString(t.lid()), Integer.toString(p));
            }
        }
    }

    /** ibroute of every switch: unicast with and without destinations, ranges, multicast. */
    private void routes(ToolSim sim, List<Target> targets) throws Exception {
        String at = targets.get(0).node();
        for (Target t : targets.stream().filter(Target::isSwitch).limit(3).toList()) {
            String lid = Integer.toString(t.lid());
            same(sim, at, "ibroute", lid);
            same(sim, at, "ibroute", "-n", lid);
            same(sim, at, "ibroute", lid, "2", "0x5");
            same(sim, at, "ibroute", "-M", lid);
            same(sim, at, "ibroute", "-M", "-n", lid);
            same(sim, at, "ibroute", "-M", "-a", lid, "0xc000", "0xc003");
        }
        Target sw = targets.stream().filter(Target::isSwitch).findFirst().orElseThrow();
        same(sim, at, "ibroute", "-a", Integer.toString(sw.lid()), "1", "0x10");
    }

    /**
     * ibtracert between every pair of the first nodes (CAs and switches, both ways), the simple format, and to a
     * LID nobody has: stdout, exit code, and the warnings on stderr (pids aside).
     */
    private void traces(ToolSim sim, List<Target> targets) throws Exception {
        String at = targets.get(0).node();
        List<Target> some = targets.subList(0, Math.min(6, targets.size()));
        for (Target a : some) {
            for (Target b : some) {
                if (a != b) {
                    same(sim, at, "ibtracert", "-t", "100", Integer.toString(a.lid()), Integer.toString(b.lid()));
                }
            }
        }
        Target last = targets.get(targets.size() - 1);
        same(sim, at, "ibtracert", "-n", Integer.toString(some.get(0).lid()), Integer.toString(last.lid()));
        Path pairs = sim.dir().resolve("pairs.txt");
        Files.writeString(pairs, "# pairs\n" + some.get(0).lid() + " " + last.lid() + "\n\n  " + last.lid() + " "
                + some.get(1).lid() + "\n");
        same(sim, at, "ibtracert", "--ports-file", pairs.toString());
        Files.writeString(pairs, some.get(0).lid() + " " + last.lid() + "\nnonsense\n");
        same(sim, at, "ibtracert", "--ports-file", pairs.toString());
        // --node-name-map: every node on a route renamed (by the GUIDs the real trace shows), in ibtracert's hops
        // and in ibroute's header and destinations
        Result trace = sim.realAt(at, "ibtracert", Integer.toString(some.get(0).lid()), Integer.toString(last.lid()));
        java.util.regex.Matcher g = java.util.regex.Pattern.compile("\\{(0x[0-9a-f]+)\\}").matcher(trace.out());
        StringBuilder map = new StringBuilder("# renamed for the test\n");
        int named = 0;
        while (g.find()) {
            map.append(g.group(1)).append(" \"renamed node ").append(++named).append("\"\n");
        }
        assertThat(named).as(trace.out()).isGreaterThan(1);
        Path mapFile = sim.dir().resolve("node-name-map");
        Files.writeString(mapFile, map);
        same(sim, at, "ibtracert", "--node-name-map", mapFile.toString(), Integer.toString(some.get(0).lid()),
                Integer.toString(last.lid()));
        for (Target t : targets) {
            if (t.isSwitch()) {
                same(sim, at, "ibroute", "--node-name-map", mapFile.toString(), Integer.toString(t.lid()));
                break;
            }
        }
        for (String[] c : new String[][] {{Integer.toString(last.lid()), "999"}, {"999", "1"}, {"abc", "1"}}) {
            Result real = sim.realAt(at, "ibtracert", concat("-t", concat("100", c)));
            Result ours = sim.oursAt(at, concat("ibtracert", concat("-t", concat("100", c))));
            assertThat(ours.out()).isEqualTo(real.out());
            assertThat(ours.exit()).isEqualTo(real.exit());
            assertThat(stderr(ours.err())).as(ours.command()).isEqualTo(stderr(real.err()));
            compared++;
        }
    }

    /** libibmad's warnings, pids masked, umad2sim's own lines left out. */
    private static List<String> stderr(String err) {
        return err.lines().filter(l -> !l.contains("sim_connect") && !l.contains("umad2sim"))
                .map(l -> l.replaceAll("\\[\\d+\\]", "[pid]")).toList();
    }

    /**
     * ibqueryerrors over the whole fabric: the error counters (a query to a LID nobody has makes
     * PortRcvSwitchRelayErrors count at the switch), suppression, thresholds, node types, and the data counters,
     * which move with every MAD and so are compared with their values masked; then -k clears what a real run saw.
     */
    private void queryErrors(ToolSim sim, List<Target> targets) throws Exception {
        String at = targets.get(0).node();
        sim.realAt(at, "smpquery", "-t", "50", "nodeinfo", "999");
        Path thr = sim.dir().resolve("thresholds");
        Files.writeString(thr, "# test\nPortRcvSwitchRelayErrors=1\nSymbolErrorCounter=0x10\n");
        for (String[] a : new String[][] {{"--skip-sl"}, {"--skip-sl", "-c"}, {"--skip-sl", "--switch"},
            {"--skip-sl", "--ca"}, {"--skip-sl", "-s", "PortRcvSwitchRelayErrors,LinkDownedCounter"},
            {"--skip-sl", "--threshold-file", thr.toString()}, {"--skip-sl", "--details"}, {}}) {
            same(sim, at, "ibqueryerrors", a);
        }
        for (String[] a : new String[][] {{"--skip-sl", "--data"}, {"--skip-sl", "--counters"}}) {
            Result real = sim.realAt(at, "ibqueryerrors", a);
            Result ours = sim.oursAt(at, concat("ibqueryerrors", a));
            assertThat(maskCounts(ours.out())).as(ours.command()).isEqualTo(maskCounts(real.out()));
            assertThat(ours.exit()).isEqualTo(real.exit());
            compared++;
        }
        Result ours = sim.oursAt(at, "ibqueryerrors", "--skip-sl", "-k");
        assertThat(ours.out()).contains("PortRcvSwitchRelayErrors == ");
        Result after = sim.realAt(at, "ibqueryerrors", "--skip-sl");
        assertThat(after.out()).as("a real run after our -k").doesNotContain("Errors for")
                .contains(", 0 bad nodes found");
        assertThat(after.exit()).isZero();
        compared++;
    }

    private static String maskCounts(String s) {
        return s.replaceAll("(Data|Pkts) == \\d+ \\([0-9. ]+[A-Z]*\\)", "$1 == N");
    }

    /** The error paths: the real tools' words and exit codes. */
    private void errors(ToolSim sim, List<Target> targets) throws Exception {
        String at = targets.get(0).node();
        Target ca = targets.stream().filter(t -> !t.isSwitch()).findFirst().orElseThrow();
        String caLid = Integer.toString(ca.lid());
        for (List<String> c : List.of(
                List.of("ibroute", caLid),                                 // not a switch
                List.of("ibroute", "-t", "100", "999"),                    // no such LID
                List.of("ibroute", "abc"),
                List.of("ibaddr", "-t", "100", "999"),
                List.of("ibaddr", "0"),
                List.of("sminfo", "-t", "100", "999"),
                List.of("ibportstate", "-t", "100", "999", "1"),
                List.of("ibportstate", caLid, "1", "foo"),
                List.of("ibportstate", caLid, "1", "speed"),
                List.of("ibportstate", caLid, "1", "width", "99"),
                List.of("ibportstate", caLid, "1", "lid", "0xc000"),
                List.of("ibportstate", caLid, "1", "query", "reset"),
                List.of("ibportstate", "abc", "1"))) {
            same(sim, at, c.get(0), c.subList(1, c.size()).toArray(String[]::new));
        }
    }

    /** sminfo with OpenSM running: the same but for the activity count. */
    private void smInfo(ToolSim sim, List<Target> targets) throws Exception {
        String at = targets.get(0).node();
        Path log = sim.dir().resolve("opensm-run.log");
        ProcessBuilder pb = new ProcessBuilder(tools.opensm.toString(), "-f", log.toString())
                .directory(sim.dir().toFile()).redirectErrorStream(true)
                .redirectOutput(sim.dir().resolve("opensm-run.out").toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        sim.client().env(pb.environment());
        Process osm = pb.start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            Result real;
            do {
                Thread.sleep(200);
                real = sim.realAt(at, "sminfo");
            } while (real.exit() != 0 && System.nanoTime() < deadline);
            assertThat(real.exit()).as("sminfo with OpenSM running: " + real.out()).isZero();
            for (String[] a : new String[][] {{}, {Integer.toString(targets.get(0).lid())}, {"-D", "0"}}) {
                Result r = sim.realAt(at, "sminfo", a);
                Result o = sim.oursAt(at, concat("sminfo", a));
                assertThat(mask(o.out())).as(o.command()).isEqualTo(mask(r.out()));
                assertThat(o.exit()).isEqualTo(r.exit());
                compared++;
            }
        } finally {
            RealTools.stop(osm);
        }
    }

    private static String mask(String s) {
        return s.replaceAll("activity count \\d+", "activity count N");
    }

    /** ibportstate's changes: the real tool on one ibsim, ours on another of the same fabric. */
    private void portChanges(Path net, Path dir) throws Exception {
        Path d1 = Files.createDirectories(dir.resolve("a"));
        Path d2 = Files.createDirectories(dir.resolve("b"));
        Files.copy(net, d1.resolve(net.getFileName()));
        Files.copy(net, d2.resolve(net.getFileName()));
        try (ToolSim a = start(d1.resolve(net.getFileName()), d1);
             ToolSim b = start(d2.resolve(net.getFileName()), d2)) {
            a.sweep();
            b.sweep();
            List<Target> ta = discover(a);
            String at = ta.get(0).node();
            Target sw = ta.stream().filter(Target::isSwitch).findFirst().orElseThrow();
            Target ca = ta.stream().filter(t -> !t.isSwitch()).reduce((x, y) -> y).orElseThrow();
            String swLid = Integer.toString(sw.lid());
            String caLid = Integer.toString(ca.lid());
            // a linked port of the switch: the one discovery left it by to reach the next switch
            String top = ta.stream().filter(t -> t.isSwitch() && t.path().length == sw.path().length + 1)
                    .map(t -> Integer.toString(t.path()[t.path().length - 1])).findFirst()
                    .orElse(Integer.toString(sw.numPorts()));
            List<String[]> ops = List.of(
                    new String[] {swLid, top, "disable"},
                    new String[] {swLid, top, "enable"},
                    new String[] {swLid, top, "speed", "1"},
                    new String[] {swLid, top, "width", "1"},
                    new String[] {swLid, top, "reset"},
                    new String[] {swLid, top, "on"},
                    new String[] {swLid, "0", "mkeylease", "100", "lmc", "1"},
                    new String[] {caLid, Integer.toString(ca.port()), "mtu", "4", "vls", "2"},
                    new String[] {caLid, Integer.toString(ca.port()), "down"});
            for (String[] op : ops) {
                Result r = a.realAt(at, "ibportstate", op);
                Result o = b.oursAt(at, concat("ibportstate", op));
                assertThat(o.out()).as(o.command() + "\n(real stderr " + r.err() + ")").isEqualTo(r.out());
                assertThat(o.exit()).isEqualTo(r.exit());
                // the state after, asked by directed route (ibsim does not answer a LID-routed query's peer part)
                Target t = op[0].equals(swLid) ? sw : ca;
                String[] query = {"-D", String.join(",", Arrays.stream(t.path()).mapToObj(Integer::toString)
                        .toList()), op[1]};
                assertThat(b.realAt(at, "ibportstate", query).out()).as("after " + o.command())
                        .isEqualTo(a.realAt(at, "ibportstate", query).out());
                compared += 2;
            }
        }
    }

    private void same(ToolSim sim, String node, String tool, String... args) throws Exception {
        Result real = sim.realAt(node, tool, args);
        Result ours = sim.oursAt(node, concat(tool, args));
        assertThat(ours.out()).as(ours.command() + " at " + node + "\n(real stderr: " + real.err() + ")")
                .isEqualTo(real.out());
        assertThat(ours.exit()).as(ours.command() + " exit code").isEqualTo(real.exit());
        compared++;
    }

    private static String[] concat(String first, String... rest) {
        String[] a = new String[rest.length + 1];
        a[0] = first;
        System.arraycopy(rest, 0, a, 1, rest.length);
        return a;
    }

    /** A node: LID, ports to query, path, the ibsim name to attach at (for the first one found). */
    record Target(boolean isSwitch, int lid, int numPorts, int port, int[] path, String node) {
        List<Integer> ports() {
            return ToolSim.ports(isSwitch, numPorts, port);
        }
    }

    /** A real {@code ibsim -r} in this test's port band, and its clients. */
    private static ToolSim start(Path net, Path dir) throws IOException, InterruptedException {
        return ToolSim.start(tools, net, dir, FIRST_PORT, LAST_PORT, TOOL_TIMEOUT);
    }

    /** Every node by directed route from ibsim's first node, with the LIDs OpenSM gave. */
    private static List<Target> discover(ToolSim sim) {
        DrWalk.Walk w = DrWalk.of(sim.port());
        List<Target> found = new ArrayList<>();
        for (DrWalk.Found f : w.found()) {
            found.add(new Target(f.isSwitch(), f.lid(), f.numPorts(), f.port(), f.path(),
                    found.isEmpty() ? w.attachedNode() : null));
        }
        return found;
    }
}
