package org.ibtwin.diag;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.Field;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.PerfAttributes;

/**
 * ibqueryerrors' work on a scanned fabric (infiniband-diags 44): for every node, the PMA's ClassPortInfo, then
 * PortCounters (and PortCountersExtended where supported) of all ports at once (AllPortSelect) or port by port,
 * the error counters over their thresholds printed per port, the data counters with --data or alone with
 * --counters, and -k/-K resets; then the summary.
 */
public final class ErrorQuery {
    /** The error counters, in ibqueryerrors' order (PortXmitWait is checked after them). */
    public static final List<String> ERRORS = List.of("SymbolErrorCounter", "LinkErrorRecoveryCounter",
            "LinkDownedCounter", "PortRcvErrors", "PortRcvRemotePhysicalErrors", "PortRcvSwitchRelayErrors",
            "PortXmitDiscards", "PortXmitConstraintErrors", "PortRcvConstraintErrors", "LocalLinkIntegrityErrors",
            "ExcessiveBufferOverrunErrors", "VL15Dropped");
    /** The names a threshold file may set (libibmad's extended counter names). */
    public static final List<String> THRESHOLD_NAMES;
    /** The names -s may suppress (libibmad's PortCounters fields). */
    public static final List<String> COUNTER_NAMES = List.of("PortSelect", "CounterSelect", "SymbolErrorCounter",
            "LinkErrorRecoveryCounter", "LinkDownedCounter", "PortRcvErrors", "PortRcvRemotePhysicalErrors",
            "PortRcvSwitchRelayErrors", "PortXmitDiscards", "PortXmitConstraintErrors", "PortRcvConstraintErrors",
            "CounterSelect2", "LocalLinkIntegrityErrors", "ExcessiveBufferOverrunErrors", "VL15Dropped",
            "PortXmitData", "PortRcvData", "PortXmitPkts", "PortRcvPkts", "PortXmitWait");

    static {
        List<String> t = new ArrayList<>(ERRORS);
        t.add("PortXmitWait");
        THRESHOLD_NAMES = List.copyOf(t);
    }

    private static final int ALL_PORTS = 0xff;
    private static final int CAP_ALL_PORT_SELECT = 0x100;
    private static final int CAP_EXT_WIDTH = 0x200;
    private static final int CAP_EXT_WIDTH_NOIETF = 0x400;
    private static final int CAP_XMIT_WAIT = 0x1000;
    private static final int CAP2_ADDL_EXT = 0x2;

    /** What the options ask for. */
    public record Options(boolean switches, boolean cas, boolean routers, boolean data, boolean countersOnly,
                          boolean details, boolean clearErrors, boolean clearCounts, List<String> suppressed,
                          Map<String, Long> thresholds, String thresholdText) {
        boolean prints(int type) {
            if (!switches && !cas && !routers) {
                return true;
            }
            return (type == NetNode.SWITCH && switches) || (type == NetNode.CA && cas)
                    || (type == NetNode.ROUTER && routers);
        }
    }

    /** One port with counters over their thresholds (port -1: all ports of the node at once). */
    public record Finding(String node, String guid, int port, Map<String, Long> counters) {
    }

    private final List<Finding> findings = new ArrayList<>();
    private final MadQuery q;
    private final Options opt;
    private final Consumer<String> warn;
    private final Consumer<String> stderr;
    private int nodesChecked;
    private int badNodes;
    private int portsChecked;
    private int badPorts;
    private int pmaFailures;

    /**
     * @param warn   IBWARN lines ("function: text")
     * @param stderr other stderr lines
     */
    public ErrorQuery(MadQuery q, Options opt, Consumer<String> warn, Consumer<String> stderr) {
        this.q = q;
        this.opt = opt;
        this.warn = warn;
        this.stderr = stderr;
    }

    /** Reads a threshold file's lines: "Name=value", # comments; the names it sets and the summary's text. */
    public static Map<String, Long> thresholds(List<String> lines, StringBuilder text) {
        Map<String, Long> t = new HashMap<>();
        text.append("Thresholds: ");
        for (String line : lines) {
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int eq = line.indexOf('=');
            String name = eq < 0 ? line : line.substring(0, eq);
            String val = eq < 0 ? "" : line.substring(eq + 1);
            long v = Addresses.unsigned(val);
            if (THRESHOLD_NAMES.contains(name)) {
                t.put(name, v);
                text.append('[').append(name).append(" = ").append(Long.toUnsignedString(v)).append(']');
            }
        }
        return t;
    }

