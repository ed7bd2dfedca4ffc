package org.ibtwin.sim;

import org.ibtwin.mad.Layout;
import org.ibtwin.mad.MadHeaders;
import org.ibtwin.mad.Methods;
import org.ibtwin.mad.MgmtClasses;

/** Builds and reads MADs with ibtwin's own layouts (MadHeaders), as a client would. */
final class Smps {
    static final Layout DR = MadHeaders.SMP_DR;
    static final Layout LID = MadHeaders.SMP_LID;
    static final int DATA = MadHeaders.SMP_DATA_OFFSET;

    private Smps() {
    }

    /** A directed-route SMP along {@code path} (the egress port at each hop; empty: the local node). */
    static byte[] dr(long tid, int method, int attr, long mod, int... path) {
        byte[] m = new byte[256];
        DR.set(m, 0, "MadBaseVersion", 1);
        DR.set(m, 0, "MadMgmtClass", MgmtClasses.SUBN_DIRECTED);
        DR.set(m, 0, "MadClassVersion", 1);
        DR.set(m, 0, "MadMethod", method);
        DR.set(m, 0, "DrSmpHopCnt", path.length);
        DR.set(m, 0, "MadTRID", tid);
        DR.set(m, 0, "MadAttr", attr);
        DR.set(m, 0, "MadModifier", mod);
        DR.set(m, 0, "DrSmpSLID", 0xffff);
        DR.set(m, 0, "DrSmpDLID", 0xffff);
        for (int i = 0; i < path.length; i++) {
            m[128 + 1 + i] = (byte) path[i];
        }
        return m;
    }

    static byte[] drGet(long tid, int attr, long mod, int... path) {
        return dr(tid, Methods.GET, attr, mod, path);
    }

    static byte[] drSet(long tid, int attr, long mod, byte[] data, int... path) {
        byte[] m = dr(tid, Methods.SET, attr, mod, path);
        System.arraycopy(data, 0, m, DATA, Math.min(64, data.length));
        return m;
    }

    /** A LID-routed SMP (class 0x01). */
    static byte[] lid(long tid, int method, int attr, long mod) {
        byte[] m = new byte[256];
        LID.set(m, 0, "MadBaseVersion", 1);
        LID.set(m, 0, "MadMgmtClass", MgmtClasses.SUBN_LID);
        LID.set(m, 0, "MadClassVersion", 1);
        LID.set(m, 0, "MadMethod", method);
        LID.set(m, 0, "MadTRID", tid);
        LID.set(m, 0, "MadAttr", attr);
        LID.set(m, 0, "MadModifier", mod);
        return m;
    }

    /** A GMP of class {@code cls} (PerfMgt, SA...). */
    static byte[] gmp(int cls, long tid, int method, int attr, long mod) {
        byte[] m = new byte[256];
        Layout l = MadHeaders.MAD;
        l.set(m, 0, "MadBaseVersion", 1);
        l.set(m, 0, "MadMgmtClass", cls);
        l.set(m, 0, "MadClassVersion", cls == MgmtClasses.SUBN_ADM ? 2 : 1);
        l.set(m, 0, "MadMethod", method);
        l.set(m, 0, "MadTRID", tid);
        l.set(m, 0, "MadAttr", attr);
        l.set(m, 0, "MadModifier", mod);
        return m;
    }

    /** The attribute data of an SMP or PerfMgt MAD. */
    static byte[] data(byte[] mad) {
        byte[] d = new byte[192];
        System.arraycopy(mad, DATA, d, 0, 192);
        return d;
    }

    /** The status: 15 bits of a directed-route SMP, 16 of anything else. */
    static int status(byte[] mad) {
        int s = ((mad[4] & 0xff) << 8) | (mad[5] & 0xff);
        return (mad[1] & 0xff) == MgmtClasses.SUBN_DIRECTED ? s & 0x7fff : s;
    }
}
