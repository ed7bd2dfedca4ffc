package org.ibtwin.diag;

import java.util.Arrays;
import java.util.function.Consumer;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.Dumps;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.PortId;
import org.ibtwin.mad.SmpAttributes;

/**
 * ibportstate's work (infiniband-diags 44): show a port's state, width and speeds, and change them with a SubnSet of
 * PortInfo (enable, disable, reset, down/arm/active, speed, espeed, width, vls, mtu, lid, smlid, lmc, M_Key fields,
 * FDR10 through MlnxExtPortInfo). A query of an active switch port also shows the peer port and warns of a width or
 * speed below what both ends enable. Output goes to {@code out} as the real tool prints it; failures are
 * {@link OpFailure}s with its words.
 */
public final class PortStateOps {
    /** The operations and settings, in ibportstate's order; {@link #takesValue} ones read the next argument. */
    public enum Arg {
        QUERY, ENABLE, RESET, DISABLE, SPEED, ESPEED, FDR10, WIDTH, DOWN, ARM, ACTIVE, VLS, MTU, LID, SMLID, LMC,
        MKEY, MKEYLEASE, MKEYPROT, ON, OFF;

        public String word() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        public boolean takesValue() {
            return switch (this) {
                case SPEED, ESPEED, FDR10, WIDTH, VLS, MTU, LID, SMLID, LMC, MKEY, MKEYLEASE, MKEYPROT -> true;
                default -> false;
            };
        }
    }

    /** What the command line asked for: the one operation and the values set (null: not given). */
    public static final class Request {
        Arg op;
        final Long[] values = new Long[Arg.values().length];

        public Arg op() {
            return op == null ? Arg.QUERY : op;
        }

        boolean set(Arg a) {
            return values[a.ordinal()] != null;
        }

        long value(Arg a) {
            Long v = values[a.ordinal()];
            return v == null ? 0 : v;
        }

        boolean changed() {
            return Arrays.stream(values).anyMatch(v -> v != null);
        }
    }

    private static final Layout PI = SmpAttributes.PORT_INFO;
    private static final int CAP_EXT_SPEEDS = 1 << 14;
    private static final int FDR10_BIT = 1;

    private final MadQuery q;
    private final boolean showKeys;
    private final Consumer<String> warn;

    /**
     * @param showKeys show the M_Key (-K)
     * @param warn     libibmad's IBWARN lines: "function: text" (the caller adds "ibwarn: [pid] ")
     */
    public PortStateOps(MadQuery q, boolean showKeys, Consumer<String> warn) {
        this.q = q;
        this.showKeys = showKeys;
        this.warn = warn;
    }

