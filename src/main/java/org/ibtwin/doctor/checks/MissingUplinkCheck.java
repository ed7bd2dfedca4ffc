package org.ibtwin.doctor.checks;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.ibtwin.doctor.Check;
import org.ibtwin.doctor.FabricState;
import org.ibtwin.doctor.Finding;
import org.ibtwin.doctor.Severity;
import org.ibtwin.doctor.Thresholds;
import org.ibtwin.model.Node;
import org.ibtwin.model.Port;

/**
 * T23: a switch with fewer uplinks than its peers: a leaf-to-spine cable missing, the fat tree no longer
 * symmetric. Switches are put in tiers by their distance from the hosts (leaves 0, spines 1, cores 2); the usual
 * uplink count of a tier is the one most of its switches have, and a switch below it is named. A cabled link that
 * is down still counts as an uplink here (it is T01's).
 */
public final class MissingUplinkCheck implements Check {
    static final String FIX = "restore the missing cables (compare with the cabling plan, or with an older "
            + "ibnetdiscover via ibtwin snapshot diff)";

    @Override
    public String id() {
        return "T23";
    }

    @Override
    public String name() {
        return "missing fat-tree uplinks";
    }

    @Override
    public String skipReason(FabricState s) {
        return s.topologyKnown() && s.fabric().switches().size() > 1 ? null : "no multi-switch topology";
    }

    @Override
    public List<Finding> run(FabricState s, Thresholds t) {
        Map<Integer, Map<Node, Integer>> tiers = new TreeMap<>();
        for (Node sw : s.fabric().switches()) {
            int rank = s.rank(sw);
            if (rank == Integer.MAX_VALUE) {
                continue;
            }
            int up = 0;
            for (int i = 1; i <= sw.numPorts(); i++) {
                Port peer = sw.port(i).remote();
                if (peer != null && peer.node().isSwitch() && s.rank(peer.node()) > rank) {
                    up++;
                }
            }
            tiers.computeIfAbsent(rank, k -> new LinkedHashMap<>()).put(sw, up);
        }
        List<Finding> out = new ArrayList<>();
        for (Map.Entry<Integer, Map<Node, Integer>> tier : tiers.entrySet()) {
            Map<Node, Integer> ups = tier.getValue();
            if (ups.size() < 2) {
                continue;
            }
            Map<Integer, Integer> counts = new HashMap<>();
            ups.values().forEach(u -> counts.merge(u, 1, Integer::sum));
            int usual = counts.entrySet().stream().max(Map.Entry.<Integer, Integer>comparingByValue()
                    .thenComparing(Map.Entry.comparingByKey())).orElseThrow().getKey();
            if (usual == 0) {
                continue;
            }
            int peers = counts.get(usual);
            for (Map.Entry<Node, Integer> e : ups.entrySet()) {
                if (e.getValue() >= usual) {
                    continue;
                }
                String name = s.name(e.getKey());
                out.add(new Finding(id(), Severity.WARNING, name, Words.plural(usual - e.getValue(), "uplink",
                        "uplinks") + " missing: " + e.getValue() + " where its peers have " + usual,
                        List.of(name + " (" + tierName(tier.getKey()) + "): " + Words.plural(e.getValue(), "uplink",
                                "uplinks"),
                                Words.plural(peers, tierName(tier.getKey()) + " has", tierName(tier.getKey())
                                        + "s have") + " " + usual + " uplinks",
                                "bisection bandwidth through " + name + " is " + e.getValue() + "/" + usual
                                        + " of its peers'"), FIX));
            }
        }
        return out;
    }

    private static String tierName(int rank) {
        return switch (rank) {
            case 0 -> "leaf";
            case 1 -> "spine";
            default -> "tier-" + rank + " switch";
        };
    }
}
