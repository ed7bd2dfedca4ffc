package org.ibtwin.sm.routing;

import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * Up*&#47;down* paths over a ranked switch graph, as updn and ftree both route. Every switch has a key (rank, GUID);
 * a move to a neighbour with a smaller key goes up, to a larger key down. A legal path is any number of up moves
 * followed by any number of down moves, so no channel dependency ever turns from down to up and the channel
 * dependency graph has no cycle (no credit loop), whatever the candidates chosen.
 *
 * <p>Destination-based forwarding cannot remember how a packet arrived, so each switch's route to a destination
 * switch {@code t} must itself be legal from wherever it is entered: a switch from which {@code t} is reachable
 * by down moves alone routes down (to a neighbour that also reaches it down-only, one hop closer); any other switch
 * routes up, to a neighbour one hop closer along the shortest legal path. Per destination this is a backward BFS
 * over down moves, then one pass over the switches in key order.
 */
final class UpDownPaths {
    private static final int INF = 0xff;

    private final SwitchGraph g;
    private final int[] rank;
    private final byte[][] down;
    private final byte[][] any;
    private final int[] component;

    /** {@code rank[s]}: 0 for the roots, growing away from them; switches the roots do not reach rank highest. */
    UpDownPaths(SwitchGraph g, int[] rank) {
        this.g = g;
        this.rank = rank;
        int n = g.switches();
        Integer[] boxed = new Integer[n];
        for (int i = 0; i < n; i++) {
            boxed[i] = i;
        }
        Arrays.sort(boxed, (a, b) -> isAbove(a, b) ? -1 : isAbove(b, a) ? 1 : 0);
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = boxed[i];
        }
        this.down = new byte[n][];
        this.any = new byte[n][];
        IntStream.range(0, n).parallel().forEach(t -> distances(t, order));
        this.component = components(g);
    }

    /** Whether {@code a} is above {@code b}: a smaller rank, or the same rank and a smaller GUID. */
    boolean isAbove(int a, int b) {
        if (rank[a] != rank[b]) {
            return rank[a] < rank[b];
        }
        return Long.compareUnsigned(g.guid(a), g.guid(b)) < 0;
    }

    private void distances(int t, int[] order) {
        int n = g.switches();
        byte[] dn = new byte[n];
        Arrays.fill(dn, (byte) INF);
        int[] queue = new int[n];
        int head = 0;
        int tail = 0;
        dn[t] = 0;
        queue[tail++] = t;
        while (head < tail) {
            int x = queue[head++];
            int dx = dn[x] & 0xff;
            for (int p = 1; p <= g.numPorts(x); p++) {
                int y = g.neighbour(x, p);
                // y -> x is a down move when y is above x
                if (y >= 0 && (dn[y] & 0xff) == INF && isAbove(y, x) && dx + 1 < INF) {
                    dn[y] = (byte) (dx + 1);
                    queue[tail++] = y;
                }
            }
        }
        byte[] an = new byte[n];
        for (int s : order) {
            if ((dn[s] & 0xff) != INF) {
                an[s] = dn[s];
                continue;
            }
            int best = INF;
            for (int p = 1; p <= g.numPorts(s); p++) {
                int u = g.neighbour(s, p);
                if (u >= 0 && isAbove(u, s)) {
                    best = Math.min(best, an[u] & 0xff);
                }
            }
            an[s] = (byte) (best >= INF - 1 ? INF : best + 1);
        }
        down[t] = dn;
        any[t] = an;
    }

    /** The ports of {@code s} that continue a legal shortest path to {@code t}. */
    int[] candidates(int s, int t) {
        int d = down[t][s] & 0xff;
        if (d != INF) {
            return Balancer.ports(g, s, n -> isAbove(s, n) && (down[t][n] & 0xff) == d - 1);
        }
        int a = any[t][s] & 0xff;
        if (a == INF) {
            return new int[0];
        }
        return Balancer.ports(g, s, n -> isAbove(n, s) && (any[t][n] & 0xff) == a - 1);
    }

    /** The first pair of connected switches with no legal path between them, as "from X to Y", or null. */
    String unroutable() {
        for (int t = 0; t < g.switches(); t++) {
            for (int s = 0; s < g.switches(); s++) {
                if (component[s] == component[t] && (any[t][s] & 0xff) == INF) {
                    return "from " + g.name(s) + " to " + g.name(t);
                }
            }
        }
        return null;
    }

    /** Connected components of the switch graph: a number per switch. */
    static int[] components(SwitchGraph g) {
        int n = g.switches();
        int[] comp = new int[n];
        Arrays.fill(comp, -1);
        int[] queue = new int[n];
        int c = 0;
        for (int s = 0; s < n; s++) {
            if (comp[s] >= 0) {
                continue;
            }
            int head = 0;
            int tail = 0;
            comp[s] = c;
            queue[tail++] = s;
            while (head < tail) {
                int x = queue[head++];
                for (int p = 1; p <= g.numPorts(x); p++) {
                    int y = g.neighbour(x, p);
                    if (y >= 0 && comp[y] < 0) {
                        comp[y] = c;
                        queue[tail++] = y;
                    }
                }
            }
            c++;
        }
        return comp;
    }

    /** BFS distance from the nearest of {@code sources}; Integer.MAX_VALUE where none reaches. */
    static int[] distanceFrom(SwitchGraph g, boolean[] sources) {
        int n = g.switches();
        int[] d = new int[n];
        Arrays.fill(d, Integer.MAX_VALUE);
        int[] queue = new int[n];
        int head = 0;
        int tail = 0;
        for (int s = 0; s < n; s++) {
            if (sources[s]) {
                d[s] = 0;
                queue[tail++] = s;
            }
        }
        while (head < tail) {
            int x = queue[head++];
            for (int p = 1; p <= g.numPorts(x); p++) {
                int y = g.neighbour(x, p);
                if (y >= 0 && d[y] == Integer.MAX_VALUE) {
                    d[y] = d[x] + 1;
                    queue[tail++] = y;
                }
            }
        }
        return d;
    }

    /** Switches with CA or router LIDs behind them (the leaves). */
    static boolean[] leaves(SwitchGraph g) {
        boolean[] leaf = new boolean[g.switches()];
        for (int lid = 1; lid <= g.top(); lid++) {
            int s = g.destSwitch(lid);
            if (s >= 0 && g.isCaLid(lid)) {
                leaf[s] = true;
            }
        }
        return leaf;
    }
}
