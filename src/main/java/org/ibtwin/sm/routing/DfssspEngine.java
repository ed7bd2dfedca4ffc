package org.ibtwin.sm.routing;

/**
 * dfsssp, deadlock-free single-source shortest paths: destination by destination (CA LIDs in LID order), every
 * switch takes the shortest path (in hops) whose channels carry the least weight so far, and then every channel of
 * the new routes gains the CA pairs it now carries, so later destinations steer around busy channels, balancing the
 * fabric as a whole rather than switch by switch. Credit loops are then broken across virtual lanes
 * ({@link Layering}): each destination's routes go on the lowest lane that stays acyclic; the lane is the paths' SL.
 * Declines when more than {@link DorEngine#MAX_LANES} lanes would be needed.
 */
public final class DfssspEngine implements RoutingEngine {
    public static final String NAME = "dfsssp";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Outcome route(SwitchGraph g) {
        int n = g.switches();
        byte[][] hops = Balancer.hopMatrix(g);
        int[] base = new int[n + 1];
        for (int s = 0; s < n; s++) {
            base[s + 1] = base[s] + g.numPorts(s) + 1;
        }
        long[] weight = new long[base[n]];
        int[] cas = new int[n];
        for (int lid = 1; lid <= g.top(); lid++) {
            if (g.isCaLid(lid) && g.destSwitch(lid) >= 0) {
                cas[g.destSwitch(lid)]++;
            }
        }
        byte[][] tables = new byte[n][];
        for (int s = 0; s < n; s++) {
            tables[s] = Lfts.empty(g.top());
        }
        int[] order = new int[n];
        int[] count = new int[257];
        long[] cost = new long[n];
        long[] flow = new long[n];
        for (int lid = 1; lid <= g.top(); lid++) {
            int t = g.destSwitch(lid);
            if (t < 0) {
                continue;
            }
            byte[] d = hops[t];
            // switches by distance to t (counting sort), nearest first
            java.util.Arrays.fill(count, 0);
            for (int s = 0; s < n; s++) {
                count[(d[s] & 0xff) + 1]++;
            }
            for (int i = 1; i < count.length; i++) {
                count[i] += count[i - 1];
            }
            for (int s = 0; s < n; s++) {
                order[count[d[s] & 0xff]++] = s;
            }
            boolean ca = g.isCaLid(lid);
            for (int i = 0; i < n; i++) {
                int s = order[i];
                int h = d[s] & 0xff;
                if (h == Balancer.INF) {
                    break;
                }
                if (s == t) {
                    tables[s][lid] = (byte) g.destPort(lid);
                    cost[s] = 0;
                    continue;
                }
                int best = -1;
                long bestCost = Long.MAX_VALUE;
                for (int p = 1; p <= g.numPorts(s); p++) {
                    int y = g.neighbour(s, p);
                    if (y < 0 || (d[y] & 0xff) != h - 1) {
                        continue;
                    }
                    long c = weight[base[s] + p] + cost[y];
                    if (c < bestCost) {
                        bestCost = c;
                        best = p;
                    }
                }
                tables[s][lid] = (byte) best;
                cost[s] = bestCost;
            }
            if (!ca) {
                continue;   // switch LIDs carry management traffic only: they weigh nothing
            }
            for (int i = n - 1; i >= 0; i--) {
                int s = order[i];
                if ((d[s] & 0xff) == Balancer.INF) {
                    flow[s] = 0;
                    continue;
                }
                flow[s] += s == t ? 0 : cas[s];
            }
            for (int i = n - 1; i >= 0; i--) {
                int s = order[i];
                if (s == t || (d[s] & 0xff) == Balancer.INF) {
                    flow[s] = 0;
                    continue;
                }
                int p = tables[s][lid] & 0xff;
                weight[base[s] + p] += flow[s];
                flow[g.neighbour(s, p)] += flow[s];
                flow[s] = 0;
            }
            flow[t] = 0;
        }
        Lfts lfts = new Lfts(tables, g.top());
        RoutingCheck.Layers layers = Layering.assign(g, lfts, DorEngine.MAX_LANES);
        if (layers == null) {
            return new Declined("its shortest paths need more than " + DorEngine.MAX_LANES + " VLs to be free of "
                    + "credit loops");
        }
        return new Routed(lfts, "shortest paths balanced by channel weights, " + layers.count() + " VL"
                + (layers.count() == 1 ? "" : "s"), layers, Reroute.none("its channel weights and VL layering "
                + "balance the fabric as a whole"));
    }
}
