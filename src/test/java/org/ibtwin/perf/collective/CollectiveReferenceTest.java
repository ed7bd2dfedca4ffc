package org.ibtwin.perf.collective;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Set;
import org.ibtwin.gen.GpuCluster;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.Node;
import org.ibtwin.perf.MinHopRoutes;
import org.ibtwin.perf.PerfParams;
import org.junit.jupiter.api.Test;

/**
 * Every row of the collectives reference (C01..C06: measured and maintainer-stated nccl-tests figures), each a test
 * inside its tolerance. The figures are copied here as data.
 */
class CollectiveReferenceTest {
    /** One reference figure: busbw in GB/s (per NIC where the row says so) and its relative tolerance. */
    record Ref(String id, double figure, double tolerance) {
        void check(double modelled) {
            assertThat(modelled).as(id + ": model " + modelled + " vs " + figure + " ±" + (tolerance * 100) + "%")
                    .isCloseTo(figure, within(figure * tolerance));
        }
    }

    static final Ref C01 = new Ref("C01 HDR ring busbw per NIC", 24, 0.10);
    static final Ref C02_EDR = new Ref("C02 2 x 100 Gb/s NICs, ring busbw per node", 24, 0.10);
    static final Ref C02_HDR = new Ref("C02 2 x HDR 200 Gb/s NICs, ring busbw per node", 48, 0.10);
    static final Ref C03 = new Ref("C03 NDR ring busbw per NIC, many nodes", 47, 0.08);
    static final Ref C04_RING = new Ref("C04 8 x H100 one node, ring", 370, 0.08);
    static final Ref C04_NVLS = new Ref("C04 8 x H100 one node, NVLS", 480, 0.08);
    static final Ref C05 = new Ref("C05 2 nodes 8 x H100 + 8 x NDR, default algorithm, 8 GiB", 482, 0.12);

    static final long GIB = 1L << 30;
    static final Set<Algorithm> RING = Set.of(Algorithm.RING);

    static Fabric cluster(int nodes, int nics, LinkSpeed speed) {
        int radix = org.ibtwin.model.DeviceCatalog.switchFor(speed).ports();
        return GpuCluster.build(new GpuCluster.Spec(nodes, 8, nics, radix, speed, true, "node%03d"));
    }

    static CollectiveModel model(Fabric f, Collective c) {
        return new CollectiveModel(PerfParams.DEFAULT, CollectiveParams.DEFAULT, new MinHopRoutes(f),
                new Job(GpuNode.of(f), 8), c);
    }

    static CollectiveModel model(Fabric f, List<GpuNode> nodes, int gpus, Collective c) {
        return new CollectiveModel(PerfParams.DEFAULT, CollectiveParams.DEFAULT, new MinHopRoutes(f),
                new Job(nodes, gpus), c);
    }

    static CollectiveModel.Estimate allReduce(Fabric f, long bytes, Set<Algorithm> algos) {
        return model(f, Collective.ALL_REDUCE).estimate(bytes, 4, algos, null);
    }

    @Test
    void c01HdrRingAboutTwentyFourPerNic() {
        CollectiveModel.Estimate e = allReduce(cluster(4, 8, LinkSpeed.HDR), 8 * GIB, RING);
        C01.check(e.busbw() / 8);
        assertThat(e.limit()).isEqualTo(CollectiveModel.Limit.LINK);
    }

    @Test
    void c02TwoNicsPerNode() {
        C02_EDR.check(allReduce(cluster(4, 2, LinkSpeed.EDR), 8 * GIB, RING).busbw());
        C02_HDR.check(allReduce(cluster(4, 2, LinkSpeed.HDR), 8 * GIB, RING).busbw());
    }

    @Test
    void c03NdrRingFortySevenPerNicOnManyNodes() {
        CollectiveModel.Estimate e = allReduce(cluster(16, 8, LinkSpeed.NDR), 8 * GIB, RING);
        assertThat(e.algorithm()).isEqualTo(Algorithm.RING);
        C03.check(e.busbw() / 8);
    }

    @Test
    void c04OneH100NodeRingAndNvls() {
        Fabric f = cluster(1, 8, LinkSpeed.NDR);
        CollectiveModel.Estimate ring = allReduce(f, 8 * GIB, RING);
        C04_RING.check(ring.busbw());
        assertThat(ring.limit()).isEqualTo(CollectiveModel.Limit.NVLINK);
        CollectiveModel.Estimate nvls = allReduce(f, 8 * GIB, Set.of(Algorithm.NVLS));
        assertThat(nvls.algorithm()).isEqualTo(Algorithm.NVLS);
        C04_NVLS.check(nvls.busbw());
        C04_NVLS.check(allReduce(f, GIB, null).busbw());
    }

    @Test
    void c05TwoNodesDefaultAlgorithmExceedsWhatTheNicsCarry() {
        Fabric f = cluster(2, 8, LinkSpeed.NDR);
        CollectiveModel.Estimate e = allReduce(f, 8 * GIB, null);
        C05.check(e.busbw());
        assertThat(e.algorithm()).isIn(Algorithm.NVLS_TREE, Algorithm.TREE);
        assertThat(e.busbw()).isGreaterThan(8 * 48);
        assertThat(allReduce(f, 8 * GIB, RING).busbw()).isLessThan(8 * 48);
    }

    @Test
    void c06FarNumaNicOrGpuDirectOffFallBelowTheHealthyRingAndSayWhy() {
        double healthy = allReduce(cluster(4, 8, LinkSpeed.NDR), 8 * GIB, RING).busbw();

        Fabric far = cluster(4, 8, LinkSpeed.NDR);
        for (Node ca : far.cas()) {
            if (ca.description().startsWith("node002 ")) {
                ca.setHostFacts(ca.hostFacts().withGpus(true, true, 8, 450, true, 1));
            }
        }
        CollectiveModel.Estimate f = allReduce(far, 8 * GIB, RING);
        assertThat(f.busbw()).isLessThan(healthy * 0.5);
        assertThat(f.limit()).isEqualTo(CollectiveModel.Limit.INTER_SOCKET);
        assertThat(f.why()).contains("inter-socket link of node002").contains("NUMA node 1");

        Fabric off = cluster(4, 8, LinkSpeed.NDR);
        for (Node ca : off.cas()) {
            ca.setHostFacts(ca.hostFacts().withGpus(true, false, 8, 450, true, 0));
        }
        CollectiveModel.Estimate o = allReduce(off, 8 * GIB, RING);
        assertThat(o.busbw()).isLessThan(healthy * 0.7);
        assertThat(o.limit()).isEqualTo(CollectiveModel.Limit.HOST_BOUNCE);
        assertThat(o.why()).contains("GPUDirect RDMA off").contains("twice");
    }
}
