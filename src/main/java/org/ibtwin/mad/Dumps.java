package org.ibtwin.mad;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The text {@code smpquery}, {@code perfquery} and {@code sminfo} (infiniband-diags 44) print for an attribute:
 * their header lines ("# Node info: Lid 3", "# Port counters: Lid 3 port 1 (CapMask: 0x1200)") around the
 * layout's dump, and the tables they format themselves (P_Keys, GUIDs, SL2VL, VL arbitration). Each method returns
 * the tool's output for one query, newline-terminated.
 *
 * <p>{@code data, off}: the attribute's bytes start at {@code data[off]} (64 in a whole SMP or PerfMgt MAD).
 */
public final class Dumps {
    private static final String NOT_DISPLAYED = "<not displayed>";

    private Dumps() {
    }

    /** {@code smpquery nodeinfo}. */
    public static String nodeInfo(PortId dest, byte[] data, int off) {
        return "# Node info: " + dest + "\n" + SmpAttributes.NODE_INFO.dump(data, off);
    }

    /**
     * {@code smpquery nodedesc}: "Node Description:" and dots, as many as 32 less the description's length (one
     * when it is 32 or longer), then the description up to its first NUL.
     */
    public static String nodeDesc(byte[] data, int off) {
        Layout l = SmpAttributes.NODE_DESCRIPTION;
        byte[] raw = l.getBytes(data, off, "NodeDesc");
        byte[] s = Printer.cString(raw, 0, raw.length);
        String dots = s.length < 32 ? ".".repeat(32 - s.length) : ".";
        return "Node Description:" + dots + new String(s, StandardCharsets.UTF_8) + "\n";
    }

    /** {@code smpquery portinfo <dest> <port>}: M_Key hidden, no XDR fields, as infiniband-diags 44 prints it. */
    public static String portInfo(PortId dest, int port, byte[] data, int off) {
        return portInfo(dest, port, data, off, false, false);
    }

    /**
     * {@code smpquery portinfo}: with {@code showKeys} the M_Key is printed (infiniband-diags' --show_keys), else
     * "&lt;not displayed&gt;"; with {@code xdr} the three LinkSpeedExt*2 lines follow, as rdma-core 50 and later
     * print them.
     */
    public static String portInfo(PortId dest, int port, byte[] data, int off, boolean showKeys, boolean xdr) {
        Layout l = SmpAttributes.PORT_INFO;
        StringBuilder sb = new StringBuilder("# Port info: ").append(dest).append(" port ").append(port)
                .append('\n');
        for (Field f : l.dumpFields()) {
            if (f.name().equals("Mkey") && !showKeys) {
                sb.append(Layout.line(f.name(), NOT_DISPLAYED));
            } else {
                sb.append(l.dumpLine(f, data, off));
            }
            sb.append('\n');
        }
        if (xdr) {
            for (String name : List.of("LinkSpeedExtActive2", "LinkSpeedExtSupported2", "LinkSpeedExtEnabled2")) {
                sb.append(l.dumpLine(l.field(name), data, off)).append('\n');
            }
        }
        return sb.toString();
    }

    /** {@code smpquery switchinfo}. */
    public static String switchInfo(PortId dest, byte[] data, int off) {
        return "# Switch info: " + dest + "\n" + SmpAttributes.SWITCH_INFO.dump(data, off);
    }

    /** {@code smpquery mlnxextportinfo}. */
    public static String mlnxExtPortInfo(PortId dest, int port, byte[] data, int off) {
        return "# MLNX ext Port info: " + dest + " port " + port + "\n"
                + SmpAttributes.MLNX_EXT_PORT_INFO.dump(data, off);
    }

