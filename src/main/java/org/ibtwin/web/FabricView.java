package org.ibtwin.web;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.ibtwin.doctor.FabricState;
import org.ibtwin.doctor.SmInfo;
import org.ibtwin.model.Cable;
import org.ibtwin.model.Link;
import org.ibtwin.model.Node;
import org.ibtwin.model.Port;
import org.ibtwin.model.PortCounter;

/**
 * One immutable picture of a fabric for the pages and the API: its nodes, ports, links (with their health), cables,
 * partitions and SMs as rows, built from a {@link FabricState} in one pass, so that requests never read the model
 * while the twin's state is being written back into it. Links that were seen once and are gone now (a cable
 * pulled) stay, as down.
 */
public final class FabricView {
    /** A node: switch (with its tier) or CA (with the rack, the leaf it hangs off). */
    public record NodeRow(String id, String name, String type, String guid, int tier, String tierName, String rack,
                          String rackName, int ports, String lids, String description) {
    }

    /** A port. {@code couldBe} is the link's width and speed when it trained below them, else empty. */
    public record PortRow(String id, String node, String nodeId, int port, String guid, int lid, String state,
                          String phys, String width, String speed, String couldBe, String peer, String linkId,
                          Map<String, Long> counters, double txGbps, double txShare, double waitPerSecond) {
    }

    /** A link, its ends named nearer-the-hosts first, and its health ({@link Health}). */
    public record LinkRow(String id, String name, String a, String b, String aNode, String bNode, String health,
                          List<String> why, String width, String speed, String couldBe, int lanes, double gbps,
                          boolean switchLink) {
    }

    /** The cable of a link. */
    public record CableRow(String linkId, String link, String kind, double lengthMetres, String maxSpeed,
                           String maxWidth) {
    }

    /** A partition: its P_Key and which ports are full or limited members. */
    public record PartitionRow(String pkey, int full, int limited, List<String> fullMembers,
                               List<String> limitedMembers) {
    }

    /** A subnet manager as the fabric knows it. */
    public record SmRow(String port, String guid, int lid, String priority, String state, String source) {
    }

    private final String source;
    private final boolean live;
    private final long version;
    private final long time;
    private final String shape;
    private final List<NodeRow> nodes;
    private final List<PortRow> ports;
    private final List<LinkRow> links;
    private final List<CableRow> cables;
    private final List<PartitionRow> partitions;
    private final List<SmRow> sms;
    private final Map<String, NodeRow> nodeById;
    private final Map<String, LinkRow> linkById;
    private volatile Targets targets;

    private FabricView(String source, boolean live, long version, String shape, List<NodeRow> nodes,
                       List<PortRow> ports, List<LinkRow> links, List<CableRow> cables,
                       List<PartitionRow> partitions, List<SmRow> sms) {
        this.source = source;
        this.live = live;
        this.version = version;
        this.time = System.currentTimeMillis();
        this.shape = shape;
        this.nodes = List.copyOf(nodes);
        this.ports = List.copyOf(ports);
        this.links = List.copyOf(links);
        this.cables = List.copyOf(cables);
        this.partitions = List.copyOf(partitions);
        this.sms = List.copyOf(sms);
        Map<String, NodeRow> nb = new LinkedHashMap<>();
        for (NodeRow n : nodes) {
            nb.put(n.id(), n);
        }
        this.nodeById = Collections.unmodifiableMap(nb);
        Map<String, LinkRow> lb = new LinkedHashMap<>();
        for (LinkRow l : links) {
            lb.put(l.id(), l);
        }
        this.linkById = Collections.unmodifiableMap(lb);
    }

    /** The id pages and the API use for a node: {@code N} and its GUID in hex. */
    public static String nodeId(Node n) {
        return String.format(Locale.ROOT, "N%016x", n.guid());
    }

    /** The id of a link: its two ends (node GUID and port), the lower first. */
    public static String linkId(Port a, Port b) {
        String x = String.format(Locale.ROOT, "%016x.%d", a.node().guid(), a.number());
        String y = String.format(Locale.ROOT, "%016x.%d", b.node().guid(), b.number());
        return "L" + (x.compareTo(y) <= 0 ? x + "-" + y : y + "-" + x);
    }

    /** The name of a tier: the doctor's rank ({@link FabricState#rank}). */
    public static String tierName(int rank) {
        return switch (rank) {
            case -1 -> "host";
            case 0 -> "leaf";
            case 1 -> "spine";
            case 2 -> "core";
            case Integer.MAX_VALUE -> "isolated";
            default -> "tier " + rank;
        };
    }

