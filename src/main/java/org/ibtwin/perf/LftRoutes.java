package org.ibtwin.perf;

import java.util.ArrayList;
import java.util.List;
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
}