    /**
     * {@code smpquery pkeys}: eight P_Keys a line for as many lines as {@code capacity} needs (PartitionCap, or the
     * switch's PartitionEnforcementCap for an external port), then "N pkeys capacity for this port".
     *
     * @param blocks the P_KeyTable blocks 0, 1, ... (each 64 bytes at offset 0); at least (capacity + 31) / 32
     */
    public static String pkeys(int capacity, List<byte[]> blocks) {
        Layout l = SmpAttributes.P_KEY_TABLE;
        int nblocks = (capacity + 31) / 32;
        needBlocks(l, nblocks, blocks);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < nblocks; i++) {
            byte[] b = blocks.get(i);
            int k = i + 1 == nblocks ? ((capacity + 7 - i * 32) / 8) * 8 : 32;
            for (int j = 0; j < k; j += 8) {
                sb.append(String.format("%4d:", i * 32 + j));
                for (int e = j; e < j + 8; e++) {
                    sb.append(" 0x").append(Printer.hex(l.get(b, 0, l.fields().get(e)), 4));
                }
                sb.append('\n');
            }
        }
        return sb.append(capacity).append(" pkeys capacity for this port\n").toString();
    }

    /**
     * {@code smpquery guidinfo}: two GUIDs a line for as many as PortInfo:GuidCap says, then "N guids capacity for
     * this port".
     *
     * @param blocks the GUIDInfo blocks 0, 1, ... (64 bytes each at offset 0); at least (capacity + 7) / 8
     */
    public static String guids(int capacity, List<byte[]> blocks) {
        Layout l = SmpAttributes.GUID_INFO;
        int nblocks = (capacity + 7) / 8;
        needBlocks(l, nblocks, blocks);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < nblocks; i++) {
            byte[] b = blocks.get(i);
            int k = i + 1 == nblocks ? ((capacity + 1 - i * 8) / 2) * 2 : 8;
            for (int j = 0; j < k; j += 2) {
                sb.append(String.format("%4d: 0x%s 0x%s\n", i * 8 + j,
                        Printer.hex(l.get(b, 0, l.fields().get(j)), 16),
                        Printer.hex(l.get(b, 0, l.fields().get(j + 1)), 16)));
            }
        }
        return sb.append(capacity).append(" guids capacity for this port\n").toString();
    }

    /** {@code smpquery sl2vl}'s two header lines. */
    public static String sl2vlHeader(PortId dest) {
        StringBuilder sb = new StringBuilder("# SL2VL table: ").append(dest).append("\n#                 SL: |");
        for (int i = 0; i < 16; i++) {
            sb.append(String.format("%2d|", i));
        }
        return sb.append('\n').toString();
    }

    /**
     * One {@code smpquery sl2vl} row: the SLtoVLMappingTable for input port {@code in}, output port {@code out}
     * (a CA's only row is in 0, out 0; a switch has one per input port).
     */
    public static String sl2vlRow(int in, int out, byte[] data, int off) {
        Layout l = SmpAttributes.SL_TO_VL_TABLE;
        StringBuilder sb = new StringBuilder(String.format("ports: in %2d, out %2d: |", in, out));
        for (Field f : l.fields()) {
            sb.append(String.format("%2d|", l.get(data, off, f)));
        }
        return sb.append('\n').toString();
    }

    /** {@code smpquery vlarb}'s header line (LowCap and HighCap are PortInfo's VLArbLowCap and VLArbHighCap). */
    public static String vlArbHeader(PortId dest, int port, int lowCap, int highCap) {
        return "# VLArbitration tables: " + dest + " port " + port + " LowCap " + lowCap + " HighCap " + highCap
                + "\n";
    }

    /** What {@code smpquery vlarb} prints for port 0 of a switch with base port 0. */
    public static String noVlArb(PortId dest, int port) {
        return "# No VLArbitration tables (BSP0): " + dest + " port " + port + "\n";
    }

    /**
     * One {@code smpquery vlarb} table: {@code priority} "Low" or "High", {@code cap} entries (the port's cap),
     * from one block or, past 32 entries, two.
     */
    public static String vlArbTable(String priority, int cap, List<byte[]> blocks) {
        Layout l = SmpAttributes.VL_ARB_TABLE;
        needBlocks(l, cap > 32 ? 2 : 1, blocks);
        StringBuilder sb = new StringBuilder("# ").append(priority).append(" priority VL Arbitration Table:");
        vlArbBlock(sb, l, blocks.get(0), Math.min(cap, 32));
        if (cap > 32) {
            vlArbBlock(sb, l, blocks.get(1), cap - 32);
        }
        return sb.toString();
    }

    private static void vlArbBlock(StringBuilder sb, Layout l, byte[] b, int n) {
        sb.append("\nVL    : |");
        for (int i = 0; i < n; i++) {
            sb.append(String.format("0x%-2X|", l.get(b, 0, "Entry" + i + "VL")));
        }
        sb.append("\nWEIGHT: |");
        for (int i = 0; i < n; i++) {
            sb.append(String.format("0x%-2X|", l.get(b, 0, "Entry" + i + "Weight")));
        }
        sb.append('\n');
    }

    /** {@code sminfo}: "sminfo: sm lid 3 sm guid 0x200000, activity count 103 priority 0 state 3 SMINFO_MASTER". */
    public static String smInfo(int lid, byte[] data, int off) {
        Layout l = SmpAttributes.SM_INFO;
        int state = (int) l.get(data, off, "SmState");
        String[] names = {"SMINFO_NOTACT", "SMINFO_DISCOVER", "SMINFO_STANDBY", "SMINFO_MASTER"};
        return "sminfo: sm lid " + lid + " sm guid 0x" + Long.toHexString(l.get(data, off, "SmInfoGuid"))
                + ", activity count " + l.get(data, off, "SmActivity") + " priority "
                + l.get(data, off, "SmPriority") + " state " + state + " "
                + (state < names.length ? names[state] : "???") + "\n";
    }

    /**
     * {@code perfquery <dest> <port>}: {@code capMask} is the PMA's ClassPortInfo:CapabilityMask. Without its
     * PortXmitWait bit perfquery prints PortXmitWait as 0, and so does this.
     */
    public static String portCounters(PortId dest, int port, int capMask, byte[] data, int off) {
        Layout l = PerfAttributes.PORT_COUNTERS;
        byte[] pc = l.copy(data, off);
        if ((capMask & PerfAttributes.CAP_PORT_XMIT_WAIT) == 0) {
            l.set(pc, 0, "PortXmitWait", 0);
        }
        return String.format("# Port counters: %s port %d (CapMask: 0x%02X)\n", dest, port, capMask)
                + l.dump(pc, 0);
    }

    /**
     * {@code perfquery -x <dest> <port>}: the unicast/multicast counters only when {@code capMask} has
     * ExtendedWidth support (bit 9), the 64-bit error counters only when {@code capMask2} (ClassPortInfo's
     * 27-bit CapabilityMask2) has bit 1.
     */
    public static String portCountersExtended(PortId dest, int port, int capMask, int capMask2, byte[] data,
            int off) {
        Layout l = PerfAttributes.PORT_COUNTERS_EXTENDED;
        StringBuilder sb = new StringBuilder(String.format(
                "# Port extended counters: %s port %d (CapMask: 0x%02X CapMask2: 0x%07X)\n", dest, port, capMask,
                capMask2));
        List<Field> fields = l.dumpFields();
        int base = fields.indexOf(l.field("PortUnicastXmitPkts"));
        int err = fields.indexOf(l.field("CounterSelect2"));
        for (int i = 0; i < fields.size(); i++) {
            boolean show = i < base
                    || i < err && (capMask & PerfAttributes.CAP_EXT_WIDTH_SUPPORTED) != 0
                    || i >= err && (capMask2 & PerfAttributes.CAP2_ADDL_PORT_COUNTERS_EXT) != 0;
            if (show) {
                sb.append(l.dumpLine(fields.get(i), data, off)).append('\n');
            }
        }
        return sb.toString();
    }

    /** {@code perfquery -E}. */
    public static String portRcvErrorDetails(PortId dest, int port, byte[] data, int off) {
        return "# PortRcvErrorDetails counters: " + dest + " port " + port + "\n"
                + PerfAttributes.PORT_RCV_ERROR_DETAILS.dump(data, off);
    }

    /** {@code perfquery -D}. */
    public static String portXmitDiscardDetails(PortId dest, int port, byte[] data, int off) {
        return "# PortXmitDiscardDetails counters: " + dest + " port " + port + "\n"
                + PerfAttributes.PORT_XMIT_DISCARD_DETAILS.dump(data, off);
    }

    // ---- forwarding tables: ibtwin's own smpquery operations (no real smpquery prints them), in ibroute's style

    /** The first multicast LID: MulticastForwardingTable block b holds MLIDs 0xc000 + 32 b .. + 31. */
    public static final int MCAST_LID_BASE = 0xc000;

    /**
     * {@code ibtwin smpquery LinearForwarding}'s header: "# Linear forwarding table: Lid 3 blocks 0-0 (LIDs
     * 0x0000-0x003f, LinearFdbCap 49152, LinearFdbTop 9)" and ibroute's two column heads.
     */
    public static String lftHeader(PortId dest, int firstBlock, int lastBlock, int cap, int top) {
        return String.format("# Linear forwarding table: %s blocks %d-%d (LIDs 0x%04x-0x%04x, LinearFdbCap %d, "
                + "LinearFdbTop %d)\n  Lid  Out\n       Port\n", dest, firstBlock, lastBlock, firstBlock * 64,
                lastBlock * 64 + 63, cap, top);
    }

    /**
     * One LinearForwardingTable block as ibroute prints its entries, "0x0004 001", one line per LID of the block
     * whose port is not 255 (255: no route).
     */
    public static String lftBlock(int block, byte[] data, int off) {
        Layout l = SmpAttributes.LINEAR_FWD_TABLE;
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 64; i++) {
            int port = (int) l.get(data, off, l.fields().get(i));
            if (port != 0xff) {
                sb.append(String.format("0x%04x %03d\n", block * 64 + i, port));
            }
        }
        return sb.toString();
    }

    /** The LinearForwarding dump's last line, as ibroute ends its own: "10 valid lids dumped". */
    public static String lftTrailer(int lids) {
        return lids + " valid lids dumped\n";
    }

    /**
     * {@code ibtwin smpquery MulticastForwarding}'s header: "# Multicast forwarding table: Lid 3 blocks 0-31
     * (MLIDs 0xc000-0xc3ff, McastFdbCap 1024, MulticastFDBTop 0x0000)" and the column heads.
     */
    public static String mftHeader(PortId dest, int firstBlock, int lastBlock, int cap, int top) {
        return String.format("# Multicast forwarding table: %s blocks %d-%d (MLIDs 0x%04x-0x%04x, McastFdbCap %d, "
                + "MulticastFDBTop 0x%04x)\n MLid  Ports\n", dest, firstBlock, lastBlock,
                MCAST_LID_BASE + firstBlock * 32, MCAST_LID_BASE + lastBlock * 32 + 31, cap, top);
    }

    /**
     * One MulticastForwardingTable block: {@code positions} are its port-mask blocks for ports 0-15, 16-31, ...
     * (attribute modifier position 0, 1, ...; 64 bytes each at offset 0). One line per MLID that forwards to some
     * port, "0xc000 1,3,5", the ports in increasing order.
     */
    public static String mftBlock(int block, List<byte[]> positions) {
        Layout l = SmpAttributes.MCAST_FWD_TABLE;
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 32; i++) {
            StringBuilder ports = new StringBuilder();
            for (int pos = 0; pos < positions.size(); pos++) {
                int mask = (int) l.get(positions.get(pos), 0, l.fields().get(i));
                for (int bit = 0; bit < 16; bit++) {
                    if ((mask & (1 << bit)) != 0) {
                        ports.append(ports.length() == 0 ? "" : ",").append(pos * 16 + bit);
                    }
                }
            }
            if (ports.length() > 0) {
                sb.append(String.format("0x%04x %s\n", MCAST_LID_BASE + block * 32 + i, ports));
            }
        }
        return sb.toString();
    }

    /** The MulticastForwarding dump's last line: "2 valid mlids dumped". */
    public static String mftTrailer(int mlids) {
        return mlids + " valid mlids dumped\n";
    }

    private static void needBlocks(Layout l, int n, List<byte[]> blocks) {
        if (blocks.size() < n) {
            throw new MadFormatException(l.name(), null, n + " blocks needed, " + blocks.size() + " given");
        }
    }
}