    /**
     * Builds the view of {@code s}.
     *
     * @param before the previous view of the same source (its links that are gone now stay, as down), or null
     * @param rates  per port {txGbps, txShare, waitPerSecond} (null: none)
     */
    public static FabricView of(String sourceName, boolean live, FabricState s, FabricView before, long version,
                                Map<Port, double[]> rates) {
        List<Node> all = s.fabric().nodes();
        // racks: a CA's rack is the leaf its first linked port hangs off
        Map<Node, Node> rackOf = new IdentityHashMap<>();
        for (Node n : all) {
            if (n.isSwitch()) {
                continue;
            }
            for (int p = 1; p <= n.numPorts(); p++) {
                Port r = n.port(p).remote();
                if (r != null && r.node().isSwitch()) {
                    rackOf.put(n, r.node());
                    break;
                }
            }
        }
        List<NodeRow> nodes = new ArrayList<>(all.size());
        for (Node n : all) {
            int rank = s.rank(n);
            Node leaf = rackOf.get(n);
            StringBuilder lids = new StringBuilder();
            for (int p = n.isSwitch() ? 0 : 1; p <= (n.isSwitch() ? 0 : n.numPorts()); p++) {
                if (n.port(p).lid() > 0) {
                    lids.append(lids.isEmpty() ? "" : ",").append(n.port(p).lid());
                }
            }
            nodes.add(new NodeRow(nodeId(n), s.name(n), n.isSwitch() ? "switch" : n.type().name().toLowerCase(
                    Locale.ROOT), hex(n.guid()), rank, tierName(rank), leaf == null ? "" : "R" + nodeId(leaf),
                    leaf == null ? "" : s.name(leaf), n.numPorts(), lids.toString(),
                    n.description() == null ? "" : n.description()));
        }
        List<LinkRow> links = new ArrayList<>();
        List<CableRow> cables = new ArrayList<>();
        Map<String, LinkRow> seen = new LinkedHashMap<>();
        for (Link l : s.fabric().links()) {
            String name = s.linkName(l);
            String[] ends = name.split(" <-> ", 2);
            Port first = (s.portName(l.a())).equals(ends[0]) ? l.a() : l.b();
            Port second = l.other(first);
            String id = linkId(l.a(), l.b());
            List<String> why = Health.of(l, rates == null ? null : rates.get(l.a()),
                    rates == null ? null : rates.get(l.b()), s::portName);
            String could = l.isDegraded() ? l.capableWidth().label() + l.capableSpeed().label() : "";
            LinkRow row = new LinkRow(id, name, ends[0], ends.length > 1 ? ends[1] : "", nodeId(first.node()),
                    nodeId(second.node()), Health.worst(why), why, l.isUp() ? l.activeWidth().label() : "",
                    l.isUp() ? l.activeSpeed().label() : "", could, l.isUp() ? l.activeWidth().lanes()
                    : l.capableWidth() != null ? l.capableWidth().lanes() : 1, l.dataGbps(),
                    first.node().isSwitch() && second.node().isSwitch());
            links.add(row);
            seen.put(id, row);
            Cable c = l.cable();
            cables.add(new CableRow(id, name, c.kind().name().toLowerCase(Locale.ROOT), c.lengthMetres(),
                    c.maxSpeed().label(), c.maxWidth().label()));
        }
        if (before != null) {
            for (LinkRow old : before.links) {
                if (!seen.containsKey(old.id())) {
                    links.add(new LinkRow(old.id(), old.name(), old.a(), old.b(), old.aNode(), old.bNode(),
                            Health.DOWN, List.of(Health.DOWN + ": no cable (unplugged)"), "", "", "", old.lanes(),
                            0, old.switchLink()));
                }
            }
            for (CableRow c : before.cables) {
                if (!seen.containsKey(c.linkId())) {
                    cables.add(new CableRow(c.linkId(), c.link(), "none (unplugged)", 0, "", ""));
                }
            }
        }
        Map<Port, String> linkOf = new IdentityHashMap<>();
        for (Link l : s.fabric().links()) {
            String id = linkId(l.a(), l.b());
            linkOf.put(l.a(), id);
            linkOf.put(l.b(), id);
        }
        List<PortRow> ports = new ArrayList<>();
        Map<Integer, List<List<String>>> parts = new TreeMap<>();
        for (Node n : all) {
            for (int p = n.isSwitch() ? 0 : 1; p <= n.numPorts(); p++) {
                Port port = n.port(p);
                Link l = port.link();
                if (p == 0 || !n.isSwitch()) {
                    for (int k : port.pkeys()) {
                        if ((k & 0x7fff) == 0) {
                            continue;
                        }
                        List<List<String>> m = parts.computeIfAbsent(k & 0x7fff, x -> List.of(new ArrayList<>(),
                                new ArrayList<>()));
                        m.get((k & 0x8000) != 0 ? 0 : 1).add(s.portName(port));
                    }
                }
                if (p == 0) {
                    continue;
                }
                Map<String, Long> counters = new LinkedHashMap<>();
                for (PortCounter c : PortCounter.values()) {
                    counters.put(c.fieldName(), port.counter(c));
                }
                double[] r = rates == null ? null : rates.get(port);
                String could = l != null && l.isDegraded() ? l.capableWidth().label() + l.capableSpeed().label() : "";
                ports.add(new PortRow(nodeId(n) + "/" + p, s.name(n), nodeId(n), p, hex(port.guid()),
                        n.isSwitch() ? n.port(0).lid() : port.lid(), port.state() == null ? "" : port.state().name(),
                        port.physState() == null ? "" : port.physState().name(), port.widthActive() == null ? ""
                        : port.widthActive().label(), port.speedActive() == null ? "" : port.speedActive().label(),
                        could, port.remote() == null ? "" : s.portName(port.remote()),
                        linkOf.getOrDefault(port, ""), counters, r == null ? 0 : r[0], r == null ? 0 : r[1],
                        r == null ? 0 : r[2]));
            }
        }
        List<PartitionRow> partitions = new ArrayList<>();
        for (Map.Entry<Integer, List<List<String>>> e : parts.entrySet()) {
            List<List<String>> m = e.getValue();
            partitions.add(new PartitionRow(String.format(Locale.ROOT, "0x%04x", e.getKey()), m.get(0).size(),
                    m.get(1).size(), m.get(0), m.get(1)));
        }
        return new FabricView(sourceName, live, version, s.shape(), nodes, ports, links, cables, partitions,
                sms(s));
    }

