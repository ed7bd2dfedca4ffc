package org.ibtwin.format;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.ibtwin.model.DeviceCatalog;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.HostFacts;
import org.ibtwin.model.Link;
import org.ibtwin.model.LinkLayer;
import org.ibtwin.model.Node;
import org.ibtwin.model.NodeNames;
import org.ibtwin.model.NodeType;
import org.ibtwin.model.Port;
import org.ibtwin.perf.Pcie;

/**
 * What an admin checks at a glance when handed a fabric: how many switches and CAs of which kind, links by width and
 * speed, links trained below what their ends can do, hosts by PCIe slot (and slots too slow for their port), IPoIB
 * modes, ports in Ethernet mode. Plain data, printed as text or as JSON.
 */
public record TopologySummary(String source, Map<String, Integer> switches, Map<String, Integer> cas,
                              int routers, int links, int hostLinks, int interSwitchLinks,
                              Map<String, Integer> linksByRate, List<Degraded> degraded,
                              Map<String, List<String>> hostsByPcie, List<SlowSlot> slowSlots,
                              Map<String, List<String>> hostsByIpoib, List<String> ethernetPorts) {

    /** A link trained below what both of its ends can do. */
    public record Degraded(String end1, String end2, String active, String capable, String cable) {
    }

    /**
     * A host whose PCIe slot carries less than its port's data rate: the slot's usable rate ({@code perf.Pcie}'s,
     * the one every command prints) and its raw rate.
     */
    public record SlowSlot(String host, String slot, double slotGbps, double slotRawGbps, double portGbps,
                           String rates) {
    }

    public static TopologySummary of(Fabric f, String source) {
        Map<Node, String> names = NodeNames.of(f);
        Map<String, Integer> sw = new TreeMap<>();
        Map<String, Integer> ca = new TreeMap<>();
        int routers = 0;
        for (Node n : f.nodes()) {
            String kind = deviceName(n);
            switch (n.type()) {
                case SWITCH -> sw.merge(kind + " (" + n.numPorts() + " ports)", 1, Integer::sum);
                case CA -> ca.merge(kind, 1, Integer::sum);
                case ROUTER -> routers++;
                default -> throw new IllegalStateException();
            }
        }
        Map<String, Integer> byRate = new TreeMap<>((a, b) -> rateOrder(b) != rateOrder(a)
                ? Double.compare(rateOrder(b), rateOrder(a)) : a.compareTo(b));
        List<Degraded> degraded = new ArrayList<>();
        int hostLinks = 0;
        int isl = 0;
        for (Link l : f.links()) {
            boolean bothSwitches = l.a().node().isSwitch() && l.b().node().isSwitch();
            if (bothSwitches) {
                isl++;
            } else {
                hostLinks++;
            }
            String rate = l.isUp() ? l.activeWidth().label() + l.activeSpeed().label() : "down";
            byRate.merge(rate, 1, Integer::sum);
            if (l.isDegraded()) {
                String cable = l.cable().kind().label()
                        + (l.cable().lengthMetres() > 0 ? " " + fmt(l.cable().lengthMetres()) + " m" : "")
                        + " carries " + l.cable().maxWidth().label() + l.cable().maxSpeed().label();
                degraded.add(new Degraded(portName(names, l.a()), portName(names, l.b()), rate,
                        l.capableWidth().label() + l.capableSpeed().label(), cable));
            }
        }
        Map<String, List<String>> byPcie = new TreeMap<>();
        Map<String, List<String>> byIpoib = new TreeMap<>();
        List<SlowSlot> slow = new ArrayList<>();
        List<String> ethernet = new ArrayList<>();
        for (Node n : f.nodes()) {
            for (int i = 1; i <= n.numPorts(); i++) {
                Port p = n.port(i);
                if (p.linkLayer() == LinkLayer.ETHERNET) {
                    ethernet.add(portName(names, p));
                }
            }
            if (n.type() != NodeType.CA) {
                continue;
            }
            HostFacts h = n.hostFacts();
            String host = names.get(n);
            if (h == null) {
                byPcie.computeIfAbsent("unknown", k -> new ArrayList<>()).add(host);
                continue;
            }
            byPcie.computeIfAbsent(h.pcieLabel(), k -> new ArrayList<>()).add(host);
            byIpoib.computeIfAbsent(h.ipoibMode().label() + " " + h.ipoibMtu(), k -> new ArrayList<>()).add(host);
            double port = 0;
            for (int i = 1; i <= n.numPorts(); i++) {
                Link l = n.port(i).link();
                if (l != null && l.isUp()) {
                    port = Math.max(port, l.dataGbps());
                }
            }
            if (port > 0 && Pcie.usableGbps(h) < port) {
                slow.add(new SlowSlot(host, h.pcieLabel(), Pcie.usableGbps(h), Pcie.rawGbps(h), port,
                        Pcie.rates(h.pcieGen(), h.pcieLanes())));
            }
        }
        return new TopologySummary(source, sw, ca, routers, f.links().size(), hostLinks, isl, byRate, degraded,
                byPcie, slow, byIpoib, ethernet);
    }

    private static double rateOrder(String rate) {
        WidthSpeed ws = WidthSpeed.parse(rate);
        return ws == null ? -1 : Link.dataGbps(ws.width(), ws.speed());
    }

    static String deviceName(Node n) {
        DeviceCatalog.Device d = DeviceCatalog.find(n.vendorId(), n.deviceId());
        if (d != null && d.type() == n.type()) {
            return d.name();
        }
        return String.format("vendor 0x%x device 0x%x", n.vendorId(), n.deviceId());
    }

    /** "leaf01/33" or "node017/1": the node's {@link NodeNames name} and the port. */
    private static String portName(Map<Node, String> names, Port p) {
        return names.get(p.node()) + "/" + p.number();
    }

    private static String fmt(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : String.format(Locale.ROOT, "%.1f", d);
    }

    /** The text an admin reads. */
    public String toText() {
        StringBuilder sb = new StringBuilder();
        sb.append("Fabric: ").append(source).append('\n');
        int nsw = switches.values().stream().mapToInt(Integer::intValue).sum();
        int nca = cas.values().stream().mapToInt(Integer::intValue).sum();
        sb.append(String.format("  %-14s %6d", "switches", nsw)).append(join(switches)).append('\n');
        sb.append(String.format("  %-14s %6d", "CAs", nca)).append(join(cas)).append('\n');
        if (routers > 0) {
            sb.append(String.format("  %-14s %6d%n", "routers", routers));
        }
        sb.append(String.format("  %-14s %6d   (host %d, inter-switch %d)%n", "links", links, hostLinks,
                interSwitchLinks));
        sb.append("\nLinks by width and speed:\n");
        for (Map.Entry<String, Integer> e : linksByRate.entrySet()) {
            WidthSpeed ws = WidthSpeed.parse(e.getKey());
            String gbps = ws == null ? "" : fmt(Link.dataGbps(ws.width(), ws.speed())) + " Gb/s";
            sb.append(String.format("  %-8s %6d   %s%n", e.getKey(), e.getValue(), gbps));
        }
        sb.append("\nLinks trained below what both ends support: ").append(degraded.isEmpty() ? "none" : degraded.size())
                .append('\n');
        for (Degraded d : degraded) {
            sb.append(String.format("  %-16s <-> %-16s %-7s could be %-7s (cable: %s)%n", d.end1(), d.end2(),
                    d.active(), d.capable(), d.cable()));
        }
        sb.append("\nHosts by PCIe slot:\n");
        for (Map.Entry<String, List<String>> e : hostsByPcie.entrySet()) {
            sb.append(String.format("  %-10s %6d   %s%n", e.getKey(), e.getValue().size(),
                    NamePattern.compress(e.getValue())));
        }
        if (!slowSlots.isEmpty()) {
            sb.append("PCIe slots slower than their port:\n");
            for (SlowSlot s : slowSlots) {
                sb.append(String.format("  %-16s %-9s %s under a %s Gb/s port%n", s.host(), s.slot(),
                        s.rates(), fmt(s.portGbps())));
            }
        }
        if (!hostsByIpoib.isEmpty()) {
            sb.append("\nIPoIB:\n");
            for (Map.Entry<String, List<String>> e : hostsByIpoib.entrySet()) {
                sb.append(String.format("  %-16s %6d   %s%n", e.getKey(), e.getValue().size(),
                        NamePattern.compress(e.getValue())));
            }
            if (hostsByIpoib.keySet().stream().map(k -> k.split(" ")[0]).distinct().count() > 1) {
                sb.append("  connected and datagram modes are mixed on this subnet\n");
            }
        }
        sb.append("\nPorts in Ethernet mode: ").append(ethernetPorts.isEmpty() ? "none" : String.join(", ", ethernetPorts))
                .append('\n');
        return sb.toString();
    }

    private static String join(Map<String, Integer> kinds) {
        if (kinds.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder("   (");
        boolean first = true;
        for (Map.Entry<String, Integer> e : kinds.entrySet()) {
            if (!first) {
                sb.append(", ");
            }
            first = false;
            sb.append(e.getKey()).append(": ").append(e.getValue());
        }
        return sb.append(')').toString();
    }

    /** A map for JSON output, keys in a stable order. */
    public Map<String, Object> toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("source", source);
        m.put("switches", switches);
        m.put("cas", cas);
        m.put("routers", routers);
        m.put("links", Map.of("total", links, "host", hostLinks, "interSwitch", interSwitchLinks));
        m.put("linksByRate", linksByRate);
        m.put("degradedLinks", degraded);
        m.put("hostsByPcie", hostsByPcie);
        m.put("slowPcieSlots", slowSlots);
        m.put("hostsByIpoib", hostsByIpoib);
        m.put("ethernetPorts", ethernetPorts);
        return m;
    }
}
