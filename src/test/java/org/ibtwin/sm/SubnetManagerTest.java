package org.ibtwin.sm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.ibtwin.diag.MadQuery;
import org.ibtwin.fixture.TwinFabric;
import org.ibtwin.format.FabricFiles;
import org.ibtwin.format.Guid2LidFile;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.MadHeaders;
import org.ibtwin.mad.PortId;
import org.ibtwin.mad.SmpAttributes;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Node;
import org.ibtwin.model.Port;
import org.ibtwin.model.PortState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ibtwin's SM bringing up twins in process: everything checked through the twin, not through the SM. */
class SubnetManagerTest {
    @TempDir
    Path dir;

    /** Lines the SM logged. */
    static final class Lines implements SmLog {
        final List<String> info = new ArrayList<>();
        final List<String> warn = new ArrayList<>();

        @Override
        public void info(String line) {
            info.add(line);
        }

        @Override
        public void warn(String line) {
            warn.add(line);
        }
    }

    private static void assertUp(TwinFabric f, SweepReport r) {
        assertThat(r.problems()).isEmpty();
        assertThat(r.subnetUp()).isTrue();
        assertThat(f.notActive()).isEmpty();
        assertThat(f.withoutLid()).isEmpty();
        assertThat(f.unreachableCaPairs(5)).isEmpty();
    }

    @Test
    void bringsUpTheDefaultFabricKeepingItsLids() {
        Fabric fabric = FabricFiles.loadDefault();
        Map<String, Integer> before = new HashMap<>();
        for (Node n : fabric.nodes()) {
            before.put(n.name(), n.isSwitch() ? n.port(0).lid() : n.port(1).lid());
        }
        try (TwinFabric f = new TwinFabric(fabric)) {
            Lines log = new Lines();
            SweepReport r = new SubnetManager(f.transport, SmConfig.defaults().withCheckRoutes(true), log).sweep();
            assertUp(f, r);
            assertThat(r.nodes()).isEqualTo(65);
            assertThat(r.links()).isEqualTo(120);
            assertThat(r.lidsKept()).isEqualTo(65);
            assertThat(r.degradedLinks()).containsExactly("leaf02/33 <-> spine01/17 4xDDR (could be 4xHDR)");
            for (Node n : fabric.nodes()) {
                assertThat(f.twin.lid(n.name(), n.isSwitch() ? 0 : 1)).isEqualTo(before.get(n.name()));
            }
            assertThat(log.info).anyMatch(l -> l.startsWith("SUBNET UP (sweep 1: "));
            assertThat(log.info).anyMatch(l -> l.startsWith("Routing check: 180 CA routes, 0 unreached, no credit"));
        }
    }

    @Test
    void bringsUpTwoAndThreeLevelFatTreesWithEachEngine() {
        for (FatTreeSpec spec : List.of(FatTreeSpec.of(2, 16, 96), FatTreeSpec.of(3, 8, 100))) {
            for (String engine : List.of("minhop", "updn", "ftree")) {
                try (TwinFabric f = new TwinFabric(FatTree.build(spec))) {
                    SweepReport r = f.sm(SmConfig.defaults().withRouting(engine, null).withCheckRoutes(true)).sweep();
                    assertUp(f, r);
                    assertThat(r.engine()).isEqualTo(engine);
                    assertThat(r.lidsAssigned()).isEqualTo(r.endPorts());
                    assertThat(r.portsActivated()).isEqualTo(2 * r.links());
                }
            }
        }
    }

    /** Loses every n-th request after all its retries, while {@code lossy}. */
    static final class LossyTransport implements org.ibtwin.transport.MadTransport {
        final org.ibtwin.transport.MadTransport delegate;
        final int every;
        volatile boolean lossy = true;
        int count;

        LossyTransport(org.ibtwin.transport.MadTransport delegate, int every) {
            this.delegate = delegate;
            this.every = every;
        }

        @Override
        public org.ibtwin.transport.LocalPort localPort() {
            return delegate.localPort();
        }

        @Override
        public long nextTid() {
            return delegate.nextTid();
        }

