package org.ibtwin.sm.sa;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.MadStatus;
import org.ibtwin.mad.SaAttributes;

/**
 * PathRecords (IBA 15.2.5.16): for each source and destination end port the query allows (SGID or SLID, DGID or
 * DLID; every end port when not given), the path the LFTs route: the P_Key both ports share (none shared: no path;
 * a P_Key asked for must be shared), the smallest MTU and the slowest rate along the route (64 switch hops at
 * most), SL and traffic class as asked (0 otherwise; the SL the QoS policy gives where there is one, a path asked
 * for with another SL then having none), hop limit 0xFF when the query gave a DGID and 0 otherwise, as
 * OpenSM sets them. As OpenSM's SA, a path is answered only where the requester shares a partition with both ends
 * (or is that end). MTU, rate and packet lifetime honour their
 * selectors: 0 greater than, 1 less than, 2 exactly, 3 the largest available; a path that cannot satisfy one is
 * left out.
 */
final class Paths {
    private static final Layout PR = SaAttributes.PATH_RECORD;
    /** The most records one query may produce (every pair of a large subnet is more than anyone reads). */
    static final int MAX_RECORDS = 1 << 18;
    /** The packet lifetime code answered (4.096 µs × 2^0 on a switched subnet with nothing slow). */
    private static final int PKT_LIFE = 0;

    private Paths() {
    }

    static List<byte[]> records(SaSnapshot s, byte[] t, long mask, int requester, QosPolicy policy) {
        List<Integer> sources = ends(s, t, mask, ComponentMask.PR_SGID, "PathRecSGid", ComponentMask.PR_SLID,
                "PathRecSLid");
        List<Integer> dests = ends(s, t, mask, ComponentMask.PR_DGID, "PathRecDGid", ComponentMask.PR_DLID,
                "PathRecDLid");
        if ((long) sources.size() * dests.size() > MAX_RECORDS) {
            throw new SubnetAdministrator.SaException(MadStatus.SA_NO_RESOURCES, "too many paths");
        }
        int wantPkey = (mask & ComponentMask.PR_PKEY) != 0 ? (int) PR.get(t, 0, "PathRecPKey") : 0;
        List<byte[]> out = new ArrayList<>();
        for (int src : sources) {
            if (!s.visible(requester, src)) {
                continue;
            }
            for (int dst : dests) {
                if (!s.visible(requester, dst)) {
                    continue;
                }
                byte[] r = record(s, t, mask, src, dst, wantPkey, policy);
                if (r != null) {
                    out.add(r);
                }
            }
        }
        return out;
    }

    private static List<Integer> ends(SaSnapshot s, byte[] t, long mask, long gidBit, String gidField, long lidBit,
                                      String lidField) {
        List<Integer> all = s.endPortsByLid();
        if ((mask & gidBit) != 0) {
            byte[] gid = PR.getBytes(t, 0, gidField);
            for (int g : all) {
                if (Arrays.equals(gid, s.gid(g))) {
                    return List.of(g);
                }
            }
            return List.of();
        }
        if ((mask & lidBit) != 0) {
            int g = s.endPortByLid((int) PR.get(t, 0, lidField));
            return g < 0 ? List.of() : List.of(g);
        }
        return all;
    }

