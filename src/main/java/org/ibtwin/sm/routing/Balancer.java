package org.ibtwin.sm.routing;

import java.util.stream.IntStream;

/**
 * Fills LFTs from per-destination candidate ports, as the engines share it. For every switch and every LID (in LID
 * order) it asks the engine's {@link Candidates} which egress ports lead to the LID's switch (each on a path the
 * engine allows), then lets a {@link Selector} pick one; by default the least used so far on that switch, as
 * OpenSM's min-hop balancing does. Only CA and router LIDs count as use (switch LIDs carry management traffic
 * alone, as OpenSM's default port_profile_switch_nodes FALSE has it). Switches are independent of each other, so
 * they are filled in parallel.
 */
final class Balancer {
    /** The egress ports of switch {@code s} that may carry a packet towards switch {@code t} (s != t). */
    @FunctionalInterface
    interface Candidates {
        /** Candidate ports in ascending order, empty when {@code t} cannot be reached. */
        int[] ports(int s, int t);
    }

    /** Picks one of the candidates for a LID. */
    @FunctionalInterface
    interface Selector {
        int select(int s, int lid, int[] candidates, int[] load);
    }

    /** The least-used candidate; the lowest-numbered among equals. */
    static final Selector LEAST_USED = (s, lid, c, load) -> {
        int best = c[0];
        for (int i = 1; i < c.length; i++) {
            if (load[c[i]] < load[best]) {
                best = c[i];
            }
        }
        return best;
    };

    private static final int[] NONE = new int[0];

    private Balancer() {
    }

    /** The LFTs of every switch of {@code g}. */
    static Lfts fill(SwitchGraph g, Candidates candidates, Selector selector) {
        int switches = g.switches();
        int top = g.top();
        byte[][] tables = new byte[switches][];
        IntStream.range(0, switches).parallel().forEach(s -> tables[s] = fillOne(g, s, candidates, selector));
        return new Lfts(tables, top);
    }

    private static byte[] fillOne(SwitchGraph g, int s, Candidates candidates, Selector selector) {
        byte[] lft = Lfts.empty(g.top());
        int[] load = new int[g.numPorts(s) + 1];
        int[][] cache = new int[g.switches()][];
        for (int lid = 1; lid <= g.top(); lid++) {
            int t = g.destSwitch(lid);
            if (t < 0) {
                continue;
            }
            int port;
            if (t == s) {
                port = g.destPort(lid);
            } else {
                int[] c = cache[t];
                if (c == null) {
                    c = candidates.ports(s, t);
                    cache[t] = c == null ? NONE : c;
                }
                if (c.length == 0) {
                    continue;
                }
                port = c.length == 1 ? c[0] : selector.select(s, lid, c, load);
                if (g.isCaLid(lid)) {
                    load[port]++;
                }
            }
            lft[lid] = (byte) port;
        }
        return lft;
    }

    /** Hop counts between switches: {@code hops[t][s]}, 255 when unreachable. BFS from every switch, in parallel. */
    static byte[][] hopMatrix(SwitchGraph g) {
        int n = g.switches();
        byte[][] hops = new byte[n][];
        IntStream.range(0, n).parallel().forEach(t -> hops[t] = bfs(g, t));
        return hops;
    }

    static final int INF = 0xff;

    private static byte[] bfs(SwitchGraph g, int t) {
        int n = g.switches();
        byte[] d = new byte[n];
        java.util.Arrays.fill(d, (byte) INF);
        int[] queue = new int[n];
        int head = 0;
        int tail = 0;
        d[t] = 0;
        queue[tail++] = t;
        while (head < tail) {
            int x = queue[head++];
            int dx = d[x] & 0xff;
            if (dx >= INF - 1) {
                continue;
            }
            for (int p = 1; p <= g.numPorts(x); p++) {
                int y = g.neighbour(x, p);
                if (y >= 0 && (d[y] & 0xff) == INF) {
                    d[y] = (byte) (dx + 1);
                    queue[tail++] = y;
                }
            }
        }
        return d;
    }

    /** Ports of {@code s} whose neighbour satisfies {@code keep}, ascending. */
    static int[] ports(SwitchGraph g, int s, java.util.function.IntPredicate keepNeighbour) {
        int[] out = new int[g.numPorts(s)];
        int k = 0;
        for (int p = 1; p <= g.numPorts(s); p++) {
            int n = g.neighbour(s, p);
            if (n >= 0 && keepNeighbour.test(n)) {
                out[k++] = p;
            }
        }
        return java.util.Arrays.copyOf(out, k);
    }
}
