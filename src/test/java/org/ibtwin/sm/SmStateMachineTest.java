package org.ibtwin.sm;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.ibtwin.fixture.TwinFabric;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.MadStatus;
import org.ibtwin.model.Node;
import org.ibtwin.sim.TwinTransport;
import org.ibtwin.sm.SmStateMachine.State;
import org.ibtwin.sm.routing.RoutingCheck;
import org.ibtwin.transport.MadTransport;
import org.ibtwin.transport.SmpPipe;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Two and three ibtwin SMs on one twin: they agree on one master, a standby takes over from a killed master keeping
 * every LID, a higher-priority SM started later is handed the subnet, and SMInfo Sets are honoured only where IBA
 * 14.4 allows them. Everything is checked through the twin, not through the SMs' own view.
 */
@Timeout(60)
class SmStateMachineTest {
    /** SMP timeouts short enough for a test; polls every 100 ms, three misses and the standby takes over. */
    static final SmConfig FAST = SmConfig.defaults().withTimeout(Duration.ofMillis(50), 1)
            .withSweepInterval(Duration.ofMillis(200));
    static final SmStateMachine.Polling POLLING = new SmStateMachine.Polling(Duration.ofMillis(100), 3);

    /** One running SM: its manager, state machine, sweeping thread and log. */
    static final class Running {
        final SubnetManager manager;
        final SmStateMachine machine;
        final Thread thread;
        final AtomicBoolean stop = new AtomicBoolean();
        /** The SM's log lines; read (streamed) by the test while the SM's thread adds to them. */
        final List<String> lines = new CopyOnWriteArrayList<>();

        Running(MadTransport t, SmConfig cfg, String name) {
            SmLog log = new SmLog() {
                @Override
                public void info(String line) {
                    lines.add(line);
                }

                @Override
                public void warn(String line) {
                    lines.add("WARN " + line);
                }
            };
            manager = new SubnetManager(t, cfg, log);
            machine = new SmStateMachine(manager, POLLING, log);
            thread = new Thread(() -> machine.run(stop), name);
            thread.setDaemon(true);
            thread.start();
        }

        void stop() throws InterruptedException {
            stop.set(true);
            thread.join(5000);
        }
    }

    private final List<Running> running = new ArrayList<>();
    private TwinFabric fabric;

    @AfterEach
    void stopAll() throws InterruptedException {
        for (Running r : running) {
            r.stop();
        }
        if (fabric != null) {
            fabric.close();
        }
    }

    private Running start(MadTransport t, int priority, String name) {
        Running r = new Running(t, FAST.withPriority(priority), name);
        running.add(r);
        return r;
    }

