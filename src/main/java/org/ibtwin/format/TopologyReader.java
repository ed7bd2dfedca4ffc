package org.ibtwin.format;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import org.ibtwin.model.Cable;
import org.ibtwin.model.DeviceCatalog;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Guids;
import org.ibtwin.model.Link;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.LinkWidth;
import org.ibtwin.model.Node;
import org.ibtwin.model.NodeType;
import org.ibtwin.model.Port;
import org.ibtwin.model.PortState;

/**
 * Reads topology files: the output of ibnetdiscover (as real clusters dump it: tabs or spaces, with or without
 * blank lines between records, GUIDs with or without leading zeros, hand-added comments) and ibsim's hand-written
 * net files ({@code Switch 8 "Switch1"}, {@code [1] "Hca1"[1]}, {@code w=}/{@code s=} qualifiers, {@code include}).
 *
 * <p>What the file does not say is filled in the way the tools would see it: the capabilities of a known device
 * come from {@link DeviceCatalog}, otherwise from the fastest link the node has; a link that trained below what both
 * of its ends can do gets a cable that holds it there, so the fabric trains back to exactly what the file shows.
 */
public final class TopologyReader {

    /** First GUID handed to nodes whose file gives none. */
    static final long GENERATED_GUID_BASE = 0x0002c9fe00000000L;

    private final List<NodeRec> records = new ArrayList<>();
    private final Set<Path> including = new HashSet<>();

    private TopologyReader() {
    }

    /** Reads a topology file; bad input is a {@link FormatException} naming the file and line. */
    public static Fabric read(Path file) {
        TopologyReader r = new TopologyReader();
        r.parseFile(file, file.toString());
        return r.build(file.toString());
    }

    /**
     * Checks that a file is a topology, line by line, as {@link #read} does, without building the fabric: what
     * only a fabric can contradict (a GUID or a port given twice, a port naming a node not in the file) passes, so
     * the tools that look for exactly those (ibidsverify) can still report them.
     *
     * @throws FormatException naming the file (and line) when it is not a topology or holds no node
     */
    public static void check(Path file) {
        TopologyReader r = new TopologyReader();
        r.parseFile(file, file.toString());
        r.requireNodes(file.toString());
    }

    /** Reads topology text; {@code name} is used in error messages. Includes are resolved against the cwd. */
    public static Fabric read(String text, String name) {
        TopologyReader r = new TopologyReader();
        try (BufferedReader br = new BufferedReader(new java.io.StringReader(text))) {
            r.parse(br, name, Path.of("."));
        } catch (IOException e) {
            throw new FormatException(name, 0, e.getMessage());
        }
        return r.build(name);
    }

    /** A file with no Switch, Ca or Rt line is not a fabric (an empty or all-comment file, a wrong file). */
    private void requireNodes(String name) {
        if (records.isEmpty()) {
            throw new FormatException(name, 0, "no nodes (no Switch, Ca or Rt line)");
        }
    }

    // ---------------------------------------------------------------- records

    private static final class NodeRec {
        NodeType type;
        int ports;
        String id;
        String desc;
        /** GUIDs are unsigned 64-bit values: every long is a GUID, so whether the file gave one is a flag. */
        long guid;
        boolean hasGuid;
        long sysImageGuid;
        boolean hasSysImageGuid;
        int vendorId = -1;
        int deviceId = -1;
        boolean enhanced;
        int lid = -1;
        int lmc;
        String file;
        int line;
        final List<PortRec> portRecs = new ArrayList<>();
        Node node;
    }

    private static final class PortRec {
        int num;
        long localGuid;
        boolean hasLocalGuid;
        String remoteId;
        int remotePort = 1;
        long remoteGuid;
        boolean hasRemoteGuid;
        int localLid = -1;
        int localLmc = -1;
        int remoteLid = -1;
        LinkWidth width;
        LinkSpeed speed;
        int widthMask = -1;
        int speedMask = -1;
        int extSpeedMask = -1;
        String file;
        int line;
    }

