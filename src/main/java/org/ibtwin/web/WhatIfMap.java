package org.ibtwin.web;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.LinkedHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a what-if report ({@link org.ibtwin.whatif.Report#json}) lands on the map: the elements its changes name
 * (a pulled cable's link, a drained switch), each group's example pair and its route before and after as the links
 * it crosses, and the links whose load rises. The report names ports as the tools do ({@code leaf01/4}) and routes
 * as {@code node001/1 -> leaf01 1/4 -> spine01 1/2 -> leaf02 4/1 -> node004/1}: each switch hop's in and out port
 * is a link of the map; a route that says there is none ("no path: ...") crosses nothing.
 */
final class WhatIfMap {
    private static final Pattern PORT = Pattern.compile("([^\\s/(),:<>]+)/(\\d+)");
    private static final Pattern HOP = Pattern.compile("^(.+) (\\d+)/(\\d+)$");

    private final FabricView view;
    private final Map<String, FabricView.PortRow> ports = new HashMap<>();
    private final Map<String, FabricView.NodeRow> nodes = new HashMap<>();

    private WhatIfMap(FabricView view) {
        this.view = view;
        for (FabricView.PortRow p : view.ports()) {
            ports.put(p.node() + "/" + p.port(), p);
        }
        for (FabricView.NodeRow n : view.nodes()) {
            nodes.putIfAbsent(n.name(), n);
        }
    }

    /** The overlay of {@code report} on {@code view}'s map. */
    static Map<String, Object> of(FabricView view, JsonNode report) {
        WhatIfMap w = new WhatIfMap(view);
        Map<String, Object> m = new LinkedHashMap<>();
        Set<String> changed = new LinkedHashSet<>();
        for (JsonNode c : report.path("changes")) {
            changed.addAll(w.mentions(c.asText()));
        }
        m.put("changed", List.copyOf(changed));
        Set<String> racks = new LinkedHashSet<>();
        List<Map<String, Object>> groups = new ArrayList<>();
        for (String side : List.of("lost", "gained")) {
            for (JsonNode g : report.path("reachability").path(side + "_by_cause")) {
                Map<String, Object> o = new LinkedHashMap<>();
                o.put("side", side);
                o.put("cause", g.path("cause").asText());
                o.put("pairs", g.path("pairs").asLong());
                o.put("example", g.path("example").asText());
                List<String> ends = new ArrayList<>();
                for (String end : g.path("example").asText().split(" <-> ")) {
                    FabricView.NodeRow n = w.nodeOfPort(end.strip());
                    if (n != null) {
                        ends.add(n.id());
                        if (!n.rack().isEmpty()) {
                            racks.add(n.rack());
                        }
                    }
                }
                o.put("ends", ends);
                o.put("routeBefore", g.path("route_before").asText());
                o.put("routeAfter", g.path("route_after").asText());
                o.put("before", w.route(g.path("route_before").asText()));
                o.put("after", w.route(g.path("route_after").asText()));
                groups.add(o);
            }
        }
        m.put("groups", groups);
        List<Map<String, Object>> rising = new ArrayList<>();
        for (JsonNode r : report.path("links_load_rising")) {
            String link = r.path("link").asText();
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("link", link);
            String from = link.split(" -> ", 2)[0].strip();
            FabricView.PortRow p = w.ports.get(from);
            o.put("linkId", p == null ? "" : p.linkId());
            rising.add(o);
        }
        m.put("rising", rising);
        for (String id : changed) {
            FabricView.LinkRow l = view.link(id);
            if (l != null) {
                for (String end : List.of(l.aNode(), l.bNode())) {
                    FabricView.NodeRow n = view.node(end);
                    if (n != null && !n.rack().isEmpty()) {
                        racks.add(n.rack());
                    }
                }
            }
        }
        m.put("racks", List.copyOf(racks));
        return m;
    }

    /** The links a route crosses, in order; none for a route that is not there. */
    List<String> route(String text) {
        List<String> out = new ArrayList<>();
        if (!text.contains(" -> ")) {
            return out;
        }
        String t = text.replaceAll("\\s*\\([^)]*\\)\\s*$", "");
        for (String hop : t.split(" -> ")) {
            Matcher h = HOP.matcher(hop.strip());
            if (h.matches()) {
                add(out, h.group(1) + "/" + h.group(2));
                add(out, h.group(1) + "/" + h.group(3));
            }
        }
        return out;
    }

    private void add(List<String> out, String port) {
        FabricView.PortRow p = ports.get(port);
        if (p != null && !p.linkId().isEmpty() && !out.contains(p.linkId())) {
            out.add(p.linkId());
        }
    }

    /** The map elements a text names: the links of the ports it names, else the nodes. */
    List<String> mentions(String text) {
        List<String> out = new ArrayList<>();
        Matcher m = PORT.matcher(text);
        while (m.find()) {
            add(out, m.group(1) + "/" + m.group(2));
        }
        if (out.isEmpty()) {
            for (String word : text.split("[\\s,;]+")) {
                FabricView.NodeRow n = nodes.get(word);
                if (n != null) {
                    out.add(n.id());
                }
            }
        }
        return out;
    }

    private FabricView.NodeRow nodeOfPort(String port) {
        FabricView.PortRow p = ports.get(port);
        return p == null ? null : view.node(p.nodeId());
    }
}
