package org.ibtwin.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.model.Cable;
import org.ibtwin.model.CableKind;
import org.ibtwin.model.Link;
import org.ibtwin.model.LinkLayer;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.LinkWidth;
import org.ibtwin.model.PhysState;
import org.ibtwin.model.Port;
import org.ibtwin.model.PortCounter;
import org.ibtwin.model.PortState;
import org.ibtwin.transport.MadAddress;
import org.ibtwin.transport.MadTransportException;
import org.junit.jupiter.api.Test;

class TwinFaultsTest {
    private static final int D = Smps.DATA;

    private static long downed(SmBench b, String node, int port) {
        return b.twin.counter(node, port, PortCounter.LINK_DOWNED);
    }

    @Test
    void aLinkDownTakesBothEndsDownCountsLinkDownedAndHoldsUntilLinkUp() {
        try (SmBench b = new SmBench()) {
            assertThat(b.twin.portState("leaf02", 8)).isEqualTo(PortState.ACTIVE);
            b.twin.linkDown("leaf02", 8);
            for (String[] end : new String[][] {{"leaf02", "8"}, {"spine01", "8"}}) {
                int p = Integer.parseInt(end[1]);
                assertThat(b.twin.portState(end[0], p)).isEqualTo(PortState.DOWN);
                assertThat(b.twin.physState(end[0], p)).isEqualTo(PhysState.POLLING);
                assertThat(b.twin.activeWidth(end[0], p)).isNull();
                assertThat(downed(b, end[0], p)).isEqualTo(1);
            }
            // the SM asks it down and up again: held by the fault, it stays down
            MiniSm.Found spine = b.mini.nodes.get(b.fabric.byName(b.name("spine01")).guid());
            b.mini.setPortInfo(spine, 8, pi -> {
                MiniSm.PI.set(pi, 0, "LinkState", 1);
                MiniSm.PI.set(pi, 0, "PhysLinkState", 2);
            });
            assertThat(b.twin.physState("spine01", 8)).isEqualTo(PhysState.POLLING);
            b.twin.linkUp("spine01", 8);
            assertThat(b.twin.physState("leaf02", 8)).isEqualTo(PhysState.LINK_UP);
            assertThat(b.twin.portState("leaf02", 8)).isEqualTo(PortState.INIT);
            assertThat(b.twin.linkStatus("leaf02", 8).toString()).isEqualTo("4xEDR");
            assertThat(downed(b, "leaf02", 8)).isEqualTo(1);
        }
    }

    @Test
    void aDisabledPortIsDisabledAndItsNeighbourPolls() {
        try (SmBench b = new SmBench()) {
            b.twin.linkDown("leaf02", 8, true);
            assertThat(b.twin.physState("leaf02", 8)).isEqualTo(PhysState.DISABLED);
            assertThat(b.twin.physState("spine01", 8)).isEqualTo(PhysState.POLLING);
            b.twin.linkUp("leaf02", 8);
            assertThat(b.twin.physState("leaf02", 8)).isEqualTo(PhysState.LINK_UP);
        }
    }

