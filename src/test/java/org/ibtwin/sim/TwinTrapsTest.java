package org.ibtwin.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.MadHeaders;
import org.ibtwin.mad.Methods;
import org.ibtwin.mad.MgmtClasses;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.transport.ReceivedMad;
import org.junit.jupiter.api.Test;

class TwinTrapsTest {
    private static final int D = Smps.DATA;

    @Test
    void anInterSwitchLinkGoingDownMakesBothSwitchesTrap128ToTheSm() {
        try (SmBench b = new SmBench()) {
            assertThat(b.traps).isEmpty();
            b.twin.linkDown("leaf02", 8);
            assertThat(b.traps).hasSize(2);
            for (ReceivedMad m : b.traps) {
                byte[] t = m.mad();
                assertThat(t[1] & 0xff).isEqualTo(MgmtClasses.SUBN_LID);
                assertThat(t[3] & 0xff).isEqualTo(Methods.TRAP);
                assertThat(((t[16] & 0xff) << 8) | (t[17] & 0xff)).isEqualTo(AttributeIds.NOTICE);
                assertThat(m.from().qpn()).isZero();
                assertThat(SmBench.N128.get(t, D, "NoticeIsGeneric")).isEqualTo(1);
                assertThat(SmBench.N128.get(t, D, "NoticeType")).isEqualTo(1);
                assertThat(SmBench.N128.get(t, D, "NoticeProducerType")).isEqualTo(2);
                assertThat(SmBench.number(m)).isEqualTo(128);
                assertThat(SmBench.N128.get(t, D, "NoticeIssuerLID")).isEqualTo(m.from().lid());
                assertThat(SmBench.N128.get(t, D, "NoticeDataLID")).isEqualTo(m.from().lid());
            }
            assertThat(b.traps.stream().map(m -> m.from().lid()))
                    .containsExactlyInAnyOrder(b.lidOf("leaf02"), b.lidOf("spine01"));
            assertThat(b.twin.pendingTraps()).extracting(PendingTrap::number).containsExactly(128, 128);
            byte[] si = b.mini.get(AttributeIds.SWITCH_INFO, 0, 1);
            assertThat(MiniSm.SI.get(si, D, "StateChange")).as("leaf01 saw nothing").isZero();
        }
    }

    @Test
    void aTrapIsSentAgainWithItsTidUntilTheSmRepressesIt() {
        try (SmBench b = new SmBench()) {
            long before = b.twin.trapsSent();
            b.twin.linkDown("leaf02", 8);
            assertThat(b.traps).hasSize(2);
            assertThat(b.twin.resendTraps()).isEqualTo(2);
            assertThat(b.traps).hasSize(4);
            assertThat(b.traps.get(2).mad()).isEqualTo(b.traps.get(0).mad());
            assertThat(b.traps.get(3).mad()).isEqualTo(b.traps.get(1).mad());
            b.repress(b.traps.get(0));
            assertThat(b.twin.pendingTraps()).hasSize(1);
            assertThat(b.twin.resendTraps()).isEqualTo(1);
            assertThat(b.traps).hasSize(5);
            assertThat(SmBench.tid(b.traps.get(4))).isEqualTo(SmBench.tid(b.traps.get(1)));
            b.repress(b.traps.get(4));
            assertThat(b.twin.pendingTraps()).isEmpty();
            assertThat(b.twin.resendTraps()).isZero();
            assertThat(b.traps).hasSize(5);
            assertThat(b.twin.trapsSent() - before).isEqualTo(5);
        }
    }