    /** One node, as print_node does it. */
    public void node(NetNode node, String name, StringBuilder out) {
        if (!opt.prints(node.type())) {
            return;
        }
        boolean isSwitch = node.type() == NetNode.SWITCH;
        int start = isSwitch && node.enhancedPort0() ? 0 : 1;
        int lid = 0;
        int p = 0;
        if (isSwitch) {
            lid = node.smaLid();
        } else {
            for (p = 1; p <= node.numPorts(); p++) {
                if (node.port(p) != null) {
                    lid = node.port(p).baseLid();
                    break;
                }
            }
        }
        int capMask = 0;
        int capMask2 = 0;
        boolean allPorts = false;
        try {
            byte[] cpi = q.pmaClassPortInfo(lid, p);
            capMask = (int) PerfAttributes.CLASS_PORT_INFO.get(cpi, 0, "CapabilityMask");
            capMask2 = (int) PerfAttributes.CLASS_PORT_INFO.get(cpi, 0, "CapabilityMask2");
            allPorts = (capMask & CAP_ALL_PORT_SELECT) != 0;
        } catch (QueryException e) {
            queryWarning(e);
            warn.accept("query_cap_mask: classportinfo query failed on " + name + ", Lid " + lid + " port " + p);
            pmaFailures++;
        }
        boolean[] header = {false};
        int portLid = lid;
        if (opt.countersOnly()) {
            for (p = start; p <= node.numPorts(); p++) {
                if (node.port(p) != null) {
                    portLid = isSwitch ? node.smaLid() : node.port(p).baseLid();
                    dataCounters(node, name, portLid, p, capMask, header, out);
                    portsChecked++;
                    if (!allPorts) {
                        clear(portLid, p, capMask, capMask2, name);
                    }
                }
            }
        } else {
            boolean skip = false;
            if (allPorts && !errors(node, name, portLid, ALL_PORTS, capMask, capMask2, header, out)) {
                portsChecked += node.numPorts();
                skip = true;
            }
            for (p = start; !skip && p <= node.numPorts(); p++) {
                if (node.port(p) != null) {
                    portLid = isSwitch ? node.smaLid() : node.port(p).baseLid();
                    errors(node, name, portLid, p, capMask, capMask2, header, out);
                    portsChecked++;
                    if (!allPorts) {
                        clear(portLid, p, capMask, capMask2, name);
                    }
                }
            }
        }
        nodesChecked++;
        if (allPorts) {
            clear(portLid, ALL_PORTS, capMask, capMask2, name);
        }
    }

    /** The ports printed so far, for --json. */
    public List<Finding> findings() {
        return List.copyOf(findings);
    }

    /** The summary's numbers, for --json. */
    public Map<String, Integer> totals() {
        Map<String, Integer> m = new java.util.LinkedHashMap<>();
        m.put("nodesChecked", nodesChecked);
        m.put("badNodes", badNodes);
        m.put("portsChecked", portsChecked);
        m.put("badPorts", badPorts);
        m.put("pmaQueryFailures", pmaFailures);
        return m;
    }

    /** The summary lines; returns the number of ports with errors. */
    public int summary(StringBuilder out, String thresholdText) {
        out.append("\n## Summary: ").append(nodesChecked).append(" nodes checked, ").append(badNodes)
                .append(" bad nodes found\n");
        out.append("##          ").append(portsChecked).append(" ports checked, ").append(badPorts)
                .append(" ports have errors beyond threshold\n");
        out.append("## ").append(thresholdText == null ? "(null)" : thresholdText).append('\n');
        if (pmaFailures > 0) {
            out.append("##          ").append(pmaFailures).append(" PMA query failures\n");
        }
        out.append("## Suppressed:");
        for (String s : opt.suppressed()) {
            out.append(' ').append(s);
        }
        out.append('\n');
        return badPorts;
    }

    private void queryWarning(QueryException e) {
        if (e.alwaysWarned()) {
            warn.accept(e.warning());
        }
    }

