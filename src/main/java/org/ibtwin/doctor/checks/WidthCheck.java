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
import org.ibtwin.model.LinkWidth;
import org.ibtwin.model.Node;

/** T05: a link trained narrower than both ends support (1X where 4X is possible): a lane of the cable is bad. */
public final class WidthCheck implements Check {
    static final String FIX = "replace the cable or transceiver (a lane is bad); reseat first if it is new";

    @Override
    public String id() {
        return "T05";
    }

    @Override
    public String name() {
        return "link trained at a narrower width";
    }

    @Override
    public List<Finding> run(FabricState s, Thresholds t) {
        List<Finding> out = new ArrayList<>();
        Set<Node> covered = new HashSet<>();
        for (Link l : s.fabric().links()) {
            if (!l.isUp()) {
                continue;
            }
            covered.add(l.a().node());
            covered.add(l.b().node());
            LinkWidth cap = l.capableWidth();
            if (cap == null || l.activeWidth().lanes() >= cap.lanes()) {
                continue;
            }
            List<String> ev = new ArrayList<>();
            ev.add(s.linkName(l) + ": " + Words.active(l) + ", could be " + cap.upperLabel() + " ("
                    + Words.rateGbps(cap, l.activeSpeed()) + ")");
            String cable = LinkRates.cable(l);
            if (cable != null) {
                ev.add(cable);
            }
            out.add(new Finding(id(), Severity.ERROR, s.linkName(l), "link trained at " + l.activeWidth().upperLabel()
                    + ", could be " + cap.upperLabel(), ev, FIX));
        }
        for (HostInfo h : s.hosts().values()) {
            if (h.node() != null && covered.contains(h.node())) {
                continue;
            }
            for (HostInfo.PortFacts p : h.ports().values()) {
                if (p.width != null && p.width.lanes() < LinkWidth.X4.lanes() && SpeedCheck.hcaSpeed(h) != null) {
                    String where = h.host() + "/" + p.number;
                    out.add(new Finding(id(), Severity.ERROR, where, "link trained at " + p.width.upperLabel()
                            + ", could be 4X", List.of(where + ": width " + p.width.upperLabel() + Words.from(p.source)),
                            FIX));
                }
            }
        }
        return out;
    }
}