    @Test
    void resendsComeEverySubnetTimeoutByTheTwinsClock() {
        try (SmBench b = new SmBench()) {
            AtomicLong now = new AtomicLong(1_000_000_000L);
            b.twin.setClock(now::get);
            // leaf02 learns SubnetTimeout 18 (1.07 s, as OpenSM sets it); spine01 keeps the default 31 (2.4 h)
            MiniSm.Found leaf02 = b.mini.nodes.get(b.fabric.byName(b.name("leaf02")).guid());
            b.mini.setPortInfo(leaf02, 0, pi -> MiniSm.PI.set(pi, 0, "SubnetTimeout", 18));
            b.twin.linkDown("leaf02", 8);
            assertThat(b.traps).hasSize(2);
            now.addAndGet(1_000_000_000L);
            b.twin.resendTrapsDue();
            assertThat(b.traps).as("1.0 s: not yet").hasSize(2);
            now.addAndGet(100_000_000L);
            b.twin.resendTrapsDue();
            assertThat(b.traps).as("1.1 s: leaf02's again").hasSize(3);
            assertThat(b.traps.get(2).from().lid()).isEqualTo(b.lidOf("leaf02"));
            // any MAD the twin processes looks too
            now.addAndGet(1_100_000_000L);
            b.mini.get(AttributeIds.NODE_INFO, 0);
            assertThat(b.traps).hasSize(4);
            now.addAndGet(3L * 3600 * 1_000_000_000L);
            b.twin.resendTrapsDue();
            assertThat(b.traps).as("3 h: both").hasSize(6);
        }
    }

    @Test
    void furtherChangesAtASwitchWithATrapPendingAddNoneAndARepressedSwitchTrapsAgain() {
        try (SmBench b = new SmBench()) {
            b.twin.linkDown("leaf02", 8);
            b.twin.linkDown("leaf02", 7);
            assertThat(b.traps).hasSize(2);
            b.traps.forEach(b::repress);
            assertThat(b.twin.pendingTraps()).isEmpty();
            b.twin.linkUp("leaf02", 8);
            assertThat(b.traps).as("the link came up: trap again").hasSize(4);
        }
    }

    @Test
    void withTheSmAnsweringAtOnceAFlapLeavesNothingPending() {
        try (SmBench b = new SmBench()) {
            b.autoRepress = true;
            b.twin.flap("leaf01", 8, 3);
            assertThat(b.traps).hasSizeGreaterThanOrEqualTo(2);
            assertThat(b.twin.pendingTraps()).isEmpty();
        }
    }

    @Test
    void aHostPortGoingDownIsTrappedByItsLeafAlone() {
        try (SmBench b = new SmBench()) {
            b.twin.linkDown("node006", 1);
            assertThat(b.traps).singleElement().satisfies(m -> {
                assertThat(SmBench.number(m)).isEqualTo(128);
                assertThat(m.from().lid()).isEqualTo(b.lidOf("leaf02"));
            });
        }
    }

    @Test
    void theSmsOwnSetOfAPortDownIsNotTrappedByThatSwitchButByTheOtherEnd() {
        try (SmBench b = new SmBench()) {
            MiniSm.Found leaf02 = b.mini.nodes.get(b.fabric.byName(b.name("leaf02")).guid());
            b.mini.setPortInfo(leaf02, 5, pi -> MiniSm.PI.set(pi, 0, "LinkState", 1));
            assertThat(b.traps).extracting(m -> m.from().lid()).containsExactly(b.lidOf("spine01"));
        }
    }

    @Test
    void aSwitchTheSmHasNotConfiguredSendsNoTrap() {
        Twin twin = Twin.of(FatTree.build(FatTreeSpec.of(2, 8, 8).withSpeed(LinkSpeed.EDR)));
        twin.linkDown("leaf02", 8);
        assertThat(twin.pendingTraps()).isEmpty();
        assertThat(twin.trapsSent()).isZero();
    }