    private boolean suppressed(String field) {
        return opt.suppressed().contains(field);
    }

    /** print_errors and print_results: whether anything was printed for the port. */
    private boolean errors(NetNode node, String name, int lid, int port, int capMask, int capMask2,
            boolean[] header, StringBuilder out) {
        byte[] pc;
        try {
            pc = q.pmaGet(lid, AttributeIds.PORT_COUNTERS, port);
        } catch (QueryException e) {
            queryWarning(e);
            warn.accept("print_errors: IB_GSI_PORT_COUNTERS query failed on " + name + ", Lid " + lid + " port "
                    + port);
            pmaFailures++;
            return false;
        }
        byte[] pce = null;
        if ((capMask & (CAP_EXT_WIDTH | CAP_EXT_WIDTH_NOIETF)) != 0) {
            try {
                pce = q.pmaGet(lid, AttributeIds.PORT_COUNTERS_EXTENDED, port);
            } catch (QueryException e) {
                queryWarning(e);
                warn.accept("print_errors: IB_GSI_PORT_COUNTERS_EXT query failed on " + name + ", Lid " + lid
                        + " port " + port);
                pmaFailures++;
                return false;
            }
        }
        if ((capMask & CAP_XMIT_WAIT) == 0) {
            PerfAttributes.PORT_COUNTERS.set(pc, 0, "PortXmitWait", 0);
        }
        boolean ext = (capMask2 & CAP2_ADDL_EXT) != 0 && pce != null;
        StringBuilder s = new StringBuilder();
        for (String f : ERRORS) {
            if (suppressed(f)) {
                continue;
            }
            if (over(pc, pce, ext, f, s)) {
                if (f.equals("PortXmitDiscards") && opt.details()) {
                    details(name, lid, port, "PortXmitDiscardDetails", AttributeIds.PORT_XMIT_DISCARD_DETAILS,
                            PerfAttributes.PORT_RCV_ERROR_DETAILS, s);
                } else if (f.equals("PortRcvErrors") && opt.details()) {
                    details(name, lid, port, "PortRcvErrorDetails", AttributeIds.PORT_RCV_ERROR_DETAILS,
                            PerfAttributes.PORT_XMIT_DISCARD_DETAILS, s);
                }
            }
        }
        if (!suppressed("PortXmitWait")) {
            over(pc, pce, ext, "PortXmitWait", s);
        }
        if (s.isEmpty()) {
            return false;
        }
        if (opt.data()) {
            byte[] pkt = pce != null ? pce : pc;
            Layout l = pce != null ? PerfAttributes.PORT_COUNTERS_EXTENDED : PerfAttributes.PORT_COUNTERS;
            for (String f : dataFields(pce != null, capMask)) {
                long v = l.get(pkt, 0, f);
                if (v != 0) {
                    s.append(String.format(Locale.ROOT, " [%s == %s (%s)]", f, Long.toUnsignedString(v),
                            human(v, isData(f))));
                }
            }
        }
        Map<String, Long> values = new java.util.LinkedHashMap<>();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\[(\\w+) == (\\d+)").matcher(s);
        while (m.find()) {
            values.put(m.group(1), Long.parseUnsignedLong(m.group(2)));
        }
        findings.add(new Finding(name, String.format("0x%016x", node.guid()), port == ALL_PORTS ? -1 : port, values));
        boolean isSwitch = node.type() == NetNode.SWITCH;
        if (!header[0]) {
            out.append(isSwitch ? String.format("Errors for 0x%x \"%s\"%n", portGuid(node, 0), name)
                    : "Errors for \"" + name + "\"\n");
            header[0] = true;
            badNodes++;
        }
        if (port == ALL_PORTS) {
            if (isSwitch) {
                out.append(String.format("   GUID 0x%x port ALL:%s%n", portGuid(node, 0), s));
            }
        } else {
            out.append(String.format("   GUID 0x%x port %d:%s%n", portGuid(node, port), port, s));
            badPorts++;
        }
        return true;
    }

    private static long portGuid(NetNode node, int port) {
        NetPort p = node.port(port);
        return p != null ? p.guid() : node.portGuid();
    }

    /** check_threshold: the counter's line part when it is over its threshold. */
    private boolean over(byte[] pc, byte[] pce, boolean ext, String f, StringBuilder s) {
        long thres = opt.thresholds().getOrDefault(f, 0L);
        if (ext) {
            long v = PerfAttributes.PORT_COUNTERS_EXTENDED.get(pce, 0, f);
            if (Long.compareUnsigned(v, thres) > 0) {
                s.append(String.format(Locale.ROOT, " [%s == %s (%s)]", f, Long.toUnsignedString(v),
                        human(v, false)));
                return true;
            }
            return false;
        }
        long v = PerfAttributes.PORT_COUNTERS.get(pc, 0, f);
        if (Long.compareUnsigned(v, thres) > 0) {
            s.append(" [").append(f).append(" == ").append(v).append(']');
            return true;
        }
        return false;
    }

    /**
     * ibqueryerrors' query_and_dump: the details attribute's non-zero counters, decoded with the field positions
     * of {@code fields} (ibqueryerrors reads each details attribute with the other one's fields).
     */
    private void details(String name, int lid, int port, String attrName, int attrId, Layout fields,
            StringBuilder s) {
        byte[] d;
        try {
            d = q.pmaGet(lid, attrId, port);
        } catch (QueryException e) {
            queryWarning(e);
            warn.accept("query_and_dump: " + attrName + " query failed on " + name + ", Lid " + lid + " port "
                    + port);
            pmaFailures++;
            return;
        }
        for (Field f : fields.fields()) {
            if (f.name().equals("PortSelect") || f.name().equals("CounterSelect")) {
                continue;
            }
            long v = fields.get(d, 0, f) & 0xffffffffL;
            if (v != 0) {
                s.append(" [").append(f.name()).append(" == ").append(v).append(']');
            }
        }
    }

    private static List<String> dataFields(boolean ext, int capMask) {
        if (!ext) {
            return List.of("PortXmitData", "PortRcvData", "PortXmitPkts", "PortRcvPkts");
        }
        if ((capMask & CAP_EXT_WIDTH) != 0) {
            return List.of("PortXmitData", "PortRcvData", "PortXmitPkts", "PortRcvPkts", "PortUnicastXmitPkts",
                    "PortUnicastRcvPkts", "PortMulticastXmitPkts", "PortMulticastRcvPkts");
        }
        return List.of("PortXmitData", "PortRcvData", "PortXmitPkts", "PortRcvPkts");
    }

    private static boolean isData(String f) {
        return f.equals("PortXmitData") || f.equals("PortRcvData");
    }

    /** print_data_cnts: every data counter of the port (--counters). */
    private void dataCounters(NetNode node, String name, int lid, int port, int capMask, boolean[] header,
            StringBuilder out) {
        boolean ext = (capMask & (CAP_EXT_WIDTH | CAP_EXT_WIDTH_NOIETF)) != 0;
        byte[] pc;
        try {
            pc = q.pmaGet(lid, ext ? AttributeIds.PORT_COUNTERS_EXTENDED : AttributeIds.PORT_COUNTERS, port);
        } catch (QueryException e) {
            queryWarning(e);
            warn.accept("print_data_cnts: " + (ext ? "IB_GSI_PORT_COUNTERS_EXT" : "IB_GSI_PORT_COUNTERS")
                    + " query failed on " + name + ", Lid " + lid + " port " + port);
            pmaFailures++;
            return;
        }
        if (!header[0]) {
            out.append(String.format("Data Counters for 0x%x \"%s\"%n", node.guid(), name));
            header[0] = true;
        }
        out.append(port == ALL_PORTS ? String.format("   GUID 0x%x port ALL:", node.guid())
                : String.format("   GUID 0x%x port %d:", node.guid(), port));
        Layout l = ext ? PerfAttributes.PORT_COUNTERS_EXTENDED : PerfAttributes.PORT_COUNTERS;
        for (String f : dataFields(ext, capMask)) {
            long v = l.get(pc, 0, f);
            out.append(String.format(Locale.ROOT, " [%s == %s (%s)]", f, Long.toUnsignedString(v),
                    human(v, isData(f))));
        }
        out.append('\n');
    }

    /** clear_port: -k and -K resets, PortCounters and PortCountersExtended. */
    private void clear(int lid, int port, int capMask, int capMask2, String name) {
        int mask = 0;
        if (opt.clearErrors()) {
            mask |= 0xfff;
            if ((capMask & CAP_XMIT_WAIT) != 0) {
                mask |= 0x10000;
            }
        }
        if (opt.clearCounts()) {
            mask |= 0xf000;
        }
        if (mask != 0 && !reset(lid, port, AttributeIds.PORT_COUNTERS, mask)) {
            stderr.accept("Failed to reset errors " + name + " port " + port);
        }
        if (opt.clearErrors() && opt.details()) {
            reset(lid, port, AttributeIds.PORT_XMIT_DISCARD_DETAILS, 0xf);
            reset(lid, port, AttributeIds.PORT_RCV_ERROR_DETAILS, 0x3f);
        }
        if ((capMask & (CAP_EXT_WIDTH | CAP_EXT_WIDTH_NOIETF)) != 0) {
            long m = 0;
            if (opt.clearCounts()) {
                m = (capMask & CAP_EXT_WIDTH) != 0 ? 0xff : 0x0f;
            }
            if (opt.clearErrors() && (capMask2 & CAP2_ADDL_EXT) != 0) {
                m |= 0xfff0000L;
                if ((capMask & CAP_XMIT_WAIT) != 0) {
                    m |= 1L << 28;
                }
            }
            if (m != 0) {
                byte[] data = new byte[PerfAttributes.PORT_COUNTERS_EXTENDED.size()];
                Layout l = PerfAttributes.PORT_COUNTERS_EXTENDED;
                l.set(data, 0, "PortSelect", port);
                l.set(data, 0, "CounterSelect", m & 0xffff);
                l.set(data, 0, "CounterSelect2", (m >>> 16) & 0xffffffffL);
                try {
                    q.pmaSet(lid, AttributeIds.PORT_COUNTERS_EXTENDED, data);
                } catch (QueryException e) {
                    queryWarning(e);
                    stderr.accept("Failed to reset extended data counters " + name + ", Lid " + lid + " port "
                            + port);
                }
            }
        }
    }

    /** libibmad's performance_reset_via: a Set with PortSelect and the CounterSelect mask. */
    private boolean reset(int lid, int port, int attrId, int mask) {
        Layout l = switch (attrId) {
            case AttributeIds.PORT_COUNTERS -> PerfAttributes.PORT_COUNTERS;
            case AttributeIds.PORT_XMIT_DISCARD_DETAILS -> PerfAttributes.PORT_XMIT_DISCARD_DETAILS;
            default -> PerfAttributes.PORT_RCV_ERROR_DETAILS;
        };
        byte[] data = new byte[l.size()];
        l.set(data, 0, "PortSelect", port);
        l.set(data, 0, "CounterSelect", mask & 0xffff);
        if (attrId == AttributeIds.PORT_COUNTERS) {
            l.set(data, 0, "CounterSelect2", (mask >>> 16) & 0xff);
        }
        try {
            q.pmaSet(lid, attrId, data);
            return true;
        } catch (QueryException e) {
            queryWarning(e);
            return false;
        }
    }

    /**
     * conv_cnt_human_readable: the value scaled by 1024s with its unit ("2.113K", data counters counted in
     * 4-byte words: "608.625KB"), as "%5.3f" of a C float prints it.
     */
    public static String human(long v64, boolean data) {
        long tmp = Long.divideUnsigned(v64, 1024);
        int ui = 0;
        double div = 1;
        while (tmp != 0) {
            ui++;
            tmp = Long.divideUnsigned(tmp, 1024);
            div *= 1024;
        }
        float val = (float) (v64 < 0 ? (double) (v64 >>> 1) * 2.0 : (double) v64);
        if (data) {
            val *= 4;
            if (val / div > 1024) {
                ui++;
                div *= 1024;
            }
        }
        val = (float) (val / div);
        String[] units = data ? new String[] {"B", "KB", "MB", "GB", "TB", "PB", "EB"}
                : new String[] {"", "K", "M", "G", "T", "P", "E"};
        return String.format(Locale.ROOT, "%5.3f", (double) val) + (ui < units.length ? units[ui] : "");
    }
}
