package org.ibtwin.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.ibtwin.doctor.FabricState;
import org.ibtwin.format.FabricFiles;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.junit.jupiter.api.Test;

/** The map's graph: a big fabric placed tier by tier on the server, a small one left to the page's layout. */
class MapGraphTest {
    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> nodes(Map<String, Object> g) {
        return (List<Map<String, Object>>) g.get("nodes");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> data(Map<String, Object> e) {
        return (Map<String, Object>) e.get("data");
    }

    @Test
    @SuppressWarnings("unchecked")
    void aBigFabricIsPlacedARowPerTierWithEachRackBelowItsLeaf() {
        FabricView v = FabricView.of("t", false, FabricState.of(FatTree.build(FatTreeSpec.of(2, 64, 1024)), "t",
                null), null, 1, null);
        Map<String, Object> g = MapGraph.of(v);
        assertThat(g.get("preset")).isEqualTo(true);
        Map<String, double[]> at = new HashMap<>();
        for (Map<String, Object> n : nodes(g)) {
            Map<String, Object> p = (Map<String, Object>) n.get("position");
            assertThat(p).as("position of %s", data(n).get("id")).isNotNull();
            at.put((String) data(n).get("id"), new double[] {((Number) p.get("x")).doubleValue(),
                    ((Number) p.get("y")).doubleValue()});
        }
        double spineY = Double.NaN;
        double leafY = Double.NaN;
        for (Map<String, Object> n : nodes(g)) {
            Map<String, Object> d = data(n);
            double[] p = at.get((String) d.get("id"));
            if ("spine".equals(d.get("tier"))) {
                spineY = p[1];
            } else if ("leaf".equals(d.get("tier"))) {
                leafY = p[1];
            } else if ("rack".equals(d.get("kind"))) {
                double[] leaf = at.get((String) d.get("leaf"));
                assertThat(p[0]).isEqualTo(leaf[0]);
                assertThat(p[1]).isGreaterThan(leaf[1]);
            }
        }
        assertThat(spineY).isLessThan(leafY);
        assertThat(nodes(g).stream().filter(n -> "rack".equals(data(n).get("kind")))).hasSize(32);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> edges(Map<String, Object> g) {
        return (List<Map<String, Object>>) g.get("edges");
    }

    private static int links(List<Map<String, Object>> edges) {
        int n = 0;
        for (Map<String, Object> e : edges) {
            Map<String, Object> d = data(e);
            n += "link".equals(d.get("kind")) ? ((Number) d.getOrDefault("count", 1)).intValue() : 0;
        }
        return n;
    }

    @Test
    @SuppressWarnings("unchecked")
    void aThreeLevelTreeOpensAsPodsAndAPodUnfoldsIntoItsSwitchesWithEveryLinkCountedOnce() {
        FabricView v = FabricView.of("t", false, FabricState.of(FatTree.build(FatTreeSpec.of(3, 8, 128)), "t",
                null), null, 1, null);
        long switchLinks = v.links().stream().filter(FabricView.LinkRow::switchLink).count();
        assertThat(MapPods.of(v, switchLinks, MapPods.ABOVE)).as("a small fabric is drawn switch by switch").isNull();
        MapPods pods = MapPods.of(v, switchLinks, 0);
        assertThat(pods).isNotNull();
        Map<String, Object> g = pods.overview();
        // 8 pods of 4 leaves and 4 spines over 16 cores: a node per pod and tier, one for its racks, the cores
        assertThat(g.get("pods")).isEqualTo(8);
        assertThat(nodes(g).stream().filter(n -> "pod".equals(data(n).get("kind")))).hasSize(8 * 3);
        assertThat(nodes(g).stream().filter(n -> "switch".equals(data(n).get("kind")))).isEmpty();
        assertThat(nodes(g).stream().filter(n -> "group".equals(data(n).get("kind")))).isNotEmpty();
        assertThat(links(edges(g))).isEqualTo((int) switchLinks);
        assertThat((Map<String, Object>) g.get("counts")).containsEntry("switches", 80).containsEntry("hosts", 128)
                .containsEntry("racks", 32).containsKey("health");
        // pod 1 unfolded: its 8 switches, 4 racks, its 16 links one by one, its 16 uplinks bundled per spine
        Map<String, Object> p = pods.pod(0);
        assertThat(nodes(p).stream().filter(n -> "switch".equals(data(n).get("kind")))).hasSize(8);
        assertThat(nodes(p).stream().filter(n -> "rack".equals(data(n).get("kind")))).hasSize(4);
        assertThat(edges(p).stream().filter(e -> data(e).get("count") == null && "link".equals(data(e).get("kind"))))
                .hasSize(16);
        assertThat(links(edges(p))).isEqualTo(32);
        assertThat(edges(p)).allSatisfy(e -> assertThat((String) data(e).get("target")).doesNotStartWith("P"));
        assertThat(pods.pod(8)).isNull();
    }

    @Test
    void theDefaultFabricIsLeftToThePage() {
        FabricView v = FabricView.of("d", false, FabricState.of(FabricFiles.loadDefault(), "d", null), null, 1, null);
        Map<String, Object> g = MapGraph.of(v);
        assertThat(g.get("preset")).isEqualTo(false);
        assertThat(nodes(g)).allSatisfy(n -> assertThat(n).doesNotContainKey("position"));
    }
}
