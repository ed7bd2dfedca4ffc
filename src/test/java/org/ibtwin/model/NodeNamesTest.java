package org.ibtwin.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeNamesTest {

    @Test
    void aNameIsTheHostNameToldApartByDescriptionThenGuidWhereShared() {
        Fabric f = new Fabric();
        Node sw1 = switchNode(f, 0xec0d9a0300ec8480L, "SwitchIB Mellanox Technologies");
        Node sw2 = switchNode(f, 0xec0d9a0300ec8500L, "SwitchIB Mellanox Technologies");
        Node leaf = switchNode(f, 0x0002c90300000100L, "leaf01");
        Node a = ca(f, 0xb8599f0300a1b2c2L, "node001 mlx5_0");
        Node b = ca(f, 0xb8599f0300a1b2d2L, "node001 mlx5_1");
        Node c = ca(f, 0x98039b03009fe1b0L, "node002 mlx5_0");
        Node blank = ca(f, 0x98039b03009fe1c0L, "");
        Map<Node, String> n = NodeNames.of(f);
        assertThat(n.get(sw1)).isEqualTo("SwitchIB Mellanox Technologies (0xec0d9a0300ec8480)");
        assertThat(n.get(sw2)).isEqualTo("SwitchIB Mellanox Technologies (0xec0d9a0300ec8500)");
        assertThat(n.get(leaf)).isEqualTo("leaf01");
        assertThat(n.get(a)).isEqualTo("node001 mlx5_0");
        assertThat(n.get(b)).isEqualTo("node001 mlx5_1");
        assertThat(n.get(c)).isEqualTo("node002");
        assertThat(n.get(blank)).isEqualTo("H-98039b03009fe1c0");
        assertThat(NodeNames.hostName(NodeType.CA, "  node017 mlx5_0 ", "x")).isEqualTo("node017");
        assertThat(NodeNames.hostName(NodeType.SWITCH, "Quantum Mellanox Technologies", "x"))
                .isEqualTo("Quantum Mellanox Technologies");
    }

    @Test
    void twoNodesWithTheSameHostAndDescriptionAreToldApartByGuid() {
        Fabric f = new Fabric();
        Node a = ca(f, 0xec0d9a0300000010L, "node001 HCA-1");
        Node b = ca(f, 0xec0d9a0300000020L, "node001 HCA-1");
        Map<Node, String> n = NodeNames.of(f);
        assertThat(n.get(a)).isEqualTo("node001 HCA-1 (0xec0d9a0300000010)");
        assertThat(n.get(b)).isEqualTo("node001 HCA-1 (0xec0d9a0300000020)");
    }

    private static Node switchNode(Fabric f, long guid, String desc) {
        Node n = new Node(NodeType.SWITCH, guid, String.format("S-%016x", guid), 8);
        n.setDescription(desc);
        return f.add(n);
    }

    private static Node ca(Fabric f, long guid, String desc) {
        Node n = new Node(NodeType.CA, guid, String.format("H-%016x", guid), 1);
        n.setDescription(desc);
        return f.add(n);
    }
}
