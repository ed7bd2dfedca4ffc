package org.ibtwin.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Link;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.Node;

class TwinDiscoveryPropertiesTest {

    @Provide
    Arbitrary<FatTreeSpec> smallTrees() {
        return Combinators.combine(Arbitraries.of(2, 3), Arbitraries.integers().between(2, 4).map(h -> 2 * h),
                        Arbitraries.integers().between(1, 2))
                .flatAs((levels, radix, blocking) -> Arbitraries.integers()
                        .between(1, (int) Math.min(96, FatTreeSpec.maxHosts(levels, radix, blocking)))
                        .map(hosts -> new FatTreeSpec(levels, radix, hosts, blocking, LinkSpeed.HDR,
                                FatTreeSpec.DEFAULT_HOST_NAME, FatTreeSpec.DEFAULT_GUID_BASE)));
    }

    @Property(tries = 60)
    void directedRouteDiscoveryFindsExactlyTheModelsNodesAndLinks(@ForAll("smallTrees") FatTreeSpec spec,
            @ForAll @IntRange(min = 0, max = 1000) int where) {
        Fabric f = FatTree.build(spec);
        Twin twin = Twin.of(f);
        Node at = f.nodes().get(where % f.size());
        try (TwinTransport t = new TwinTransport(twin.attach(at.name(), 0))) {
            MiniSm sm = new MiniSm(t).discover();
            assertThat(sm.nodes.keySet()).containsExactlyInAnyOrderElementsOf(
                    f.nodes().stream().map(Node::guid).collect(Collectors.toSet()));
            Set<MiniSm.FoundLink> expected = new HashSet<>();
            for (Link l : f.links()) {
                long a = l.a().node().guid();
                long b = l.b().node().guid();
                int pa = l.a().number();
                int pb = l.b().number();
                expected.add(a < b || (a == b && pa < pb) ? new MiniSm.FoundLink(a, pa, b, pb)
                        : new MiniSm.FoundLink(b, pb, a, pa));
            }
            assertThat(sm.links).containsExactlyInAnyOrderElementsOf(expected);
            for (MiniSm.Found n : sm.nodes.values()) {
                Node m = f.byGuid(n.guid);
                assertThat(n.type).isEqualTo(m.type().code());
                assertThat(n.ports).isEqualTo(m.numPorts());
            }
        }
        assertThat(twin.drops()).isZero();
    }

    @Property(tries = 15)
    void afterBringUpEveryLidAnswersWithItsNode(@ForAll("smallTrees") FatTreeSpec spec) {
        Fabric f = FatTree.build(spec);
        Twin twin = Twin.of(f);
        try (TwinTransport t = new TwinTransport(twin.attach(null, 0))) {
            MiniSm sm = new MiniSm(t).bringUp();
            for (MiniSm.Found n : sm.nodes.values()) {
                assertThat(sm.nodeGuidAt(n.lid)).isEqualTo(n.guid);
                assertThat(twin.portAtLid(n.lid).node().guid()).isEqualTo(n.guid);
            }
        }
        assertThat(twin.drops()).isZero();
    }
}
