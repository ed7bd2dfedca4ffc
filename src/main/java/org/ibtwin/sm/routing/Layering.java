package org.ibtwin.sm.routing;

/**
 * Breaks credit loops across virtual lanes: puts the routes towards each CA LID (a tree, which alone has no cycle)
 * on the lowest lane whose channel dependency graph stays acyclic with the tree's dependencies added. The lane is
 * the paths' SL (SL n on VL n); {@link RoutingCheck} then proves every lane acyclic from the tables.
 *
 * <p>A lane's graph is a bit set over (channel, next port) as {@link RoutingCheck} keeps it; a new tree is tested
 * by a depth-first search from the channels it touches only (a new cycle must pass through one of them).
 */
final class Layering {
    private final SwitchGraph g;
    private final int[] base;
    private final int[] owner;
    private final int stride;
    private final int channels;
    private final long[][] lanes;
    private final int[] seen;
    private final int[] stack;
    private final int[] next;
    private int epoch;

    Layering(SwitchGraph g, int maxLanes) {
        this.g = g;
        int n = g.switches();
        base = new int[n + 1];
        int st = 1;
        for (int s = 0; s < n; s++) {
            base[s + 1] = base[s] + g.numPorts(s) + 1;
            st = Math.max(st, g.numPorts(s) + 1);
        }
        stride = st;
        channels = base[n];
        owner = new int[channels];
        for (int s = 0; s < n; s++) {
            for (int c = base[s]; c < base[s + 1]; c++) {
                owner[c] = s;
            }
        }
        lanes = new long[maxLanes][];
        seen = new int[channels];
        stack = new int[channels];
        next = new int[channels];
    }

    /**
     * The lane of every CA LID's routes, or null when some LID's tree fits no lane of the {@code maxLanes}.
     * Switch LIDs (management traffic, VL15) stay on lane 0.
     */
    static RoutingCheck.Layers assign(SwitchGraph g, Lfts lfts, int maxLanes) {
        Layering l = new Layering(g, maxLanes);
        int n = g.switches();
        boolean[] hasCa = new boolean[n];
        for (int lid = 1; lid <= g.top(); lid++) {
            if (g.isCaLid(lid) && g.destSwitch(lid) >= 0) {
                hasCa[g.destSwitch(lid)] = true;
            }
        }
        byte[] byLid = new byte[g.top() + 1];
        byte[][] bySource = null;
        int used = 1;
        int[] onTree = new int[n];
        int[] depCh = new int[n];
        int[] depPort = new int[n];
        for (int lid = 1; lid <= g.top(); lid++) {
            int t = g.destSwitch(lid);
            if (t < 0 || !g.isCaLid(lid)) {
                continue;
            }
            // the switches the routes to this LID pass, each with its dependency (into the next switch's port)
            int deps = 0;
            for (int src = 0; src < n; src++) {
                if (!hasCa[src]) {
                    continue;
                }
                int s = src;
                int hops = 0;
                while (s != t && onTree[s] != lid && hops++ <= n) {
                    onTree[s] = lid;
                    int p = lfts.port(s, lid);
                    int y = p == Lfts.NO_ROUTE || p > g.numPorts(s) ? -1 : g.neighbour(s, p);
                    if (y < 0) {
                        break;
                    }
                    if (y != t) {
                        int q = lfts.port(y, lid);
                        if (q != Lfts.NO_ROUTE && q <= g.numPorts(y)) {
                            depCh[deps] = l.base[s] + p;
                            depPort[deps] = q;
                            deps++;
                        }
                    }
                    s = y;
                }
            }
            int lane = -1;
            for (int k = 0; k < maxLanes && lane < 0; k++) {
                if (l.tryAdd(k, depCh, depPort, deps)) {
                    lane = k;
                }
            }
            if (lane < 0) {
                // the tree fits no lane whole: route by route, each on the lowest lane it fits
                byte[] perSource = new byte[n];
                for (int src = 0; src < n; src++) {
                    if (!hasCa[src] || src == t) {
                        continue;
                    }
                    int d = 0;
                    int s = src;
                    for (int hops = 0; s != t && hops <= n; hops++) {
                        int p = lfts.port(s, lid);
                        int y = p == Lfts.NO_ROUTE || p > g.numPorts(s) ? -1 : g.neighbour(s, p);
                        if (y < 0) {
                            break;
                        }
                        int q = y == t ? Lfts.NO_ROUTE : lfts.port(y, lid);
                        if (q != Lfts.NO_ROUTE && q <= g.numPorts(y)) {
                            depCh[d] = l.base[s] + p;
                            depPort[d] = q;
                            d++;
                        }
                        s = y;
                    }
                    int k = 0;
                    while (k < maxLanes && !l.tryAdd(k, depCh, depPort, d)) {
                        k++;
                    }
                    if (k == maxLanes) {
                        return null;
                    }
                    perSource[src] = (byte) k;
                    used = Math.max(used, k + 1);
                }
                if (bySource == null) {
                    bySource = new byte[g.top() + 1][];
                }
                bySource[lid] = perSource;
                continue;
            }
            byLid[lid] = (byte) lane;
            used = Math.max(used, lane + 1);
        }
        return new RoutingCheck.Layers(used, byLid, bySource);
    }

    /** Adds the dependencies to lane {@code k} when it stays acyclic; leaves the lane as it was otherwise. */
    private boolean tryAdd(int k, int[] depCh, int[] depPort, int deps) {
        long[] lane = lanes[k];
        if (lane == null) {
            lane = lanes[k] = new long[(int) (((long) channels * stride + 63) >>> 6)];
        }
        long[] added = new long[deps];
        int newOnes = 0;
        for (int i = 0; i < deps; i++) {
            long bit = (long) depCh[i] * stride + depPort[i];
            long mask = 1L << (bit & 63);
            int w = (int) (bit >>> 6);
            if ((lane[w] & mask) == 0) {
                lane[w] |= mask;
                added[newOnes++] = bit;
            }
        }
        if (newOnes == 0) {
            return true;
        }
        if (!cycleFrom(lane, depCh, deps)) {
            return true;
        }
        for (int i = 0; i < newOnes; i++) {
            lane[(int) (added[i] >>> 6)] &= ~(1L << (added[i] & 63));
        }
        return false;
    }

    /** Whether a cycle is reachable from the given channels: DFS, colours by epoch (seen: 2e-1 on stack, 2e done). */
    private boolean cycleFrom(long[] lane, int[] starts, int count) {
        epoch++;
        int onStack = 2 * epoch - 1;
        int done = 2 * epoch;
        for (int i = 0; i < count; i++) {
            int start = starts[i];
            if (seen[start] == onStack || seen[start] == done) {
                continue;
            }
            int sp = 0;
            stack[sp++] = start;
            seen[start] = onStack;
            next[start] = 0;
            while (sp > 0) {
                int v = stack[sp - 1];
                int s = owner[v];
                int to = g.neighbour(s, v - base[s]);
                int w = -1;
                if (to >= 0) {
                    long row = (long) v * stride;
                    while (next[v] < stride) {
                        long bit = row + next[v]++;
                        if ((lane[(int) (bit >>> 6)] & (1L << (bit & 63))) != 0) {
                            w = base[to] + (int) (bit - row);
                            break;
                        }
                    }
                }
                if (w < 0) {
                    seen[v] = done;
                    sp--;
                } else if (seen[w] == onStack) {
                    return true;
                } else if (seen[w] != done) {
                    seen[w] = onStack;
                    next[w] = 0;
                    stack[sp++] = w;
                }
            }
        }
        return false;
    }
}
