package org.ibtwin.sm;

import org.ibtwin.sm.routing.RoutingEngines;
import org.ibtwin.sm.routing.SwitchGraph;

/**
 * Routing, the SM's side of it: turns a sweep's topology and LIDs into the read-only {@link SwitchGraph} the engines
 * take (switch numbers are the topology's), and runs the engine chain over it.
 */
final class RoutingStage {
    private final RoutingEngines.Chain chain;

    RoutingStage(String engines, RoutingEngines.Options options) {
        this.chain = RoutingEngines.chain(engines, options);
    }

    RoutingEngines.Chain chain() {
        return chain;
    }

    /** The graph of {@code t}'s switches, with every LID of {@code lids} placed behind its switch port. */
    static SwitchGraph graph(Topology t, LidAssignment lids) {
        SwitchGraph.Builder b = SwitchGraph.builder(t.switchCount(), lids.maxLid());
        for (int s = 0; s < t.switchCount(); s++) {
            int n = t.switchNode(s);
            b.setSwitch(s, t.nodeGuid(n), t.shortName(n), t.numPorts(n));
        }
        for (int s = 0; s < t.switchCount(); s++) {
            int n = t.switchNode(s);
            for (int p = 1; p <= t.numPorts(n); p++) {
                int r = t.remote(t.port(n, p));
                if (r >= 0 && t.isSwitch(t.portNode(r))) {
                    b.link(s, p, t.switchIndex(t.portNode(r)), t.portNumber(r));
                }
            }
        }
        for (int g : t.endPorts()) {
            int lid = lids.lid(g);
            if (lid == 0) {
                continue;
            }
            int count = 1 << lids.lmc(g);
            int n = t.portNode(g);
            if (t.isSwitch(n)) {
                b.dest(lid, count, t.switchIndex(n), 0, false);
            } else {
                int r = t.remote(g);
                if (r >= 0 && t.isSwitch(t.portNode(r))) {
                    b.dest(lid, count, t.switchIndex(t.portNode(r)), t.portNumber(r), true);
                }
            }
        }
        return b.build();
    }

    RoutingEngines.Chain.Result route(SwitchGraph g) {
        return chain.route(g);
    }
}
