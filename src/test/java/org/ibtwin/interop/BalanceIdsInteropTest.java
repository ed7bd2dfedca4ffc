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
import org.ibtwin.diag.MadQuery;
import org.ibtwin.format.FabricFiles;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.PortId;
import org.ibtwin.mad.SmpAttributes;
import org.ibtwin.model.Fabric;
import org.ibtwin.transport.IbsimClient;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ibtwin check_lft_balance} and {@code ibtwin ibidsverify} against infiniband-diags' scripts of those names on
 * the same running {@code ibsim -r}, brought up by a real {@code opensm -o}: the same output, line for line, and the
 * same exit code. check_lft_balance is run on the files the real workflow makes (real dump_fts and ibnetdiscover
 * --cache) by both, and ours also live, with no files.
 *
 * <p>Fabrics: ibsim's example net (before OpenSM: every LID 0), the built-in default fabric (radix-40 switches, of
 * which the script looks at ports 1..36), a 2-level fat tree (balanced; then unbalanced: four
 * of a leaf's uplinks disabled with real ibportstate, OpenSM rerouting around them, the links enabled again with no
 * sweep after), a 3-level fat tree with LMC 1 (the "path #2 out of 2" lines), and a net file whose GUIDs collide
 * (a CA's node GUID is another's port GUID, two ports share a GUID; then a LID given twice with SubnSet(PortInfo)).
 */
@Tag("interop")
class BalanceIdsInteropTest {
    private static final Duration TOOL_TIMEOUT = Duration.ofSeconds(30);
    /** This test's UDP band (ibsim uses P..P+10). */
    private static final int FIRST_PORT = 18500;
    private static final int LAST_PORT = 18580;
    private static final int SIGSEGV = 139;

    private static RealTools tools;
    private static final Path checkLftBalance = RealTools.executable("check_lft_balance").orElse(null);
    private static final Path ibidsverify = RealTools.executable("ibidsverify").orElse(null);
    private static final Path dumpFts = RealTools.executable("dump_fts").orElse(null);
    private static final Path ibportstate = RealTools.executable("ibportstate").orElse(null);

    private int compared;

    @BeforeAll
    static void findTools() {
        tools = RealTools.findOrSkip();
        RealTools.requireOrSkip("infiniband-diags", "check_lft_balance", "ibidsverify", "dump_fts", "ibportstate",
                "perl");
    }

    @Test
    void ibsimExampleBeforeAndAfterOpenSm(@TempDir Path dir) throws Exception {
        Path net = ToolSim.ibsimExample(dir);
        long t0 = System.nanoTime();
        try (ToolSim sim = start(net, dir)) {
            Result before = ids(sim);
            assertThat(before.out()).contains("LID 0 found for switch NodeGUID 0x");
            assertThat(before.exit()).isEqualTo(1);
            sim.sweep();
            assertThat(ids(sim).out()).isEmpty();
            balance(sim, "example");
        }
        report("ibsim example net", t0);
    }

    @Test
    void twoLevelFatTreeBalancedThenNot(@TempDir Path dir) throws Exception {
        Fabric f = FatTree.build(FatTreeSpec.of(2, 16, 64));
        long t0 = System.nanoTime();
        try (ToolSim sim = start(ToolSim.topology(f, dir, "fat2.topo"), dir)) {
            sim.sweep();
            Result v = balance(sim, "balanced");
            assertThat(v.out()).contains("Switch Port Usage: leaf01").doesNotContain("Unbalanced");
            assertThat(ids(sim).exit()).isZero();
            // a leaf's uplinks 9..12 down, OpenSM routes around them, then they come back with nobody resweeping
            String leaf = sim.ours("ibswitches").out().lines().filter(l -> l.contains("\"leaf01\""))
                    .map(l -> l.replaceAll(".* lid (\\d+) .*", "$1")).findFirst().orElseThrow();
            for (int p = 9; p <= 12; p++) {
                assertThat(sim.real(ibportstate, leaf, Integer.toString(p), "disable").exit()).isZero();
            }
            sim.sweep();
            for (int p = 9; p <= 12; p++) {
                assertThat(sim.real(ibportstate, leaf, Integer.toString(p), "enable").exit()).isZero();
            }
            Result u = balance(sim, "unbalanced");
            assertThat(u.out()).contains("Unbalanced Switch Port Usage: leaf01, 0x").contains("Port 009: 0\n")
                    .contains("Port 013: 14\n");
        }
        report("2-level fat tree", t0);
    }

    @Test
    void defaultFabricWithPortsPast36(@TempDir Path dir) throws Exception {
        long t0 = System.nanoTime();
        try (ToolSim sim = start(ToolSim.topology(FabricFiles.loadDefault(), dir, "default.topo"), dir)) {
            sim.sweep();
            // radix-40 switches: the script never looks past port 36
            assertThat(balance(sim, "default").out()).contains("Port 036: ").doesNotContain("Port 037: ");
            assertThat(ids(sim).exit()).isZero();
        }
        report("default fabric", t0);
    }

    @Test
    void threeLevelFatTreeWithLmc(@TempDir Path dir) throws Exception {
        Fabric f = FatTree.build(FatTreeSpec.of(3, 8, 32));
        long t0 = System.nanoTime();
        try (ToolSim sim = start(ToolSim.topology(f, dir, "fat3.topo"), dir)) {
            sim.sweep("-l", "1");
            balance(sim, "lmc1");
            assertThat(ids(sim).exit()).isZero();
        }
        report("3-level fat tree, LMC 1", t0);
    }

