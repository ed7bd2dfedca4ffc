package org.ibtwin.perf;

import java.util.ArrayList;
import java.util.List;
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
}
