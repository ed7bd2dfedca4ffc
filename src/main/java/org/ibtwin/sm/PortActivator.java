package org.ibtwin.sm;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.Field;
import org.ibtwin.transport.SmpPipe;

/**
 * The port activator: writes each port's PortInfo so the subnet comes up, in two passes over the whole subnet, as
 * OpenSM arms every port before it activates any.
 * <ol>
 * <li>Every end port (CA and router ports, switch port 0s) gets its LID and LMC, the SM's LID (MasterSMLID), the
 *     subnet prefix (GidPrefix fe80::, as OpenSM's subnet_prefix) and the subnet timeout; every linked port still
 *     in Init gets NeighborMTU (the smaller MTU cap of the two ends) and OperationalVLs (the smaller VL cap, at
 *     most the configured maximum) and is moved to Armed, all in one SubnSet per port.</li>
 * <li>Every port now Armed is moved to Active.</li>
 * </ol>
 * With an M_Key configured ({@link #keys}), every end port also gets it, its protect bits and lease in that Set.
 * Ports already right are left alone, so a sweep over a subnet that is up sends nothing. So is an end port that
 * answered the last Set without a value it was given and still holds what it answered then (ibsim keeps no
 * SubnetTimeout: it answers 31 whatever is set): setting it again would change nothing. A CA port without a LID
 * (the LID space is full) is not armed, nor is the switch port facing it. Fields the SM does not mean to change go
 * out as "no change" (PortState, PortPhysicalState, LinkWidthEnabled, LinkSpeedEnabled and the extended speeds 0).
 */
final class PortActivator {
    private static final Field LID = Topology.PI_LID;
    private static final Field LMC = Topology.PI_LMC;
    private static final Field SM_LID = Topology.PI_SM_LID;
    private static final Field STATE = Topology.PI_STATE;
    private static final Field PHYS = Topology.PI_PHYS;
    private static final Field NEIGHBOR_MTU = Topology.PI_NEIGHBOR_MTU;
    private static final Field OPER_VLS = Topology.PI_OPER_VLS;
    private static final Field SUBNET_TIMEOUT = Topology.PI.field("SubnetTimeout");
    private static final Field VL_HIGH_LIMIT = Topology.PI.field("VLHighLimit");
    private static final Field GID_PREFIX = Topology.PI.field("GidPrefix");
    private static final Field MKEY = Topology.PI.field("Mkey");
    private static final Field PROTECT = Topology.PI.field("ProtectBits");
    private static final Field LEASE = Topology.PI.field("MkeyLeasePeriod");
    /** The subnet prefix set in every end port's GidPrefix (OpenSM's subnet_prefix default, fe80::/64). */
    static final long SUBNET_PREFIX = 0xfe80000000000000L;
    private static final Field[] NO_CHANGE = {Topology.PI_LWE, Topology.PI_LSE, Topology.PI_LSEE, Topology.PI_LSEE2};

    /**
     * What the passes did; {@code portInfo} is each port's PortInfo as its last answer gave it (as discovered when
     * nothing was set; null for ports without PortInfo), what the SA answers PortInfoRecords from.
     */
    record Result(int configured, int armed, int activated, int active, List<String> failures, long failedSets,
                  byte[][] portInfo, int unkept) {
    }

    /** The end-port fields the first pass sets, in the order of {@link #unkept}'s pairs. */
    private static final Field[] END_FIELDS = {LID, LMC, SM_LID, SUBNET_TIMEOUT, GID_PREFIX};
    /**
     * By end port GUID, for each of {@link #END_FIELDS}: the value last set that the port did not keep, and what it
     * answered instead ({@link Long#MIN_VALUE} twice: it kept it).
     */
    private final java.util.Map<Long, long[]> unkept = new java.util.HashMap<>();

    private final int maxOpVls;
    private final int subnetTimeout;
    private MKeys keys = MKeys.none();

    /** The M_Key, protect bits and lease to set on every end port from now on. */
    void keys(MKeys k) {
        this.keys = k;
    }