    @Test
    void aTrapWithNoSmToTakeItIsLostAndSentAgainLater() {
        try (SmBench b = new SmBench()) {
            b.sm.attachment().setIsSm(false);   // its own port's 144 is lost already
            long lost = b.twin.drops(DropReason.NO_RECEIVER);
            b.twin.linkDown("leaf02", 8);
            assertThat(b.traps).isEmpty();
            assertThat(b.twin.drops(DropReason.NO_RECEIVER) - lost).isEqualTo(2);
            assertThat(b.twin.pendingTraps()).extracting(PendingTrap::number).containsExactly(144, 128, 128);
            b.sm.attachment().setIsSm(true);
            b.twin.resendTraps();
            assertThat(b.traps(128)).hasSize(2);
            assertThat(b.traps(144)).as("IsSM set again: sent at once, then once more, same TID").hasSize(2)
                    .extracting(SmBench::tid).containsOnly(SmBench.tid(b.traps(144).get(0)));
        }
    }

    @Test
    void anAttachmentSettingIsSmMakesItsPortTrap144() {
        try (SmBench b = new SmBench()) {
            TwinTransport other = new TwinTransport(b.twin.attach("node006", 1));
            other.attachment().setIsSm(true);
            ReceivedMad m = b.traps.getLast();
            byte[] t = m.mad();
            int lid = b.lidOf("node006");
            assertThat(SmBench.number(m)).isEqualTo(144);
            assertThat(m.from().lid()).isEqualTo(lid);
            assertThat(SmBench.N144.get(t, D, "NoticeType")).isEqualTo(4);
            assertThat(SmBench.N144.get(t, D, "NoticeProducerType")).isEqualTo(1);
            assertThat(SmBench.N144.get(t, D, "NoticeIssuerLID")).isEqualTo(lid);
            assertThat(SmBench.N144.get(t, D, "NoticeDataTrap144LID")).isEqualTo(lid);
            assertThat(SmBench.N144.get(t, D, "NoticeDataTrap144CapMask") & TwinState.CAP_IS_SM).isNotZero();
            assertThat(SmBench.N144.get(t, D, "NoticeDataTrap144CapMask"))
                    .isEqualTo(Integer.toUnsignedLong(b.twin.capabilityMask("node006", 1)));
            other.attachment().setIsSm(false);
            ReceivedMad cleared = b.traps.getLast();
            assertThat(SmBench.N144.get(cleared.mad(), D, "NoticeDataTrap144CapMask") & TwinState.CAP_IS_SM).isZero();
            assertThat(SmBench.tid(cleared)).as("a new trap replaces the pending one").isNotEqualTo(SmBench.tid(m));
            assertThat(b.twin.pendingTraps()).singleElement()
                    .satisfies(p -> assertThat(p.tid()).isEqualTo(SmBench.tid(cleared)));
            b.repress(cleared);
            assertThat(b.twin.pendingTraps()).isEmpty();
            other.close();
        }
    }

    @Test
    void theHostChangingACapabilityMaskTraps144AndTheSameMaskAgainDoesNot() {
        try (SmBench b = new SmBench()) {
            int cap = b.twin.capabilityMask("node003", 1);
            b.twin.setCapabilityMask("node003", 1, cap | 0x80000);
            assertThat(b.traps(144)).hasSize(1);
            assertThat(b.twin.capabilityMask("node003", 1)).isEqualTo(cap | 0x80000);
            b.twin.setCapabilityMask("node003", 1, cap | 0x80000);
            assertThat(b.traps(144)).hasSize(1);
        }
    }

    @Test
    void aRepressNamingTheTrapNumberWithAnotherTidStillRepressesIt() {
        try (SmBench b = new SmBench()) {
            b.twin.linkDown("node006", 1);
            ReceivedMad m = b.traps.getFirst();
            byte[] r = Smps.lid(12345, Methods.TRAP_REPRESS, AttributeIds.NOTICE, 0);
            System.arraycopy(m.mad(), D, r, D, 64);
            b.sm.send(r, org.ibtwin.transport.MadAddress.smp(m.from().lid()));
            assertThat(b.twin.pendingTraps()).isEmpty();
            assertThat(MadHeaders.tid(m.mad())).isNotEqualTo(12345);
        }
    }
}
