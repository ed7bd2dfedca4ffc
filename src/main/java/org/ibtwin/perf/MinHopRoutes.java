package org.ibtwin.perf;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Collections;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Node;
import org.ibtwin.model.NodeType;
import org.ibtwin.model.Port;

/**
 * Deterministic min-hop routes on the model topology, spread by destination, until the subnet manager's forwarding
 * tables can be asked instead ({@link LftRoutes}). Every choice depends only on the switch and the destination, so
 * the routes are what forwarding tables could hold.
 *
 * <p><b>Destination index.</b> Each CA port gets an index {@code h}: its position among the CA ports in fabric order
 * (the order LIDs are handed out in). Routes to {@code h} are spread the way fat-tree (d-mod-k) routing spreads
 * them.
 *
 * <p><b>Trees.</b> Switches are ranked by their distance from the leaves (switches with CAs). When every
 * switch-to-switch link joins neighbouring ranks the fabric is a tree and routes go up, then down:
 * <ol>
 * <li>the destination fixes its own way down: from its leaf {@code S0} it climbs, at rank {@code l} taking up port
 * number {@code (h / M_l) mod U_l} among the {@code U_l} up ports of {@code S_l} (in port order), with
 * {@code M_0 = 1}, {@code M_{l+1} = M_l * U_l} — so destinations on one leaf enter it over different uplinks;</li>
 * <li>the source climbs from its leaf to the lowest switch {@code S_t} of that chain it can reach going only up; at
 * each step it takes an up port toward {@code S_t}, choosing among parallel links the one with the same rank as the
 * chain's link at that level;</li>
 * <li>from {@code S_t} the route follows the chain down to the destination.</li>
 * </ol>
 * On a complete fat tree this makes a shift pattern contention-free. When a tree is damaged so that the source cannot
 * reach the chain, or the fabric is no tree, the route falls back to a breadth-first min-hop walk toward the
 * destination's leaf, taking candidate {@code h mod k} of the {@code k} ports one hop closer.
 */
public final class MinHopRoutes implements Routes {
    private final Map<Node, Integer> index = new IdentityHashMap<>();
    private final Node[] nodes;
    private final int[] level;
    private final int[][] upPorts;
    private final boolean tree;
    private final Map<Port, Integer> caIndex = new IdentityHashMap<>();
    private final Map<Node, int[]> distances = new IdentityHashMap<>();

    public MinHopRoutes(Fabric fabric) {
        List<Node> all = fabric.nodes();
        nodes = all.toArray(new Node[0]);
        for (int i = 0; i < nodes.length; i++) {
            index.put(nodes[i], i);
        }
        int h = 0;
        for (Node n : nodes) {
            if (n.type() == NodeType.CA) {
                for (int p = 1; p <= n.numPorts(); p++) {
                    caIndex.put(n.port(p), h++);
                }
            }
        }
        boolean[] leaves = new boolean[nodes.length];
        for (int i = 0; i < nodes.length; i++) {
            leaves[i] = nodes[i].isSwitch() && hasCaNeighbour(nodes[i]);
        }
        level = hops(leaves);
        boolean isTree = true;
        upPorts = new int[nodes.length][];
        for (int i = 0; i < nodes.length; i++) {
            Node n = nodes[i];
            if (!n.isSwitch()) {
                continue;
            }
            int[] ups = new int[n.numPorts()];
            int count = 0;
            for (int p = 1; p <= n.numPorts(); p++) {
                Node r = remoteSwitch(n.port(p));
                if (r == null) {
                    continue;
                }
                int d = level[index.get(r)] - level[i];
                if (d == 1) {
                    ups[count++] = p;
                } else if (d != -1) {
                    isTree = false;
                }
            }
            upPorts[i] = Arrays.copyOf(ups, count);
        }
        tree = isTree;
    }

    /** Is the fabric a tree (every switch-to-switch link joins neighbouring ranks), so routes go up then down. */
    public boolean isTree() {
        return tree;
    }

