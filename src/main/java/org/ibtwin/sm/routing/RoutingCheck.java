package org.ibtwin.sm.routing;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks routes instead of trusting them: follows the LFTs from every switch that has CAs to every CA LID and
 * reports LIDs not reached (a missing entry, a loop, a wrong last hop); and builds the channel dependency graph of
 * those routes (a channel is one direction of a switch-to-switch link; a route that leaves one channel for the next
 * makes a dependency) to tell whether it has a cycle, i.e. whether credit loops can deadlock the fabric.
 */
public final class RoutingCheck {

    /** What a check found: the CA routes followed, the first few failures, and whether the CDG has a cycle. */
    public record Report(long routes, long unreached, List<String> failures, boolean creditLoop, long dependencies,
                         int maxHops) {
        public boolean ok() {
            return unreached == 0 && !creditLoop;
        }
    }

    private RoutingCheck() {
    }

    public static Report check(SwitchGraph g, Lfts lfts) {
        boolean[] leaf = UpDownPaths.leaves(g);
        int n = g.switches();
        // channel id: port p of switch s, leaving s
        int[] base = new int[n + 1];
        for (int s = 0; s < n; s++) {
            base[s + 1] = base[s] + g.numPorts(s) + 1;
        }
        Set<Long> deps = new HashSet<>();
        List<String> failures = new ArrayList<>();
        long routes = 0;
        long unreached = 0;
        int maxHops = 0;
        for (int src = 0; src < n; src++) {
            if (!leaf[src]) {
                continue;
            }
            for (int lid = 1; lid <= g.top(); lid++) {
                int t = g.destSwitch(lid);
                if (t < 0 || !g.isCaLid(lid)) {
                    continue;
                }
                routes++;
                int s = src;
                int prev = -1;
                int hops = 0;
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
                        deps.add(((long) prev << 32) | ch);
                    }
                    prev = ch;
                    s = next;
                    if (++hops > n) {
                        fail = "loop";
                        break;
                    }
                }
                maxHops = Math.max(maxHops, hops);
                if (fail != null) {
                    unreached++;
                    if (failures.size() < 10) {
                        failures.add("LID " + lid + " from " + g.name(src) + ": " + fail);
                    }
                }
            }
        }
        return new Report(routes, unreached, failures, hasCycle(deps, base[n]), deps.size(), maxHops);
    }

    /** Whether the dependency graph (edges prev -> next, packed in longs) has a cycle: iterative DFS. */
    static boolean hasCycle(Set<Long> deps, int channels) {
        Map<Integer, List<Integer>> out = new HashMap<>();
        for (long d : deps) {
            out.computeIfAbsent((int) (d >>> 32), k -> new ArrayList<>()).add((int) d);
        }
        byte[] color = new byte[channels];   // 0 white, 1 on stack, 2 done
        int[] stack = new int[channels];
        int[] next = new int[channels];
        for (int start = 0; start < channels; start++) {
            if (color[start] != 0 || !out.containsKey(start)) {
                continue;
            }
            int sp = 0;
            stack[sp++] = start;
            color[start] = 1;
            next[start] = 0;
            while (sp > 0) {
                int v = stack[sp - 1];
                List<Integer> es = out.getOrDefault(v, List.of());
                if (next[v] < es.size()) {
                    int w = es.get(next[v]++);
                    if (color[w] == 1) {
                        return true;
                    }
                    if (color[w] == 0) {
                        color[w] = 1;
                        next[w] = 0;
                        stack[sp++] = w;
                    }
                } else {
                    color[v] = 2;
                    sp--;
                }
            }
        }
        return false;
    }
}
