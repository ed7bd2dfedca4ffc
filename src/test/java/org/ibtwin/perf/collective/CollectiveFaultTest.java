package org.ibtwin.perf.collective;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.ibtwin.gen.GpuCluster;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Link;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.Node;
import org.ibtwin.model.PcieGen;
import org.junit.jupiter.api.Test;

/** The same collective before and after a fault: the numbers move the way they move on hardware. */
class CollectiveFaultTest {
    private static final long GIB = 1L << 30;
    private static final Set<Algorithm> RING = Set.of(Algorithm.RING);

    /** A classic tree of {@code nodes} 4-GPU nodes with one NIC each, radix {@code radix}. */
    private static Fabric classic(int nodes, int radix, LinkSpeed speed) {
        return GpuCluster.build(new GpuCluster.Spec(nodes, 4, 1, radix, speed, false, "node%03d"));
    }

    private static double ringBusbw(Fabric f, List<GpuNode> nodes, int gpus) {
        return CollectiveReferenceTest.model(f, nodes, gpus, Collective.ALL_REDUCE).estimate(8 * GIB, 4, RING, null)
                .busbw();
    }

    private static void fail(Fabric f, String switchName) {
        Node sw = f.switches().stream().filter(n -> switchName.equals(n.description())).findFirst().orElseThrow();
        List<Link> links = new ArrayList<>();
        for (int i = 1; i <= sw.numPorts(); i++) {
            if (sw.port(i).link() != null) {
                links.add(sw.port(i).link());
            }
        }
        links.forEach(f::disconnect);
    }

    @Test
    void oneHostsNicInAGen3X8SlotDragsTheWholeRingDownToIt() {
        Fabric f = classic(8, 40, LinkSpeed.HDR);
        List<GpuNode> all = GpuNode.of(f);
        double healthy = ringBusbw(f, all, 4);
        assertThat(healthy).isCloseTo(23.5, within(0.5));
        Node nic = f.cas().stream().filter(n -> n.description().startsWith("node005 ")).findFirst().orElseThrow();
        nic.setHostFacts(nic.hostFacts().withPcie(PcieGen.GEN3, 8));
        CollectiveModel.Estimate e = CollectiveReferenceTest.model(f, GpuNode.of(f), 4, Collective.ALL_REDUCE)
                .estimate(8 * GIB, 4, RING, null);
        // Gen3 x8: 63.0 Gb/s x 0.88 = 6.93 GB/s of TLPs; posted writes of 256 B carry 24 B each; x 0.955
        assertThat(e.busbw()).isCloseTo(63.015 * 0.88 / 8 / (1 + 24.0 / 256) * 0.955, within(0.05));
        assertThat(e.limit()).isEqualTo(CollectiveModel.Limit.NIC_PCIE);
        assertThat(e.why()).contains("PCIe Gen3 x8 of node005 mlx5_0");
        // the other seven hosts do not help: the ring moves at the slowest edge
        assertThat(e.busbw()).isLessThan(healthy * 0.3);
    }

    @Test
    void gpuDirectOffLowersLargeMessageBusbw() {
        Fabric f = CollectiveReferenceTest.cluster(4, 8, LinkSpeed.NDR);
        double on = ringBusbw(f, GpuNode.of(f), 8);
        double smallOn = CollectiveReferenceTest.allReduce(f, 8, null).timeUs();
        for (Node ca : f.cas()) {
            ca.setHostFacts(ca.hostFacts().withGpus(true, false, 8, 450, true, 0));
        }
        CollectiveModel.Estimate off = CollectiveReferenceTest.model(f, Collective.ALL_REDUCE)
                .estimate(8 * GIB, 4, RING, null);
        assertThat(off.busbw()).isLessThan(on * 0.6);
        assertThat(off.limit()).isEqualTo(CollectiveModel.Limit.HOST_BOUNCE);
        // small messages only pay the copy's latency
        assertThat(CollectiveReferenceTest.allReduce(f, 8, null).timeUs()).isGreaterThan(smallOn)
                .isLessThan(smallOn * 1.5);
    }

    /**
     * A static-routed 2-level tree (radix 8: leaves of 4 hosts and 4 uplinks, 2 to each of 2 spines), the ring
     * ordered so that every edge leaves its leaf: spine02 fails, each leaf keeps half its uplinks, busbw halves.
     */
    @Test
    void aFailedSpineLowersBusbwInProportionToTheUplinksLost() {
        Fabric f = classic(16, 8, LinkSpeed.HDR);
        assertThat(f.switches().stream().filter(n -> n.description().startsWith("spine")).count()).isEqualTo(2);
        double healthy = ringBusbw(f, reorder(f), 4);
        assertThat(healthy).isCloseTo(23.5, within(0.5));
        fail(f, "spine02");
        CollectiveModel.Estimate e = CollectiveReferenceTest.model(f, reorder(f), 4, Collective.ALL_REDUCE).estimate(8 * GIB, 4, RING, null);
        assertThat(e.busbw() / healthy).isCloseTo(0.5, within(0.02));
        assertThat(e.limit()).isEqualTo(CollectiveModel.Limit.LINK);
        assertThat(e.why()).contains("spine01").contains("shared by 2 flows");
    }

    /** node001, node005, node009, node013, node002, ...: each ring neighbour on the next leaf. */
    private static List<GpuNode> reorder(Fabric f) {
        List<GpuNode> all = GpuNode.of(f);
        List<GpuNode> out = new ArrayList<>();
        for (int j = 0; j < 4; j++) {
            for (int leaf = 0; leaf < 4; leaf++) {
                out.add(all.get(leaf * 4 + j));
            }
        }
        return out;
    }

    @Test
    void aJobConfinedToOneLeafIsUnaffectedByASpineFault() {
        Fabric f = classic(16, 8, LinkSpeed.HDR);
        List<GpuNode> leaf1 = GpuNode.of(f).subList(0, 4);
        CollectiveModel.Estimate before = CollectiveReferenceTest.model(f, leaf1, 4, Collective.ALL_REDUCE)
                .estimate(8 * GIB, 4, RING, null);
        fail(f, "spine01");
        CollectiveModel.Estimate after = CollectiveReferenceTest.model(f, GpuNode.of(f).subList(0, 4), 4,
                Collective.ALL_REDUCE).estimate(8 * GIB, 4, RING, null);
        assertThat(after.busbw()).isEqualTo(before.busbw());
        assertThat(after.timeUs()).isEqualTo(before.timeUs());
    }

    @Test
    void onARailOptimisedTreeAScalableUnitsJobIsUnaffectedByASpineFault() {
        Fabric f = CollectiveReferenceTest.cluster(64, 8, LinkSpeed.NDR);
        List<GpuNode> su1 = GpuNode.of(f).subList(0, 32);
        double before = ringBusbw(f, su1, 8);
        double across = ringBusbw(f, GpuNode.of(f), 8);
        fail(f, "spine01");
        assertThat(ringBusbw(f, GpuNode.of(f).subList(0, 32), 8)).isEqualTo(before);
        assertThat(ringBusbw(f, GpuNode.of(f), 8)).isLessThanOrEqualTo(across);
    }
}
