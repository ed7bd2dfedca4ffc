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
import org.ibtwin.model.Link;
import org.ibtwin.model.LinkLayer;
import org.ibtwin.model.Node;
import org.ibtwin.model.PhysState;
import org.ibtwin.model.Port;
import org.ibtwin.model.PortState;

/**
 * T01: a link down. A cabled link that did not train (both ports Polling), an HCA with no port up, or an HCA port
 * its host's ibstat shows Down. A switch port with nothing on it is not a finding: unused ports poll too. Ports in
 * Ethernet mode are T03's.
 */
public final class LinkDownCheck implements Check {
    static final String FIX = "reseat or replace the cable (or transceiver); check that the switch port is enabled "
            + "(ibportstate <lid> <port> enable)";

    @Override
    public String id() {
        return "T01";
    }

    @Override
    public String name() {
        return "link down or polling";
    }

    @Override
    public List<Finding> run(FabricState s, Thresholds t) {
        List<Finding> out = new ArrayList<>();
        Set<Node> reported = new HashSet<>();
        for (Link l : s.fabric().links()) {
            if (l.isUp() || ethernet(l.a()) || ethernet(l.b())) {
                continue;
            }
            List<String> ev = new ArrayList<>();
            ev.add(s.portName(l.a()) + ": " + states(l.a()) + ", " + s.portName(l.b()) + ": " + states(l.b()));
            if (l.capableWidth() == null || l.capableSpeed() == null) {
                ev.add("the two ports have no " + (l.capableWidth() == null ? "width" : "speed")
                        + " in common: the link cannot train");
            } else {
                ev.add("both ends could run " + Words.rate(l.capableWidth(), l.capableSpeed())
                        + "; the cable carries nothing (broken or unplugged)");
            }
            out.add(new Finding(id(), Severity.ERROR, s.linkName(l), "link down: both ports polling", ev, FIX));
            reported.add(l.a().node());
            reported.add(l.b().node());
        }
        for (Node n : s.fabric().cas()) {
            if (reported.contains(n) || n.numPorts() == 0) {
                continue;
            }
            boolean anyLinked = false;
            boolean anyEthernet = false;
            for (int i = 1; i <= n.numPorts(); i++) {
                anyLinked |= n.port(i).link() != null;
                anyEthernet |= ethernet(n.port(i));
            }
            if (!anyLinked && !anyEthernet) {
                out.add(new Finding(id(), Severity.ERROR, s.name(n), "HCA has no link: the host is off the fabric",
                        List.of(s.portName(n.port(1)) + ": " + states(n.port(1)) + ", no neighbour"), FIX));
                reported.add(n);
            }
        }
        for (HostInfo h : s.hosts().values()) {
            if (h.node() != null && reported.contains(h.node())) {
                continue;
            }
            for (HostInfo.PortFacts p : h.ports().values()) {
                if (p.linkLayer == LinkLayer.ETHERNET) {
                    continue;
                }
                boolean down = p.state == PortState.DOWN || p.physState == PhysState.POLLING
                        || p.physState == PhysState.DISABLED;
                if (!down || linkedUp(h, p)) {
                    continue;
                }
                String where = h.host() + "/" + p.number;
                String st = (p.state == null ? "?" : p.state.label()) + "/"
                        + (p.physState == null ? "?" : p.physState.label());
                List<String> ev = List.of(where + ": " + st + Words.from(p.source));
                String title = p.physState == PhysState.DISABLED ? "HCA port disabled" : "link down: port polling";
                out.add(new Finding(id(), Severity.ERROR, where, title, ev, FIX));
            }
        }
        return out;
    }

    /** The host's port is up in the topology after all (the files are older or newer): say nothing twice. */
    private static boolean linkedUp(HostInfo h, HostInfo.PortFacts p) {
        Node n = h.node();
        if (n == null || p.number > n.numPorts()) {
            return false;
        }
        Link l = n.port(p.number).link();
        return l != null && l.isUp();
    }

    static boolean ethernet(Port p) {
        return p.linkLayer() == LinkLayer.ETHERNET;
    }

    static String states(Port p) {
        return p.state().label() + "/" + p.physState().label();
    }
}