    // ---------------------------------------------------------------- parsing

    private void parseFile(Path file, String shown) {
        Path abs = file.toAbsolutePath().normalize();
        if (!including.add(abs)) {
            throw new FormatException(shown, 0, "includes itself");
        }
        try (BufferedReader br = TextFiles.open(file, shown)) {
            parse(br, shown, abs.getParent());
        } catch (IOException e) {
            throw TextFiles.failure(file, shown, e);
        } finally {
            including.remove(abs);
        }
    }

    private void parse(BufferedReader br, String file, Path dir) throws IOException {
        NodeRec cur = null;
        Map<String, String> pending = new HashMap<>();
        int pendingLine = 0;
        String raw;
        int lineNo = 0;
        while ((raw = br.readLine()) != null) {
            lineNo++;
            String line = raw.strip();
            if (line.isEmpty()) {
                continue;
            }
            char c0 = line.charAt(0);
            if (c0 == '#') {
                continue;
            }
            if (c0 == '[') {
                if (cur == null) {
                    throw new FormatException(file, lineNo, "port line before any Switch, Ca or Rt line");
                }
                cur.portRecs.add(parsePort(line, file, lineNo, cur));
                continue;
            }
            int eq = line.indexOf('=');
            int sp = firstSpace(line);
            if (eq > 0 && (sp < 0 || eq < sp)) {
                String key = line.substring(0, eq).trim().toLowerCase(java.util.Locale.ROOT);
                String value = stripComment(line.substring(eq + 1)).trim();
                switch (key) {
                    case "vendid", "devid", "sysimgguid", "switchguid", "caguid", "rtguid" -> {
                        if (pending.isEmpty()) {
                            pendingLine = lineNo;
                        }
                        pending.put(key, value);
                    }
                    default -> throw new FormatException(file, lineNo, "unknown key \"" + key
                            + "\" (expected vendid, devid, sysimgguid, switchguid, caguid or rtguid)");
                }
                cur = null;
                continue;
            }
            String word = sp < 0 ? line : line.substring(0, sp);
            if (groupingHeader(line, word)) {
                cur = null;
                continue;
            }
            if (word.equalsIgnoreCase("include")) {
                String target = unquote(stripComment(line.substring(word.length())).trim());
                if (target.isEmpty()) {
                    throw new FormatException(file, lineNo, "include without a file name");
                }
                Path p = dir.resolve(target);
                if (!Files.exists(p)) {
                    throw new FormatException(file, lineNo, "included file \"" + target + "\" not found");
                }
                parseFile(p, p.toString());
                cur = null;
                continue;
            }
            NodeType type = nodeType(word);
            if (type == null) {
                throw new FormatException(file, lineNo, "expected Switch, Ca, Hca or Rt, or a [port] line, got: "
                        + abbreviate(line));
            }
            cur = parseNode(type, line.substring(word.length()), file, lineNo);
            applyPending(cur, pending, file, pendingLine);
            pending.clear();
            records.add(cur);
        }
        if (!pending.isEmpty()) {
            throw new FormatException(file, pendingLine, "node attributes (" + String.join(", ", pending.keySet())
                    + ") with no Switch, Ca or Rt line after them");
        }
    }

    /** ibnetdiscover -g's headers: "Non-Chassis Nodes", "Chassis 1 (guid 0x0008f10400411f55)". */
    private static boolean groupingHeader(String line, String word) {
        if (line.equals("Non-Chassis Nodes")) {
            return true;
        }
        if (!word.equals("Chassis") || line.length() <= word.length() + 1) {
            return false;
        }
        return Character.isDigit(line.substring(word.length()).strip().charAt(0));
    }

