package org.ibtwin.perf;

import java.util.List;
import java.util.Locale;

/**
 * perftest's client-side output, line for line as perftest 4.5 prints it: the test information block, the local and
 * remote QP addresses, the result table's header and rows, and the closing rule. Column formats follow perftest's
 * printf formats (C's {@code %-7.2lf}, {@code %#04x} and friends, tabs included).
 */
public final class PerftestReport {
    /** The rule perftest prints between blocks: 87 dashes. */
    public static final String RESULT_LINE = "-".repeat(87) + "\n";

    /** Bandwidth table header, MB/sec (2^20 bytes) or --report_gbits. */
    public static final String RESULT_FMT =
            " #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]";
    public static final String RESULT_FMT_G =
            " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]";
    /** Latency table header (iterations) and its duration (-D) form. */
    public static final String RESULT_FMT_LAT = " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]"
            + "    t_avg[usec]    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] ";
    public static final String RESULT_FMT_LAT_DUR = " #bytes        #iterations       t_avg[usec]    tps average";

    private PerftestReport() {
    }

    /** Bandwidth or latency test. */
    public enum Kind { BW, LAT }

    /** One QP's address as perftest exchanges and prints it. */
    public record Address(int lid, int qpn, int psn, int rkey, long vaddr, int outReads, byte[] gid) {
    }

    /**
     * The test information perftest prints before connecting.
     *
     * @param atomicType "FETCH_AND_ADD" or "CMP_AND_SWAP" for atomics, else null
     * @param rxDepth    printed for SEND when bidirectional (the client prints it only then); 0 leaves it out
     * @param cqMod      CQ moderation (bandwidth tests only)
     * @param gidIndex   -x, or -1 when not given
     */
    public record Info(Op op, Kind kind, String atomicType, boolean bidirectional, String device, int qps,
                       Transport transport, int txDepth, int rxDepth, int cqMod, int mtu, int gidIndex,
                       int inlineSize, int outReads) {
    }

    /** The information block, from the first rule to the rule after "Data ex. method". */
    public static String info(Info i) {
        StringBuilder sb = new StringBuilder();
        sb.append(RESULT_LINE);
        sb.append("                    ").append(i.op().label()).append(' ');
        if (i.op() == Op.ATOMIC && i.atomicType() != null) {
            sb.append(i.atomicType()).append(' ');
        }
        if (i.kind() == Kind.BW) {
            if (i.bidirectional()) {
                sb.append("Bidirectional ");
            }
            sb.append("BW ");
        } else {
            sb.append("Latency ");
        }
        sb.append("Test\n");
        sb.append(" Dual-port       : OFF\t\tDevice         : ").append(i.device()).append('\n');
        sb.append(" Number of qps   : ").append(i.qps()).append("\t\tTransport type : IB\n");
        sb.append(" Connection type : ").append(i.transport().name()).append("\t\tUsing SRQ      : OFF\n");
        sb.append(" PCIe relax order: ON\n");
        sb.append(" ibv_wr* API     : ON\n");
        sb.append(" TX depth        : ").append(i.txDepth()).append('\n');
        if (i.op() == Op.SEND && i.rxDepth() > 0) {
            sb.append(" RX depth        : ").append(i.rxDepth()).append('\n');
        }
        if (i.kind() == Kind.BW) {
            sb.append(" CQ Moderation   : ").append(i.cqMod()).append('\n');
        }
        sb.append(" Mtu             : ").append(i.mtu()).append("[B]\n");
        sb.append(" Link type       : IB\n");
        if (i.gidIndex() >= 0) {
            sb.append(" GID index       : ").append(i.gidIndex()).append('\n');
        }
        if (i.op() != Op.READ && i.op() != Op.ATOMIC) {
            sb.append(" Max inline data : ").append(i.inlineSize()).append("[B]\n");
        } else {
            sb.append(" Outstand reads  : ").append(i.outReads()).append('\n');
        }
        sb.append(" rdma_cm QPs\t : OFF\n");
        sb.append(" Data ex. method : Ethernet\n");
        sb.append(RESULT_LINE);
        return sb.toString();
    }