    /** The destination index of a CA port: its position among all CA ports in fabric order; -1 when not a CA port. */
    public int destinationIndex(Port p) {
        Integer h = caIndex.get(p);
        return h == null ? -1 : h;
    }

    @Override
    public Route route(Port src, Port dst) {
        if (src.node() == dst.node()) {
            return new Route(src, dst, List.of());
        }
        Port srcRemote = up(src);
        Port dstRemote = up(dst);
        if (srcRemote == null || dstRemote == null) {
            return null;
        }
        if (srcRemote == dst) {
            return new Route(src, dst, List.of(new Hop(src, dst)));
        }
        Node srcLeaf = srcRemote.node();
        Node dstLeaf = dstRemote.node();
        if (!srcLeaf.isSwitch() || !dstLeaf.isSwitch()) {
            return null;
        }
        long h = Math.max(0, destinationIndex(dst));
        List<Hop> hops = new ArrayList<>();
        hops.add(new Hop(src, srcRemote));
        if (srcLeaf != dstLeaf) {
            List<Hop> middle = tree ? treeRoute(srcLeaf, dstLeaf, h) : null;
            if (middle == null) {
                middle = minHopRoute(srcLeaf, dstLeaf, h);
            }
            if (middle == null) {
                return null;
            }
            hops.addAll(middle);
        }
        hops.add(new Hop(dstRemote, dst));
        return new Route(src, dst, hops);
    }

    private List<Hop> treeRoute(Node srcLeaf, Node dstLeaf, long h) {
        List<Node> chain = new ArrayList<>();
        List<Port> entry = new ArrayList<>();
        List<Long> divisor = new ArrayList<>();
        chain.add(dstLeaf);
        long m = 1;
        Node s = dstLeaf;
        while (true) {
            int[] ups = upPorts[index.get(s)];
            if (ups.length == 0) {
                break;
            }
            divisor.add(m);
            Port p = s.port(ups[(int) ((h / m) % ups.length)]);
            m = Math.min(m * ups.length, 1L << 40);
            entry.add(p);
            s = p.remote().node();
            chain.add(s);
        }
        // The lowest chain switch the source reaches going only up.
        List<Set<Node>> reach = new ArrayList<>();
        Set<Node> frontier = Collections.newSetFromMap(new IdentityHashMap<>());
        frontier.add(srcLeaf);
        reach.add(frontier);
        int meet = -1;
        for (int t = 1; t < chain.size(); t++) {
            Set<Node> next = Collections.newSetFromMap(new IdentityHashMap<>());
            for (Node x : frontier) {
                for (int p : upPorts[index.get(x)]) {
                    next.add(x.port(p).remote().node());
                }
            }
            reach.add(next);
            frontier = next;
            if (next.contains(chain.get(t))) {
                meet = t;
                break;
            }
        }
        if (meet < 0) {
            return null;
        }
        // Switches at each rank below the meeting point that lead up to it.
        List<Set<Node>> below = new ArrayList<>();
        for (int l = 0; l <= meet; l++) {
            below.add(null);
        }
        Set<Node> top = Collections.newSetFromMap(new IdentityHashMap<>());
        top.add(chain.get(meet));
        below.set(meet, top);
        for (int l = meet - 1; l >= 0; l--) {
            Set<Node> lower = Collections.newSetFromMap(new IdentityHashMap<>());
            for (Node x : reach.get(l)) {
                for (int p : upPorts[index.get(x)]) {
                    if (below.get(l + 1).contains(x.port(p).remote().node())) {
                        lower.add(x);
                        break;
                    }
                }
            }
            below.set(l, lower);
        }
        List<Hop> hops = new ArrayList<>();
        Node x = srcLeaf;
        for (int l = 0; l < meet; l++) {
            Map<Node, List<Port>> byNeighbour = new LinkedHashMap<>();
            for (int p : upPorts[index.get(x)]) {
                Port port = x.port(p);
                Node r = port.remote().node();
                if (below.get(l + 1).contains(r)) {
                    byNeighbour.computeIfAbsent(r, k -> new ArrayList<>()).add(port);
                }
            }
            if (byNeighbour.isEmpty()) {
                return null;
            }
            List<Port> group;
            if (l + 1 == meet) {
                group = byNeighbour.get(chain.get(meet));
            } else {
                List<List<Port>> groups = new ArrayList<>(byNeighbour.values());
                group = groups.get((int) ((h / divisor.get(l)) % groups.size()));
            }
            int rank = parallelRank(entry.get(l));
            Port out = group.get(rank % group.size());
            hops.add(new Hop(out, out.remote()));
            x = out.remote().node();
        }
        for (int l = meet - 1; l >= 0; l--) {
            Port up = entry.get(l);
            hops.add(new Hop(up.remote(), up));
        }
        return hops;
    }

