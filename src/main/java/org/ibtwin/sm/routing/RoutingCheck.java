package org.ibtwin.sm.routing;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Checks routes instead of trusting them. It follows the LFTs from every switch that has CAs to every CA LID and
 * reports pairs not reached (a missing entry, a loop, a wrong last hop); counts every CA pair's switch hops against
 * the fewest the fabric allows and the routes each switch-to-switch channel carries; and builds the channel
 * dependency graph of the routes (a channel is one direction of a switch-to-switch link; a route that leaves one
 * channel for the next makes a dependency), one graph per virtual lane as the routes' {@link Layers} put them, to
 * tell whether any has a cycle: a credit loop that can deadlock the fabric. Deadlock freedom is thus proven from the
 * tables, never assumed from the engine.
 *
 * <p>Counting is by CA pairs: a route from a switch stands for every CA on it, so a switch with 4 CAs sending to a
 * LID counts 4 pairs and loads each channel of the route by 4. A CA's route to itself is not a pair.
 */
public final class RoutingCheck {

    /**
     * What a check found.
     *
     * @param routes        switch-to-CA-LID routes followed (one per switch with CAs and CA LID)
     * @param pairs         CA pairs those routes stand for
     * @param unreached     CA pairs not delivered
     * @param loops         routes that went round (more hops than switches)
     * @param failures      the first few failures, each naming the LID and switch
     * @param layers        the virtual lanes the routes use
     * @param cyclicLayers  the lanes whose dependency graph has a cycle (empty: deadlock-free)
     * @param dependencies  distinct channel dependencies, over all lanes
     * @param maxHops       most switch-to-switch hops of a delivered pair
     * @param meanHops      mean hops over delivered pairs
     * @param meanMinHops   mean of the fewest hops possible over the same pairs
     * @param longer        delivered pairs routed over more hops than the fewest possible
     * @param maxStretch    most extra hops of a pair
     * @param channels      switch-to-switch channels (link directions)
     * @param maxRoutes     most CA pairs a channel carries
     * @param meanRoutes    mean CA pairs over the channels
     */
    public record Report(long routes, long pairs, long unreached, long loops, List<String> failures, int layers,
                         List<Integer> cyclicLayers, long dependencies, int maxHops, double meanHops,
                         double meanMinHops, long longer, int maxStretch, int channels, long maxRoutes,
                         double meanRoutes) {
        /** Whether any lane's channel dependency graph has a cycle. */
        public boolean creditLoop() {
            return !cyclicLayers.isEmpty();
        }

        /** Every pair delivered and no credit loop. */
        public boolean ok() {
            return unreached == 0 && !creditLoop();
        }

        /** The busiest channel over the mean (1 is perfectly even; 0 with no channel). */
        public double balance() {
            return meanRoutes == 0 ? 0 : maxRoutes / meanRoutes;
        }

        /** The report as lines of text, one fact a line. */
        public String text() {
            StringBuilder sb = new StringBuilder();
            sb.append(String.format(Locale.ROOT, "  reachability: %,d CA pairs, %,d unreached, %,d loops%n", pairs,
                    unreached, loops));
            for (String f : failures) {
                sb.append("    ").append(f).append('\n');
            }
            sb.append(String.format(Locale.ROOT, "  deadlock: %s (%d VL%s, %,d channel dependencies%s)%n",
                    creditLoop() ? "CREDIT LOOP" : "free", layers, layers == 1 ? "" : "s", dependencies,
                    creditLoop() ? ", cycle on VL " + cyclicLayers : ", every VL's graph acyclic"));
            sb.append(String.format(Locale.ROOT, "  path length: max %d, mean %.3f switch hops; minimum mean %.3f; "
                    + "%,d pairs longer than the minimum (most +%d)%n", maxHops, meanHops, meanMinHops, longer,
                    maxStretch));
            sb.append(String.format(Locale.ROOT, "  channel load: %,d channels, max %,d, mean %.1f CA pairs a "
                    + "channel, max/mean %.2f%n", channels, maxRoutes, meanRoutes, balance()));
            return sb.toString();
        }
    }

    /**
     * The virtual lane of every route (the path's SL, SL n on VL n): by destination LID ({@code byLid[lid]}), except
     * for LIDs whose routes were split by source ({@code bySource[lid][source switch]}); or everything on VL 0.
     */
    public record Layers(int count, byte[] byLid, byte[][] bySource) {
        /** One lane for every route. */
        public static final Layers ONE = new Layers(1, null, null);

        public Layers(int count, byte[] byLid) {
            this(count, byLid, null);
        }

        /** The lane of the routes to {@code lid} (of those from the first source, where split by source). */
        public int of(int lid) {
            return byLid == null || lid >= byLid.length ? 0 : byLid[lid];
        }

        /** The lane of the route from switch {@code src} to {@code lid}. */
        public int of(int src, int lid) {
            if (bySource != null && lid < bySource.length && bySource[lid] != null && src >= 0
                    && src < bySource[lid].length) {
                return bySource[lid][src];
            }
            return of(lid);
        }
    }

    private RoutingCheck() {
    }

    /** Checks {@code lfts} with every route on one lane. */
    public static Report check(SwitchGraph g, Lfts lfts) {
        return check(g, lfts, Layers.ONE);
    }

