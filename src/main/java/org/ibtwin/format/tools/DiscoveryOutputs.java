package org.ibtwin.format.tools;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ibtwin.format.FormatException;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.LinkWidth;
import org.ibtwin.model.NodeType;
import org.ibtwin.model.PhysState;
import org.ibtwin.model.PortState;

/**
 * Readers for the port-per-line discovery outputs: iblinkinfo (its default tree form, and -l line form) and
 * ibnetdiscover -p. ibnetdiscover's topology form is {@link org.ibtwin.format.TopologyReader}'s.
 */
public final class DiscoveryOutputs {
    private static final Pattern HEADER = Pattern.compile("^(Switch|CA|Router): (?:(0x[0-9a-fA-F]+) )?(.*):\\s*$");
    private static final Pattern LINK = Pattern.compile(
            "^\\s*(?:(0x[0-9a-fA-F]+)\\s+(?:\"(.*)\"\\s+)?)?(\\d+)\\s+(\\d+)\\[\\s*(\\w*)\\]\\s+==\\((.*?)\\)"
                    + "(?: \\(HOQ:\\d+ VL_Stall:\\d+\\))?==>\\s*(.*)$");
    private static final Pattern UP = Pattern.compile("^\\s*(\\d+X)\\s+(.+?)\\s+(\\S+)/\\s*(\\S+)\\s*$");
    private static final Pattern DOWN = Pattern.compile("^\\s*(\\S+)/\\s*(\\S+)\\s*$");
    private static final Pattern REMOTE = Pattern.compile(
            "^(?:(0x[0-9a-fA-F]+)\\s+)?(\\d+)\\s+(\\d+)\\[\\s*(\\w*)\\]\\s+\"(.*)\"\\s+\\((.*)\\)\\s*$");
    private static final Pattern COULD_W = Pattern.compile("Could be (\\d+X)");
    private static final Pattern COULD_S = Pattern.compile("Could be ([0-9.]+ Gbps(?: \\(FDR10\\))?)");
    private static final Pattern P_LINE = Pattern.compile(
            "^(SW|CA|RT)\\s+(\\d+)\\s+(\\d+)\\s+0x([0-9a-fA-F]+)\\s+(\\d+x|\\?\\?)\\s+(\\S+)"
                    + "(?:\\s+-\\s+(SW|CA|RT)\\s+(\\d+)\\s+(\\d+)\\s+0x([0-9a-fA-F]+)\\s+\\(\\s*'(.*)'\\s+-\\s+'(.*)'\\s*\\))?"
                    + "(?:\\s+'(.*)')?\\s*$");

    private DiscoveryOutputs() {
    }