    private static NodeType nodeType(String word) {
        return switch (word.toLowerCase(java.util.Locale.ROOT)) {
            case "switch" -> NodeType.SWITCH;
            case "ca", "hca" -> NodeType.CA;
            case "rt", "router" -> NodeType.ROUTER;
            default -> null;
        };
    }

    private static void applyPending(NodeRec n, Map<String, String> kv, String file, int line) {
        for (Map.Entry<String, String> e : kv.entrySet()) {
            String key = e.getKey();
            String v = e.getValue();
            switch (key) {
                case "vendid" -> n.vendorId = (int) number(v, 0xffffff, file, line, key);
                case "devid" -> n.deviceId = (int) number(v, 0xffff, file, line, key);
                case "sysimgguid" -> {
                    n.sysImageGuid = guid(v, file, line, key);
                    n.hasSysImageGuid = true;
                }
                default -> {
                    NodeType expected = switch (key) {
                        case "switchguid" -> NodeType.SWITCH;
                        case "caguid" -> NodeType.CA;
                        default -> NodeType.ROUTER;
                    };
                    if (expected != n.type) {
                        throw new FormatException(file, n.line, key + " given for a " + n.type.keyword() + " node");
                    }
                    int paren = v.indexOf('(');
                    n.guid = guid(paren < 0 ? v : v.substring(0, paren), file, line, key);
                    n.hasGuid = true;
                }
            }
        }
    }

    private NodeRec parseNode(NodeType type, String rest, String file, int line) {
        NodeRec n = new NodeRec();
        n.type = type;
        n.file = file;
        n.line = line;
        Cursor c = new Cursor(rest, file, line);
        c.skipSpace();
        String count = c.word();
        if (count.isEmpty()) {
            throw new FormatException(file, line, type.keyword() + " line without a port count");
        }
        try {
            n.ports = Integer.parseInt(count);
        } catch (NumberFormatException e) {
            throw new FormatException(file, line, "port count \"" + count + "\" is not a number");
        }
        if (n.ports < 1 || n.ports > 254) {
            throw new FormatException(file, line, "port count " + n.ports + " outside 1..254");
        }
        c.skipSpace();
        n.id = c.name();
        if (n.id.isEmpty()) {
            throw new FormatException(file, line, type.keyword() + " line without a node name");
        }
        c.skipSpace();
        if (c.peek() == '(') {
            n.guid = c.parenGuid("node GUID");
            n.hasGuid = true;
            c.skipSpace();
        }
        if (!c.atEnd() && c.peek() != '#') {
            throw new FormatException(file, line, "unexpected \"" + abbreviate(c.rest()) + "\" after node name");
        }
        if (c.peek() == '#') {
            c.next();
            parseNodeComment(n, c.rest(), file, line);
        }
        if (n.desc == null) {
            n.desc = n.id;
        }
        return n;
    }

    private static void parseNodeComment(NodeRec n, String comment, String file, int line) {
        Cursor c = new Cursor(comment, file, line);
        c.skipSpace();
        if (c.peek() == '"') {
            n.desc = c.quoted();
        }
        List<String> words = c.restWords();
        for (int i = 0; i < words.size(); i++) {
            String w = words.get(i);
            if (w.equals("enhanced")) {
                n.enhanced = true;
            } else if (w.equals("lid") && i + 1 < words.size()) {
                n.lid = (int) number(words.get(++i), 0xffff, file, line, "lid");
            } else if (w.equals("lmc") && i + 1 < words.size()) {
                n.lmc = (int) number(words.get(++i), 7, file, line, "lmc");
            }
        }
    }

