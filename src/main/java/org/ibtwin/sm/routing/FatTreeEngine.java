package org.ibtwin.sm.routing;

import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * ftree: routing for fat trees, so that shift all-to-all runs without two flows sharing a link where the tree has
 * the links to keep them apart. The leaves are the switches with CAs; a switch's level is its distance from the
 * nearest leaf. The fabric is a fat tree when every switch-to-switch link joins adjacent levels, every switch below
 * the top level has a link up, and every leaf sits at the bottom; otherwise ftree declines and says why.
 *
 * <p>Routes are up*&#47;down* with the top level as roots (so free of credit loops), and the up port for a CA's LID
 * is chosen by destination, not by load (d-mod-k): number the CA LIDs in leaf order, then a switch at level
 * {@code l} with {@code u} up ports takes up port {@code (j / k_l) mod u} for LID number {@code j}, where
 * {@code k_l} is the product of the up-port counts of the levels below. Every route to one destination thus meets
 * at the same top switch and comes down one path, and consecutive destinations spread over all up ports. Among
 * parallel links down, and for switch LIDs, the least-used port is taken: the destinations of one leaf share their
 * d-mod-k figure above it, and would all come down one of the links.
 */
public final class FatTreeEngine implements RoutingEngine {
    public static final String NAME = "ftree";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Outcome route(SwitchGraph g) {
        int n = g.switches();
        if (n == 0) {
            return new Declined("no switches: not a fat tree");
        }
        boolean[] leaf = UpDownPaths.leaves(g);
        if (!any(leaf)) {
            return new Declined("no CAs on any switch: not a fat tree");
        }
        int[] level = UpDownPaths.distanceFrom(g, leaf);
        int top = 0;
        for (int s = 0; s < n; s++) {
            if (level[s] == Integer.MAX_VALUE) {
                return new Declined("switch " + g.name(s) + " is not connected to any leaf: not a fat tree");
            }
            top = Math.max(top, level[s]);
        }
        int[] ups = new int[n];
        for (int s = 0; s < n; s++) {
            for (int p = 1; p <= g.numPorts(s); p++) {
                int m = g.neighbour(s, p);
                if (m < 0) {
                    continue;
                }
                int diff = level[m] - level[s];
                if (diff == 0) {
                    return new Declined("not a fat tree: " + g.name(s) + " and " + g.name(m) + " are linked but "
                            + "both at level " + level[s] + (level[s] == 0 ? " (both have CAs)" : ""));
                }
                if (diff == 1) {
                    ups[s]++;
                }
            }
            if (level[s] < top && ups[s] == 0) {
                return new Declined("not a fat tree: " + g.name(s) + " at level " + level[s] + " has no link up, "
                        + "below the top level " + top);
            }
        }
        if (top == 0 && n > 1) {
            return new Declined("not a fat tree: " + n + " switches with CAs and no switch above them");
        }
        // ranks for up/down: the top level is the root level
        int[] rank = new int[n];
        for (int s = 0; s < n; s++) {
            rank[s] = top - level[s];
        }
        UpDownPaths paths = new UpDownPaths(g, rank);
        String bad = paths.unroutable();
        if (bad != null) {
            return new Declined("not a fat tree: no up/down path " + bad);
        }
        // d-mod-k: CA LIDs numbered in leaf order, then port, then LID
        int[] index = caIndex(g);
        int[] typicalUps = new int[top + 1];
        for (int s = 0; s < n; s++) {
            typicalUps[level[s]] = Math.max(typicalUps[level[s]], ups[s]);
        }
        long[] divisor = new long[top + 2];
        divisor[0] = 1;
        for (int l = 0; l <= top; l++) {
            divisor[l + 1] = divisor[l] * Math.max(1, typicalUps[l]);
        }
        Balancer.Selector dmodk = (s, lid, c, load) -> {
            int j = index[lid];
            int below = g.neighbour(s, c[0]);
            if (j < 0 || (c.length > 1 && below >= 0 && level[below] < level[s])) {
                // switch LIDs, and parallel links down: the least used (all of a leaf's CAs share one d-mod-k
                // figure here, so d-mod-k would send them all down one of the parallel links)
                return Balancer.LEAST_USED.select(s, lid, c, load);
            }
            long k = divisor[level[s]];
            return c[(int) ((j / k) % c.length)];
        };
        Lfts lfts = Balancer.fill(g, paths::candidates, dmodk);
        int leaves = 0;
        for (boolean b : leaf) {
            leaves += b ? 1 : 0;
        }
        int unrouted = paths.unroutedSwitchPairs();
        return new Routed(lfts, (top + 1) + " levels, " + leaves + " leaves, " + count(level, top)
                + " switches at the top" + (unrouted == 0 ? "" : "; " + unrouted + " switch-to-switch routes "
                + "between top switches left out"));
    }

    /** For each LID, its number among the CA LIDs sorted by (leaf, port, LID); -1 for switch LIDs and unused. */
    private static int[] caIndex(SwitchGraph g) {
        int[] idx = new int[g.top() + 1];
        Arrays.fill(idx, -1);
        Integer[] lids = IntStream.rangeClosed(1, g.top())
                .filter(l -> g.destSwitch(l) >= 0 && g.isCaLid(l)).boxed().toArray(Integer[]::new);
        Arrays.sort(lids, Comparator.<Integer>comparingInt(g::destSwitch).thenComparingInt(g::destPort)
                .thenComparingInt(l -> l));
        for (int j = 0; j < lids.length; j++) {
            idx[lids[j]] = j;
        }
        return idx;
    }

    private static boolean any(boolean[] b) {
        for (boolean x : b) {
            if (x) {
                return true;
            }
        }
        return false;
    }

    private static int count(int[] level, int l) {
        int c = 0;
        for (int x : level) {
            c += x == l ? 1 : 0;
        }
        return c;
    }
}
