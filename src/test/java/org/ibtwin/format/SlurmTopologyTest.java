package org.ibtwin.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Link;
import org.ibtwin.model.Node;
import org.junit.jupiter.api.Test;

/**
 * Slurm's topology from a fabric: every host under the leaf its HCA is cabled to, every switch over the switches
 * one level down it is cabled to, on the built-in fabric, a generated 3-level tree and a fabric of real high-OUI
 * GUIDs whose switches share one description; hostlists as Slurm reads them; BlockSizes by topology/block's rules.
 */
class SlurmTopologyTest {
    /** Host name to the name of the switch its port 1 is cabled to, straight from the model. */
    static Map<String, String> cabling(Fabric f, Map<Node, String> switchName) {
        Map<String, String> m = new TreeMap<>();
        for (Node ca : f.cas()) {
            Link l = ca.port(1).link();
            if (l != null) {
                m.put(ca.description().strip().split(" ")[0], switchName.get(l.other(ca.port(1)).node()));
            }
        }
        return m;
    }

    /** Leaf name to its hosts, from the written topology.conf (hostlists expanded). */
    static Map<String, Set<String>> leaves(String conf) {
        Map<String, Set<String>> m = new TreeMap<>();
        for (String line : conf.split("\n")) {
            if (line.startsWith("SwitchName=") && line.contains(" Nodes=")) {
                String name = line.substring("SwitchName=".length(), line.indexOf(' '));
                String list = line.substring(line.indexOf(" Nodes=") + 7);
                m.put(name, new TreeSet<>(NamePattern.parse(list).expand()));
            }
        }
        return m;
    }

    static Map<String, String> hostToLeaf(Map<String, Set<String>> leaves) {
        Map<String, String> m = new TreeMap<>();
        leaves.forEach((leaf, hosts) -> hosts.forEach(h -> assertThat(m.put(h, leaf)).as(h + " once").isNull()));
        return m;
    }

    static Map<Node, String> byDescription(Fabric f) {
        Map<Node, String> m = new HashMap<>();
        f.switches().forEach(s -> m.put(s, s.description().strip()));
        return m;
    }

    static SlurmTopology topo(Fabric f) {
        List<String> warnings = new ArrayList<>();
        SlurmTopology t = SlurmTopology.of(f, NodeNameMap.empty(), h -> true, warnings::add);
        assertThat(warnings).isEmpty();
        return t;
    }

    @Test
    void theBuiltInFabricsHostsGroupByLeafAsCabled() {
        Fabric f = FabricFiles.loadDefault();
        String conf = topo(f).treeConf(null);
        assertThat(hostToLeaf(leaves(conf))).isEqualTo(cabling(f, byDescription(f)));
        assertThat(conf).contains("SwitchName=leaf01 Nodes=node[001-020]\n")
                .contains("SwitchName=spine01 Switches=leaf[01-03]\n");
    }

    @Test
    void aGeneratedThreeLevelTreeGroupsByLeafAndEachLevelListsTheOneBelow() {
        Fabric f = FatTree.build(FatTreeSpec.of(3, 8, 64));
        SlurmTopology t = topo(f);
        String conf = t.treeConf(null);
        assertThat(hostToLeaf(leaves(conf))).isEqualTo(cabling(f, byDescription(f)));
        Map<String, Integer> level = new HashMap<>();
        t.switches().forEach(s -> level.put(s.name(), s.level()));
        assertThat(new TreeSet<>(level.values())).containsExactly(1, 2, 3);
        for (SlurmTopology.Switch s : t.switches()) {
            if (s.level() == 1) {
                continue;
            }
            Node n = f.switches().stream().filter(x -> x.description().strip().equals(s.name())).findFirst()
                    .orElseThrow();
            Set<String> cabledBelow = new TreeSet<>();
            for (int p = 1; p <= n.numPorts(); p++) {
                Link l = n.port(p).link();
                if (l != null) {
                    String peer = l.other(n.port(p)).node().description().strip();
                    if (level.getOrDefault(peer, 0) == s.level() - 1) {
                        cabledBelow.add(peer);
                    }
                }
            }
            assertThat(new TreeSet<>(s.children())).as(s.name()).isEqualTo(cabledBelow).isNotEmpty();
        }
        // blocks: one per leaf, a pod's leaves together, sizes by topology/block's rules
        assertThat(t.blocks()).hasSize(16);
        assertThat(t.blocks().subList(0, 4)).extracting(SlurmTopology.Switch::name)
                .allMatch(n -> n.startsWith("pod01-"));
        assertThat(t.blockSizes()).containsExactly(4, 8, 16, 32, 64);
        assertThat(t.blockConf(null)).endsWith("BlockSizes=4,8,16,32,64\n")
                .contains("BlockName=pod01-leaf01 Nodes=node[001-004]\n");
    }

