package org.ibtwin.doctor.checks;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.ibtwin.doctor.Check;
import org.ibtwin.doctor.FabricState;
import org.ibtwin.doctor.Finding;
import org.ibtwin.doctor.HostInfo;
import org.ibtwin.doctor.Severity;
import org.ibtwin.doctor.Thresholds;
import org.ibtwin.model.LinkLayer;
import org.ibtwin.model.Node;
import org.ibtwin.model.Port;

/** T03: an HCA port set to Ethernet (mlxconfig LINK_TYPE) in an InfiniBand fabric: its link never comes up. */
public final class EthernetCheck implements Check {
    static final String FIX = "set the port back to InfiniBand (mlxconfig -d <dev> set LINK_TYPE_P1=1) and reset the "
            + "card (mlxfwreset) or reboot";

    @Override
    public String id() {
        return "T03";
    }

    @Override
    public String name() {
        return "port in Ethernet mode";
    }

    @Override
    public List<Finding> run(FabricState s, Thresholds t) {
        List<Finding> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (Node n : s.fabric().nodes()) {
            for (int i = 1; i <= n.numPorts(); i++) {
                Port p = n.port(i);
                if (p.linkLayer() != LinkLayer.ETHERNET) {
                    continue;
                }
                String where = s.portName(p);
                seen.add(where);
                List<String> ev = new ArrayList<>();
                ev.add(where + ": link layer Ethernet");
                if (p.remote() != null) {
                    ev.add("cabled to " + s.portName(p.remote()) + ", which stays " + LinkDownCheck.states(p.remote()));
                }
                out.add(new Finding(id(), Severity.ERROR, where, "port runs Ethernet in an InfiniBand fabric", ev,
                        FIX));
            }
        }
        for (HostInfo h : s.hosts().values()) {
            for (HostInfo.PortFacts p : h.ports().values()) {
                String where = (h.node() != null ? s.name(h.node()) : h.host()) + "/" + p.number;
                if (p.linkLayer == LinkLayer.ETHERNET && seen.add(where)) {
                    out.add(new Finding(id(), Severity.ERROR, where, "port runs Ethernet in an InfiniBand fabric",
                            List.of(where + ": link layer Ethernet" + Words.from(p.source)), FIX));
                }
            }
        }
        return out;
    }
}
