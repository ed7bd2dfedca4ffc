package org.ibtwin.sm.routing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * updn: up*&#47;down* routing, free of credit loops on any topology ({@link UpDownPaths}). The roots come from a list
 * of switch GUIDs (OpenSM's root_guid_file) or are found: the switches closest to the farthest leaf (least
 * eccentricity over the switches that have CAs), which on a fat tree is its top level and on a mesh its centre.
 * Ranks are hops from the nearest root. When the roots it found leave a switch with CAs without a legal path to
 * some switch (roots that have CAs themselves, on a mesh), it keeps one of them: a single root routes everything.
 * It declines when no root can be found, or when the roots of the list leave a switch with CAs without a path.
 */
public final class UpDownEngine implements RoutingEngine {
    public static final String NAME = "updn";

    private final List<Long> rootGuids;

    /** @param rootGuids switch GUIDs to use as roots; null or empty: find them */
    public UpDownEngine(List<Long> rootGuids) {
        this.rootGuids = rootGuids == null ? List.of() : List.copyOf(rootGuids);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Outcome route(SwitchGraph g) {
        if (g.switches() == 0) {
            return new Routed(new Lfts(new byte[0][], g.top()), "no switches",
                    Reroute.shortest(Balancer.LEAST_USED, 0));
        }
        boolean[] roots = new boolean[g.switches()];
        String how;
        int given = 0;
        if (!rootGuids.isEmpty()) {
            Map<Long, Integer> byGuid = new HashMap<>();
            for (int s = 0; s < g.switches(); s++) {
                byGuid.put(g.guid(s), s);
            }
            List<String> missing = new ArrayList<>();
            for (long guid : rootGuids) {
                Integer s = byGuid.get(guid);
                if (s == null) {
                    missing.add(String.format("0x%016x", guid));
                } else if (!roots[s]) {
                    roots[s] = true;
                    given++;
                }
            }
            how = given + " root" + (given == 1 ? "" : "s") + " from the root GUID list"
                    + (missing.isEmpty() ? "" : " (not switches of this fabric: " + String.join(", ", missing) + ")");
        } else {
            how = null;
        }
        if (given == 0) {
            int found = findRoots(g, roots);
            if (found == 0) {
                return new Declined("no root switches" + (rootGuids.isEmpty() ? " found" : " in the root GUID list "
                        + "and none found"));
            }
            how = (how == null ? "" : how + "; ") + found + " root" + (found == 1 ? "" : "s") + " found: "
                    + names(g, roots);
        }
        int[] rank = UpDownPaths.distanceFrom(g, roots);
        UpDownPaths paths = new UpDownPaths(g, rank);
        String bad = paths.unroutable();
        if (bad != null && given == 0 && count(roots) > 1) {
            // found roots that leave a CA switch without a legal path (roots that are leaves themselves, say): one
            // root always routes everything, up the BFS tree to it and down again
            int one = -1;
            for (int sw = 0; sw < roots.length; sw++) {
                if (roots[sw] && (one < 0 || Long.compareUnsigned(g.guid(sw), g.guid(one)) < 0)) {
                    one = sw;
                }
            }
            java.util.Arrays.fill(roots, false);
            roots[one] = true;
            how += "; no up*/down* path " + bad + " with them all, so one root: " + g.name(one);
            rank = UpDownPaths.distanceFrom(g, roots);
            paths = new UpDownPaths(g, rank);
            bad = paths.unroutable();
        }
        if (bad != null) {
            return new Declined("no up*/down* path " + bad + " with " + how);
        }
        int unrouted = paths.unroutedSwitchPairs();
        return new Routed(Balancer.fill(g, paths::candidates, Balancer.LEAST_USED), how + (unrouted == 0 ? ""
                : "; " + unrouted + " switch-to-switch routes between roots left out (no up*/down* path)"),
                Reroute.upDown(rank, Balancer.LEAST_USED));
    }

    /** Marks the switches of least eccentricity over the leaves; returns how many. */
    static int findRoots(SwitchGraph g, boolean[] roots) {
        boolean[] leaf = UpDownPaths.leaves(g);
        int n = g.switches();
        int[] ecc = new int[n];
        boolean anyLeaf = false;
        for (int t = 0; t < n; t++) {
            if (!leaf[t]) {
                continue;
            }
            anyLeaf = true;
            boolean[] src = new boolean[n];
            src[t] = true;
            int[] d = UpDownPaths.distanceFrom(g, src);
            for (int s = 0; s < n; s++) {
                ecc[s] = Math.max(ecc[s], d[s]);
            }
        }
        if (!anyLeaf) {
            return 0;
        }
        int best = Arrays.stream(ecc).min().orElse(Integer.MAX_VALUE);
        if (best == Integer.MAX_VALUE) {
            return 0;
        }
        int count = 0;
        for (int s = 0; s < n; s++) {
            if (ecc[s] == best) {
                roots[s] = true;
                count++;
            }
        }
        return count;
    }

    private static int count(boolean[] set) {
        int c = 0;
        for (boolean b : set) {
            c += b ? 1 : 0;
        }
        return c;
    }

    static String names(SwitchGraph g, boolean[] set) {
        List<String> out = new ArrayList<>();
        for (int s = 0; s < set.length; s++) {
            if (set[s]) {
                if (out.size() == 4) {
                    out.add("...");
                    break;
                }
                out.add(g.name(s));
            }
        }
        return String.join(", ", out);
    }
}