    /** The rank of an up port among its switch's up ports to the same neighbour (parallel links), in port order. */
    private int parallelRank(Port up) {
        Node s = up.node();
        Node r = up.remote().node();
        int rank = 0;
        for (int p : upPorts[index.get(s)]) {
            if (p == up.number()) {
                return rank;
            }
            if (s.port(p).remote().node() == r) {
                rank++;
            }
        }
        return rank;
    }

    private List<Hop> minHopRoute(Node srcLeaf, Node dstLeaf, long h) {
        int[] dist = distances.computeIfAbsent(dstLeaf, this::bfs);
        int at = index.get(srcLeaf);
        if (dist[at] < 0) {
            return null;
        }
        List<Hop> hops = new ArrayList<>();
        Node x = srcLeaf;
        List<Port> candidates = new ArrayList<>();
        while (x != dstLeaf) {
            int d = dist[index.get(x)];
            candidates.clear();
            for (int p = 1; p <= x.numPorts(); p++) {
                Node r = remoteSwitch(x.port(p));
                if (r != null && dist[index.get(r)] == d - 1) {
                    candidates.add(x.port(p));
                }
            }
            if (candidates.isEmpty()) {
                return null;
            }
            Port out = candidates.get((int) (h % candidates.size()));
            hops.add(new Hop(out, out.remote()));
            x = out.remote().node();
        }
        return hops;
    }

    private int[] bfs(Node from) {
        boolean[] start = new boolean[nodes.length];
        start[index.get(from)] = true;
        return hops(start);
    }

    /** Switch-to-switch hops from the nearest start node (start[i]) to every node (breadth first); -1 where none reaches. */
    private int[] hops(boolean[] start) {
        int[] dist = new int[nodes.length];
        Arrays.fill(dist, -1);
        int[] queue = new int[nodes.length];
        int head = 0;
        int tail = 0;
        for (int i = 0; i < nodes.length; i++) {
            if (start[i]) {
                dist[i] = 0;
                queue[tail++] = i;
            }
        }
        while (head < tail) {
            int i = queue[head++];
            Node n = nodes[i];
            for (int p = 1; p <= n.numPorts(); p++) {
                Node r = remoteSwitch(n.port(p));
                if (r != null) {
                    int j = index.get(r);
                    if (dist[j] < 0) {
                        dist[j] = dist[i] + 1;
                        queue[tail++] = j;
                    }
                }
            }
        }
        return dist;
    }

    /** The port at the other end of an up link, or null. */
    private static Port up(Port p) {
        return p.link() != null && p.link().isUp() ? p.remote() : null;
    }

    /** The switch at the other end of an up link from {@code p}, or null. */
    private static Node remoteSwitch(Port p) {
        Port r = up(p);
        return r != null && r.node().isSwitch() ? r.node() : null;
    }

    private static boolean hasCaNeighbour(Node sw) {
        for (int p = 1; p <= sw.numPorts(); p++) {
            Port r = up(sw.port(p));
            if (r != null && r.node().type() == NodeType.CA) {
                return true;
            }
        }
        return false;
    }
}