    @Test
    void aFlapCountsEveryDropAtBothEndsAndLeavesTheLinkInInit() {
        try (SmBench b = new SmBench()) {
            b.twin.flap("leaf01", 8, 3);
            assertThat(downed(b, "leaf01", 8)).isEqualTo(3);
            assertThat(downed(b, "spine01", 4)).isEqualTo(3);
            assertThat(b.twin.portState("leaf01", 8)).isEqualTo(PortState.INIT);
            assertThat(b.twin.physState("leaf01", 8)).isEqualTo(PhysState.LINK_UP);
            b.twin.setCounter("leaf01", 8, PortCounter.LINK_DOWNED, 254);
            b.twin.flap("leaf01", 8, 5);
            assertThat(downed(b, "leaf01", 8)).as("8 bits, saturating").isEqualTo(255);
            b.twin.linkDown("leaf01", 8);
            assertThatThrownBy(() -> b.twin.flap("leaf01", 8, 1)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("is down");
            assertThatThrownBy(() -> b.twin.flap("leaf01", 0, 1)).hasMessageContaining("no link");
        }
    }

    @Test
    void anUnpluggedCableComesBackAsItWasOrDegradedWithALowerRatedOne() {
        try (SmBench b = new SmBench()) {
            b.twin.unplug("leaf02", 8);
            LinkStatus s = b.twin.linkStatus("leaf02", 8);
            assertThat(s.isLinked()).isFalse();
            assertThat(s.toString()).isEqualTo("unlinked");
            assertThat(downed(b, "spine01", 8)).isEqualTo(1);
            byte[] pi = b.mini.get(AttributeIds.PORT_INFO, 8, 1, 5, 5);
            assertThat(MiniSm.PI.get(pi, D, "PhysLinkState")).isEqualTo(2);
            assertThat(b.mini.get(AttributeIds.NODE_INFO, 0, 1, 5, 8)).as("nothing behind spine01[8]").isNull();
            assertThatThrownBy(() -> b.twin.unplug("leaf02", 8)).hasMessageContaining("is not linked");

            assertThat(b.twin.replug("spine01", 8).toString()).isEqualTo("4xEDR");
            assertThat(b.twin.portState("spine01", 8)).isEqualTo(PortState.INIT);

            Cable ddr = new Cable(CableKind.PASSIVE_COPPER, 2, LinkSpeed.DDR, LinkWidth.X4);
            LinkStatus slow = b.twin.replug("leaf02", 8, ddr);
            assertThat(slow.speed()).isEqualTo(LinkSpeed.DDR);
            assertThat(slow.width()).isEqualTo(LinkWidth.X4);
            assertThat(slow.capableSpeed()).isEqualTo(LinkSpeed.EDR);
            assertThat(slow.isDegraded()).isTrue();
            assertThat(slow.cable()).isEqualTo(ddr);
            assertThat(slow.toString()).isEqualTo("4xDDR (could be 4xEDR)");
            assertThat(downed(b, "spine01", 8)).as("the swap pulled a live cable").isEqualTo(2);
            byte[] spi = b.mini.get(AttributeIds.PORT_INFO, 8, 1, 5, 5);
            assertThat(MiniSm.PI.get(spi, D, "LinkSpeedActive")).as("DDR").isEqualTo(2);
            assertThat(MiniSm.PI.get(spi, D, "LinkSpeedExtActive")).isZero();

            Cable oneLane = ddr.withMaxWidth(LinkWidth.X1).withMaxSpeed(LinkSpeed.EDR);
            assertThat(b.twin.replug("leaf02", 8, oneLane).toString()).isEqualTo("1xEDR (could be 4xEDR)");
        }
    }

    @Test
    void linkCablesFreePortsAndRefusesLinkedOnes() {
        try (SmBench b = new SmBench()) {
            b.twin.unplug("leaf01", 8);
            b.twin.unplug("leaf02", 8);
            LinkStatus s = b.twin.link("leaf01", 8, "leaf02", 8, null);
            assertThat(s.isUp()).isTrue();
            assertThat(s.remoteNode()).isEqualTo(b.name("leaf02"));
            assertThat(b.mini.get(AttributeIds.NODE_INFO, 0, 1, 8)).satisfies(r ->
                    assertThat(MiniSm.NI.get(r, D, "Guid")).isEqualTo(b.fabric.byName(b.name("leaf02")).guid()));
            assertThatThrownBy(() -> b.twin.link("leaf01", 7, "spine01", 8, null))
                    .hasMessageContaining("is already linked to");
            assertThatThrownBy(() -> b.twin.replug("spine01", 4)).hasMessageContaining("which is linked to");
            assertThatThrownBy(() -> b.twin.replug("spine01", 3)).hasMessageContaining("is linked");
            assertThatThrownBy(() -> b.twin.link("leaf01", 8, "leaf01", 8, null)).hasMessageContaining("itself");
        }
    }

    @Test
    void syncModelWritesTheFaultsIntoTheModel() {
        try (SmBench b = new SmBench()) {
            int links = b.fabric.links().size();
            b.twin.unplug("leaf01", 8);
            b.twin.replug("leaf02", 8, Cable.UNRATED.withMaxSpeed(LinkSpeed.DDR));
            b.twin.setLinkLayer("node004", 1, LinkLayer.ETHERNET);
            b.twin.syncModel();
            assertThat(b.fabric.links()).hasSize(links - 1);
            Port l1 = b.fabric.byName(b.name("leaf01")).port(8);
            assertThat(l1.link()).isNull();
            assertThat(l1.state()).isEqualTo(PortState.DOWN);
            Link l2 = b.fabric.byName(b.name("leaf02")).port(8).link();
            assertThat(l2.cable().maxSpeed()).isEqualTo(LinkSpeed.DDR);
            assertThat(l2.activeSpeed()).isEqualTo(LinkSpeed.DDR);
            assertThat(l2.isDegraded()).isTrue();
            assertThat(l2.a().state()).isEqualTo(PortState.INIT);
            Port host = b.fabric.byName(b.name("node004")).port(1);
            assertThat(host.linkLayer()).isEqualTo(LinkLayer.ETHERNET);
            assertThat(host.widthActive()).isNull();
            assertThat(host.physState()).isEqualTo(PhysState.POLLING);
            b.twin.replug("leaf01", 8);
            b.twin.syncModel();
            assertThat(b.fabric.links()).hasSize(links);
            assertThat(b.fabric.byName(b.name("leaf01")).port(8).link().activeSpeed()).isEqualTo(LinkSpeed.EDR);
        }
    }

    @Test
    void anHcaPortTurnedEthernetGoesDownAndStaysDownUntilItIsInfiniBandAgain() {
        try (SmBench b = new SmBench()) {
            b.twin.setLinkLayer("node003", 1, LinkLayer.ETHERNET);
            assertThat(b.twin.linkLayer("node003", 1)).isEqualTo(LinkLayer.ETHERNET);
            assertThat(b.twin.physState("node003", 1)).isEqualTo(PhysState.POLLING);
            assertThat(b.twin.physState("leaf01", 3)).isEqualTo(PhysState.POLLING);
            assertThat(downed(b, "leaf01", 3)).isEqualTo(1);
            assertThat(b.traps(128)).singleElement().satisfies(m ->
                    assertThat(m.from().lid()).isEqualTo(b.lidOf("leaf01")));
            b.twin.linkUp("leaf01", 3);
            assertThat(b.twin.physState("leaf01", 3)).isEqualTo(PhysState.POLLING);
            b.twin.setLinkLayer("node003", 1, LinkLayer.INFINIBAND);
            assertThat(b.twin.linkStatus("node003", 1).toString()).isEqualTo("4xEDR");
        }
    }

    @Test
    void aRebootedSwitchLosesItsLidTablesAndCountersAndItsNeighboursTrap() {
        try (SmBench b = new SmBench()) {
            int lid2 = b.lidOf("leaf02");
            assertThat(b.twin.lftEntry("leaf01", lid2)).isEqualTo(5);
            b.twin.addCounter("leaf01", 1, PortCounter.SYMBOL_ERROR, 9);
            b.autoRepress = true;
            b.twin.rebootSwitch("leaf01");
            assertThat(b.twin.lid("leaf01", 0)).isZero();
            assertThat(b.twin.lftEntry("leaf01", lid2)).isEqualTo(0xff);
            assertThat(b.twin.linearFdbTop("leaf01")).isZero();
            assertThat(b.twin.counter("leaf01", 1, PortCounter.SYMBOL_ERROR)).isZero();
            assertThat(b.twin.counter("leaf01", 1, PortCounter.LINK_DOWNED)).isZero();
            assertThat(downed(b, "node001", 1)).isEqualTo(1);
            assertThat(downed(b, "spine01", 1)).isEqualTo(1);
            for (int p = 1; p <= 8; p++) {
                assertThat(b.twin.portState("leaf01", p)).isEqualTo(PortState.INIT);
                assertThat(b.twin.physState("leaf01", p)).isEqualTo(PhysState.LINK_UP);
            }
            assertThat(b.twin.portAtLid(b.lidOf("leaf02"))).isNotNull();
            byte[] pi = b.mini.get(AttributeIds.PORT_INFO, 0, 1);
            assertThat(MiniSm.PI.get(pi, D, "SMLid")).isZero();
            byte[] si = b.mini.get(AttributeIds.SWITCH_INFO, 0, 1);
            assertThat(MiniSm.SI.get(si, D, "StateChange")).isEqualTo(1);
            // the spine traps (its route to the SM went through leaf01: lost until the SM routes again); the
            // rebooted leaf, with no LID, does not
            assertThat(b.twin.pendingTraps()).extracting(PendingTrap::nodeName)
                    .containsOnly(b.name("spine01"));
            // an SM brings it back
            MiniSm again = new MiniSm(b.sm).discover().assignLids().route();
            assertThat(again.nodes).hasSize(b.fabric.size());
            assertThat(b.twin.lftEntry("leaf01", b.twin.lid("leaf02", 0))).isNotEqualTo(0xff);
        }
    }

    @Test
    void aKilledSmLeavesItsIsSmBitAndNobodyAnswersSmInfo() {
        try (SmBench b = new SmBench()) {
            TwinTransport other = new TwinTransport(b.twin.attach("node008", 1));
            int cap = b.twin.capabilityMask("node001", 1);
            assertThat(cap & TwinState.CAP_IS_SM).isNotZero();
            assertThat(b.twin.smAttachments()).containsExactly(b.sm.attachment());
            assertThat(b.twin.killSms()).isEqualTo(1);
            assertThat(b.twin.smAttachments()).isEmpty();
            assertThat(b.twin.capabilityMask("node001", 1)).isEqualTo(cap);
            long noReceiver = b.twin.drops(DropReason.NO_RECEIVER);
            byte[] q = Smps.lid(other.nextTid(), 1, AttributeIds.SM_INFO, 0);
            assertThatThrownBy(() -> other.call(q, MadAddress.smp(b.lidOf("node001")), Duration.ofMillis(50), 0))
                    .isInstanceOf(MadTransportException.class);
            assertThat(b.twin.drops(DropReason.NO_RECEIVER)).isEqualTo(noReceiver + 1);
            long detached = b.twin.drops(DropReason.DETACHED);
            assertThat(b.mini.get(AttributeIds.NODE_INFO, 0)).as("the dead SM's MADs go nowhere").isNull();
            assertThat(b.twin.drops(DropReason.DETACHED)).as("sent and resent").isEqualTo(detached + 2);
            other.close();
        }
    }

    @Test
    void dropRatesFollowTheirRateAndTheSeed() {
        List<Integer> first = lostOf(7, 0.25);
        List<Integer> second = lostOf(7, 0.25);
        List<Integer> other = lostOf(8, 0.25);
        assertThat(second).isEqualTo(first);
        assertThat(other).isNotEqualTo(first);
        // 2000 draws at 25%: 500 expected, sigma 19.4
        assertThat((double) first.size()).isCloseTo(500, within(100.0));
        assertThat(lostOf(7, 0)).isEmpty();
        assertThat(lostOf(7, 1)).hasSize(2000);
    }

    /** Indexes of the 2000 DR NodeInfo Gets to leaf02 lost with leaf02's port 0 dropping at {@code rate}. */
    private static List<Integer> lostOf(long seed, double rate) {
        try (SmBench b = new SmBench()) {
            b.twin.setFaultSeed(seed);
            b.twin.setDropRate("leaf02", 0, rate);
            List<Integer> lost = new ArrayList<>();
            long before = b.twin.drops(DropReason.INJECTED);
            for (int i = 0; i < 2000; i++) {
                try {
                    b.sm.call(Smps.drGet(b.sm.nextTid(), AttributeIds.NODE_INFO, 0, 1, 5, 5), MadAddress.directed(),
                            Duration.ofMillis(100), 0);
                } catch (MadTransportException e) {
                    lost.add(i);
                }
            }
            assertThat(b.twin.drops(DropReason.INJECTED) - before).isEqualTo(lost.size());
            return lost;
        }
    }

    @Test
    void aDropRateForOneAttributeSparesTheOthers() {
        try (SmBench b = new SmBench()) {
            b.twin.setDropRate("leaf02", 0, AttributeIds.PORT_INFO, 1.0);
            assertThat(b.mini.get(AttributeIds.NODE_INFO, 0, 1, 5, 5)).isNotNull();
            assertThat(b.mini.get(AttributeIds.PORT_INFO, 1, 1, 5, 5)).isNull();
            assertThat(b.twin.dropRates()).containsExactly(
                    "\"" + b.name("leaf02") + "\"[0] attribute 0x0015 100%");
            b.twin.clearDropRates("leaf02", 0);
            assertThat(b.mini.get(AttributeIds.PORT_INFO, 1, 1, 5, 5)).isNotNull();
            // fabric-wide, by attribute: every port a MAD enters draws
            b.twin.setDropRate(AttributeIds.NODE_DESC, 1.0);
            assertThat(b.mini.get(AttributeIds.NODE_DESC, 0, 1)).isNull();
            assertThat(b.mini.get(AttributeIds.NODE_INFO, 0, 1)).isNotNull();
            b.twin.clearDropRates();
            assertThat(b.mini.get(AttributeIds.NODE_DESC, 0, 1)).isNotNull();
            assertThatThrownBy(() -> b.twin.setDropRate("leaf02", 0, 1.5)).hasMessageContaining("0..1");
        }
    }

    @Test
    void aLossyHostPortLosesWhatItsLinkBringsIn() {
        try (SmBench b = new SmBench()) {
            b.twin.setDropRate("node005", 1, 1.0);
            assertThat(b.mini.get(AttributeIds.NODE_INFO, 0, 1, 5, 5, 1)).isNull();
            assertThat(b.mini.get(AttributeIds.NODE_INFO, 0, 1, 5, 5, 2)).isNotNull();
        }
    }

    @Test
    void hostNamesAndDescriptionsNameNodesToo() {
        try (SmBench b = new SmBench()) {
            String id = b.name("node002");
            assertThat(b.twin.lid("node002", 1)).isEqualTo(b.twin.lid(id, 1))
                    .isEqualTo(b.twin.lid(b.fabric.byName(id).description(), 1));
            assertThatThrownBy(() -> b.twin.linkDown("node999", 1)).hasMessageContaining("unknown node");
        }
    }
}
