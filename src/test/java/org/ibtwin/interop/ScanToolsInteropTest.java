package org.ibtwin.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.ibtwin.interop.ToolSim.Result;
import org.ibtwin.format.FabricFiles;
import org.ibtwin.format.TopologyWriter;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Link;
import org.ibtwin.model.Node;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ibtwin ibnetdiscover}, {@code iblinkinfo}, {@code ibswitches}, {@code ibhosts} and {@code ibnodes} against
 * the real infiniband-diags tools on the same running {@code ibsim -r}, brought up by a real {@code opensm -o}: for
 * each fabric and each option set the two outputs must be identical line for line (the topology's timestamp aside),
 * the exit codes equal, and the cache files of {@code --cache} identical byte for byte, each tool reading the
 * other's.
 *
 * <p>Fabrics: ibsim's shipped example {@code net} (unconnected ports, 2-port CAs), a 2-level and a 3-level fat tree
 * written by our TopologyWriter, and the built-in default fabric (a DDR link among HDR ones: iblinkinfo's "Could
 * be" hints). Then {@code --diff}: a cache of the default fabric against the same fabric with a cable pulled and a
 * host added.
 */
@Tag("interop")
class ScanToolsInteropTest {
    private static final Duration TOOL_TIMEOUT = Duration.ofSeconds(30);
    /** This test's UDP band (ibsim uses P..P+10). */
    private static final int FIRST_PORT = 18300;
    private static final int LAST_PORT = 18380;

    private static RealTools tools;
    private static final Path iblinkinfo = RealTools.executable("iblinkinfo").orElse(null);
    private static final Path ibswitches = RealTools.executable("ibswitches").orElse(null);
    private static final Path ibhosts = RealTools.executable("ibhosts").orElse(null);
    private static final Path ibnodes = RealTools.executable("ibnodes").orElse(null);

    private static final int SIGSEGV = 139;

    private int compared;
    private final List<String> crashed = new ArrayList<>();

    @BeforeAll
    static void findTools() {
        tools = RealTools.findOrSkip();
        RealTools.requireOrSkip("infiniband-diags", "iblinkinfo", "ibswitches", "ibhosts", "ibnodes");
    }

    @Test
    void ibsimShippedExample(@TempDir Path dir) throws Exception {
        Path net = ToolSim.ibsimExample(dir);
        long t0 = System.nanoTime();
        try (ToolSim sim = start(net, dir)) {
            everything(sim, List.of("0,3", "0,1", "0,3,4"), true);
        }
        report("ibsim example net", t0);
    }

    @Test
    void twoLevelFatTree(@TempDir Path dir) throws Exception {
        fabric(FatTree.build(FatTreeSpec.of(2, 8, 16)), "fat2", dir, List.of("0,1", "0,1,5"));
    }

    @Test
    void threeLevelFatTree(@TempDir Path dir) throws Exception {
        fabric(FatTree.build(FatTreeSpec.of(3, 4, 16)), "fat3", dir, List.of("0,1", "0,1,3,3"));
    }

    @Test
    void defaultFabricWithItsDegradedLinkAndDiff(@TempDir Path dir) throws Exception {
        Fabric f = FabricFiles.loadDefault();
        long t0 = System.nanoTime();
        Path net = dir.resolve("default.topo");
        TopologyWriter.write(f, net);
        Path cache;
        try (ToolSim sim = start(net, dir)) {
            everything(sim, List.of("0,1", "0,1,33"), false);
            Result hints = sim.ours("iblinkinfo");
            // the DDR cable between HDR ports: ibsim's ports claim QDR at most, so that is what it could be
            assertThat(hints.out()).containsPattern("(?m)^ +2 +33\\[  \\] ==\\( 4X +5\\.0 Gbps Active/  LinkUp\\)==> .*"
                    + "\\(Could be 12X Could be 10\\.0 Gbps\\)$");
            cache = dir.resolve("before.cache");
            Result c = sim.real(tools.ibnetdiscover, "--cache", cache.toString());
            assertThat(c.exit()).isZero();
        }
        // a cable pulled, a description changed: what --diff shows
        Fabric g = FabricFiles.loadDefault();
        Link pulled = byDescription(g, "node007").port(1).link();
        g.disconnect(pulled);
        Node n = byDescription(g, "node008");
        n.setDescription("node008 renamed");
        Path dir2 = Files.createDirectories(dir.resolve("after"));
        Path net2 = dir2.resolve("after.topo");
        TopologyWriter.write(g, net2);
        try (ToolSim sim = start(net2, dir2)) {
            String c = cache.toString();
            for (String keys : List.of("", "sw,ca,router,port,lid,nodedesc", "ca,port", "sw")) {
                List<String> a = new ArrayList<>(List.of("--diff", c));
                if (!keys.isEmpty()) {
                    a.addAll(List.of("--diffcheck", keys));
                }
                same(sim, tools.ibnetdiscover, a.toArray(String[]::new));
            }
            for (String keys : List.of("", "port,state,lid,nodedesc", "state")) {
                List<String> a = new ArrayList<>(List.of("--diff", c));
                if (!keys.isEmpty()) {
                    a.addAll(List.of("--diffcheck", keys));
                }
                same(sim, iblinkinfo, a.toArray(String[]::new));
            }
            same(sim, iblinkinfo, "--filterdownports", c);
            same(sim, iblinkinfo, "--diff", c, "--cas-only", "-l");
            Result d = sim.ours("ibnetdiscover", "--diff", c);
            assertThat(d.out()).contains("node007").contains("< ");
        }
        report("default fabric (+ --diff)", t0);
    }

    private static Node byDescription(Fabric f, String prefix) {
        return f.nodes().stream().filter(n -> n.description().startsWith(prefix + " ")).findFirst().orElseThrow();
    }

    /**
     * The real tools and ours on ibtwin's own simulator (the twin's ibsim endpoint), brought up by real OpenSM: an
     * FDR10 fabric (ConnectX-3 and SwitchX, so both scans ask the Mellanox ExtendedPortInfo) and the default fabric
     * (HDR: its DDR link could be 53.125 Gbps).
     */
    @Test
    void realToolsOnTheTwin(@TempDir Path dir) throws Exception {
        long t0 = System.nanoTime();
        for (Fabric f : List.of(org.ibtwin.gen.Shapes.singleSwitch(4, 36, org.ibtwin.model.LinkSpeed.FDR10),
                FabricFiles.loadDefault())) {
            org.ibtwin.sim.Twin twin = org.ibtwin.sim.Twin.of(f);
            Path d = Files.createDirectories(dir.resolve("twin" + f.size()));
            try (ToolSim sim = swept(ToolSim.on(tools, RemoteIbsim.serveTwin(twin, FIRST_PORT, LAST_PORT), d,
                    TOOL_TIMEOUT))) {
                boolean small = f.size() < 10;
                for (String[] a : small ? new String[][] {{}, {"-p"}, {"-f"}, {"-s"}} : new String[][] {{}}) {
                    same(sim, tools.ibnetdiscover, a);
                }
                for (String[] a : small ? new String[][] {{}, {"-l"}, {"-d"}} : new String[][] {{}}) {
                    same(sim, iblinkinfo, a);
                }
                String links = sim.ours("iblinkinfo").out();
                assertThat(links).contains(f.size() == 5 ? "10.0 Gbps (FDR10)" : "( Could be 53.125 Gbps)");
            }
        }
        report("on the twin (FDR10, default)", t0);
    }

    private void fabric(Fabric f, String name, Path dir, List<String> paths) throws Exception {
        Path net = dir.resolve(name + ".topo");
        TopologyWriter.write(f, net);
        long t0 = System.nanoTime();
        try (ToolSim sim = start(net, dir)) {
            everything(sim, paths, false);
        }
        report(name + " (" + f.switches().size() + " switches, " + f.cas().size() + " CAs)", t0);
    }

    /** Every tool, every option set ({@code all}; else the main ones), on one running fabric. */
    private void everything(ToolSim sim, List<String> drPaths, boolean all) throws Exception {
        Path map = sim.dir().resolve("names.map");
        Result list = sim.ours("ibnetdiscover", "-l");
        StringBuilder m = new StringBuilder("# a node name map\n\n");
        int i = 0;
        for (String line : list.out().split("\n")) {
            String guid = line.replaceAll(".*: (0x[0-9a-f]{16}) .*", "$1");
            m.append(i % 3 == 0 ? "  " : "").append(guid).append(i % 2 == 0 ? " \"mapped " + i + "\"\n"
                    : "\tmapped-" + i + " # a comment\n");
            i++;
        }
        Files.writeString(map, m);
        String nm = map.toString();
        String[][] discoverArgs = all ? new String[][] {{}, {"-p"}, {"-l"}, {"-H"}, {"-S"}, {"-R"}, {"-s"}, {"-f"},
            {"-m"}, {"-g"}, {"-l", "-S"}, {"-S", "-l"}, {"--node-name-map", nm}, {"--node-name-map", nm, "-p"},
            {"--node-name-map", nm, "-l"}, {"-o", "4"}}
            : new String[][] {{}, {"-p"}, {"-l"}, {"-s"}, {"-g", "-f"}, {"--node-name-map", nm}};
        for (String[] a : discoverArgs) {
            same(sim, tools.ibnetdiscover, a);
        }
        List<String[]> linkArgs = new ArrayList<>(List.of(all ? new String[][] {{}, {"-d"}, {"-l"}, {"-p"},
            {"-l", "-p"}, {"--switches-only"}, {"--cas-only"}, {"--switches-only", "-l"}, {"-d", "-l"},
            {"--node-name-map", nm}, {"--node-name-map", nm, "-l"}, {"-n", "1"}}
            : new String[][] {{}, {"-l"}, {"-d"}, {"--cas-only", "--node-name-map", nm}}));
        for (String p : drPaths) {
            linkArgs.add(new String[] {"-D", p});
            linkArgs.add(new String[] {"-D", p, "-a"});
        }
        for (String[] a : linkArgs) {
            same(sim, iblinkinfo, a);
        }
        for (Path script : all ? List.of(ibswitches, ibhosts, ibnodes) : List.of(ibnodes)) {
            same(sim, script);
        }
        // a topology file given to the scripts
        Path topo = sim.dir().resolve("scan.topo");
        Result t = sim.real(tools.ibnetdiscover, topo.toString());
        assertThat(t.exit()).isZero();
        same(sim, ibswitches, topo.toString());
        same(sim, ibhosts, topo.toString());
        // cache files: byte for byte, and each reads the other's
        Path theirs = sim.dir().resolve("real.cache");
        Path ours = sim.dir().resolve("ours.cache");
        assertThat(sim.real(tools.ibnetdiscover, "--cache", theirs.toString()).exit()).isZero();
        assertThat(sim.ours("ibnetdiscover", "--cache", ours.toString()).exit()).isZero();
        assertThat(Files.readAllBytes(ours)).as("--cache file").isEqualTo(Files.readAllBytes(theirs));
        for (Path c : List.of(theirs, ours)) {
            same(sim, tools.ibnetdiscover, "--load-cache", c.toString());
            same(sim, iblinkinfo, "--load-cache", c.toString());
        }
        // and cached again after loading
        Path again = sim.dir().resolve("again.cache");
        assertThat(sim.ours("ibnetdiscover", "--load-cache", theirs.toString(), "--cache", again.toString()).exit())
                .isZero();
        assertThat(Files.readAllBytes(again)).as("--load-cache then --cache").isEqualTo(Files.readAllBytes(theirs));
    }

    /** The real tool and ours with the same arguments: the same output and exit code. */
    private void same(ToolSim sim, Path exe, String... args) throws Exception {
        Result real = sim.real(exe, args);
        Result ours = sim.ours(exe.getFileName().toString(), args);
        compared++;
        String what = real.command();
        if (real.exit() == SIGSEGV) {
            // the real tool dereferences a missing remote port or header flag in some --diff cases; ours prints
            crashed.add(what);
            assertThat(ours.exit()).as(what + " (the real tool crashed)\n" + ours.err()).isZero();
            return;
        }
        assertThat(ours.exit()).as(what + " exit code\nreal stderr: " + real.err() + "\nours stderr: " + ours.err())
                .isEqualTo(real.exit());
        assertThat(strip(ours.out())).as(what).isEqualTo(strip(real.out()));
    }

    /** The topology's timestamp line is the only thing allowed to differ. */
    private static String strip(String s) {
        return s.replaceAll("(?m)^# Topology file: generated on .*$", "# Topology file: generated on (time)");
    }

    private void report(String what, long t0) {
        System.out.printf(Locale.ROOT, "INTEROP scan tools %s: %d comparisons, all identical%s, %d ms%n", what,
                compared, crashed.isEmpty() ? "" : " (but where the real tool crashed: " + crashed + ")",
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
    }

    /** A real {@code ibsim -r} on our band, swept once by a real {@code opensm -o}. */
    private static ToolSim start(Path net, Path dir) throws IOException, InterruptedException {
        return swept(ToolSim.start(tools, net, dir, FIRST_PORT, LAST_PORT, TOOL_TIMEOUT));
    }

    private static ToolSim swept(ToolSim s) throws IOException, InterruptedException {
        try {
            s.sweep();
        } catch (Throwable e) {
            s.close();
            throw e;
        }
        return s;
    }
}