    private static byte[] record(SaSnapshot s, byte[] t, long mask, int src, int dst, int wantPkey,
                                 QosPolicy policy) {
        int pkey = s.sharedPkey(src, dst, wantPkey);
        if (pkey == 0) {
            return null;
        }
        int dlid = (mask & ComponentMask.PR_DLID) != 0 ? (int) PR.get(t, 0, "PathRecDLid") : s.lids().lid(dst);
        int slid = (mask & ComponentMask.PR_SLID) != 0 ? (int) PR.get(t, 0, "PathRecSLid") : s.lids().lid(src);
        SaSnapshot.Route route = s.route(src, dlid);
        if (route == null) {
            return null;
        }
        int mtu = select(mask, ComponentMask.PR_MTU_SELECTOR, ComponentMask.PR_MTU,
                (int) PR.get(t, 0, "PathRecMtuSelector"), (int) PR.get(t, 0, "PathRecMtu"), route.mtu(), false);
        int rate = select(mask, ComponentMask.PR_RATE_SELECTOR, ComponentMask.PR_RATE,
                (int) PR.get(t, 0, "PathRecRateSelector"), (int) PR.get(t, 0, "PathRecRate"), route.rate(), true);
        int life = select(mask, ComponentMask.PR_PKT_LIFE_SELECTOR, ComponentMask.PR_PKT_LIFE,
                (int) PR.get(t, 0, "PathRecPktLifeSelector"), (int) PR.get(t, 0, "PathRecPktLife"), PKT_LIFE, false);
        if (mtu < 0 || rate < 0 || life < 0) {
            return null;
        }
        byte[] r = new byte[PR.size()];
        if ((mask & ComponentMask.PR_SERVICE_ID) != 0) {
            PR.set(r, 0, "PathRecServiceId", PR.get(t, 0, "PathRecServiceId"));
        }
        PR.setBytes(r, 0, "PathRecDGid", s.gid(dst));
        PR.setBytes(r, 0, "PathRecSGid", s.gid(src));
        PR.set(r, 0, "PathRecDLid", dlid);
        PR.set(r, 0, "PathRecSLid", slid);
        copy(t, r, mask, ComponentMask.PR_TCLASS, "PathRecTClass");
        if (s.lanes() > 1) {
            // the SL is the route's lane (a deadlock-free engine spread the routes over VLs): another SL has no path
            int sl = s.pathSl(src, dlid);
            if ((mask & ComponentMask.PR_SL) != 0 && PR.get(t, 0, "PathRecSL") != sl) {
                return null;
            }
            PR.set(r, 0, "PathRecSL", sl);
        } else {
            int sl = policy == null ? -1 : policy.sl(guid(s.gid(src)), guid(s.gid(dst)),
                    (mask & ComponentMask.PR_SERVICE_ID) != 0 ? PR.get(t, 0, "PathRecServiceId") : null,
                    (mask & ComponentMask.PR_PKEY) != 0 ? wantPkey : null);
            if (sl < 0) {
                copy(t, r, mask, ComponentMask.PR_SL, "PathRecSL");
            } else if ((mask & ComponentMask.PR_SL) != 0 && PR.get(t, 0, "PathRecSL") != sl) {
                return null;   // as OpenSM: the policy's SL is the path's; another SL asked for has none
            } else {
                PR.set(r, 0, "PathRecSL", sl);
            }
        }
        // as OpenSM: no flow label; a hop limit only where a DGID was asked for (the path may leave the subnet)
        PR.set(r, 0, "PathRecHopLimit", (mask & ComponentMask.PR_DGID) != 0 ? 0xff : 0);
        PR.set(r, 0, "PathRecReversible", 1);
        PR.set(r, 0, "PathRecPKey", pkey);
        PR.set(r, 0, "PathRecMtuSelector", 2);
        PR.set(r, 0, "PathRecMtu", mtu);
        PR.set(r, 0, "PathRecRateSelector", 2);
        PR.set(r, 0, "PathRecRate", rate);
        PR.set(r, 0, "PathRecPktLifeSelector", 2);
        PR.set(r, 0, "PathRecPktLife", life);
        return r;
    }

    /** A GID's interface ID: the port GUID. */
    private static long guid(byte[] gid) {
        return java.nio.ByteBuffer.wrap(gid, 8, 8).getLong();
    }

    private static void copy(byte[] t, byte[] r, long mask, long bit, String field) {
        if ((mask & bit) != 0) {
            PR.set(r, 0, field, PR.get(t, 0, field));
        }
    }

    /**
     * The value a path answers under a selector: {@code have} is the best the path can do; -1 when it cannot
     * satisfy the query. Rates compare by the Gb/s their codes stand for.
     */
    static int select(long mask, long selBit, long valueBit, int selector, int want, int have, boolean rate) {
        if ((mask & valueBit) == 0) {
            return have;
        }
        int sel = (mask & selBit) != 0 ? selector : 2;
        double h = rate ? SaSnapshot.rateGbps(have) : have;
        double w = rate ? SaSnapshot.rateGbps(want) : want;
        return switch (sel) {
            case 0 -> h > w ? have : -1;
            case 1 -> h < w ? have : rate ? -1 : (want - 1 >= 1 ? Math.min(have, want - 1) : -1);
            case 2 -> h >= w ? want : -1;
            default -> have;
        };
    }
}
