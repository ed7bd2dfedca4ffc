package org.ibtwin.sm.sa;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.ibtwin.format.QosPolicyFile;
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
    /** The packet lifetime code answered where the QoS policy gives none: OpenSM's packet_life_time default. */
    private static final int PKT_LIFE = SaSnapshot.Group.DEFAULT_PKT_LIFE;

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
        QosPolicy.Qos qos = policy == null || s.lanes() > 1 ? QosPolicy.Qos.NONE : policy.path(s.qosPorts, src, dst,
                new QosPolicy.Query((mask & ComponentMask.PR_SERVICE_ID) != 0 ? PR.get(t, 0, "PathRecServiceId")
                        : null, (mask & ComponentMask.PR_PKEY) != 0 ? wantPkey : null,
                        (mask & ComponentMask.PR_QOS_CLASS) != 0 ? (int) PR.get(t, 0, "PathRecQosClass") : null));
        int pkey = pkey(s, src, dst, (mask & ComponentMask.PR_PKEY) != 0 ? wantPkey : -1, qos);
        if (pkey == 0) {
            return null;
        }
        int dlid = (mask & ComponentMask.PR_DLID) != 0 ? (int) PR.get(t, 0, "PathRecDLid") : s.lids().lid(dst);
        int slid = (mask & ComponentMask.PR_SLID) != 0 ? (int) PR.get(t, 0, "PathRecSLid") : s.lids().lid(src);
        SaSnapshot.Route route = s.route(src, dlid);
        if (route == null) {
            return null;
        }
        // the qos-level's limits: the MTU and rate at most its own, its packet lifetime
        int pathMtu = qos.mtuLimit() > 0 ? Math.min(route.mtu(), qos.mtuLimit()) : route.mtu();
        int pathRate = qos.rateLimit() > 0 && SaSnapshot.rateGbps(qos.rateLimit()) < SaSnapshot.rateGbps(route.rate())
                ? qos.rateLimit() : route.rate();
        int mtu = select(mask, ComponentMask.PR_MTU_SELECTOR, ComponentMask.PR_MTU,
                (int) PR.get(t, 0, "PathRecMtuSelector"), (int) PR.get(t, 0, "PathRecMtu"), pathMtu, false);
        int rate = select(mask, ComponentMask.PR_RATE_SELECTOR, ComponentMask.PR_RATE,
                (int) PR.get(t, 0, "PathRecRateSelector"), (int) PR.get(t, 0, "PathRecRate"), pathRate, true);
        int life = select(mask, ComponentMask.PR_PKT_LIFE_SELECTOR, ComponentMask.PR_PKT_LIFE,
                (int) PR.get(t, 0, "PathRecPktLifeSelector"), (int) PR.get(t, 0, "PathRecPktLife"),
                qos.packetLife() >= 0 ? qos.packetLife() : PKT_LIFE, false);
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
            int sl = qos.sl();
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

    /**
     * The path's P_Key (0: none): one both ends share, as asked for ({@code want}, -1: not asked) and, where the
     * qos-level names P_Keys, one of those; as OpenSM answers, the P_Key as the query or the level wrote it, else the
     * shared one with the full-member bit.
     */
    private static int pkey(SaSnapshot s, int src, int dst, int want, QosPolicy.Qos qos) {
        if (qos.pkeys().isEmpty()) {
            return want < 0 ? s.sharedPkey(src, dst, 0) : s.sharedPkey(src, dst, want) == 0 ? 0 : want;
        }
        if (want >= 0) {
            return QosPolicy.inPkey(qos.pkeys(), want) && s.sharedPkey(src, dst, want) != 0 ? want : 0;
        }
        for (QosPolicyFile.Range r : qos.pkeys()) {
            for (int k : s.pkeyTable(src)) {
                if ((k & 0x7fff) != 0 && QosPolicy.inPkey(List.of(r), k) && s.sharedPkey(src, dst, k & 0x7fff) != 0) {
                    return r.from() == r.to() ? (int) r.from() : k & 0x7fff | (int) r.from() & 0x8000;
                }
            }
        }
        return 0;
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
