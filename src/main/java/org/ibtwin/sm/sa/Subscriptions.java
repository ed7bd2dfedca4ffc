package org.ibtwin.sm.sa;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongPredicate;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.SaAttributes;

/**
 * The SA's InformInfo subscriptions (IBA 13.4.8.3, 15.2.5.12): who asked to be told of which traps. A subscription
 * belongs to the port that sent the SubnAdmSet(InformInfo) (its GID and LID); the same InformInfo from the same
 * port again is the same subscription, and one with Subscribe 0 ends it. As OpenSM lists them: the newest first,
 * each with Enum 0 and its QPN not shown (0).
 */
final class Subscriptions {
    private static final Layout II = SaAttributes.INFORM_INFO;
    private static final Layout IIR = SaAttributes.INFORM_INFO_RECORD;
    /** InformInfo's bytes that say what is asked (all but Subscribe, byte 23, and the reserved bytes). */
    private static final int SUBSCRIBE_BYTE = 23;

    /** One subscription: the subscriber's GID and LID, the InformInfo as it was given. */
    record Subscription(byte[] gid, int lid, byte[] info) {
        int qpn() {
            int q = (int) II.get(info, 0, "InformQPN");
            return q == 0 ? 1 : q;
        }
    }

    private final List<Subscription> held = new CopyOnWriteArrayList<>();

    /**
     * A SubnAdmSet(InformInfo) from the port of {@code gid} at {@code lid}: subscribes (Subscribe 1) or ends the
     * subscription that asks the same (0). False when there is nothing to end.
     */
    synchronized boolean set(byte[] gid, int lid, byte[] info) {
        boolean on = II.get(info, 0, "InformSubscribe") != 0;
        Subscription same = null;
        for (Subscription s : held) {
            if (Arrays.equals(s.gid(), gid) && sameAsk(s.info(), info)) {
                same = s;
            }
        }
        if (!on) {
            return same != null && held.remove(same);
        }
        if (same == null) {
            held.add(0, new Subscription(gid.clone(), lid, info.clone()));
        }
        return true;
    }

    private static boolean sameAsk(byte[] a, byte[] b) {
        for (int i = 0; i < II.size(); i++) {
            if (i != SUBSCRIBE_BYTE && a[i] != b[i]) {
                return false;
            }
        }
        return true;
    }

    /** The subscriptions held, as given. */
    List<byte[]> informInfos() {
        List<byte[]> out = new ArrayList<>();
        for (Subscription s : held) {
            out.add(s.info().clone());
        }
        return out;
    }

    /** The InformInfoRecords: one per subscription, its subscriber's GID and the InformInfo (QPN 0). */
    List<byte[]> records() {
        List<byte[]> out = new ArrayList<>();
        for (Subscription s : held) {
            byte[] r = new byte[IIR.size()];
            IIR.setBytes(r, 0, "SubscriberGID", s.gid());
            System.arraycopy(s.info(), 0, r, 24, II.size());
            IIR.set(r, 0, "InformQPN", 0);
            out.add(r);
        }
        return out;
    }

    /** Drops the subscriptions of ports that are gone ({@code present} of the subscriber's port GUID false). */
    void keepOnly(LongPredicate present) {
        held.removeIf(s -> !present.test(guidOf(s.gid())));
    }

    /**
     * The subscriptions a notice matches (IBA 13.4.8.3): generic or vendor as asked; the issuer the one named (the
     * InformInfo's GID when not zero, else its LID range, LIDRangeBegin 0xFFFF for every LID); the type, the trap
     * number (generic) and producer type asked, or every one (0xFFFF, 0xFFFF, 0xFFFFFF).
     */
    List<Subscription> matching(boolean generic, int type, int producer, int trap, int issuerLid, byte[] issuerGid) {
        List<Subscription> out = new ArrayList<>();
        for (Subscription s : held) {
            byte[] i = s.info();
            if ((II.get(i, 0, "InformIsGeneric") != 0) != generic) {
                continue;
            }
            byte[] gid = II.getBytes(i, 0, "InformGID");
            if (!McGroups.isZero(gid)) {
                if (issuerGid == null || !Arrays.equals(gid, issuerGid)) {
                    continue;
                }
            } else {
                long begin = II.get(i, 0, "InformLIDRangeBegin");
                long end = Math.max(begin, II.get(i, 0, "InformLIDRangeEnd"));
                if (begin != 0xffff && (issuerLid < begin || issuerLid > end)) {
                    continue;
                }
            }
            long t = II.get(i, 0, "InformType");
            long n = II.get(i, 0, "InformTrapNumber");
            long p = II.get(i, 0, "InformProducerType");
            if ((t != 0xffff && t != type) || (generic && n != 0xffff && n != trap)
                    || (generic && p != 0xffffff && p != producer)) {
                continue;
            }
            out.add(s);
        }
        return out;
    }

    static long guidOf(byte[] gid) {
        long v = 0;
        for (int i = 8; i < 16; i++) {
            v = (v << 8) | (gid[i] & 0xff);
        }
        return v;
    }
}
