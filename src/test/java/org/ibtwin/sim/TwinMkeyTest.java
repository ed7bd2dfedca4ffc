package org.ibtwin.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.MadHeaders;
import org.ibtwin.mad.Methods;
import org.ibtwin.mad.MgmtClasses;
import org.ibtwin.mad.SmpAttributes;
import org.ibtwin.transport.MadTimeoutException;
import org.ibtwin.transport.ReceivedMad;
import org.junit.jupiter.api.Test;

/** M_Key at the twin's SMAs (IBA 14.2.4): protect levels, the lease, trap 256. */
class TwinMkeyTest {
    private static final Layout PI = SmpAttributes.PORT_INFO;
    private static final Layout N256 = SmpAttributes.NOTICE_TRAP_256;
    private static final int D = Smps.DATA;
    private static final long KEY = 0xec0d9a0300ec8480L;

    /** Protects leaf01 (one hop from node001) with KEY at {@code level}, lease {@code lease} s; returns the path. */
    private static int[] protect(SmBench b, int level, int lease) {
        MiniSm.Found leaf = b.mini.nodes.get(b.fabric.byName(b.name("leaf01")).guid());
        b.mini.setPortInfo(leaf, 0, pi -> {
            PI.set(pi, 0, "Mkey", KEY);
            PI.set(pi, 0, "ProtectBits", level);
            PI.set(pi, 0, "MkeyLeasePeriod", lease);
        });
        return leaf.path;
    }

    private static byte[] call(SmBench b, byte[] mad) {
        return b.mini.call(mad);
    }

    private static byte[] get(SmBench b, long key, int attr, long mod, int... path) {
        byte[] m = Smps.drGet(b.sm.nextTid(), attr, mod, path);
        Smps.DR.set(m, 0, "MadMkey", key);
        return call(b, m);
    }

    private static byte[] portInfoSet(SmBench b, long key, byte[] data, int... path) {
        byte[] m = Smps.drSet(b.sm.nextTid(), AttributeIds.PORT_INFO, 0, data, path);
        Smps.DR.set(m, 0, "MadMkey", key);
        return call(b, m);
    }

    @Test
    void eachProtectLevelOpensWhatTheSpecificationSays() {
        try (SmBench b = new SmBench()) {
            b.autoRepress = true;
            int[] leaf = protect(b, 0, 0);
            // level 0: a Get without the key answers, the key shown; a Set is dropped
            byte[] r = get(b, 0, AttributeIds.PORT_INFO, 0, leaf);
            assertThat(PI.get(r, D, "Mkey")).isEqualTo(KEY);
            byte[] data = Arrays.copyOfRange(r, D, D + 64);
            PI.set(data, 0, "LinkState", 0);
            PI.set(data, 0, "PhysLinkState", 0);
            PI.set(data, 0, "SMLid", 77);
            assertThatThrownBy(() -> portInfoSet(b, 0, data, leaf)).isInstanceOf(MadTimeoutException.class);
            assertThatThrownBy(() -> portInfoSet(b, KEY + 1, data, leaf)).isInstanceOf(MadTimeoutException.class);
            assertThat(PI.get(get(b, KEY, AttributeIds.PORT_INFO, 0, leaf), D, "SMLid")).isNotEqualTo(77);
            // level 3: nothing without the key, not even NodeInfo
            PI.set(data, 0, "ProtectBits", 3);
            PI.set(data, 0, "SMLid", PI.get(r, D, "SMLid"));
            assertThat(Smps.status(portInfoSet(b, KEY, data, leaf))).isZero();
            assertThatThrownBy(() -> get(b, 0, AttributeIds.NODE_INFO, 0, leaf))
                    .isInstanceOf(MadTimeoutException.class);
            r = get(b, KEY, AttributeIds.PORT_INFO, 0, leaf);
            assertThat(PI.get(r, D, "ProtectBits")).isEqualTo(3);
            // the Set with the key wrote MkeyViolations back as read (0): the two attempts of the NodeInfo Get
            assertThat(PI.get(r, D, "MkeyViolations")).isEqualTo(2);
            assertThat(b.twin.drops(DropReason.M_KEY)).as("2 attempts of 3 SMPs").isEqualTo(6);
            // other nodes are not protected
            assertThat(Smps.status(get(b, 0, AttributeIds.NODE_INFO, 0))).isZero();
        }
    }

