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
        int[] index = caIndex(g, level, top);
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
                + "between top switches left out"), Reroute.upDown(rank, dmodk));
    }

    /**
     * For each LID, its number among the CA LIDs sorted by (leaf, port, LID), the leaves in {@link #leafOrder}; -1
     * for switch LIDs and unused.
     */
    private static int[] caIndex(SwitchGraph g, int[] level, int top) {
        int[] leafRank = leafOrder(g, level, top);
        int[] idx = new int[g.top() + 1];
        Arrays.fill(idx, -1);
        Integer[] lids = IntStream.rangeClosed(1, g.top())
                .filter(l -> g.destSwitch(l) >= 0 && g.isCaLid(l)).boxed().toArray(Integer[]::new);
        Arrays.sort(lids, Comparator.<Integer>comparingInt(l -> leafRank[g.destSwitch(l)])
                .thenComparingInt(g::destPort).thenComparingInt(l -> l));
        for (int j = 0; j < lids.length; j++) {
            idx[lids[j]] = j;
        }
        return idx;
    }

    /**
     * The rank of each leaf in the order d-mod-k numbers them: the leaves under one subtree (the switches joined by
     * links below level l, for every l under the top) are consecutive, so that the destinations a switch reaches
     * down are a whole number of d-mod-k cycles and those it sends up spread evenly over its up ports. Subtrees,
     * and the leaves within the smallest ones, go by their least GUID: the order is the fabric's, not the order
     * the SM happened to discover the switches in. -1 for switches that are not leaves.
     */
    private static int[] leafOrder(SwitchGraph g, int[] level, int top) {
        int n = g.switches();
        // least[l][s]: the least leaf GUID of the subtree holding s below level l + 1 (switches of levels 0..l)
        long[][] least = new long[Math.max(0, top - 1)][];
        for (int l = 1; l < top; l++) {
            int[] root = new int[n];
            for (int s = 0; s < n; s++) {
                root[s] = s;
            }
            for (int s = 0; s < n; s++) {
                for (int p = 1; p <= g.numPorts(s) && level[s] <= l; p++) {
                    int m = g.neighbour(s, p);
                    if (m >= 0 && level[m] <= l) {
                        root[find(root, s)] = find(root, m);
                    }
                }
            }
            long[] min = new long[n];
            Arrays.fill(min, -1L);   // the greatest unsigned value
            for (int s = 0; s < n; s++) {
                int r = find(root, s);
                if (level[s] == 0 && Long.compareUnsigned(g.guid(s), min[r]) < 0) {
                    min[r] = g.guid(s);
                }
            }
            least[l - 1] = new long[n];
            for (int s = 0; s < n; s++) {
                least[l - 1][s] = min[find(root, s)];
            }
        }
        Integer[] leaves = IntStream.range(0, n).filter(s -> level[s] == 0).boxed().toArray(Integer[]::new);
        Arrays.sort(leaves, (a, b) -> {
            for (int l = least.length - 1; l >= 0; l--) {
                int c = Long.compareUnsigned(least[l][a], least[l][b]);
                if (c != 0) {
                    return c;
                }
            }
            return Long.compareUnsigned(g.guid(a), g.guid(b));
        });
        int[] rank = new int[n];
        Arrays.fill(rank, -1);
        for (int i = 0; i < leaves.length; i++) {
            rank[leaves[i]] = i;
        }
        return rank;
    }

    private static int find(int[] root, int s) {
        while (root[s] != s) {
            root[s] = root[root[s]];
            s = root[s];
        }
        return s;
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
