package org.ibtwin.format;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.ibtwin.model.NodeType;
import org.ibtwin.model.Partitions;

/**
 * OpenSM's partitions.conf: statements {@code Name[=PKey][,flag[=value]]... : member[=full|limited|both], ... ;}
 * that may span lines, {@code #} comments, several statements on a line. Members are port GUIDs or ALL, ALL_CAS,
 * ALL_SWITCHES, ALL_ROUTERS, SELF (the SM's own port) and NONE; {@code mgid=...} entries define multicast groups
 * and are skipped. A member without a membership gets the partition's {@code defmember} (limited unless said).
 *
 * <p>Memberships follow OpenSM: with a partitions file, every port starts as a limited member of the Default
 * partition (0x7fff) and the SM's port as a full one; each statement then adds its members in order, a later
 * mention of a port overwriting an earlier one in the same partition ({@code both} counts as full, as without
 * allow_both_pkeys). A partition without a P_Key gets one OpenSM picks; here it is keyed by name, and
 * {@link #pkeys()} numbers it as OpenSM does. A P_Key whose partition number is 0 ({@code 0x8000}, {@code 0}) is,
 * as OpenSM reads it, no P_Key: the partition gets a generated one, with a warning. A second partition with the
 * P_Key of an earlier one is merged into it, as OpenSM does, with a warning. The IPoIB flags {@code mtu}, {@code rate}
 * and {@code sl} must be valid IBA codes.
 */
public final class PartitionsConf {
    /** The Default partition's P_Key. */
    public static final int DEFAULT_PKEY = 0x7fff;

    public enum Membership { FULL, LIMITED }

