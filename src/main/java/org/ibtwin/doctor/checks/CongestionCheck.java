package org.ibtwin.doctor.checks;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.ibtwin.doctor.Check;
import org.ibtwin.doctor.FabricState;
import org.ibtwin.doctor.Finding;
import org.ibtwin.doctor.PortCounters;
import org.ibtwin.doctor.Severity;
import org.ibtwin.doctor.Thresholds;
import org.ibtwin.model.Node;
import org.ibtwin.model.Port;
import org.ibtwin.model.PortCounter;

/**
 * T22: congestion and unbalanced routing. PortXmitWait over its threshold (its rise between two readings, or its
 * total in one) marks a port that had data to send and could not. With the switches' forwarding tables known, a
 * switch whose busiest uplink carries the routes to more than {@code route_imbalance} times as many hosts as its
 * quietest (and at least {@code route_min_difference} more) is routing unevenly.
 */
public final class CongestionCheck implements Check {
    static final String FIX_WAIT = "find what crosses this port (ibtracert between the busy hosts); spread the load: "
            + "another routing engine (ftree for fat trees), restore missing links (T23), fix slow links (T04/T05)";
    static final String FIX_ROUTES = "use a routing engine that balances the uplinks (opensm -R ftree or updn), and "
            + "restore missing or down uplinks";

    @Override
    public String id() {
        return "T22";
    }

    @Override
    public String name() {
        return "congestion, unbalanced routing";
    }

    @Override
    public String skipReason(FabricState s) {
        return s.counters().isEmpty() && s.routes().isEmpty()
                ? "no PortXmitWait counters and no forwarding tables (live, or perfquery / ibroute outputs)" : null;
    }

    @Override
    public Set<PortCounter> counters() {
        return Set.of(PortCounter.XMIT_WAIT);
    }

    @Override
    public List<Finding> run(FabricState s, Thresholds t) {
        List<Finding> out = new ArrayList<>();
        Long limit = t.limit(PortCounter.XMIT_WAIT);
        if (limit != null) {
            for (PortCounters pc : s.counters().values()) {
                CounterMath m = CounterMath.of(pc, PortCounter.XMIT_WAIT);
                if (m == null || m.value() <= limit) {
                    continue;
                }
                List<String> ev = new ArrayList<>();
                ev.add(pc.where() + ": " + m.describe() + ", threshold " + limit);
                Port p = pc.port();
                if (p != null && p.link() != null) {
                    ev.add("it sends over " + s.linkName(p.link()) + (p.link().isUp() ? ", " + Words.active(p.link())
                            : ""));
                }
                out.add(new Finding(id(), Severity.WARNING, pc.where(), "congestion: the port waits to send", ev,
                        FIX_WAIT));
            }
        }
        if (!s.routes().isEmpty()) {
            out.addAll(routes(s, t));
        }
        return out;
    }

    private List<Finding> routes(FabricState s, Thresholds t) {
        Set<Integer> hostLids = new HashSet<>();
        for (Node n : s.fabric().cas()) {
            for (int i = 1; i <= n.numPorts(); i++) {
                Port p = n.port(i);
                if (p.lid() > 0) {
                    for (int k = 0; k < (1 << p.lmc()); k++) {
                        hostLids.add(p.lid() + k);
                    }
                }
            }
        }
        List<Finding> out = new ArrayList<>();
        for (Map.Entry<Node, int[]> e : s.routes().entrySet()) {
            Node sw = e.getKey();
            int[] lft = e.getValue();
            int rank = s.rank(sw);
            Map<Integer, Integer> perUplink = new TreeMap<>();
            for (int i = 1; i <= sw.numPorts(); i++) {
                Port peer = sw.port(i).remote();
                if (peer != null && peer.node().isSwitch() && s.rank(peer.node()) > rank
                        && sw.port(i).link().isUp()) {
                    perUplink.put(i, 0);
                }
            }
            if (perUplink.size() < 2) {
                continue;
            }
            for (int lid : hostLids) {
                if (lid < lft.length && perUplink.containsKey(lft[lid])) {
                    perUplink.merge(lft[lid], 1, Integer::sum);
                }
            }
            int max = 0;
            int min = Integer.MAX_VALUE;
            int maxPort = 0;
            int minPort = 0;
            for (Map.Entry<Integer, Integer> u : perUplink.entrySet()) {
                if (u.getValue() > max) {
                    max = u.getValue();
                    maxPort = u.getKey();
                }
                if (u.getValue() < min) {
                    min = u.getValue();
                    minPort = u.getKey();
                }
            }
            if (max >= t.routeImbalance() * Math.max(min, 1) && max - min >= t.routeMinDifference()) {
                List<String> ev = new ArrayList<>();
                ev.add(s.portName(sw.port(maxPort)) + ": routes to " + max + " host LIDs");
                ev.add(s.portName(sw.port(minPort)) + ": routes to " + min + " host LIDs");
                ev.add(perUplink.size() + " uplinks; routes per uplink: " + perUplink.values());
                out.add(new Finding(id(), Severity.WARNING, s.name(sw), "unbalanced routing: one uplink carries "
                        + max + " host routes, another " + min, ev, FIX_ROUTES));
            }
        }
        return out;
    }
}