    private PortRec parsePort(String line, String file, int lineNo, NodeRec owner) {
        PortRec p = new PortRec();
        p.file = file;
        p.line = lineNo;
        Cursor c = new Cursor(line, file, lineNo);
        p.num = c.bracketNumber("port number");
        if (p.num < 1 || p.num > owner.ports) {
            throw new FormatException(file, lineNo, "port " + p.num + " outside 1.." + owner.ports + " of \""
                    + owner.id + "\"");
        }
        c.skipSpace();
        if (c.peek() == '(') {
            p.localGuid = c.parenGuid("port GUID");
            p.hasLocalGuid = true;
            c.skipSpace();
        }
        p.remoteId = c.name();
        if (p.remoteId.isEmpty()) {
            throw new FormatException(file, lineNo, "port [" + p.num + "] without the name of the node it connects to");
        }
        if (c.peek() == '[') {
            p.remotePort = c.bracketNumber("remote port number");
        }
        c.skipSpace();
        if (c.peek() == '(') {
            p.remoteGuid = c.parenGuid("remote port GUID");
            p.hasRemoteGuid = true;
        }
        // ibsim qualifiers and the comment
        while (true) {
            c.skipSpace();
            if (c.atEnd()) {
                break;
            }
            if (c.peek() == '#') {
                c.next();
                parsePortComment(p, c.rest(), file, lineNo, owner.type == NodeType.SWITCH);
                break;
            }
            String q = c.word();
            parseQualifier(p, q, file, lineNo);
        }
        return p;
    }

    private static void parseQualifier(PortRec p, String q, String file, int line) {
        int eq = q.indexOf('=');
        if (eq < 0) {
            WidthSpeed ws = WidthSpeed.parse(q);
            if (ws == null) {
                throw new FormatException(file, line, "unexpected \"" + abbreviate(q) + "\" on port line");
            }
            p.width = ws.width();
            p.speed = ws.speed();
            return;
        }
        String k = q.substring(0, eq);
        String v = q.substring(eq + 1);
        int mask;
        switch (k) {
            case "w" -> {
                mask = IbsimQualifiers.widthMask(v);
                if (mask < 0) {
                    throw new FormatException(file, line, "w=" + v + " is not a link width mask "
                            + IbsimQualifiers.WIDTH_HINT);
                }
                p.widthMask = mask;
            }
            case "s" -> {
                mask = IbsimQualifiers.speedMask(v);
                if (mask < 0) {
                    throw new FormatException(file, line, "s=" + v + " is not a link speed mask "
                            + IbsimQualifiers.SPEED_HINT);
                }
                p.speedMask = mask;
            }
            case "e" -> {
                mask = IbsimQualifiers.extSpeedMask(v);
                if (mask < 0) {
                    throw new FormatException(file, line, "e=" + v + " is not an extended link speed mask "
                            + IbsimQualifiers.EXT_SPEED_HINT);
                }
                p.extSpeedMask = mask;
            }
            default -> throw new FormatException(file, line, "unknown port qualifier \"" + k
                    + "=\" (expected w=, s= or e=)");
        }
    }

    /**
     * Switch port comments read {@code "remote desc" lid N 4xEDR}; CA port comments read
     * {@code lid N lmc M "remote desc" lid N 4xEDR}. Hand edits may add words; unknown words are ignored.
     */
    private static void parsePortComment(PortRec p, String comment, String file, int line, boolean switchSide) {
        Cursor c = new Cursor(comment, file, line);
        boolean seenRemoteDesc = switchSide;
        int lidsSeen = 0;
        while (true) {
            c.skipSpace();
            if (c.atEnd()) {
                break;
            }
            if (c.peek() == '"') {
                c.quoted();
                seenRemoteDesc = true;
                continue;
            }
            String w = c.word();
            if (w.equals("lid")) {
                c.skipSpace();
                String v = c.word();
                int lid = (int) number(v, 0xffff, file, line, "lid");
                if (!seenRemoteDesc && lidsSeen == 0) {
                    p.localLid = lid;
                } else {
                    p.remoteLid = lid;
                }
                lidsSeen++;
            } else if (w.equals("lmc") && !seenRemoteDesc) {
                c.skipSpace();
                p.localLmc = (int) number(c.word(), 7, file, line, "lmc");
            } else {
                WidthSpeed ws = WidthSpeed.parse(w);
                if (ws != null && p.width == null) {
                    p.width = ws.width();
                    p.speed = ws.speed();
                }
            }
        }
    }

