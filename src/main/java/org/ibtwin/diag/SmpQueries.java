package org.ibtwin.diag;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.Dumps;
import org.ibtwin.mad.PortId;
import org.ibtwin.mad.SmpAttributes;

/**
 * smpquery's operations: each makes the real tool's queries in the real tool's order and appends what it prints to
 * the output as it goes, so a failure half way leaves the same partial output before the error line. A failure is an
 * {@link OpFailure} carrying the tool's message ("node info query failed", "invalid port number", ...).
 *
 * <p>Two operations are ibtwin's own (no smpquery has them): {@link Op#LINEAR_FORWARDING} and
 * {@link Op#MULTICAST_FORWARDING} print forwarding table blocks in ibroute's style
 * ({@link Dumps#lftHeader}, {@link Dumps#mftHeader}).
 */
public final class SmpQueries {
    private static final int NODE_TYPE_SWITCH = 2;

    /** The operations, with smpquery's names and aliases (matched without regard to case). */
    public enum Op {
        NODE_INFO("NodeInfo", "NI", ""),
        NODE_DESC("NodeDesc", "ND", ""),
        PORT_INFO("PortInfo", "PI", " [<portnum>]"),
        SWITCH_INFO("SwitchInfo", "SI", ""),
        PKEY_TABLE("PKeyTable", "PKeys", " [<portnum>]"),
        SL2VL_TABLE("SL2VLTable", "SL2VL", " [<portnum>]"),
        VL_ARBITRATION("VLArbitration", "VLArb", " [<portnum>]"),
        GUID_INFO("GUIDInfo", "GI", ""),
        MLNX_EXT_PORT_INFO("MlnxExtPortInfo", "MEPI", " [<portnum>]"),
        LINEAR_FORWARDING("LinearForwarding", "LFT", " [<block>]"),
        MULTICAST_FORWARDING("MulticastForwarding", "MFT", " [<block>]");

        private final String toolName;
        private final String alias;
        private final String params;

        Op(String toolName, String alias, String params) {
            this.toolName = toolName;
            this.alias = alias;
            this.params = params;
        }

        public String toolName() {
            return toolName;
        }

        public String alias() {
            return alias;
        }

        /** The usage line smpquery prints for it: "  PortInfo (PI) &lt;addr&gt; [&lt;portnum&gt;]". */
        public String usage() {
            return "  " + toolName + " (" + alias + ") <addr>" + params;
        }

        /** The operation named {@code name} (name or alias, any case). */
        public static Optional<Op> match(String name) {
            for (Op op : values()) {
                if (op.toolName.equalsIgnoreCase(name) || op.alias.equalsIgnoreCase(name)) {
                    return Optional.of(op);
                }
            }
            return Optional.empty();
        }
    }

    private final MadQuery q;
    private final boolean showKeys;
    private final boolean extendedSpeeds;

    /**
     * @param showKeys       print the M_Key in PortInfo (-K)
     * @param extendedSpeeds set bit 31 of PortInfo's modifier, asking for the extended speeds (-x)
     */
    public SmpQueries(MadQuery q, boolean showKeys, boolean extendedSpeeds) {
        this.q = q;
        this.showKeys = showKeys;
        this.extendedSpeeds = extendedSpeeds;
    }