    private static void await(String what, Duration within, BooleanSupplier done, Running... sms)
            throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                StringBuilder sb = new StringBuilder(what + " not within " + within.toMillis() + " ms");
                for (Running r : sms) {
                    sb.append("\n--- ").append(r.thread.getName()).append(" (").append(r.machine.state())
                            .append(")\n").append(String.join("\n", List.copyOf(r.lines)));
                }
                throw new AssertionError(sb.toString());
            }
            Thread.sleep(10);
        }
    }

    /** Every end port's LID, by "node/port". */
    private Map<String, Integer> lids() {
        Map<String, Integer> out = new LinkedHashMap<>();
        for (Node n : fabric.fabric.nodes()) {
            if (n.isSwitch()) {
                out.put(n.name() + "/0", fabric.twin.lid(n.name(), 0));
            } else {
                for (int p = 1; p <= n.numPorts(); p++) {
                    if (n.port(p).link() != null) {
                        out.put(n.name() + "/" + p, fabric.twin.lid(n.name(), p));
                    }
                }
            }
        }
        return out;
    }

    private void assertSubnetGood(Running master) {
        assertThat(fabric.notActive()).isEmpty();
        assertThat(fabric.withoutLid()).isEmpty();
        assertThat(fabric.unreachableCaPairs(5)).isEmpty();
        RoutingCheck.Report c = RoutingCheck.check(master.manager.switchGraph(), master.manager.lfts());
        assertThat(c.ok()).as(c.failures().toString()).isTrue();
    }

    private static boolean up(Running r) {
        return r.machine.state() == State.MASTER && r.lines.stream().anyMatch(l -> l.startsWith("SUBNET UP"));
    }

    /** OpenSM's PerfMgr runs on a standby SM too: it reads the counters of the subnet the standby discovered. */
    @Test
    void thePerfMgrOfAStandbyReadsEveryPort() throws Exception {
        fabric = new TwinFabric(FatTree.build(FatTreeSpec.of(2, 4, 4)));
        Running a = start(fabric.transport, 1, "sm-a");
        await("SM a MASTER and the subnet up", Duration.ofSeconds(10), () -> up(a), a);
        TwinTransport bt = (TwinTransport) fabric.attach(fabric.fabric.cas().get(2).name());
        Running b = start(bt, 0, "sm-b");
        await("SM b STANDBY", Duration.ofSeconds(10), () -> b.machine.state() == State.STANDBY, a, b);
        PerfManager pm = new PerfManager(b.manager, PerfManager.Options.defaults());
        String ca = fabric.fabric.cas().get(0).name();
        fabric.twin.setCounter(ca, 1, org.ibtwin.model.PortCounter.LINK_DOWNED, 3);
        pm.sweep();
        fabric.twin.setCounter(ca, 1, org.ibtwin.model.PortCounter.LINK_DOWNED, 5);
        pm.sweep();
        assertThat(b.machine.state()).isEqualTo(State.STANDBY);
        String all = pm.printCounters(null, null, false);
        // every linked port of the 2-level fat tree: each CA port and both ends of every switch link
        int ports = 0;
        for (Node n : fabric.fabric.nodes()) {
            for (int p = 1; p <= n.numPorts(); p++) {
                ports += n.port(p).link() != null ? 1 : 0;
            }
            ports += n.isSwitch() && n.enhancedPort0() ? 1 : 0;
        }
        assertThat(all.split(" active TRUE port ", -1).length - 1).isEqualTo(ports);
        String guid = String.format("0x%x", fabric.fabric.cas().get(0).guid());
        assertThat(pm.printCounters(guid, "1", false)).contains("     link_downed          : 5\n");
        assertThat(b.lines).anyMatch(l -> l.startsWith("WARN ERR 5433: LinkDownedCounter : 2 : node \"")
                && l.contains("(NodeGUID: " + guid + ") : port 1 connected to "));
    }

    @Test
    void twoSmsAgreeOnOneMasterAndTheStandbyTakesOverKeepingEveryLid() throws Exception {
        fabric = new TwinFabric(FatTree.build(FatTreeSpec.of(2, 8, 16)));
        Running a = start(fabric.transport, 0, "sm-a");
        await("SM a MASTER and the subnet up", Duration.ofSeconds(10), () -> up(a), a);
        assertThat(a.machine.changes()).containsExactly(
                "Entering MASTER state (from DISCOVERING): no other SM found");

        TwinTransport bt = (TwinTransport) fabric.attach(fabric.fabric.cas().get(5).name());
        Running b = start(bt, 0, "sm-b");
        await("SM b STANDBY", Duration.ofSeconds(10), () -> b.machine.state() == State.STANDBY, a, b);
        long aGuid = fabric.transport.localPort().portGuid();
        assertThat(b.machine.master().guid()).isEqualTo(aGuid);
        assertThat(b.machine.changes().get(0)).startsWith("Entering STANDBY state (from DISCOVERING): found master "
                + String.format("SM 0x%016x (priority 0, MASTER)", aGuid));
        // a sees b (on the trap its IsSM bit sent, or a light sweep) and keeps the subnet: b is not higher
        Thread.sleep(600);
        assertThat(a.machine.state()).isEqualTo(State.MASTER);
        assertThat(b.machine.state()).isEqualTo(State.STANDBY);
        Map<String, Integer> before = lids();
        assertSubnetGood(a);

        // the master dies: its port keeps IsSM, nobody answers SMInfo there
        long t0 = System.nanoTime();
        a.stop();
        fabric.twin.kill(fabric.transport.attachment());
        await("SM b MASTER and the subnet up", Duration.ofSeconds(10), () -> up(b), b);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        // the polling budget: three polls 100 ms apart, each 2 x 50 ms unanswered (600 ms), then a discovery, the
        // dead master's SMInfo unanswered (100 ms) and a sweep; 4 s leaves room for a loaded machine
        assertThat(ms).isLessThan(4000);
        assertThat(b.lines).anyMatch(l -> l.startsWith("Entering DISCOVERING state (from STANDBY): SM 0x")
                && l.endsWith("missed 3 polls in a row"));
        assertThat(b.lines).anyMatch(l -> l.startsWith("Entering MASTER state (from DISCOVERING): "));
        assertThat(b.lines).anyMatch(l -> l.startsWith("LIDs: " + before.size() + " end ports: " + before.size()
                + " kept, 0 restored from guid2lid, 0 assigned"));
        assertThat(lids()).isEqualTo(before);
        assertSubnetGood(b);
    }

    @Test
    void aHigherPrioritySmStartedLaterIsHandedTheSubnet() throws Exception {
        fabric = new TwinFabric(FatTree.build(FatTreeSpec.of(2, 8, 16)));
        Running a = start(fabric.transport, 1, "sm-a");
        await("SM a MASTER and the subnet up", Duration.ofSeconds(10), () -> up(a), a);
        Map<String, Integer> before = lids();

        Running c = start(fabric.attach(fabric.fabric.cas().get(9).name()), 7, "sm-c");
        await("SM c MASTER, a STANDBY", Duration.ofSeconds(10),
                () -> c.machine.state() == State.MASTER && a.machine.state() == State.STANDBY && up(c), a, c);
        long cGuid = c.manager.topology().portGuid(c.manager.topology().smPort());
        assertThat(c.machine.changes()).hasSize(2);
        assertThat(c.machine.changes().get(0)).startsWith("Entering STANDBY state (from DISCOVERING): found master");
        assertThat(c.machine.changes().get(1)).startsWith("Entering MASTER state (from STANDBY): HANDOVER from SM 0x");
        assertThat(a.machine.changes()).last().asString().isEqualTo(String.format(
                "Entering STANDBY state (from MASTER): handed over to SM 0x%016x (priority 7, STANDBY) at %s",
                cGuid, c.manager.topology().portName(c.manager.topology().smPort())));
        await("the ACKNOWLEDGE", Duration.ofSeconds(5), () -> a.lines.stream().anyMatch(
                l -> l.startsWith("HANDOVER acknowledged by SM 0x")), a, c);
        assertThat(a.machine.master().guid()).isEqualTo(cGuid);
        await("c's sweep as master", Duration.ofSeconds(5), () -> c.manager.sweeps() >= 2, a, c);
        assertThat(lids()).isEqualTo(before);
        assertSubnetGood(c);
        // a stays standby while c answers its polls
        Thread.sleep(500);
        assertThat(a.machine.state()).isEqualTo(State.STANDBY);
        assertThat(a.lines).noneMatch(l -> l.startsWith("WARN"));
    }

    @Test
    void equalPrioritiesTieBreakOnTheLowerGuid() {
        assertThat(SmStateMachine.higher(0, 0x10, 0, 0x20)).isTrue();
        assertThat(SmStateMachine.higher(0, 0x20, 0, 0x10)).isFalse();
        assertThat(SmStateMachine.higher(1, 0x20, 0, 0x10)).isTrue();
        assertThat(SmStateMachine.higher(0, 0x10, 1, 0x20)).isFalse();
        // GUIDs compare unsigned
        assertThat(SmStateMachine.higher(0, 0x7000000000000000L, 0, 0x8000000000000000L)).isTrue();
    }

    /** SubnSet(SMInfo) from a test "master": DISABLE, STANDBY, DISCOVER and an illegal ACKNOWLEDGE. */
    @Test
    void smInfoSetModifiersMoveAStandbyAsTheSpecSays() throws Exception {
        fabric = new TwinFabric(FatTree.build(FatTreeSpec.of(2, 8, 16)));
        Running a = start(fabric.transport, 0, "sm-a");
        await("SM a MASTER and the subnet up", Duration.ofSeconds(10), () -> up(a), a);
        Running b = start(fabric.attach(fabric.fabric.cas().get(3).name()), 0, "sm-b");
        // the state turns STANDBY a moment before the standby's discovery result is kept: wait for both
        await("SM b STANDBY", Duration.ofSeconds(10),
                () -> b.machine.state() == State.STANDBY && b.manager.topology() != null, a, b);

        // a prober that speaks as a master from a third port (with a's SMInfo), by directed route from there
        SmpPipe pipe = new SmpPipe(fabric.attach(fabric.fabric.cas().get(12).name()), 1, Duration.ofMillis(200), 1);
        Topology t = new Discovery(pipe).run().topology();
        long bGuid = b.manager.topology().portGuid(b.manager.topology().smPort());
        byte[] pathToB = null;
        for (int g = 0; g < t.portSlots(); g++) {
            if (t.hasPortInfo(g) && t.portGuid(g) == bGuid) {
                pathToB = t.path(t.portNode(g));
            }
        }
        assertThat(pathToB).isNotNull();
        SmInfoAgent prober = a.manager.smInfoAgent();
        byte[] asMaster = prober.smInfo(State.MASTER.ordinal());
        byte[] asStandby = prober.smInfo(State.STANDBY.ordinal());

        assertThat(set(pipe, pathToB, SmStateMachine.ACKNOWLEDGE, asMaster)).isEqualTo(MadStatus.INVALID_FIELD);
        assertThat(set(pipe, pathToB, SmStateMachine.STANDBY, asMaster)).isEqualTo(MadStatus.INVALID_FIELD);
        assertThat(set(pipe, pathToB, 9, asMaster)).isEqualTo(MadStatus.INVALID_FIELD);
        assertThat(set(pipe, pathToB, SmStateMachine.DISABLE, asStandby)).isEqualTo(MadStatus.INVALID_FIELD);
        assertThat(b.machine.state()).isEqualTo(State.STANDBY);

        assertThat(set(pipe, pathToB, SmStateMachine.DISABLE, asMaster)).isZero();
        assertThat(b.machine.state()).isEqualTo(State.NOTACTIVE);
        assertThat(set(pipe, pathToB, SmStateMachine.DISCOVER, asMaster)).isEqualTo(MadStatus.INVALID_FIELD);
        assertThat(set(pipe, pathToB, SmStateMachine.STANDBY, asMaster)).isZero();
        await("SM b STANDBY again", Duration.ofSeconds(5), () -> b.machine.state() == State.STANDBY, a, b);
        // it polls the master named by the STANDBY Set (a's GUID): still standby after some polls
        Thread.sleep(500);
        assertThat(b.machine.state()).isEqualTo(State.STANDBY);

        assertThat(set(pipe, pathToB, SmStateMachine.DISCOVER, asMaster)).isZero();
        // DISCOVERING finds a, the master: STANDBY again
        await("SM b STANDBY after DISCOVER", Duration.ofSeconds(5),
                () -> b.machine.changes().size() >= 5 && b.machine.state() == State.STANDBY, a, b);
        assertThat(b.machine.changes()).extracting(l -> l.substring(0, l.indexOf(':')))
                .containsExactly("Entering STANDBY state (from DISCOVERING)", "Entering NOTACTIVE state (from STANDBY)",
                        "Entering STANDBY state (from NOTACTIVE)", "Entering DISCOVERING state (from STANDBY)",
                        "Entering STANDBY state (from DISCOVERING)");
        assertThat(a.machine.state()).isEqualTo(State.MASTER);
    }

    private static int set(SmpPipe pipe, byte[] path, int modifier, byte[] data) {
        int[] status = {-1};
        pipe.set(path, AttributeIds.SM_INFO, modifier, data, r -> status[0] = r.mad() == null ? -2 : r.status());
        pipe.drain();
        return status[0];
    }
}
