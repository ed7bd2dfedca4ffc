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
    /**
     * The egress ports of switch {@code s} that may carry a packet towards each switch {@code t}, asked port by
     * port: built once per switch; the port sets come out shared between destinations that have the same set (on a
     * fat tree, a handful per switch).
     */
    @FunctionalInterface
    interface Candidates {
        /** The test for switch {@code s}. */
        PortTest forSwitch(int s);
    }

    /** For one switch: which destinations each of its ports leads towards. */
    @FunctionalInterface
    interface PortTest {
        /**
         * For port {@code p} (which leads to a switch), sets bit {@code p & 63} of {@code masks[t * words + (p >> 6)]}
         * for every switch {@code t} the port leads towards. A loop over t: no call per (port, destination).
         */
        void mark(int p, long[] masks, int words);
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

    /**
     * The ports on a shortest path: port p of switch s leads towards t when its neighbour is one hop nearer to t
     * than s is ({@code hops} from {@link #hopMatrix}; hop counts are symmetric, so {@code hops[s]} is the row of
     * distances from s, read along t).
     */
    static Candidates shortestPaths(SwitchGraph g, byte[][] hops) {
        return s -> {
            byte[] here = hops[s];
            return (p, masks, words) -> {
                byte[] via = hops[g.neighbour(s, p)];
                long bit = 1L << (p & 63);
                int w = p >> 6;
                for (int t = 0; t < via.length; t++) {
                    int d = here[t] & 0xff;
                    if (d != INF && (via[t] & 0xff) == d - 1) {
                        masks[t * words + w] |= bit;
                    }
                }
            };
        };
    }

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
        Sets sets = candidateSets(g, s, candidates.forSwitch(s));
        boolean leastUsed = selector == LEAST_USED;
        int[] cursor = new int[sets.sets.length];
        int[] floor = new int[sets.sets.length];
        for (int lid = 1; lid <= g.top(); lid++) {
            int t = g.destSwitch(lid);
            if (t < 0) {
                continue;
            }
            int port;
            boolean counts = g.isCaLid(lid);
            if (t == s) {
                port = g.destPort(lid);
            } else {
                int k = sets.setOf[t];
                if (k < 0) {
                    continue;
                }
                int[] c = sets.sets[k];
                if (c.length == 1) {
                    port = c[0];
                } else if (leastUsed) {
                    port = leastUsed(c, load, cursor, floor, k, counts);
                } else {
                    port = selector.select(s, lid, c, load);
                }
                if (counts) {
                    load[port]++;
                }
            }
            lft[lid] = (byte) port;
        }
        return lft;
    }

    /**
     * The lowest-numbered least-loaded port of set {@code k}, in amortized constant time. Loads only grow, so for
     * each set a floor (at most the set's least load) and a cursor are kept: every port before the cursor is
     * loaded above the floor, and the first port from the cursor on whose load equals the floor is the answer; when
     * none is left the floor is raised to the least load and the cursor starts again.
     */
    private static int leastUsed(int[] c, int[] load, int[] cursor, int[] floor, int k, boolean counts) {
        while (true) {
            int i = cursor[k];
            while (i < c.length && load[c[i]] != floor[k]) {
                i++;
            }
            if (i < c.length) {
                cursor[k] = counts ? i + 1 : i;
                return c[i];
            }
            int min = Integer.MAX_VALUE;
            for (int p : c) {
                min = Math.min(min, load[p]);
            }
            floor[k] = min;
            cursor[k] = 0;
        }
    }

    /** The distinct candidate sets of one switch, and which one leads to each switch t (-1: none). */
    record Sets(int[][] sets, int[] setOf) {
    }

    /** For every switch t, the ports of {@code s} that lead towards it; equal sets are counted once. */
    static Sets candidateSets(SwitchGraph g, int s, PortTest test) {
        int n = g.switches();
        int np = g.numPorts(s);
        int words = (np >> 6) + 1;
        long[] masks = new long[n * words];
        for (int p = 1; p <= np; p++) {
            if (g.neighbour(s, p) >= 0) {
                test.mark(p, masks, words);
            }
        }
        java.util.Arrays.fill(masks, s * words, s * words + words, 0);
        java.util.Map<MaskKey, Integer> index = new java.util.HashMap<>();
        java.util.List<int[]> sets = new java.util.ArrayList<>();
        int[] setOf = new int[n];
        int last = -1;
        for (int t = 0; t < n; t++) {
            int from = t * words;
            boolean empty = true;
            for (int w = 0; w < words; w++) {
                empty &= masks[from + w] == 0;
            }
            if (empty) {
                setOf[t] = -1;
                continue;
            }
            if (last >= 0 && java.util.Arrays.equals(masks, from, from + words, masks, last * words,
                    last * words + words)) {
                setOf[t] = setOf[last];
                last = t;
                continue;
            }
            long[] key = java.util.Arrays.copyOfRange(masks, from, from + words);
            MaskKey mk = new MaskKey(key);
            Integer at = index.get(mk);
            if (at == null) {
                at = sets.size();
                sets.add(ports(key));
                index.put(mk, at);
            }
            setOf[t] = at;
            last = t;
        }
        return new Sets(sets.toArray(new int[0][]), setOf);
    }

    /** The ports whose bits are set, ascending. */
    private static int[] ports(long[] bits) {
        int c = 0;
        for (long b : bits) {
            c += Long.bitCount(b);
        }
        int[] out = new int[c];
        int k = 0;
        for (int w = 0; w < bits.length; w++) {
            long b = bits[w];
            while (b != 0) {
                out[k++] = w * 64 + Long.numberOfTrailingZeros(b);
                b &= b - 1;
            }
        }
        return out;
    }

    /** A port set as a bit mask, for counting equal sets once. */
    private record MaskKey(long[] bits) {
        @Override
        public boolean equals(Object o) {
            return o instanceof MaskKey m && java.util.Arrays.equals(bits, m.bits);
        }

        @Override
        public int hashCode() {
            return java.util.Arrays.hashCode(bits);
        }

        @Override
        public String toString() {
            return java.util.Arrays.toString(bits);
        }
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
}