    // ---------------------------------------------------------------- building

    private Fabric build(String name) {
        requireNodes(name);
        Fabric fabric = new Fabric();
        Map<String, NodeRec> byId = new HashMap<>(records.size() * 2);
        Set<Long> taken = new HashSet<>(records.size() * 2);
        for (NodeRec r : records) {
            NodeRec prev = byId.putIfAbsent(r.id, r);
            if (prev != null) {
                throw new FormatException(r.file, r.line, "node \"" + r.id + "\" defined again (first at "
                        + prev.file + ":" + prev.line + ")");
            }
            if (!r.hasGuid) {
                OptionalLong g = guidFromId(r.id);
                if (g.isPresent()) {
                    r.guid = g.getAsLong();
                    r.hasGuid = true;
                }
            }
            if (r.hasGuid) {
                if (!taken.add(r.guid)) {
                    NodeRec other = records.stream().filter(o -> o != r && o.hasGuid && o.guid == r.guid).findFirst()
                            .orElse(r);
                    throw new FormatException(r.file, r.line, "duplicate node GUID " + Guids.hex(r.guid)
                            + " (also \"" + other.id + "\" at " + other.file + ":" + other.line + ")");
                }
            }
        }
        long next = GENERATED_GUID_BASE;
        for (NodeRec r : records) {
            if (!r.hasGuid) {
                while (taken.contains(next)) {
                    next += 0x100;
                }
                r.guid = next;
                r.hasGuid = true;
                taken.add(next);
                next += 0x100;
            }
            Node n = new Node(r.type, r.guid, r.id, r.ports);
            try {
                n.setDescription(r.desc);
            } catch (IllegalArgumentException e) {
                throw new FormatException(r.file, r.line, "node description of \"" + r.id + "\" is longer than 64 bytes");
            }
            n.setSystemImageGuid(r.hasSysImageGuid ? r.sysImageGuid : r.guid);
            n.setIds(Math.max(r.vendorId, 0), Math.max(r.deviceId, 0), 0);
            n.setEnhancedPort0(r.type == NodeType.SWITCH && r.enhanced);
            if (r.type == NodeType.SWITCH && r.lid >= 0) {
                n.port(0).setLid(r.lid);
                n.port(0).setLmc(r.lmc);
            }
            DeviceCatalog.Device d = DeviceCatalog.find(n.vendorId(), n.deviceId());
            if (d != null && d.type() == r.type) {
                n.setFirmware(d.firmware());
            }
            r.node = n;
            fabric.add(n);
        }
        // port GUIDs and LIDs, then links
        for (NodeRec r : records) {
            for (PortRec p : r.portRecs) {
                Port local = r.node.port(p.num);
                if (p.hasLocalGuid && r.type != NodeType.SWITCH) {
                    local.setGuid(p.localGuid);
                }
                if (p.localLid >= 0 && r.type != NodeType.SWITCH) {
                    local.setLid(p.localLid);
                    if (p.localLmc >= 0) {
                        local.setLmc(p.localLmc);
                    }
                }
                NodeRec rr = byId.get(p.remoteId);
                if (rr == null) {
                    throw new FormatException(p.file, p.line, "port [" + p.num + "] connects to unknown node \""
                            + p.remoteId + "\"");
                }
                if (p.remotePort < 1 || p.remotePort > rr.ports) {
                    throw new FormatException(p.file, p.line, "remote port " + p.remotePort + " outside 1.."
                            + rr.ports + " of \"" + rr.id + "\"");
                }
                Port remote = rr.node.port(p.remotePort);
                if (p.hasRemoteGuid && rr.type != NodeType.SWITCH) {
                    remote.setGuid(p.remoteGuid);
                }
                if (p.remoteLid >= 0 && rr.type != NodeType.SWITCH && remote.lid() == 0) {
                    remote.setLid(p.remoteLid);
                }
            }
        }
        Map<Link, LinkRec> recOf = new HashMap<>();
        Map<Port, PortRec> claimed = new HashMap<>();
        List<LinkRec> linkRecs = new ArrayList<>();
        for (NodeRec r : records) {
            for (PortRec p : r.portRecs) {
                Port local = r.node.port(p.num);
                Port remote = byId.get(p.remoteId).node.port(p.remotePort);
                if (local == remote) {
                    throw new FormatException(p.file, p.line, "port [" + p.num + "] of \"" + r.id
                            + "\" connects to itself");
                }
                PortRec firstLocal = claimed.putIfAbsent(local, p);
                if (firstLocal != null) {
                    throw new FormatException(p.file, p.line, "port [" + p.num + "] of \"" + r.id
                            + "\" listed twice (first at line " + firstLocal.line + ")");
                }
                if (local.link() != null) {
                    LinkRec lr = recOf.get(local.link());
                    if (local.remote() != remote) {
                        throw new FormatException(p.file, p.line, "\"" + r.id + "\"[" + p.num + "] connects to \""
                                + p.remoteId + "\"[" + p.remotePort + "] here but \"" + local.remote().node().name()
                                + "\"[" + local.remote().number() + "] says it connects here at " + lr.first.file
                                + ":" + lr.first.line);
                    }
                    lr.second = p;
                    continue;
                }
                if (remote.link() != null) {
                    LinkRec o = recOf.get(remote.link());
                    throw new FormatException(p.file, p.line, "\"" + p.remoteId + "\"[" + p.remotePort
                            + "] is already connected to \"" + remote.remote().node().name() + "\"["
                            + remote.remote().number() + "] (" + o.first.file + ":" + o.first.line + ")");
                }
                Link l = fabric.connect(local, remote, Cable.UNRATED);
                LinkRec lr = new LinkRec(l, p);
                recOf.put(l, lr);
                linkRecs.add(lr);
            }
        }
        for (LinkRec lr : linkRecs) {
            lr.resolve();
        }
        settleCapabilities(fabric, linkRecs);
        return fabric;
    }

