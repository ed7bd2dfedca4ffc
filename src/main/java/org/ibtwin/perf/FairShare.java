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
        int m = capacity.length;
        double[] rate = new double[n];
        int[] why = new int[n];
        Arrays.fill(why, CAP);
        boolean[] frozen = new boolean[n];
        double[] remaining = capacity.clone();
        double[] load = new double[m];
        int[] activeUsers = new int[m];
        boolean[] full = new boolean[m];
        // the flows on each resource, to freeze them when it fills
        int[] start = new int[m + 1];
        for (Flow fl : flows) {
            for (int r : fl.resources()) {
                start[r + 1]++;
            }
        }
        for (int r = 0; r < m; r++) {
            start[r + 1] += start[r];
        }
        int[] onResource = new int[start[m]];
        int[] fill = start.clone();
        int active = 0;
        for (int f = 0; f < n; f++) {
            Flow fl = flows.get(f);
            for (int r : fl.resources()) {
                onResource[fill[r]++] = f;
            }
            if (fl.cap() == 0) {
                frozen[f] = true;
            } else {
                active++;
                for (int k = 0; k < fl.resources().length; k++) {
                    load[fl.resources()[k]] += fl.weights()[k];
                    activeUsers[fl.resources()[k]]++;
                }
            }
        }
        // unfrozen flows all stand at the same level; caps are met in increasing order
        Integer[] byCap = new Integer[n];
        for (int f = 0; f < n; f++) {
            byCap[f] = f;
        }
        Arrays.sort(byCap, (a, b) -> Double.compare(flows.get(a).cap(), flows.get(b).cap()));
        int nextCap = 0;
        double level = 0;
        int[] newlyFull = new int[m];
        // the resources some unfrozen flow still uses, in increasing order (a resource leaves once all have frozen)
        int[] live = new int[m];
        int nLive = 0;
        for (int r = 0; r < m; r++) {
            if (activeUsers[r] > 0) {
                live[nLive++] = r;
            }
        }
        while (active > 0) {
            while (frozen[byCap[nextCap]]) {
                nextCap++;
            }
            double step = flows.get(byCap[nextCap]).cap() - level;
            int kept = 0;
            for (int i = 0; i < nLive; i++) {
                int r = live[i];
                if (activeUsers[r] > 0) {
                    live[kept++] = r;
                    if (load[r] > 0) {
                        step = Math.min(step, Math.max(0, remaining[r]) / load[r]);
                    }
                }
            }
            nLive = kept;
            if (Double.isInfinite(step)) {
                throw new IllegalArgumentException("a flow with no cap uses no resource");
            }
            int nFull = 0;
            for (int i = 0; i < nLive; i++) {
                int r = live[i];
                if (load[r] > 0) {
                    remaining[r] -= step * load[r];
                    if (!full[r] && remaining[r] <= 1e-9 * Math.max(1, capacity[r])) {
                        full[r] = true;
                        newlyFull[nFull++] = r;
                    }
                }
            }
            level += step;
            // flows that reach their caps, then flows on a resource that filled
            for (int i = nextCap; i < n; i++) {
                int f = byCap[i];
                if (frozen[f]) {
                    continue;
                }
                if (level < flows.get(f).cap() * (1 - 1e-12)) {
                    break;
                }
                rate[f] = flows.get(f).cap();
                why[f] = CAP;
                active -= freeze(flows.get(f), f, frozen, load, activeUsers);
            }
            for (int k = 0; k < nFull; k++) {
                int r = newlyFull[k];
                for (int j = start[r]; j < start[r + 1]; j++) {
                    int f = onResource[j];
                    if (frozen[f]) {
                        continue;
                    }
                    Flow fl = flows.get(f);
                    rate[f] = level;
                    for (int res : fl.resources()) {
                        if (full[res]) {
                            why[f] = res;
                            break;
                        }
                    }
                    active -= freeze(fl, f, frozen, load, activeUsers);
                }
            }
        }
        return new Result(rate, why);
    }

    /** Takes a flow out of the filling: its weights leave the loads of its resources. Returns 1. */
    private static int freeze(Flow fl, int f, boolean[] frozen, double[] load, int[] activeUsers) {
        frozen[f] = true;
        for (int k = 0; k < fl.resources().length; k++) {
            int r = fl.resources()[k];
            load[r] -= fl.weights()[k];
            if (--activeUsers[r] == 0) {
                load[r] = 0;
            }
        }
        return 1;
    }
}
