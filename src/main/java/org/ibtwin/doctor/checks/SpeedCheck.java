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
import org.ibtwin.model.DeviceCatalog;
import org.ibtwin.model.Link;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.LinkWidth;
import org.ibtwin.model.Node;

/**
 * T04: a link trained at a lower speed than both of its ends support (a 4xDDR among 4xHDR links): a failing or
 * badly seated cable. A link held at its described cable's rating is T06's. Hosts without a topology are judged by
 * their own ibstat/ibstatus rate against what their HCA model supports.
 */
public final class SpeedCheck implements Check {
    static final String FIX = "check the cable's rating against the ports, reseat both ends, replace the cable or "
            + "transceiver if it still trains low";

    @Override
    public String id() {
        return "T04";
    }

    @Override
    public String name() {
        return "link trained at a lower speed";
    }

    @Override
    public List<Finding> run(FabricState s, Thresholds t) {
        List<Finding> out = new ArrayList<>();
        List<Link> links = s.fabric().links();
        Set<Node> covered = new HashSet<>();
        for (Link l : links) {
            if (!l.isUp()) {
                continue;
            }
            covered.add(l.a().node());
            covered.add(l.b().node());
            LinkSpeed cap = l.capableSpeed();
            if (cap == null || l.activeSpeed().compareTo(cap) >= 0 || LinkRates.heldByRatedCable(l)) {
                continue;
            }
            List<String> ev = new ArrayList<>();
            ev.add(s.linkName(l) + ": " + Words.active(l) + ", both ends support " + cap.label() + " (could be "
                    + Words.rateGbps(l.activeWidth(), cap) + ")");
            String peers = LinkRates.peers(s, l, links);
            if (peers != null) {
                ev.add(peers);
            }
            String cable = LinkRates.cable(l);
            if (cable != null) {
                ev.add(cable);
            }
            out.add(new Finding(id(), Severity.ERROR, s.linkName(l), "link trained at " + l.activeSpeed().label()
                    + " where both ends support " + cap.label(), ev, FIX));
        }
        for (HostInfo h : s.hosts().values()) {
            if (h.node() != null && covered.contains(h.node())) {
                continue;
            }
            LinkSpeed max = hcaSpeed(h);
            if (max == null) {
                continue;
            }
            for (HostInfo.PortFacts p : h.ports().values()) {
                if (p.speed == null || p.speed.compareTo(max) >= 0) {
                    continue;
                }
                String where = h.host() + "/" + p.number;
                LinkWidth w = p.width == null ? LinkWidth.X4 : p.width;
                out.add(new Finding(id(), Severity.ERROR, where, "link trained at " + p.speed.label()
                        + " where the HCA supports " + max.label(),
                        List.of(where + ": " + Words.rateGbps(w, p.speed) + Words.from(p.source),
                                "the HCA (" + h.device() + ") supports " + max.label()), FIX));
            }
        }
        return out;
    }

    /** The top speed of a host's HCA model, when its device is known. */
    static LinkSpeed hcaSpeed(HostInfo h) {
        if (h.node() != null) {
            DeviceCatalog.Device d = DeviceCatalog.find(h.node().vendorId(), h.node().deviceId());
            if (d != null) {
                return d.maxSpeed();
            }
        }
        String dev = h.device();
        if (dev == null) {
            return null;
        }
        for (DeviceCatalog.Device d : DeviceCatalog.all()) {
            if (dev.equals(d.name()) || dev.equals("MT" + d.deviceId())) {
                return d.maxSpeed();
            }
        }
        return null;
    }
}
