package org.ibtwin.sm.routing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.function.Supplier;
import org.ibtwin.gen.Direct;
import org.ibtwin.gen.Variants;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.LinkSpeed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.Arguments;

/**
 * On the direct networks, with and without failures, the deadlock-free engines (dor, dfsssp) pass
 * {@link RoutingCheck}: every CA pair delivered and every VL's channel dependency graph acyclic, while minhop's
 * routes on the same fabric have a credit loop.
 */
class DeadlockFreeEnginesTest {
    static java.util.stream.Stream<Arguments> fabrics() {
        return java.util.stream.Stream.of(
                fabric("2-D torus 6x5", () -> Direct.torus(new int[] {6, 5}, true, 2, 0, LinkSpeed.HDR), true),
                fabric("3-D torus 4x4x4", () -> Direct.torus(new int[] {4, 4, 4}, true, 1, 0, LinkSpeed.HDR), true),
                fabric("3-D torus 4x4x3, 3 links and a switch lost", () -> {
                    Fabric f = Direct.torus(new int[] {4, 4, 3}, true, 1, 0, LinkSpeed.HDR);
                    Variants.failSwitch(f, "sw-1-1-1");
                    Variants.removeLinks(f, 3, 5);
                    return f;
                }, true),
                fabric("2-D mesh 6x6", () -> Direct.torus(new int[] {6, 6}, false, 2, 0, LinkSpeed.HDR), true),
                fabric("2-D mesh 5x5, 2 links lost", () -> {
                    Fabric f = Direct.torus(new int[] {5, 5}, false, 1, 0, LinkSpeed.HDR);
                    Variants.removeLinks(f, 2, 3);
                    return f;
                }, true),
                fabric("hypercube 5", () -> Direct.hypercube(5, 2, 0, LinkSpeed.HDR), true),
                fabric("hypercube 5, 4 links lost", () -> {
                    Fabric f = Direct.hypercube(5, 1, 0, LinkSpeed.HDR);
                    Variants.removeLinks(f, 4, 9);
                    return f;
                }, true),
                fabric("dragonfly a=4 h=2 g=9", () -> Direct.dragonfly(9, 4, 2, 2, Direct.Arrangement.CONSECUTIVE, 0,
                        LinkSpeed.HDR), true),
                fabric("dragonfly palm tree, 4 links lost", () -> {
                    Fabric f = Direct.dragonfly(9, 4, 2, 2, Direct.Arrangement.PALMTREE, 0, LinkSpeed.HDR);
                    Variants.removeLinks(f, 4, 2);
                    return f;
                }, true),
                fabric("hyperx 4x4", () -> Direct.hyperx(new int[] {4, 4}, 2, 0, LinkSpeed.HDR), true));
    }

    private static Arguments fabric(String name, Supplier<Fabric> f, boolean minhopLoops) {
        return Arguments.of(name, f, minhopLoops);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fabrics")
    void deadlockFreeEnginesPassWhereMinhopFails(String name, Supplier<Fabric> fabric, boolean minhopLoops) {
        SwitchGraph g = Graphs.of(fabric.get());
        RoutingCheck.Report minhop = RoutingCheck.check(g, routed(new MinHopEngine(), g).lfts());
        assertThat(minhop.unreached()).isZero();
        assertThat(minhop.creditLoop()).as(name + ": minhop\n" + minhop.text()).isEqualTo(minhopLoops);
        for (RoutingEngine e : new RoutingEngine[] {new DorEngine(), new DfssspEngine()}) {
            RoutingEngine.Outcome o = e.route(g);
            assertThat(o).as(name + ": " + e.name()).isInstanceOf(RoutingEngine.Routed.class);
            RoutingEngine.Routed r = (RoutingEngine.Routed) o;
            RoutingCheck.Report c = RoutingCheck.check(g, r.lfts(), r.layers());
            assertThat(c.ok()).as(name + ": " + e.name() + " " + r.detail() + "\n" + c.text()).isTrue();
            assertThat(c.longer()).as(name + ": " + e.name() + " takes shortest paths").isZero();
            // the same routes on one lane: the lanes are what breaks the loops on a torus or dragonfly
            if (r.layers().count() > 1) {
                assertThat(RoutingCheck.check(g, r.lfts()).creditLoop()).isTrue();
            }
            System.out.printf("%s: %s %s; minhop max/mean %.2f, %s max/mean %.2f%n", name, e.name(), r.detail(),
                    minhop.balance(), e.name(), c.balance());
        }
    }

    @Test
    void dorOnAMeshNeedsOneLaneAndOnATorusMore() {
        SwitchGraph mesh = Graphs.of(Direct.torus(new int[] {5, 5}, false, 1, 0, LinkSpeed.HDR));
        assertThat(((RoutingEngine.Routed) new DorEngine().route(mesh)).layers().count()).isEqualTo(1);
        SwitchGraph torus = Graphs.of(Direct.torus(new int[] {5, 5}, true, 1, 0, LinkSpeed.HDR));
        assertThat(((RoutingEngine.Routed) new DorEngine().route(torus)).layers().count()).isGreaterThan(1);
    }

    @Test
    void dfssspSplitsADestinationByRouteWhenItsTreeFitsNoLaneWhole() {
        SwitchGraph g = Graphs.of(Direct.dragonfly(33, 8, 4, 4, Direct.Arrangement.CONSECUTIVE, 0, LinkSpeed.HDR));
        RoutingEngine.Routed r = (RoutingEngine.Routed) new DfssspEngine().route(g);
        assertThat(r.layers().bySource()).as("some destination split by source").isNotNull();
        RoutingCheck.Report c = RoutingCheck.check(g, r.lfts(), r.layers());
        assertThat(c.ok()).as(c.text()).isTrue();
        assertThat(c.layers()).isLessThanOrEqualTo(DorEngine.MAX_LANES);
    }

    @Test
    void theCheckFindsTheCreditLoopOfARing() {
        // six switches in a ring, minhop: each switch sends two hops clockwise, and the chain of those closes
        SwitchGraph g = Graphs.Shape.ring(6, 2).graph();
        RoutingCheck.Report c = RoutingCheck.check(g, routed(new MinHopEngine(), g).lfts());
        assertThat(c.cyclicLayers()).containsExactly(0);
        assertThat(c.ok()).isFalse();
        assertThat(c.text()).contains("deadlock: CREDIT LOOP (1 VL", "cycle on VL [0]");
        RoutingEngine.Routed d = (RoutingEngine.Routed) new DfssspEngine().route(g);
        RoutingCheck.Report fixed = RoutingCheck.check(g, d.lfts(), d.layers());
        assertThat(fixed.ok()).isTrue();
        assertThat(fixed.text()).contains("deadlock: free (2 VLs");
    }

    private static RoutingEngine.Routed routed(RoutingEngine e, SwitchGraph g) {
        return (RoutingEngine.Routed) e.route(g);
    }
}
