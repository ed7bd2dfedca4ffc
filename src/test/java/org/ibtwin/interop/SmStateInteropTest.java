package org.ibtwin.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.ibtwin.format.FabricFiles;
import org.ibtwin.format.tools.SmOutputs;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.model.Fabric;
import org.ibtwin.sim.IbsimServer;
import org.ibtwin.sim.Twin;
import org.ibtwin.sim.TwinTransport;
import org.ibtwin.sm.SmConfig;
import org.ibtwin.sm.SmDumps;
import org.ibtwin.sm.SmLog;
import org.ibtwin.sm.SmStateMachine;
import org.ibtwin.sm.SubnetManager;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * ibtwin's SM state and dumps through the real programs: real {@code sminfo} against the twin's ibsim endpoint
 * shows our master (and, asked at its LID, our standby); and on real {@code ibsim -r}, the {@code opensm-subnet.lst}
 * our SM writes is byte for byte the one real OpenSM writes for the same fabric and LIDs, its
 * {@code opensm-lfts.dump} line for line the same but for the egress ports routing may choose differently, and
 * ibtwin's ibroute reader loads both. Ports 18200..18289.
 */
@Tag("interop")
@Timeout(120)
class SmStateInteropTest extends InteropTest {
    static final int FIRST_PORT = 18200;
    static final int LAST_PORT = 18289;
    static final Duration TOOL_TIMEOUT = Duration.ofSeconds(20);

    static Path sminfo;

