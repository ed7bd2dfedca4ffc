package org.ibtwin.gen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.ibtwin.model.CableKind;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Link;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.LinkWidth;
import org.ibtwin.model.Node;
import org.ibtwin.model.PcieGen;
import org.junit.jupiter.api.Test;

class ShapesTest {

    @Test
    void backToBack() {
        Fabric f = Shapes.backToBack(LinkSpeed.NDR);
        assertThat(f.switches()).isEmpty();
        assertThat(f.cas()).extracting(Node::description).containsExactly("node001 mlx5_0", "node002 mlx5_0");
        assertThat(f.links()).hasSize(1);
        Link l = f.links().get(0);
        assertThat(l.isUp()).isTrue();
        assertThat(l.activeSpeed()).isEqualTo(LinkSpeed.NDR);
        assertThat(l.activeWidth()).isEqualTo(LinkWidth.X4);
        assertThat(l.cable().kind()).isEqualTo(CableKind.PASSIVE_COPPER);
        assertThat(f.cas()).allSatisfy(ca -> assertThat(ca.hostFacts().pcieGen()).isEqualTo(PcieGen.GEN5));
        assertThat(f.cas().get(0).port(1).remote()).isSameAs(f.cas().get(1).port(1));
    }

    @Test
    void singleSwitch() {
        Fabric f = Shapes.singleSwitch(5, 36, LinkSpeed.EDR);
        assertThat(f.switches()).hasSize(1);
        Node sw = f.switches().get(0);
        assertThat(sw.description()).isEqualTo("switch01");
        assertThat(sw.numPorts()).isEqualTo(36);
        assertThat(f.cas()).hasSize(5);
        assertThat(f.links()).hasSize(5).allSatisfy(l -> {
            assertThat(l.isUp()).isTrue();
            assertThat(l.activeSpeed()).isEqualTo(LinkSpeed.EDR);
        });
        for (int i = 1; i <= 5; i++) {
            assertThat(sw.port(i).remote().node().description()).isEqualTo(String.format("node%03d mlx5_0", i));
        }
        assertThat(sw.port(6).link()).isNull();
    }

    @Test
    void singleSwitchChecksItsArguments() {
        assertThatThrownBy(() -> Shapes.singleSwitch(0, 8, LinkSpeed.HDR)).hasMessageStartingWith("hosts");
        assertThatThrownBy(() -> Shapes.singleSwitch(9, 8, LinkSpeed.HDR)).hasMessageStartingWith("hosts");
        assertThatThrownBy(() -> Shapes.singleSwitch(1, 255, LinkSpeed.HDR)).hasMessageStartingWith("radix");
        assertThatThrownBy(() -> Shapes.singleSwitch(1, 8, null)).hasMessageStartingWith("speed");
        assertThatThrownBy(() -> Shapes.backToBack(LinkSpeed.XDR)).hasMessageStartingWith("speed");
    }
}
