package org.ibtwin.perf;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.ibtwin.model.Node;
import org.ibtwin.model.Port;

/**
 * Routes read from forwarding tables: at every switch, the egress port the table holds for the destination. This is
 * where the subnet manager's linear forwarding tables plug in; the table is asked through {@link Forwarding}, so
 * the model needs nothing of how the tables are stored.
 */
public final class LftRoutes implements Routes {
    /** Longest path followed before a routing loop is assumed. */
    public static final int MAX_HOPS = 64;

    /** A switch's forwarding decision. */
    @FunctionalInterface
    public interface Forwarding {
        /** The egress port of switch {@code sw} toward {@code dst}, or a value outside 1..ports for none. */
        int egressPort(Node sw, Port dst);
    }

    private final Forwarding forwarding;

    public LftRoutes(Forwarding forwarding) {
        this.forwarding = forwarding;
    }

    @Override
    public Route route(Port src, Port dst) {
        if (src.node() == dst.node()) {
            return new Route(src, dst, List.of());
        }
        List<Hop> hops = new ArrayList<>();
        Port at = src;
        for (int i = 0; i < MAX_HOPS; i++) {
            Port next = at.remote();
            if (next == null || !at.link().isUp()) {
                return null;
            }
            hops.add(new Hop(at, next));
            if (next == dst) {
                return new Route(src, dst, hops);
            }
            Node n = next.node();
            if (!n.isSwitch()) {
                return null;
            }
            int out = forwarding.egressPort(n, dst);
            at = out >= 1 && out <= n.numPorts() ? n.port(out) : null;
            if (at == null) {
                return null;
            }
        }
        return null;
    }

    /** Receives the directed links paths toward one destination cross, and the paths that have no way there. */
    public interface FanIn {
        /** {@code paths} paths cross the directed link {@code hop}. */
        void add(Hop hop, long paths);

        /** The {@code paths} paths that enter switch {@code sw} have no way on to the destination. */
        void lost(Node sw, long paths);
    }

    /**
     * The paths from many sources to one destination at once, as the tables route them, for sources that have taken
     * their first link already: {@code arriving} says how many paths enter each switch from the sources. The paths
     * toward one destination form a tree, so each switch's decision is asked once and the paths are pushed down the
     * tree in order (a switch passes on what reached it once every switch sending to it has): {@code out} gets every
     * directed link they cross with the number crossing it. A switch from which the tables lead nowhere (a down link,
     * an unprogrammed entry, a CA that is not {@code dst}, a loop) passes nothing on: the paths entering it are
     * reported lost there, and the paths entering switches that lead to it are lost at those.
     */
    public void fanIn(Map<Node, Long> arriving, Port dst, FanIn out) {
        Map<Node, Hop> next = new IdentityHashMap<>();
        ArrayDeque<Node> todo = new ArrayDeque<>(arriving.keySet());
        List<Node> reached = new ArrayList<>(arriving.keySet());
        for (Node n : arriving.keySet()) {
            next.put(n, null);
        }
        while (!todo.isEmpty()) {
            Node n = todo.poll();
            Hop h = step(n, dst);
            next.put(n, h);
            if (h != null && h.to() != dst && h.to().node().isSwitch() && !next.containsKey(h.to().node())) {
                next.put(h.to().node(), null);
                todo.add(h.to().node());
                reached.add(h.to().node());
            }
        }
        // which switches lead to dst: walk each one's way, at most MAX_HOPS
        Map<Node, Boolean> reaches = new IdentityHashMap<>();
        List<Node> way = new ArrayList<>();
        for (Node n : reached) {
            way.clear();
            Node at = n;
            Boolean ok = null;
            while (ok == null) {
                Boolean known = reaches.get(at);
                if (known != null) {
                    ok = known;
                    break;
                }
                way.add(at);
                Hop h = next.get(at);
                if (h == null || way.size() > MAX_HOPS) {
                    ok = false;
                } else if (h.to() == dst) {
                    ok = true;
                } else if (!h.to().node().isSwitch() || !next.containsKey(h.to().node())) {
                    ok = false;
                } else {
                    at = h.to().node();
                }
            }
            for (Node w : way) {
                reaches.put(w, ok);
            }
        }
        Map<Node, long[]> count = new IdentityHashMap<>();
        Map<Node, int[]> senders = new IdentityHashMap<>();
        for (Node n : reached) {
            long a = arriving.getOrDefault(n, 0L);
            if (!reaches.get(n)) {
                if (a > 0) {
                    out.lost(n, a);
                }
                continue;
            }
            count.put(n, new long[] {a});
            senders.putIfAbsent(n, new int[1]);
            Hop h = next.get(n);
            if (h.to() != dst) {
                senders.computeIfAbsent(h.to().node(), k -> new int[1])[0]++;
            }
        }
        for (Node n : count.keySet()) {
            if (senders.get(n)[0] == 0) {
                todo.add(n);
            }
        }
        while (!todo.isEmpty()) {
            Node n = todo.poll();
            long c = count.get(n)[0];
            Hop h = next.get(n);
            if (c > 0) {
                out.add(h, c);
            }
            if (h.to() != dst) {
                Node m = h.to().node();
                count.get(m)[0] += c;
                if (--senders.get(m)[0] == 0) {
                    todo.add(m);
                }
            }
        }
    }

    /** Switch {@code n}'s next hop toward {@code dst}, or null for none. */
    private Hop step(Node n, Port dst) {
        int out = forwarding.egressPort(n, dst);
        Port at = out >= 1 && out <= n.numPorts() ? n.port(out) : null;
        if (at == null || at.remote() == null || !at.link().isUp()) {
            return null;
        }
        return new Hop(at, at.remote());
    }
}
