package org.ibtwin.web;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The map elements a doctor's finding names, looked up by its place ({@code Finding.where}) in indexes of one
 * {@link FabricView}'s names: the links whose name (either way round) appears in it; else the node it starts with
 * (its name, then the end or {@code /}, blank or {@code :}); else the first linked port it names. A finding costs
 * lookups of the pieces of its place, not a pass over the fabric's 49,152 links (a 16,384-host fabric's report has
 * thousands of findings).
 */
final class Targets {
    private static final String ARROW = " <-> ";
    private final FabricView view;
    /** Links by the name of their far end ({@code b}), and by their near end ({@code a}) for the reverse form. */
    private final Map<String, List<Integer>> linksByB = new HashMap<>();
    private final Map<String, List<Integer>> linksByA = new HashMap<>();
    private final Map<String, List<Integer>> nodesByName = new HashMap<>();
    /** The first port row with a link, by node name and port number. */
    private final Map<String, Map<Integer, Integer>> linkedPorts = new HashMap<>();
    private int longestEnd;
    private int longestNode;

    Targets(FabricView v) {
        this.view = v;
        List<FabricView.LinkRow> links = v.links();
        for (int i = 0; i < links.size(); i++) {
            FabricView.LinkRow l = links.get(i);
            linksByB.computeIfAbsent(l.b(), k -> new ArrayList<>(1)).add(i);
            linksByA.computeIfAbsent(l.a(), k -> new ArrayList<>(1)).add(i);
            longestEnd = Math.max(longestEnd, Math.max(l.a().length(), l.b().length()));
        }
        List<FabricView.NodeRow> nodes = v.nodes();
        for (int i = 0; i < nodes.size(); i++) {
            nodesByName.computeIfAbsent(nodes.get(i).name(), k -> new ArrayList<>(1)).add(i);
            longestNode = Math.max(longestNode, nodes.get(i).name().length());
        }
        List<FabricView.PortRow> ports = v.ports();
        for (int i = 0; i < ports.size(); i++) {
            FabricView.PortRow p = ports.get(i);
            if (!p.linkId().isEmpty()) {
                linkedPorts.computeIfAbsent(p.node(), k -> new HashMap<>()).putIfAbsent(p.port(), i);
                longestNode = Math.max(longestNode, p.node().length());
            }
        }
    }

    /** The ids of the elements {@code where} names, as the class comment says. */
    List<String> of(String where) {
        List<String> out = new ArrayList<>();
        TreeSet<Integer> links = new TreeSet<>();
        for (int i = where.indexOf(ARROW); i >= 0; i = where.indexOf(ARROW, i + 1)) {
            int from = i + ARROW.length();
            for (int j = from + 1; j <= Math.min(where.length(), from + longestEnd); j++) {
                String end = where.substring(from, j);
                for (int k : linksByB.getOrDefault(end, List.of())) {
                    if (where.contains(view.links().get(k).name())) {
                        links.add(k);
                    }
                }
                for (int k : linksByA.getOrDefault(end, List.of())) {
                    FabricView.LinkRow l = view.links().get(k);
                    if (where.contains(l.b() + ARROW + l.a())) {
                        links.add(k);
                    }
                }
            }
        }
        for (int k : links) {
            out.add(view.links().get(k).id());
        }
        if (!out.isEmpty()) {
            return out;
        }
        TreeSet<Integer> nodes = new TreeSet<>();
        for (int k = 1; k <= Math.min(where.length(), longestNode); k++) {
            if (k == where.length() || "/ :".indexOf(where.charAt(k)) >= 0) {
                nodes.addAll(nodesByName.getOrDefault(where.substring(0, k), List.of()));
            }
        }
        for (int k : nodes) {
            out.add(view.nodes().get(k).id());
        }
        if (!out.isEmpty()) {
            return out;
        }
        int first = Integer.MAX_VALUE;
        for (int slash = where.indexOf('/'); slash >= 0; slash = where.indexOf('/', slash + 1)) {
            int digits = slash + 1;
            while (digits < where.length() && Character.isDigit(where.charAt(digits))) {
                digits++;
            }
            if (digits == slash + 1) {
                continue;
            }
            for (int s = Math.max(0, slash - longestNode); s < slash; s++) {
                Map<Integer, Integer> ports = linkedPorts.get(where.substring(s, slash));
                if (ports == null) {
                    continue;
                }
                // "node/1" is in "node/12": every run of the digits from the slash that a number prints as
                for (int e = slash + 2; e <= digits; e++) {
                    if (where.charAt(slash + 1) == '0' && e > slash + 2) {
                        break;
                    }
                    if (e - slash - 1 > 9) {
                        break;
                    }
                    Integer row = ports.get(Integer.parseInt(where.substring(slash + 1, e)));
                    if (row != null) {
                        first = Math.min(first, row);
                    }
                }
            }
        }
        if (first != Integer.MAX_VALUE) {
            out.add(view.ports().get(first).linkId());
        }
        return out;
    }
}
