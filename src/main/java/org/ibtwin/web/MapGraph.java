package org.ibtwin.web;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The map's graph, as cytoscape.js elements: switches (with their tier) and one rack per leaf for its hosts; the
 * links between switches one edge each (bundled into one edge per switch pair on a big fabric), a rack's host links
 * one edge to its leaf coloured by the worst of them. {@link #rack} gives a rack's hosts and links when the page
 * expands it: a 16,384-host fabric is drawn as racks, not as 16,384 icons.
 */
final class MapGraph {
    /** Above this many links between switches, the map draws one edge per switch pair. */
    static final int BUNDLE_ABOVE = 1500;
    /** Above this many links between switches, the server places the map's nodes ({@link #place}). */
    static final int PRESET_ABOVE = 400;

    private MapGraph() {
    }

    static Map<String, Object> of(FabricView v) {
        return of(v, true);
    }

    /** The map; {@code podView}: a big fabric as pods ({@link MapPods}), else switch by switch whatever its size. */
    static Map<String, Object> of(FabricView v, boolean podView) {
        long switchLinks = v.links().stream().filter(FabricView.LinkRow::switchLink).count();
        MapPods pods = !podView ? null : MapPods.of(v, switchLinks, MapPods.ABOVE);
        if (pods != null) {
            return pods.overview();
        }
        List<Map<String, Object>> nodes = new ArrayList<>();
        Map<String, int[]> racks = new LinkedHashMap<>();
        Map<String, String> rackName = new LinkedHashMap<>();
        for (FabricView.NodeRow n : v.nodes()) {
            if (n.type().equals("switch")) {
                nodes.add(new LinkedHashMap<>(Map.of("data", switchData(n))));
            } else if (!n.rack().isEmpty()) {
                racks.computeIfAbsent(n.rack(), k -> new int[1])[0]++;
                rackName.put(n.rack(), n.rackName());
            }
        }
        Map<String, String> rackHealth = new LinkedHashMap<>();
        Map<String, String> rackOfNode = new LinkedHashMap<>();
        for (FabricView.NodeRow n : v.nodes()) {
            if (!n.rack().isEmpty()) {
                rackOfNode.put(n.id(), n.rack());
            }
        }
        boolean bundle = switchLinks > BUNDLE_ABOVE;
        List<Map<String, Object>> edges = new ArrayList<>();
        Map<String, Map<String, Object>> bundles = new LinkedHashMap<>();
        for (FabricView.LinkRow l : v.links()) {
            if (!l.switchLink()) {
                String rack = rackOfNode.containsKey(l.aNode()) ? rackOfNode.get(l.aNode()) : rackOfNode.get(l.bNode());
                if (rack != null) {
                    rackHealth.merge(rack, l.health(), Health::worse);
                }
                continue;
            }
            if (!bundle) {
                edges.add(Map.of("data", edge(l)));
                continue;
            }
            String key = l.aNode().compareTo(l.bNode()) < 0 ? l.aNode() + "|" + l.bNode() : l.bNode() + "|" + l.aNode();
            Map<String, Object> b = bundles.get(key);
            if (b == null) {
                b = edge(l);
                b.put("id", "B" + key);
                b.put("count", 0);
                b.put("links", new ArrayList<String>());
                bundles.put(key, b);
            }
            b.put("count", (Integer) b.get("count") + 1);
            @SuppressWarnings("unchecked")
            List<String> ids = (List<String>) b.get("links");
            ids.add(l.id());
            b.put("health", Health.worse((String) b.get("health"), l.health()));
            b.put("lanes", (Integer) b.get("lanes") + l.lanes());
        }
        for (Map<String, Object> b : bundles.values()) {
            b.put("label", b.get("count") + " links");
            edges.add(Map.of("data", b));
        }
        for (Map.Entry<String, int[]> e : racks.entrySet()) {
            String health = rackHealth.getOrDefault(e.getKey(), Health.OK);
            nodes.add(new LinkedHashMap<>(Map.of("data", rackData(e.getKey(), rackName.get(e.getKey()),
                    e.getValue()[0], health))));
            edges.add(Map.of("data", rackEdge(e.getKey(), health)));
        }
        boolean preset = switchLinks > PRESET_ABOVE;
        if (preset) {
            place(v, nodes);
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("version", v.version());
        m.put("bundled", bundle);
        m.put("preset", preset);
        m.put("nodes", nodes);
        m.put("edges", edges);
        return m;
    }

    /** Horizontal and vertical spacing of the preset layout, in model pixels. */
    static final int DX = 70;
    static final int DY = 400;

    /**
     * Positions for a big fabric's map, so the page lays nothing out: a row per tier, the top tier first; the leaves
     * in the fabric's order, each rack below its leaf, and every higher switch at the mean place of the switches
     * below it that it links to (then spread out evenly in that order), so a pod's switches stay together.
     */
    @SuppressWarnings("unchecked")
    private static void place(FabricView v, List<Map<String, Object>> nodes) {
        Map<String, Integer> rank = new java.util.HashMap<>();
        java.util.TreeMap<Integer, List<String>> tiers = new java.util.TreeMap<>();
        for (Map<String, Object> e : nodes) {
            Map<String, Object> d = (Map<String, Object>) e.get("data");
            if ("switch".equals(d.get("kind"))) {
                int r = (Integer) d.get("rank");
                rank.put((String) d.get("id"), r);
                tiers.computeIfAbsent(r, k -> new ArrayList<>()).add((String) d.get("id"));
            }
        }
        Map<String, List<String>> below = new java.util.HashMap<>();
        for (FabricView.LinkRow l : v.links()) {
            if (!l.switchLink()) {
                continue;
            }
            Integer ra = rank.get(l.aNode());
            Integer rb = rank.get(l.bNode());
            if (ra == null || rb == null || ra.equals(rb)) {
                continue;
            }
            String hi = ra > rb ? l.aNode() : l.bNode();
            String lo = ra > rb ? l.bNode() : l.aNode();
            below.computeIfAbsent(hi, k -> new ArrayList<>()).add(lo);
        }
        Map<String, Double> x = new java.util.HashMap<>();
        int widest = 0;
        for (List<String> t : tiers.values()) {
            widest = Math.max(widest, t.size());
        }
        int top = 0;
        for (int r : tiers.keySet()) {
            top = r == Integer.MAX_VALUE ? top : Math.max(top, r);
        }
        // rows far enough apart that the whole map is about as wide as a screen, not a thin strip
        double dy = Math.max(DY, (double) widest * DX / (1.6 * (top + 2)));
        for (Map.Entry<Integer, List<String>> t : tiers.entrySet()) {
            List<String> ids = new ArrayList<>(t.getValue());
            if (t.getKey() > tiers.firstKey()) {
                Map<String, Double> mean = new java.util.HashMap<>();
                for (String id : ids) {
                    double sum = 0;
                    int n = 0;
                    for (String lo : below.getOrDefault(id, List.of())) {
                        Double p = x.get(lo);
                        if (p != null) {
                            sum += p;
                            n++;
                        }
                    }
                    mean.put(id, n == 0 ? Double.MAX_VALUE : sum / n);
                }
                ids.sort(java.util.Comparator.comparingDouble(mean::get));
            }
            double step = (double) widest * DX / ids.size();
            for (int i = 0; i < ids.size(); i++) {
                x.put(ids.get(i), (i + 0.5) * step);
            }
        }
        for (Map<String, Object> e : nodes) {
            Map<String, Object> d = (Map<String, Object>) e.get("data");
            String id = (String) d.get("id");
            if ("switch".equals(d.get("kind"))) {
                int r = rank.get(id);
                double y = (r == Integer.MAX_VALUE ? -1 : top - r) * dy;
                e.put("position", Map.of("x", x.get(id), "y", y));
            } else if ("rack".equals(d.get("kind"))) {
                Double lx = x.get((String) d.get("leaf"));
                Integer lr = rank.get((String) d.get("leaf"));
                e.put("position", Map.of("x", lx == null ? 0 : lx, "y", ((lr == null ? 0 : top - lr) + 1.0) * dy));
            }
        }
    }

    /** A switch's data on the map (a host's, with its kind, tier and rack set over it). */
    static Map<String, Object> switchData(FabricView.NodeRow n) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("id", n.id());
        d.put("label", n.name());
        d.put("kind", "switch");
        d.put("tier", n.tierName());
        d.put("rank", n.tier());
        d.put("guid", n.guid());
        d.put("lids", n.lids());
        return d;
    }

    /** A rack's data on the map: {@code id} is "R" and its leaf's id. */
    static Map<String, Object> rackData(String id, String name, int hosts, String health) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("id", id);
        d.put("label", "rack " + name + " (" + hosts + " hosts)");
        d.put("short", hosts + " hosts");   // under its leaf on a big map, where the long label does not fit
        d.put("kind", "rack");
        d.put("tier", "host");
        d.put("hosts", hosts);
        d.put("leaf", id.substring(1));
        d.put("health", health);
        return d;
    }

    /** The edge of a rack's host links to its leaf, coloured by the worst of them. */
    static Map<String, Object> rackEdge(String id, String health) {
        return edgeData("E" + id, id, id.substring(1), "rack", health, 4);
    }

    static Map<String, Object> edge(FabricView.LinkRow l) {
        Map<String, Object> d = edgeData(l.id(), l.aNode(), l.bNode(), "link", l.health(), l.lanes());
        d.put("label", l.name());
        return d;
    }

    private static Map<String, Object> edgeData(String id, String source, String target, String kind, String health,
                                                int lanes) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("id", id);
        d.put("source", source);
        d.put("target", target);
        d.put("kind", kind);
        d.put("health", health);
        d.put("lanes", lanes);
        return d;
    }

    /** A rack's hosts (as children of the rack) and their links to the leaf. */
    static Map<String, Object> rack(FabricView v, String rackId) {
        List<Map<String, Object>> nodes = new ArrayList<>();
        List<Map<String, Object>> edges = new ArrayList<>();
        Map<String, Boolean> in = new LinkedHashMap<>();
        for (FabricView.NodeRow n : v.nodes()) {
            if (n.rack().equals(rackId) && !n.type().equals("switch")) {
                Map<String, Object> d = switchData(n);
                d.put("kind", "host");
                d.put("tier", "host");
                d.remove("rank");
                d.put("parent", rackId);
                nodes.add(Map.of("data", d));
                in.put(n.id(), true);
            }
        }
        for (FabricView.LinkRow l : v.links()) {
            if (!l.switchLink() && (in.containsKey(l.aNode()) || in.containsKey(l.bNode()))) {
                edges.add(Map.of("data", edge(l)));
            }
        }
        return Map.of("nodes", nodes, "edges", edges);
    }
}
