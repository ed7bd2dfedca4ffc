package org.ibtwin.doctor.checks;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.ibtwin.doctor.Check;
import org.ibtwin.doctor.FabricState;
import org.ibtwin.doctor.Finding;
import org.ibtwin.doctor.Severity;
import org.ibtwin.doctor.SmInfo;
import org.ibtwin.doctor.Thresholds;
import org.ibtwin.format.PartitionsConf;
import org.ibtwin.model.Node;
import org.ibtwin.model.NodeType;
import org.ibtwin.model.Port;

/**
 * T11: hosts that share no partition, and a partitions.conf that locks the SM's own port out. Two ports can talk
 * when they share a P_Key and at least one of them is a full member; the hosts are split into groups that can
 * reach each other, and every group apart from the largest is named. Deliberate isolation shows up too: suppress
 * T11 in the thresholds file where tenants are meant to be apart. The partitions come from partitions.conf when
 * given (as OpenSM would apply it), else from the ports' P_Key tables.
 */
public final class PartitionCheck implements Check {
    /** Stands for the SM's port when its GUID is not known: it matches only SELF. */
    static final long UNKNOWN_SM = 0xfffffffffffffffeL;
    static final String FIX = "fix partitions.conf so the hosts that must talk share a P_Key with at least one full "
            + "member, then make the SM reread it (kill -HUP, or restart every SM)";

    @Override
    public String id() {
        return "T11";
    }

    @Override
    public String name() {
        return "hosts sharing no partition; SM locked out";
    }

    @Override
    public String skipReason(FabricState s) {
        return s.partitions() == null && !s.pkeysKnown() ? "no partitions (partitions.conf, or P_Key tables)" : null;
    }

