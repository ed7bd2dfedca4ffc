package org.ibtwin.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.gen.Shapes;
import org.ibtwin.model.CableKind;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.IpoibMode;
import org.ibtwin.model.Link;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.LinkWidth;
import org.ibtwin.model.Node;
import org.ibtwin.model.PcieGen;
import org.junit.jupiter.api.Test;

/** Write-then-read gives back the same fabric: topology, host facts and cables. */
class RoundTripTest {

    /** The old 0x0002c9 OUI and real ones with the top bit set; the last leaves no room above 2^64 - 2^32. */
    private static final Arbitrary<Long> GUID_BASES = Arbitraries.of(FatTreeSpec.DEFAULT_GUID_BASE,
            0xec0d9a0300000000L, 0xb8599f0300000000L, 0x98039b0300000000L, 0xffffffff00000000L);

    @Provide
    Arbitrary<FatTreeSpec> trees() {
        return Combinators.combine(Arbitraries.of(2, 3), Arbitraries.integers().between(2, 5).map(h -> 2 * h),
                        Arbitraries.integers().between(1, 2),
                        Arbitraries.of(LinkSpeed.SDR, LinkSpeed.DDR, LinkSpeed.QDR, LinkSpeed.FDR, LinkSpeed.EDR, LinkSpeed.HDR,
                                LinkSpeed.NDR))
                .flatAs((levels, radix, blocking, speed) -> Combinators.combine(Arbitraries.integers()
                        .between(1, (int) FatTreeSpec.maxHosts(levels, radix, blocking)), GUID_BASES)
                        .as((hosts, base) -> new FatTreeSpec(levels, radix, hosts, blocking, speed,
                                FatTreeSpec.DEFAULT_HOST_NAME, base)));
    }

    @Property(tries = 60)
    void generatedTreesRoundTripThroughTheTopologyFormat(@ForAll("trees") FatTreeSpec spec) {
        Fabric f = FatTree.build(spec);
        String text = TopologyWriter.toString(f, TopologyFormatTest.WHEN);
        Fabric back = TopologyReader.read(text, "gen.topo");
        assertThat(FabricComparison.canonical(back)).isEqualTo(FabricComparison.canonical(f));
        assertThat(TopologyWriter.toString(back, TopologyFormatTest.WHEN)).isEqualTo(text);
    }

    @Property(tries = 20)
    void degradedLinksAndHostFactsRoundTripThroughBothFiles(@ForAll("trees") FatTreeSpec spec) throws IOException {
        Fabric f = FatTree.build(spec);
        plantProblems(f);
        Path dir = Files.createTempDirectory("rt");
        try {
            Path[] files = FabricFiles.write(f, dir.resolve("fab"));
            Fabric back = FabricFiles.load(files[1]);
            assertThat(FabricComparison.canonical(back)).isEqualTo(FabricComparison.canonical(f));
            assertThat(facts(back)).isEqualTo(facts(f));
            assertThat(degraded(back)).isEqualTo(degraded(f));
        } finally {
            for (String n : new String[] {"fab.topo", "fab.yaml"}) {
                Files.deleteIfExists(dir.resolve(n));
            }
            Files.deleteIfExists(dir);
        }
    }

    @Test
    void smallShapesRoundTrip() {
        for (Fabric f : List.of(Shapes.backToBack(LinkSpeed.HDR), Shapes.singleSwitch(12, 36, LinkSpeed.EDR))) {
            String text = TopologyWriter.toString(f, TopologyFormatTest.WHEN);
            Fabric back = TopologyReader.read(text, "shape.topo");
            assertThat(FabricComparison.canonical(back)).isEqualTo(FabricComparison.canonical(f));
        }
    }

    @Test
    void theBuiltInDefaultFabricIsConsistentWithItsFiles() {
        Fabric f = FabricFiles.loadDefault();
        // the topology file already shows what the description's cables make of the links
        Fabric topoOnly = TopologyReader.read(FabricFiles.defaultFile("topo"), "default.topo");
        assertThat(FabricComparison.canonical(topoOnly)).isEqualTo(FabricComparison.canonical(f));
        assertThat(f.cas()).hasSize(60);
        assertThat(f.switches()).hasSize(5);
        assertThat(f.links().stream().filter(Link::isDegraded).toList()).singleElement()
                .satisfies(l -> assertThat(l.activeSpeed()).isEqualTo(LinkSpeed.DDR));
        assertThat(f.cas().stream().filter(n -> n.hostFacts().pcieLanes() == 8).map(Node::description))
                .containsExactly("node017 mlx5_0");
        assertThat(f.cas().stream().filter(n -> n.hostFacts().ipoibMode() == IpoibMode.DATAGRAM)
                .map(Node::description)).containsExactly("node033 mlx5_0");
    }

    /** A slow slot, a datagram host, a DDR cable and a one-lane cable, where the fabric is big enough. */
    private static void plantProblems(Fabric f) {
        List<Node> cas = f.cas();
        Node first = cas.get(0);
        first.setHostFacts(first.hostFacts().withPcie(PcieGen.GEN3, 8));
        Node last = cas.get(cas.size() - 1);
        last.setHostFacts(last.hostFacts().withIpoib(IpoibMode.DATAGRAM, 2044));
        List<Link> links = f.links();
        Link a = links.get(links.size() - 1);
        a.setCable(a.cable().withMaxSpeed(LinkSpeed.DDR));
        if (links.size() > 1) {
            Link b = links.get(0);
            b.setCable(new org.ibtwin.model.Cable(CableKind.ACTIVE_OPTICAL, 15, b.cable().maxSpeed(), LinkWidth.X1));
        }
    }

    private static List<String> facts(Fabric f) {
        List<String> out = new ArrayList<>();
        for (Node n : f.cas()) {
            out.add(n.guid() + " " + n.hostFacts());
        }
        return out;
    }

    private static List<String> degraded(Fabric f) {
        List<String> out = new ArrayList<>();
        for (Link l : f.links()) {
            if (l.isDegraded()) {
                String a = l.a().toString();
                String b = l.b().toString();
                out.add((a.compareTo(b) < 0 ? a + " " + b : b + " " + a) + " " + l.activeWidth() + l.activeSpeed());
            }
        }
        out.sort(null);
        return out;
    }
}