    /**
     * Reads the operation arguments after {@code <dest> <portnum>} as ibportstate does.
     *
     * @throws OpFailure with ibportstate's message for a bad one
     */
    public static Request parse(java.util.List<String> words) {
        Request r = new Request();
        for (int i = 0; i < words.size(); i++) {
            String w = words.get(i);
            Arg a = null;
            for (Arg x : Arg.values()) {
                if (x.word().equals(w)) {
                    a = x;
                    break;
                }
            }
            if (a == null) {
                throw new OpFailure("invalid operation: " + w);
            }
            if (!a.takesValue()) {
                if (r.op != null) {
                    throw new OpFailure(w + " only one of: query, enable, disable, reset, down, arm, active, "
                            + "can be specified");
                }
                r.op = a;
                continue;
            }
            if (++i >= words.size()) {
                throw new OpFailure(w + " requires an additional parameter");
            }
            String s = words.get(i);
            long v = Addresses.unsigned(s);
            String bad = switch (a) {
                case SPEED -> Long.compareUnsigned(v, 15) > 0 ? "invalid speed value " + Long.toUnsignedString(v)
                        : null;
                case ESPEED -> Long.compareUnsigned(v, 31) > 0 ? "invalid extended speed value "
                        + Long.toUnsignedString(v) : null;
                case FDR10 -> Long.compareUnsigned(v, 1) > 0 ? "invalid fdr10 speed value "
                        + Long.toUnsignedString(v) : null;
                case WIDTH -> Long.compareUnsigned(v, 31) > 0 && v != 255 ? "invalid width value "
                        + Long.toUnsignedString(v) : null;
                case VLS -> v == 0 || Long.compareUnsigned(v, 5) > 0 ? "invalid vls value "
                        + Long.toUnsignedString(v) : null;
                case MTU -> v == 0 || Long.compareUnsigned(v, 5) > 0 ? "invalid mtu value "
                        + Long.toUnsignedString(v) : null;
                case LID -> v == 0 || Long.compareUnsigned(v, 0xc000) >= 0 ? "invalid lid value 0x"
                        + Long.toHexString(v) : null;
                case SMLID -> v == 0 || Long.compareUnsigned(v, 0xc000) >= 0 ? "invalid smlid value 0x"
                        + Long.toHexString(v) : null;
                case LMC -> Long.compareUnsigned(v, 7) > 0 ? "invalid lmc value " + Long.toUnsignedString(v) : null;
                case MKEY -> s.isEmpty() || !s.trim().matches("(?i)[+-]?(0x[0-9a-f]+|0[0-7]*|[1-9][0-9]*)")
                        ? "Bad new M_Key\n" : null;
                case MKEYLEASE -> Long.compareUnsigned(v, 0xffff) > 0 ? "invalid mkey lease time "
                        + Long.toUnsignedString(v) : null;
                case MKEYPROT -> Long.compareUnsigned(v, 3) > 0 ? "invalid mkey protection bit setting "
                        + Long.toUnsignedString(v) : null;
                default -> null;
            };
            if (bad != null) {
                throw new OpFailure(bad);
            }
            r.values[a.ordinal()] = v;
        }
        return r;
    }

    /**
     * Runs {@code r} on port {@code portnum} of {@code dest}. {@code selfLid} is the local port's LID (DrSLID of
     * the peer query of a LID-routed destination).
     */
    public void run(PortId dest, int portnum, Request r, int selfLid, StringBuilder out) {
        byte[] ni = nodeInfo(dest);
        boolean isSwitch = SmpAttributes.NODE_INFO.get(ni, 0, "NodeType") == 2;
        boolean mlnx = mlnxExtPortInfo(ni);
        Arg op = r.op();
        boolean change = op != Arg.QUERY || r.changed();
        if ((r.set(Arg.MKEY) || r.set(Arg.MKEYLEASE) || r.set(Arg.MKEYPROT)) && isSwitch && portnum != 0) {
            throw new OpFailure("Can't set M_Key fields on switch port != 0");
        }
        out.append(change ? "Initial " : "").append(isSwitch ? "Switch" : "CA/RT").append(" PortInfo:\n");
        byte[] pi = portInfo(dest, portnum, isSwitch);
        boolean espeedCap = this.espeedCap;
        show(dest, pi, portnum, espeedCap, isSwitch, out);
        byte[] ext = new byte[64];
        if (mlnx) {
            ext = get(dest, AttributeIds.MLNX_EXT_PORT_INFO, portnum, "smp query ext portinfo failed");
            out.append(Dumps.mlnxExtPortInfo(dest, portnum, ext, 0));
        }
        if (change) {
            set(dest, portnum, r, pi, ext, espeedCap, isSwitch, out);
        } else if (isSwitch && portnum != 0 && PI.get(pi, 0, "LinkState") == 4) {
            peer(dest, portnum, pi, ext, espeedCap, selfLid, out);
        }
    }

    private boolean espeedCap;

    private byte[] nodeInfo(PortId dest) {
        return get(dest, AttributeIds.NODE_INFO, 0, "smp query nodeinfo failed");
    }