        @Override
        public java.util.concurrent.CompletableFuture<byte[]> request(byte[] mad,
                org.ibtwin.transport.MadAddress to, java.time.Duration timeout, int retries) {
            if (lossy && ++count % every == 0) {
                return java.util.concurrent.CompletableFuture.failedFuture(
                        new org.ibtwin.transport.MadTimeoutException("lost"));
            }
            return delegate.request(mad, to, timeout, retries);
        }

        @Override
        public void send(byte[] mad, org.ibtwin.transport.MadAddress to) {
            delegate.send(mad, to);
        }

        @Override
        public void onUnsolicited(java.util.function.Consumer<org.ibtwin.transport.ReceivedMad> handler) {
            delegate.onUnsolicited(handler);
        }

        @Override
        public void close() {
            delegate.close();
        }
    }

    @Test
    void lostSmpsAreReportedAndTheNextSweepFinishesTheJob() {
        try (TwinFabric f = new TwinFabric(FatTree.build(FatTreeSpec.of(2, 16, 64)))) {
            LossyTransport lossy = new LossyTransport(f.transport, 37);
            Lines log = new Lines();
            SubnetManager sm = new SubnetManager(lossy, SmConfig.defaults().withMaxSmps(8), log);
            SweepReport first = sm.sweep();
            assertThat(first.failedSmps()).isPositive();
            assertThat(first.subnetUp()).isFalse();
            assertThat(log.warn).anyMatch(l -> l.matches("discovery: \\d+ SMPs failed; first: .*timeout.*"));
            assertThat(log.warn).anyMatch(l -> l.startsWith("SUBNET NOT UP: sweep 1 finished in "));
            lossy.lossy = false;
            SweepReport second = sm.sweep();
            assertUp(f, second);
        }
    }

    @Test
    void twoHostsBackToBackAndASingleSwitchComeUp() {
        try (TwinFabric f = new TwinFabric(org.ibtwin.gen.Shapes.backToBack(org.ibtwin.model.LinkSpeed.HDR))) {
            SubnetManager sm = f.sm(SmConfig.defaults().withRouting("ftree,updn", null));
            SweepReport r = sm.sweep();
            assertUp(f, r);
            assertThat(r.switches()).isZero();
            assertThat(r.engine()).isEqualTo("updn");
            assertThat(r.declined()).containsExactly("ftree: no switches: not a fat tree");
            assertThat(sm.needsHeavySweep()).isFalse();
        }
        try (TwinFabric f = new TwinFabric(org.ibtwin.gen.Shapes.singleSwitch(12, 36,
                org.ibtwin.model.LinkSpeed.EDR))) {
            SweepReport r = f.sm(SmConfig.defaults().withRouting("ftree", null).withCheckRoutes(true)).sweep();
            assertUp(f, r);
            assertThat(r.engine()).isEqualTo("ftree");
        }
    }

    @Test
    void anSmAtASwitchPort0BringsTheSubnetUpWithTheSwitchLidAsSmLid() {
        Fabric fabric = FatTree.build(FatTreeSpec.of(2, 8, 16));
        Node spine = fabric.switches().get(fabric.switches().size() - 1);
        try (TwinFabric f = new TwinFabric(fabric, spine.name())) {
            SweepReport r = f.sm(SmConfig.defaults()).sweep();
            assertUp(f, r);
            assertThat(r.smLid()).isEqualTo(f.twin.lid(spine.name(), 0));
            Port host = fabric.cas().get(3).port(1);
            f.twin.syncModel();
            assertThat(host.smLid()).isEqualTo(r.smLid());
        }
    }

