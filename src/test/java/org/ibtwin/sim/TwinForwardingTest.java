package org.ibtwin.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.gen.Shapes;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.MadStatus;
import org.ibtwin.mad.Methods;
import org.ibtwin.mad.MgmtClasses;
import org.ibtwin.mad.PerfAttributes;
import org.ibtwin.mad.SmpAttributes;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.Node;
import org.ibtwin.model.PortCounter;
import org.ibtwin.model.PortState;
import org.ibtwin.transport.MadAddress;
import org.ibtwin.transport.MadTimeoutException;
import org.ibtwin.transport.ReceivedMad;
import org.junit.jupiter.api.Test;

class TwinForwardingTest {
    private static final Duration T = Duration.ofMillis(100);
    private static final Layout NI = SmpAttributes.NODE_INFO;
    private static final Layout PC = PerfAttributes.PORT_COUNTERS;
    private static final int D = Smps.DATA;

    @Test
    void miniSmBringsAThreeLevelTreeUpAndLidRoutedQueriesReachEveryNode() {
        Fabric f = FatTree.build(FatTreeSpec.of(3, 8, 64));
        Twin twin = Twin.of(f);
        try (TwinTransport t = new TwinTransport(twin.attach(null, 0))) {
            MiniSm sm = new MiniSm(t).bringUp();
            assertThat(sm.nodes).hasSize(f.size());
            for (MiniSm.Found n : sm.nodes.values()) {
                assertThat(sm.nodeGuidAt(n.lid)).as("LID %d", n.lid).isEqualTo(n.guid);
            }
            for (Node n : f.nodes()) {
                for (int p = 1; p <= n.numPorts(); p++) {
                    if (n.port(p).remote() != null) {
                        assertThat(twin.portState(n.name(), p)).isEqualTo(PortState.ACTIVE);
                    }
                }
            }
            assertThat(t.localPort().lid()).isEqualTo(1);
            assertThat(t.localPort().smLid()).isEqualTo(1);
            assertThat(t.localPort().state()).isEqualTo(4);
        }
        assertThat(twin.drops()).isZero();
    }

    @Test
    void anUnprogrammedLftEntryDropsAndCountsARelayError() {
        Fabric f = FatTree.build(FatTreeSpec.of(2, 4, 6));
        Twin twin = Twin.of(f);
        try (TwinTransport t = new TwinTransport(twin.attach(null, 0))) {
            MiniSm sm = new MiniSm(t).bringUp();
            int top = sm.nodes.values().stream().mapToInt(n -> n.lid).max().orElseThrow();
            assertThat(sm.nodeGuidAt(top + 1)).as("beyond LinearFDBTop").isNull();
            assertThat(twin.drops(DropReason.NO_ROUTE)).isEqualTo(1);
            // unprogram the entry of the last host on its leaf
            MiniSm.Found last = sm.nodes.values().stream().filter(n -> n.lid == top).findFirst().orElseThrow();
            MiniSm.Found leaf = sm.nodes.values().stream().filter(n -> n.isSwitch()
                    && n.path.length == 1).findFirst().orElseThrow();
            byte[] block = new byte[64];
            java.util.Arrays.fill(block, (byte) 0xff);
            sm.set(AttributeIds.LINEAR_FWD_TABLE, 0, block, leaf.path);
            assertThat(sm.nodeGuidAt(last.lid)).isNull();
            assertThat(twin.drops(DropReason.NO_ROUTE)).isEqualTo(2);
            String leafName = f.byGuid(leaf.guid).name();
            assertThat(twin.counter(leafName, leaf.entryPort, PortCounter.RCV_SWITCH_RELAY_ERRORS)).isEqualTo(2);
        }
    }

