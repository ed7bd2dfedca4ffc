package org.ibtwin.format.tools;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ibtwin.format.FormatException;
import org.ibtwin.model.NodeType;

/**
 * Readers for what the SM and SA say: sminfo's one line, saquery's NodeRecord and SMInfoRecord dumps and its
 * {@code -s} IsSM port list, and ibroute's forwarding table dump.
 */
public final class SmOutputs {
    /** An SM; state -1 and priority -1 when not printed (saquery -s lists only the ports). */
    public record Sm(long guid, int lid, int priority, int state, int line) {
    }

    /** A NodeRecord. */
    public record NodeRecord(int lid, NodeType type, int numPorts, long nodeGuid, long portGuid, int deviceId,
                             int vendorId, int portNum, String description, int line) {
    }

    /** What a saquery output held. */
    public record Saquery(List<NodeRecord> nodes, List<Sm> sms, boolean smList) {
    }

    /** ibroute: the switch (LID and GUID) and its table, index LID, -1 where unrouted. */
    public record Routes(int switchLid, long switchGuid, String description, int[] lft, int line) {
    }

    private static final Pattern SMINFO = Pattern.compile(
            "^sminfo: sm lid (\\d+) sm guid (0x[0-9a-fA-F]+), activity count (\\d+) priority (\\d+) state (\\d+)\\b.*$");

    private SmOutputs() {
    }

    public static Sm sminfo(String text, String file) {
        String[] lines = Text.lines(text);
        for (int i = 0; i < lines.length; i++) {
            Matcher m = SMINFO.matcher(lines[i].strip());
            if (m.matches()) {
                return new Sm(Text.guid(m.group(2), file, i + 1), Text.integer(m.group(1), file, i + 1, "sm lid"),
                        Text.integer(m.group(4), file, i + 1, "priority"), Text.integer(m.group(5), file, i + 1,
                                "state"), i + 1);
            }
            if (lines[i].startsWith("sminfo: sm lid")) {
                throw new FormatException(file, i + 1, "sminfo line not understood: " + lines[i].strip());
            }
        }
        throw new FormatException(file, 0, "no sminfo line");
    }

    private static final Pattern DOTS = Pattern.compile("^\\s+(\\w+)\\.+(.*?)\\s*$");

    public static Saquery saquery(String text, String file) {
        List<NodeRecord> nodes = new ArrayList<>();
        List<Sm> sms = new ArrayList<>();
        boolean smList = false;
        String list = "";
        String kind = null;
        java.util.Map<String, String> f = new java.util.HashMap<>();
        int start = 0;
        String[] lines = Text.lines(text);
        for (int i = 0; i <= lines.length; i++) {
            String l = i < lines.length ? lines[i] : "";
            boolean indented = !l.isEmpty() && Character.isWhitespace(l.charAt(0));
            if (indented) {
                Matcher m = DOTS.matcher(l);
                if (kind != null && m.matches()) {
                    f.putIfAbsent(m.group(1), m.group(2));
                }
                continue;
            }
            if (kind != null && !f.isEmpty()) {
                record(kind, list, f, file, start, nodes, sms);
            }
            f.clear();
            kind = null;
            if (l.equals("IsSM ports")) {
                list = "issm";
                smList = true;
            } else if (l.equals("IsSMdisabled ports")) {
                list = "disabled";
            } else if (l.endsWith("Record dump:")) {
                kind = l.substring(0, l.indexOf(' '));
                smList |= kind.equals("SMInfoRecord");
                start = i + 1;
            }
        }
        return new Saquery(nodes, sms, smList);
    }

    private static void record(String kind, String list, java.util.Map<String, String> f, String file, int line,
            List<NodeRecord> nodes, List<Sm> sms) {
        switch (kind) {
            case "NodeRecord" -> {
                String t = f.getOrDefault("node_type", "");
                NodeType type = t.startsWith("Switch") ? NodeType.SWITCH : t.startsWith("Router") ? NodeType.ROUTER
                        : NodeType.CA;
                nodes.add(new NodeRecord(num(f, "lid", file, line), type, num(f, "num_ports", file, line),
                        Text.guid(need(f, "node_guid", file, line), file, line),
                        Text.guid(need(f, "port_guid", file, line), file, line), num(f, "device_id", file, line),
                        num(f, "vendor_id", file, line), num(f, "port_num", file, line),
                        f.getOrDefault("NodeDescription", ""), line));
            }
            case "SMInfoRecord" -> sms.add(new Sm(Text.guid(need(f, "GUID", file, line), file, line),
                    num(f, "LID", file, line), num(f, "Priority", file, line), num(f, "SMState", file, line), line));
            case "PortInfoRecord" -> {
                if (list.equals("issm")) {
                    sms.add(new Sm(0, num(f, f.containsKey("base_lid") ? "base_lid" : "EndPortLid", file, line), -1, -1,
                            line));
                }
            }
            default -> { }
        }
    }

