package org.ibtwin.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Reachability through partitions: pairwise, a shared partition with a full member among the two. */
class PartitionsTest {
    @Test
    void twoPortsTalkWhenTheyShareAPartitionAndOneIsAFullMember() {
        int[] sm = {0xffff};
        int[] tenantA = {0x7fff, 0x8001};
        int[] tenantB = {0x7fff, 0x8002};
        assertThat(Partitions.canTalk(sm, tenantA)).isTrue();
        assertThat(Partitions.canTalk(sm, tenantB)).isTrue();
        // not transitive: the SM's host reaches both, the tenants still do not reach each other
        assertThat(Partitions.canTalk(tenantA, tenantB)).isFalse();
        assertThat(Partitions.canTalk(tenantA, tenantA)).isTrue();
        assertThat(Partitions.canTalk(new int[] {0x0001}, new int[] {0x0001})).as("both limited").isFalse();
        assertThat(Partitions.shared(tenantA, new int[] {0x0001, 0x7fff}, 0)).isEqualTo(0x0001);
        assertThat(Partitions.shared(tenantA, sm, 0)).isEqualTo(0x7fff);
        assertThat(Partitions.shared(tenantA, new int[] {0x8001, 0xffff}, 0x7fff)).isEqualTo(0x7fff);
        assertThat(Partitions.shared(new int[] {0x8000}, new int[] {0x8000}, 0)).as("partition 0 is no P_Key")
                .isZero();
        assertThat(Partitions.isFullMember(new int[] {0x7fff, 0x8001}, 0x7fff)).isFalse();
        assertThat(Partitions.isFullMember(new int[] {0x7fff, 0xffff}, 0x7fff)).isTrue();
    }
}
