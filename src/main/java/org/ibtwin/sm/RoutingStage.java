package org.ibtwin.sm;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.ibtwin.sm.routing.Lfts;
import org.ibtwin.sm.routing.Reroute;
import org.ibtwin.sm.routing.RoutingCheck;
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

    /** The name a sweep's report gives routes kept as the fabric held them. */
    static final String HELD = "held";

    /**
     * Routes as the switches' tables {@code held} (by switch GUID: LFTs a snapshot saved), cut or padded to the
     * graph's LIDs; when a switch has none, the chain routes, and the result says why it did.
     */
    RoutingEngines.Chain.Result route(SwitchGraph g, Map<Long, byte[]> held) {
        byte[][] out = new byte[g.switches()][];
        for (int s = 0; s < g.switches(); s++) {
            byte[] t = held.get(g.guid(s));
            if (t == null) {
                RoutingEngines.Chain.Result r = chain.route(g);
                List<String> declined = new ArrayList<>();
                declined.add(HELD + ": switch " + g.name(s) + " holds no saved table");
                declined.addAll(r.declined());
                return new RoutingEngines.Chain.Result(r.engine(), r.lfts(), r.detail(), declined, r.layers(),
                        r.reroute());
            }
            out[s] = Lfts.empty(g.top());
            System.arraycopy(t, 0, out[s], 0, Math.min(t.length, g.top() + 1));
        }
        return new RoutingEngines.Chain.Result(HELD, new Lfts(out, g.top()), "the forwarding tables the fabric "
                + "holds", List.of(), RoutingCheck.Layers.ONE,
                Reroute.none("the tables are the fabric's own, held, not an engine's: a failure routes in full"));
    }
}
