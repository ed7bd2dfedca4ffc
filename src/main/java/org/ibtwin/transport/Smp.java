package org.ibtwin.transport;

import org.ibtwin.mad.Field;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.MadHeaders;
import org.ibtwin.mad.Methods;
import org.ibtwin.mad.MgmtClasses;

/**
 * Directed-route SMPs as the SM sends them: built and read through the {@link MadHeaders#SMP_DR} layout, with the
 * fields looked up once. A path is the egress port at each hop ({@code path.length} is the hop count; empty: the
 * SM's own node).
 */
public final class Smp {
    /** The longest directed route: 63 hops (entry 0 of the 64-byte path is unused). */
    public static final int MAX_HOPS = 63;
    public static final int DATA = MadHeaders.SMP_DATA_OFFSET;
    public static final int DATA_SIZE = MadHeaders.SMP_DATA_SIZE;
    public static final int PERMISSIVE = 0xffff;

    private static final Layout DR = MadHeaders.SMP_DR;
    private static final Field BASE_VERSION = DR.field("MadBaseVersion");
    private static final Field CLASS = DR.field("MadMgmtClass");
    private static final Field CLASS_VERSION = DR.field("MadClassVersion");
    private static final Field METHOD = DR.field("MadMethod");
    private static final Field HOP_CNT = DR.field("DrSmpHopCnt");
    private static final Field TID = DR.field("MadTRID");
    private static final Field ATTR = DR.field("MadAttr");
    private static final Field MOD = DR.field("MadModifier");
    private static final Field MKEY = DR.field("MadMkey");
    private static final Field DR_SLID = DR.field("DrSmpSLID");
    private static final Field DR_DLID = DR.field("DrSmpDLID");
    private static final Field STATUS = DR.field("DrSmpStatus");
    private static final int INITIAL_PATH = DR.field("DrSmpPath").byteOffset();

    private Smp() {
    }

    /** Every directed-route request starts as a copy of this: versions, class, permissive DrSLID and DrDLID. */
    private static final byte[] TEMPLATE = new byte[MadHeaders.MAD_SIZE];

    static {
        DR.set(TEMPLATE, 0, BASE_VERSION, 1);
        DR.set(TEMPLATE, 0, CLASS, MgmtClasses.SUBN_DIRECTED);
        DR.set(TEMPLATE, 0, CLASS_VERSION, 1);
        DR.set(TEMPLATE, 0, DR_SLID, PERMISSIVE);
        DR.set(TEMPLATE, 0, DR_DLID, PERMISSIVE);
    }

    /** A directed-route request along {@code path}; {@code data} (up to 64 bytes) is copied in when not null. */
    public static byte[] request(long tid, int method, int attr, long modifier, byte[] path, byte[] data, long mkey) {
        if (path.length > MAX_HOPS) {
            throw new IllegalArgumentException("directed route of " + path.length + " hops (at most " + MAX_HOPS
                    + ")");
        }
        byte[] m = TEMPLATE.clone();
        METHOD.set(m, 0, method);
        HOP_CNT.set(m, 0, path.length);
        TID.set(m, 0, tid);
        ATTR.set(m, 0, attr);
        MOD.set(m, 0, modifier & 0xffffffffL);
        if (mkey != 0) {
            MKEY.set(m, 0, mkey);
        }
        System.arraycopy(path, 0, m, INITIAL_PATH + 1, path.length);
        if (data != null) {
            System.arraycopy(data, 0, m, DATA, Math.min(DATA_SIZE, data.length));
        }
        return m;
    }

    public static byte[] get(long tid, int attr, long modifier, byte[] path) {
        return request(tid, Methods.GET, attr, modifier, path, null, 0);
    }

    /** The 15-bit status of a directed-route response (the D bit left out). */
    public static int status(byte[] mad) {
        return (int) DR.get(mad, 0, STATUS);
    }

    public static int method(byte[] mad) {
        return MadHeaders.method(mad);
    }

    /** {@code path} with one more hop out of {@code port}. */
    public static byte[] append(byte[] path, int port) {
        byte[] p = java.util.Arrays.copyOf(path, path.length + 1);
        p[path.length] = (byte) port;
        return p;
    }

    /** "0,1,3": how the tools print a directed route (0 is the SM's own node). */
    public static String pathString(byte[] path) {
        StringBuilder sb = new StringBuilder("0");
        for (byte b : path) {
            sb.append(',').append(b & 0xff);
        }
        return sb.toString();
    }
}