    @Test
    void aRefusedSmpTraps256ToTheSmWithTheOffendersDetails() {
        try (SmBench b = new SmBench()) {
            int[] leaf = protect(b, 2, 0);
            assertThat(b.traps).isEmpty();
            assertThatThrownBy(() -> get(b, 0x1234, AttributeIds.SWITCH_INFO, 0, leaf))
                    .isInstanceOf(MadTimeoutException.class);
            assertThat(b.traps(256)).as("one for each attempt").hasSize(2);
            ReceivedMad m = b.traps(256).get(1);
            byte[] t = m.mad();
            assertThat(t[1] & 0xff).isEqualTo(MgmtClasses.SUBN_LID);
            assertThat(MadHeaders.SMP_LID.get(t, 0, "MadMkey")).as("the trap carries the port's key").isEqualTo(KEY);
            assertThat(m.from().lid()).isEqualTo(b.lidOf("leaf01"));
            assertThat(N256.get(t, D, "NoticeType")).as("security").isEqualTo(2);
            assertThat(N256.get(t, D, "NoticeProducerType")).isEqualTo(2);
            assertThat(N256.get(t, D, "NoticeIssuerLID")).isEqualTo(b.lidOf("leaf01"));
            assertThat(N256.get(t, D, "NoticeDataTrap256LID")).as("DrSLID, permissive").isEqualTo(0xffff);
            assertThat(N256.get(t, D, "NoticeDataTrap256Method")).isEqualTo(Methods.GET);
            assertThat(N256.get(t, D, "NoticeDataTrap256AttrId")).isEqualTo(AttributeIds.SWITCH_INFO);
            assertThat(N256.get(t, D, "NoticeDataTrap256Mkey")).isEqualTo(0x1234);
            assertThat(N256.get(t, D, "NoticeDataTrap256DrNotice")).isEqualTo(1);
            assertThat(N256.get(t, D, "NoticeDataTrap256DrHopCnt")).isEqualTo(1);
            // a TrapRepress without the key is refused too; the echo (which carries it) is taken
            byte[] wrong = Smps.lid(MadHeaders.tid(t), Methods.TRAP_REPRESS, AttributeIds.NOTICE, 0);
            System.arraycopy(t, D, wrong, D, 64);
            b.sm.send(wrong, org.ibtwin.transport.MadAddress.smp(m.from().lid()));
            assertThat(b.twin.pendingTraps()).extracting(PendingTrap::number).contains(256);
            b.repress(m);
            assertThat(b.twin.pendingTraps()).isEmpty();
        }
    }

    @Test
    void theLeaseRunsFromTheFirstRefusalAndDropsTheProtectionWhenNoKeyCameInTime() {
        // no SM answers the traps 256 here: its TrapRepress, carrying the key, would stop the lease as any SMP
        // with the key does (a lease runs out only when the SM that knows the key is gone)
        try (SmBench b = new SmBench()) {
            AtomicLong now = new AtomicLong(5_000_000_000L);
            b.twin.setClock(now::get);
            int[] leaf = protect(b, 2, 3);
            assertThatThrownBy(() -> get(b, 0, AttributeIds.NODE_INFO, 0, leaf))
                    .isInstanceOf(MadTimeoutException.class);
            now.addAndGet(2_000_000_000L);
            // the key within the lease stops the timer: 2 s more without it expire nothing
            assertThat(Smps.status(get(b, KEY, AttributeIds.NODE_INFO, 0, leaf))).isZero();
            now.addAndGet(2_000_000_000L);
            assertThatThrownBy(() -> get(b, 0, AttributeIds.NODE_INFO, 0, leaf))
                    .as("the timer starts again here").isInstanceOf(MadTimeoutException.class);
            now.addAndGet(2_999_000_000L);
            assertThatThrownBy(() -> get(b, 0, AttributeIds.NODE_INFO, 0, leaf))
                    .isInstanceOf(MadTimeoutException.class);
            now.addAndGet(1_000_000L);
            // 3 s since the refusal with no key: protection 0, the key kept and shown
            byte[] r = get(b, 0, AttributeIds.PORT_INFO, 0, leaf);
            assertThat(PI.get(r, D, "ProtectBits")).isZero();
            assertThat(PI.get(r, D, "Mkey")).isEqualTo(KEY);
        }
    }

    @Test
    void aZeroLeaseNeverExpires() {
        try (SmBench b = new SmBench()) {
            b.autoRepress = true;
            AtomicLong now = new AtomicLong();
            b.twin.setClock(now::get);
            int[] leaf = protect(b, 2, 0);
            assertThatThrownBy(() -> get(b, 0, AttributeIds.NODE_INFO, 0, leaf))
                    .isInstanceOf(MadTimeoutException.class);
            now.addAndGet(100_000L * 1_000_000_000L);
            assertThatThrownBy(() -> get(b, 0, AttributeIds.NODE_INFO, 0, leaf))
                    .isInstanceOf(MadTimeoutException.class);
        }
    }
}