    /** Runs {@code op} at {@code dest} with its parameters, appending its output to {@code out}. */
    public void run(Op op, PortId dest, List<String> params, StringBuilder out) {
        int num = params.isEmpty() ? 0 : (int) Addresses.number(params.get(0));
        switch (op) {
            case NODE_INFO -> out.append(Dumps.nodeInfo(dest, get(dest, AttributeIds.NODE_INFO, 0,
                    "node info query failed"), 0));
            case NODE_DESC -> nodeDesc(dest, out);
            case PORT_INFO -> portInfo(dest, num, out);
            case SWITCH_INFO -> out.append(Dumps.switchInfo(dest, get(dest, AttributeIds.SWITCH_INFO, 0,
                    "switch info query failed"), 0));
            case PKEY_TABLE -> pkeys(dest, num, out);
            case SL2VL_TABLE -> sl2vl(dest, num, out);
            case VL_ARBITRATION -> vlArb(dest, num, out);
            case GUID_INFO -> guids(dest, out);
            case MLNX_EXT_PORT_INFO -> out.append(Dumps.mlnxExtPortInfo(dest, num,
                    get(dest, AttributeIds.MLNX_EXT_PORT_INFO, num, "Mellanox ext port info query failed"), 0));
            case LINEAR_FORWARDING -> lft(dest, params, out);
            case MULTICAST_FORWARDING -> mft(dest, params, out);
            default -> throw new IllegalStateException("unhandled " + op);
        }
    }

    private byte[] get(PortId dest, int attr, long mod, String failure) {
        try {
            return q.smpGet(dest, attr, mod & 0xffffffffL);
        } catch (QueryException e) {
            throw new OpFailure(failure, e);
        }
    }

    private void nodeDesc(PortId dest, StringBuilder out) {
        get(dest, AttributeIds.NODE_INFO, 0, "node info query failed");
        byte[] nd = get(dest, AttributeIds.NODE_DESC, 0, "node desc query failed");
        // what clean_nodedesc does: every byte up to the first NUL that is not printable ASCII becomes a space
        for (int i = 0; i < nd.length && nd[i] != 0; i++) {
            if (nd[i] < 0x20 || nd[i] > 0x7e) {
                nd[i] = ' ';
            }
        }
        out.append(Dumps.nodeDesc(nd, 0));
    }

    private void portInfo(PortId dest, int port, StringBuilder out) {
        long mod = port & 0xffffffffL;
        if (extendedSpeeds) {
            mod |= 1L << 31;
        }
        byte[] pi = get(dest, AttributeIds.PORT_INFO, mod, "port info query failed");
        out.append(Dumps.portInfo(dest, port, pi, 0, showKeys, false));
    }

    private void pkeys(PortId dest, int port, StringBuilder out) {
        byte[] ni = get(dest, AttributeIds.NODE_INFO, 0, "node info query failed");
        int type = (int) SmpAttributes.NODE_INFO.get(ni, 0, "NodeType");
        int ports = (int) SmpAttributes.NODE_INFO.get(ni, 0, "NumPorts");
        if (port > ports) {
            throw new OpFailure("invalid port number");
        }
        int cap;
        if (type == NODE_TYPE_SWITCH && port != 0) {
            byte[] si = get(dest, AttributeIds.SWITCH_INFO, 0, "switch info failed");
            cap = (int) SmpAttributes.SWITCH_INFO.get(si, 0, "PartEnforceCap");
        } else {
            cap = (int) SmpAttributes.NODE_INFO.get(ni, 0, "PartCap");
        }
        int nblocks = (cap + 31) / 32;
        List<byte[]> blocks = new ArrayList<>();
        for (int i = 0; i < nblocks; i++) {
            try {
                blocks.add(get(dest, AttributeIds.P_KEY_TABLE, i | ((long) port << 16), "pkey table query failed"));
            } catch (OpFailure f) {
                // the blocks before it were printed, four lines of eight P_Keys each
                out.append(firstLines(Dumps.pkeys(i * 32, blocks), i * 4));
                throw f;
            }
        }
        out.append(Dumps.pkeys(cap, blocks));
    }

    private void sl2vl(PortId dest, int port, StringBuilder out) {
        byte[] ni = get(dest, AttributeIds.NODE_INFO, 0, "node info query failed");
        int type = (int) SmpAttributes.NODE_INFO.get(ni, 0, "NodeType");
        int ports = (int) SmpAttributes.NODE_INFO.get(ni, 0, "NumPorts");
        if (port > ports) {
            throw new OpFailure("invalid port number");
        }
        out.append(Dumps.sl2vlHeader(dest));
        if (type != NODE_TYPE_SWITCH) {
            sl2vlRow(dest, 0, 0, out);
            return;
        }
        for (int in = 0; in <= ports; in++) {
            sl2vlRow(dest, in, port, out);
        }
    }