    /**
     * One member entry.
     *
     * @param name ALL, ALL_CAS, ALL_SWITCHES, ALL_ROUTERS or SELF, or null for a port GUID
     * @param guid the port GUID (0 for the named sets)
     */
    public record Member(String name, long guid, Membership membership, int line) {
        /** "ALL=full", "0x0002c90300000003=limited". */
        public String label() {
            return (name != null ? name : String.format("0x%016x", guid)) + "=" + membership.name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * One partition statement.
     *
     * @param pkey the 15-bit P_Key, or -1 when the file leaves it to OpenSM
     */
    public record Partition(String name, int pkey, Map<String, String> flags, List<Member> members, int line) {
        /** The key memberships are kept under: the P_Key, or the name when OpenSM picks the P_Key. */
        public String key() {
            return pkey >= 0 ? String.format("0x%04x", pkey) : name;
        }
    }

    private static final Pattern STATEMENT = Pattern.compile(
            "(?m)^\\s*[A-Za-z0-9_.\\-]+\\s*(=\\s*(0[xX])?[0-9a-fA-F]+)?\\s*(,[^:;\\n]*)?:[^;]*;");

    /** A partition header at the start of a line: {@code Name[=PKey][,flags] :}, as a missing ';' leaves it. */
    private static final Pattern HEADER = Pattern.compile(
            "^\\s*([A-Za-z0-9_.\\-]+)\\s*(=\\s*(0[xX])?[0-9a-fA-F]+)?\\s*(,[^:;]*)?:");

    private final String file;
    private final List<Partition> partitions;
    private final List<String> warnings;

    private PartitionsConf(String file, List<Partition> partitions, List<String> warnings) {
        this.file = file;
        this.partitions = List.copyOf(partitions);
        this.warnings = List.copyOf(warnings);
    }

    /** What the file does that OpenSM accepts but an admin should hear of, one line each ({@code file:line: ...}). */
    public List<String> warnings() {
        return warnings;
    }

    public String file() {
        return file;
    }

    public List<Partition> partitions() {
        return partitions;
    }

    /**
     * Whether a text looks like a partitions.conf: a statement head {@code Name[=PKey][,flags] :} at the start of a
     * line (comments left out) with a {@code ;} somewhere after it, as {@link #STATEMENT} says, but in one pass: a
     * regular expression over the whole text backtracks over every line of a long "key: value" file that has no
     * {@code ;}, quadratic in its length.
     */
    public static boolean looksLike(String text) {
        StringBuilder sb = new StringBuilder(text.length() + 1);
        for (String line : text.split("\n", -1)) {
            int h = line.indexOf('#');
            sb.append(h < 0 ? line : line.substring(0, h)).append('\n');
        }
        int lastSemicolon = sb.lastIndexOf(";");
        for (int start = 0; start < lastSemicolon; start = sb.indexOf("\n", start) + 1) {
            int colon = statementHead(sb, start);
            if (colon >= 0 && colon < lastSemicolon) {
                return true;
            }
        }
        return false;
    }

    /**
     * Where the ':' of a statement head starting at {@code i} is, or -1: white space, a name of
     * {@code [A-Za-z0-9_.-]}, optionally {@code =} and a (0x) hexadecimal P_Key, optionally {@code ,} and flags up
     * to the end of the line, then {@code :}; white space between the parts. A line of white space only is no head
     * (the next line's head, reached through it, is tried on its own).
     */
    private static int statementHead(CharSequence s, int i) {
        int n = s.length();
        while (i < n && s.charAt(i) != '\n' && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        int name = i;
        while (i < n && nameChar(s.charAt(i))) {
            i++;
        }
        if (i == name) {
            return -1;
        }
        i = skipSpace(s, i);
        if (i < n && s.charAt(i) == '=') {
            i = skipSpace(s, i + 1);
            if (i + 2 < n && s.charAt(i) == '0' && (s.charAt(i + 1) == 'x' || s.charAt(i + 1) == 'X')
                    && Character.digit(s.charAt(i + 2), 16) >= 0) {
                i += 2;
            }
            int digits = i;
            while (i < n && Character.digit(s.charAt(i), 16) >= 0 && s.charAt(i) < 0x80) {
                i++;
            }
            if (i == digits) {
                return -1;
            }
            i = skipSpace(s, i);
        }
        if (i < n && s.charAt(i) == ',') {
            i++;
            while (i < n && s.charAt(i) != ':' && s.charAt(i) != ';' && s.charAt(i) != '\n') {
                i++;
            }
        }
        return i < n && s.charAt(i) == ':' ? i : -1;
    }

    private static boolean nameChar(char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.'
                || c == '-';
    }

    private static int skipSpace(CharSequence s, int i) {
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        return i;
    }

    public static PartitionsConf read(Path path) {
        try {
            return parse(Files.readString(path, StandardCharsets.UTF_8), path.toString());
        } catch (NoSuchFileException e) {
            throw new FormatException(path.toString(), 0, "no such file");
        } catch (java.nio.charset.MalformedInputException e) {
            throw new FormatException(path.toString(), 0, "not a text file (invalid UTF-8)");
        } catch (IOException e) {
            if (Files.isDirectory(path)) {
                throw new FormatException(path.toString(), 0, "is a directory, not a partitions file");
            }
            throw new FormatException(path.toString(), 0, "cannot read: " + e.getMessage());
        }
    }

    public static PartitionsConf parse(String text, String file) {
        StringBuilder all = new StringBuilder(text.length());
        List<Integer> lineStarts = new ArrayList<>();
        for (String l : text.split("\n", -1)) {
            lineStarts.add(all.length());
            int hash = l.indexOf('#');
            all.append(hash < 0 ? l : l.substring(0, hash)).append('\n');
        }
        List<Partition> out = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        int from = 0;
        while (from < all.length()) {
            int semi = all.indexOf(";", from);
            String seg = all.substring(from, semi < 0 ? all.length() : semi);
            if (!seg.isBlank()) {
                int first = from;
                while (Character.isWhitespace(all.charAt(first))) {
                    first++;
                }
                if (semi < 0) {
                    throw new FormatException(file, lineAt(lineStarts, first),
                            "partition statement without a closing ';'");
                }
                out.add(statement(seg, from, file, lineStarts, warnings));
            }
            if (semi < 0) {
                break;
            }
            from = semi + 1;
        }
        Map<Integer, Partition> byPkey = new LinkedHashMap<>();
        for (Partition p : out) {
            if (p.pkey() < 0) {
                continue;
            }
            Partition first = byPkey.putIfAbsent(p.pkey(), p);
            if (first != null && !first.name().equals(p.name())) {
                warnings.add(file + ":" + p.line() + ": partition \"" + p.name() + "\" has P_Key "
                        + String.format("0x%04x", p.pkey()) + " of partition \"" + first.name() + "\" (line "
                        + first.line() + "); as OpenSM, its members join that partition");
            }
        }
        return new PartitionsConf(file, out, warnings);
    }

    private static int lineAt(List<Integer> lineStarts, int offset) {
        int lo = 0;
        int hi = lineStarts.size() - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (lineStarts.get(mid) <= offset) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo + 1;
    }

    private static Partition statement(String s, int base, String file, List<Integer> lineStarts,
                                       List<String> warnings) {
        int lead = 0;
        while (Character.isWhitespace(s.charAt(lead))) {
            lead++;
        }
        int line = lineAt(lineStarts, base + lead);
        int colon = s.indexOf(':');
        if (colon < 0) {
            throw new FormatException(file, line, "no partition definition found (expected Name=PKey : members ;)");
        }
        String[] head = s.substring(0, colon).split(",");
        String nameId = head[0].strip();
        String name = nameId;
        int pkey = -1;
        int eq = nameId.indexOf('=');
        if (eq >= 0) {
            name = nameId.substring(0, eq).strip();
            String id = nameId.substring(eq + 1).strip();
            try {
                pkey = (int) (id.startsWith("0x") || id.startsWith("0X") ? Long.parseLong(id.substring(2), 16)
                        : Long.parseLong(id));
            } catch (NumberFormatException e) {
                throw new FormatException(file, line, "P_Key \"" + id + "\" of partition \"" + name
                        + "\" is not a number");
            }
            if (pkey < 0 || pkey > 0xffff) {
                throw new FormatException(file, line, "P_Key " + id + " of partition \"" + name
                        + "\" is outside 0x0000..0xffff");
            }
            pkey &= Partitions.DEFAULT;
            if (pkey == 0) {
                // OpenSM masks the membership bit off and finds no partition number: it generates one
                warnings.add(file + ":" + line + ": P_Key " + id + " of partition \"" + name + "\" has partition "
                        + "number 0, which is no P_Key; as OpenSM, it gets a generated one");
                pkey = -1;
            }
        }
        if (name.isEmpty()) {
            throw new FormatException(file, line, "partition without a name");
        }
        if (pkey < 0 && name.equals("Default")) {
            pkey = DEFAULT_PKEY;
        }
        Map<String, String> flags = new LinkedHashMap<>();
        Membership def = Membership.LIMITED;
        for (int i = 1; i < head.length; i++) {
            String f = head[i].strip();
            if (f.isEmpty()) {
                throw new FormatException(file, line, "bad partition flags: empty flag in \"" + name + "\"");
            }
            int e = f.indexOf('=');
            String k = (e < 0 ? f : f.substring(0, e)).strip();
            String v = e < 0 ? "" : f.substring(e + 1).strip();
            flags.put(k, v);
            checkFlag(k, v, name, file, line);
            if (k.equals("defmember")) {
                def = membership(v);
                if (def == null) {
                    throw new FormatException(file, line, "defmember \"" + v + "\" is not limited, full or both");
                }
            }
        }
        String body = s.substring(colon + 1);
        missingSemicolon(body, base + colon + 1, name, line, file, lineStarts);
        List<Member> members = new ArrayList<>();
        int offset = colon + 1;
        int mgidLine = -1;
        for (String whole : body.split(",", -1)) {
            String tok = whole;
            int at = offset;
            offset += whole.length() + 1;
            if (mgidLine >= 0 && lineAt(lineStarts, base + at) == mgidLine) {
                int nl = whole.indexOf('\n');  // a multicast group's flags, on its line; the next line goes on
                if (nl < 0) {
                    continue;
                }
                tok = whole.substring(nl + 1);
                at += nl + 1;
            }
            String t = tok.strip();
            int tokLine = lineAt(lineStarts, base + at + (t.isEmpty() ? 0 : tok.indexOf(t)));
            if (t.isEmpty()) {
                continue;
            }
            int e = t.indexOf('=');
            String who = (e < 0 ? t : t.substring(0, e)).strip();
            String how = e < 0 ? null : t.substring(e + 1).strip();
            if (who.equals("mgid")) {
                mgidLine = tokLine; // a multicast group definition takes the rest of its line, as OpenSM reads it
                continue;
            }
            if (who.equals("NONE")) {
                continue;
            }
            Membership m = def;
            if (how != null) {
                m = membership(how);
                if (m == null) {
                    throw new FormatException(file, tokLine, "membership \"" + how + "\" of " + who
                            + " is not full, limited or both");
                }
            }
            switch (who) {
                case "ALL", "ALL_CAS", "ALL_SWITCHES", "ALL_ROUTERS", "SELF" -> members.add(new Member(who, 0, m,
                        tokLine));
                default -> {
                    long g;
                    try {
                        g = who.startsWith("0x") || who.startsWith("0X") ? Long.parseUnsignedLong(who.substring(2), 16)
                                : Long.parseUnsignedLong(who);
                    } catch (NumberFormatException ex) {
                        g = 0;
                    }
                    if (g == 0) {
                        throw new FormatException(file, tokLine, "bad PortGUID \"" + TopologyReader.abbreviate(who)
                                + "\" in partition \"" + name + "\"");
                    }
                    members.add(new Member(null, g, m, tokLine));
                }
            }
        }
        return new Partition(name, pkey, flags, members, line);
    }

    /** A flag's value, where ibtwin uses it: mtu, rate and sl must be IBA codes (OpenSM would program nonsense). */
    private static void checkFlag(String k, String v, String name, String file, int line) {
        int lo;
        int hi;
        String what;
        switch (k) {
            case "mtu" -> {
                lo = 1;
                hi = 5;
                what = "an MTU code 1..5 (256..4096 bytes)";
            }
            case "rate" -> {
                lo = 2;
                hi = 24;
                what = "an IBA rate code 2..24";
            }
            case "sl" -> {
                lo = 0;
                hi = 15;
                what = "a service level 0..15";
            }
            default -> {
                return;
            }
        }
        long n;
        try {
            n = v.startsWith("0x") || v.startsWith("0X") ? Long.parseLong(v.substring(2), 16) : Long.parseLong(v);
        } catch (NumberFormatException e) {
            n = -1;
        }
        if (n < lo || n > hi) {
            throw new FormatException(file, line, k + "=" + TopologyReader.abbreviate(v) + " of partition \"" + name
                    + "\" is not " + what);
        }
    }

    /**
     * A member list that runs into the next partition's header on a later line: the statement before it lacks its
     * ';'. Said once, at the statement's line (an mgid entry, whose value has colons, is not a header).
     */
    private static void missingSemicolon(String body, int at, String name, int line, String file,
                                         List<Integer> lineStarts) {
        int nl = body.indexOf('\n');
        while (nl >= 0) {
            int end = body.indexOf('\n', nl + 1);
            String next = body.substring(nl + 1, end < 0 ? body.length() : end);
            java.util.regex.Matcher m = HEADER.matcher(next);
            if (m.find() && !m.group(1).equals("mgid")) {
                throw new FormatException(file, line, "partition \"" + name + "\" has no closing ';' before the "
                        + "next partition at line " + lineAt(lineStarts, at + nl + 1));
            }
            nl = end;
        }
    }

    /**
     * A membership word as OpenSM reads it: any leading part of "full", "both" (full, without allow_both_pkeys) or
     * "limited" ("limi" is limited); null for anything else.
     */
    private static Membership membership(String word) {
        String w = word.toLowerCase(Locale.ROOT);
        if (w.isEmpty()) {
            return null;
        }
        if ("full".startsWith(w) || "both".startsWith(w)) {
            return Membership.FULL;
        }
        return "limited".startsWith(w) ? Membership.LIMITED : null;
    }

    /**
     * The P_Key of each partition key ({@link Partition#key()}; "0x7fff" first): a partition the file numbers keeps
     * its number; one it does not gets, as OpenSM generates it, the next number counting from 1 that no partition
     * defined so far has, in file order. A partition left without a number (all are taken) is not in the map.
     */
    public Map<String, Integer> pkeys() {
        Map<String, Integer> keys = new LinkedHashMap<>();
        keys.put(String.format("0x%04x", DEFAULT_PKEY), DEFAULT_PKEY);
        int counter = 0;
        for (Partition p : partitions) {
            if (p.pkey() >= 0) {
                keys.putIfAbsent(p.key(), p.pkey());
                continue;
            }
            if (keys.containsKey(p.key())) {
                continue;                       // a second statement of a partition named so: the same P_Key
            }
            while (++counter < DEFAULT_PKEY && keys.containsValue(counter)) {
                continue;
            }
            if (counter >= DEFAULT_PKEY) {
                continue;
            }
            keys.put(p.key(), counter);
        }
        return Collections.unmodifiableMap(keys);
    }

    /**
     * The P_Key table OpenSM would program on a port: Default first, then the port's other partitions in file
     * order, each with the full-member bit for a full member.
     *
     * @param smPortGuid the SM's port GUID (SELF), 0 when not known
     */
    public int[] table(long portGuid, NodeType type, long smPortGuid) {
        return table(memberships(portGuid, type, smPortGuid), pkeys());
    }

    /** The table of a port with these memberships, numbered by {@code keys} (from {@link #pkeys()}). */
    public static int[] table(Map<String, Membership> memberships, Map<String, Integer> keys) {
        List<Integer> out = new ArrayList<>();
        for (Map.Entry<String, Integer> k : keys.entrySet()) {
            Membership how = memberships.get(k.getKey());
            if (how != null) {
                out.add(k.getValue() | (how == Membership.FULL ? Partitions.FULL : 0));
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * The partitions a port is in and how, by {@link Partition#key()}, Default included: what OpenSM would put
     * in the port's P_Key table.
     *
     * @param smPortGuid the SM's port GUID (SELF), 0 when not known
     */
    public Map<String, Membership> memberships(long portGuid, NodeType type, long smPortGuid) {
        Map<String, Membership> m = new LinkedHashMap<>();
        String def = String.format("0x%04x", DEFAULT_PKEY);
        m.put(def, portGuid == smPortGuid && smPortGuid != 0 ? Membership.FULL : Membership.LIMITED);
        for (Partition p : partitions) {
            for (Member mem : p.members()) {
                if (matches(mem, portGuid, type, smPortGuid)) {
                    m.put(p.key(), mem.membership());
                }
            }
        }
        return Collections.unmodifiableMap(m);
    }

    /**
     * The Default partition's entries that leave the SM's own port a limited member of it (no port then reaches the
     * SA), in file order; empty when the SM's port ends up a full member.
     *
     * @param smPortGuid the SM's port GUID; one no port has (when not known) matches only SELF
     */
    public List<Member> lockout(long smPortGuid, NodeType type) {
        String def = String.format("0x%04x", DEFAULT_PKEY);
        if (memberships(smPortGuid, type, smPortGuid).get(def) != Membership.LIMITED) {
            return List.of();
        }
        return entriesFor(def, smPortGuid, type, smPortGuid);
    }

    /** The member entries of partition {@code key} that name this port, in order (for evidence). */
    public List<Member> entriesFor(String key, long portGuid, NodeType type, long smPortGuid) {
        List<Member> out = new ArrayList<>();
        for (Partition p : partitions) {
            if (p.key().equals(key)) {
                for (Member mem : p.members()) {
                    if (matches(mem, portGuid, type, smPortGuid)) {
                        out.add(mem);
                    }
                }
            }
        }
        return out;
    }

    private static boolean matches(Member mem, long portGuid, NodeType type, long smPortGuid) {
        if (mem.name() == null) {
            return mem.guid() == portGuid;
        }
        return switch (mem.name()) {
            case "ALL" -> true;
            case "ALL_CAS" -> type == NodeType.CA;
            case "ALL_SWITCHES" -> type == NodeType.SWITCH;
            case "ALL_ROUTERS" -> type == NodeType.ROUTER;
            case "SELF" -> smPortGuid != 0 && portGuid == smPortGuid;
            default -> false;
        };
    }
}
