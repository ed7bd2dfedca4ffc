package org.ibtwin.doctor.checks;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.ibtwin.doctor.Check;
import org.ibtwin.doctor.FabricState;
import org.ibtwin.doctor.Finding;
import org.ibtwin.doctor.HostInfo;
import org.ibtwin.doctor.Severity;
import org.ibtwin.doctor.SmInfo;
import org.ibtwin.doctor.Thresholds;
import org.ibtwin.model.Link;
import org.ibtwin.model.Node;
import org.ibtwin.model.PhysState;
import org.ibtwin.model.Port;
import org.ibtwin.model.PortState;

/**
 * T08: no subnet manager. Judged only on what the state says: the SMs found (none, or none master), ports whose
 * link is up but that have no LID, SM LID 0, or are stuck in Init — never on a fabric file that carries no LIDs
 * (no SM has run on a planned fabric; that is not a fault).
 */
public final class SubnetManagerCheck implements Check {
    private static final String NO_LID = "Base LID 0";
    private static final String SM_LID_0 = "SM LID 0";
    private static final String INIT = "stuck in Init";
    static final String FIX = "start a subnet manager (systemctl enable --now opensm, or enable the switch's SM) and "
            + "check its log (/var/log/opensm.log) for errors";

    @Override
    public String id() {
        return "T08";
    }

    @Override
    public String name() {
        return "no subnet manager, ports without LIDs";
    }

    @Override
    public String skipReason(FabricState s) {
        if (s.sms() != null || s.lidsKnown() || s.smLidsKnown() || s.portStatesKnown()) {
            return null;
        }
        for (HostInfo h : s.hosts().values()) {
            for (HostInfo.PortFacts p : h.ports().values()) {
                if (p.lid != null || p.smLid != null || p.state != null) {
                    return null;
                }
            }
        }
        return "no LIDs, port states or SM information (a fabric file without LIDs: no SM has run on it)";
    }

    @Override
    public List<Finding> run(FabricState s, Thresholds t) {
        List<Finding> out = new ArrayList<>();
        // an SM whose state nobody printed (saquery -s lists IsSM ports only) may be the master
        if (s.sms() != null && s.sms().stream().noneMatch(sm -> sm.state() == SmInfo.MASTER || sm.state() < 0)) {
            List<String> ev = new ArrayList<>();
            if (s.sms().isEmpty()) {
                ev.add("no port has the IsSM capability and no SM answered");
            }
            for (SmInfo sm : s.sms()) {
                ev.add(String.format("SM 0x%016x lid %d priority %d: %s%s", sm.guid(), sm.lid(), sm.priority(),
                        sm.stateLabel(), Words.from(sm.source())));
            }
            out.add(new Finding(id(), Severity.CRITICAL, "subnet", "no master subnet manager", ev, FIX));
        }
        Set<String> noLid = new LinkedHashSet<>();
        Set<String> noSmLid = new LinkedHashSet<>();
        Set<String> stuck = new LinkedHashSet<>();
        int linked = 0;
        for (Node n : s.fabric().nodes()) {
            boolean anyUp = false;
            for (int i = 1; i <= n.numPorts(); i++) {
                Port p = n.port(i);
                Link l = p.link();
                if (l == null || !l.isUp()) {
                    continue;
                }
                anyUp = true;
                if (s.portStatesKnown() && p.physState() == PhysState.LINK_UP
                        && (p.state() == PortState.INIT || p.state() == PortState.ARMED)) {
                    stuck.add(n.isSwitch() ? s.name(n) : s.portName(p));
                }
                if (n.isSwitch()) {
                    continue;
                }
                linked++;
                if (s.lidsKnown() && p.lid() == 0) {
                    noLid.add(s.portName(p));
                }
                if (s.smLidsKnown() && p.smLid() == 0) {
                    noSmLid.add(s.portName(p));
                }
            }
            if (n.isSwitch() && anyUp) {
                linked++;
                if (s.lidsKnown() && n.port(0).lid() == 0) {
                    noLid.add(s.portName(n.port(0)));
                }
            }
        }
        for (HostInfo h : s.hosts().values()) {
            for (HostInfo.PortFacts p : h.ports().values()) {
                if ((p.physState != null && p.physState != PhysState.LINK_UP)
                        || p.linkLayer == org.ibtwin.model.LinkLayer.ETHERNET) {
                    continue;
                }
                String where = (h.node() != null ? s.name(h.node()) : h.host()) + "/" + p.number;
                if (p.lid != null && p.lid == 0) {
                    noLid.add(where);
                }
                if (p.smLid != null && p.smLid == 0) {
                    noSmLid.add(where);
                }
                if (p.state == PortState.INIT || p.state == PortState.ARMED) {
                    stuck.add(where);
                }
            }
        }
        // one finding per set of symptoms, naming every port that shows exactly that set
        Map<String, Set<String>> symptoms = new LinkedHashMap<>();
        for (String w : noLid) {
            symptoms.computeIfAbsent(w, k -> new TreeSet<>()).add(NO_LID);
        }
        for (String w : noSmLid) {
            symptoms.computeIfAbsent(w, k -> new TreeSet<>()).add(SM_LID_0);
        }
        for (String w : stuck) {
            symptoms.computeIfAbsent(w, k -> new TreeSet<>()).add(INIT);
        }
        Map<Set<String>, List<String>> groups = new LinkedHashMap<>();
        symptoms.forEach((w, set) -> groups.computeIfAbsent(set, k -> new ArrayList<>()).add(w));
        for (Map.Entry<Set<String>, List<String>> g : groups.entrySet()) {
            List<String> where = g.getValue();
            boolean all = g.getKey().contains(NO_LID) && where.size() >= linked && linked > 0;
            Severity sev = all || g.getKey().contains(SM_LID_0) ? Severity.CRITICAL : Severity.ERROR;
            String list = String.join(", ", g.getKey());
            String title = all ? "no port has a LID: no subnet manager has run"
                    : (where.size() == 1 ? "port" : Words.plural(where.size(), "port", "ports"))
                    + " not brought up by a subnet manager: " + list;
            out.add(new Finding(id(), sev, all ? "subnet" : Words.names(where), title,
                    Words.cap(where.stream().map(w -> w + ": link up, " + list).toList()), FIX));
        }
        return out;
    }
}
