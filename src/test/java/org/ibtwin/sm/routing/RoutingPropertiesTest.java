package org.ibtwin.sm.routing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** Routing invariants on random connected switch graphs: checked, not trusted. */
class RoutingPropertiesTest {

    /** A random connected graph: a random spanning tree plus {@code extra} random links. */
    private static SwitchGraph random(int switches, int extra, long seed) {
        Random r = new Random(seed);
        Graphs.Shape s = new Graphs.Shape(switches, 2 + switches + extra * 2, 1);
        for (int i = 1; i < switches; i++) {
            s.link(r.nextInt(i), i);
        }
        for (int e = 0; e < extra; e++) {
            int a = r.nextInt(switches);
            int b = r.nextInt(switches);
            if (a != b) {
                s.link(a, b);
            }
        }
        return s.graph();
    }

    @Property(tries = 60)
    void updnRoutesEveryCaPairWithoutCreditLoops(@ForAll @IntRange(min = 1, max = 14) int switches,
                                                 @ForAll @IntRange(min = 0, max = 12) int extra,
                                                 @ForAll long seed) {
        SwitchGraph g = random(switches, extra, seed);
        RoutingEngine.Outcome o = new UpDownEngine(null).route(g);
        assertThat(o).isInstanceOf(RoutingEngine.Routed.class);
        RoutingCheck.Report c = RoutingCheck.check(g, ((RoutingEngine.Routed) o).lfts());
        assertThat(c.failures()).isEmpty();
        assertThat(c.creditLoop()).isFalse();
    }

    @Property(tries = 60)
    void minhopReachesEveryCaOnShortestPaths(@ForAll @IntRange(min = 1, max = 14) int switches,
                                             @ForAll @IntRange(min = 0, max = 12) int extra,
                                             @ForAll long seed) {
        SwitchGraph g = random(switches, extra, seed);
        RoutingEngine.Routed r = (RoutingEngine.Routed) new MinHopEngine().route(g);
        RoutingCheck.Report c = RoutingCheck.check(g, r.lfts());
        assertThat(c.failures()).isEmpty();
        assertThat(c.maxHops()).isLessThan(switches);
    }

    @Property(tries = 60)
    void ftreeEitherDeclinesOrRoutesWithoutCreditLoops(@ForAll @IntRange(min = 1, max = 14) int switches,
                                                       @ForAll @IntRange(min = 0, max = 6) int extra,
                                                       @ForAll long seed) {
        SwitchGraph g = random(switches, extra, seed);
        RoutingEngine.Outcome o = new FatTreeEngine().route(g);
        if (o instanceof RoutingEngine.Routed r) {
            assertThat(RoutingCheck.check(g, r.lfts()).ok()).isTrue();
        } else {
            assertThat(((RoutingEngine.Declined) o).reason()).contains("not a fat tree");
        }
    }
}
