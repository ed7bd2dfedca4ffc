package org.ibtwin.transport;

/**
 * Where a MAD goes or came from, as the umad layer addresses it: destination (or source) LID, QP, Q_Key, SL and
 * P_Key index. SMPs go to QP0; directed-route SMPs carry their route in the MAD and use the permissive LID.
 */
public record MadAddress(int lid, int qpn, int qkey, int sl, int pkeyIndex) {
    /** The permissive LID, used for directed-route SMPs. */
    public static final int PERMISSIVE_LID = 0xffff;
    /** The well-known Q_Key of QP1 (GSI). */
    public static final int GSI_QKEY = 0x80010000;

    public MadAddress {
        if (lid < 0 || lid > 0xffff) {
            throw new IllegalArgumentException("lid out of range: " + lid);
        }
        if (qpn < 0 || qpn > 0xffffff) {
            throw new IllegalArgumentException("qpn out of range: " + qpn);
        }
    }

    /** A LID-routed SMP to {@code lid} (QP0). */
    public static MadAddress smp(int lid) {
        return new MadAddress(lid, 0, 0, 0, 0);
    }

    /** A directed-route SMP: the path is in the MAD. */
    public static MadAddress directed() {
        return new MadAddress(PERMISSIVE_LID, 0, 0, 0, 0);
    }

    /** A GMP (PerfMgt, SA…) to QP1 at {@code lid}. */
    public static MadAddress gsi(int lid) {
        return new MadAddress(lid, 1, GSI_QKEY, 0, 0);
    }
}