    @Test
    void directedRouteThroughADownPortGetsNoAnswerAndCountsTheDiscard() {
        Fabric f = FatTree.build(FatTreeSpec.of(2, 4, 4));
        Twin twin = Twin.of(f);
        Node host = f.cas().get(0);
        Node far = f.cas().get(3);
        int[] path = ModelPaths.from(host, 1).get(far);
        try (TwinTransport t = new TwinTransport(twin.attach(host.name(), 1))) {
            assertThat(Smps.status(t.call(Smps.drGet(t.nextTid(), AttributeIds.NODE_INFO, 0, path),
                    MadAddress.directed(), T, 0))).isZero();
            // take down the far host's cable at its leaf
            Node leaf = far.port(1).remote().node();
            int leafPort = far.port(1).remote().number();
            twin.linkDown(leaf.name(), leafPort);
            assertThat(twin.portState(far.name(), 1)).isEqualTo(PortState.DOWN);
            assertThat(twin.counter(far.name(), 1, PortCounter.LINK_DOWNED)).isEqualTo(1);
            long start = System.nanoTime();
            assertThatThrownBy(() -> t.call(Smps.drGet(t.nextTid(), AttributeIds.NODE_INFO, 0, path),
                    MadAddress.directed(), Duration.ofSeconds(10), 2)).isInstanceOf(MadTimeoutException.class)
                    .hasMessageContaining("after 3 attempts");
            assertThat(System.nanoTime() - start).as("no real waiting").isLessThan(TimeUnit.SECONDS.toNanos(5));
            assertThat(twin.drops(DropReason.PORT_DOWN)).isEqualTo(3);
            assertThat(twin.counter(leaf.name(), leafPort, PortCounter.XMIT_DISCARDS)).isEqualTo(3);
            // a path through a CA, or to a port the node does not have
            assertThatThrownBy(() -> t.call(Smps.drGet(t.nextTid(), AttributeIds.NODE_INFO, 0, 1, 1, 1),
                    MadAddress.directed(), T, 0)).isInstanceOf(MadTimeoutException.class);
            assertThatThrownBy(() -> t.call(Smps.drGet(t.nextTid(), AttributeIds.NODE_INFO, 0, 1, 9),
                    MadAddress.directed(), T, 0)).isInstanceOf(MadTimeoutException.class);
            assertThatThrownBy(() -> t.call(Smps.drGet(t.nextTid(), AttributeIds.NODE_INFO, 0, 2),
                    MadAddress.directed(), T, 0)).as("a CA sends only out of its own port")
                    .isInstanceOf(MadTimeoutException.class);
            assertThat(twin.drops(DropReason.BAD_DIRECTED_ROUTE)).isEqualTo(3);
            twin.linkUp(leaf.name(), leafPort);
            assertThat(twin.portState(far.name(), 1)).isEqualTo(PortState.INIT);
            assertThat(Smps.status(t.call(Smps.drGet(t.nextTid(), AttributeIds.NODE_INFO, 0, path),
                    MadAddress.directed(), T, 0))).isZero();
        }
    }