    @Test
    void lidsComeBackAfterARestartFromGuid2lid() throws Exception {
        Path g2l = dir.resolve("guid2lid");
        FatTreeSpec spec = FatTreeSpec.of(2, 8, 24);
        Map<String, Integer> first = new HashMap<>();
        try (TwinFabric f = new TwinFabric(FatTree.build(spec))) {
            SweepReport r = f.sm(SmConfig.defaults().withGuid2lid(g2l).withReassignLids(true)).sweep();
            assertUp(f, r);
            for (Node n : f.fabric.nodes()) {
                first.put(n.name(), f.twin.lid(n.name(), n.isSwitch() ? 0 : 1));
            }
        }
        String text = Files.readString(g2l);
        assertThat(text).matches("(?s)(0x[0-9a-f]{16} 0x[0-9a-f]{4} 0x[0-9a-f]{4}\n\n){" + first.size() + "}");
        assertThat(Guid2LidFile.parse(text, "g").entries()).hasSize(first.size());

        // the same fabric powered on again with the host list in another order: fresh LIDs would differ
        Fabric again = FatTree.build(spec);
        try (TwinFabric f = new TwinFabric(again, again.cas().get(17).name())) {
            SweepReport r = f.sm(SmConfig.defaults().withGuid2lid(g2l)).sweep();
            assertUp(f, r);
            assertThat(r.lidsRestored()).isEqualTo(first.size());
            assertThat(r.lidsAssigned()).isZero();
            for (Node n : again.nodes()) {
                assertThat(f.twin.lid(n.name(), n.isSwitch() ? 0 : 1)).as(n.name()).isEqualTo(first.get(n.name()));
            }
        }
    }

    @Test
    void aSecondSweepWritesNoLftBlockAndAChangeOnlyTheBlocksItTouches() {
        Fabric fabric = FatTree.build(FatTreeSpec.of(2, 32, 200));
        try (TwinFabric f = new TwinFabric(fabric)) {
            SubnetManager sm = f.sm(SmConfig.defaults());
            SweepReport first = sm.sweep();
            assertUp(f, first);
            long writes = sm.setsSent(AttributeIds.LINEAR_FWD_TABLE);
            assertThat(writes).isEqualTo(first.lftBlocksWritten()).isEqualTo(first.switches() * 4L);

            SweepReport second = sm.sweep();
            assertUp(f, second);
            assertThat(sm.setsSent(AttributeIds.LINEAR_FWD_TABLE)).isEqualTo(writes);
            assertThat(second.lftBlocksSame()).isEqualTo(writes);
            assertThat(second.portsArmed() + second.portsActivated()).isZero();
            assertThat(sm.setsSent(AttributeIds.PORT_INFO)).isEqualTo(first.portsArmed() + first.portsActivated()
                    + first.switches()     // the switches' port 0s took a LID without changing state
                    + fabric.cas().size()); // partition enforcement on the switch ports facing CAs, once

            // a cable pulled at a spine: the routes through it move; the hosts' blocks on the other leaves stay
            Node leaf = fabric.switches().get(0);
            f.twin.linkDown(leaf.name(), 17);
            assertThat(sm.needsHeavySweep()).isTrue();
            SweepReport third = sm.sweep();
            assertUp(f, third);
            long rewritten = sm.setsSent(AttributeIds.LINEAR_FWD_TABLE) - writes;
            assertThat(rewritten).isPositive().isLessThan(writes);
            assertThat(third.lftBlocksWritten()).isEqualTo(rewritten);
            assertThat(sm.needsHeavySweep()).isFalse();
        }
    }

    @Test
    void aTrap128MakesTheSmRouteAroundAPulledCableAndTheTrapIsRepressed() throws Exception {
        Fabric fabric = FatTree.build(FatTreeSpec.of(2, 16, 64));
        try (TwinFabric f = new TwinFabric(fabric)) {
            SubnetManager sm = f.sm(SmConfig.defaults().withSweepInterval(java.time.Duration.ZERO));
            java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
            Thread t = new Thread(() -> sm.run(stop));
            t.start();
            try {
                long deadline = System.nanoTime() + 10_000_000_000L;
                while (sm.sweeps() < 1 && System.nanoTime() < deadline) {
                    Thread.sleep(10);
                }
                Thread.sleep(200);
                int before = sm.sweeps();
                Node leaf = fabric.switches().get(1);
                f.twin.linkDown(leaf.name(), 9);   // an uplink: no light sweep runs, only the trap can tell
                while ((sm.sweeps() == before || !f.unreachableCaPairs(1).isEmpty()) && System.nanoTime() < deadline) {
                    Thread.sleep(10);
                }
                assertThat(sm.trapsReceived()).isPositive();
                assertThat(sm.sweeps()).isGreaterThan(before);
                assertThat(f.unreachableCaPairs(5)).isEmpty();
                // a trap that went out before the new routes were in place comes again after SubnetTimeout (about
                // 1 s, as the SM set it): then it finds the SM and is repressed
                while (!f.twin.pendingTraps().isEmpty() && System.nanoTime() < deadline) {
                    f.twin.resendTrapsDue();
                    Thread.sleep(20);
                }
                assertThat(f.twin.pendingTraps()).isEmpty();
            } finally {
                stop.set(true);
                t.join(5000);
            }
        }
    }

