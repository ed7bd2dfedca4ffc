package org.ibtwin.doctor;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.ibtwin.format.FormatException;
import org.ibtwin.format.TextFiles;
import org.ibtwin.format.TopologyWriter;
import org.ibtwin.model.Guids;
import org.ibtwin.model.Link;
import org.ibtwin.model.Node;
import org.ibtwin.model.Port;
import org.ibtwin.model.PortCounter;

/**
 * One archive of a fabric's state, as an admin keeps ibnetdiscover and ibstatus outputs after every change: the
 * topology as ibnetdiscover prints it (so the real tools and ibsim can read it back), and, structured for
 * {@link SnapshotDiff}, the nodes with their LIDs, port states, P_Key tables and MTUs (where known), the links with
 * their width and speed, the switches' forwarding tables (where read), the last counter reading of every port that
 * has one, the SMs and the host facts. A JSON file; snapshots written before P_Keys, MTUs and LFTs were added read
 * back with those unknown. {@code ibtwin up} and {@code topo} load one back as a fabric
 * ({@link org.ibtwin.format.SnapshotFabric}).
 */
public record Snapshot(String format, String source, String time, String topology, List<SNode> nodes,
                       List<SLink> links, List<SCounters> counters, List<SSm> sms,
                       Map<String, Map<String, String>> hosts, List<SLft> lfts) {
    public static final String FORMAT = org.ibtwin.format.SnapshotFabric.FORMAT;

    /** A node; ports only where something is connected or has a LID. */
    public record SNode(String guid, String type, String name, String description, String device, int lid,
                        List<SPort> ports) {
        public SNode {
            checkLid(lid);
        }
    }

    /**
     * A port: its P_Key table ("0x7fff", "0x8001"; null when not known) and MTUs in bytes (active: 0 when not
     * known; cap: 0 when not known).
     */
    public record SPort(int port, String guid, int lid, String state, String phys, List<String> pkeys, int mtuCap,
                        int mtuActive) {
        public SPort {
            if (port < 0 || port > 254) {
                throw new IllegalArgumentException("port " + port + " is not a port number (0..254)");
            }
            checkLid(lid);
        }
    }

    /** A switch's linear forwarding table: the egress port of each LID from 0 up (-1: unrouted). */
    public record SLft(String guid, String name, List<Integer> ports) {
    }

    /**
     * A link: its ends by name ("leaf02/33") and by key ("0x0002c90380000001/33"), its rate ("4xDDR", "down") and
     * what both ends could do.
     */
    public record SLink(String a, String b, String aKey, String bKey, String rate, String capable) {
    }

    /** The last counter reading of a port. */
    public record SCounters(String port, String key, String time, Map<String, Long> values) {
    }

    public record SSm(String guid, int lid, int priority, String state) {
        public SSm {
            checkLid(lid);
        }
    }

    /** LIDs are 16-bit: 0 (none) to 0xffff. */
    private static void checkLid(int lid) {
        if (lid < 0 || lid > 0xffff) {
            throw new IllegalArgumentException("lid " + lid + " is not a LID (0..65535)");
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    public static Snapshot of(FabricState s) {
        List<SNode> nodes = new ArrayList<>();
        for (Node n : s.fabric().nodes()) {
            List<SPort> ports = new ArrayList<>();
            for (int i = n.isSwitch() ? 0 : 1; i <= n.numPorts(); i++) {
                Port p = n.port(i);
                if (p.link() != null || p.lid() > 0) {
                    List<String> pkeys = null;
                    if (s.pkeysKnown() && !(n.isSwitch() && i > 0)) {
                        pkeys = new ArrayList<>();
                        for (int k : p.pkeys()) {
                            pkeys.add(String.format("0x%04x", k));
                        }
                    }
                    boolean mtus = s.mtusKnown();
                    ports.add(new SPort(i, Guids.hex(p.guid()), n.isSwitch() && i > 0 ? 0 : p.lid(),
                            p.state().label(), p.physState().label(), pkeys, mtus ? p.mtuCap().bytes() : 0,
                            mtus && p.mtuActive() != null ? p.mtuActive().bytes() : 0));
                }
            }
            nodes.add(new SNode(Guids.hex(n.guid()), n.type().keyword(), s.name(n), n.description(),
                    String.format("0x%x:0x%x", n.vendorId(), n.deviceId()), n.managementPort().lid(), ports));
        }
        List<SLink> links = new ArrayList<>();
        for (Link l : s.fabric().links()) {
            String[] ends = s.linkName(l).split(" <-> ");
            Port a = s.portName(l.a()).equals(ends[0]) ? l.a() : l.b();
            Port b = l.other(a);
            String capable = l.capableWidth() == null || l.capableSpeed() == null ? "none"
                    : l.capableWidth().label() + l.capableSpeed().label();
            links.add(new SLink(ends[0], ends[1], key(a), key(b), l.isUp() ? l.activeWidth().label()
                    + l.activeSpeed().label() : "down", capable));
        }
        List<SCounters> counters = new ArrayList<>();
        for (PortCounters pc : s.counters().values()) {
            CounterReading r = pc.last();
            Map<String, Long> v = new LinkedHashMap<>();
            for (PortCounter c : PortCounter.values()) {
                for (CounterReading x : pc.readings()) {      // oldest first: the latest reading of each counter wins
                    if (x.get(c) != null) {
                        v.put(c.fieldName(), x.get(c));
                    }
                }
            }
            counters.add(new SCounters(pc.where(), pc.port() == null ? pc.where() : key(pc.port()),
                    r.time() == null ? null : r.time().toString(), v));
        }
        List<SSm> sms = new ArrayList<>();
        if (s.sms() != null) {
            for (SmInfo sm : s.sms()) {
                sms.add(new SSm(Guids.hex(sm.guid()), sm.lid(), sm.priority(), sm.stateLabel()));
            }
        }
        Map<String, Map<String, String>> hosts = new LinkedHashMap<>();
        for (HostInfo h : s.hosts().values()) {
            Map<String, String> m = new LinkedHashMap<>();
            for (HostInfo.Key k : HostInfo.Key.values()) {
                HostInfo.Fact f = h.fact(k);
                if (f != null) {
                    // a GUID is unsigned: as the tools print it, never as a (negative) decimal long
                    m.put(k.name().toLowerCase(java.util.Locale.ROOT), k == HostInfo.Key.NODE_GUID
                            && f.value() instanceof Long g ? Guids.hex(g) : String.valueOf(f.value()));
                }
            }
            if (!m.isEmpty()) {
                hosts.put(h.host(), m);
            }
        }
        List<SLft> lfts = new ArrayList<>();
        for (Map.Entry<Node, int[]> e : s.routes().entrySet()) {
            List<Integer> ports = new ArrayList<>(e.getValue().length);
            for (int port : e.getValue()) {
                ports.add(port);
            }
            lfts.add(new SLft(Guids.hex(e.getKey().guid()), s.name(e.getKey()), ports));
        }
        lfts.sort(java.util.Comparator.comparing(SLft::name));
        Instant t = s.time() != null ? s.time() : Instant.now();
        String topo = s.topologyKnown() && s.fabric().size() > 0
                ? TopologyWriter.toString(s.fabric(), t.atZone(java.time.ZoneOffset.UTC)) : "";
        return new Snapshot(FORMAT, s.source(), t.toString(), topo, nodes, links, counters, sms, hosts, lfts);
    }

    /** "0x0002c90380000001/33": a port by its node GUID and number, stable across renames. */
    static String key(Port p) {
        return Guids.hex(p.node().guid()) + "/" + p.number();
    }

    public String toJson() {
        try {
            return JSON.writeValueAsString(this);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Writes the archive to {@code file}, in a directory that must exist. */
    public void write(Path file) throws IOException {
        Files.writeString(file, toJson() + "\n", StandardCharsets.UTF_8);
    }

    /** Reads a snapshot; a file that is not one is a {@link FormatException} with the line JSON broke on. */
    public static Snapshot read(Path file) {
        String text = TextFiles.read(file);
        checkNumbers(text, file.toString());
        Snapshot s;
        try {
            s = JSON.readValue(text, Snapshot.class);
        } catch (ValueInstantiationException e) {
            // a value our records refuse (a negative LID): the place in the file, the path, why
            int line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
            String why = e.getCause() != null && e.getCause().getMessage() != null ? e.getCause().getMessage()
                    : e.getOriginalMessage();
            throw new FormatException(file.toString(), line, "not an ibtwin snapshot: " + path(e) + ": " + why);
        } catch (JsonProcessingException e) {
            int line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
            String why = e instanceof com.fasterxml.jackson.databind.exc.MismatchedInputException
                    ? "a value of the wrong kind" + (e instanceof com.fasterxml.jackson.databind.exc.MismatchedInputException m
                    && !m.getPath().isEmpty() ? " at \"" + m.getPath().get(m.getPath().size() - 1).getFieldName() + "\""
                    : "") : e.getOriginalMessage();
            throw new FormatException(file.toString(), line, "not an ibtwin snapshot: " + why);
        }
        if (s == null || !FORMAT.equals(s.format())) {
            throw new FormatException(file.toString(), 0, "not an ibtwin snapshot (no \"format\": \"" + FORMAT
                    + "\")");
        }
        String missing = missing(s);
        if (missing != null) {
            throw new FormatException(file.toString(), 0, "not an ibtwin snapshot: " + missing);
        }
        return new Snapshot(s.format, s.source, s.time, s.topology == null ? "" : s.topology, orEmpty(s.nodes),
                orEmpty(s.links), orEmpty(s.counters), orEmpty(s.sms), s.hosts == null ? Map.of() : s.hosts,
                orEmpty(s.lfts));
    }

    /**
     * LIDs and port numbers in range, each checked where it stands (the records check them again, but Jackson
     * places a record's failure at its end): {@code a.json:12: ... nodes[0].lid: -3 is not a LID (0..65535)}.
     * Malformed JSON is left to the reader, which says where it broke.
     */
    private static void checkNumbers(String text, String file) {
        try (JsonParser p = JSON.getFactory().createParser(text)) {
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                String name = p.currentName();
                if (!(t.isNumeric() && ("lid".equals(name) || "port".equals(name)))) {
                    continue;
                }
                boolean lid = name.equals("lid");
                long max = lid ? 0xffff : 254;
                boolean ok = t == JsonToken.VALUE_NUMBER_INT && p.getNumberType() == JsonParser.NumberType.INT
                        && p.getIntValue() >= 0 && p.getIntValue() <= max;
                if (!ok) {
                    throw new FormatException(file, p.currentTokenLocation().getLineNr(), "not an ibtwin snapshot: "
                            + path(p.getParsingContext().pathAsPointer().toString()) + ": " + p.getText()
                            + (lid ? " is not a LID (0..65535)" : " is not a port number (0..254)"));
                }
            }
        } catch (JsonProcessingException e) {
            // malformed: the reader reports it
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** "/nodes/3/lid" as "nodes[3].lid". */
    private static String path(String pointer) {
        StringBuilder sb = new StringBuilder();
        for (String part : pointer.split("/")) {
            if (part.isEmpty()) {
                continue;
            }
            if (part.chars().allMatch(Character::isDigit)) {
                sb.append('[').append(part).append(']');
            } else {
                sb.append(sb.isEmpty() ? "" : ".").append(part.replace("~1", "/").replace("~0", "~"));
            }
        }
        return sb.toString();
    }

    /** "nodes[3].ports[0]": where in the document a value was refused. */
    private static String path(JsonMappingException e) {
        StringBuilder sb = new StringBuilder();
        for (JsonMappingException.Reference r : e.getPath()) {
            if (r.getFieldName() != null) {
                sb.append(sb.isEmpty() ? "" : ".").append(r.getFieldName());
            } else if (r.getIndex() >= 0) {
                sb.append('[').append(r.getIndex()).append(']');
            }
        }
        return sb.isEmpty() ? "the document" : sb.toString();
    }

    /** The first entry that lacks what a diff compares it by (a node's GUID, a link's ends, a reading's port). */
    private static String missing(Snapshot s) {
        List<SNode> nodes = orEmpty(s.nodes);
        for (int i = 0; i < nodes.size(); i++) {
            if (nodes.get(i) == null || nodes.get(i).guid() == null) {
                return "node " + (i + 1) + " has no \"guid\"";
            }
        }
        List<SLink> links = orEmpty(s.links);
        for (int i = 0; i < links.size(); i++) {
            SLink l = links.get(i);
            if (l == null || l.a() == null || l.b() == null || l.aKey() == null || l.bKey() == null) {
                return "link " + (i + 1) + " lacks one of \"a\", \"b\", \"aKey\", \"bKey\"";
            }
        }
        List<SCounters> counters = orEmpty(s.counters);
        for (int i = 0; i < counters.size(); i++) {
            if (counters.get(i) == null || counters.get(i).key() == null) {
                return "counter reading " + (i + 1) + " has no \"key\"";
            }
        }
        for (SSm sm : orEmpty(s.sms)) {
            if (sm == null) {
                return "an SM entry is null";
            }
        }
        return null;
    }

    private static <T> List<T> orEmpty(List<T> l) {
        return l == null ? List.of() : l;
    }
}
