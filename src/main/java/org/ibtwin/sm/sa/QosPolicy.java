package org.ibtwin.sm.sa;

import java.util.List;
import org.ibtwin.format.QosPolicyFile;
import org.ibtwin.format.QosPolicyFile.Range;
import org.ibtwin.format.QosPolicyFile.UlpRule;

/**
 * The SL a PathRecord gets from a QoS policy file ({@link QosPolicyFile}): the first qos-ulps rule that matches, in
 * the file's order, else the ULPs' {@code default}, else the qos-level named {@code DEFAULT}, else none (-1: the
 * SA answers as without a policy). The ULPs stand for service IDs as OpenSM defines them: {@code sdp} the SDP port
 * space 0x10000-0x1FFFF ({@code port-num p}: 0x10000 + p); {@code rds} and {@code iser} a port of the RDMA CM TCP
 * port space, 0x1060000 + port: RDS's 18634 (0x10648CA) and iSER's 3260 (0x1060CBC), or {@code port-num}'s;
 * {@code ipoib} the Default partition's P_Key 0x7FFF ({@code pkey}: those), {@code srp} the target's port GUID. A
 * service-id or P_Key rule matches a query that gives one (in its component mask); P_Keys compare without the
 * membership bit. As real OpenSM answers with the same file ({@code QosPolicyInteropTest}).
 */
public final class QosPolicy {
    static final long SDP_BASE = 0x10000L;
    static final long RDMA_CM_TCP_BASE = 0x1060000L;
    static final int ISER_PORT = 3260;
    static final int RDS_PORT = 18634;
    static final int DEFAULT_PKEY = 0x7fff;

    private final List<UlpRule> rules;
    private final int defaultSl;

    private QosPolicy(List<UlpRule> rules, int defaultSl) {
        this.rules = rules;
        this.defaultSl = defaultSl;
    }

    public static QosPolicy of(QosPolicyFile f) {
        int dflt = -1;
        for (QosPolicyFile.Level l : f.levels()) {
            if (l.name().equals("DEFAULT") && l.sl() >= 0) {
                dflt = l.sl();
            }
        }
        List<UlpRule> rules = new java.util.ArrayList<>();
        boolean ulpDefault = false;
        for (UlpRule r : f.ulps()) {
            if (r.ulp() == QosPolicyFile.Ulp.DEFAULT) {
                if (!ulpDefault) {
                    dflt = r.sl();
                    ulpDefault = true;
                }
            } else {
                rules.add(r);
            }
        }
        return new QosPolicy(List.copyOf(rules), dflt);
    }

    /**
     * The SL for a path from port GUID {@code src} to {@code dst}, the query's service ID and P_Key where it gives
     * them (null otherwise); -1: the policy says nothing.
     */
    public int sl(long src, long dst, Long serviceId, Integer pkey) {
        for (UlpRule r : rules) {
            if (matches(r, src, dst, serviceId, pkey)) {
                return r.sl();
            }
        }
        return defaultSl;
    }

    private static boolean matches(UlpRule r, long src, long dst, Long sid, Integer pkey) {
        return switch (r.ulp()) {
            case ANY -> switch (r.criterion()) {
                case SERVICE_ID -> sid != null && in(r.values(), sid, 0);
                case PKEY -> pkey != null && inPkey(r.values(), pkey);
                case TARGET_PORT_GUID -> in(r.values(), dst, 0);
                case SOURCE_PORT_GUID -> in(r.values(), src, 0);
                case PORT_GUID -> in(r.values(), src, 0) || in(r.values(), dst, 0);
                default -> false;
            };
            case SDP -> sid != null && (r.values().isEmpty() ? sid >= SDP_BASE && sid <= SDP_BASE + 0xffff
                    : in(r.values(), sid, SDP_BASE));
            case RDS -> sid != null && (r.values().isEmpty() ? sid == RDMA_CM_TCP_BASE + RDS_PORT
                    : in(r.values(), sid, RDMA_CM_TCP_BASE));
            case ISER -> sid != null && (r.values().isEmpty() ? sid == RDMA_CM_TCP_BASE + ISER_PORT
                    : in(r.values(), sid, RDMA_CM_TCP_BASE));
            case SRP -> in(r.values(), dst, 0);
            case IPOIB -> pkey != null && (r.values().isEmpty() ? (pkey & 0x7fff) == DEFAULT_PKEY
                    : inPkey(r.values(), pkey));
            case DEFAULT -> true;
        };
    }

    /** Whether {@code v} is {@code base} plus a value in one of the ranges. */
    private static boolean in(List<Range> ranges, long v, long base) {
        for (Range r : ranges) {
            if (Long.compareUnsigned(v, base + r.from()) >= 0 && Long.compareUnsigned(v, base + r.to()) <= 0) {
                return true;
            }
        }
        return false;
    }

    private static boolean inPkey(List<Range> ranges, int pkey) {
        int p = pkey & 0x7fff;
        for (Range r : ranges) {
            if (p >= (r.from() & 0x7fff) && p <= (r.to() & 0x7fff)) {
                return true;
            }
        }
        return false;
    }
}