    @Test
    void lmcGivesAlignedRangesAndEveryLidOfARangeRoutes() {
        try (TwinFabric f = new TwinFabric(FatTree.build(FatTreeSpec.of(2, 8, 16)))) {
            SweepReport r = f.sm(SmConfig.defaults().withLmc(2).withCheckRoutes(true)).sweep();
            assertUp(f, r);
            for (Node ca : f.fabric.cas()) {
                assertThat(f.twin.lmc(ca.name(), 1)).isEqualTo(2);
                assertThat(f.twin.lid(ca.name(), 1) % 4).isZero();
            }
            Port a = f.fabric.cas().get(0).port(1);
            Port b = f.fabric.cas().get(15).port(1);
            int base = f.twin.lid(b.node().name(), 1);
            for (int i = 0; i < 4; i++) {
                assertThat(f.route(a, base + i, b)).isNull();
            }
        }
    }

    @Test
    void aDuplicateGuidIsReportedOnceAndTheRestComesUp() {
        Fabric fabric = FatTree.build(FatTreeSpec.of(2, 8, 16));
        Node first = fabric.cas().get(4);
        Node clone = fabric.cas().get(11);
        try (TwinFabric f = new TwinFabric(fabric)) {
            Lines log = new Lines();
            SubnetManager sm = new SubnetManager(GuidRewritingTransport.of(f.transport, clone.guid(), first.guid()),
                    SmConfig.defaults(), log);
            SweepReport r = sm.sweep();
            assertThat(r.problems()).singleElement().asString()
                    .startsWith(String.format("duplicate GUID 0x%016x: 2 nodes answer with it; kept the first, \""
                            + "%s\" at DR path ", first.guid(), first.description()))
                    .contains("left out DR path ");
            assertThat(log.warn).hasSize(1);
            assertThat(r.nodes()).isEqualTo(fabric.size() - 1);
            assertThat(r.subnetUp()).isTrue();
            assertThat(f.twin.portState(first.name(), 1)).isEqualTo(PortState.ACTIVE);
            assertThat(f.twin.portState(clone.name(), 1)).isNotEqualTo(PortState.ACTIVE);
            // a second sweep says it again, once
            sm.sweep();
            assertThat(log.warn).hasSize(2);
        }
    }

    @Test
    void moreEndPortsThanLidsIsOneReportWithTheNumbersAndWhatFitsComesUp() {
        // 400 hosts at LMC 7 need 51,200 LIDs for the CAs alone
        Fabric fabric = FatTree.build(FatTreeSpec.of(2, 32, 400));
        try (TwinFabric f = new TwinFabric(fabric)) {
            Lines log = new Lines();
            SweepReport r = new SubnetManager(f.transport, SmConfig.defaults().withLmc(7), log).sweep();
            int switches = fabric.switches().size();
            int fit = (0xBFFF - switches) / 128;
            assertThat(r.lidsUnassigned()).isEqualTo(400 - fit);
            assertThat(log.warn).singleElement().isEqualTo(String.format("LID space exhausted: %d end ports (400 "
                    + "CA/router ports, %d switches) need %,d LIDs at LMC 7; the unicast LID space holds 49,151 "
                    + "(1..0xBFFF); %d end ports left without a LID and not brought up", 400 + switches, switches,
                    400 * 128 + switches, 400 - fit));
            assertThat(r.subnetUp()).isTrue();
            int up = 0;
            for (Node ca : fabric.cas()) {
                boolean hasLid = f.twin.lid(ca.name(), 1) != 0;
                assertThat(f.twin.portState(ca.name(), 1) == PortState.ACTIVE).as(ca.name()).isEqualTo(hasLid);
                up += hasLid ? 1 : 0;
            }
            assertThat(up).isEqualTo(fit);
        }
    }