    private void sl2vlRow(PortId dest, int in, int outPort, StringBuilder out) {
        byte[] t = get(dest, AttributeIds.SL_TO_VL_TABLE, ((long) in << 8) | (outPort & 0xffffffffL),
                "slvl query failed");
        out.append(Dumps.sl2vlRow(in, outPort, t, 0));
    }

    private void vlArb(PortId dest, int port, StringBuilder out) {
        if (port == 0) {
            // port 0 is a switch's port 0, or the port the MAD arrives on
            byte[] ni = get(dest, AttributeIds.NODE_INFO, 0, "node info query failed");
            if (SmpAttributes.NODE_INFO.get(ni, 0, "NodeType") == NODE_TYPE_SWITCH) {
                byte[] si = get(dest, AttributeIds.SWITCH_INFO, 0, "switch info query failed");
                if (SmpAttributes.SWITCH_INFO.get(si, 0, "EnhancedPort0") == 0) {
                    out.append(Dumps.noVlArb(dest, 0));
                    return;
                }
            }
        }
        byte[] pi = get(dest, AttributeIds.PORT_INFO, port & 0xffffffffL, "port info query failed");
        int low = (int) SmpAttributes.PORT_INFO.get(pi, 0, "VLArbLowCap");
        int high = (int) SmpAttributes.PORT_INFO.get(pi, 0, "VLArbHighCap");
        out.append(Dumps.vlArbHeader(dest, port, low, high));
        if (low > 0) {
            vlArbTable(dest, port, "Low", 1, low, out);
        }
        if (high > 0) {
            vlArbTable(dest, port, "High", 3, high, out);
        }
    }

    private void vlArbTable(PortId dest, int port, String priority, int offset, int cap, StringBuilder out) {
        List<byte[]> blocks = new ArrayList<>();
        for (int b = 0; b < (cap > 32 ? 2 : 1); b++) {
            try {
                blocks.add(get(dest, AttributeIds.VL_ARB_TABLE, ((long) (offset + b) << 16) | (port & 0xffffffffL),
                        "vl arb query failed"));
            } catch (OpFailure f) {
                out.append(b == 0 ? "# " + priority + " priority VL Arbitration Table:"
                        : Dumps.vlArbTable(priority, 32, blocks));
                throw f;
            }
        }
        out.append(Dumps.vlArbTable(priority, cap, blocks));
    }

    private void guids(PortId dest, StringBuilder out) {
        byte[] pi = get(dest, AttributeIds.PORT_INFO, 0, "port info failed");
        int cap = (int) SmpAttributes.PORT_INFO.get(pi, 0, "GuidCap");
        int nblocks = (cap + 7) / 8;
        List<byte[]> blocks = new ArrayList<>();
        for (int i = 0; i < nblocks; i++) {
            try {
                blocks.add(get(dest, AttributeIds.GUID_INFO, i, "guid info query failed"));
            } catch (OpFailure f) {
                out.append(firstLines(Dumps.guids(i * 8, blocks), i * 4));
                throw f;
            }
        }
        out.append(Dumps.guids(cap, blocks));
    }

    // ---- ibtwin's own: forwarding table blocks