    public static Report check(SwitchGraph g, Lfts lfts, Layers layers) {
        int n = g.switches();
        int[] cas = new int[n];
        for (int lid = 1; lid <= g.top(); lid++) {
            if (g.isCaLid(lid) && g.destSwitch(lid) >= 0) {
                cas[g.destSwitch(lid)]++;
            }
        }
        int stride = 1;
        int[] base = new int[n + 1];
        for (int s = 0; s < n; s++) {
            base[s + 1] = base[s] + g.numPorts(s) + 1;
            stride = Math.max(stride, g.numPorts(s) + 1);
        }
        int channels = base[n];
        int lanes = Math.max(1, layers.count());
        long[][] deps = new long[lanes][];
        long[] load = new long[channels];
        byte[][] hops = Balancer.hopMatrix(g);
        List<String> failures = new ArrayList<>();
        long routes = 0;
        long pairs = 0;
        long unreached = 0;
        long loops = 0;
        long hopSum = 0;
        long minSum = 0;
        long delivered = 0;
        long longer = 0;
        int maxHops = 0;
        int maxStretch = 0;
        for (int src = 0; src < n; src++) {
            if (cas[src] == 0) {
                continue;
            }
            for (int lid = 1; lid <= g.top(); lid++) {
                int t = g.destSwitch(lid);
                if (t < 0 || !g.isCaLid(lid)) {
                    continue;
                }
                routes++;
                long w = src == t ? cas[src] - 1 : cas[src];
                pairs += w;
                int lane = Math.min(lanes - 1, Math.max(0, layers.of(src, lid)));
                long[] dep = deps[lane];
                if (dep == null) {
                    dep = deps[lane] = new long[(int) (((long) channels * stride + 63) >>> 6)];
                }
                int s = src;
                int prev = -1;
                int h = 0;
                String fail = null;
                while (true) {
                    int p = lfts.port(s, lid);
                    if (p == Lfts.NO_ROUTE || p > g.numPorts(s)) {
                        fail = "no route at " + g.name(s);
                        break;
                    }
                    if (s == t) {
                        if (p != g.destPort(lid)) {
                            fail = "wrong last hop at " + g.name(s) + " (port " + p + ", the LID is behind port "
                                    + g.destPort(lid) + ")";
                        }
                        break;
                    }
                    int next = g.neighbour(s, p);
                    if (next < 0) {
                        fail = "port " + p + " of " + g.name(s) + " leads to no switch";
                        break;
                    }
                    int ch = base[s] + p;
                    if (prev >= 0) {
                        long bit = (long) prev * stride + p;
                        dep[(int) (bit >>> 6)] |= 1L << (bit & 63);
                    }
                    load[ch] += w;
                    prev = ch;
                    s = next;
                    if (++h > n) {
                        fail = "loop";
                        loops++;
                        break;
                    }
                }
                if (fail != null) {
                    unreached += w;
                    if (failures.size() < 10) {
                        failures.add("LID " + lid + " from " + g.name(src) + ": " + fail);
                    }
                    continue;
                }
                int min = hops[t][src] & 0xff;
                maxHops = Math.max(maxHops, h);
                delivered += w;
                hopSum += w * h;
                minSum += w * min;
                if (h > min) {
                    longer += w;
                    maxStretch = Math.max(maxStretch, h - min);
                }
            }
        }
        List<Integer> cyclic = new ArrayList<>();
        long dependencies = 0;
        int used = 0;
        for (int lane = 0; lane < lanes; lane++) {
            if (deps[lane] == null) {
                continue;
            }
            used = lane + 1;
            for (long word : deps[lane]) {
                dependencies += Long.bitCount(word);
            }
            if (hasCycle(g, base, stride, deps[lane])) {
                cyclic.add(lane);
            }
        }
        int linked = 0;
        long maxLoad = 0;
        long loadSum = 0;
        for (int s = 0; s < n; s++) {
            for (int p = 1; p <= g.numPorts(s); p++) {
                if (g.neighbour(s, p) >= 0) {
                    linked++;
                    maxLoad = Math.max(maxLoad, load[base[s] + p]);
                    loadSum += load[base[s] + p];
                }
            }
        }
        return new Report(routes, pairs, unreached, loops, failures, Math.max(1, used), cyclic, dependencies, maxHops,
                delivered == 0 ? 0 : (double) hopSum / delivered, delivered == 0 ? 0 : (double) minSum / delivered,
                longer, maxStretch, linked, maxLoad, linked == 0 ? 0 : (double) loadSum / linked);
    }

    /**
     * Whether one lane's dependency graph has a cycle: channel {@code c} (port {@code p} of switch {@code s}) depends
     * on port {@code q} of the switch it leads to when bit {@code c * stride + q} is set. Iterative DFS.
     */
    static boolean hasCycle(SwitchGraph g, int[] base, int stride, long[] dep) {
        int n = g.switches();
        int channels = base[n];
        int[] owner = new int[channels];
        for (int s = 0; s < n; s++) {
            for (int c = base[s]; c < base[s + 1]; c++) {
                owner[c] = s;
            }
        }
        byte[] color = new byte[channels];   // 0 white, 1 on stack, 2 done
        int[] stack = new int[channels];
        int[] next = new int[channels];
        for (int start = 0; start < channels; start++) {
            if (color[start] != 0) {
                continue;
            }
            int sp = 0;
            stack[sp++] = start;
            color[start] = 1;
            next[start] = 0;
            while (sp > 0) {
                int v = stack[sp - 1];
                int s = owner[v];
                int p = v - base[s];
                int to = g.neighbour(s, p);
                int w = -1;
                if (to >= 0) {
                    while (next[v] < stride) {
                        int q = next[v]++;
                        long bit = (long) v * stride + q;
                        if ((dep[(int) (bit >>> 6)] & (1L << (bit & 63))) != 0) {
                            w = base[to] + q;
                            break;
                        }
                    }
                }
                if (w < 0) {
                    color[v] = 2;
                    sp--;
                } else if (color[w] == 1) {
                    return true;
                } else if (color[w] == 0) {
                    color[w] = 1;
                    next[w] = 0;
                    stack[sp++] = w;
                }
            }
        }
        return false;
    }
}