    /** PortInfo of the port; espeedCap from port 0's CapabilityMask on a switch, the port's own on a CA. */
    private byte[] portInfo(PortId dest, int portnum, boolean isSwitch) {
        byte[] info = null;
        if (isSwitch) {
            info = get(dest, AttributeIds.PORT_INFO, 0, "smp query port 0 portinfo failed");
        }
        byte[] pi = get(dest, AttributeIds.PORT_INFO, portnum, "smp query portinfo failed");
        long cap = PI.get(isSwitch ? info : pi, 0, "CapMask");
        espeedCap = (cap & CAP_EXT_SPEEDS) != 0;
        return pi;
    }

    /** ibportstate's PortInfo lines. */
    private void show(PortId dest, byte[] pi, int portnum, boolean espeedCap, boolean isSwitch, StringBuilder out) {
        out.append("# Port info: ").append(dest).append(" port ").append(portnum).append('\n');
        for (String f : new String[] {"LinkState", "PhysLinkState", "Lid", "SMLid", "LMC", "LinkWidthSupported",
            "LinkWidthEnabled", "LinkWidthActive", "LinkSpeedSupported", "LinkSpeedEnabled", "LinkSpeedActive"}) {
            out.append(PI.dumpLine(PI.field(f), pi, 0)).append('\n');
        }
        if (espeedCap) {
            for (String f : new String[] {"LinkSpeedExtSupported", "LinkSpeedExtEnabled", "LinkSpeedExtActive"}) {
                out.append(PI.dumpLine(PI.field(f), pi, 0)).append('\n');
            }
        }
        if (!isSwitch || portnum == 0) {
            out.append(showKeys ? PI.dumpLine(PI.field("Mkey"), pi, 0) : Layout.line("Mkey", "<not displayed>"))
                    .append('\n');
            out.append(PI.dumpLine(PI.field("MkeyLeasePeriod"), pi, 0)).append('\n');
            out.append(PI.dumpLine(PI.field("ProtectBits"), pi, 0)).append('\n');
        }
    }

    private void set(PortId dest, int portnum, Request r, byte[] pi, byte[] ext, boolean espeedCap,
            boolean isSwitch, StringBuilder out) {
        byte[] data = pi.clone();
        long phys = PI.get(data, 0, "PhysLinkState");
        long lid = PI.get(data, 0, "Lid");
        if (!r.set(Arg.LID) && (lid == 0 || lid == 0xffff)) {
            PI.set(data, 0, "Lid", 0x1234);
        }
        long smLid = PI.get(data, 0, "SMLid");
        if (!r.set(Arg.SMLID) && (smLid == 0 || smLid == 0xffff)) {
            PI.set(data, 0, "SMLid", 0x1234);
        }
        PI.set(data, 0, "LinkState", 0);
        PI.set(data, 0, "PhysLinkState", 0);
        switch (r.op()) {
            case ON, ENABLE, RESET -> {
                if (r.op() == Arg.ON && phys != 3) {
                    out.append("Port is already in enable state\n");
                    return;
                }
                PI.set(data, 0, "PhysLinkState", 2);
            }
            case OFF, DISABLE -> {
                out.append("Disable may be irreversible\n");
                PI.set(data, 0, "PhysLinkState", 3);
            }
            case DOWN -> PI.set(data, 0, "LinkState", 1);
            case ARM -> PI.set(data, 0, "LinkState", 3);
            case ACTIVE -> PI.set(data, 0, "LinkState", 4);
            default -> { }
        }
        PI.set(data, 0, "LinkSpeedEnabled", r.value(Arg.SPEED));
        PI.set(data, 0, "LinkSpeedExtEnabled", r.value(Arg.ESPEED));
        PI.set(data, 0, "LinkWidthEnabled", r.value(Arg.WIDTH));
        setGiven(r, Arg.VLS, data, "OperVLs");
        setGiven(r, Arg.MTU, data, "NeighborMTU");
        setGiven(r, Arg.LID, data, "Lid");
        setGiven(r, Arg.SMLID, data, "SMLid");
        setGiven(r, Arg.LMC, data, "LMC");
        if (r.set(Arg.FDR10)) {
            byte[] e = ext.clone();
            SmpAttributes.MLNX_EXT_PORT_INFO.set(e, 0, "StateChangeEnable", FDR10_BIT);
            SmpAttributes.MLNX_EXT_PORT_INFO.set(e, 0, "LinkSpeedEnabled", r.value(Arg.FDR10));
            byte[] after = setAttr(dest, AttributeIds.MLNX_EXT_PORT_INFO, portnum, e,
                    "smp set MLNX ext portinfo failed");
            out.append("\nAfter MLNXExtendedPortInfo set:\n").append(Dumps.mlnxExtPortInfo(dest, portnum, after, 0));
        }
        setGiven(r, Arg.MKEY, data, "Mkey");
        setGiven(r, Arg.MKEYLEASE, data, "MkeyLeasePeriod");
        setGiven(r, Arg.MKEYPROT, data, "ProtectBits");
        long mod = portnum & 0xffffffffL;
        if (espeedCap) {
            mod |= 1L << 31;
        }
        byte[] after = setAttr(dest, AttributeIds.PORT_INFO, mod, data, "smp set portinfo failed");
        out.append("\nAfter PortInfo set:\n");
        show(dest, after, portnum, espeedCap, isSwitch, out);
    }

