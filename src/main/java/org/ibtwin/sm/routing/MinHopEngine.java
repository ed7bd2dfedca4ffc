package org.ibtwin.sm.routing;

/**
 * minhop, OpenSM's default: every LID routed along a shortest path, and among the ports that start one, the least
 * used so far on that switch. It routes any connected fabric and never declines; it does not avoid credit loops
 * (on a fat tree its shortest paths are up/down anyway).
 */
public final class MinHopEngine implements RoutingEngine {
    public static final String NAME = "minhop";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Outcome route(SwitchGraph g) {
        byte[][] hops = Balancer.hopMatrix(g);
        Lfts lfts = Balancer.fill(g, Balancer.shortestPaths(g, hops), Balancer.LEAST_USED);
        int unreachable = 0;
        for (int t = 0; t < g.switches(); t++) {
            for (int s = 0; s < g.switches(); s++) {
                unreachable += (hops[t][s] & 0xff) == Balancer.INF ? 1 : 0;
            }
        }
        return new Routed(lfts, unreachable == 0 ? "shortest paths, balanced"
                : "shortest paths, balanced; " + unreachable + " switch pairs not connected",
                Reroute.shortest(Balancer.LEAST_USED, 0));
    }
}