    @Test
    void pmaCountersMoveWithEveryMadAndResetBySet() {
        Fabric f = Shapes.singleSwitch(2, 8, LinkSpeed.EDR);
        Twin twin = Twin.of(f);
        String host = f.cas().get(0).name();
        String sw = f.switches().get(0).name();
        try (TwinTransport t = new TwinTransport(twin.attach(null, 0))) {
            new MiniSm(t).bringUp();
            long out = twin.counter(host, 1, PortCounter.XMIT_PKTS);
            assertThat(out).isPositive();
            assertThat(twin.counter(host, 1, PortCounter.XMIT_DATA)).isEqualTo(out * Twin.WORDS_PER_MAD);
            assertThat(twin.counter(sw, 1, PortCounter.RCV_PKTS)).isEqualTo(out);
            assertThat(twin.counter(sw, 1, PortCounter.XMIT_PKTS)).isEqualTo(twin.counter(host, 1,
                    PortCounter.RCV_PKTS));
            int swLid = twin.lid(sw, 0);
            // PortCounters of switch port 1, by LID: a GMP crosses one link each way
            byte[] get = Smps.gmp(MgmtClasses.PERF, t.nextTid(), Methods.GET, AttributeIds.PORT_COUNTERS, 0);
            get[D + 1] = 1;
            byte[] r = t.call(get, MadAddress.gsi(swLid), T, 0);
            assertThat(Smps.status(r)).isZero();
            long rcv = PC.get(r, D, "PortRcvPkts");
            assertThat(rcv).isEqualTo(out + 1);
            assertThat(PC.get(r, D, "PortRcvData")).isEqualTo(rcv * Twin.WORDS_PER_MAD);
            // reset the data and packet counters of port 1
            byte[] reset = Smps.gmp(MgmtClasses.PERF, t.nextTid(), Methods.SET, AttributeIds.PORT_COUNTERS, 0);
            reset[D + 1] = 1;
            PC.set(reset, D, "CounterSelect", 0xf000);
            r = t.call(reset, MadAddress.gsi(swLid), T, 0);
            assertThat(PC.get(r, D, "PortRcvPkts")).isZero();
            assertThat(twin.counter(sw, 1, PortCounter.RCV_PKTS)).isEqualTo(0);
            assertThat(twin.extendedCounter(sw, 1, ExtCounter.RCV_PKTS)).as("the 64-bit copy stays")
                    .isEqualTo(rcv + 1);
            // all ports of the switch, summed
            byte[] all = Smps.gmp(MgmtClasses.PERF, t.nextTid(), Methods.GET, AttributeIds.PORT_COUNTERS, 0);
            all[D + 1] = (byte) 0xff;
            long before = twin.counter(sw, 1, PortCounter.XMIT_PKTS) + twin.counter(sw, 2, PortCounter.XMIT_PKTS);
            r = t.call(all, MadAddress.gsi(swLid), T, 0);
            assertThat(PC.get(r, D, "PortXmitPkts")).as("counted before the answer leaves").isEqualTo(before);
            // the extended counters
            byte[] ext = Smps.gmp(MgmtClasses.PERF, t.nextTid(), Methods.GET, AttributeIds.PORT_COUNTERS_EXTENDED,
                    0);
            ext[D + 1] = 1;
            r = t.call(ext, MadAddress.gsi(twin.lid(host, 1)), T, 0);
            assertThat(PerfAttributes.PORT_COUNTERS_EXTENDED.get(r, D, "PortXmitPkts"))
                    .isEqualTo(twin.extendedCounter(host, 1, ExtCounter.XMIT_PKTS));
            // ClassPortInfo, a port the CA lacks, AllPortSelect on a CA
            r = t.call(Smps.gmp(MgmtClasses.PERF, t.nextTid(), Methods.GET, AttributeIds.CLASS_PORT_INFO, 0),
                    MadAddress.gsi(swLid), T, 0);
            assertThat(PerfAttributes.CLASS_PORT_INFO.get(r, D, "CapabilityMask"))
                    .isEqualTo(PerfAttributes.CAP_ALL_PORT_SELECT | PerfAttributes.CAP_EXT_WIDTH_SUPPORTED
                            | PerfAttributes.CAP_PORT_XMIT_WAIT);
            byte[] bad = Smps.gmp(MgmtClasses.PERF, t.nextTid(), Methods.GET, AttributeIds.PORT_COUNTERS, 0);
            bad[D + 1] = 2;
            assertThat(Smps.status(t.call(bad, MadAddress.gsi(twin.lid(host, 1)), T, 0)))
                    .isEqualTo(MadStatus.INVALID_FIELD);
        }
    }

    @Test
    void countersSaturateAtTheirWidth() {
        Fabric f = Shapes.singleSwitch(1, 4, LinkSpeed.EDR);
        Twin twin = Twin.of(f);
        String host = f.cas().get(0).name();
        twin.setCounter(host, 1, PortCounter.XMIT_PKTS, 0xffffffffL - 1);
        twin.setCounter(host, 1, PortCounter.LINK_DOWNED, 1000);
        twin.addCounter(host, 1, PortCounter.SYMBOL_ERROR, 0x10000);
        try (TwinTransport t = new TwinTransport(twin.attach(null, 0))) {
            for (int i = 0; i < 3; i++) {
                t.call(Smps.drGet(t.nextTid(), AttributeIds.NODE_INFO, 0, 1), MadAddress.directed(), T, 0);
            }
        }
        assertThat(twin.counter(host, 1, PortCounter.XMIT_PKTS)).isEqualTo(0xffffffffL);
        assertThat(twin.counter(host, 1, PortCounter.LINK_DOWNED)).isEqualTo(0xff);
        assertThat(twin.counter(host, 1, PortCounter.SYMBOL_ERROR)).isEqualTo(0xffff);
        assertThat(twin.extendedCounter(host, 1, ExtCounter.XMIT_PKTS)).isEqualTo(3);
    }

