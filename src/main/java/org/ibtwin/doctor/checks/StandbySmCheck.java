package org.ibtwin.doctor.checks;

import java.util.ArrayList;
import java.util.List;
import org.ibtwin.doctor.Check;
import org.ibtwin.doctor.FabricState;
import org.ibtwin.doctor.Finding;
import org.ibtwin.doctor.Severity;
import org.ibtwin.doctor.SmInfo;
import org.ibtwin.doctor.Thresholds;
import org.ibtwin.model.Node;
import org.ibtwin.model.Port;

/**
 * T09: one SM and no standby, so the subnet stops being managed when it dies; also two masters. Needs the full list
 * of SMs (live discovery of IsSM ports, or saquery's SMInfoRecord / IsSM output): sminfo alone names only the master.
 */
public final class StandbySmCheck implements Check {
    static final String FIX = "run a second SM (opensm on another host, or the switch SM) at a lower priority "
            + "(sm_priority in opensm.conf) so it waits in STANDBY";

    @Override
    public String id() {
        return "T09";
    }

    @Override
    public String name() {
        return "one SM and no standby";
    }

    @Override
    public String skipReason(FabricState s) {
        if (s.sms() == null) {
            return "no SM information (live discovery, or sminfo and saquery SMInfoRecord outputs)";
        }
        if (!s.smsComplete()) {
            return "only the master SM is known (sminfo); saquery SMInfoRecord lists the standbys";
        }
        return null;
    }

    @Override
    public List<Finding> run(FabricState s, Thresholds t) {
        List<Finding> out = new ArrayList<>();
        List<SmInfo> masters = s.sms().stream().filter(sm -> sm.state() == SmInfo.MASTER).toList();
        // an SM whose state nobody printed (saquery -s lists IsSM ports only) may well be a standby
        long standby = s.sms().stream().filter(sm -> sm.state() == SmInfo.STANDBY || sm.state() < 0).count();
        if (masters.size() == 1 && standby == 0) {
            SmInfo m = masters.get(0);
            List<String> ev = new ArrayList<>();
            for (SmInfo sm : s.sms()) {
                ev.add(describe(s, sm));
            }
            ev.add("no SM in STANDBY");
            out.add(new Finding(id(), Severity.WARNING, where(s, m), "one subnet manager and no standby", ev, FIX));
        } else if (masters.size() > 1) {
            out.add(new Finding(id(), Severity.ERROR, "subnet", masters.size() + " subnet managers claim MASTER",
                    masters.stream().map(sm -> describe(s, sm)).toList(),
                    "give the SMs distinct priorities and check that they see each other (same SM_Key)"));
        }
        return out;
    }

    static String describe(FabricState s, SmInfo sm) {
        return String.format("SM %s (0x%016x) lid %d priority %d: %s%s", where(s, sm), sm.guid(), sm.lid(),
                sm.priority(), sm.stateLabel(), Words.from(sm.source()));
    }

    /** The SM's port by name, when the topology has its GUID. */
    static String where(FabricState s, SmInfo sm) {
        for (Node n : s.fabric().nodes()) {
            for (int i = n.isSwitch() ? 0 : 1; i <= n.numPorts(); i++) {
                Port p = n.port(i);
                if (p.guid() == sm.guid() && (!n.isSwitch() || i == 0)) {
                    return s.portName(p);
                }
            }
        }
        return String.format("0x%016x", sm.guid());
    }
}