    /** The address lines: every local QP, then every remote one, each followed by its GID when one is used. */
    public static String addresses(Op op, List<Address> local, List<Address> remote, boolean gid) {
        StringBuilder sb = new StringBuilder();
        for (Address a : local) {
            address(sb, "local", op, a, gid);
        }
        for (Address a : remote) {
            address(sb, "remote", op, a, gid);
        }
        return sb.toString();
    }

    private static void address(StringBuilder sb, String side, Op op, Address a, boolean gid) {
        sb.append(' ').append(side).append(" address: LID ").append(altHex(a.lid(), 4))
                .append(" QPN ").append(altHex(a.qpn(), 6))
                .append(" PSN ").append(altHex(a.psn(), 6));
        if (op == Op.READ) {
            sb.append(" OUT ").append(altHex(a.outReads(), 4));
        }
        if (op == Op.READ || op == Op.WRITE) {
            sb.append(" RKey ").append(altHex(a.rkey() & 0xffffffffL, 8))
                    .append(" VAddr ").append(altHex(a.vaddr(), 16));
        }
        sb.append('\n');
        if (gid && a.gid() != null) {
            sb.append(" GID: ");
            for (int k = 0; k < 16; k++) {
                sb.append(String.format(Locale.ROOT, "%02d", a.gid()[k] & 0xff)).append(k < 15 ? ":" : "\n");
            }
        }
    }

    /** The rule and column header of the bandwidth table. */
    public static String bwHeader(boolean gbits) {
        return RESULT_LINE + (gbits ? RESULT_FMT_G : RESULT_FMT) + "\n";
    }

    /**
     * One bandwidth row. Figures below 0.1 in Gb/s get six decimals, as perftest prints them ("inc_accuracy").
     */
    public static String bwRow(long size, long iterations, double peak, double average, double mpps, boolean gbits) {
        if (gbits && average < 0.1) {
            return String.format(Locale.ROOT, " %-7d    %d           %-7.6f            %-7.6f            %-7.6f\n",
                    size, iterations, peak, average, mpps);
        }
        return String.format(Locale.ROOT, " %-7d    %-10d       %-7.2f            %-7.2f\t\t   %-7.6f\n",
                size, iterations, peak, average, mpps);
    }

    /** The rule and column header of the latency table. */
    public static String latHeader(boolean duration) {
        return RESULT_LINE + (duration ? RESULT_FMT_LAT_DUR : RESULT_FMT_LAT) + "\n";
    }

    /** One latency row. */
    public static String latRow(long size, long iterations, double min, double max, double typical, double avg,
                                double stdev, double p99, double p999) {
        return String.format(Locale.ROOT,
                " %-7d %d          %-7.2f        %-7.2f      %-7.2f  \t       %-7.2f     \t%-7.2f\t\t%-7.2f \t\t%-7.2f\n",
                size, iterations, min, max, typical, avg, stdev, p99, p999);
    }

    /** One latency row of a duration (-D) run. */
    public static String latDurationRow(long size, long iterations, double avg, double tps) {
        return String.format(Locale.ROOT, " %-7d       %d            %-7.2f        %-7.2f\n", size, iterations, avg, tps);
    }

    /**
     * C's {@code %#0<width>x}: "0x" and at least {@code width - 2} hex digits, zero-padded to {@code width}; a zero
     * gets no prefix and is all zeros, as C prints it.
     */
    public static String altHex(long value, int width) {
        if (value == 0) {
            return "0".repeat(width);
        }
        String h = Long.toHexString(value);
        int pad = width - 2 - h.length();
        return "0x" + (pad > 0 ? "0".repeat(pad) : "") + h;
    }
}