    @Test
    void gmpsNeedActivePortsWhileSmpsCrossInit() {
        Fabric f = Shapes.singleSwitch(2, 8, LinkSpeed.EDR);
        Twin twin = Twin.of(f);
        try (TwinTransport t = new TwinTransport(twin.attach(null, 0))) {
            MiniSm sm = new MiniSm(t).discover().assignLids().route();
            int other = sm.nodes.values().stream().filter(n -> !n.isSwitch() && n.path.length > 0)
                    .findFirst().orElseThrow().lid;
            assertThat(sm.nodeGuidAt(other)).as("an SMP crosses Init links").isNotNull();
            byte[] get = Smps.gmp(MgmtClasses.PERF, t.nextTid(), Methods.GET, AttributeIds.CLASS_PORT_INFO, 0);
            assertThatThrownBy(() -> t.call(get, MadAddress.gsi(other), T, 0))
                    .isInstanceOf(MadTimeoutException.class);
            assertThat(twin.drops(DropReason.PORT_NOT_ACTIVE)).isEqualTo(1);
            sm.activate();
            assertThat(Smps.status(t.call(Smps.gmp(MgmtClasses.PERF, t.nextTid(), Methods.GET,
                    AttributeIds.CLASS_PORT_INFO, 0), MadAddress.gsi(other), T, 0))).isZero();
        }
    }

    @Test
    void smInfoAndSaRequestsGoToTheAttachedSmAndItsAnswersComeBack() throws Exception {
        Fabric f = FatTree.build(FatTreeSpec.of(2, 4, 4));
        Twin twin = Twin.of(f);
        Node smHost = f.cas().get(0);
        Node toolHost = f.cas().get(3);
        Attachment smPort = twin.attach(smHost.name(), 1);
        try (TwinTransport sm = new TwinTransport(smPort); TwinTransport tool = new TwinTransport(
                twin.attach(toolHost.name(), 1))) {
            smPort.setIsSm(true);
            List<ReceivedMad> got = new ArrayList<>();
            sm.onUnsolicited(m -> {
                got.add(m);
                byte[] resp = m.mad().clone();
                resp[3] = (byte) Methods.GET_RESP;
                if ((resp[1] & 0xff) == MgmtClasses.SUBN_DIRECTED) {
                    resp[4] |= (byte) 0x80;
                }
                SmpAttributes.SM_INFO.set(resp, D, "SmState", 3);
                sm.send(resp, m.from());
            });
            new MiniSm(sm).bringUp();
            // a directed-route SMInfo from the tool to the SM's port
            int[] path = ModelPaths.from(toolHost, 1).get(smHost);
            CompletableFuture<byte[]> fut = tool.request(Smps.drGet(tool.nextTid(), AttributeIds.SM_INFO, 0, path),
                    MadAddress.directed(), Duration.ofSeconds(5), 0);
            byte[] r = fut.get(5, TimeUnit.SECONDS);
            assertThat(SmpAttributes.SM_INFO.get(r, D, "SmState")).isEqualTo(3);
            assertThat(got).hasSize(1);
            assertThat(got.get(0).mad()[6]).as("delivered with the hop pointer past the hop count")
                    .isEqualTo((byte) (path.length + 1));
            // LID routed, and an SA query
            int smLid = twin.lid(smHost.name(), 1);
            r = tool.call(Smps.lid(tool.nextTid(), Methods.GET, AttributeIds.SM_INFO, 0), MadAddress.smp(smLid),
                    Duration.ofSeconds(5), 0);
            assertThat(Smps.status(r)).isZero();
            r = tool.call(Smps.gmp(MgmtClasses.SUBN_ADM, tool.nextTid(), Methods.GET, AttributeIds.NODE_RECORD, 0),
                    MadAddress.gsi(smLid), Duration.ofSeconds(5), 0);
            assertThat(r[1]).isEqualTo((byte) MgmtClasses.SUBN_ADM);
            assertThat(got).hasSize(3);
            assertThat(got.get(2).from().lid()).isEqualTo(twin.lid(toolHost.name(), 1));
            assertThat(got.get(2).from().qpn()).isEqualTo(1);
            // no SM at the tool's own port: its SMInfo is dropped
            assertThatThrownBy(() -> sm.call(Smps.lid(sm.nextTid(), Methods.GET, AttributeIds.SM_INFO, 0),
                    MadAddress.smp(twin.lid(toolHost.name(), 1)), T, 0)).isInstanceOf(MadTimeoutException.class);
            assertThat(twin.drops(DropReason.NO_RECEIVER)).isEqualTo(1);
        }
    }