    private static String need(java.util.Map<String, String> f, String k, String file, int line) {
        String v = f.get(k);
        if (v == null) {
            throw new FormatException(file, line, "record without " + k);
        }
        return v;
    }

    private static int num(java.util.Map<String, String> f, String k, String file, int line) {
        return Text.integer(need(f, k, file, line), file, line, k);
    }

    /** ibroute's head ({@code [0x0-0x6]}, hex), or OpenSM's opensm-lfts.dump ({@code [0-6]}, decimal, 'desc'). */
    private static final Pattern ROUTE_HEAD = Pattern.compile(
            "^Unicast lids \\[(0x)?([0-9a-fA-F]+)-(0x)?([0-9a-fA-F]+)\\] of switch (.*?)guid (0x[0-9a-fA-F]+) "
                    + "\\((.*)\\):\\s*$");
    private static final Pattern ROUTE = Pattern.compile("^0x([0-9a-fA-F]+) (\\d+)\\b.*$");
    private static final Pattern LID_IN = Pattern.compile("Lid (\\d+)");

    /** ibroute outputs (one or several switches). */
    public static List<Routes> ibroute(String text, String file) {
        List<Routes> out = new ArrayList<>();
        String[] lines = Text.lines(text);
        RouteReader r = new RouteReader(file, out::add);
        for (String l : lines) {
            r.line(l);
        }
        r.end();
        return out;
    }

    /**
     * ibroute's dump read a line at a time, for dumps too large for one string (OpenSM's opensm-lfts.dump of a
     * 16,384-CA fabric passes 5 GB): {@link #line} each line in order, then {@link #end}; each switch's table goes
     * to the consumer as soon as it is complete.
     */
    public static final class RouteReader {
        private final String file;
        private final java.util.function.Consumer<Routes> sink;
        private int[] lft;
        private int lid;
        private long guid;
        private String desc;
        private int head;
        private int i;

        public RouteReader(String file, java.util.function.Consumer<Routes> sink) {
            this.file = file;
            this.sink = sink;
        }

        /** The number of the last line read (1 for the first). */
        public int lineNumber() {
            return i;
        }

        public void line(String l) {
            i++;
            Matcher h = l.startsWith("Unicast lids") ? ROUTE_HEAD.matcher(l) : null;
            if (h != null && h.matches()) {
                flush();
                int top;
                try {
                    top = Integer.parseInt(h.group(4), h.group(3) != null ? 16 : 10);
                } catch (NumberFormatException e) {
                    throw new FormatException(file, i, "LID range end \"" + h.group(4) + "\" is not a number");
                }
                if (top < 0 || top > 0xffff) {
                    throw new FormatException(file, i, "LID range end " + (h.group(3) != null ? h.group(3) : "")
                            + h.group(4) + " beyond 0xffff");
                }
                lft = new int[top + 1];
                java.util.Arrays.fill(lft, -1);
                Matcher lm = LID_IN.matcher(h.group(5));
                lid = lm.find() ? Text.ranged(lm.group(1), file, i, "LID", 0, 0xffff) : 0;
                guid = Text.guid(h.group(6), file, i);
                desc = h.group(7);
                if (h.group(3) == null && desc.length() >= 2 && desc.startsWith("'") && desc.endsWith("'")) {
                    desc = desc.substring(1, desc.length() - 1);
                }
                head = i;
                return;
            }
            if (lft == null || !l.startsWith("0x")) {
                return;
            }
            Matcher r = ROUTE.matcher(l);
            if (r.matches()) {
                long dlid = Text.number("0x" + r.group(1), file, i, "LID");
                if (dlid < 0 || dlid >= lft.length) {
                    throw new FormatException(file, i, "LID 0x" + r.group(1) + " beyond the range in the header");
                }
                lft[(int) dlid] = Text.integer(r.group(2), file, i, "port");
            }
        }

        /** After the last line: the last switch's table. */
        public void end() {
            flush();
        }

        private void flush() {
            if (lft != null) {
                sink.accept(new Routes(lid, guid, desc, lft, head));
                lft = null;
            }
        }
    }
}
