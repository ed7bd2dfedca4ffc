package org.ibtwin.sm.sa;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.ibtwin.format.FormatException;
import org.ibtwin.format.QosPolicyFile;
import org.ibtwin.format.QosPolicyFile.Level;
import org.ibtwin.format.QosPolicyFile.MatchRule;
import org.ibtwin.format.QosPolicyFile.PortGroup;
import org.ibtwin.format.QosPolicyFile.PortName;
import org.ibtwin.format.QosPolicyFile.Range;
import org.ibtwin.format.QosPolicyFile.UlpRule;
import org.ibtwin.model.NodeType;

/**
 * What a QoS policy file ({@link QosPolicyFile}) gives a PathRecord, in the order OpenSM applies it: the first
 * qos-match-rule the query matches gives its qos-level; else the first qos-ulps rule that matches gives its SL;
 * else the qos-level named {@code DEFAULT}; else the ULPs' {@code default} SL; else nothing ({@link Qos#NONE}: the
 * SA answers as without a policy). A match rule matches when the query meets every criterion it has: the source
 * (destination) port in one of its {@code source} ({@code destination}) port groups, and the service ID, P_Key and
 * QoS class given in the query's component mask and within its ranges. P_Keys compare without the membership bit.
 *
 * <p>The ULPs stand for service IDs as OpenSM defines them: {@code sdp} the SDP port space 0x10000-0x1FFFF
 * ({@code port-num p}: 0x10000 + p); {@code rds} and {@code iser} a port of the RDMA CM TCP port space, 0x1060000 +
 * port: RDS's 18634 (0x10648CA) and iSER's 3260 (0x1060CBC), or {@code port-num}'s; {@code ipoib} the Default
 * partition's P_Key 0x7FFF ({@code pkey}: those), {@code srp} the target's port GUID. As real OpenSM answers with
 * the same file ({@code QosPolicyInteropTest}).
 */
public final class QosPolicy {
    static final long SDP_BASE = 0x10000L;
    static final long RDMA_CM_TCP_BASE = 0x1060000L;
    static final int ISER_PORT = 3260;
    static final int RDS_PORT = 18634;
    static final int DEFAULT_PKEY = 0x7fff;

    /**
     * What the policy gives a path: its SL and the limits on it (-1, or empty: none).
     *
     * @param mtuLimit   the largest MTU code the path may have
     * @param rateLimit  the fastest rate code
     * @param packetLife the PacketLifeTime the path is answered with
     * @param pkeys      the P_Keys the path may use (the first one both ends share is the path's)
     * @param level      the qos-level's name (null: a ULP rule's SL)
     */
    public record Qos(int sl, int mtuLimit, int rateLimit, int packetLife, List<Range> pkeys, String level) {
        public static final Qos NONE = new Qos(-1, -1, -1, -1, List.of(), null);

        static Qos of(Level l) {
            return new Qos(l.sl(), l.mtuLimit(), l.rateLimit(), l.packetLife(), l.pkeys(), l.name());
        }

        static Qos sl(int sl) {
            return new Qos(sl, -1, -1, -1, List.of(), null);
        }
    }

    /** The facts of an end port (a slot) the port groups ask for. */
    public interface Ports {
        long guid(int port);

        NodeType nodeType(int port);

        /** The NodeDescription of the port's node. */
        String nodeDescription(int port);

        int portNumber(int port);

        /** Whether the port is the SM's own. */
        boolean self(int port);

        /** The port's P_Key table (0: an empty entry). */
        int[] pkeys(int port);
    }

    /** A query's service ID, P_Key and QoS class, each null when its component mask leaves it out. */
    public record Query(Long serviceId, Integer pkey, Integer qosClass) {
    }

    private final List<MatchRule> matchRules;
    private final Map<String, PortGroup> groups;
    private final Map<String, Qos> levels;
    private final Map<String, List<Integer>> partitionPkeys;
    private final List<UlpRule> ulps;
    private final Qos fallback;

    private QosPolicy(QosPolicyFile f, Map<String, List<Integer>> partitionPkeys) {
        this.matchRules = f.matchRules();
        this.groups = new HashMap<>();
        f.portGroups().forEach(g -> groups.put(g.name(), g));
        this.levels = new HashMap<>();
        f.levels().forEach(l -> levels.put(l.name(), Qos.of(l)));
        this.partitionPkeys = partitionPkeys;
        List<UlpRule> rules = new ArrayList<>();
        Qos ulpDefault = null;
        for (UlpRule r : f.ulps()) {
            if (r.ulp() != QosPolicyFile.Ulp.DEFAULT) {
                rules.add(r);
            } else if (ulpDefault == null) {
                ulpDefault = Qos.sl(r.sl());
            }
        }
        this.ulps = List.copyOf(rules);
        // as OpenSM: the DEFAULT qos-level, wherever the file has it, before the ULPs' default
        Qos dflt = levels.get("DEFAULT");
        this.fallback = dflt != null ? dflt : ulpDefault != null ? ulpDefault : Qos.NONE;
    }

    /** The policy with no partitions file: the one partition is Default (0x7FFF). */
    public static QosPolicy of(QosPolicyFile f) {
        return of(f, Map.of("Default", DEFAULT_PKEY));
    }