    /** A link and the one or two port lines that describe it. */
    private static final class LinkRec {
        final Link link;
        final PortRec first;
        PortRec second;
        LinkWidth width;
        LinkSpeed speed;

        LinkRec(Link link, PortRec first) {
            this.link = link;
            this.first = first;
        }

        /** The trained width and speed: from a {@code 4xEDR} tag, else from ibsim's enabled masks. */
        void resolve() {
            PortRec a = first;
            PortRec b = second == null ? first : second;
            if (a.width != null && b.width != null && (a.width != b.width || a.speed != b.speed)) {
                throw new FormatException(b.file, b.line, "link is " + WidthSpeed.label(b.width, b.speed)
                        + " here but " + WidthSpeed.label(a.width, a.speed) + " at " + a.file + ":" + a.line);
            }
            if (a.width != null || b.width != null) {
                PortRec t = a.width != null ? a : b;
                width = t.width;
                speed = t.speed;
                return;
            }
            int widths = widthMask(a) & widthMask(b);
            int speeds = speedMask(a) & speedMask(b);
            width = LinkWidth.widest(widths);
            speed = LinkSpeed.highest(speeds);
            if (width == null || speed == null) {
                throw new FormatException(b.file, b.line, "mismatched enabled " + (width == null ? "width" : "speed")
                        + " between the two ends of " + link);
            }
        }

        private static int widthMask(PortRec p) {
            return p.widthMask >= 0 ? p.widthMask : IbsimQualifiers.DEFAULT_WIDTHS;
        }

        private static int speedMask(PortRec p) {
            int m = p.speedMask >= 0 ? p.speedMask : IbsimQualifiers.DEFAULT_SPEEDS;
            return p.extSpeedMask >= 0 ? m | p.extSpeedMask : m;
        }
    }