    @BeforeAll
    static void findTools() {
        tools = RealTools.findOrSkip();
        sminfo = RealTools.executable("sminfo").orElse(null);
        if (sminfo == null) {
            String notice = "INTEROP SKIPPED: sminfo not found (install " + RealTools.PACKAGES + ")";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                org.junit.jupiter.api.Assertions.fail("CI=true but " + notice);
            }
            System.err.println(notice);
            org.junit.jupiter.api.Assumptions.assumeTrue(false, notice);
        }
    }

    @Test
    void realSminfoShowsOurMasterAndOurStandby() throws Exception {
        Fabric fabric = FatTree.build(FatTreeSpec.of(2, 8, 16));
        Twin twin = Twin.of(fabric);
        String masterNode = fabric.cas().get(0).name();
        String standbyNode = fabric.cas().get(7).name();
        SmConfig cfg = SmConfig.defaults().withSweepInterval(Duration.ofMillis(500));
        SmStateMachine.Polling polling = new SmStateMachine.Polling(Duration.ofMillis(200), 4);
        AtomicBoolean stop = new AtomicBoolean();
        var a = twin.attach(masterNode, 0);
        a.setIsSm(true);
        var b = twin.attach(standbyNode, 0);
        b.setIsSm(true);
        try (TwinTransport ta = new TwinTransport(a); TwinTransport tb = new TwinTransport(b);
             IbsimServer server = RemoteIbsim.serveTwin(twin, FIRST_PORT, LAST_PORT)) {
            SubnetManager ma = new SubnetManager(ta, cfg.withPriority(5), SmLog.quiet());
            SmStateMachine sa = new SmStateMachine(ma, polling, SmLog.quiet());
            Thread ra = new Thread(() -> sa.run(stop), "sm-master");
            ra.setDaemon(true);
            ra.start();
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (!(sa.state() == SmStateMachine.State.MASTER && ma.sweeps() >= 1 && ma.lids() != null)) {
                assertThat(System.nanoTime()).as("master up").isLessThan(deadline);
                Thread.sleep(20);
            }
            SubnetManager mb = new SubnetManager(tb, cfg.withPriority(2), SmLog.quiet());
            SmStateMachine sb = new SmStateMachine(mb, polling, SmLog.quiet());
            Thread rb = new Thread(() -> sb.run(stop), "sm-standby");
            rb.setDaemon(true);
            rb.start();
            while (sb.state() != SmStateMachine.State.STANDBY) {
                assertThat(System.nanoTime()).as("standby").isLessThan(deadline);
                Thread.sleep(20);
            }
            int masterLid = twin.lid(masterNode, 1);
            int standbyLid = twin.lid(standbyNode, 1);
            try {
                UmadClient c = new UmadClient(tools.umad2sim, server.port(), dir, fabric.cas().get(3).name(),
                        TOOL_TIMEOUT);
                UmadClient.Result r = c.run(sminfo);
                assertThat(r.exit()).as(r.err()).isZero();
                assertThat(r.out()).matches(String.format("sminfo: sm lid %d sm guid 0x%x, activity count \\d+ "
                        + "priority 5 state 3 SMINFO_MASTER\\n", masterLid, ta.localPort().portGuid()));
                UmadClient.Result s = c.run(sminfo, Integer.toString(standbyLid));
                assertThat(s.exit()).as(s.err()).isZero();
                assertThat(s.out()).matches(String.format("sminfo: sm lid %d sm guid 0x%x, activity count \\d+ "
                        + "priority 2 state 2 SMINFO_STANDBY\\n", standbyLid, tb.localPort().portGuid()));
            } finally {
                stop.set(true);
                ra.join(3000);
                rb.join(3000);
            }
        }
    }

    /** Our SM attached over the ibsim protocol as SM (IsSM set once it answers SMInfo, as ibtwin sm does). */
    private static SmStateMachine ourSm(IbsimServer server, String node, int priority, AtomicBoolean stop)
            throws Exception {
        org.ibtwin.transport.IbsimClient c = org.ibtwin.transport.IbsimClient.connect("127.0.0.1", server.port(),
                node, false, Duration.ofSeconds(2));
        SubnetManager m = new SubnetManager(c, SmConfig.defaults().withPriority(priority)
                .withSweepInterval(Duration.ofSeconds(1)), SmLog.quiet());
        SmStateMachine s = new SmStateMachine(m, new SmStateMachine.Polling(Duration.ofSeconds(1), 3), SmLog.quiet());
        c.setIsSm(true);
        Thread t = new Thread(() -> {
            try (c) {
                s.run(stop);
            }
        }, "our-sm");
        t.setDaemon(true);
        t.start();
        return s;
    }

    private static void await(String what, java.util.function.BooleanSupplier done, java.util.function.Supplier<String>
            state) throws InterruptedException {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!done.getAsBoolean()) {
            assertThat(System.nanoTime()).as(what + "\n" + state.get()).isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    /** Real OpenSM and ours on one twin: each hands the subnet to the other when the other is higher. */
    @Test
    void realOpensmAndOurSmHandOverBothWays() throws Exception {
        Fabric fabric = FatTree.build(FatTreeSpec.of(2, 8, 16));
        Twin twin = Twin.of(fabric);
        AtomicBoolean stop = new AtomicBoolean();
        Path osmDir = Files.createDirectories(dir.resolve("opensm"));
        Path osmLog = osmDir.resolve("osm.log");
        try (IbsimServer server = RemoteIbsim.serveTwin(twin, FIRST_PORT, LAST_PORT)) {
            UmadClient c = new UmadClient(tools.umad2sim, server.port(), osmDir, fabric.cas().get(0).name(),
                    TOOL_TIMEOUT);
            // OpenSM (priority 2; -d2: its log flushed at each line, for us to read) masters the subnet; ours (priority 10) comes, is handed it, keeps every LID
            Process osm = c.start(tools.opensm, osmDir.resolve("opensm.out"), "-p", "2", "-s", "1", "-d2", "-f",
                    osmLog.toString());
            SmStateMachine ours = null;
            try {
                await("OpenSM SUBNET UP", () -> RealTools.read(osmLog).contains("SUBNET UP"),
                        () -> RealTools.tail(RealTools.read(osmLog)));
                int[] before = fabric.cas().stream().mapToInt(n -> twin.lid(n.name(), 1)).toArray();
                ours = ourSm(server, fabric.cas().get(9).name(), 10, stop);
                SmStateMachine o = ours;
                await("ours MASTER, OpenSM STANDBY", () -> o.state() == SmStateMachine.State.MASTER
                        && RealTools.read(osmLog).contains("Entering STANDBY state"),
                        () -> o.changes() + "\n" + RealTools.read(osmLog));
                assertThat(RealTools.read(osmLog)).doesNotContainPattern(" ERR [0-9A-F]{4}");
                assertThat(fabric.cas().stream().mapToInt(n -> twin.lid(n.name(), 1)).toArray()).isEqualTo(before);
            } finally {
                stop.set(true);
                RealTools.stop(osm);
            }
        }
    }

    @Test
    void ourMasterHandsOverToAHigherRealOpensm() throws Exception {
        Fabric fabric = FatTree.build(FatTreeSpec.of(2, 8, 16));
        Twin twin = Twin.of(fabric);
        AtomicBoolean stop = new AtomicBoolean();
        Path osmDir = Files.createDirectories(dir.resolve("opensm"));
        Path osmLog = osmDir.resolve("osm.log");
        try (IbsimServer server = RemoteIbsim.serveTwin(twin, FIRST_PORT, LAST_PORT)) {
            SmStateMachine ours = ourSm(server, fabric.cas().get(9).name(), 1, stop);
            Process osm = null;
            try {
                await("ours MASTER", () -> ours.state() == SmStateMachine.State.MASTER
                        && twin.lid(fabric.cas().get(0).name(), 1) != 0, () -> ours.changes().toString());
                UmadClient c = new UmadClient(tools.umad2sim, server.port(), osmDir, fabric.cas().get(0).name(),
                        TOOL_TIMEOUT);
                osm = c.start(tools.opensm, osmDir.resolve("opensm.out"), "-p", "14", "-s", "1", "-d2", "-f",
                        osmLog.toString());
                await("ours STANDBY, OpenSM MASTER", () -> ours.state() == SmStateMachine.State.STANDBY
                        && RealTools.read(osmLog).contains("Entering MASTER state"),
                        () -> ours.changes() + "\n" + RealTools.read(osmLog));
                assertThat(ours.changes()).last().asString().startsWith(
                        "Entering STANDBY state (from MASTER): handed over to SM 0x0002c90300000003 (priority 14, ");
                assertThat(RealTools.read(osmLog)).containsSubsequence("Entering STANDBY state",
                        "Entering MASTER state");
            } finally {
                stop.set(true);
                if (osm != null) {
                    RealTools.stop(osm);
                }
            }
        }
    }

    @Test
    void ourDumpsAreOpensmsFormat() throws Exception {
        Fabric fabric = FatTree.build(FatTreeSpec.of(2, 8, 16));
        Path net = FabricFiles.write(fabric, dir.resolve("lab"))[0];
        Path osmDir = Files.createDirectories(dir.resolve("opensm"));
        Path ourDir = Files.createDirectories(dir.resolve("ours"));
        opensmOnce(fabric, net, osmDir, FIRST_PORT, LAST_PORT, "minhop");
        Path guid2lid = ourDir.resolve("guid2lid");
        Files.copy(osmDir.resolve("guid2lid"), guid2lid);
        ourSmOnce(fabric, net, FIRST_PORT, LAST_PORT, "-R", "minhop", "--guid2lid", guid2lid.toString(), "--dump-dir",
                ourDir.toString());
        String osmList = Files.readString(osmDir.resolve(SmDumps.SUBNET_LST), StandardCharsets.UTF_8);
        String ourList = Files.readString(ourDir.resolve(SmDumps.SUBNET_LST), StandardCharsets.UTF_8);
        assertThat(osmList.lines().count()).isEqualTo(2L * fabric.links().size());
        assertThat(firstDifference(ourList, osmList)).isNull();
        assertThat(ourList).isEqualTo(osmList);

        String osmLfts = Files.readString(osmDir.resolve(SmDumps.LFTS), StandardCharsets.UTF_8);
        String ourLfts = Files.readString(ourDir.resolve(SmDumps.LFTS), StandardCharsets.UTF_8);
        assertThat(firstDifference(maskPorts(ourLfts), maskPorts(osmLfts))).isNull();
        List<SmOutputs.Routes> osm = SmOutputs.ibroute(osmLfts, "opensm-lfts.dump");
        List<SmOutputs.Routes> ours = SmOutputs.ibroute(ourLfts, "opensm-lfts.dump");
        assertThat(ours).hasSize(fabric.switches().size()).hasSameSizeAs(osm);
        for (int i = 0; i < ours.size(); i++) {
            assertThat(ours.get(i).switchGuid()).isEqualTo(osm.get(i).switchGuid());
            assertThat(ours.get(i).switchLid()).isEqualTo(osm.get(i).switchLid()).isPositive();
            assertThat(ours.get(i).description()).isEqualTo(osm.get(i).description());
            assertThat(ours.get(i).lft()).hasSameSizeAs(osm.get(i).lft());
        }
    }

    /** "line N: ours / OpenSM's" for the first line that differs, or null. */
    private static String firstDifference(String ours, String theirs) {
        List<String> a = ours.lines().toList();
        List<String> b = theirs.lines().toList();
        for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
            String x = i < a.size() ? a.get(i) : "(end)";
            String y = i < b.size() ? b.get(i) : "(end)";
            if (!x.equals(y)) {
                return "line " + (i + 1) + ":\nours:   " + x + "\nOpenSM: " + y;
            }
        }
        return ours.equals(theirs) ? null : "line ends differ";
    }

    /** An LFT dump with each route's egress port blanked (where minhop's choice among equals may differ). */
    private static String maskPorts(String dump) {
        return dump.replaceAll("(?m)^(0x[0-9a-f]{4}) \\d{3} #", "$1 ### #");
    }
}
