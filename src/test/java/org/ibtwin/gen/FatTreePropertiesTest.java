package org.ibtwin.gen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Link;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.Node;

class FatTreePropertiesTest {

    private static final LinkSpeed[] SPEEDS = {LinkSpeed.SDR, LinkSpeed.QDR, LinkSpeed.FDR10, LinkSpeed.FDR,
        LinkSpeed.EDR, LinkSpeed.HDR, LinkSpeed.NDR};

    @Provide
    Arbitrary<FatTreeSpec> specs() {
        return Combinators.combine(Arbitraries.of(2, 3), Arbitraries.integers().between(2, 6).map(h -> 2 * h),
                        Arbitraries.integers().between(1, 3), Arbitraries.of(SPEEDS))
                .flatAs((levels, radix, blocking, speed) -> Arbitraries.integers()
                        .between(1, (int) FatTreeSpec.maxHosts(levels, radix, blocking))
                        .map(hosts -> new FatTreeSpec(levels, radix, hosts, blocking, speed,
                                FatTreeSpec.DEFAULT_HOST_NAME, FatTreeSpec.DEFAULT_GUID_BASE)));
    }

    /** Non-blocking trees whose leaves (2 levels) or pods (3 levels) are all full. */
    @Provide
    Arbitrary<FatTreeSpec> fullNonBlocking() {
        return Combinators.combine(Arbitraries.of(2, 3), Arbitraries.integers().between(2, 6).map(h -> 2 * h))
                .flatAs((levels, radix) -> {
                    int k = radix / 2;
                    int unit = levels == 2 ? k : k * k;
                    return Arbitraries.integers().between(1, radix)
                            .map(n -> FatTreeSpec.of(levels, radix, n * unit).withSpeed(LinkSpeed.EDR));
                });
    }

    @Property(tries = 300)
    void everyGeneratedTreeKeepsTheInvariants(@ForAll("specs") FatTreeSpec spec) {
        TreeChecks.checkAll(spec, FatTree.build(spec));
    }

    @Property(tries = 100)
    void fullNonBlockingTreesHaveAsManyUpAsDownLinksAtEveryLevel(@ForAll("fullNonBlocking") FatTreeSpec spec) {
        Fabric f = FatTree.build(spec);
        TreeChecks.checkAll(spec, f);
        TreeChecks.checkBalancedWhenFull(spec, f);
    }

    @Property(tries = 50)
    void buildingIsDeterministic(@ForAll("specs") FatTreeSpec spec) {
        Fabric a = FatTree.build(spec);
        Fabric b = FatTree.build(spec);
        assertThat(a.nodes()).extracting(Node::guid, Node::description)
                .containsExactlyElementsOf(b.nodes().stream()
                        .map(n -> tuple(n.guid(), n.description())).toList());
        assertThat(a.links()).map(FatTreePropertiesTest::key).containsExactlyElementsOf(
                b.links().stream().map(FatTreePropertiesTest::key).toList());
    }

    /** A link as text, for comparing two builds. */
    private static String key(Link l) {
        return l.a() + "-" + l.b() + " " + l.cable();
    }
}
