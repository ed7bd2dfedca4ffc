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

    @Test
    void theDefaultFabricIsLeftToThePage() {
        FabricView v = FabricView.of("d", false, FabricState.of(FabricFiles.loadDefault(), "d", null), null, 1, null);
        Map<String, Object> g = MapGraph.of(v);
        assertThat(g.get("preset")).isEqualTo(false);
        assertThat(nodes(g)).allSatisfy(n -> assertThat(n).doesNotContainKey("position"));
    }
}
