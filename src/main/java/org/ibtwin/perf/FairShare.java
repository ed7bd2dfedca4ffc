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
        Flows all = new Flows(flows.size());
        for (Flow f : flows) {
            all.add(f);
        }
        return solve(capacity, all);
    }

    /**
     * Flows laid out flat for the filling: flow {@code f} uses {@code resource[start[f]..start[f+1])} with the
     * weights beside them, and has its own cap. Added to in flow order, as a list of {@link Flow}s.
     */
    public static final class Flows {
        private int n;
        private double[] cap;
        private int[] start;
        private int[] resource;
        private double[] weight;

        /** Room for {@code flows} flows of about 16 resources each (it grows as needed). */
        public Flows(int flows) {
            cap = new double[Math.max(1, flows)];
            start = new int[cap.length + 1];
            resource = new int[cap.length * 16];
            weight = new double[resource.length];
        }

        public int size() {
            return n;
        }

        /** Appends {@code f}; returns its index. */
        public int add(Flow f) {
            int[] r = f.resources();
            if (n == cap.length) {
                cap = Arrays.copyOf(cap, n * 2);
                start = Arrays.copyOf(start, n * 2 + 1);
            }
            int at = start[n];
            if (at + r.length > resource.length) {
                int room = Math.max(resource.length * 2, at + r.length);
                resource = Arrays.copyOf(resource, room);
                weight = Arrays.copyOf(weight, room);
            }
            System.arraycopy(r, 0, resource, at, r.length);
            System.arraycopy(f.weights(), 0, weight, at, r.length);
            cap[n] = f.cap();
            start[n + 1] = at + r.length;
            return n++;
        }
    }

    /** As {@link #solve(double[], List)}, over flows laid out flat. */
    public static Result solve(double[] capacity, Flows flows) {
        int n = flows.n;
        int m = capacity.length;
        double[] fcap = flows.cap;
        int[] fstart = flows.start;
        int[] fres = flows.resource;
        double[] fw = flows.weight;
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
        int entries = fstart[n];
        for (int j = 0; j < entries; j++) {
            start[fres[j] + 1]++;
        }
        for (int r = 0; r < m; r++) {
            start[r + 1] += start[r];
        }
        int[] onResource = new int[start[m]];
        int[] fill = start.clone();
        int active = 0;
        for (int f = 0; f < n; f++) {
            int from = fstart[f];
            int to = fstart[f + 1];
            for (int j = from; j < to; j++) {
                onResource[fill[fres[j]]++] = f;
            }
            if (fcap[f] == 0) {
                frozen[f] = true;
            } else {
                active++;
                for (int j = from; j < to; j++) {
                    load[fres[j]] += fw[j];
                    activeUsers[fres[j]]++;
                }
            }
        }
        // unfrozen flows all stand at the same level; caps are met in increasing order
        int[] byCap = byCap(fcap, n);
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
            double step = fcap[byCap[nextCap]] - level;
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
                if (level < fcap[f] * (1 - 1e-12)) {
                    break;
                }
                rate[f] = fcap[f];
                why[f] = CAP;
                active -= freeze(flows, f, frozen, load, activeUsers);
            }
            for (int k = 0; k < nFull; k++) {
                int r = newlyFull[k];
                for (int j = start[r]; j < start[r + 1]; j++) {
                    int f = onResource[j];
                    if (frozen[f]) {
                        continue;
                    }
                    rate[f] = level;
                    for (int q = fstart[f]; q < fstart[f + 1]; q++) {
                        if (full[fres[q]]) {
                            why[f] = fres[q];
                            break;
                        }
                    }
                    active -= freeze(flows, f, frozen, load, activeUsers);
                }
            }
        }
        return new Result(rate, why);
    }

    /**
     * The flows in increasing order of cap, flows of equal caps in their own order (a stable sort): a counting
     * sort over the distinct caps.
     */
    private static int[] byCap(double[] cap, int n) {
        double[] distinct = Arrays.copyOf(cap, n);
        Arrays.sort(distinct);
        int d = 0;
        for (int i = 0; i < n; i++) {
            if (d == 0 || Double.compare(distinct[i], distinct[d - 1]) != 0) {
                distinct[d++] = distinct[i];
            }
        }
        int[] rank = new int[n];
        int[] first = new int[d + 1];
        for (int f = 0; f < n; f++) {
            rank[f] = Arrays.binarySearch(distinct, 0, d, cap[f]);
            first[rank[f] + 1]++;
        }
        for (int k = 0; k < d; k++) {
            first[k + 1] += first[k];
        }
        int[] order = new int[n];
        for (int f = 0; f < n; f++) {
            order[first[rank[f]]++] = f;
        }
        return order;
    }

    /** Takes a flow out of the filling: its weights leave the loads of its resources. Returns 1. */
    private static int freeze(Flows fl, int f, boolean[] frozen, double[] load, int[] activeUsers) {
        frozen[f] = true;
        for (int j = fl.start[f]; j < fl.start[f + 1]; j++) {
            int r = fl.resource[j];
            load[r] -= fl.weight[j];
            if (--activeUsers[r] == 0) {
                load[r] = 0;
            }
        }
        return 1;
    }
}
