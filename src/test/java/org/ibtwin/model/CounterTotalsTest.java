package org.ibtwin.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CounterTotalsTest {
    private static final long GUID = 0xec0d9a0300ec8480L;

    @Test
    void aResetByOthersIsSeenAndTheCountsBeforeItKept() {
        CounterTotals t = new CounterTotals();
        int[] bits = {16, 64};
        assertThat(t.add(GUID, 1, new long[] {10, 100}, bits)).containsExactly(10, 100);
        assertThat(t.add(GUID, 1, new long[] {15, 150}, bits)).containsExactly(15, 150);
        CounterTotals.Update u = t.update(GUID, 1, new long[] {3, 160}, bits);
        assertThat(u.totals()).containsExactly(18, 160);
        assertThat(u.resetsSeen()).isEqualTo(1L);
    }

    @Test
    void aResetOfOurOwnIsNotTakenForALowerReading() {
        CounterTotals t = new CounterTotals();
        int[] bits = {32};
        t.add(GUID, 2, new long[] {0xfffffff0L}, bits);
        t.cleared(GUID, 2, 1);
        CounterTotals.Update u = t.update(GUID, 2, new long[] {5}, bits);
        assertThat(u.totals()).containsExactly(0xfffffff5L);
        assertThat(u.resetsSeen()).isZero();
        assertThat(t.size()).isEqualTo(1);
    }

    @Test
    void aLowerSixtyFourBitReadingIsAResetAndUnreadCountersStayZero() {
        CounterTotals t = new CounterTotals();
        t.add(GUID, 1, new long[] {-2L, 7}, new int[] {64, 0});
        assertThat(t.add(GUID, 1, new long[] {1, 9}, new int[] {64, 0})).containsExactly(-1L, 0);
    }
}
