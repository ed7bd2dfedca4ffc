package org.ibtwin.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.ibtwin.interop.ToolSim.Result;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.model.Fabric;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ibtwin smpquery} and {@code ibtwin perfquery} against the real smpquery and perfquery (infiniband-diags), on
 * the same running {@code ibsim -r}, after a real {@code opensm -o} gave out LIDs: for every node and every port of
 * each fabric, every operation, the two outputs must be identical byte for byte, and the exit codes too.
 *
 * <p>Fabrics: a 2-level fat tree written by our TopologyWriter (switches with enhanced port 0, single-port CAs);
 * {@code mad/mad.net} (a base-port-0 switch, a 2-port CA, mixed widths and speeds); ibsim's shipped example
 * {@code net} when installed (unconnected CA ports).
 *
 * <p>Counters move while we look: every MAD through a port counts in its PortXmit/RcvPkts and Data, and a query
 * to a missing LID counts at the switch. So each perfquery comparison runs the real tool, then ours; most come out
 * identical. When they differ the real tool runs again: lines equal in the two real runs must be equal in ours, and
 * every other counter of ours must lie between the two real readings (counters only grow between resets). The
 * resets are compared by what a real read shows right after the real reset and right after ours: the same bytes,
 * since only the read's own MADs have passed since (but for a counter ibsim's reset leaves alone).
 */
@Tag("interop")
class SmpPerfqueryInteropTest {
    private static final Duration TOOL_TIMEOUT = Duration.ofSeconds(30);
    private static final Pattern DUMP_LINE = Pattern.compile("^([A-Za-z0-9]+):\\.*(\\d+)$");

    private static RealTools tools;
    private static final Path smpquery = RealTools.executable("smpquery").orElse(null);
    private static final Path perfquery = RealTools.executable("perfquery").orElse(null);
    private static final Path ibroute = RealTools.executable("ibroute").orElse(null);

    private int compared;
    private int identical;

    @BeforeAll
    static void findTools() {
        tools = RealTools.findOrSkip();
        RealTools.requireOrSkip("infiniband-diags", "smpquery", "perfquery", "ibroute");
    }

    // ---- the fabrics

    @Test
    void fatTreeEveryNodeEveryPort(@TempDir Path dir) throws Exception {
        Fabric f = FatTree.build(FatTreeSpec.of(2, 8, 8));
        long t0 = System.nanoTime();
        try (ToolSim sim = start(ToolSim.topology(f, dir, "fat.topo"), dir)) {
            sim.sweep();
            List<Target> targets = discover(sim);
            assertThat(targets.stream().filter(Target::isSwitch)).hasSize(f.switches().size());
            assertThat(targets.stream().filter(t -> !t.isSwitch())).hasSize(f.cas().size());
            everything(sim, targets);
            directedRoutes(sim, targets);
            forwardingTables(sim, targets);
        }
        report("fat tree 2x8x8", t0);
    }

    @Test
    void madNetBasePortZeroTwoPortCaAndErrors(@TempDir Path dir) throws Exception {
        Path net = dir.resolve("mad.net");
        try (var in = getClass().getResourceAsStream("/mad/mad.net")) {
            Files.copy(in, net);
        }
        long t0 = System.nanoTime();
        try (ToolSim sim = start(net, dir)) {
            sim.sweep();
            List<Target> targets = discover(sim);
            assertThat(targets).extracting(Target::desc).contains("spine two", "leaf switch one", "node001 HCA-1",
                    "node002 mlx5_0");
            everything(sim, targets);
            directedRoutes(sim, targets);
            forwardingTables(sim, targets);
            errors(sim, targets);
            resets(sim, targets);
            perfqueryVariants(sim, targets);
            guids(sim, targets);
        }
        report("mad.net", t0);
    }

    @Test
    void ibsimShippedExample(@TempDir Path dir) throws Exception {
        Path net = ToolSim.ibsimExample(dir);
        long t0 = System.nanoTime();
        try (ToolSim sim = start(net, dir)) {
            sim.sweep();
            List<Target> targets = discover(sim);
            everything(sim, targets);
            directedRoutes(sim, targets);
        }
        report("ibsim example net", t0);
    }