    @Override
    public List<Finding> run(FabricState s, Thresholds t) {
        List<Finding> out = new ArrayList<>();
        long smGuid = 0;
        if (s.sms() != null) {
            for (SmInfo sm : s.sms()) {
                if (sm.state() == SmInfo.MASTER) {
                    smGuid = sm.guid();
                }
            }
        }
        Port smPort = smGuid == 0 ? null : portByGuid(s, smGuid);
        PartitionsConf conf = s.partitions();
        if (conf != null) {
            long g = smGuid != 0 ? smGuid : UNKNOWN_SM;
            NodeType type = smPort != null ? smPort.node().type() : NodeType.CA;
            String def = String.format("0x%04x", PartitionsConf.DEFAULT_PKEY);
            if (conf.memberships(g, type, g).get(def) == PartitionsConf.Membership.LIMITED) {
                List<String> ev = new ArrayList<>();
                for (PartitionsConf.Member m : conf.entriesFor(def, g, type, g)) {
                    ev.add(conf.file() + ":" + m.line() + ": Default partition member " + m.label());
                }
                ev.add("the SM's port ends up a limited member of the Default partition (0x7fff), as is every port "
                        + "not listed full: limited members cannot reach each other, so no one reaches the SA");
                out.add(new Finding(id(), Severity.CRITICAL, smPort != null ? s.portName(smPort) : "SM port",
                        "partitions.conf locks the SM's own port out of the Default partition", ev,
                        "make the SM's port a full member of Default (Default=0x7fff : ALL=limited, SELF=full;) and "
                                + "reread the file"));
            }
        } else if (smPort != null) {
            boolean full = false;
            for (int k : smPort.pkeys()) {
                full |= (k & 0x7fff) == PartitionsConf.DEFAULT_PKEY && (k & 0x8000) != 0;
            }
            if (!full) {
                out.add(new Finding(id(), Severity.CRITICAL, s.portName(smPort), "the SM's port is not a full member "
                        + "of the Default partition", List.of(s.portName(smPort) + ": P_Keys " + keys(smPort.pkeys())),
                        "make the SM's port a full member of Default (0xffff) and reread partitions.conf"));
            }
        }
        // group the CA ports by what they are members of
        Map<String, Map<String, Boolean>> sigOf = new LinkedHashMap<>();
        Map<String, List<String>> portsOf = new LinkedHashMap<>();
        for (Node n : s.fabric().cas()) {
            for (int i = 1; i <= n.numPorts(); i++) {
                Port p = n.port(i);
                if (p.link() == null) {
                    continue;
                }
                Map<String, Boolean> sig = new TreeMap<>();
                if (conf != null) {
                    conf.memberships(p.guid(), NodeType.CA, smGuid).forEach((k, m) ->
                            sig.put(k, m == PartitionsConf.Membership.FULL));
                } else {
                    for (int k : p.pkeys()) {
                        if ((k & 0x7fff) != 0) {
                            sig.merge(String.format("0x%04x", k & 0x7fff), (k & 0x8000) != 0, Boolean::logicalOr);
                        }
                    }
                }
                String key = sig.toString();
                sigOf.putIfAbsent(key, sig);
                portsOf.computeIfAbsent(key, k -> new ArrayList<>()).add(n.numPorts() == 1 ? s.name(n)
                        : s.portName(p));
            }
        }
        List<String> groups = new ArrayList<>(sigOf.keySet());
        int[] parent = new int[groups.size()];
        for (int i = 0; i < parent.length; i++) {
            parent[i] = i;
        }
        for (int i = 0; i < groups.size(); i++) {
            for (int j = i + 1; j < groups.size(); j++) {
                if (canTalk(sigOf.get(groups.get(i)), sigOf.get(groups.get(j)))) {
                    parent[find(parent, i)] = find(parent, j);
                }
            }
        }
        Map<Integer, List<Integer>> comps = new LinkedHashMap<>();
        for (int i = 0; i < groups.size(); i++) {
            comps.computeIfAbsent(find(parent, i), k -> new ArrayList<>()).add(i);
        }
        List<List<Integer>> list = new ArrayList<>(comps.values());
        // a group alone whose members cannot even reach each other is split further: each port is on its own
        int largest = -1;
        int largestSize = -1;
        for (int c = 0; c < list.size(); c++) {
            int size = size(list.get(c), groups, portsOf);
            if (size > largestSize) {
                largest = c;
                largestSize = size;
            }
        }
        for (int c = 0; c < list.size(); c++) {
            List<Integer> comp = list.get(c);
            boolean selfTalk = comp.size() > 1 || canTalk(sigOf.get(groups.get(comp.get(0))),
                    sigOf.get(groups.get(comp.get(0))));
            if (c == largest && (selfTalk || size(comp, groups, portsOf) == 1)) {
                continue;
            }
            TreeSet<String> names = new TreeSet<>();
            List<String> ev = new ArrayList<>();
            for (int g : comp) {
                names.addAll(portsOf.get(groups.get(g)));
                ev.add(Words.names(portsOf.get(groups.get(g))) + ": " + describe(sigOf.get(groups.get(g))));
            }
            int others = largestSize - (c == largest ? names.size() : 0);
            if (c == largest) {
                ev.add("each is only a limited member: limited members cannot talk to each other");
            } else {
                List<String> main = new ArrayList<>();
                for (int g : list.get(largest)) {
                    main.addAll(portsOf.get(groups.get(g)));
                }
                ev.add(Words.plural(others, "other host", "other hosts") + " (" + Words.names(main) + "): "
                        + describe(sigOf.get(groups.get(list.get(largest).get(0)))));
            }
            out.add(new Finding(id(), Severity.WARNING, Words.names(names), (names.size() == 1 ? "host shares"
                    : "hosts share") + " no partition with " + (c == largest ? "each other" : "the other "
                    + Words.plural(others, "host", "hosts")) + ": RDMA connections time out", ev, FIX));
        }
        return out;
    }

    private static int size(List<Integer> comp, List<String> groups, Map<String, List<String>> portsOf) {
        int n = 0;
        for (int g : comp) {
            n += portsOf.get(groups.get(g)).size();
        }
        return n;
    }

    static boolean canTalk(Map<String, Boolean> a, Map<String, Boolean> b) {
        for (Map.Entry<String, Boolean> e : a.entrySet()) {
            Boolean other = b.get(e.getKey());
            if (other != null && (other || e.getValue())) {
                return true;
            }
        }
        return false;
    }

    private static int find(int[] parent, int i) {
        while (parent[i] != i) {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        return i;
    }

    private static String describe(Map<String, Boolean> sig) {
        if (sig.isEmpty()) {
            return "in no partition";
        }
        List<String> parts = new ArrayList<>();
        sig.forEach((k, full) -> parts.add(k + (full ? " full" : " limited")));
        return String.join(", ", parts);
    }

    private static String keys(int[] pkeys) {
        List<String> l = new ArrayList<>();
        for (int k : pkeys) {
            if (k != 0) {
                l.add(String.format("0x%04x", k));
            }
        }
        return l.isEmpty() ? "none" : String.join(" ", l);
    }

    static Port portByGuid(FabricState s, long guid) {
        for (Node n : s.fabric().nodes()) {
            if (n.isSwitch()) {
                if (n.guid() == guid) {
                    return n.port(0);
                }
                continue;
            }
            for (int i = 1; i <= n.numPorts(); i++) {
                if (n.port(i).guid() == guid) {
                    return n.port(i);
                }
            }
        }
        return null;
    }
}
