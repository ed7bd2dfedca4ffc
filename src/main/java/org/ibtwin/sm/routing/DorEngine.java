package org.ibtwin.sm.routing;

/**
 * dor, dimension-order routing for tori, meshes and hypercubes: every LID along a shortest path, and of the ports
 * that start one, always the lowest numbered. With ports numbered by dimension (as {@code ibtwin gen torus}, {@code
 * mesh} and {@code hypercube} cable them, and as OpenSM's dor expects) that routes dimension by dimension: x first,
 * then y, then z. On a mesh or hypercube that alone is free of credit loops; on a torus the wrap-around links close
 * rings, so the routes are spread over virtual lanes ({@link Layering}) until every lane's channel dependency graph
 * is acyclic. Declines when more than {@link #MAX_LANES} lanes would be needed.
 */
public final class DorEngine implements RoutingEngine {
    public static final String NAME = "dor";
    /** The data VLs a 4X port offers (VLCap VL0-7). */
    public static final int MAX_LANES = 8;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Outcome route(SwitchGraph g) {
        byte[][] hops = Balancer.hopMatrix(g);
        Balancer.Selector lowest = (s, lid, candidates, load) -> candidates[0];
        Lfts lfts = Balancer.fill(g, Balancer.shortestPaths(g, hops), lowest);
        RoutingCheck.Layers layers = Layering.assign(g, lfts, MAX_LANES);
        if (layers == null) {
            return new Declined("dimension-order routes need more than " + MAX_LANES + " VLs to be free of credit "
                    + "loops");
        }
        return new Routed(lfts, "dimension order (lowest port of a shortest path), " + layers.count() + " VL"
                + (layers.count() == 1 ? "" : "s"), layers, layers.count() == 1 ? Reroute.shortest(lowest, 1)
                : Reroute.none("its routes are spread over " + layers.count() + " VLs, which only a full route "
                + "assigns again"));
    }
}