    private void report(String what, long t0) {
        System.out.printf(Locale.ROOT, "INTEROP smpquery/perfquery %s: %d comparisons, %d identical outputs, "
                + "%d ms%n", what, compared, identical, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
    }

    // ---- what is compared

    /** Every operation on every node and every port. */
    private void everything(ToolSim sim, List<Target> targets) throws Exception {
        for (Target t : targets) {
            String lid = Integer.toString(t.lid());
            for (String op : List.of("nodeinfo", "NodeDesc", "switchinfo", "GI")) {
                same(sim, "smpquery", op, lid);
            }
            for (int port : t.ports()) {
                String p = Integer.toString(port);
                for (String op : List.of("portinfo", "pkeys", "sl2vl", "vlarb")) {
                    same(sim, "smpquery", op, lid, p);
                }
                counters(sim, lid, p);
                counters(sim, "-x", lid, p);
            }
        }
        // a few options on the first CA
        Target ca = targets.stream().filter(t -> !t.isSwitch()).findFirst().orElseThrow();
        same(sim, "smpquery", "-K", "PI", Integer.toString(ca.lid()), Integer.toString(ca.port()));
        same(sim, "smpquery", "-x", "portinfo", Integer.toString(ca.lid()), Integer.toString(ca.port()));
        same(sim, "smpquery", "mepi", Integer.toString(ca.lid()), Integer.toString(ca.port()));
    }

    /** The same queries by directed route, for every node within three hops of the attach point. */
    private void directedRoutes(ToolSim sim, List<Target> targets) throws Exception {
        for (Target t : targets) {
            if (t.path().length > 3) {
                continue;
            }
            String path = Arrays.stream(t.path()).mapToObj(Integer::toString).collect(Collectors.joining(","));
            same(sim, "smpquery", "-D", "nodeinfo", path);
            same(sim, "smpquery", "-D", "nodedesc", path);
            same(sim, "smpquery", "-D", "portinfo", path, Integer.toString(t.isSwitch() ? 1 : t.port()));
            same(sim, "smpquery", "-D", "pkeys", path, Integer.toString(t.isSwitch() ? 1 : t.port()));
            if (t.isSwitch()) {
                same(sim, "smpquery", "-D", "switchinfo", path);
                same(sim, "smpquery", "-D", "sl2vl", path, "1");
            }
        }
    }

    /** Our LinearForwarding dump against ibroute's routes (no real smpquery prints the blocks). */
    private void forwardingTables(ToolSim sim, List<Target> targets) throws Exception {
        Pattern entry = Pattern.compile("^0x([0-9a-f]{4}) (\\d{3})( :.*)?$");
        for (Target t : targets) {
            if (!t.isSwitch()) {
                continue;
            }
            Result real = sim.real(ibroute, Integer.toString(t.lid()));
            Result ours = sim.ours("smpquery", "LFT", Integer.toString(t.lid()));
            assertThat(ours.exit()).as(ours.command()).isZero();
            Map<Integer, Integer> want = routes(real.out(), entry);
            Map<Integer, Integer> got = routes(ours.out(), entry);
            assertThat(want).as("ibroute %d", t.lid()).isNotEmpty();
            int top = want.keySet().stream().mapToInt(Integer::intValue).max().orElse(0);
            got.keySet().removeIf(l -> l > top);
            assertThat(got).as("LFT of lid %d against ibroute", t.lid()).isEqualTo(want);
            Result mft = sim.ours("smpquery", "MFT", Integer.toString(t.lid()), "0");
            assertThat(mft.out()).as(mft.command()).startsWith("# Multicast forwarding table: Lid " + t.lid()
                    + " blocks 0-0 ").endsWith(" valid mlids dumped\n");
        }
    }

    private static Map<Integer, Integer> routes(String text, Pattern entry) {
        Map<Integer, Integer> m = new TreeMap<>();
        for (String line : text.split("\n")) {
            Matcher x = entry.matcher(line);
            if (x.matches()) {
                m.put(Integer.parseInt(x.group(1), 16), Integer.parseInt(x.group(2)));
            }
        }
        return m;
    }

    /** The error paths: the real tools' words and exit codes. */
    private void errors(ToolSim sim, List<Target> targets) throws Exception {
        Target ca = targets.stream().filter(t -> !t.isSwitch()).findFirst().orElseThrow();
        Target sw = targets.stream().filter(Target::isSwitch).findFirst().orElseThrow();
        String caLid = Integer.toString(ca.lid());
        String swLid = Integer.toString(sw.lid());
        String beyond = Integer.toString(ca.numPorts() + 4);
        List<List<String>> cases = List.of(
                List.of("smpquery", "foo", swLid),                             // unknown op
                List.of("smpquery", "guids", swLid),
                List.of("smpquery", "nodeinfo", "abc"),                        // bad LIDs
                List.of("smpquery", "nodeinfo", "0"),
                List.of("smpquery", "nodeinfo", "0xc000"),
                List.of("smpquery", "nodeinfo", "0x" + Integer.toHexString(sw.lid())),
                List.of("smpquery", "-t", "100", "nodeinfo", "999"),           // unreachable: timeout
                List.of("smpquery", "-t", "100", "pkeys", "999", "1"),
                List.of("smpquery", "-D", "nodeinfo", ""),                     // bad DR paths
                List.of("smpquery", "-t", "100", "-D", "nodeinfo", "0,13"),
                List.of("smpquery", "-D", "nodeinfo", "0" + ",1".repeat(66)),
                List.of("smpquery", "-D", "nodeinfo", ",1"),
                List.of("smpquery", "portinfo", caLid, beyond),                // ports out of range
                List.of("smpquery", "pkeys", caLid, beyond),
                List.of("smpquery", "sl2vl", caLid, beyond),
                List.of("smpquery", "vlarb", caLid, beyond),
                List.of("smpquery", "-t", "0", "nodeinfo", swLid),             // options
                List.of("smpquery", "-t", "100", "-c", "nodeinfo", swLid, "0,1"),
                List.of("perfquery", "-t", "100", "999", "1"),
                List.of("perfquery", caLid, beyond),
                List.of("perfquery", caLid),
                List.of("perfquery", swLid, "2-2"),
                List.of("perfquery", "abc"));
        for (List<String> c : cases) {
            Result real = sim.real(c.get(0).equals("smpquery") ? smpquery : perfquery,
                    c.subList(1, c.size()).toArray(String[]::new));
            Result ours = sim.ours(c.toArray(String[]::new));
            assertThat(ours.out()).as(ours.command()).isEqualTo(real.out());
            assertThat(ours.exit()).as(ours.command() + " exit code").isEqualTo(real.exit());
            // our stderr says what libibmad's does, pids aside (it has umad2sim's lines too)
            List<String> realErr = List.of(real.err().replaceAll("\\[\\d+\\]", "[pid]").split("\n"));
            for (String line : ours.err().replaceAll("\\[\\d+\\]", "[pid]").split("\n")) {
                if (!line.isEmpty() && !line.contains("Usage")) {
                    assertThat(realErr).as(ours.command() + " stderr").contains(line);
                }
            }
            compared++;
            identical++;
        }
        // usage: exit 2 both
        assertThat(sim.ours("smpquery", "nodeinfo").exit()).isEqualTo(sim.real(smpquery, "nodeinfo").exit())
                .isEqualTo(2);
    }

    /** -R, -r, -x -R, -a and -l: resets compared through what a real read shows after them. */
    private void resets(ToolSim sim, List<Target> targets) throws Exception {
        Target ca = targets.stream().filter(t -> !t.isSwitch()).findFirst().orElseThrow();
        Target sw = targets.stream().filter(t -> t.isSwitch() && t.enhanced()).findFirst().orElseThrow();
        for (String[] lp : new String[][] {{Integer.toString(ca.lid()), Integer.toString(ca.port())},
            {Integer.toString(sw.lid()), "0"}, {Integer.toString(sw.lid()), "1"}}) {
            for (String x : new String[] {"", "-x"}) {
                String[] read = args(x, lp[0], lp[1]);
                String[] resetOnly = args(x, "-R", lp[0], lp[1]);
                String before = sim.real(perfquery, read).out();
                assertThat(sim.real(perfquery, resetOnly).out()).isEmpty();
                String afterReal = sim.real(perfquery, read).out();
                Result ours = sim.ours(concat("perfquery", resetOnly));
                assertThat(ours.exit()).isZero();
                assertThat(ours.out()).isEmpty();
                String afterOurs = sim.real(perfquery, read).out();
                sameAfterReset("real read after our perfquery " + String.join(" ", resetOnly), before, afterReal,
                        afterOurs);
                assertThat(value(afterReal, "PortXmitPkts")).as("reset: " + afterReal)
                        .isLessThanOrEqualTo(Math.min(value(before, "PortXmitPkts"), 4));
                // -r: read then reset, ours and the real one leave the same counters behind
                Result ourRead = sim.ours(concat("perfquery", args(x, "-r", lp[0], lp[1])));
                assertThat(ourRead.exit()).isZero();
                String afterOurR = sim.real(perfquery, read).out();
                sim.real(perfquery, args(x, "-r", lp[0], lp[1]));
                String afterRealR = sim.real(perfquery, read).out();
                sameAfterReset("real read after our -r", before, afterRealR, afterOurR);
                compared += 2;
                identical += 2;
            }
        }
        // error counters too: a missing LID counts at the switch port 0 (PortRcvSwitchRelayErrors)
        Target attach = targets.get(0);
        sim.real(smpquery, "-t", "50", "nodeinfo", "999");
        String relay = sim.real(perfquery, Integer.toString(attach.lid()), "0").out();
        if (relay.matches("(?s).*PortRcvSwitchRelayErrors:\\.*[1-9].*")) {
            sim.ours("perfquery", "-R", Integer.toString(attach.lid()), "0");
            assertThat(sim.real(perfquery, Integer.toString(attach.lid()), "0").out())
                    .contains("PortRcvSwitchRelayErrors:........0\n");
        }
    }

    /**
     * After a reset, a real read shows the same counters whoever reset them; except a counter the reset left
     * alone (ibsim does not clear PortCountersExtended's PortRcvPkts), which went on counting: such a line may
     * differ, if the real reset did not lower it either.
     */
    private static void sameAfterReset(String what, String before, String afterReal, String afterOurs) {
        String[] b = before.split("\n");
        String[] r = afterReal.split("\n");
        String[] o = afterOurs.split("\n");
        assertThat(o.length).as(what + "\n" + afterOurs).isEqualTo(r.length);
        for (int i = 0; i < r.length; i++) {
            if (o[i].equals(r[i])) {
                continue;
            }
            Matcher mb = DUMP_LINE.matcher(b[i]);
            Matcher mr = DUMP_LINE.matcher(r[i]);
            assertThat(mb.matches() && mr.matches()
                    && Long.parseUnsignedLong(mr.group(2)) >= Long.parseUnsignedLong(mb.group(2)))
                    .as(what + ": " + o[i] + " but " + r[i] + " after the real reset (before it: " + b[i] + ")")
                    .isTrue();
        }
    }

    private static long value(String dump, String field) {
        Matcher m = Pattern.compile("(?m)^" + field + ":\\.*(\\d+)$").matcher(dump);
        assertThat(m.find()).as(field + " in\n" + dump).isTrue();
        return Long.parseLong(m.group(1));
    }

    private static String[] args(String x, String... rest) {
        List<String> a = new ArrayList<>();
        if (!x.isEmpty()) {
            a.add(x);
        }
        a.addAll(List.of(rest));
        return a.toArray(String[]::new);
    }

    private static String[] concat(String first, String[] rest) {
        String[] a = new String[rest.length + 1];
        a[0] = first;
        System.arraycopy(rest, 0, a, 1, rest.length);
        return a;
    }

    /** Port lists, ranges, -a (AllPortSelect or its emulation), -l, the details, the local port. */
    private void perfqueryVariants(ToolSim sim, List<Target> targets) throws Exception {
        for (Target t : targets) {
            String lid = Integer.toString(t.lid());
            if (t.isSwitch()) {
                counters(sim, "-a", lid);
                counters(sim, "-l", lid, "1,2");
                counters(sim, "-a", lid, "1-3");
                counters(sim, "-x", "-a", lid, "1,2,4");
                counters(sim, "-l", "-x", lid, "2-4");
            } else {
                counters(sim, "-a", lid);
                counters(sim, "-x", "-a", lid);
            }
            counters(sim, "-D", lid, Integer.toString(t.ports().get(t.ports().size() - 1)));
            counters(sim, "-E", lid, Integer.toString(t.ports().get(t.ports().size() - 1)));
        }
        counters(sim);
        counters(sim, "-x");
    }

    /** -G: the GUID resolved by the SA, with a running OpenSM. */
    private void guids(ToolSim sim, List<Target> targets) throws Exception {
        try (ToolSim.RunningSm sm = sim.startSm()) {
            for (Target t : targets) {
                String guid = String.format("0x%016x", t.portGuid());
                same(sim, "smpquery", "-G", "nodeinfo", guid);
                if (!t.isSwitch()) {
                    counters(sim, "-G", guid, Integer.toString(t.port()));
                }
            }
            same(sim, "smpquery", "-t", "100", "-G", "nodeinfo", "0x1234");
            assertThat(sm.process().isAlive()).as("opensm still running").isTrue();
        }
    }

    // ---- comparing

    /** smpquery (or anything that does not move): identical stdout and exit code. */
    private void same(ToolSim sim, String tool, String... args) throws Exception {
        Result real = sim.real(tool.equals("smpquery") ? smpquery : perfquery, args);
        Result ours = sim.ours(concat(tool, args));
        assertThat(ours.out()).as(ours.command() + "\n(real stderr: " + real.err() + ")").isEqualTo(real.out());
        assertThat(ours.exit()).as(ours.command() + " exit code").isEqualTo(real.exit());
        compared++;
        identical++;
    }

    /** perfquery: real, ours, real; see the class comment. */
    private void counters(ToolSim sim, String... args) throws Exception {
        Result a = sim.real(perfquery, args);
        Result ours = sim.ours(concat("perfquery", args));
        compared++;
        if (ours.out().equals(a.out()) && ours.exit() == a.exit()) {
            identical++;
            return;
        }
        Result b = sim.real(perfquery, args);
        String what = ours.command();
        assertThat(ours.exit()).as(what + " exit code").isEqualTo(a.exit()).isEqualTo(b.exit());
        String[] la = a.out().split("\n", -1);
        String[] lo = ours.out().split("\n", -1);
        String[] lb = b.out().split("\n", -1);
        assertThat(lo.length).as(what + ": lines\n" + ours.out() + "\nreal:\n" + a.out()).isEqualTo(la.length);
        for (int i = 0; i < la.length; i++) {
            if (la[i].equals(lb[i])) {
                assertThat(lo[i]).as(what + " line " + (i + 1)).isEqualTo(la[i]);
                continue;
            }
            Matcher ma = DUMP_LINE.matcher(la[i]);
            Matcher mo = DUMP_LINE.matcher(lo[i]);
            Matcher mb = DUMP_LINE.matcher(lb[i]);
            assertThat(ma.matches() && mo.matches() && mb.matches()).as(what + " line " + (i + 1) + ": " + lo[i]
                    + " vs " + la[i] + " / " + lb[i]).isTrue();
            assertThat(mo.group(1)).isEqualTo(ma.group(1));
            long va = Long.parseUnsignedLong(ma.group(2));
            long vo = Long.parseUnsignedLong(mo.group(2));
            long vb = Long.parseUnsignedLong(mb.group(2));
            assertThat(Long.compareUnsigned(va, vo) <= 0 && Long.compareUnsigned(vo, vb) <= 0)
                    .as(what + ": " + ma.group(1) + " " + vo + " not within the real readings " + va + ".." + vb)
                    .isTrue();
        }
    }

    // ---- the fabric as discovered by directed route

    /** A node to query: its LID, the ports to query, the path to it from where the tools attach. */
    record Target(boolean isSwitch, int lid, int numPorts, int port, boolean enhanced, int[] path, long portGuid,
                  String desc) {
        /** A switch: every port, 0 included; a CA: the port we reached it by. */
        List<Integer> ports() {
            return ToolSim.ports(isSwitch, numPorts, port);
        }
    }

    /** A real {@code ibsim -r} ({@link RemoteIbsim}) on a UDP port range in 17200..17290, and clients of it. */
    private static ToolSim start(Path net, Path dir) throws IOException, InterruptedException {
        return ToolSim.start(tools, net, dir, 17200, 17280, TOOL_TIMEOUT);
    }

    /**
     * The nodes, found by directed route from where clients attach (ibsim's first node): switches once each,
     * CA ports once each, with the LIDs OpenSM gave them.
     */
    private static List<Target> discover(ToolSim sim) {
        List<Target> found = new ArrayList<>();
        for (DrWalk.Found f : DrWalk.of(sim.port()).found()) {
            found.add(new Target(f.isSwitch(), f.lid(), f.numPorts(), f.port(), f.enhancedPort0(), f.path(),
                    f.portGuid(), f.desc()));
        }
        return found;
    }
}