    /** Sets the PortInfo field to the option's value when the option was given. */
    private static void setGiven(Request r, Arg a, byte[] data, String field) {
        if (r.set(a)) {
            PI.set(data, 0, field, r.value(a));
        }
    }

    /** The peer of an active switch port: its PortInfo, and warnings for a link below what both ends enable. */
    private void peer(PortId dest, int portnum, byte[] pi, byte[] ext, boolean espeedCap, int selfLid,
            StringBuilder out) {
        int[] path = dest.path();
        PortId peer;
        if (dest.lid() == 0) {
            if (path.length >= 64) {
                throw new OpFailure("Too many hops");
            }
            int[] p = Arrays.copyOf(path.length == 0 ? new int[] {0} : path, Math.max(path.length, 1) + 1);
            p[p.length - 1] = portnum;
            peer = new PortId(0, dest.drSlid(), dest.drDlid(), p);
        } else {
            peer = new PortId(dest.lid(), selfLid, PortId.PERMISSIVE_LID, new int[] {0, portnum});
        }
        byte[] pni = nodeInfo(peer);
        boolean peerSwitch = SmpAttributes.NODE_INFO.get(pni, 0, "NodeType") == 2;
        int peerPort = (int) SmpAttributes.NODE_INFO.get(pni, 0, "LocalPort");
        out.append("Peer PortInfo:\n");
        byte[] ppi = portInfo(peer, peerPort, peerSwitch);
        boolean peerEspeedCap = this.espeedCap;
        byte[] pext = new byte[64];
        boolean peerMlnx = mlnxExtPortInfo(pni);
        if (peerMlnx) {
            pext = get(peer, AttributeIds.MLNX_EXT_PORT_INFO, peerPort, "smp query ext portinfo failed");
        }
        show(peer, ppi, peerPort, peerEspeedCap, peerSwitch, out);
        if (peerMlnx) {
            out.append(Dumps.mlnxExtPortInfo(peer, peerPort, pext, 0));
        }
        int width = enabled(PI.get(pi, 0, "LinkWidthEnabled"), 255, PI.get(pi, 0, "LinkWidthSupported"));
        int peerWidth = enabled(PI.get(ppi, 0, "LinkWidthEnabled"), 255, PI.get(ppi, 0, "LinkWidthSupported"));
        int lwa = (int) PI.get(pi, 0, "LinkWidthActive");
        int[][] widths = {{8, 8, 12}, {4, 4, 8}, {2, 2, 4}, {16, 16, 2}, {1, 1, 1}};
        for (int[] w : widths) {
            if ((width & peerWidth & w[0]) != 0) {
                if (lwa != w[1]) {
                    warn.accept("main: Peer ports operating at active width " + lwa + " rather than " + w[1] + " ("
                            + w[2] + "x)");
                }
                break;
            }
        }
        int speed = enabled(PI.get(pi, 0, "LinkSpeedEnabled"), 15, PI.get(pi, 0, "LinkSpeedSupported"));
        int peerSpeed = enabled(PI.get(ppi, 0, "LinkSpeedEnabled"), 15, PI.get(ppi, 0, "LinkSpeedSupported"));
        int lsa = (int) PI.get(pi, 0, "LinkSpeedActive");
        String[][] speeds = {{"4", "10.0"}, {"2", "5.0"}, {"1", "2.5"}};
        for (String[] s : speeds) {
            int bit = Integer.parseInt(s[0]);
            if ((speed & peerSpeed & bit) != 0) {
                if (lsa != bit) {
                    warn.accept("main: Peer ports operating at active speed " + lsa + " rather than " + bit + " ("
                            + s[1] + " Gbps)");
                }
                break;
            }
        }
        if (espeedCap && peerEspeedCap) {
            int espeed = enabled(PI.get(pi, 0, "LinkSpeedExtEnabled"), 31, PI.get(pi, 0, "LinkSpeedExtSupported"));
            int peerEspeed = enabled(PI.get(ppi, 0, "LinkSpeedExtEnabled"), 31,
                    PI.get(ppi, 0, "LinkSpeedExtSupported"));
            int lsea = (int) PI.get(pi, 0, "LinkSpeedExtActive");
            String[][] es = {{"8", "106.25"}, {"4", "53.125"}, {"2", "25.78125"}, {"1", "14.0625"}};
            for (String[] s : es) {
                int bit = Integer.parseInt(s[0]);
                if ((espeed & peerEspeed & bit) != 0) {
                    if (lsea != bit) {
                        warn.accept("main: Peer ports operating at active extended speed " + lsea + " rather than "
                                + bit + " (" + s[1] + " Gbps)");
                    }
                    break;
                }
            }
        } else {
            Layout m = SmpAttributes.MLNX_EXT_PORT_INFO;
            if ((m.get(ext, 0, "LinkSpeedEnabled") & FDR10_BIT) != 0
                    && (m.get(pext, 0, "LinkSpeedEnabled") & FDR10_BIT) != 0
                    && (m.get(ext, 0, "LinkSpeedActive") & FDR10_BIT) == 0) {
                warn.accept("main: Peer ports operating at active speed " + lsa + " rather than FDR10");
            }
        }
    }

    /** The enabled value, or the supported one where it says "all supported" ({@code all}). */
    private static int enabled(long en, int all, long sup) {
        return (int) (en == all ? sup : en);
    }

    /** Whether ibportstate asks this node for MlnxExtPortInfo (the Mellanox devices it knows by id). */
    static boolean mlnxExtPortInfo(byte[] ni) {
        return MlnxDevices.hasExtPortInfo((int) SmpAttributes.NODE_INFO.get(ni, 0, "VendorId"),
                (int) SmpAttributes.NODE_INFO.get(ni, 0, "DevId"));
    }

    private byte[] get(PortId dest, int attr, long mod, String failure) {
        try {
            return q.smpGet(dest, attr, mod & 0xffffffffL);
        } catch (QueryException e) {
            throw new OpFailure(failure, e);
        }
    }

    private byte[] setAttr(PortId dest, int attr, long mod, byte[] data, String failure) {
        try {
            return q.smpSet(dest, attr, mod & 0xffffffffL, data);
        } catch (QueryException e) {
            throw new OpFailure(failure, e);
        }
    }
}