    /** iblinkinfo output: one record per port line. */
    public static List<PortLine> iblinkinfo(String text, String file) {
        List<PortLine> out = new ArrayList<>();
        String[] lines = Text.lines(text);
        NodeType type = null;
        String key = null;
        Long nodeGuid = null;
        String desc = null;
        for (int i = 0; i < lines.length; i++) {
            String l = lines[i];
            int no = i + 1;
            if (l.isBlank() || l.startsWith("ibwarn") || l.startsWith("#")) {
                continue;
            }
            Matcher h = HEADER.matcher(l);
            if (h.matches() && !l.contains("==(")) {
                type = type(h.group(1));
                nodeGuid = h.group(2) == null ? null : Text.guid(h.group(2), file, no);
                desc = h.group(3);
                key = nodeGuid != null ? String.format("0x%016x", nodeGuid) : "CA@" + no;
                continue;
            }
            Matcher m = LINK.matcher(l);
            if (!m.matches()) {
                if (l.contains("==(")) {
                    throw new FormatException(file, no, "iblinkinfo port line not understood: "
                            + abbreviate(l.strip()));
                }
                continue;       // a line some other version adds: not ours to judge
            }
            Long portGuid = m.group(1) == null ? null : Text.guid(m.group(1), file, no);
            NodeType t = type;
            String k = key;
            Long ng = nodeGuid;
            String d = desc;
            if (m.group(2) != null) {      // -l: every line says who it is
                d = m.group(2).strip();
                k = String.format("0x%016x", portGuid);
                t = null;
                ng = null;
            } else if (type == null) {
                throw new FormatException(file, no, "iblinkinfo port line before any Switch: or CA: header");
            }
            int lid = Text.ranged(m.group(3), file, no, "lid", 0, 0xffff);
            int port = Text.ranged(m.group(4), file, no, "port", 0, 255);
            String link = m.group(6);
            LinkWidth w = null;
            LinkSpeed s = null;
            PortState st;
            PhysState ps;
            Matcher up = UP.matcher(link);
            if (up.matches()) {
                w = Text.width(up.group(1));
                s = Text.speedOfGbps(up.group(2));
                st = Text.portState(up.group(3));
                ps = Text.physState(up.group(4));
            } else {
                Matcher dn = DOWN.matcher(link);
                if (!dn.matches()) {
                    throw new FormatException(file, no, "link state \"(" + link.strip() + ")\" not understood");
                }
                st = Text.portState(dn.group(1));
                ps = Text.physState(dn.group(2));
            }
            String rest = m.group(7).strip();
            Long rguid = null;
            int rlid = -1;
            int rport = -1;
            String rdesc = null;
            LinkWidth cw = null;
            LinkSpeed cs = null;
            Matcher r = REMOTE.matcher(rest);
            if (r.matches() && !r.group(3).isEmpty() && !rest.startsWith("[")) {
                rguid = r.group(1) == null ? null : Text.guid(r.group(1), file, no);
                rlid = Text.ranged(r.group(2), file, no, "remote lid", 0, 0xffff);
                rport = Text.ranged(r.group(3), file, no, "remote port", 0, 255);
                rdesc = r.group(5);
                Matcher cwm = COULD_W.matcher(r.group(6));
                if (cwm.find()) {
                    cw = Text.width(cwm.group(1));
                }
                Matcher csm = COULD_S.matcher(r.group(6));
                if (csm.find()) {
                    cs = Text.speedOfGbps(csm.group(1));
                }
            }
            out.add(new PortLine(t, k, ng, t == NodeType.SWITCH ? ng : portGuid, d, lid, port, w, s, st, ps, null,
                    rguid, rlid, rport, rdesc, cw, cs, no));
        }
        return out;
    }

    /** ibnetdiscover -p output: one record per port line. */
    public static List<PortLine> ports(String text, String file) {
        List<PortLine> out = new ArrayList<>();
        String[] lines = Text.lines(text);
        for (int i = 0; i < lines.length; i++) {
            String l = lines[i];
            int no = i + 1;
            if (l.isBlank() || l.startsWith("ibwarn") || l.startsWith("#")) {
                continue;
            }
            Matcher m = P_LINE.matcher(l);
            if (!m.matches()) {
                if (l.matches("^(SW|CA|RT)\\s.*")) {
                    throw new FormatException(file, no, "ibnetdiscover -p line not understood: " + abbreviate(l));
                }
                continue;
            }
            NodeType t = type(m.group(1));
            long guid = Text.guid(m.group(4), file, no);
            boolean connected = m.group(7) != null;
            LinkWidth w = m.group(5).equals("??") ? null : Text.width(m.group(5));
            LinkSpeed s = LinkSpeed.parse(m.group(6));
            String desc = connected ? m.group(11) : m.group(13);
            String key = String.format("0x%016x", guid);
            out.add(new PortLine(t, key, t == NodeType.SWITCH ? (Long) guid : null, guid, desc,
                    Text.ranged(m.group(2), file, no, "lid", 0, 0xffff), Text.ranged(m.group(3), file, no, "port",
                    0, 255),
                    connected ? w : null, connected ? s : null, null,
                    connected ? PhysState.LINK_UP : null,
                    connected ? type(m.group(7)) : null, connected ? (Long) Text.guid(m.group(10), file, no) : null,
                    connected ? Text.ranged(m.group(8), file, no, "remote lid", 0, 0xffff) : -1,
                    connected ? Text.ranged(m.group(9), file, no, "remote port", 0, 255) : -1,
                    connected ? m.group(12) : null, null, null, no));
        }
        return out;
    }

    private static NodeType type(String s) {
        return switch (s) {
            case "Switch", "SW" -> NodeType.SWITCH;
            case "CA" -> NodeType.CA;
            default -> NodeType.ROUTER;
        };
    }

    static String abbreviate(String s) {
        return s.length() > 60 ? s.substring(0, 57) + "..." : s;
    }
}
