package org.ibtwin.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.ibtwin.model.Cable;
import org.ibtwin.model.CableKind;
import org.ibtwin.model.DeviceCatalog;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.HostFacts;
import org.ibtwin.model.IpoibMode;
import org.ibtwin.model.Link;
import org.ibtwin.model.LinkLayer;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.LinkWidth;
import org.ibtwin.model.Node;
import org.ibtwin.model.NodeType;
import org.ibtwin.model.PcieGen;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FabricDescriptionTest {

    static final Path FAB = Path.of("fab.yaml");

    static final String EXAMPLE = """
            # ibtwin fabric description
            topology: cluster.topo        # optional: ibnetdiscover or ibsim net file, path relative to this file
            defaults:
              host:                        # applied to every CA
                pcie: gen4 x16             # generation and negotiated lanes
                max_payload: 256
                numa_node: 0               # the HCA's NUMA node
                numa_nodes: 2
                sockets: 2
                cores_per_numa: 32
                ipoib: connected           # or datagram
                ipoib_mtu: 65520
                driver: loaded             # or missing
                gpu: false
                gpudirect: false           # nvidia_peermem loaded
              cable:
                kind: passive-copper       # active-copper, active-optical, transceiver-fibre
                length: 2                  # metres
            hosts:                         # overrides, applied in order, matched against the host name
              - match: "node[001-064]"
                gpu: true
                gpudirect: true
              - match: node017
                pcie: gen3 x8
            ports:                         # per-port overrides: "<host or switch name>/<port>"
              - match: "node005/1"
                link_layer: ethernet
            cables:                        # per-link cables, by one end "<name>/<port>" (either end)
              - end: "leaf01/33"
                kind: active-optical
                length: 10
                max_speed: DDR             # highest speed it carries (a damaged or lower-rated cable)
                max_width: 4x
            """;

    /** A switch leaf01 with node001..node004 on its ports 1..4, all cables unrated, no host facts. */
    static Fabric smallFabric() {
        return fabric(4);
    }

    static Fabric fabric(int hosts) {
        Fabric f = new Fabric();
        Node leaf = f.add(new Node(NodeType.SWITCH, 0x0002c90300001000L, "S-leaf01", 40));
        leaf.setDescription("leaf01");
        DeviceCatalog.apply(leaf, DeviceCatalog.QUANTUM);
        for (int i = 1; i <= hosts; i++) {
            String host = String.format("node%03d", i);
            Node ca = f.add(new Node(NodeType.CA, 0x0002c90300100000L + 16L * i, "H-" + host, 1));
            ca.setDescription(host + " mlx5_0");
            DeviceCatalog.apply(ca, DeviceCatalog.CONNECTX6);
            f.connect(leaf.port(i), ca.port(1), Cable.UNRATED);
        }
        return f;
    }

    static Node host(Fabric f, String name) {
        return f.byName("H-" + name);
    }

    static FormatException error(String yaml) {
        try {
            FabricDescription.parse(yaml, FAB).applyTo(smallFabric());
        } catch (FormatException e) {
            return e;
        }
        throw new AssertionError("no error for:\n" + yaml);
    }

    static void assertError(String yaml, String message) {
        assertThat(error(yaml).getMessage()).isEqualTo(message);
    }

    // ------------------------------------------------------------------------------------------------ reading

    @Test
    void readsTheExample(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("fab.yaml");
        Files.writeString(file, EXAMPLE);
        FabricDescription d = FabricDescription.read(file);
        assertThat(d.topology()).isEqualTo("cluster.topo");
        assertThat(d.topologyPath()).isEqualTo(dir.resolve("cluster.topo"));
        assertThat(d.hostDefaults()).isEqualTo(HostFacts.DEFAULT);
        assertThat(d.defaultCable()).isEqualTo(new Cable(CableKind.PASSIVE_COPPER, 2, LinkSpeed.XDR, LinkWidth.X12));
        assertThat(d.file()).isEqualTo(file.toString());
    }

    @Test
    void topologyIsOptional() {
        FabricDescription d = FabricDescription.parse("hosts: []\n", FAB);
        assertThat(d.topologyPath()).isNull();
        assertThat(d.defaultCable()).isNull();
    }

    @Test
    void hostNameIsTheFirstWordForCasAndTheWholeDescriptionForSwitches() {
        Fabric f = smallFabric();
        assertThat(FabricDescription.hostName(host(f, "node003"))).isEqualTo("node003");
        Node leaf = f.byName("S-leaf01");
        assertThat(FabricDescription.hostName(leaf)).isEqualTo("leaf01");
        leaf.setDescription("MF0;leaf01:MQM8700/U1");
        assertThat(FabricDescription.hostName(leaf)).isEqualTo("MF0;leaf01:MQM8700/U1");
        leaf.setDescription("  ");
        assertThat(FabricDescription.hostName(leaf)).isEqualTo("S-leaf01");
    }

    // ------------------------------------------------------------------------------------------------ applying

    @Test
    void appliesDefaultsThenOverridesInOrder() {
        String yaml = EXAMPLE.replace("node017", "node003").replace("node005/1", "node004/1")
                .replace("leaf01/33", "leaf01/2");
        Fabric f = smallFabric();
        FabricDescription.parse(yaml, FAB).applyTo(f);

        HostFacts gpuHost = new HostFacts(PcieGen.GEN4, 16, 256, 0, 2, 2, 32, IpoibMode.CONNECTED, 65520, true,
                true, true);
        assertThat(host(f, "node001").hostFacts()).isEqualTo(gpuHost);
        assertThat(host(f, "node003").hostFacts()).isEqualTo(gpuHost.withPcie(PcieGen.GEN3, 8));

        Link l1 = f.byName("S-leaf01").port(1).link();
        assertThat(l1.cable()).isEqualTo(new Cable(CableKind.PASSIVE_COPPER, 2, LinkSpeed.XDR, LinkWidth.X12));
        assertThat(l1.activeSpeed()).isEqualTo(LinkSpeed.HDR);

        Link l2 = host(f, "node002").port(1).link();
        assertThat(l2.cable()).isEqualTo(new Cable(CableKind.ACTIVE_OPTICAL, 10, LinkSpeed.DDR, LinkWidth.X4));
        assertThat(l2.activeSpeed()).isEqualTo(LinkSpeed.DDR);
        assertThat(l2.activeWidth()).isEqualTo(LinkWidth.X4);

        assertThat(host(f, "node004").port(1).linkLayer()).isEqualTo(LinkLayer.ETHERNET);
        assertThat(host(f, "node004").port(1).link().isUp()).isFalse();
    }

    @Test
    void cablesMatchEitherEndAndSwitchesByTopologyNameOrFullDescription() {
        Fabric f = smallFabric();
        f.byName("S-leaf01").setDescription("MF0;leaf01:MQM8700/U1");
        FabricDescription.parse("""
                cables:
                  - end: node001/1
                    length: 3
                  - end: S-leaf01/[2-3]
                    max_width: 1x
                  - end: MF0;leaf01:MQM8700/U1/4
                    kind: aoc
                """, FAB).applyTo(f);
        assertThat(host(f, "node001").port(1).link().cable().lengthMetres()).isEqualTo(3);
        assertThat(host(f, "node002").port(1).link().activeWidth()).isEqualTo(LinkWidth.X1);
        assertThat(host(f, "node003").port(1).link().cable().maxWidth()).isEqualTo(LinkWidth.X1);
        assertThat(host(f, "node004").port(1).link().cable().kind()).isEqualTo(CableKind.ACTIVE_OPTICAL);
        // no defaults.cable: the rest of each cable is the link's own
        assertThat(host(f, "node004").port(1).link().cable().maxSpeed()).isEqualTo(LinkSpeed.XDR);
    }

    @Test
    void emptyDescriptionGivesEveryCaTheBuiltInFacts() {
        Fabric f = smallFabric();
        FabricDescription.parse("", FAB).applyTo(f);
        assertThat(f.cas()).allSatisfy(ca -> assertThat(ca.hostFacts()).isEqualTo(HostFacts.DEFAULT));
        assertThat(f.links()).allSatisfy(l -> assertThat(l.cable()).isEqualTo(Cable.UNRATED));
    }

    @Test
    void failedApplyChangesNothing() {
        Fabric f = smallFabric();
        FabricDescription d = FabricDescription.parse("""
                defaults:
                  cable:
                    kind: dac
                hosts:
                  - match: node001
                    gpu: true
                  - match: node099
                    gpu: true
                """, FAB);
        assertThatThrownBy(() -> d.applyTo(f)).isInstanceOf(FormatException.class);
        assertThat(f.cas()).allSatisfy(ca -> assertThat(ca.hostFacts()).isNull());
        assertThat(f.links()).allSatisfy(l -> assertThat(l.cable()).isEqualTo(Cable.UNRATED));
    }

    // ------------------------------------------------------------------------------------------------ errors

    @Test
    void badPcieLink() {
        assertError("""
                hosts:
                  - match: node001
                    gpu: true
                  - match: node002
                    pcie: gen9 x16
                """, "fab.yaml:5: hosts[1].pcie: \"gen9 x16\" is not a PCIe link (expected like \"gen4 x16\")");
        assertError("""
                defaults:
                  host:
                    pcie: gen4 x3
                """, "fab.yaml:3: defaults.host.pcie: \"gen4 x3\" has 3 lanes (expected x1, x2, x4, x8 or x16)");
    }

    @Test
    void badIpoibMode() {
        assertError("""
                defaults:
                  host:
                    ipoib: tunnel
                """, "fab.yaml:3: defaults.host.ipoib: \"tunnel\" is not an IPoIB mode (expected connected or"
                + " datagram)");
    }

    @Test
    void ipoibMtuOutOfRange() {
        assertError("""
                defaults:
                  host:
                    ipoib_mtu: 70000
                """, "fab.yaml:3: defaults.host.ipoib_mtu: 70000 is outside 256..65520");
    }

    @Test
    void ipoibMtuTooBigForDatagramIsBlamedOnTheKeyWrittenLast() {
        assertError("""
                hosts:
                  - match: node001
                    ipoib: datagram
                """, "fab.yaml:3: hosts[0].ipoib: datagram mode allows an ipoib_mtu of at most 4092, not 65520");
        assertError("""
                defaults:
                  host:
                    ipoib: datagram
                    ipoib_mtu: 4096
                """, "fab.yaml:4: defaults.host.ipoib_mtu: 4096 is above 4092, the most datagram mode allows");
    }

    @Test
    void numaNodeBeyondNumaNodes() {
        assertError("""
                defaults:
                  host:
                    numa_nodes: 2
                hosts:
                  - match: node001
                    numa_node: 3
                """, "fab.yaml:6: hosts[0].numa_node: 3 is outside 0..1 (numa_nodes is 2)");
    }

    @Test
    void contradictionsOnlyInCombinationAreReportedWhenApplied() {
        assertError("""
                hosts:
                  - match: node[001-002]
                    numa_node: 1
                  - match: node002
                    numa_nodes: 1
                """, "fab.yaml:5: hosts[1].numa_nodes: 1 leaves numa_node 1 outside 0 (host node002)");
    }

    @Test
    void badCableKind() {
        assertError("""
                cables:
                  - end: leaf01/1
                    kind: string
                """, "fab.yaml:3: cables[0].kind: \"string\" is not a cable kind (expected passive-copper,"
                + " active-copper, active-optical, transceiver-fibre or unknown)");
    }

    @Test
    void negativeCableLength() {
        assertError("""
                defaults:
                  cable:
                    kind: passive-copper
                    length: -1
                """, "fab.yaml:4: defaults.cable.length: -1 is not a cable length (expected metres, 0 or more)");
    }

    @Test
    void badMaxSpeedAndWidth() {
        assertError("""
                cables:
                  - end: leaf01/1
                    max_speed: XYZ
                """, "fab.yaml:3: cables[0].max_speed: \"XYZ\" is not a link speed (expected SDR, DDR, QDR, FDR10,"
                + " FDR, EDR, HDR, NDR or XDR)");
        assertError("""
                cables:
                  - end: leaf01/1
                    max_width: 3x
                """, "fab.yaml:3: cables[0].max_width: \"3x\" is not a link width (expected 1x, 2x, 4x, 8x or 12x)");
    }

    @Test
    void unknownKeysListTheAllowedOnes() {
        assertError("""
                hosts:
                  - match: node001
                    gpu_count: 4
                """, "fab.yaml:3: hosts[0]: unknown key \"gpu_count\" (allowed: match, pcie, max_payload,"
                + " numa_node, numa_nodes, sockets, cores_per_numa, ipoib, ipoib_mtu, driver, gpu, gpudirect, gpus,"
                + " nvlink, nvls, gpu_numa_node)");
        assertError("""
                topology: a.topo
                host:
                  pcie: gen4 x16
                """, "fab.yaml:2: unknown key \"host\" (allowed: topology, defaults, hosts, ports, cables)");
    }

    @Test
    void wrongTypes() {
        assertError("""
                defaults:
                  host:
                    gpu: "no"
                """, "fab.yaml:3: defaults.host.gpu: expected true or false, found \"no\"");
        assertError("""
                defaults:
                  host:
                    max_payload: big
                """, "fab.yaml:3: defaults.host.max_payload: expected a whole number, found \"big\"");
        assertError("""
                hosts:
                  match: node001
                """, "fab.yaml:1: hosts: expected a list, found a mapping");
        assertError("""
                hosts:
                  - node001
                """, "fab.yaml:2: hosts[0]: expected a mapping, found \"node001\"");
        assertError("""
                hosts:
                  - match: [node001]
                """, "fab.yaml:2: hosts[0].match: expected text, found a list (quote patterns that start with \"[\")");
        assertError("""
                defaults:
                  host:
                    sockets:
                """, "fab.yaml:3: defaults.host.sockets: missing value (expected a whole number)");
        assertError("""
                hosts:
                  - match:
                    gpu: true
                """, "fab.yaml:2: hosts[0].match: missing value (expected text)");
        assertError("- a\n- b\n", "fab.yaml:1: expected a mapping with keys topology, defaults, hosts, ports,"
                + " cables at the top, found a list");
    }

    @Test
    void badValues() {
        assertError("""
                defaults:
                  host:
                    max_payload: 300
                """, "fab.yaml:3: defaults.host.max_payload: 300 is not a PCIe max payload (expected 128, 256, 512,"
                + " 1024, 2048 or 4096)");
        assertError("""
                defaults:
                  host:
                    sockets: 0
                """, "fab.yaml:3: defaults.host.sockets: 0 is out of range (expected 1 or more)");
        assertError("""
                defaults:
                  host:
                    driver: unloaded
                """, "fab.yaml:3: defaults.host.driver: \"unloaded\" is not a driver state (expected loaded or"
                + " missing)");
        assertError("""
                ports:
                  - match: node001/1
                    link_layer: roce
                """, "fab.yaml:3: ports[0].link_layer: \"roce\" is not a link layer (expected infiniband or"
                + " ethernet)");
        assertError("""
                ports:
                  - match: node001
                    link_layer: ethernet
                """, "fab.yaml:2: ports[0].match: \"node001\" is not <name>/<port> (expected like \"node005/1\")");
    }

    @Test
    void missingAndDuplicateKeys() {
        assertError("""
                hosts:
                  - gpu: true
                """, "fab.yaml:2: hosts[0]: missing key \"match\"");
        assertError("""
                hosts:
                  - match: node001
                    gpu: true
                    gpu: false
                """, "fab.yaml:4: hosts[0]: duplicate key \"gpu\" (first at line 3)");
    }

    @Test
    void badPattern() {
        assertError("""
                hosts:
                  - match: "node[001-"
                    gpu: true
                """, "fab.yaml:2: hosts[0].match: bad name pattern \"node[001-\": \"[\" at column 5 is never closed");
        assertError("""
                hosts:
                  - match: "node[064-001]"
                    gpu: true
                """, "fab.yaml:2: hosts[0].match: bad name pattern \"node[064-001]\": range 064-001 is reversed");
    }

    @Test
    void matchesThatMatchNothingAreReportedWhenApplied() {
        FormatException e = error(EXAMPLE);
        assertThat(e.getMessage()).isEqualTo("fab.yaml:23: hosts[1].match: \"node017\" matches no host");
        assertThat(e.file()).isEqualTo("fab.yaml");
        assertThat(e.line()).isEqualTo(23);
        assertThat(e.message()).isEqualTo("hosts[1].match: \"node017\" matches no host");
        assertError("""
                ports:
                  - match: node001/2
                    link_layer: ethernet
                """, "fab.yaml:2: ports[0].match: \"node001/2\" matches no port");
        assertError("""
                cables:
                  - end: leaf01/33
                    length: 10
                """, "fab.yaml:2: cables[0].end: \"leaf01/33\" matches no cabled port");
    }

    @Test
    void malformedYaml() {
        assertError("""
                defaults:
                  host:
                    pcie: "gen4 x16
                    gpu: true
                """, "fab.yaml:5: not valid YAML: found unexpected end of stream (while scanning a quoted scalar)");
        assertError("defaults:\n\thost: {}\n", "fab.yaml:2: not valid YAML: found character '\\t(TAB)' that cannot"
                + " start any token. (Do not use \\t(TAB) for indentation) (while scanning for the next token)");
        assertError("topology: a\n---\ntopology: b\n",
                "fab.yaml:3: more than one YAML document (remove the \"---\")");
    }

    @Test
    void missingFile(@TempDir Path dir) {
        Path file = dir.resolve("nope.yaml");
        assertThatThrownBy(() -> FabricDescription.read(file))
                .isInstanceOf(FormatException.class)
                .hasMessage(file + ": no such file");
    }

    // ------------------------------------------------------------------------------------------------ writing

    @Test
    void writesCompactlyAndReadsBack() {
        Fabric f = fabric(6);
        HostFacts gpu = new HostFacts(PcieGen.GEN4, 16, 256, 0, 2, 2, 32, IpoibMode.CONNECTED, 65520, true, true,
                true);
        for (Node ca : f.cas()) {
            ca.setHostFacts(gpu);
        }
        host(f, "node003").setHostFacts(gpu.withPcie(PcieGen.GEN3, 8));
        host(f, "node005").setHostFacts(gpu.withIpoib(IpoibMode.DATAGRAM, 2044));
        host(f, "node006").setHostFacts(gpu.withIpoib(IpoibMode.DATAGRAM, 2044).withPcie(PcieGen.GEN3, 8));
        Cable dac = new Cable(CableKind.PASSIVE_COPPER, 2, LinkSpeed.XDR, LinkWidth.X12);
        for (Link l : f.links()) {
            l.setCable(dac);
        }
        host(f, "node002").port(1).link().setCable(new Cable(CableKind.ACTIVE_OPTICAL, 10, LinkSpeed.DDR,
                LinkWidth.X4));
        host(f, "node004").port(1).link().setCable(dac.withMaxWidth(LinkWidth.X1));
        host(f, "node006").port(1).link().setCable(dac.withMaxWidth(LinkWidth.X1));
        host(f, "node001").port(1).setLinkLayer(LinkLayer.ETHERNET);
        host(f, "node001").port(1).link().train();

        String yaml = FabricDescription.write(f, "cluster.topo");
        assertThat(yaml).isEqualTo("""
                # ibtwin fabric description
                topology: cluster.topo
                defaults:
                  host:
                    pcie: gen4 x16
                    max_payload: 256
                    numa_node: 0
                    numa_nodes: 2
                    sockets: 2
                    cores_per_numa: 32
                    ipoib: connected
                    ipoib_mtu: 65520
                    driver: loaded
                    gpu: true
                    gpudirect: true
                  cable:
                    kind: passive-copper
                    length: 2
                hosts:
                  - match: "node[003,006]"
                    pcie: gen3 x8
                  - match: "node[005-006]"
                    ipoib: datagram
                    ipoib_mtu: 2044
                ports:
                  - match: node001/1
                    link_layer: ethernet
                cables:
                  - end: leaf01/2
                    kind: active-optical
                    length: 10
                    max_speed: DDR
                    max_width: 4x
                  - end: "leaf01/[4,6]"
                    max_width: 1x
                """);
        assertRoundTrip(f, yaml);
    }

    @Test
    void writesAFabricWithoutFactsOrLinks() {
        Fabric f = new Fabric();
        assertThat(FabricDescription.write(f, null)).isEqualTo("# ibtwin fabric description\n");
        FabricDescription.parse(FabricDescription.write(f, null), FAB).applyTo(f);
    }

    @Property(tries = 60)
    void roundTripKeepsHostFactsAndCables(@ForAll("facts") List<HostFacts> facts,
                                          @ForAll("cables") List<Cable> cables) {
        Fabric f = fabric(facts.size());
        for (int i = 0; i < facts.size(); i++) {
            f.cas().get(i).setHostFacts(facts.get(i));
            f.links().get(i).setCable(cables.get(i % cables.size()));
        }
        assertRoundTrip(f, FabricDescription.write(f, "x.topo"));
    }

    static void assertRoundTrip(Fabric f, String yaml) {
        Fabric copy = fabric(f.cas().size());
        FabricDescription.parse(yaml, FAB).applyTo(copy);
        for (int i = 0; i < f.cas().size(); i++) {
            Node a = f.cas().get(i);
            Node b = copy.cas().get(i);
            assertThat(b.hostFacts()).as(a.name()).isEqualTo(a.hostFacts());
            assertThat(b.port(1).linkLayer()).as(a.name()).isEqualTo(a.port(1).linkLayer());
        }
        for (int i = 0; i < f.links().size(); i++) {
            Link a = f.links().get(i);
            Link b = copy.links().get(i);
            assertThat(b.cable()).as(a.toString()).isEqualTo(a.cable());
            assertThat(b.activeSpeed()).as(a.toString()).isEqualTo(a.activeSpeed());
            assertThat(b.activeWidth()).as(a.toString()).isEqualTo(a.activeWidth());
        }
    }

    @Provide
    Arbitrary<List<HostFacts>> facts() {
        HostFacts d = HostFacts.DEFAULT;
        Arbitrary<HostFacts> one = Arbitraries.of(d, d, d,
                d.withPcie(PcieGen.GEN3, 8),
                d.withIpoib(IpoibMode.DATAGRAM, 2044),
                d.withIpoib(IpoibMode.DATAGRAM, 4092).withPcie(PcieGen.GEN5, 16),
                new HostFacts(PcieGen.GEN4, 16, 512, 1, 2, 2, 32, IpoibMode.CONNECTED, 65520, true, true, true),
                new HostFacts(PcieGen.GEN4, 8, 256, 0, 1, 1, 64, IpoibMode.CONNECTED, 2044, false, false, false),
                new HostFacts(PcieGen.GEN3, 16, 128, 3, 2, 4, 16, IpoibMode.DATAGRAM, 2044, true, true, false),
                d.withGpus(true, true, 4, 300, false, 1),
                d.withGpus(true, false, 8, 0, false, 0));
        return one.list().ofMinSize(1).ofMaxSize(36);
    }

    @Provide
    Arbitrary<List<Cable>> cables() {
        Arbitrary<Cable> one = Arbitraries.of(Cable.UNRATED,
                new Cable(CableKind.PASSIVE_COPPER, 2, LinkSpeed.XDR, LinkWidth.X12),
                new Cable(CableKind.PASSIVE_COPPER, 1.5, LinkSpeed.XDR, LinkWidth.X12),
                new Cable(CableKind.ACTIVE_OPTICAL, 10, LinkSpeed.DDR, LinkWidth.X4),
                new Cable(CableKind.TRANSCEIVER_FIBRE, 30, LinkSpeed.HDR, LinkWidth.X1));
        return one.list().ofMinSize(1).ofMaxSize(8);
    }
}
