package org.ibtwin.doctor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What changed between two snapshots: nodes and links added or gone, links whose width or speed changed, LIDs
 * that moved, port states that changed, P_Key tables and MTUs that changed (where both snapshots know them), the
 * switches whose forwarding tables changed, the SMs, host facts, and how much each counter rose. Nodes are matched by
 * GUID and links by the GUIDs and numbers of their ports, so renaming a node changes nothing here.
 */
public record SnapshotDiff(String from, String to, List<String> nodesAdded, List<String> nodesGone,
                           List<String> linksAdded, List<String> linksGone, List<String> linksChanged,
                           List<String> lidsChanged, List<String> statesChanged, List<String> pkeysChanged,
                           List<String> mtusChanged, List<String> lftsChanged, List<String> smsChanged,
                           List<String> hostsChanged, List<String> counterRises) {

    public static SnapshotDiff of(Snapshot a, Snapshot b) {
        List<String> nodesAdded = new ArrayList<>();
        List<String> nodesGone = new ArrayList<>();
        List<String> lids = new ArrayList<>();
        List<String> states = new ArrayList<>();
        List<String> pkeys = new ArrayList<>();
        List<String> mtus = new ArrayList<>();
        Map<String, Snapshot.SNode> na = byGuid(a.nodes());
        Map<String, Snapshot.SNode> nb = byGuid(b.nodes());
        for (Snapshot.SNode n : b.nodes()) {
            Snapshot.SNode old = na.get(n.guid());
            if (old == null) {
                nodesAdded.add(n.type() + " " + n.name() + " (" + n.guid() + ")");
                continue;
            }
            Map<Integer, Snapshot.SPort> op = new LinkedHashMap<>();
            old.ports().forEach(p -> op.put(p.port(), p));
            for (Snapshot.SPort p : n.ports()) {
                Snapshot.SPort q = op.get(p.port());
                String where = n.name() + "/" + p.port();
                if (q != null && q.lid() != p.lid()) {
                    lids.add(where + ": LID " + q.lid() + " -> " + p.lid());
                }
                if (q != null && (!q.state().equals(p.state()) || !q.phys().equals(p.phys()))) {
                    states.add(where + ": " + q.state() + "/" + q.phys() + " -> " + p.state() + "/" + p.phys());
                }
                if (q != null && q.pkeys() != null && p.pkeys() != null && !q.pkeys().equals(p.pkeys())) {
                    pkeys.add(where + ": P_Keys " + keys(q.pkeys()) + " -> " + keys(p.pkeys()));
                }
                if (q != null && q.mtuActive() != 0 && p.mtuActive() != 0 && q.mtuActive() != p.mtuActive()) {
                    mtus.add(where + ": MTU " + q.mtuActive() + " -> " + p.mtuActive());
                }
                if (q != null && q.mtuCap() != 0 && p.mtuCap() != 0 && q.mtuCap() != p.mtuCap()) {
                    mtus.add(where + ": MTU cap " + q.mtuCap() + " -> " + p.mtuCap());
                }
            }
        }
        for (Snapshot.SNode n : a.nodes()) {
            if (!nb.containsKey(n.guid())) {
                nodesGone.add(n.type() + " " + n.name() + " (" + n.guid() + ")");
            }
        }
        Map<String, Snapshot.SLink> la = byEnds(a.links());
        Map<String, Snapshot.SLink> lb = byEnds(b.links());
        List<String> added = new ArrayList<>();
        List<String> gone = new ArrayList<>();
        List<String> changed = new ArrayList<>();
        lb.forEach((k, l) -> {
            Snapshot.SLink old = la.get(k);
            if (old == null) {
                added.add(l.a() + " <-> " + l.b() + " " + l.rate());
            } else if (!old.rate().equals(l.rate())) {
                changed.add(l.a() + " <-> " + l.b() + ": " + old.rate() + " -> " + l.rate()
                        + (l.capable().equals(l.rate()) ? "" : " (could be " + l.capable() + ")"));
            }
        });
        la.forEach((k, l) -> {
            if (!lb.containsKey(k)) {
                gone.add(l.a() + " <-> " + l.b() + " " + l.rate());
            }
        });
        List<String> lfts = new ArrayList<>();
        Map<String, Snapshot.SLft> fa = new LinkedHashMap<>();
        a.lfts().forEach(x -> fa.put(x.guid(), x));
        for (Snapshot.SLft x : b.lfts()) {
            Snapshot.SLft o = fa.get(x.guid());
            if (o == null) {
                continue;
            }
            int n = Math.max(o.ports().size(), x.ports().size());
            int moved = 0;
            String first = null;
            for (int lid = 1; lid < n; lid++) {
                int before = lid < o.ports().size() ? o.ports().get(lid) : -1;
                int after = lid < x.ports().size() ? x.ports().get(lid) : -1;
                if (before != after) {
                    moved++;
                    if (first == null) {
                        first = "LID " + lid + ": " + port(before) + " -> " + port(after);
                    }
                }
            }
            if (moved > 0) {
                lfts.add(x.name() + ": " + moved + (moved == 1 ? " LID" : " LIDs") + " routed differently (" + first
                        + (moved > 1 ? ", ..." : "") + ")");
            }
        }
        List<String> sms = new ArrayList<>();
        Map<String, Snapshot.SSm> sa = new LinkedHashMap<>();
        a.sms().forEach(s -> sa.put(s.guid(), s));
        Map<String, Snapshot.SSm> sb = new LinkedHashMap<>();
        b.sms().forEach(s -> sb.put(s.guid(), s));
        sb.forEach((g, s) -> {
            Snapshot.SSm o = sa.get(g);
            if (o == null) {
                sms.add("SM " + g + " appeared: " + s.state() + ", lid " + s.lid());
            } else if (!o.state().equals(s.state()) || o.lid() != s.lid()) {
                sms.add("SM " + g + ": " + o.state() + " lid " + o.lid() + " -> " + s.state() + " lid " + s.lid());
            }
        });
        sa.forEach((g, s) -> {
            if (!sb.containsKey(g)) {
                sms.add("SM " + g + " gone (was " + s.state() + ", lid " + s.lid() + ")");
            }
        });
        List<String> hosts = new ArrayList<>();
        b.hosts().forEach((h, facts) -> {
            Map<String, String> o = a.hosts().getOrDefault(h, Map.of());
            facts.forEach((k, v) -> {
                if (o.containsKey(k) && !Objects.equals(o.get(k), v)) {
                    hosts.add(h + ": " + k + " " + o.get(k) + " -> " + v);
                }
            });
        });
        List<String> rises = new ArrayList<>();
        Map<String, Snapshot.SCounters> ca = new LinkedHashMap<>();
        a.counters().forEach(c -> ca.put(c.key(), c));
        for (Snapshot.SCounters c : b.counters()) {
            Snapshot.SCounters o = ca.get(c.key());
            c.values().forEach((k, v) -> {
                long before = o == null || o.values().get(k) == null ? 0 : o.values().get(k);
                if (v != before && !k.endsWith("Data") && !k.endsWith("Pkts")) {
                    long rise = v >= before ? v - before : v;
                    rises.add(c.port() + ": " + k + " " + (v >= before ? "+" + rise : "cleared, now " + v) + " ("
                            + before + " -> " + v + ")");
                }
            });
        }
        return new SnapshotDiff(label(a), label(b), nodesAdded, nodesGone, added, gone, changed, lids, states, pkeys,
                mtus, lfts, sms, hosts, rises);
    }

    private static String keys(List<String> pkeys) {
        return pkeys.isEmpty() ? "none" : String.join(" ", pkeys);
    }

    private static String port(int p) {
        return p < 0 ? "unrouted" : "port " + p;
    }

    private static String label(Snapshot s) {
        return s.source() + " at " + s.time();
    }

    private static Map<String, Snapshot.SNode> byGuid(List<Snapshot.SNode> nodes) {
        Map<String, Snapshot.SNode> m = new LinkedHashMap<>();
        nodes.forEach(n -> m.put(n.guid(), n));
        return m;
    }

    private static Map<String, Snapshot.SLink> byEnds(List<Snapshot.SLink> links) {
        Map<String, Snapshot.SLink> m = new LinkedHashMap<>();
        for (Snapshot.SLink l : links) {
            String k = l.aKey().compareTo(l.bKey()) < 0 ? l.aKey() + "|" + l.bKey() : l.bKey() + "|" + l.aKey();
            m.put(k, l);
        }
        return m;
    }

    public boolean empty() {
        return nodesAdded.isEmpty() && nodesGone.isEmpty() && linksAdded.isEmpty() && linksGone.isEmpty()
                && linksChanged.isEmpty() && lidsChanged.isEmpty() && statesChanged.isEmpty() && pkeysChanged.isEmpty()
                && mtusChanged.isEmpty() && lftsChanged.isEmpty() && smsChanged.isEmpty()
                && hostsChanged.isEmpty() && counterRises.isEmpty();
    }

    private Map<String, List<String>> sections() {
        Map<String, List<String>> m = new LinkedHashMap<>();
        m.put("nodes added", nodesAdded);
        m.put("nodes gone", nodesGone);
        m.put("links added", linksAdded);
        m.put("links gone", linksGone);
        m.put("links changed", linksChanged);
        m.put("LIDs changed", lidsChanged);
        m.put("port states changed", statesChanged);
        m.put("P_Keys changed", pkeysChanged);
        m.put("MTUs changed", mtusChanged);
        m.put("forwarding tables changed", lftsChanged);
        m.put("subnet managers", smsChanged);
        m.put("host facts changed", hostsChanged);
        m.put("counters", counterRises);
        return m;
    }

    public String toText() {
        StringBuilder sb = new StringBuilder();
        sb.append("snapshot diff: ").append(from).append("\n           -> ").append(to).append("\n\n");
        int total = 0;
        for (Map.Entry<String, List<String>> e : sections().entrySet()) {
            if (e.getValue().isEmpty()) {
                continue;
            }
            total += e.getValue().size();
            sb.append(e.getKey()).append(" (").append(e.getValue().size()).append("):\n");
            for (String l : e.getValue()) {
                sb.append("  ").append(l).append('\n');
            }
        }
        sb.append(total == 0 ? "no differences\n" : "\n" + total + " difference" + (total == 1 ? "" : "s") + "\n");
        return sb.toString();
    }

    public Map<String, Object> toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("from", from);
        m.put("to", to);
        sections().forEach((k, v) -> m.put(k.replace(' ', '_').replace("LIDs", "lids").replace("P_Keys", "pkeys")
                .replace("MTUs", "mtus"), v));
        return m;
    }
}
