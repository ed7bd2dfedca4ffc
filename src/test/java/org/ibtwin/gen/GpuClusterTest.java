package org.ibtwin.gen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.ibtwin.model.Fabric;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.Node;
import org.ibtwin.model.Port;
import org.junit.jupiter.api.Test;

/** GPU clusters: the rail-optimised trees the DGX SuperPOD reference architecture tabulates, and classic trees. */
class GpuClusterTest {
    private static Fabric rail(int nodes) {
        return GpuCluster.build(new GpuCluster.Spec(nodes, 8, 8, 64, LinkSpeed.NDR, true, "node%03d"));
    }

    private static long count(Fabric f, String prefix) {
        return f.switches().stream().filter(n -> n.description().matches(prefix)).count();
    }

    /** The SuperPOD's switch counts per scalable units (leaf, spine, core): 2: 16/8/-, 4: 32/16/-, 16: 128/128/64. */
    @Test
    void switchCountsFollowTheSuperPodTable() {
        Fabric two = rail(64);
        assertThat(count(two, "su\\d+-rail\\d")).isEqualTo(16);
        assertThat(count(two, "spine\\d+")).isEqualTo(8);
        Fabric four = rail(128);
        assertThat(count(four, "su\\d+-rail\\d")).isEqualTo(32);
        assertThat(count(four, "spine\\d+")).isEqualTo(16);
        Fabric sixteen = rail(512);
        assertThat(count(sixteen, "su\\d+-rail\\d")).isEqualTo(128);
        assertThat(count(sixteen, "rail\\d-spine\\d+")).isEqualTo(128);
        assertThat(count(sixteen, "core\\d+")).isEqualTo(64);
        assertThat(sixteen.cas()).hasSize(4096);
        // node-leaf, leaf-spine and spine-core cables: 4096 each
        assertThat(sixteen.links()).hasSize(3 * 4096);
        assertThat(sixteen.links().stream().allMatch(l -> l.isUp())).isTrue();
    }

    @Test
    void nicROfEveryNodeOfAUnitSitsOnTheUnitsLeafOfRailR() {
        Fabric f = rail(64);
        for (Node ca : f.cas()) {
            String[] w = ca.description().split(" ");
            int node = Integer.parseInt(w[0].substring(4));
            int nic = Integer.parseInt(w[1].substring(5));
            Port leafPort = ca.port(1).remote();
            assertThat(leafPort.node().description())
                    .isEqualTo(String.format("su%02d-rail%d", (node - 1) / 32 + 1, nic + 1));
            assertThat(leafPort.number()).isEqualTo((node - 1) % 32 + 1);
            assertThat(ca.hostFacts().gpu()).isTrue();
            assertThat(ca.hostFacts().gpuDirect()).isTrue();
            assertThat(ca.hostFacts().nvlinkGBps()).isEqualTo(450);
        }
    }

    @Test
    void classicTreesPutANodesNicsSideBySide() {
        Fabric f = GpuCluster.build(new GpuCluster.Spec(10, 4, 2, 40, LinkSpeed.HDR, false, "gpu%02d"));
        assertThat(f.cas()).hasSize(20);
        Node a = f.cas().get(0);
        Node b = f.cas().get(1);
        assertThat(a.description()).isEqualTo("gpu01 mlx5_0");
        assertThat(b.description()).isEqualTo("gpu01 mlx5_1");
        assertThat(a.port(1).remote().node()).isSameAs(b.port(1).remote().node());
        assertThat(a.hostFacts().gpus()).isEqualTo(4);
        assertThat(a.hostFacts().nvlinkGBps()).isEqualTo(300);
        assertThat(a.hostFacts().nvls()).isFalse();
    }

    @Test
    void badSpecsNameTheField() {
        assertThatThrownBy(() -> new GpuCluster.Spec(4, 6, 6, 64, LinkSpeed.NDR, true, "n%03d"))
                .hasMessageContaining("gpus must be 4 or 8");
        assertThatThrownBy(() -> new GpuCluster.Spec(4, 8, 3, 64, LinkSpeed.NDR, true, "n%03d"))
                .hasMessageContaining("nics must divide");
        assertThatThrownBy(() -> new GpuCluster.Spec(1025, 8, 8, 64, LinkSpeed.NDR, true, "n%03d"))
                .hasMessageContaining("at most 1024");
    }
}
