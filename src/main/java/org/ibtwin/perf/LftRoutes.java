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

    /** Receives the directed links paths cross, with how many paths cross each. */
    @FunctionalInterface
    public interface HopCount {
        void add(Hop hop, long paths);
    }

    /**
     * The paths from many sources to one destination at once, as the tables route them: {@code out} gets every
     * directed link they cross with the number of them crossing it (once per link), each switch's decision asked
     * once. The paths toward one destination form a tree, so they are pushed down it in order: a switch passes on
     * everything that reached it once every switch sending to it has. Sources equal to {@code dst} are skipped.
     *
     * @return how many sources have no path (a down link, an unprogrammed entry, a loop)
     */
    public long fanIn(List<Port> sources, Port dst, HopCount out) {
        Map<Node, long[]> arriving = new IdentityHashMap<>();
        Map<Node, Hop> next = new IdentityHashMap<>();
        Map<Node, int[]> senders = new IdentityHashMap<>();
        long lost = 0;
        ArrayDeque<Node> todo = new ArrayDeque<>();
        Map<Hop, long[]> firstHops = new java.util.LinkedHashMap<>();
        for (Port s : sources) {
            if (s == dst) {
                continue;
            }
            Port r = s.remote();
            if (r == null || !s.link().isUp()) {
                lost++;
                continue;
            }
            firstHops.computeIfAbsent(new Hop(s, r), k -> new long[1])[0]++;
            if (r == dst) {
                continue;
            }
            if (!r.node().isSwitch()) {
                lost++;
                continue;
            }
            long[] a = arriving.get(r.node());
            if (a == null) {
                arriving.put(r.node(), new long[] {1});
                todo.add(r.node());
            } else {
                a[0]++;
            }
        }
        for (Map.Entry<Hop, long[]> e : firstHops.entrySet()) {
            out.add(e.getKey(), e.getValue()[0]);
        }
        // every switch the paths reach, its next hop, and how many reached switches send to it
        List<Node> reached = new ArrayList<>(todo);
        while (!todo.isEmpty()) {
            Node n = todo.poll();
            Hop h = step(n, dst);
            next.put(n, h);
            senders.putIfAbsent(n, new int[1]);
            if (h != null && h.to() != dst && h.to().node().isSwitch()) {
                Node m = h.to().node();
                int[] k = senders.get(m);
                if (k == null) {
                    senders.put(m, new int[] {1});
                    arriving.putIfAbsent(m, new long[1]);
                    if (!next.containsKey(m)) {
                        todo.add(m);
                        reached.add(m);
                    }
                } else {
                    k[0]++;
                }
            }
        }
        for (Node n : reached) {
            if (senders.get(n)[0] == 0) {
                todo.add(n);
            }
        }
        int done = 0;
        while (!todo.isEmpty()) {
            Node n = todo.poll();
            done++;
            long c = arriving.get(n)[0];
            Hop h = next.get(n);
            if (h == null) {
                lost += c;
                continue;
            }
            if (c > 0) {
                out.add(h, c);
            }
            Port to = h.to();
            if (to == dst) {
                continue;
            }
            if (!to.node().isSwitch()) {
                lost += c;
                continue;
            }
            Node m = to.node();
            arriving.get(m)[0] += c;
            if (--senders.get(m)[0] == 0) {
                todo.add(m);
            }
        }
        if (done < reached.size()) {
            for (Node n : reached) {
                if (senders.get(n)[0] > 0) {
                    lost += arriving.get(n)[0];   // a loop: what reached it never arrives
                }
            }
        }
        return lost;
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
