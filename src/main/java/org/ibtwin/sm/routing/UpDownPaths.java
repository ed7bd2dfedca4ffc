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
    /** {@code down[s][t]}: hops from s down to t using down moves only; INF when it cannot. */
    private final byte[][] down;
    /** {@code any[s][t]}: hops of s's legal route to t; INF when none. */
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
        this.down = new byte[n][n];
        this.any = new byte[n][n];
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
        for (int s = 0; s < n; s++) {
            down[s][t] = dn[s];
            any[s][t] = an[s];
        }
    }

    /**
     * For switch {@code s}: whether port p continues a legal route to t. From a switch that reaches t by down moves,
     * a down port one hop closer down; from any other, an up port one hop closer along the legal route.
     */
    Balancer.PortTest candidates(int s) {
        byte[] ds = down[s];
        byte[] as = any[s];
        return (p, masks, words) -> {
            int n = g.neighbour(s, p);
            boolean up = isAbove(n, s);
            byte[] dn = down[n];
            byte[] an = any[n];
            long bit = 1L << (p & 63);
            int w = p >> 6;
            for (int t = 0; t < ds.length; t++) {
                int d = ds[t] & 0xff;
                boolean ok;
                if (d != INF) {
                    ok = !up && (dn[t] & 0xff) == d - 1;
                } else {
                    int a = as[t] & 0xff;
                    ok = up && a != INF && (an[t] & 0xff) == a - 1;
                }
                if (ok) {
                    masks[t * words + w] |= bit;
                }
            }
        };
    }

    /**
     * The first pair of connected switches, the first a leaf (it has CAs), with no legal path between them, as
     * "from X to Y", or null. Between two switches that are not leaves there may be none (two roots: neither can go
     * up, and down from one never leads up to the other); only management traffic between switches would take
     * such a route, and OpenSM leaves it unrouted too unless told to connect the roots.
     */
    String unroutable() {
        boolean[] leaf = leaves(g);
        for (int s = 0; s < g.switches(); s++) {
            if (!leaf[s]) {
                continue;
            }
            for (int t = 0; t < g.switches(); t++) {
                if (component[s] == component[t] && (any[s][t] & 0xff) == INF) {
                    return "from " + g.name(s) + " to " + g.name(t);
                }
            }
        }
        return null;
    }

    /** Ordered pairs of connected switches with no legal path between them (switch-to-switch routes left out). */
    int unroutedSwitchPairs() {
        int c = 0;
        for (int s = 0; s < g.switches(); s++) {
            for (int t = 0; t < g.switches(); t++) {
                if (s != t && component[s] == component[t] && (any[s][t] & 0xff) == INF) {
                    c++;
                }
            }
        }
        return c;
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
