package org.ibtwin.gen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Link;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.Node;
import org.ibtwin.model.Port;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

class DirectTest {
    private static Port peer(Fabric f, String sw, int port) {
        return f.switches().stream().filter(n -> n.description().equals(sw)).findFirst().orElseThrow().port(port)
                .remote();
    }

    private static String at(Port p) {
        return p.node().description() + "/" + p.number();
    }

    @Test
    void torusPortsFollowTheDimensions() {
        Fabric f = Direct.torus(new int[] {4, 3, 2}, true, 2, 0, LinkSpeed.HDR);
        assertThat(f.switches()).hasSize(24);
        assertThat(f.cas()).hasSize(48);
        assertThat(at(peer(f, "sw-0-0-0", 1))).isEqualTo("sw-1-0-0/2");   // x+
        assertThat(at(peer(f, "sw-0-0-0", 2))).isEqualTo("sw-3-0-0/1");   // x- wraps
        assertThat(at(peer(f, "sw-0-0-0", 3))).isEqualTo("sw-0-1-0/4");   // y+
        assertThat(at(peer(f, "sw-0-2-0", 3))).isEqualTo("sw-0-0-0/4");   // y+ wraps
        assertThat(at(peer(f, "sw-0-0-0", 5))).isEqualTo("sw-0-0-1/6");   // z+: a ring of 2 is cabled twice
        assertThat(at(peer(f, "sw-0-0-0", 6))).isEqualTo("sw-0-0-1/5");
        assertThat(peer(f, "sw-0-0-0", 7).node().description()).isEqualTo("node001 mlx5_0");
        assertThat(peer(f, "sw-0-0-0", 8).node().description()).isEqualTo("node002 mlx5_0");
        Fabric mesh = Direct.torus(new int[] {4, 3}, false, 1, 0, LinkSpeed.HDR);
        assertThat(peer(mesh, "sw-0-0", 2)).isNull();
        assertThat(mesh.links()).hasSize(3 * 3 + 4 * 2 + 12);
    }

    @Test
    void hypercubeAndHyperx() {
        Fabric h = Direct.hypercube(4, 1, 0, LinkSpeed.HDR);
        assertThat(h.links()).hasSize(16 * 4 / 2 + 16);
        assertThat(at(peer(h, "hc-0000", 3))).isEqualTo("hc-0100/3");
        Fabric x = Direct.hyperx(new int[] {4, 3}, 1, 0, LinkSpeed.HDR);
        // every switch joins 3 along x and 2 along y
        assertThat(x.links()).hasSize(12 * 5 / 2 + 12);
        assertThat(at(peer(x, "hx-0-0", 1))).isEqualTo("hx-1-0/1");
        assertThat(at(peer(x, "hx-2-0", 1))).isEqualTo("hx-0-0/2");
        assertThat(at(peer(x, "hx-0-0", 4))).isEqualTo("hx-0-1/4");
    }

    @ParameterizedTest
    @EnumSource(Direct.Arrangement.class)
    void canonicalDragonflyJoinsEveryPairOfGroupsOnce(Direct.Arrangement a) {
        Fabric f = Direct.dragonfly(9, 4, 2, 2, a, 0, LinkSpeed.HDR);
        Set<String> pairs = new HashSet<>();
        int global = 0;
        for (Link l : f.links()) {
            Node x = l.a().node();
            Node y = l.b().node();
            if (x.isSwitch() && y.isSwitch()) {
                String gx = x.description().substring(0, 3);
                String gy = y.description().substring(0, 3);
                if (!gx.equals(gy)) {
                    global++;
                    assertThat(pairs.add(gx.compareTo(gy) < 0 ? gx + gy : gy + gx)).as(l.toString()).isTrue();
                    assertThat(l.a().number()).isBetween(4, 5);
                    assertThat(l.b().number()).isBetween(4, 5);
                }
            }
        }
        assertThat(global).isEqualTo(9 * 8 / 2);
        assertThat(pairs).hasSize(36);
    }

    @Test
    void badShapesAreRefused() {
        assertThatThrownBy(() -> Direct.torus(new int[] {4, 4, 4, 4}, true, 1, 0, LinkSpeed.HDR))
                .hasMessageContaining("1 to 3 dimensions");
        assertThatThrownBy(() -> Direct.torus(new int[] {4, 4}, true, 40, 0, LinkSpeed.HDR))
                .hasMessageContaining("needs 44 ports a switch, more than radix 40");
        assertThatThrownBy(() -> Direct.dragonfly(20, 4, 2, 2, Direct.Arrangement.CONSECUTIVE, 0, LinkSpeed.HDR))
                .hasMessageContaining("at most 9 groups");
    }

    @Test
    void variantsPullAndAddLinksKeepingTheFabricWhole() {
        Fabric f = FatTree.build(FatTreeSpec.of(2, 16, 64));
        int before = f.links().size();
        Variants.removeLinks(f, 5, 3);
        assertThat(f.links()).hasSize(before - 5);
        assertThat(Variants.switchesConnected(f)).isTrue();
        Fabric g = Direct.torus(new int[] {4, 4}, true, 1, 0, LinkSpeed.HDR);
        Variants.addLinks(g, 4, 1);
        assertThat(g.links()).hasSize(32 + 16 + 4);
        assertThatThrownBy(() -> Variants.failSwitch(g, "nope")).hasMessageContaining("no switch named 'nope'");
        Fabric d = Variants.dualRail(FatTreeSpec.of(2, 16, 32));
        assertThat(d.cas()).hasSize(64);
        assertThat(d.cas().get(0).description()).isEqualTo("node001 mlx5_0");
        assertThat(d.cas().get(32).description()).isEqualTo("node001 mlx5_1");
        assertThat(d.cas().get(0).port(1).remote().node()).isNotEqualTo(d.cas().get(32).port(1).remote().node());
    }
}
