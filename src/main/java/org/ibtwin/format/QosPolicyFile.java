package org.ibtwin.format;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * OpenSM's QoS policy file ({@code qos_policy_file}, {@code qos-policy.conf}): its sections
 * <ul>
 * <li>{@code port-groups}: {@code port-group} blocks of {@code name}, {@code use} and the members: {@code port-guid}
 * (GUIDs and ranges), {@code port-name} ({@code "node description/Pn"}), {@code pkey} (P_Keys and ranges: the ports
 * whose P_Key table has one), {@code partition} (a partitions.conf name) and {@code node-type} ({@code CA},
 * {@code SWITCH}, {@code ROUTER}, {@code ALL}, {@code SELF}: the SM's port);</li>
 * <li>{@code qos-levels}: {@code qos-level} blocks of {@code name}, {@code use}, {@code sl}, {@code mtu-limit},
 * {@code rate-limit}, {@code packet-life}, {@code path-bits} and {@code pkey};</li>
 * <li>{@code qos-match-rules}: {@code qos-match-rule} blocks of {@code use}, {@code source} and
 * {@code destination} (port-group names, comma separated), {@code service-id}, {@code pkey}, {@code qos-class}
 * (numbers and ranges) and the {@code qos-level-name} they give;</li>
 * <li>{@code qos-ulps} (the simplified policy): {@code default}, {@code any} with {@code service-id},
 * {@code pkey}, {@code target-port-guid}, {@code source-port-guid} or {@code port-guid}, {@code sdp}, {@code rds} and
 * {@code iser} with an optional {@code port-num}, {@code srp} with {@code target-port-guid}, {@code ipoib} with an
 * optional {@code pkey}; each {@code ulp[, criterion values] : sl};</li>
 * <li>{@code qos-setup}, which OpenSM parses and ignores (the SL2VL and VL arbitration tables come from
 * opensm.conf): one warning line.</li>
 * </ul>
 * Values are numbers (decimal or 0x hex) or ranges {@code a-b}, comma separated. Any syntax error, a value out of
 * its range, a keyword or section OpenSM does not have, and a name nothing defines (a match rule's port-group or
 * qos-level) is a {@link FormatException} naming the line.
 */
public record QosPolicyFile(String file, List<PortGroup> portGroups, List<Level> levels, List<MatchRule> matchRules,
                            List<UlpRule> ulps, List<String> warnings) {
    /**
     * @param file       the file as named
     * @param portGroups the port groups, in the file's order
     * @param levels     the qos-levels, in the file's order
     * @param matchRules the qos-match-rules, in the file's order
     * @param ulps       the qos-ulps rules, in the file's order
     * @param warnings   one line each, {@code file:line: ...}: what was left out
     */
    public QosPolicyFile {
        portGroups = List.copyOf(portGroups);
        levels = List.copyOf(levels);
        matchRules = List.copyOf(matchRules);
        ulps = List.copyOf(ulps);
        warnings = List.copyOf(warnings);
    }

    /** The ULPs of the qos-ulps section. */
    public enum Ulp {
        DEFAULT, ANY, SDP, RDS, ISER, SRP, IPOIB
    }

    /** What a ULP rule matches on ({@link Ulp#DEFAULT} and a bare ULP: {@link #NONE}). */
    public enum Criterion {
        NONE, SERVICE_ID, PKEY, TARGET_PORT_GUID, SOURCE_PORT_GUID, PORT_GUID, PORT_NUM
    }

    /** A port group's node types ({@link #SELF}: the SM's own port). */
    public enum NodeType {
        CA, SWITCH, ROUTER, ALL, SELF
    }

    /** An inclusive range of unsigned 64-bit values. */
    public record Range(long from, long to) {
        /** Whether {@code v} is {@code base} plus a value in one of {@code ranges}. */
        public static boolean in(List<Range> ranges, long v, long base) {
            for (Range r : ranges) {
                if (Long.compareUnsigned(v, base + r.from()) >= 0 && Long.compareUnsigned(v, base + r.to()) <= 0) {
                    return true;
                }
            }
            return false;
        }
    }

    /** One qos-ulps line: {@code ulp[, criterion values] : sl}, at {@code line}. */
    public record UlpRule(int line, Ulp ulp, Criterion criterion, List<Range> values, int sl) {
        public UlpRule {
            values = List.copyOf(values);
        }
    }

    /** A port-name member: the node's NodeDescription and the port number. */
    public record PortName(String node, int port) {
    }

    /** One port-group and its members, each kind in the file's order. */
    public record PortGroup(int line, String name, List<Range> guids, List<PortName> portNames, List<Range> pkeys,
                            List<String> partitions, Set<NodeType> nodeTypes) {
        public PortGroup {
            guids = List.copyOf(guids);
            portNames = List.copyOf(portNames);
            pkeys = List.copyOf(pkeys);
            partitions = List.copyOf(partitions);
            nodeTypes = Set.copyOf(nodeTypes);
        }
    }

    /**
     * One qos-level: its name, SL, and the limits it puts on a path (-1, or empty: none given).
     *
     * @param mtuLimit   the largest MTU code (1: 256 .. 5: 4096)
     * @param rateLimit  the fastest rate code (IBA's 2..)
     * @param packetLife the PacketLifeTime a path gets
     * @param pathBits   the LMC path bits (DLID offsets) it allows
     * @param pkeys      the P_Keys it allows
     */
    public record Level(int line, String name, int sl, int mtuLimit, int rateLimit, int packetLife,
                        List<Range> pathBits, List<Range> pkeys) {
        public Level {
            pathBits = List.copyOf(pathBits);
            pkeys = List.copyOf(pkeys);
        }
    }

    /** One qos-match-rule: what a query must match (empty: anything) and the qos-level it then gets. */
    public record MatchRule(int line, List<String> sources, List<String> destinations, List<Range> serviceIds,
                            List<Range> pkeys, List<Range> qosClasses, String level) {
        public MatchRule {
            sources = List.copyOf(sources);
            destinations = List.copyOf(destinations);
            serviceIds = List.copyOf(serviceIds);
            pkeys = List.copyOf(pkeys);
            qosClasses = List.copyOf(qosClasses);
        }
    }

    /** One {@code keyword: value} line of a block. */
    private record Entry(int line, String key, String value) {
    }

    /** One block ({@code port-group}, {@code qos-level}, ...), opened at {@code line}. */
    private record Block(int line, List<Entry> entries) {
    }

    public static QosPolicyFile read(Path path) {
        return parse(TextFiles.read(path), path.toString());
    }

    public static QosPolicyFile parse(String text, String file) {
        String[] lines = text.split("\n", -1);
        List<PortGroup> groups = new ArrayList<>();
        List<Level> levels = new ArrayList<>();
        List<MatchRule> rules = new ArrayList<>();
        List<UlpRule> ulps = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        List<Block> ruleBlocks = new ArrayList<>();
        for (int i = 0; i < lines.length; i++) {
            String l = strip(lines[i]);
            if (l.isEmpty()) {
                continue;
            }
            int at = i + 1;
            switch (l.toLowerCase(Locale.ROOT)) {
                case "qos-ulps" -> i = ulps(lines, i + 1, file, at, ulps);
                case "port-groups" -> {
                    List<Block> bs = new ArrayList<>();
                    i = blocks(lines, i + 1, file, at, "port-groups", "port-group", bs);
                    for (Block b : bs) {
                        groups.add(portGroup(b, file, groups));
                    }
                }
                case "qos-levels" -> {
                    List<Block> bs = new ArrayList<>();
                    i = blocks(lines, i + 1, file, at, "qos-levels", "qos-level", bs);
                    for (Block b : bs) {
                        levels.add(level(b, file, levels));
                    }
                }
                case "qos-match-rules" -> i = blocks(lines, i + 1, file, at, "qos-match-rules", "qos-match-rule",
                        ruleBlocks);
                case "qos-setup" -> {
                    warnings.add(file + ":" + at + ": qos-setup is ignored, as by OpenSM (the SL2VL and VL "
                            + "arbitration tables come from opensm.conf's qos_* options)");
                    i = end(lines, i + 1, file, at, "qos-setup");
                }
                default -> throw new FormatException(file, at, "expected a section (port-groups, qos-setup, "
                        + "qos-levels, qos-match-rules, qos-ulps), got '" + l + "'");
            }
        }
        // the rules name groups and levels defined anywhere in the file
        for (Block b : ruleBlocks) {
            rules.add(matchRule(b, file, groups, levels));
        }
        return new QosPolicyFile(file, groups, levels, rules, ulps, warnings);
    }

    /** The line index of {@code end-word}, from {@code i}. */
    private static int end(String[] lines, int i, String file, int at, String word) {
        for (; i < lines.length; i++) {
            if (strip(lines[i]).equalsIgnoreCase("end-" + word)) {
                return i;
            }
        }
        throw new FormatException(file, at, word + ": no end-" + word);
    }

    /** The {@code sub} blocks of section {@code section} from line index {@code i}; the index of its end line. */
    private static int blocks(String[] lines, int i, String file, int at, String section, String sub,
                              List<Block> out) {
        Block open = null;
        for (; i < lines.length; i++) {
            String l = strip(lines[i]);
            int n = i + 1;
            if (l.isEmpty()) {
                continue;
            }
            String low = l.toLowerCase(Locale.ROOT);
            if (open == null) {
                if (low.equals("end-" + section)) {
                    return i;
                }
                if (!low.equals(sub)) {
                    throw new FormatException(file, n, "expected " + sub + " or end-" + section + ", got '" + l
                            + "'");
                }
                open = new Block(n, new ArrayList<>());
                continue;
            }
            if (low.equals("end-" + sub)) {
                out.add(open);
                open = null;
                continue;
            }
            int colon = l.indexOf(':');
            if (colon < 0) {
                throw new FormatException(file, n, "expected 'keyword: value' or end-" + sub + ", got '" + l + "'");
            }
            String value = l.substring(colon + 1).strip();
            String key = l.substring(0, colon).strip().toLowerCase(Locale.ROOT);
            if (value.isEmpty()) {
                throw new FormatException(file, n, key + ": no value");
            }
            open.entries().add(new Entry(n, key, value));
        }
        throw new FormatException(file, open != null ? open.line() : at, open != null ? sub + ": no end-" + sub
                : section + ": no end-" + section);
    }

    private static PortGroup portGroup(Block b, String file, List<PortGroup> before) {
        String name = null;
        List<Range> guids = new ArrayList<>();
        List<PortName> names = new ArrayList<>();
        List<Range> pkeys = new ArrayList<>();
        List<String> partitions = new ArrayList<>();
        Set<NodeType> types = java.util.EnumSet.noneOf(NodeType.class);
        for (Entry e : b.entries()) {
            switch (e.key()) {
                case "name" -> name = name(e, file, before.stream().map(PortGroup::name).toList(), "port-group");
                case "use" -> {
                    // a description
                }
                case "port-guid" -> guids.addAll(ranges(e.value(), file, e.line(), e.key()));
                case "pkey" -> pkeys.addAll(pkeys(e, file));
                case "partition" -> partitions.addAll(list(e.value()));
                case "port-name" -> {
                    for (String pn : list(e.value())) {
                        int slash = pn.lastIndexOf("/P");
                        int port = -1;
                        try {
                            port = slash < 0 ? -1 : Integer.parseInt(pn.substring(slash + 2));
                        } catch (NumberFormatException x) {
                            port = -1;
                        }
                        if (slash <= 0 || port < 0 || port > 254) {
                            throw new FormatException(file, e.line(), "port-name '" + pn + "': not 'node "
                                    + "description/Pn'");
                        }
                        names.add(new PortName(pn.substring(0, slash), port));
                    }
                }
                case "node-type" -> {
                    for (String t : list(e.value())) {
                        NodeType nt = switch (t.toUpperCase(Locale.ROOT)) {
                            case "CA" -> NodeType.CA;
                            case "SWITCH" -> NodeType.SWITCH;
                            case "ROUTER" -> NodeType.ROUTER;
                            case "ALL" -> NodeType.ALL;
                            case "SELF" -> NodeType.SELF;
                            default -> throw new FormatException(file, e.line(), "node-type " + t
                                    + ": not CA, SWITCH, ROUTER, ALL or SELF");
                        };
                        types.add(nt);
                    }
                }
                default -> throw unknown(e, file, "port-group", "name, use, port-guid, port-name, pkey, partition, "
                        + "node-type");
            }
        }
        if (name == null) {
            throw new FormatException(file, b.line(), "port-group without a name");
        }
        return new PortGroup(b.line(), name, guids, names, pkeys, partitions, types);
    }

    private static Level level(Block b, String file, List<Level> before) {
        String name = null;
        int sl = -1;
        int mtu = -1;
        int rate = -1;
        int life = -1;
        List<Range> bits = new ArrayList<>();
        List<Range> pkeys = new ArrayList<>();
        for (Entry e : b.entries()) {
            switch (e.key()) {
                case "name" -> name = name(e, file, before.stream().map(Level::name).toList(), "qos-level");
                case "use" -> {
                    // a description
                }
                case "sl" -> sl = sl(e.value(), file, e.line());
                case "mtu-limit" -> mtu = bounded(e, file, 1, 5, "1 (256) .. 5 (4096)");
                case "rate-limit" -> rate = bounded(e, file, 2, 63, "an IBA rate code, 2 .. 63");
                case "packet-life" -> life = bounded(e, file, 0, 63, "0 .. 63");
                case "path-bits" -> {
                    for (Range r : ranges(e.value(), file, e.line(), e.key())) {
                        if (Long.compareUnsigned(r.to(), 127) > 0) {
                            throw new FormatException(file, e.line(), "path-bits " + e.value() + ": not 0 .. 127");
                        }
                        bits.add(r);
                    }
                }
                case "pkey" -> pkeys.addAll(pkeys(e, file));
                default -> throw unknown(e, file, "qos-level", "name, use, sl, mtu-limit, rate-limit, packet-life, "
                        + "path-bits, pkey");
            }
        }
        if (name == null) {
            throw new FormatException(file, b.line(), "qos-level without a name");
        }
        return new Level(b.line(), name, sl, mtu, rate, life, bits, pkeys);
    }

    private static MatchRule matchRule(Block b, String file, List<PortGroup> groups, List<Level> levels) {
        List<String> sources = new ArrayList<>();
        List<String> dests = new ArrayList<>();
        List<Range> sids = new ArrayList<>();
        List<Range> pkeys = new ArrayList<>();
        List<Range> classes = new ArrayList<>();
        String level = null;
        List<String> groupNames = groups.stream().map(PortGroup::name).toList();
        for (Entry e : b.entries()) {
            switch (e.key()) {
                case "use" -> {
                    // a description
                }
                case "source", "destination" -> {
                    for (String g : list(e.value())) {
                        if (!groupNames.contains(g)) {
                            throw new FormatException(file, e.line(), e.key() + ": port-group '" + g
                                    + "' is not defined");
                        }
                        (e.key().equals("source") ? sources : dests).add(g);
                    }
                }
                case "service-id" -> sids.addAll(ranges(e.value(), file, e.line(), e.key()));
                case "pkey" -> pkeys.addAll(pkeys(e, file));
                case "qos-class" -> {
                    for (Range r : ranges(e.value(), file, e.line(), e.key())) {
                        if (Long.compareUnsigned(r.to(), 0xfff) > 0) {
                            throw new FormatException(file, e.line(), "qos-class " + e.value() + ": not 0 .. 4095");
                        }
                        classes.add(r);
                    }
                }
                case "qos-level-name" -> {
                    level = unquote(e.value());
                    String l = level;
                    if (levels.stream().noneMatch(x -> x.name().equals(l))) {
                        throw new FormatException(file, e.line(), "qos-level-name: qos-level '" + level
                                + "' is not defined");
                    }
                }
                default -> throw unknown(e, file, "qos-match-rule", "use, source, destination, service-id, pkey, "
                        + "qos-class, qos-level-name");
            }
        }
        if (level == null) {
            throw new FormatException(file, b.line(), "qos-match-rule without a qos-level-name");
        }
        return new MatchRule(b.line(), sources, dests, sids, pkeys, classes, level);
    }

    private static FormatException unknown(Entry e, String file, String block, String known) {
        return new FormatException(file, e.line(), block + ": unknown keyword " + e.key() + " (" + known + ")");
    }

    /** A block's name, not one an earlier block of its kind has. */
    private static String name(Entry e, String file, List<String> before, String kind) {
        String n = unquote(e.value());
        if (before.contains(n)) {
            throw new FormatException(file, e.line(), kind + " '" + n + "' is defined twice");
        }
        return n;
    }

    private static int bounded(Entry e, String file, int min, int max, String what) {
        long v = number(e.value(), file, e.line(), e.key());
        if (v < min || v > max) {
            throw new FormatException(file, e.line(), e.key() + " " + e.value() + ": not " + what);
        }
        return (int) v;
    }

    private static List<Range> pkeys(Entry e, String file) {
        List<Range> out = ranges(e.value(), file, e.line(), e.key());
        for (Range r : out) {
            if (Long.compareUnsigned(r.to(), 0xffff) > 0) {
                throw new FormatException(file, e.line(), e.key() + " " + e.value() + ": not a 16-bit P_Key");
            }
        }
        return out;
    }

    /** A comma-separated list of names (quotes taken off). */
    private static List<String> list(String v) {
        List<String> out = new ArrayList<>();
        for (String p : v.split(",")) {
            String n = unquote(p.strip());
            if (!n.isEmpty()) {
                out.add(n);
            }
        }
        return out;
    }

    private static int ulps(String[] lines, int i, String file, int at, List<UlpRule> out) {
        for (; i < lines.length; i++) {
            String l = strip(lines[i]);
            int n = i + 1;
            if (l.isEmpty()) {
                continue;
            }
            if (l.equalsIgnoreCase("end-qos-ulps")) {
                return i;
            }
            int colon = l.lastIndexOf(':');
            if (colon < 0) {
                throw new FormatException(file, n, "expected 'ulp[, criterion values] : sl', got '" + l + "'");
            }
            int sl = sl(l.substring(colon + 1).strip(), file, n);
            String head = l.substring(0, colon).strip();
            int comma = head.indexOf(',');
            String name = (comma < 0 ? head : head.substring(0, comma)).strip().toLowerCase(Locale.ROOT);
            String rest = comma < 0 ? "" : head.substring(comma + 1).strip();
            Ulp ulp = switch (name) {
                case "default" -> Ulp.DEFAULT;
                case "any" -> Ulp.ANY;
                case "sdp" -> Ulp.SDP;
                case "rds" -> Ulp.RDS;
                case "iser" -> Ulp.ISER;
                case "srp" -> Ulp.SRP;
                case "ipoib" -> Ulp.IPOIB;
                default -> null;
            };
            if (ulp == null) {
                throw new FormatException(file, n, "unknown ULP " + name
                        + " (default, any, sdp, rds, iser, srp, ipoib)");
            }
            if (rest.isEmpty()) {
                if (ulp == Ulp.ANY || ulp == Ulp.SRP) {
                    throw new FormatException(file, n, name + ": a criterion is needed (" + (ulp == Ulp.SRP
                            ? "target-port-guid" : "service-id, pkey, target-port-guid, source-port-guid, port-guid")
                            + ")");
                }
                out.add(new UlpRule(n, ulp, Criterion.NONE, List.of(), sl));
                continue;
            }
            if (ulp == Ulp.DEFAULT) {
                throw new FormatException(file, n, "default takes no criterion, got '" + rest + "'");
            }
            String[] kv = rest.split("\\s+", 2);
            String key = kv[0].toLowerCase(Locale.ROOT);
            Criterion c = switch (key) {
                case "service-id" -> Criterion.SERVICE_ID;
                case "pkey" -> Criterion.PKEY;
                case "target-port-guid" -> Criterion.TARGET_PORT_GUID;
                case "source-port-guid" -> Criterion.SOURCE_PORT_GUID;
                case "port-guid" -> Criterion.PORT_GUID;
                case "port-num" -> Criterion.PORT_NUM;
                default -> null;
            };
            boolean fits = c != null && switch (ulp) {
                case ANY -> c != Criterion.PORT_NUM;
                case SDP, RDS, ISER -> c == Criterion.PORT_NUM;
                case SRP -> c == Criterion.TARGET_PORT_GUID;
                case IPOIB -> c == Criterion.PKEY;
                default -> false;
            };
            if (!fits) {
                throw new FormatException(file, n, c == null ? "unknown criterion " + key : name + " takes no "
                        + key);
            }
            if (kv.length < 2 || kv[1].isBlank()) {
                throw new FormatException(file, n, key + ": no value");
            }
            out.add(new UlpRule(n, ulp, c, ranges(kv[1], file, n, key), sl));
        }
        throw new FormatException(file, at, "qos-ulps: no end-qos-ulps");
    }

    private static int sl(String v, String file, int line) {
        long sl = number(v, file, line, "sl");
        if (sl < 0 || sl > 15) {
            throw new FormatException(file, line, "sl " + v + ": not 0..15");
        }
        return (int) sl;
    }

    private static List<Range> ranges(String text, String file, int line, String key) {
        List<Range> out = new ArrayList<>();
        for (String part : text.split(",")) {
            String p = part.strip();
            int dash = p.indexOf('-');
            long a = number(dash < 0 ? p : p.substring(0, dash).strip(), file, line, key);
            long b = dash < 0 ? a : number(p.substring(dash + 1).strip(), file, line, key);
            if (Long.compareUnsigned(a, b) > 0) {
                throw new FormatException(file, line, key + " " + p + ": the range runs backwards");
            }
            out.add(new Range(a, b));
        }
        return out;
    }

    private static long number(String v, String file, int line, String what) {
        boolean hex = v.regionMatches(true, 0, "0x", 0, 2);
        try {
            return Long.parseUnsignedLong(hex ? v.substring(2) : v, hex ? 16 : 10);
        } catch (NumberFormatException e) {
            throw new FormatException(file, line, what + " '" + v + "': not a number");
        }
    }

    private static String unquote(String v) {
        return v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"") ? v.substring(1, v.length() - 1) : v;
    }

    /** The line without its comment, trimmed. */
    private static String strip(String l) {
        int hash = l.indexOf('#');
        return (hash < 0 ? l : l.substring(0, hash)).strip();
    }
}
