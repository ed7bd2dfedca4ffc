package org.ibtwin.perf;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.ibtwin.model.Node;
import org.ibtwin.model.Port;
import org.ibtwin.model.PortState;

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

    /**
     * What following the tables gave: the route, or where it stopped ({@code at}: the port it could not leave, or
     * the switch port it arrived at when the table has no entry) and why.
     */
    public record Trace(Route route, Port at, String problem) {
        public boolean ok() {
            return route != null;
        }
    }

    private final Forwarding forwarding;
    private final boolean activeOnly;

    public LftRoutes(Forwarding forwarding) {
        this(forwarding, false);
    }

    /**
     * Routes by {@code forwarding}; with {@code activeOnly} a port on the way that is not Active stops the route
     * (data moves only between Active ports; a fabric learnt through MADs knows its ports' states).
     */
    public LftRoutes(Forwarding forwarding, boolean activeOnly) {
        this.forwarding = forwarding;
        this.activeOnly = activeOnly;
    }

    @Override
    public Route route(Port src, Port dst) {
        return trace(src, dst).route();
    }

    /** The route from {@code src} to {@code dst} hop by hop through the tables, or where and why it stops. */
    public Trace trace(Port src, Port dst) {
        if (src.node() == dst.node()) {
            return new Trace(new Route(src, dst, List.of()), null, null);
        }
        List<Hop> hops = new ArrayList<>();
        Port at = src;
        for (int i = 0; i < MAX_HOPS; i++) {
            Port next = at.remote();
            if (next == null || !at.link().isUp()) {
                return new Trace(null, at, "its link is down");
            }
            if (activeOnly && (at.state() != PortState.ACTIVE || next.state() != PortState.ACTIVE)) {
                Port idle = at.state() != PortState.ACTIVE ? at : next;
                return new Trace(null, idle, "the port is " + idle.state().label() + ", not Active");
            }
            hops.add(new Hop(at, next));
            if (next == dst) {
                return new Trace(new Route(src, dst, hops), null, null);
            }
            Node n = next.node();
            if (!n.isSwitch()) {
                return new Trace(null, next, "it is not the destination and forwards nothing");
            }
            int out = forwarding.egressPort(n, dst);
            Port egress = out >= 1 && out <= n.numPorts() ? n.port(out) : null;
            if (egress == null) {
                return new Trace(null, next, "the switch's LFT has no entry for LID " + dst.lid()
                        + (out == 0xff ? " (0xff: unprogrammed)" : out < 0 ? "" : " (port " + out + ")"));
            }
            at = egress;
        }
        return new Trace(null, at, "the tables loop (more than " + MAX_HOPS + " hops)");
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
