package org.ibtwin.doctor.checks;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.ibtwin.doctor.Check;
import org.ibtwin.doctor.FabricState;
import org.ibtwin.doctor.Finding;
import org.ibtwin.doctor.Severity;
import org.ibtwin.doctor.SmInfo;
import org.ibtwin.doctor.Thresholds;
import org.ibtwin.format.PartitionsConf;
import org.ibtwin.model.Node;
import org.ibtwin.model.NodeType;
import org.ibtwin.model.Partitions;
import org.ibtwin.model.Port;

/**
 * T11: hosts that share no partition, and a partitions.conf that locks the SM's own port out. Two ports can talk
 * when they share a P_Key and at least one of them is a full member ({@link Partitions#canTalk}); that is pairwise,
 * not transitive (a full Default member such as the SM's host reaching two tenants does not join them). The hosts
 * are classed by P_Key table; each class is named with the larger classes it cannot reach, and with itself when its
 * members cannot reach each other. The SM's port (SELF) is the master's from SMInfo, else the one SM known.
 * Deliberate isolation shows up too: suppress
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
            if (smGuid == 0 && s.sms().size() == 1) {
                smGuid = s.sms().get(0).guid();
            }
        }
        Port smPort = smGuid == 0 ? null : portByGuid(s, smGuid);
        PartitionsConf conf = s.partitions();
        if (conf != null) {
            long g = smGuid != 0 ? smGuid : UNKNOWN_SM;
            NodeType type = smPort != null ? smPort.node().type() : NodeType.CA;
            List<PartitionsConf.Member> lockout = conf.lockout(g, type);
            if (!lockout.isEmpty()) {
                List<String> ev = new ArrayList<>();
                for (PartitionsConf.Member m : lockout) {
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
            if (!Partitions.isFullMember(smPort.pkeys(), Partitions.DEFAULT)) {
                out.add(new Finding(id(), Severity.CRITICAL, s.portName(smPort), "the SM's port is not a full member "
                        + "of the Default partition", List.of(s.portName(smPort) + ": P_Keys " + keys(smPort.pkeys())),
                        "make the SM's port a full member of Default (0xffff) and reread partitions.conf"));
            }
        }
        // the CA ports by P_Key table: as partitions.conf would program them, else as they are
        Map<String, int[]> tableOf = new LinkedHashMap<>();
        Map<String, Map<String, Boolean>> sigOf = new LinkedHashMap<>();
        Map<String, List<String>> portsOf = new LinkedHashMap<>();
        for (Node n : s.fabric().cas()) {
            for (int i = 1; i <= n.numPorts(); i++) {
                Port p = n.port(i);
                if (p.link() == null) {
                    continue;
                }
                int[] table = conf != null ? conf.table(p.guid(), NodeType.CA, smGuid) : p.pkeys();
                Map<String, Boolean> sig = new TreeMap<>();
                for (int k : table) {
                    if ((k & Partitions.DEFAULT) != 0) {
                        sig.merge(String.format("0x%04x", k & Partitions.DEFAULT), (k & Partitions.FULL) != 0,
                                Boolean::logicalOr);
                    }
                }
                String key = sig.toString();
                tableOf.putIfAbsent(key, table);
                sigOf.putIfAbsent(key, sig);
                portsOf.computeIfAbsent(key, k -> new ArrayList<>()).add(n.numPorts() == 1 ? s.name(n)
                        : s.portName(p));
            }
        }
        // reachability is pairwise (Partitions.canTalk), never transitive: each class of ports is named with the
        // larger classes it cannot reach, and with itself when its own members cannot reach each other
        List<String> classes = new ArrayList<>(sigOf.keySet());
        classes.sort((a, b) -> Integer.compare(portsOf.get(b).size(), portsOf.get(a).size()));
        for (int j = 0; j < classes.size(); j++) {
            String cj = classes.get(j);
            List<String> mine = portsOf.get(cj);
            boolean apart = mine.size() > 1 && !Partitions.canTalk(tableOf.get(cj), tableOf.get(cj));
            List<String> unreached = new ArrayList<>();
            for (int i = 0; i < j; i++) {
                if (!Partitions.canTalk(tableOf.get(classes.get(i)), tableOf.get(cj))) {
                    unreached.add(classes.get(i));
                }
            }
            if (!apart && unreached.isEmpty()) {
                continue;
            }
            List<String> ev = new ArrayList<>();
            ev.add(Words.names(mine) + ": " + describe(sigOf.get(cj)));
            List<String> others = new ArrayList<>();
            for (String ci : unreached) {
                others.addAll(portsOf.get(ci));
                ev.add(Words.names(portsOf.get(ci)) + ": " + describe(sigOf.get(ci)));
            }
            if (apart) {
                ev.add("each is only a limited member: limited members cannot talk to each other");
            } else {
                ev.add("no partition has both, with a full member among them");
            }
            String whom = others.isEmpty() ? "each other"
                    : (apart ? "each other or " : "") + "the other " + Words.plural(others.size(), "host", "hosts")
                    + (apart ? "" : " (" + Words.names(others) + ")");
            out.add(new Finding(id(), Severity.WARNING, Words.names(mine), (mine.size() == 1 ? "host shares"
                    : "hosts share") + " no partition with " + whom + ": RDMA connections time out", ev, FIX));
        }
        return out;
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