    @Test
    void collidingGuidsAndLids(@TempDir Path dir) throws Exception {
        Path net = dir.resolve("dup.net");
        // Hca2's node GUID is set to Hca1's port 1 GUID, so Hca2's port 1 has Hca1's port 2 GUID
        Files.writeString(net, """
                Switch 8 "Switch1"
                [1] "Hca1"[1]
                [2] "Hca1"[2]
                [3] "Hca2"[1]
                [4] "Hca3"[1]
                [5] "Hca4"[1]

                Hca 2 "Hca1"
                [1] "Switch1"[1]
                [2] "Switch1"[2]

                caguid=0x100001
                Hca 2 "Hca2"
                [1] "Switch1"[3]

                Hca 1 "Hca3"
                [1] "Switch1"[4]

                Hca 1 "Hca4"
                [1] "Switch1"[5]
                """);
        long t0 = System.nanoTime();
        try (ToolSim sim = start(net, dir)) {
            // OpenSM 3.3 crashes now and then (SIGSEGV) on duplicate port GUIDs: another run goes on from there
            for (int attempt = 1; sim.real(tools.opensm, "-o", "-f", dir.resolve("opensm.log").toString()).exit()
                    == SIGSEGV; attempt++) {
                assertThat(attempt).as("opensm -o crashed 5 times").isLessThan(5);
            }
            Result r = ids(sim);
            assertThat(r.exit()).isEqualTo(1);
            assertThat(r.out()).contains("PortGUID 0x100001 is an invalid duplicate of a NodeGUID")
                    .contains("PortGUID 0x100002 already defined for LID");
            // Hca4's port takes Hca3's LID
            try (IbsimClient c = IbsimClient.connect(RemoteIbsim.HOST, sim.port(), null, false,
                    Duration.ofSeconds(5))) {
                MadQuery q = new MadQuery(c);
                int hca3 = lidOf(q, "Hca3");
                int hca4 = lidOf(q, "Hca4");
                byte[] pi = q.smpGet(PortId.lid(hca4), AttributeIds.PORT_INFO, 1);
                SmpAttributes.PORT_INFO.set(pi, 0, "Lid", hca3);
                SmpAttributes.PORT_INFO.set(pi, 0, "LinkState", 0);         // no state change
                SmpAttributes.PORT_INFO.set(pi, 0, "PhysLinkState", 0);
                q.smpSet(PortId.lid(hca4), AttributeIds.PORT_INFO, 1, pi);
            }
            Result d = ids(sim);
            assertThat(d.out()).containsPattern("LID \\d+ already defined for NodeGUID 0x10000[0-9]");
            balance(sim, "dup");
        }
        report("colliding GUIDs and LIDs", t0);
    }

    /** The LID of the CA whose description is {@code name}, from the switch's LFT as OpenSM set it. */
    private static int lidOf(MadQuery q, String name) {
        for (int lid = 1; lid < 64; lid++) {
            try {
                byte[] nd = q.smpGet(PortId.lid(lid), AttributeIds.NODE_DESC, 0);
                if (org.ibtwin.diag.RouteDump.desc(nd).equals(name)) {
                    return lid;
                }
            } catch (RuntimeException e) {
                // no port with that LID
            }
        }
        throw new AssertionError("no LID for " + name);
    }

    /** ibidsverify -R, real and ours: the same lines and exit code. */
    private Result ids(ToolSim sim) throws Exception {
        Result real = sim.real(ibidsverify, "-R");
        Result ours = sim.ours("ibidsverify", "-R");
        compared++;
        assertThat(ours.out()).as(real.command() + "\nours stderr: " + ours.err()).isEqualTo(real.out());
        assertThat(ours.exit()).as(real.command() + " exit code").isEqualTo(real.exit());
        return ours;
    }

    /**
     * check_lft_balance with -v, -e, -e -v and nothing, on the real dump_fts output and ibnetdiscover cache: the real
     * script and ours on those files, and ours live; all the same.
     */
    private Result balance(ToolSim sim, String name) throws Exception {
        Path lfts = sim.dir().resolve(name + ".lfts");
        Path cache = sim.dir().resolve(name + ".cache");
        Result dump = sim.real(dumpFts);
        assertThat(dump.exit()).as("dump_fts\n" + dump.err()).isZero();
        Files.writeString(lfts, dump.out());
        assertThat(sim.real(tools.ibnetdiscover, "--cache", cache.toString()).exit()).isZero();
        Result verbose = null;
        for (String[] opts : new String[][] {{"-v"}, {"-e"}, {"-e", "-v"}, {}}) {
            List<String> a = new ArrayList<>(List.of("-l", lfts.toString(), "-i", cache.toString()));
            a.addAll(List.of(opts));
            Result real = sim.real(checkLftBalance, a.toArray(String[]::new));
            Result offline = sim.ours("check_lft_balance", a.toArray(String[]::new));
            Result live = sim.ours("check_lft_balance", opts);
            compared += 2;
            assertThat(real.exit()).as(real.command() + "\n" + real.err()).isZero();
            assertThat(offline.out()).as(real.command() + " (ours on the same files)\n" + offline.err())
                    .isEqualTo(real.out());
            assertThat(offline.exit()).isZero();
            assertThat(live.out()).as(real.command() + " (ours live)\n" + live.err()).isEqualTo(real.out());
            assertThat(live.exit()).isZero();
            if (opts.length == 1 && opts[0].equals("-v")) {
                verbose = live;
                assertThat(real.out()).as("-v lists every switch").contains("Switch Port Usage: ");
            }
        }
        return verbose;
    }

    private void report(String what, long t0) {
        System.out.printf(Locale.ROOT, "INTEROP check_lft_balance/ibidsverify %s: %d comparisons, all identical, "
                + "%d ms%n", what, compared, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
    }

    private static ToolSim start(Path net, Path dir) throws IOException, InterruptedException {
        return ToolSim.start(tools, net, dir, FIRST_PORT, LAST_PORT, TOOL_TIMEOUT);
    }
}
