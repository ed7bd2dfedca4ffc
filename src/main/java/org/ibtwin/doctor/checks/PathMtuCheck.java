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
import org.ibtwin.model.Mtu;
import org.ibtwin.model.Node;
import org.ibtwin.model.Port;

/**
 * T13: an MTU along the way lower than the hosts at the ends support. The hosts' MTU is the largest MTU cap among
 * the CA ports; a link whose two ends agree on less (a switch port capped at 2048) limits every path through it.
 * Hosts report it themselves as an active MTU below their max MTU (ibv_devinfo).
 */
public final class PathMtuCheck implements Check {
    static final String FIX = "raise the MTU cap where it is limited (the switch port's or the SM's partition mtu= "
            + "setting), then compare ib_write_bw -m 4096 with -m 2048";

    @Override
    public String id() {
        return "T13";
    }

    @Override
    public String name() {
        return "MTU lower along a path than at its ends";
    }

    @Override
    public String skipReason(FabricState s) {
        if (s.mtusKnown()) {
            return null;
        }
        for (HostInfo h : s.hosts().values()) {
            for (HostInfo.PortFacts p : h.ports().values()) {
                if (p.activeMtu != null && p.maxMtu != null) {
                    return null;
                }
            }
        }
        return "no MTUs (live PortInfo, a fabric file, or ibv_devinfo outputs)";
    }

    @Override
    public List<Finding> run(FabricState s, Thresholds t) {
        List<Finding> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        if (s.mtusKnown()) {
            Mtu hosts = null;
            for (Node n : s.fabric().cas()) {
                for (int i = 1; i <= n.numPorts(); i++) {
                    Port p = n.port(i);
                    if (p.link() != null && p.link().isUp() && (hosts == null || p.mtuCap().compareTo(hosts) > 0)) {
                        hosts = p.mtuCap();
                    }
                }
            }
            if (hosts != null) {
                for (Link l : s.fabric().links()) {
                    if (!l.isUp()) {
                        continue;
                    }
                    Mtu m = Mtu.min(l.a().mtuCap(), l.b().mtuCap());
                    if (m.compareTo(hosts) >= 0) {
                        continue;
                    }
                    Port limiting = l.a().mtuCap() == m ? l.a() : l.b();
                    String where = s.linkName(l);
                    seen.add(s.portName(l.a()));
                    seen.add(s.portName(l.b()));
                    out.add(new Finding(id(), Severity.WARNING, where, "MTU " + m.bytes() + " on a link where the "
                            + "hosts support " + hosts.bytes(), List.of(s.portName(limiting) + ": MTU cap "
                            + m.bytes(), "the hosts' ports support MTU " + hosts.bytes()
                            + ": every path through this link is limited to " + m.bytes()), FIX));
                }
            }
        }
        for (HostInfo h : s.hosts().values()) {
            for (HostInfo.PortFacts p : h.ports().values()) {
                String where = (h.node() != null ? s.name(h.node()) : h.host()) + "/" + p.number;
                if (p.activeMtu == null || p.maxMtu == null || p.activeMtu.compareTo(p.maxMtu) >= 0
                        || seen.contains(where) || p.linkLayer == org.ibtwin.model.LinkLayer.ETHERNET) {
                    continue;
                }
                out.add(new Finding(id(), Severity.WARNING, where, "active MTU " + p.activeMtu.bytes()
                        + " below the HCA's " + p.maxMtu.bytes(), List.of(where + ": max_mtu " + p.maxMtu.bytes()
                        + ", active_mtu " + p.activeMtu.bytes() + Words.from(p.source)), FIX));
            }
        }
        return out;
    }
}