    /** Gives every port the capabilities its device (or its fastest link) implies, then pins degraded links. */
    private static void settleCapabilities(Fabric fabric, List<LinkRec> links) {
        Map<Node, LinkSpeed> topSpeed = new HashMap<>();
        Map<Node, LinkWidth> topWidth = new HashMap<>();
        for (LinkRec lr : links) {
            for (Port p : new Port[] {lr.link.a(), lr.link.b()}) {
                topSpeed.merge(p.node(), lr.speed, (x, y) -> x.compareTo(y) >= 0 ? x : y);
                topWidth.merge(p.node(), lr.width, (x, y) -> x.lanes() >= y.lanes() ? x : y);
            }
        }
        for (Node n : fabric.nodes()) {
            DeviceCatalog.Device d = DeviceCatalog.find(n.vendorId(), n.deviceId());
            LinkSpeed s = topSpeed.getOrDefault(n, LinkSpeed.SDR);
            LinkWidth w = topWidth.getOrDefault(n, LinkWidth.X4);
            if (d != null && d.type() == n.type()) {
                if (d.maxSpeed().compareTo(s) > 0) {
                    s = d.maxSpeed();
                }
                LinkWidth dw = DeviceCatalog.widthAt(d, n.numPorts());   // an 80-port Quantum: split, 2x
                if (dw.lanes() > w.lanes()) {
                    w = dw;
                }
            }
            DeviceCatalog.setCapabilities(n, s, w);
        }
        for (LinkRec lr : links) {
            Link l = lr.link;
            for (Port p : new Port[] {l.a(), l.b()}) {
                int sm = p.speedSupported() | (1 << lr.speed.ordinal());
                int wm = p.widthSupported() | (1 << lr.width.ordinal());
                p.setSpeeds(sm, sm);
                p.setWidths(wm, wm);
            }
            l.train();
            if (l.activeWidth() != lr.width || l.activeSpeed() != lr.speed) {
                l.setCable(Cable.UNRATED.withMaxSpeed(lr.speed).withMaxWidth(lr.width));
            }
            boolean lidsKnown = l.a().node().managementPort().lid() > 0 || l.b().node().managementPort().lid() > 0;
            if (lidsKnown) {
                l.a().setState(PortState.ACTIVE);
                l.b().setState(PortState.ACTIVE);
            }
        }
        for (Node n : fabric.nodes()) {
            if (n.isSwitch() && n.port(0).lid() > 0) {
                n.port(0).setState(PortState.ACTIVE);
            }
        }
    }

    /** "S-0002c90300000001" style ids carry the node GUID; empty for any other id. */
    static OptionalLong guidFromId(String id) {
        if (id.length() < 3 || id.charAt(1) != '-') {
            return OptionalLong.empty();
        }
        char t = id.charAt(0);
        if (t != 'S' && t != 'H' && t != 'R') {
            return OptionalLong.empty();
        }
        String hex = id.substring(2);
        if (hex.length() > 16) {
            return OptionalLong.empty();
        }
        for (int i = 0; i < hex.length(); i++) {
            if (Character.digit(hex.charAt(i), 16) < 0) {
                return OptionalLong.empty();
            }
        }
        return OptionalLong.of(Long.parseUnsignedLong(hex, 16));
    }

    // ---------------------------------------------------------------- small helpers