    @Test
    void theSmAnswersSmInfoAsMaster() {
        Fabric fabric = FatTree.build(FatTreeSpec.of(2, 8, 16));
        try (TwinFabric f = new TwinFabric(fabric)) {
            SubnetManager sm = f.sm(SmConfig.defaults().withPriority(7));
            SweepReport r = sm.sweep();
            try (var other = f.attach(fabric.cas().get(1).name())) {
                MadQuery q = new MadQuery(other);
                byte[] info = q.smpGet(PortId.lid(r.smLid()), AttributeIds.SM_INFO, 0);
                var l = SmpAttributes.SM_INFO;
                assertThat(l.get(info, 0, "SmInfoGuid")).isEqualTo(fabric.cas().get(0).port(1).guid());
                assertThat(l.get(info, 0, "SmState")).isEqualTo(3);
                assertThat(l.get(info, 0, "SmPriority")).isEqualTo(7);
                byte[] dr = q.smpGet(PortId.directed(0, 1, 1), AttributeIds.SM_INFO, 0);
                assertThat(l.get(dr, 0, "SmState")).isEqualTo(3);
            }
            assertThat(sm.smInfoAnswered()).isEqualTo(2);
            assertThat(MadHeaders.MAD_SIZE).isEqualTo(256);
        }
    }

    /**
     * The SA answers on its own thread, never on the one that delivered the request: on the twin that thread holds
     * the fabric's lock, and a PathRecord table computed there held every SMA and PMA of the fabric for as long.
     */
    @Test
    void theSaAnswersOnItsOwnThreadNotTheDeliverers() {
        Fabric fabric = FatTree.build(FatTreeSpec.of(2, 8, 16));
        try (TwinFabric f = new TwinFabric(fabric)) {
            List<String> senders = new java.util.concurrent.CopyOnWriteArrayList<>();
            org.ibtwin.transport.MadTransport watched = new org.ibtwin.transport.MadTransport() {
                @Override
                public org.ibtwin.transport.LocalPort localPort() {
                    return f.transport.localPort();
                }

                @Override
                public long nextTid() {
                    return f.transport.nextTid();
                }

                @Override
                public java.util.concurrent.CompletableFuture<byte[]> request(byte[] mad,
                        org.ibtwin.transport.MadAddress to, java.time.Duration timeout, int retries) {
                    return f.transport.request(mad, to, timeout, retries);
                }

                @Override
                public void send(byte[] mad, org.ibtwin.transport.MadAddress to) {
                    if ((mad[1] & 0xff) == 0x03) {
                        senders.add(Thread.currentThread().getName());
                    }
                    f.transport.send(mad, to);
                }

                @Override
                public void onUnsolicited(java.util.function.Consumer<org.ibtwin.transport.ReceivedMad> handler) {
                    f.transport.onUnsolicited(handler);
                }

                @Override
                public void close() {
                    f.transport.close();
                }
            };
            SubnetManager sm = new SubnetManager(watched, SmConfig.defaults(), SmLog.quiet());
            SweepReport r = sm.sweep();
            assertThat(r.subnetUp()).isTrue();
            try (var tool = f.attach(fabric.cas().get(3).name())) {
                byte[] rec = new MadQuery(tool).saGet(r.smLid(), AttributeIds.NODE_RECORD, 1,
                        nodeRecordOfLid(f.twin.lid(fabric.cas().get(5).name(), 1)));
                assertThat(rec).isNotNull();
            }
            // the request came in on this thread, inside the twin; the answer left from the SA's
            assertThat(senders).isNotEmpty().allMatch("ibtwin-sa"::equals);
            assertThat(sm.saDropped()).isZero();
            sm.detach();
        }
    }

    private static byte[] nodeRecordOfLid(int lid) {
        byte[] t = new byte[org.ibtwin.mad.SaAttributes.NODE_RECORD.size()];
        org.ibtwin.mad.SaAttributes.NODE_RECORD.set(t, 0, "Lid", lid);
        return t;
    }
}
