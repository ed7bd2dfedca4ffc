package org.ibtwin.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class FairShareTest {
    private static FairShare.Flow flow(double cap, int... resources) {
        double[] w = new double[resources.length];
        java.util.Arrays.fill(w, 1.0);
        return new FairShare.Flow(cap, resources, w);
    }

    @Test
    void twoFlowsOnOneLinkHalveIt() {
        FairShare.Result r = FairShare.solve(new double[] {10}, List.of(flow(100, 0), flow(100, 0)));
        assertThat(r.rates()).containsExactly(5, 5);
        assertThat(r.bottleneck()).containsExactly(0, 0);
    }

    @Test
    void theTextbookExample() {
        // links 0 (cap 10) and 1 (cap 4); A uses both, B uses 0, C uses 1; D uses 0 with a cap of 1
        FairShare.Result r = FairShare.solve(new double[] {10, 4},
                List.of(flow(100, 0, 1), flow(100, 0), flow(100, 1), flow(1, 0)));
        assertThat(r.rates()[0]).isCloseTo(2, within(1e-9));
        assertThat(r.rates()[2]).isCloseTo(2, within(1e-9));
        assertThat(r.rates()[3]).isCloseTo(1, within(1e-9));
        assertThat(r.rates()[1]).isCloseTo(7, within(1e-9));
        assertThat(r.bottleneck()).containsExactly(1, 0, 1, FairShare.CAP);
    }

    @Test
    void weightsCountHeaders() {
        // one flow whose bytes weigh 1.25 on the link: 8 of 10
        FairShare.Result r = FairShare.solve(new double[] {10},
                List.of(new FairShare.Flow(Double.POSITIVE_INFINITY, new int[] {0}, new double[] {1.25})));
        assertThat(r.rates()[0]).isCloseTo(8, within(1e-9));
    }

    /** Max-min fairness: no resource over capacity, and every flow is stopped by its cap or a full resource. */
    @Property(tries = 200)
    void everyFlowIsStoppedByAFullResourceOrItsCap(@ForAll @IntRange(min = 1, max = 12) int flows,
                                                   @ForAll @IntRange(min = 1, max = 6) int resources,
                                                   @ForAll @IntRange(min = 0, max = 1_000_000) int seed) {
        java.util.Random rnd = new java.util.Random(seed);
        double[] cap = new double[resources];
        for (int i = 0; i < resources; i++) {
            cap[i] = 1 + rnd.nextInt(100);
        }
        List<FairShare.Flow> fl = new ArrayList<>();
        for (int f = 0; f < flows; f++) {
            int n = 1 + rnd.nextInt(resources);
            int[] r = rnd.ints(0, resources).distinct().limit(n).toArray();
            double[] w = new double[r.length];
            for (int k = 0; k < w.length; k++) {
                w[k] = 1 + rnd.nextDouble();
            }
            fl.add(new FairShare.Flow(rnd.nextBoolean() ? Double.POSITIVE_INFINITY : 1 + rnd.nextInt(50), r, w));
        }
        FairShare.Result res = FairShare.solve(cap, fl);
        double[] used = new double[resources];
        for (int f = 0; f < flows; f++) {
            for (int k = 0; k < fl.get(f).resources().length; k++) {
                used[fl.get(f).resources()[k]] += res.rates()[f] * fl.get(f).weights()[k];
            }
        }
        for (int i = 0; i < resources; i++) {
            assertThat(used[i]).isLessThanOrEqualTo(cap[i] * (1 + 1e-9));
        }
        for (int f = 0; f < flows; f++) {
            int b = res.bottleneck()[f];
            if (b == FairShare.CAP) {
                assertThat(res.rates()[f]).isCloseTo(fl.get(f).cap(), within(1e-6));
            } else {
                assertThat(used[b]).isCloseTo(cap[b], within(1e-6 * cap[b]));
                // no flow through the full resource gets more than this one, unless it weighs less there
                for (int g = 0; g < flows; g++) {
                    for (int r : fl.get(g).resources()) {
                        if (r == b) {
                            assertThat(res.rates()[g]).isLessThanOrEqualTo(res.rates()[f] * (1 + 1e-9));
                        }
                    }
                }
            }
        }
    }
}
