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
        Map<Node, Fan> at = new IdentityHashMap<>(arriving.size() * 4);
        ArrayDeque<Fan> todo = new ArrayDeque<>();
        List<Fan> reached = new ArrayList<>();
        for (Map.Entry<Node, Long> e : arriving.entrySet()) {
            Fan f = new Fan(e.getKey());
            f.count = e.getValue();
            at.put(e.getKey(), f);
            todo.add(f);
            reached.add(f);
        }
        while (!todo.isEmpty()) {
            Fan f = todo.poll();
            f.hop = step(f.node, dst);
            if (f.hop != null && f.hop.to() != dst && f.hop.to().node().isSwitch()) {
                Node m = f.hop.to().node();
                Fan g = at.get(m);
                if (g == null) {
                    g = new Fan(m);
                    at.put(m, g);
                    todo.add(g);
                    reached.add(g);
                }
                f.next = g;
            }
        }
        // which switches lead to dst: walk each one's way (at most MAX_HOPS), marking what it passes
        List<Fan> way = new ArrayList<>();
        for (Fan f : reached) {
            way.clear();
            Fan w = f;
            int ok = 0;
            while (ok == 0) {
                if (w.reaches != 0) {
                    ok = w.reaches;
                    break;
                }
                way.add(w);
                if (w.hop == null || way.size() > MAX_HOPS) {
                    ok = -1;
                } else if (w.hop.to() == dst) {
                    ok = 1;
                } else if (w.next == null) {
                    ok = -1;
                } else {
                    w = w.next;
                }
            }
            for (Fan x : way) {
                x.reaches = ok;
            }
        }
        for (Fan f : reached) {
            if (f.reaches < 0) {
                if (f.count > 0) {
                    out.lost(f.node, f.count);
                }
            } else if (f.next != null) {
                f.next.senders++;
            }
        }
        for (Fan f : reached) {
            if (f.reaches > 0 && f.senders == 0) {
                todo.add(f);
            }
        }
        while (!todo.isEmpty()) {
            Fan f = todo.poll();
            if (f.count > 0) {
                out.add(f.hop, f.count);
            }
            Fan g = f.next;
            if (g != null) {
                g.count += f.count;
                if (--g.senders == 0) {
                    todo.add(g);
                }
            }
        }
    }

    /** A switch on the paths toward one destination. */
    private static final class Fan {
        final Node node;
        long count;
        Hop hop;
        Fan next;
        int senders;
        int reaches;   // 1 leads to the destination, -1 does not, 0 not known yet

        Fan(Node node) {
            this.node = node;
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