    /** PortInfo OperationalVLs' code for {@code lanes} data VLs: 1 VL0, 2 VL0-1, 3 VL0-3, 4 VL0-7, 5 VL0-14. */
    static int operationalVls(int lanes) {
        return lanes <= 1 ? 1 : lanes <= 2 ? 2 : lanes <= 4 ? 3 : lanes <= 8 ? 4 : 5;
    }

    PortActivator(int maxOpVls, int subnetTimeout) {
        this.maxOpVls = maxOpVls;
        this.subnetTimeout = subnetTimeout;
    }

    /**
     * Brings the ports up, with at least {@code lanes} data VLs operational where both ends' VLCap allows (the routing engine
     * spread its routes over that many).
     */
    Result activate(Topology t, LidAssignment lids, int smLid, SmpPipe pipe, int lanes) {
        return activate(t, lids, smLid, pipe, lanes, null);
    }

    /**
     * {@link #activate}, also setting PortInfo VLHighLimit to {@code highLimit}'s value for each port (QoS; a
     * negative value or a null function: left alone).
     */
    Result activate(Topology t, LidAssignment lids, int smLid, SmpPipe pipe, int lanes,
                    java.util.function.IntUnaryOperator highLimit) {
        int opVls = Math.max(maxOpVls, operationalVls(lanes));
        int slots = t.portSlots();
        byte[][] image = new byte[slots][];
        List<String> failures = new ArrayList<>();
        long[] failed = {0};
        int configured = 0;
        int armed = 0;
        int alreadyActive = 0;
        int unkeptPorts = 0;
        boolean[] toActivate = new boolean[slots];
        // pass 1: LIDs, MTU, VLs, Armed
        for (int g = 0; g < slots; g++) {
            if (!t.hasPortInfo(g)) {
                continue;
            }
            int n = t.portNode(g);
            int p = t.portNumber(g);
            boolean sw = t.isSwitch(n);
            boolean end = !sw || p == 0;
            byte[] pi = t.portInfo(g);
            boolean change = false;
            long[] want = end && lids.lid(g) != 0 ? new long[] {lids.lid(g), lids.lmc(g), smLid, subnetTimeout,
                    SUBNET_PREFIX} : null;
            if (want != null) {
                long[] notKept = unkept.get(t.portGuid(g));
                boolean differs = false;
                boolean skipped = false;
                for (int f = 0; f < END_FIELDS.length; f++) {
                    long now = END_FIELDS[f].get(pi, 0);
                    if (now == want[f]) {
                        continue;
                    }
                    if (notKept != null && notKept[2 * f] == want[f] && notKept[2 * f + 1] == now) {
                        skipped = true;
                    } else {
                        differs = true;
                    }
                }
                unkeptPorts += skipped && !differs ? 1 : 0;
                if (differs) {
                    GID_PREFIX.set(pi, 0, SUBNET_PREFIX);
                    LID.set(pi, 0, lids.lid(g));
                    LMC.set(pi, 0, lids.lmc(g));
                    SM_LID.set(pi, 0, smLid);
                    SUBNET_TIMEOUT.set(pi, 0, subnetTimeout);
                    change = true;
                }
            }
            if (end && keys.managed() && (MKEY.get(pi, 0) != keys.key() || PROTECT.get(pi, 0) != keys.protectBits()
                    || LEASE.get(pi, 0) != keys.leasePeriod())) {
                MKEY.set(pi, 0, keys.key());
                PROTECT.set(pi, 0, keys.protectBits());
                LEASE.set(pi, 0, keys.leasePeriod());
                change = true;
            }
            int limit = highLimit == null ? -1 : highLimit.applyAsInt(g);
            if (limit >= 0 && VL_HIGH_LIMIT.get(pi, 0) != limit) {
                VL_HIGH_LIMIT.set(pi, 0, limit);
                change = true;
            }
            int r = t.remote(g);
            int state = t.linkState(g);
            boolean bringUp = r >= 0 && p != 0 && ready(t, lids, g) && ready(t, lids, r);
            int newState = 0;
            if (bringUp && state == Topology.INIT) {
                NEIGHBOR_MTU.set(pi, 0, Math.min(t.mtuCap(g), t.mtuCap(r)));
                OPER_VLS.set(pi, 0, Math.min(opVls, Math.min(t.vlCap(g), t.vlCap(r))));
                newState = Topology.ARMED;
                change = true;
                armed++;
                toActivate[g] = true;
            } else if (bringUp && state == Topology.ARMED) {
                toActivate[g] = true;
            } else if (bringUp && state == Topology.ACTIVE) {
                alreadyActive++;
            }
            image[g] = pi;
            if (change) {
                configured++;
                final int port = g;
                send(t, pipe, g, pi, newState, reply -> {
                    if (reply.ok()) {
                        image[port] = reply.data();
                        if (want != null) {
                            remember(t.portGuid(port), want, image[port]);
                        }
                    } else {
                        toActivate[port] = false;
                        failed[0]++;
                        report(failures, "PortInfo Set (LID, MTU, VLs, Armed) on " + t.portName(port) + ": "
                                + reply.why());
                    }
                });
            }
        }
        pipe.drain();
        // pass 2: Active
        int activated = 0;
        for (int g = 0; g < slots; g++) {
            if (!toActivate[g]) {
                continue;
            }
            activated++;
            final int port = g;
            send(t, pipe, g, image[g], Topology.ACTIVE, reply -> {
                if (reply.ok()) {
                    image[port] = reply.data();
                } else {
                    failed[0]++;
                    report(failures, "PortInfo Set (Active) on " + t.portName(port) + ": " + reply.why());
                }
            });
        }
        pipe.drain();
        return new Result(configured, armed, activated, alreadyActive, failures, failed[0], image, unkeptPorts);
    }