    private static int firstSpace(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (Character.isWhitespace(s.charAt(i))) {
                return i;
            }
        }
        return -1;
    }

    /** Drops a {@code #} comment that is not inside quotes. */
    static String stripComment(String s) {
        boolean q = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"') {
                q = !q;
            } else if (c == '#' && !q) {
                return s.substring(0, i);
            }
        }
        return s;
    }

    private static String unquote(String s) {
        if (s.length() >= 2 && s.charAt(0) == '"' && s.charAt(s.length() - 1) == '"') {
            return s.substring(1, s.length() - 1);
        }
        return s;
    }

    static String abbreviate(String s) {
        return s.length() > 40 ? s.substring(0, 37) + "..." : s;
    }

    private static long number(String v, long max, String file, int line, String what) {
        String t = v.trim();
        long value;
        try {
            if (t.startsWith("0x") || t.startsWith("0X")) {
                value = Long.parseLong(t.substring(2), 16);
            } else {
                value = Long.parseLong(t);
            }
        } catch (NumberFormatException e) {
            throw new FormatException(file, line, what + " \"" + abbreviate(t) + "\" is not a number");
        }
        if (value < 0 || value > max) {
            throw new FormatException(file, line, what + " " + t + " out of range 0..0x" + Long.toHexString(max));
        }
        return value;
    }

    private static long guid(String v, String file, int line, String what) {
        try {
            return Guids.parse(v);
        } catch (NumberFormatException e) {
            throw new FormatException(file, line, what + " \"" + abbreviate(v.trim()) + "\" is not a GUID");
        }
    }

    /** A small scanner over one line. */
    private static final class Cursor {
        private final String s;
        private final String file;
        private final int line;
        private int i;

        Cursor(String s, String file, int line) {
            this.s = s;
            this.file = file;
            this.line = line;
        }

        boolean atEnd() {
            return i >= s.length();
        }

        char peek() {
            return i < s.length() ? s.charAt(i) : '\0';
        }

        void next() {
            i++;
        }

        void skipSpace() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
        }

        String rest() {
            return s.substring(Math.min(i, s.length()));
        }

        List<String> restWords() {
            List<String> out = new ArrayList<>();
            while (true) {
                skipSpace();
                if (atEnd()) {
                    return out;
                }
                if (peek() == '"') {
                    quoted();
                    continue;
                }
                out.add(word());
            }
        }

        /** A run of non-space characters, stopping before a quote, bracket or paren. */
        String word() {
            int st = i;
            while (i < s.length()) {
                char c = s.charAt(i);
                if (Character.isWhitespace(c) || c == '"' || c == '[' || c == '(' || c == '#') {
                    break;
                }
                i++;
            }
            if (i == st && i < s.length() && !Character.isWhitespace(s.charAt(i))) {
                i++;
                return s.substring(st, i);
            }
            return s.substring(st, i);
        }

        String quoted() {
            int st = ++i;
            int end = s.indexOf('"', st);
            if (end < 0) {
                throw new FormatException(file, line, "unterminated quoted string");
            }
            i = end + 1;
            return s.substring(st, end);
        }

        /** A node name, quoted or bare. */
        String name() {
            if (peek() == '"') {
                return quoted();
            }
            int st = i;
            while (i < s.length()) {
                char c = s.charAt(i);
                if (Character.isWhitespace(c) || c == '[' || c == '(' || c == '#') {
                    break;
                }
                i++;
            }
            return s.substring(st, i);
        }

        int bracketNumber(String what) {
            if (peek() != '[') {
                throw new FormatException(file, line, "expected [" + what + "]");
            }
            int end = s.indexOf(']', i);
            if (end < 0 || s.substring(i + 1, end).indexOf('"') >= 0 || s.substring(i + 1, end).indexOf('[') >= 0) {
                throw new FormatException(file, line, "missing ] after " + what);
            }
            String v = s.substring(i + 1, end).trim();
            i = end + 1;
            try {
                return Integer.parseInt(v);
            } catch (NumberFormatException e) {
                throw new FormatException(file, line, what + " \"" + abbreviate(v) + "\" is not a number");
            }
        }

        long parenGuid(String what) {
            int end = s.indexOf(')', i);
            if (end < 0) {
                throw new FormatException(file, line, "missing ) after " + what);
            }
            String v = s.substring(i + 1, end);
            i = end + 1;
            return guid(v, file, line, what);
        }
    }
}
