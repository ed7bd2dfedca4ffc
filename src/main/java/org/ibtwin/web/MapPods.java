package org.ibtwin.web;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The map of a big fabric as pods: below the top tier, the switches that link to each other without it (a fat tree's
 * pod: its leaves and spines) are one pod, drawn as one node per tier and one for its racks; the top tier's switches
 * are grouped by the pods they reach; every edge is the bundle of the links between two such nodes (its count, its
 * lanes, the worst health). A 16,384-host fabric opens as a few dozen nodes instead of 1,792 nodes and 33,000
 * edges; a pod unfolds ({@link #pod}) into its switches and racks, placed where the pod was, with its links one by
 * one and its links to the top tier bundled per switch and group.
 */
final class MapPods {
    /** Above this many links between switches, the map opens as pods (when there are two or more). */
    static final int ABOVE = 4000;
    /** The place of a pod's switches: {@link MapGraph#DX} apart, a row per tier. */
    private static final int DX = MapGraph.DX;

    final FabricView view;
    /** The top tier's rank, the rows below it, the pod of each switch below it and each top switch's group. */
    final int top;
    final Map<String, Integer> rank = new HashMap<>();
    final Map<String, Integer> podOf = new HashMap<>();
    final Map<String, Integer> groupOf = new HashMap<>();
    final List<String> groupLabels = new ArrayList<>();
    final int pods;
    /** Per pod and tier, its switches in the fabric's order; the pod's racks. */
    final List<TreeMap<Integer, List<String>>> members = new ArrayList<>();
    final List<List<FabricView.NodeRow>> racks = new ArrayList<>();
    final Map<String, int[]> rackHosts = new LinkedHashMap<>();
    final Map<String, String> rackName = new HashMap<>();
    final Map<String, String> rackHealth = new HashMap<>();
    final Map<String, String> tierName = new HashMap<>();
    final int widest;
    final double dy;

    private MapPods(FabricView v) {
        this.view = v;
        int t = -1;
        boolean ranked = true;
        for (FabricView.NodeRow n : v.nodes()) {
            if (n.type().equals("switch")) {
                rank.put(n.id(), n.tier());
                tierName.put(n.id(), n.tierName());
                ranked &= n.tier() != Integer.MAX_VALUE;
                t = Math.max(t, n.tier());
            }
        }
        this.top = ranked ? t : -1;
        // the pods: union-find over the links below the top tier
        Map<String, String> parent = new HashMap<>();
        for (FabricView.NodeRow n : v.nodes()) {
            if (n.type().equals("switch") && n.tier() < top) {
                parent.put(n.id(), n.id());
            }
        }
        for (FabricView.LinkRow l : v.links()) {
            if (l.switchLink() && parent.containsKey(l.aNode()) && parent.containsKey(l.bNode())) {
                String ra = root(parent, l.aNode());
                String rb = root(parent, l.bNode());
                if (!ra.equals(rb)) {
                    parent.put(ra, rb);
                }
            }
        }
        Map<String, Integer> number = new LinkedHashMap<>();
        for (FabricView.NodeRow n : v.nodes()) {
            if (parent.containsKey(n.id())) {
                int p = number.computeIfAbsent(root(parent, n.id()), k -> number.size());
                podOf.put(n.id(), p);
                if (p == members.size()) {
                    members.add(new TreeMap<>());
                    racks.add(new ArrayList<>());
                }
                members.get(p).computeIfAbsent(n.tier(), k -> new ArrayList<>()).add(n.id());
            }
        }
        this.pods = members.size();
        // the top tier's groups: its switches that reach the same pods
        Map<String, java.util.BitSet> reach = new LinkedHashMap<>();
        for (FabricView.NodeRow n : v.nodes()) {
            if (n.type().equals("switch") && n.tier() == top) {
                reach.put(n.id(), new java.util.BitSet());
            }
        }
        for (FabricView.LinkRow l : v.links()) {
            if (l.switchLink()) {
                if (reach.containsKey(l.aNode()) && podOf.containsKey(l.bNode())) {
                    reach.get(l.aNode()).set(podOf.get(l.bNode()));
                } else if (reach.containsKey(l.bNode()) && podOf.containsKey(l.aNode())) {
                    reach.get(l.bNode()).set(podOf.get(l.aNode()));
                }
            }
        }
        Map<java.util.BitSet, Integer> groups = new LinkedHashMap<>();
        Map<Integer, Integer> groupSize = new HashMap<>();
        for (Map.Entry<String, java.util.BitSet> e : reach.entrySet()) {
            int g = groups.computeIfAbsent(e.getValue(), k -> groups.size());
            groupOf.put(e.getKey(), g);
            groupSize.merge(g, 1, Integer::sum);
        }
        String topName = reach.isEmpty() ? "" : tierName.get(reach.keySet().iterator().next());
        for (Map.Entry<java.util.BitSet, Integer> e : groups.entrySet()) {
            int reached = e.getKey().cardinality();
            groupLabels.add(groupSize.get(e.getValue()) + " " + plural(topName) + (groups.size() == 1 ? ""
                    : reached == pods ? "\n(every pod)" : "\n(" + reached + " pods)"));
        }
        // racks: hosts by leaf, the rack's pod its leaf's
        Map<String, FabricView.NodeRow> rackRow = new LinkedHashMap<>();
        for (FabricView.NodeRow n : v.nodes()) {
            if (!n.type().equals("switch") && !n.rack().isEmpty()) {
                rackHosts.computeIfAbsent(n.rack(), k -> new int[1])[0]++;
                rackName.put(n.rack(), n.rackName());
                rackRow.putIfAbsent(n.rack(), n);
            }
        }
        Map<String, String> rackOfNode = new HashMap<>();
        for (FabricView.NodeRow n : v.nodes()) {
            if (!n.type().equals("switch") && !n.rack().isEmpty()) {
                rackOfNode.put(n.id(), n.rack());
            }
        }
        for (FabricView.LinkRow l : v.links()) {
            if (!l.switchLink()) {
                String r = rackOfNode.containsKey(l.aNode()) ? rackOfNode.get(l.aNode()) : rackOfNode.get(l.bNode());
                if (r != null) {
                    rackHealth.merge(r, l.health(), Health::worse);
                }
            }
        }
        for (Map.Entry<String, FabricView.NodeRow> e : rackRow.entrySet()) {
            Integer p = podOf.get(e.getKey().substring(1));
            if (p != null) {
                racks.get(p).add(e.getValue());
            }
        }
        int w = 0;
        for (TreeMap<Integer, List<String>> m : members) {
            for (List<String> ids : m.values()) {
                w = Math.max(w, ids.size());
            }
        }
        this.widest = Math.max(1, w);
        // rows as far apart as in the switch-by-switch map of the same fabric
        this.dy = Math.max(MapGraph.DY, (double) widest * pods * DX / (1.6 * (top + 2)));
    }

    private static String root(Map<String, String> parent, String id) {
        String r = id;
        while (!parent.get(r).equals(r)) {
            r = parent.get(r);
        }
        String c = id;
        while (!c.equals(r)) {
            String next = parent.get(c);
            parent.put(c, r);
            c = next;
        }
        return r;
    }

    /** The pods of a fabric whose map opens as pods (more than {@code above} switch links), null when it does not. */
    static MapPods of(FabricView v, long switchLinks, int above) {
        if (switchLinks <= above) {
            return null;
        }
        MapPods p = new MapPods(v);
        return p.top > 0 && p.pods >= 2 && !p.groupOf.isEmpty() ? p : null;
    }

    /** The pod a node is in (a host: its rack's leaf's), -1 for a top switch or a node in none. */
    int podOfNode(FabricView.NodeRow n) {
        Integer p = podOf.get(n.type().equals("switch") ? n.id() : n.rack().isEmpty() ? "" : n.rack().substring(1));
        return p == null ? -1 : p;
    }

    private static String plural(String tier) {
        return tier.equals("leaf") ? "leaves" : tier + "s";
    }

    /** How wide an overview node is drawn, in model pixels: most of a pod's width, so its label can be read. */
    private double size() {
        return widest * DX * 0.8;
    }

    private double podX(int pod) {
        return ((double) pod + 0.5) * widest * DX;
    }

    private double rowY(int r) {
        return (double) (top - r) * dy;
    }

    /** Where a group of the top tier is drawn: spread over the width of every pod. */
    private double groupX(int g) {
        return ((double) g + 0.5) * widest * DX * pods / groupLabels.size();
    }

    static String podNode(int pod, int r) {
        return "P" + pod + ":" + r;
    }

    static String podRacks(int pod) {
        return "P" + pod + ":racks";
    }

    static String group(int g) {
        return "G" + g;
    }

    /** The overview: per pod a node per tier and one for its racks, the top tier's groups, bundles between them. */
    Map<String, Object> overview() {
        List<Map<String, Object>> nodes = new ArrayList<>();
        List<Map<String, Object>> edges = new ArrayList<>();
        for (int g = 0; g < groupLabels.size(); g++) {
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("id", group(g));
            d.put("label", groupLabels.get(g));
            d.put("size", size());
            d.put("kind", "group");
            d.put("tier", tierName.get(topSwitchOf(g)));
            d.put("rank", top);
            nodes.add(node(d, groupX(g), rowY(top)));
        }
        int switches = 0;
        int hosts = 0;
        for (int p = 0; p < pods; p++) {
            for (Map.Entry<Integer, List<String>> t : members.get(p).entrySet()) {
                String any = t.getValue().getFirst();
                Map<String, Object> d = new LinkedHashMap<>();
                d.put("id", podNode(p, t.getKey()));
                d.put("label", "pod " + (p + 1) + "\n" + t.getValue().size() + " " + plural(tierName.get(any)));
                d.put("size", size());
                d.put("kind", "pod");
                d.put("pod", p);
                d.put("tier", tierName.get(any));
                d.put("rank", t.getKey());
                d.put("count", t.getValue().size());
                nodes.add(node(d, podX(p), rowY(t.getKey())));
                switches += t.getValue().size();
            }
            int h = 0;
            String health = Health.OK;
            for (FabricView.NodeRow r : racks.get(p)) {
                h += rackHosts.get(r.rack())[0];
                health = Health.worse(health, rackHealth.getOrDefault(r.rack(), Health.OK));
            }
            if (!racks.get(p).isEmpty()) {
                hosts += h;
                Map<String, Object> d = new LinkedHashMap<>();
                d.put("id", podRacks(p));
                d.put("label", "pod " + (p + 1) + "\n" + racks.get(p).size() + " racks\n" + h + " hosts");
                d.put("size", size());
                d.put("kind", "pod");
                d.put("pod", p);
                d.put("tier", "host");
                d.put("racks", racks.get(p).size());
                d.put("hosts", h);
                d.put("health", health);
                int low = members.get(p).firstKey();
                nodes.add(node(d, podX(p), rowY(low) + dy));
                Map<String, Object> e = MapGraph.rackEdge(podRacks(p), health);
                e.put("target", podNode(p, low));
                edges.add(Map.of("data", e));
            }
        }
        Bundles b = new Bundles(false);
        Map<String, Integer> health = new TreeMap<>();
        for (FabricView.LinkRow l : view.links()) {
            if (l.switchLink()) {
                health.merge(l.health(), 1, Integer::sum);
                String x = aggregate(l.aNode());
                String y = aggregate(l.bNode());
                if (x != null && y != null && !x.equals(y)) {
                    b.add(x, y, l);
                }
            }
        }
        edges.addAll(b.edges());
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("version", view.version());
        m.put("bundled", true);
        m.put("preset", true);
        m.put("pods", pods);
        m.put("counts", Map.of("switches", switches + groupOf.size(), "racks", rackHosts.size(), "hosts", hosts,
                "health", health));
        m.put("nodes", nodes);
        m.put("edges", edges);
        return m;
    }

    private String topSwitchOf(int g) {
        for (Map.Entry<String, Integer> e : groupOf.entrySet()) {
            if (e.getValue() == g) {
                return e.getKey();
            }
        }
        return "";
    }

    /** The overview node a switch is drawn in. */
    private String aggregate(String id) {
        Integer g = groupOf.get(id);
        if (g != null) {
            return group(g);
        }
        Integer p = podOf.get(id);
        return p == null ? null : podNode(p, rank.get(id));
    }

    /** Pod {@code id} ("P3", as {@code pod} in the overview's data) unfolded: what replaces its overview nodes. */
    Map<String, Object> pod(int p) {
        List<Map<String, Object>> nodes = new ArrayList<>();
        List<Map<String, Object>> edges = new ArrayList<>();
        if (p < 0 || p >= pods) {
            return null;
        }
        Map<String, Double> x = new HashMap<>();
        double left = podX(p) - widest * DX / 2.0;
        for (Map.Entry<Integer, List<String>> t : members.get(p).entrySet()) {
            double step = (double) widest * DX / t.getValue().size();
            for (int i = 0; i < t.getValue().size(); i++) {
                x.put(t.getValue().get(i), left + (i + 0.5) * step);
            }
        }
        Map<String, FabricView.NodeRow> rows = new HashMap<>();
        for (FabricView.NodeRow n : view.nodes()) {
            if (x.containsKey(n.id())) {
                rows.put(n.id(), n);
            }
        }
        for (Map.Entry<Integer, List<String>> t : members.get(p).entrySet()) {
            for (String id : t.getValue()) {
                FabricView.NodeRow n = rows.get(id);
                Map<String, Object> d = MapGraph.switchData(n);
                d.put("pod", p);
                nodes.add(node(d, x.get(id), rowY(t.getKey())));
            }
        }
        for (FabricView.NodeRow r : racks.get(p)) {
            String leaf = r.rack().substring(1);
            Map<String, Object> d = MapGraph.rackData(r.rack(), rackName.get(r.rack()), rackHosts.get(r.rack())[0],
                    rackHealth.getOrDefault(r.rack(), Health.OK));
            d.put("pod", p);
            nodes.add(node(d, x.getOrDefault(leaf, podX(p)), rowY(rank.get(leaf)) + dy));
            edges.add(Map.of("data", MapGraph.rackEdge(r.rack(), rackHealth.getOrDefault(r.rack(), Health.OK))));
        }
        Bundles b = new Bundles(true);
        for (FabricView.LinkRow l : view.links()) {
            if (!l.switchLink()) {
                continue;
            }
            boolean ina = x.containsKey(l.aNode());
            boolean inb = x.containsKey(l.bNode());
            if (ina && inb) {
                edges.add(Map.of("data", MapGraph.edge(l)));
            } else if (ina || inb) {
                String other = aggregate(ina ? l.bNode() : l.aNode());
                if (other != null) {
                    b.add(ina ? l.aNode() : l.bNode(), other, l);
                }
            }
        }
        edges.addAll(b.edges());
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("pod", p);
        m.put("nodes", nodes);
        m.put("edges", edges);
        return m;
    }

    private static Map<String, Object> node(Map<String, Object> data, double x, double y) {
        Map<String, Object> n = new LinkedHashMap<>();
        data.put("preset", true);
        n.put("data", data);
        n.put("position", Map.of("x", x, "y", y));
        return n;
    }

    /**
     * Links bundled into one edge per pair of map nodes: their count, summed lanes, worst health and (when
     * {@code ids}: a switch's links to a group, not a pod's thousand) their ids.
     */
    static final class Bundles {
        private final Map<String, Map<String, Object>> bundles = new LinkedHashMap<>();
        private final boolean ids;

        Bundles(boolean ids) {
            this.ids = ids;
        }

        @SuppressWarnings("unchecked")
        void add(String x, String y, FabricView.LinkRow l) {
            String key = x.compareTo(y) < 0 ? x + "|" + y : y + "|" + x;
            Map<String, Object> b = bundles.get(key);
            if (b == null) {
                b = MapGraph.edge(l);
                b.put("id", "B" + key);
                b.put("source", x.compareTo(y) < 0 ? x : y);
                b.put("target", x.compareTo(y) < 0 ? y : x);
                b.put("count", 0);
                b.put("lanes", 0);
                b.remove("label");
                if (ids) {
                    b.put("links", new ArrayList<String>());
                }
                bundles.put(key, b);
            }
            b.put("count", (Integer) b.get("count") + 1);
            if (ids) {
                ((List<String>) b.get("links")).add(l.id());
            }
            b.put("health", Health.worse((String) b.get("health"), l.health()));
            b.put("lanes", (Integer) b.get("lanes") + l.lanes());
        }

        List<Map<String, Object>> edges() {
            List<Map<String, Object>> out = new ArrayList<>();
            for (Map<String, Object> b : bundles.values()) {
                b.put("label", b.get("count") + " links");
                out.add(Map.of("data", b));
            }
            return out;
        }
    }
}