    @Test
    void realHighOuiGuidsNameSwitchesThatShareADescriptionByGuid() {
        Fabric f = HighOuiFabric.build();
        Map<Node, String> names = new HashMap<>();
        f.switches().forEach(s -> names.put(s, String.format("S-%016x", s.guid())));
        SlurmTopology t = topo(f);
        String conf = t.treeConf(null);
        assertThat(hostToLeaf(leaves(conf))).isEqualTo(cabling(f, names)).hasSize(8);
        assertThat(conf).contains("SwitchName=S-ec0d9a0300ec8480 Nodes=host[01-02]\n")
                .contains("SwitchName=S-ec0d9a0300ec8500 Switches=S-506b4b0300c0ff00,S-98039b03009fe1a0,"
                        + "S-b8599f0300a1b2c0,S-ec0d9a0300ec8480\n");
        assertThat(t.blockSizes()).containsExactly(2, 4, 8);
    }

    @Test
    void leftOutHostsLeaveOutTheSwitchesThatServeNoOtherAndBlockSizesFollowTheSmallestBlock() {
        Fabric f = FatTree.build(FatTreeSpec.of(3, 8, 64));
        NamePattern storage = NamePattern.parse("node06*");
        SlurmTopology t = SlurmTopology.of(f, NodeNameMap.empty(), h -> !storage.matches(h), w -> { });
        Set<String> all = new HashSet<>();
        t.blocks().forEach(b -> all.addAll(b.hosts()));
        assertThat(all).hasSize(59).doesNotContain("node060", "node064").contains("node059");
        assertThat(t.switches()).extracting(SlurmTopology.Switch::name).doesNotContain("pod04-leaf04");
        assertThat(t.blockSizes()).containsExactly(3, 6, 12, 24);   // 15 blocks: up to 8 of them
        for (int size : t.blockSizes()) {
            int k = size / t.blockSizes().getFirst();
            assertThat(size % t.blockSizes().getFirst()).isZero();
            assertThat(Integer.bitCount(k)).isOne();
        }
        t.blocks().forEach(b -> assertThat(b.hosts().size()).isGreaterThanOrEqualTo(t.blockSizes().getFirst()));
        assertThatThrownBy(() -> SlurmTopology.of(f, NodeNameMap.empty(), h -> false, w -> { }))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no host left");
    }

    @Test
    void aNodeNameMapNamesTheHosts() {
        Fabric f = HighOuiFabric.build();
        NodeNameMap map = NodeNameMap.parse(String.format("0x%016x \"gpu-a17 mlx5_0\"%n", HighOuiFabric.CA_GUIDS[0]),
                "map");
        SlurmTopology t = SlurmTopology.of(f, map, h -> true, w -> { });
        assertThat(t.treeConf(null)).contains("SwitchName=S-ec0d9a0300ec8480 Nodes=gpu-a17,host02\n");
    }

    @Test
    void hostlistsAreWhatSlurmsParserReads() {
        assertThat(SlurmTopology.hostlist(List.of("node001", "node002", "node003", "node005")))
                .isEqualTo("node[001-003,005]");
        assertThat(SlurmTopology.hostlist(List.of("n8", "n9", "n10", "n11"))).isEqualTo("n[8-11]");
        assertThat(SlurmTopology.hostlist(List.of("io01-ib", "node1"))).isEqualTo("node1,io01-ib");
        assertThat(NamePattern.parse(SlurmTopology.hostlist(List.of("n8", "n9", "n10", "n099"))).expand())
                .containsExactlyInAnyOrder("n8", "n9", "n10", "n099");
    }

    @Test
    void theYamlHoldsTheTreeAsTheDefaultAndTheBlocks() throws Exception {
        String y = topo(FabricFiles.loadDefault()).yaml(null, "ib");
        assertThat(y).contains("- topology: ib-tree\n  cluster_default: true\n  tree:\n    switches:\n"
                + "      - switch: leaf01\n        nodes: node[001-020]\n")
                .contains("      - switch: spine01\n        children: leaf[01-03]\n")
                .contains("- topology: ib-block\n  cluster_default: false\n  block:\n    block_sizes: [20, 40]\n"
                        + "    blocks:\n      - block: leaf01\n        nodes: node[001-020]\n");
        // it is YAML: a YAML parser reads it back as two topologies
        var tree = new com.fasterxml.jackson.databind.ObjectMapper(
                new com.fasterxml.jackson.dataformat.yaml.YAMLFactory()).readTree(y);
        assertThat(tree.size()).isEqualTo(2);
        assertThat(tree.get(1).path("block").path("block_sizes").get(1).asInt()).isEqualTo(40);
    }
}
