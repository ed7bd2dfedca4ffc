package org.ibtwin.perf;

import java.util.Arrays;
import java.util.List;

/**
 * Max-min fair sharing by progressive filling. Every flow has a cap of its own and uses resources (directed links,
 * PCIe directions) with a weight: the resource capacity one unit of the flow's rate consumes (a link carries
 * headers too, so a flow of x payload Gb/s uses x/efficiency of it).
 *
 * <p>All unfrozen flows grow together by the largest step no resource and no cap forbids; a flow freezes when it
 * reaches its cap or one of its resources fills up. Each round freezes at least one flow, so there are at most as
 * many rounds as flows. The result gives each flow its rate and what froze it.
 */
public final class FairShare {
    /** The bottleneck value of a flow stopped by its own cap. */
    public static final int CAP = -1;

    private FairShare() {
    }

    /** A flow: its own cap (may be infinite), the resources it uses and its weight on each. */
    public record Flow(double cap, int[] resources, double[] weights) {
        public Flow {
            if (resources.length != weights.length) {
                throw new IllegalArgumentException("one weight per resource");
            }
            if (!(cap >= 0)) {
                throw new IllegalArgumentException("cap must be >= 0: " + cap);
            }
        }
    }

    /** Each flow's rate and its bottleneck: the index of the resource that froze it, or {@link #CAP}. */
    public record Result(double[] rates, int[] bottleneck) {
    }

    public static Result solve(double[] capacity, List<Flow> flows) {
        int n = flows.size();
        double[] rate = new double[n];
        int[] why = new int[n];
        Arrays.fill(why, CAP);
        boolean[] frozen = new boolean[n];
        double[] remaining = capacity.clone();
        double[] load = new double[capacity.length];
        boolean[] full = new boolean[capacity.length];
        int active = 0;
        for (int f = 0; f < n; f++) {
            Flow fl = flows.get(f);
            if (fl.cap() == 0) {
                frozen[f] = true;
            } else {
                active++;
            }
        }
        while (active > 0) {
            Arrays.fill(load, 0);
            for (int f = 0; f < n; f++) {
                if (!frozen[f]) {
                    Flow fl = flows.get(f);
                    for (int k = 0; k < fl.resources().length; k++) {
                        load[fl.resources()[k]] += fl.weights()[k];
                    }
                }
            }
            double step = Double.POSITIVE_INFINITY;
            for (int r = 0; r < capacity.length; r++) {
                if (load[r] > 0) {
                    step = Math.min(step, Math.max(0, remaining[r]) / load[r]);
                }
            }
            for (int f = 0; f < n; f++) {
                if (!frozen[f]) {
                    step = Math.min(step, flows.get(f).cap() - rate[f]);
                }
            }
            if (Double.isInfinite(step)) {
                throw new IllegalArgumentException("a flow with no cap uses no resource");
            }
            for (int r = 0; r < capacity.length; r++) {
                if (load[r] > 0) {
                    remaining[r] -= step * load[r];
                    if (remaining[r] <= 1e-9 * Math.max(1, capacity[r])) {
                        full[r] = true;
                    }
                }
            }
            for (int f = 0; f < n; f++) {
                if (frozen[f]) {
                    continue;
                }
                rate[f] += step;
                Flow fl = flows.get(f);
                if (rate[f] >= fl.cap() * (1 - 1e-12)) {
                    rate[f] = fl.cap();
                    frozen[f] = true;
                    why[f] = CAP;
                    active--;
                    continue;
                }
                for (int k = 0; k < fl.resources().length; k++) {
                    if (full[fl.resources()[k]]) {
                        frozen[f] = true;
                        why[f] = fl.resources()[k];
                        active--;
                        break;
                    }
                }
            }
        }
        return new Result(rate, why);
    }
}