    @Test
    void lidRoutedSegmentsAtEitherEndOfADirectedRoute() {
        Fabric f = FatTree.build(FatTreeSpec.of(2, 4, 8));
        Twin twin = Twin.of(f);
        try (TwinTransport t = new TwinTransport(twin.attach(null, 0))) {
            MiniSm sm = new MiniSm(t).bringUp();
            Map<Long, MiniSm.Found> nodes = sm.nodes;
            MiniSm.Found spine = nodes.values().stream().filter(n -> n.isSwitch() && n.path.length == 2)
                    .findFirst().orElseThrow();
            MiniSm.Found leaf = nodes.values().stream().filter(n -> n.isSwitch() && n.path.length == 1)
                    .findFirst().orElseThrow();
            // LID-routed to the spine, then one directed hop down to some other leaf
            int down = 0;
            for (int p = 1; p <= spine.ports; p++) {
                Node other = f.byGuid(spine.guid).port(p).remote().node();
                if (other.guid() != leaf.guid) {
                    down = p;
                    break;
                }
            }
            byte[] m = Smps.drGet(t.nextTid(), AttributeIds.NODE_INFO, 0, down);
            Smps.DR.set(m, 0, "DrSmpSLID", sm.smLid());
            byte[] r = t.call(m, MadAddress.smp(spine.lid), T, 0);
            assertThat(NI.get(r, D, "Guid")).isEqualTo(f.byGuid(spine.guid).port(down).remote().node().guid());
            // directed to the leaf, then LID-routed to the last host
            MiniSm.Found host = nodes.values().stream().filter(n -> !n.isSwitch()).reduce((a, b) -> b)
                    .orElseThrow();
            byte[] m2 = Smps.drGet(t.nextTid(), AttributeIds.NODE_INFO, 0, 1);
            Smps.DR.set(m2, 0, "DrSmpDLID", host.lid);
            r = t.call(m2, MadAddress.directed(), T, 0);
            assertThat(NI.get(r, D, "Guid")).isEqualTo(host.guid);
        }
        assertThat(twin.drops()).isZero();
    }

    @Test
    void responsesFindTheirClientAmongSeveralAtOnePort() {
        Fabric f = Shapes.singleSwitch(2, 8, LinkSpeed.EDR);
        Twin twin = Twin.of(f);
        try (TwinTransport a = new TwinTransport(twin.attach(null, 0));
             TwinTransport b = new TwinTransport(twin.attach(null, 0))) {
            long ta = 0x10000L;
            long tb = 0x20000L;
            byte[] ra = a.call(Smps.drGet(ta, AttributeIds.NODE_INFO, 0, 1), MadAddress.directed(), T, 0);
            byte[] rb = b.call(Smps.drGet(tb, AttributeIds.NODE_INFO, 0, 1), MadAddress.directed(), T, 0);
            assertThat(Smps.DR.get(ra, 0, "MadTRID")).isEqualTo(ta);
            assertThat(Smps.DR.get(rb, 0, "MadTRID")).isEqualTo(tb);
        }
    }
}
