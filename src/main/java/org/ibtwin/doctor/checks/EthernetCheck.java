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

/**
 * T03: an HCA port set to Ethernet (mlxconfig LINK_TYPE) in an InfiniBand fabric: its link never comes up. An
 * ERROR where the port is cabled into the fabric or is the host's only port; a RoCE port beside an InfiniBand port
 * of the same host, cabled to nothing in the fabric, is how dual-protocol hosts are built: INFO.
 */
public final class EthernetCheck implements Check {
    static final String FIX = "set the port back to InfiniBand (mlxconfig -d <dev> set LINK_TYPE_P1=1) and reset the "
            + "card (mlxfwreset) or reboot";
    static final String ROCE_FIX = "nothing, if the port is RoCE by design; else set it back to InfiniBand "
            + "(mlxconfig -d <dev> set LINK_TYPE_P<n>=1) and reset the card";

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
                String ib = p.remote() == null ? infinibandPort(s, n) : null;
                if (ib != null) {
                    ev.add(ib + " beside it runs InfiniBand; this port is cabled to nothing in the fabric");
                    out.add(new Finding(id(), Severity.INFO, where, "RoCE port beside an InfiniBand port", ev,
                            ROCE_FIX));
                } else {
                    out.add(new Finding(id(), Severity.ERROR, where, "port runs Ethernet in an InfiniBand fabric", ev,
                            FIX));
                }
            }
        }
        for (HostInfo h : s.hosts().values()) {
            for (HostInfo.PortFacts p : h.ports().values()) {
                String where = (h.node() != null ? s.name(h.node()) : h.host()) + "/" + p.number;
                if (p.linkLayer == LinkLayer.ETHERNET && seen.add(where)) {
                    String ib = infinibandPort(s, h, p);
                    if (ib != null) {
                        out.add(new Finding(id(), Severity.INFO, where, "RoCE port beside an InfiniBand port",
                                List.of(where + ": link layer Ethernet" + Words.from(p.source), ib
                                        + " beside it runs InfiniBand"), ROCE_FIX));
                    } else {
                        out.add(new Finding(id(), Severity.ERROR, where, "port runs Ethernet in an InfiniBand fabric",
                                List.of(where + ": link layer Ethernet" + Words.from(p.source)), FIX));
                    }
                }
            }
        }
        return out;
    }

    /** Another port of {@code n} that runs InfiniBand, by name; null when there is none. */
    private static String infinibandPort(FabricState s, Node n) {
        for (int i = 1; i <= n.numPorts(); i++) {
            if (n.port(i).linkLayer() == LinkLayer.INFINIBAND) {
                return s.portName(n.port(i));
            }
        }
        return null;
    }

    /**
     * Another port of host {@code h} that runs InfiniBand (by its facts, else by its node in the fabric), by name;
     * null when there is none. The Ethernet port itself must not be cabled into the fabric.
     */
    private static String infinibandPort(FabricState s, HostInfo h, HostInfo.PortFacts eth) {
        Node n = h.node();
        if (n != null && eth.number >= 1 && eth.number <= n.numPorts() && n.port(eth.number).remote() != null) {
            return null;   // cabled to an IB switch: it keeps that port down
        }
        String name = n != null ? s.name(n) : h.host();
        for (HostInfo.PortFacts o : h.ports().values()) {
            if (o != eth && o.linkLayer == LinkLayer.INFINIBAND) {
                return name + "/" + o.number;
            }
        }
        return null;
    }
}
