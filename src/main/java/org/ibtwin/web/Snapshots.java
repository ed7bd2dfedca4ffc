package org.ibtwin.web;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.ibtwin.doctor.FabricState;
import org.ibtwin.doctor.Snapshot;
import org.ibtwin.doctor.SnapshotDiff;
import org.ibtwin.doctor.Sources;

/**
 * The snapshots ({@code ibtwin snapshot save}) a web view offers to compare: pick two, and the page shows
 * {@link SnapshotDiff}'s sections and the map of the newer one with the older one's nodes and links that are gone
 * drawn in, each element marked {@code added}, {@code gone}, {@code changed} (a link's width or speed, a rack's hosts
 * or their links) or {@code same}. Nodes are matched by GUID and links by their ends' GUIDs and port numbers, as the
 * diff matches them.
 */
public final class Snapshots {
    private final Map<String, Path> files = new LinkedHashMap<>();
    private final Map<String, Snapshot> read = new HashMap<>();

    /** @param files the snapshot files, each named on the page by its file name */
    public Snapshots(List<Path> files) {
        for (Path f : files) {
            this.files.put(f.getFileName().toString(), f);
        }
    }

    /**
     * The snapshot files of {@code dir} (its {@code *.json} files that are snapshots, by name).
     *
     * @throws IllegalArgumentException when it is not a readable directory
     */
    public static Snapshots in(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("--snapshots " + dir + ": not a directory");
        }
        List<Path> out = new ArrayList<>();
        try (var s = Files.list(dir)) {
            s.filter(p -> p.getFileName().toString().endsWith(".json")).sorted().forEach(out::add);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("--snapshots " + dir + ": " + e.getMessage(), e);
        }
        List<Path> snaps = new ArrayList<>();
        for (Path p : out) {
            try {
                Snapshot.read(p);
                snaps.add(p);
            } catch (RuntimeException e) {
                // another kind of JSON file: not offered
            }
        }
        return new Snapshots(snaps);
    }

    private synchronized Snapshot snapshot(String name) {
        Path p = files.get(name);
        if (p == null) {
            throw new IllegalArgumentException("no snapshot \"" + name + "\" (one of " + String.join(", ",
                    files.keySet()) + ")");
        }
        return read.computeIfAbsent(name, k -> Snapshot.read(p));
    }

    /** The snapshots offered: file name, source, time, nodes, links. */
    public List<Map<String, Object>> list() {
        List<Map<String, Object>> out = new ArrayList<>();
        for (String name : files.keySet()) {
            Snapshot s = snapshot(name);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", name);
            m.put("source", s.source());
            m.put("time", s.time());
            m.put("nodes", s.nodes().size());
            m.put("links", s.links().size());
            out.add(m);
        }
        return out;
    }

    /** The diff from {@code a} to {@code b}: the sections, the text, and the marked map. */
    public Map<String, Object> diff(String a, String b) {
        SnapshotDiff d = SnapshotDiff.of(snapshot(a), snapshot(b));
        FabricView va = view(a);
        FabricView vb = view(b);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("a", a);
        m.put("b", b);
        m.put("empty", d.empty());
        m.put("diff", d.toJson());
        m.put("text", d.toText());
        m.put("map", marked(va, vb));
        return m;
    }

    private FabricView view(String name) {
        FabricState s = Sources.open(files.get(name).toString(), null, null, null, line -> { });
        return FabricView.of(name, false, s, null, 1, null);
    }

    /** {@code b}'s map, with what {@code a} had and {@code b} has not drawn in, every element marked. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> marked(FabricView a, FabricView b) {
        Map<String, Object> gb = MapGraph.of(b);
        Map<String, Object> ga = MapGraph.of(a);
        Map<String, String> ra = racks(a);
        Map<String, String> rb = racks(b);
        Map<String, Map<String, Object>> inB = new LinkedHashMap<>();
        for (String k : List.of("nodes", "edges")) {
            for (Map<String, Object> e : (List<Map<String, Object>>) gb.get(k)) {
                Map<String, Object> d = (Map<String, Object>) e.get("data");
                inB.put((String) d.get("id"), d);
            }
        }
        Map<String, Long> counts = new LinkedHashMap<>();
        for (String k : List.of("added", "gone", "changed", "same")) {
            counts.put(k, 0L);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        for (String k : List.of("nodes", "edges")) {
            List<Map<String, Object>> els = new ArrayList<>((List<Map<String, Object>>) gb.get(k));
            java.util.Set<String> idsA = new java.util.HashSet<>();
            for (Map<String, Object> e : (List<Map<String, Object>>) ga.get(k)) {
                Map<String, Object> d = (Map<String, Object>) e.get("data");
                idsA.add((String) d.get("id"));
                if (!inB.containsKey(d.get("id"))) {
                    d.put("diff", "gone");
                    els.add(e);
                }
            }
            for (Map<String, Object> e : (List<Map<String, Object>>) gb.get(k)) {
                Map<String, Object> d = (Map<String, Object>) e.get("data");
                String id = (String) d.get("id");
                String mark;
                if (!idsA.contains(id)) {
                    mark = "added";
                } else if ("rack".equals(d.get("kind"))) {
                    String rack = id.startsWith("E") ? id.substring(1) : id;
                    mark = ra.getOrDefault(rack, "").equals(rb.getOrDefault(rack, "")) ? "same" : "changed";
                } else if ("link".equals(d.get("kind"))) {
                    mark = rate(a, d).equals(rate(b, d)) ? "same" : "changed";
                } else {
                    mark = "same";
                }
                d.put("diff", mark);
            }
            for (Map<String, Object> e : els) {
                String mark = (String) ((Map<String, Object>) e.get("data")).get("diff");
                if (!k.equals("edges") || !"rack".equals(((Map<String, Object>) e.get("data")).get("kind"))) {
                    counts.merge(mark, 1L, Long::sum);
                }
            }
            out.put(k, els);
        }
        out.put("counts", counts);
        out.put("bundled", gb.get("bundled"));
        return out;
    }

    /** A link's (or a bundle's links') width and speed in {@code v}, "" when it has none. */
    @SuppressWarnings("unchecked")
    private static String rate(FabricView v, Map<String, Object> edge) {
        List<String> ids = edge.containsKey("links") ? (List<String>) edge.get("links")
                : List.of((String) edge.get("id"));
        StringBuilder b = new StringBuilder();
        for (String id : ids) {
            FabricView.LinkRow l = v.link(id);
            b.append(l == null ? "-" : l.width() + l.speed()).append(',');
        }
        return b.toString();
    }

    /** Per rack: its hosts and their links' widths and speeds, one string to compare. */
    private static Map<String, String> racks(FabricView v) {
        Map<String, TreeSet<String>> m = new HashMap<>();
        for (FabricView.NodeRow n : v.nodes()) {
            if (!n.rack().isEmpty()) {
                m.computeIfAbsent(n.rack(), k -> new TreeSet<>()).add(n.id());
            }
        }
        for (FabricView.LinkRow l : v.links()) {
            if (l.switchLink()) {
                continue;
            }
            FabricView.NodeRow host = v.node(l.aNode());
            if (host == null || host.rack().isEmpty()) {
                host = v.node(l.bNode());
            }
            if (host != null && !host.rack().isEmpty()) {
                m.computeIfAbsent(host.rack(), k -> new TreeSet<>()).add(l.id() + "=" + l.width() + l.speed());
            }
        }
        Map<String, String> out = new HashMap<>();
        m.forEach((k, s) -> out.put(k, String.join(",", s)));
        return out;
    }
}