    /**
     * The SMs: those the state read (SMInfo), else the ports the others name as their SM (PortInfo's MasterSMLID),
     * whose priority the model does not carry.
     */
    private static List<SmRow> sms(FabricState s) {
        List<SmRow> out = new ArrayList<>();
        Map<Integer, Port> byLid = new TreeMap<>();
        for (Node n : s.fabric().nodes()) {
            for (int p = n.isSwitch() ? 0 : 1; p <= (n.isSwitch() ? 0 : n.numPorts()); p++) {
                if (n.port(p).lid() > 0) {
                    byLid.put(n.port(p).lid(), n.port(p));
                }
            }
        }
        for (SmInfo sm : s.sms() == null ? List.<SmInfo>of() : s.sms()) {
            Port p = byLid.get(sm.lid());
            out.add(new SmRow(p == null ? "" : s.portName(p), hex(sm.guid()), sm.lid(), Integer.toString(sm.priority()),
                    sm.stateLabel(), sm.source()));
        }
        if (!out.isEmpty()) {
            return out;
        }
        Map<Integer, Integer> named = new TreeMap<>();
        for (Node n : s.fabric().nodes()) {
            for (int p = n.isSwitch() ? 0 : 1; p <= (n.isSwitch() ? 0 : n.numPorts()); p++) {
                int sm = n.port(p).smLid();
                if (sm > 0) {
                    named.merge(sm, 1, Integer::sum);
                }
            }
        }
        for (Map.Entry<Integer, Integer> e : named.entrySet()) {
            Port p = byLid.get(e.getKey());
            out.add(new SmRow(p == null ? "" : s.portName(p), p == null ? "" : hex(p.guid()), e.getKey(), "",
                    "master", "MasterSMLID of " + e.getValue() + " ports"));
        }
        return out;
    }

    private static String hex(long guid) {
        return String.format(Locale.ROOT, "0x%016x", guid);
    }

    public String source() {
        return source;
    }

    public boolean live() {
        return live;
    }

    public long version() {
        return version;
    }

    public long time() {
        return time;
    }

    public String shape() {
        return shape;
    }

    public List<NodeRow> nodes() {
        return nodes;
    }

    public List<PortRow> ports() {
        return ports;
    }

    public List<LinkRow> links() {
        return links;
    }

    public List<CableRow> cables() {
        return cables;
    }

    public List<PartitionRow> partitions() {
        return partitions;
    }

    public List<SmRow> sms() {
        return sms;
    }

    public NodeRow node(String id) {
        return nodeById.get(id);
    }

    public LinkRow link(String id) {
        return linkById.get(id);
    }

    /** The map ids of what a doctor's finding names by its place ({@link Targets}), indexed once per view. */
    List<String> targets(String where) {
        Targets t = targets;
        if (t == null) {
            t = new Targets(this);
            targets = t;
        }
        return t.of(where);
    }
}