    private void lft(PortId dest, List<String> params, StringBuilder out) {
        requireSwitch(dest);
        byte[] si = get(dest, AttributeIds.SWITCH_INFO, 0, "switch info query failed");
        int cap = (int) SmpAttributes.SWITCH_INFO.get(si, 0, "LinearFdbCap");
        int top = (int) SmpAttributes.SWITCH_INFO.get(si, 0, "LinearFdbTop");
        if (cap == 0) {
            throw new OpFailure("no linear forwarding table (LinearFdbCap 0)");
        }
        int maxBlock = (cap - 1) / 64;
        int first;
        int last;
        if (params.isEmpty()) {
            first = 0;
            last = Math.min(top / 64, maxBlock);
        } else {
            long b = Addresses.number(params.get(0));
            if (b < 0 || b > maxBlock) {
                throw new OpFailure("invalid block number " + params.get(0) + " (LinearFdbCap " + cap
                        + ": blocks 0-" + maxBlock + ")");
            }
            first = (int) b;
            last = first;
        }
        out.append(Dumps.lftHeader(dest, first, last, cap, top));
        int n = 0;
        for (int b = first; b <= last; b++) {
            byte[] block = get(dest, AttributeIds.LINEAR_FWD_TABLE, b, "linear forwarding table query failed");
            String lines = Dumps.lftBlock(b, block, 0);
            n += (int) lines.chars().filter(c -> c == '\n').count();
            out.append(lines);
        }
        out.append(Dumps.lftTrailer(n));
    }

    private void mft(PortId dest, List<String> params, StringBuilder out) {
        int ports = requireSwitch(dest);
        byte[] si = get(dest, AttributeIds.SWITCH_INFO, 0, "switch info query failed");
        int cap = (int) SmpAttributes.SWITCH_INFO.get(si, 0, "McastFdbCap");
        int top = (int) SmpAttributes.SWITCH_INFO.get(si, 0, "MulticastFDBTop");
        if (cap == 0) {
            throw new OpFailure("no multicast forwarding table (McastFdbCap 0)");
        }
        int maxBlock = (cap - 1) / 32;
        int first;
        int last;
        if (params.isEmpty()) {
            first = 0;
            last = top >= Dumps.MCAST_LID_BASE ? Math.min((top - Dumps.MCAST_LID_BASE) / 32, maxBlock) : maxBlock;
        } else {
            long b = Addresses.number(params.get(0));
            if (b < 0 || b > maxBlock) {
                throw new OpFailure("invalid block number " + params.get(0) + " (McastFdbCap " + cap
                        + ": blocks 0-" + maxBlock + ")");
            }
            first = (int) b;
            last = first;
        }
        out.append(Dumps.mftHeader(dest, first, last, cap, top));
        int n = 0;
        for (int b = first; b <= last; b++) {
            List<byte[]> positions = new ArrayList<>();
            for (int pos = 0; pos <= ports / 16; pos++) {
                positions.add(get(dest, AttributeIds.MCAST_FWD_TABLE, ((long) pos << 28) | b,
                        "multicast forwarding table query failed"));
            }
            String lines = Dumps.mftBlock(b, positions);
            n += (int) lines.chars().filter(c -> c == '\n').count();
            out.append(lines);
        }
        out.append(Dumps.mftTrailer(n));
    }

    /** NodeInfo, failing unless {@code dest} is a switch: its number of ports. */
    private int requireSwitch(PortId dest) {
        byte[] ni = get(dest, AttributeIds.NODE_INFO, 0, "node info query failed");
        if (SmpAttributes.NODE_INFO.get(ni, 0, "NodeType") != NODE_TYPE_SWITCH) {
            throw new OpFailure("not a switch (forwarding tables are switches' only)");
        }
        return (int) SmpAttributes.NODE_INFO.get(ni, 0, "NumPorts");
    }

    private static String firstLines(String text, int lines) {
        int end = 0;
        for (int i = 0; i < lines; i++) {
            end = text.indexOf('\n', end) + 1;
            if (end == 0) {
                return text;
            }
        }
        return text.substring(0, end);
    }

    /** The usage lines of every operation, as smpquery lists them. */
    public static String usage() {
        StringBuilder sb = new StringBuilder();
        for (Op op : Op.values()) {
            sb.append(op.usage()).append('\n');
        }
        return sb.toString();
    }
}
