package org.ibtwin.doctor.checks;

import java.util.ArrayList;
import java.util.List;
import org.ibtwin.doctor.Check;
import org.ibtwin.doctor.FabricState;
import org.ibtwin.doctor.Finding;
import org.ibtwin.doctor.Severity;
import org.ibtwin.doctor.Thresholds;
import org.ibtwin.model.CableKind;
import org.ibtwin.model.Link;

/**
 * T06: a cable rated below its ports (an EDR cable between HDR ports): the link runs at the cable's rating. Needs
 * the cables described (a fabric description); links whose cable nobody described are judged by T04 alone.
 */
public final class CableRatingCheck implements Check {
    static final String FIX = "use a cable rated for the ports' speed";

    @Override
    public String id() {
        return "T06";
    }

    @Override
    public String name() {
        return "cable rated below its ports";
    }

    @Override
    public String skipReason(FabricState s) {
        for (Link l : s.fabric().links()) {
            if (l.cable().kind() != CableKind.UNKNOWN) {
                return null;
            }
        }
        return "no cable is described (cables come from a fabric description)";
    }

    @Override
    public List<Finding> run(FabricState s, Thresholds t) {
        List<Finding> out = new ArrayList<>();
        for (Link l : s.fabric().links()) {
            if (!LinkRates.heldByRatedCable(l)) {
                continue;
            }
            List<String> ev = new ArrayList<>();
            ev.add(s.linkName(l) + ": " + Words.active(l) + ", both ends support " + l.capableSpeed().label());
            ev.add(LinkRates.cable(l));
            out.add(new Finding(id(), Severity.WARNING, s.linkName(l), l.cable().maxSpeed().label()
                    + "-rated cable between " + l.capableSpeed().label() + " ports", ev, FIX));
        }
        return out;
    }
}