    /** After a Set of {@code want} on end port {@code guid} answered {@code answer}: the values it did not keep. */
    private void remember(long guid, long[] want, byte[] answer) {
        long[] notKept = null;
        for (int f = 0; f < END_FIELDS.length; f++) {
            long got = END_FIELDS[f].get(answer, 0);
            if (got != want[f]) {
                if (notKept == null) {
                    notKept = new long[2 * END_FIELDS.length];
                    java.util.Arrays.fill(notKept, Long.MIN_VALUE);
                }
                notKept[2 * f] = want[f];
                notKept[2 * f + 1] = got;
            }
        }
        if (notKept == null) {
            unkept.remove(guid);
        } else {
            unkept.put(guid, notKept);
        }
    }

    /** Whether a linked port may be brought up: a switch port, or an end port that has a LID. */
    private static boolean ready(Topology t, LidAssignment lids, int g) {
        return t.isSwitch(t.portNode(g)) || lids.lid(g) != 0;
    }

    private static void send(Topology t, SmpPipe pipe, int g, byte[] image, int state, SmpPipe.Callback cb) {
        byte[] pi = image.clone();
        STATE.set(pi, 0, state);
        PHYS.set(pi, 0, 0);
        for (Field f : NO_CHANGE) {
            f.set(pi, 0, 0);
        }
        pipe.set(pathTo(t, g), AttributeIds.PORT_INFO, t.portNumber(g), pi, cb);
    }

    /**
     * The directed route an SMP for port {@code g} takes: a switch's by the switch's path; a CA port's through the
     * switch port facing it, so that the SMP arrives at the port it sets (a CA answers PortInfo for the port an SMP
     * came in by, and a CA's second port is not reached through its first); the SM's own port locally.
     */
    private static byte[] pathTo(Topology t, int g) {
        int n = t.portNode(g);
        int r = t.remote(g);
        if (t.isSwitch(n) || g == t.smPort() || r < 0 || !t.isSwitch(t.portNode(r))) {
            return t.path(n);
        }
        byte[] sp = t.path(t.portNode(r));
        byte[] path = Arrays.copyOf(sp, sp.length + 1);
        path[sp.length] = (byte) t.portNumber(r);
        return path;
    }

    private static void report(List<String> failures, String line) {
        if (failures.size() < 10) {
            failures.add(line);
        } else if (failures.size() == 10) {
            failures.add("(further failures not listed)");
        }
    }
}