    /**
     * The policy, its port groups' {@code partition} names looked up in {@code partitions} (name to P_Key, as the
     * partitions file gives them): a name not there is a {@link FormatException} naming the line.
     */
    public static QosPolicy of(QosPolicyFile f, Map<String, Integer> partitions) {
        Map<String, List<Integer>> byGroup = new HashMap<>();
        for (PortGroup g : f.portGroups()) {
            List<Integer> keys = new ArrayList<>();
            for (String p : g.partitions()) {
                Integer k = partitions.get(p);
                if (k == null) {
                    throw new FormatException(f.file(), g.line(), "port-group " + g.name() + ": partition '" + p
                            + "' is not in the partitions file");
                }
                keys.add(k & 0x7fff);
            }
            byGroup.put(g.name(), List.copyOf(keys));
        }
        return new QosPolicy(f, byGroup);
    }

    /** What the policy gives the path from end port {@code src} to {@code dst} for query {@code q}. */
    public Qos path(Ports ports, int src, int dst, Query q) {
        for (MatchRule r : matchRules) {
            if (matches(r, ports, src, dst, q)) {
                return levels.get(r.level());
            }
        }
        for (UlpRule r : ulps) {
            if (matches(r, ports.guid(src), ports.guid(dst), q.serviceId(), q.pkey())) {
                return Qos.sl(r.sl());
            }
        }
        return fallback;
    }

    /**
     * The SL for a path from port GUID {@code src} to {@code dst}, the query's service ID and P_Key where it gives
     * them (null otherwise), by the qos-ulps rules and the defaults alone; -1: the policy says nothing.
     */
    public int sl(long src, long dst, Long serviceId, Integer pkey) {
        for (UlpRule r : ulps) {
            if (matches(r, src, dst, serviceId, pkey)) {
                return r.sl();
            }
        }
        return fallback.sl();
    }

    private boolean matches(MatchRule r, Ports ports, int src, int dst, Query q) {
        return (r.serviceIds().isEmpty() || q.serviceId() != null && Range.in(r.serviceIds(), q.serviceId(), 0))
                && (r.pkeys().isEmpty() || q.pkey() != null && inPkey(r.pkeys(), q.pkey()))
                && (r.qosClasses().isEmpty() || q.qosClass() != null && Range.in(r.qosClasses(), q.qosClass(), 0))
                && (r.sources().isEmpty() || inGroups(r.sources(), ports, src))
                && (r.destinations().isEmpty() || inGroups(r.destinations(), ports, dst));
    }

    private boolean inGroups(List<String> names, Ports ports, int port) {
        for (String n : names) {
            if (member(groups.get(n), partitionPkeys.get(n), ports, port)) {
                return true;
            }
        }
        return false;
    }

    /** Whether end port {@code port} is in port group {@code g}. */
    static boolean member(PortGroup g, List<Integer> partitionPkeys, Ports ports, int port) {
        if (Range.in(g.guids(), ports.guid(port), 0)) {
            return true;
        }
        for (QosPolicyFile.NodeType t : g.nodeTypes()) {
            if (t == QosPolicyFile.NodeType.ALL || (t == QosPolicyFile.NodeType.SELF ? ports.self(port)
                    : t.name().equals(ports.nodeType(port).name()))) {
                return true;
            }
        }
        for (PortName pn : g.portNames()) {
            if (pn.port() == ports.portNumber(port) && pn.node().equals(ports.nodeDescription(port))) {
                return true;
            }
        }
        for (int k : ports.pkeys(port)) {
            if ((k & 0x7fff) == 0) {
                continue;
            }
            if (inPkey(g.pkeys(), k) || partitionPkeys.contains(k & 0x7fff)) {
                return true;
            }
        }
        return false;
    }

    private static boolean matches(UlpRule r, long src, long dst, Long sid, Integer pkey) {
        return switch (r.ulp()) {
            case ANY -> switch (r.criterion()) {
                case SERVICE_ID -> sid != null && Range.in(r.values(), sid, 0);
                case PKEY -> pkey != null && inPkey(r.values(), pkey);
                case TARGET_PORT_GUID -> Range.in(r.values(), dst, 0);
                case SOURCE_PORT_GUID -> Range.in(r.values(), src, 0);
                case PORT_GUID -> Range.in(r.values(), src, 0) || Range.in(r.values(), dst, 0);
                default -> false;
            };
            case SDP -> sid != null && (r.values().isEmpty() ? sid >= SDP_BASE && sid <= SDP_BASE + 0xffff
                    : Range.in(r.values(), sid, SDP_BASE));
            case RDS -> sid != null && (r.values().isEmpty() ? sid == RDMA_CM_TCP_BASE + RDS_PORT
                    : Range.in(r.values(), sid, RDMA_CM_TCP_BASE));
            case ISER -> sid != null && (r.values().isEmpty() ? sid == RDMA_CM_TCP_BASE + ISER_PORT
                    : Range.in(r.values(), sid, RDMA_CM_TCP_BASE));
            case SRP -> Range.in(r.values(), dst, 0);
            case IPOIB -> pkey != null && (r.values().isEmpty() ? (pkey & 0x7fff) == DEFAULT_PKEY
                    : inPkey(r.values(), pkey));
            case DEFAULT -> true;
        };
    }

    /** Whether {@code pkey}, without its membership bit, is in one of the ranges (theirs taken off too). */
    static boolean inPkey(List<Range> ranges, int pkey) {
        int p = pkey & 0x7fff;
        for (Range r : ranges) {
            if (p >= (r.from() & 0x7fff) && p <= (r.to() & 0x7fff)) {
                return true;
            }
        }
        return false;
    }
}
