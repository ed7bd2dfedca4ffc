package org.ibtwin.doctor.checks;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.ibtwin.doctor.Check;
import org.ibtwin.doctor.FabricState;
import org.ibtwin.doctor.Finding;
import org.ibtwin.doctor.HostInfo;
import org.ibtwin.doctor.Severity;
import org.ibtwin.doctor.Thresholds;
import org.ibtwin.model.Guids;
import org.ibtwin.model.Node;
import org.ibtwin.model.Port;

/**
 * T20: duplicate GUIDs or LIDs. Port GUIDs and LIDs (with their LMC ranges) must be unique in a subnet: the SM
 * cannot route to a LID two ports claim, and a GUID seen twice makes discovery merge two devices.
 */
public final class DuplicateIdCheck implements Check {
    static final String FIX_GUID = "find the device with the copied GUID (a cloned VF, a firmware burnt with another "
            + "card's GUIDs) and give it its own (flint -d <dev> sg)";
    static final String FIX_LID = "fix the LID assignment: remove stale entries from the SM's guid2lid file and "
            + "restart the SM with -r (reassign LIDs)";

    @Override
    public String id() {
        return "T20";
    }

    @Override
    public String name() {
        return "duplicate GUIDs or LIDs";
    }

    @Override
    public List<Finding> run(FabricState s, Thresholds t) {
        List<Finding> out = new ArrayList<>();
        Map<Long, List<String>> byGuid = new LinkedHashMap<>();
        Map<Integer, List<String>> byLid = new LinkedHashMap<>();
        for (Node n : s.fabric().nodes()) {
            if (n.isSwitch()) {
                add(byGuid, n.port(0).guid(), s.portName(n.port(0)));
                addLids(byLid, n.port(0), s);
                continue;
            }
            for (int i = 1; i <= n.numPorts(); i++) {
                Port p = n.port(i);
                add(byGuid, p.guid(), s.portName(p));
                addLids(byLid, p, s);
            }
        }
        Map<Long, List<String>> hostGuids = new HashMap<>();
        for (HostInfo h : s.hosts().values()) {
            if (h.nodeGuid() != null) {
                hostGuids.computeIfAbsent(h.nodeGuid(), k -> new ArrayList<>()).add(h.host()
                        + Words.from(h.source(HostInfo.Key.NODE_GUID)));
            }
        }
        for (Map.Entry<Long, List<String>> e : byGuid.entrySet()) {
            if (e.getValue().size() > 1) {
                out.add(new Finding(id(), Severity.CRITICAL, Words.names(e.getValue()), "port GUID "
                        + Guids.hex(e.getKey()) + " on " + e.getValue().size() + " ports",
                        e.getValue().stream().map(w -> w + ": port GUID " + Guids.hex(e.getKey())).toList(), FIX_GUID));
            }
        }
        for (Map.Entry<Long, List<String>> e : hostGuids.entrySet()) {
            if (e.getValue().size() > 1) {
                out.add(new Finding(id(), Severity.CRITICAL, Words.names(e.getValue().stream().map(w -> w.split(" ")[0])
                        .toList()), "node GUID " + Guids.hex(e.getKey()) + " on " + e.getValue().size() + " hosts",
                        e.getValue().stream().map(w -> w + ": node GUID " + Guids.hex(e.getKey())).toList(), FIX_GUID));
            }
        }
        if (!s.duplicateGuids().isEmpty()) {
            out.add(new Finding(id(), Severity.CRITICAL, "subnet", "a GUID answers from more than one place",
                    Words.cap(s.duplicateGuids()), FIX_GUID));
        }
        if (s.lidsKnown()) {
            for (Map.Entry<Integer, List<String>> e : byLid.entrySet()) {
                if (e.getValue().size() > 1) {
                    out.add(new Finding(id(), Severity.CRITICAL, Words.names(e.getValue()), "LID " + e.getKey()
                            + " on " + e.getValue().size() + " ports",
                            e.getValue().stream().map(w -> w + ": LID " + e.getKey()).toList(), FIX_LID));
                }
            }
        }
        return out;
    }

    private static void add(Map<Long, List<String>> m, long guid, String where) {
        if (guid != 0) {
            m.computeIfAbsent(guid, k -> new ArrayList<>(1)).add(where);
        }
    }

    private static void addLids(Map<Integer, List<String>> m, Port p, FabricState s) {
        if (p.lid() == 0) {
            return;
        }
        int n = 1 << p.lmc();
        for (int k = 0; k < n; k++) {
            m.computeIfAbsent(p.lid() + k, x -> new ArrayList<>(1)).add(s.portName(p));
        }
    }
}
