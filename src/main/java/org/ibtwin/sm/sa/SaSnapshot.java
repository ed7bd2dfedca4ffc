package org.ibtwin.sm.sa;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.ibtwin.mad.Field;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.SaAttributes;
import org.ibtwin.mad.SmpAttributes;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.LinkWidth;
import org.ibtwin.model.Partitions;
import org.ibtwin.sm.LidAssignment;
import org.ibtwin.sm.Topology;
import org.ibtwin.sm.routing.Lfts;
import org.ibtwin.sm.routing.RoutingCheck;

/**
 * What the SA answers from: the subnet as the SM's last heavy sweep left it. Immutable once built; the SM hands a
 * new one to the {@link SubnetAdministrator} after each sweep, so queries never see a sweep half done.
 *
 * <p>Its parts: the discovered subnet; the LIDs given out; the LFTs written (switch numbers as the topology's; null
 * when nothing was routed); each port slot's PortInfo as the port last answered it (null: none); each port slot's
 * P_Key table as written (null: the port's default, 0xffff alone); the IPoIB broadcast groups of the partitions; the
 * SM's LID.
 */
public final class SaSnapshot {
    /** The subnet prefix every GID here has. */
    public static final long GID_PREFIX = 0xfe80000000000000L;
    /** The default P_Key table of a port the SM did not program. */
    private static final int[] DEFAULT_PKEYS = Partitions.defaultTable();

    private static final Layout NR = SaAttributes.NODE_RECORD;
    private static final Layout PIR = SaAttributes.PORT_INFO_RECORD;
    private static final Layout LR = SaAttributes.LINK_RECORD;
    private static final Layout SWIR = SaAttributes.SWITCH_INFO_RECORD;
    private static final Layout LFTR = SaAttributes.LFT_RECORD;
    private static final Layout PKTR = SaAttributes.P_KEY_TABLE_RECORD;
    private static final Layout PI = SmpAttributes.PORT_INFO;
    private static final Field PI_MTU_CAP = PI.field("MtuCap");
    private static final Field PI_NEIGHBOR_MTU = PI.field("NeighborMTU");

    /**
     * One multicast group: the IPoIB broadcast group of a partition (created by the SM, kept while it has no
     * members), or a group created by a member's join (gone with its last member).
     *
     * @param mgid    16 bytes; an IPoIB broadcast group's is ff12:401b:&lt;pkey&gt;::ffff:ffff (RFC 4391)
     * @param pktLife the PacketLifeTime value (selector 2, exactly, as OpenSM answers)
     * @param sm      whether the SM created it (a partition's IPoIB broadcast group)
     */
    public record Group(byte[] mgid, int mlid, int pkey, int qkey, int mtu, int rate, int sl, int scope, int pktLife,
                        int tclass, int flowLabel, int hopLimit, boolean sm) {
        /** OpenSM's packet_life_time default (0x12), the broadcast groups' PacketLifeTime. */
        public static final int DEFAULT_PKT_LIFE = 0x12;

        /** The IPoIB broadcast group of P_Key {@code pkey} (full-member bit set), MLID {@code mlid}. */
        public static Group ipoibBroadcast(int pkey, int mlid, int mtu, int rate, int sl) {
            byte[] g = new byte[16];
            g[0] = (byte) 0xff;
            g[1] = 0x12;
            g[2] = 0x40;
            g[3] = 0x1b;
            g[4] = (byte) (pkey >> 8);
            g[5] = (byte) pkey;
            Arrays.fill(g, 12, 16, (byte) 0xff);
            return new Group(g, mlid, pkey, 0x0b1b, mtu, rate, sl, 2, DEFAULT_PKT_LIFE, 0, 0, 0, true);
        }

        /** The same group at another MLID. */
        public Group withMlid(int m) {
            return new Group(mgid, m, pkey, qkey, mtu, rate, sl, scope, pktLife, tclass, flowLabel, hopLimit, sm);
        }
    }

    private final Topology topology;
    private final LidAssignment lids;
    private final Lfts lfts;
    private final byte[][] portInfo;
    private final int[][] pkeys;
    private final List<Group> groups;
    private final int smLid;
    private final int[] byLid;
    private final RoutingCheck.Layers layers;

    public SaSnapshot(Topology topology, LidAssignment lids, Lfts lfts, byte[][] portInfo, int[][] pkeys,
                      List<Group> groups, int smLid) {
        this(topology, lids, lfts, RoutingCheck.Layers.ONE, portInfo, pkeys, groups, smLid);
    }

    /** With the virtual lane (the SL) the routing engine put each destination LID's routes on. */
    public SaSnapshot(Topology topology, LidAssignment lids, Lfts lfts, RoutingCheck.Layers layers, byte[][] portInfo,
                      int[][] pkeys, List<Group> groups, int smLid) {
        this.layers = layers == null ? RoutingCheck.Layers.ONE : layers;
        this.topology = Objects.requireNonNull(topology, "topology");
        this.lids = Objects.requireNonNull(lids, "lids");
        this.lfts = lfts;
        this.portInfo = portInfo;
        this.pkeys = pkeys;
        this.groups = List.copyOf(groups);
        this.smLid = smLid;
        this.byLid = byLid();
    }

    /**
     * The SL of the path from end port (slot) {@code src} to {@code dlid}: the lane the routing engine put it on (0
     * with one lane), found by the switch the path enters at.
     */
    public int pathSl(int src, int dlid) {
        Topology t = topology;
        int n = t.portNode(src);
        int sw = -1;
        if (t.isSwitch(n)) {
            sw = t.switchIndex(n);
        } else if (t.remote(src) >= 0) {
            sw = t.switchIndex(t.portNode(t.remote(src)));
        }
        return layers.of(sw, dlid);
    }

    /** The VLs the routes are spread over (1: every path on SL 0, any SL asked for is answered). */
    public int lanes() {
        return layers.count();
    }

    public Topology topology() {
        return topology;
    }

    public LidAssignment lids() {
        return lids;
    }

    public List<Group> groups() {
        return groups;
    }

    public int smLid() {
        return smLid;
    }

    /** The end port at each LID (-1: none): PathRecords look LIDs up per pair. */
    private int[] byLid() {
        int[] idx = new int[lids.maxLid() + 1];
        java.util.Arrays.fill(idx, -1);
        for (int g : topology.endPorts()) {
            int base = lids.lid(g);
            for (int l = base; base != 0 && l < base + (1 << lids.lmc(g)) && l < idx.length; l++) {
                idx[l] = g;
            }
        }
        return idx;
    }

    // ---- end ports and their LIDs

    /** The end ports with a LID, in LID order. */
    List<Integer> endPortsByLid() {
        List<Integer> out = new ArrayList<>();
        for (int g : topology.endPorts()) {
            if (lids.lid(g) != 0) {
                out.add(g);
            }
        }
        out.sort((a, b) -> Integer.compare(lids.lid(a), lids.lid(b)));
        return out;
    }

    /** The LID a port answers to: its own (end port) or its switch's port 0's. */
    int lidOf(int g) {
        Topology t = topology;
        int n = t.portNode(g);
        return t.isSwitch(n) ? lids.lid(t.port(n, 0)) : lids.lid(g);
    }

    /** The end port whose LID range holds {@code lid}, or -1. */
    int endPortByLid(int lid) {
        return lid > 0 && lid < byLid.length ? byLid[lid] : -1;
    }

    /** The end port with this port GUID (a switch's port 0 for its GUID), or -1. */
    int endPortByGuid(long guid) {
        for (int g : topology.endPorts()) {
            if (topology.portGuid(g) == guid && lids.lid(g) != 0) {
                return g;
            }
        }
        return -1;
    }

    /** A port's GID: the subnet prefix and its port GUID. */
    byte[] gid(int g) {
        byte[] gid = new byte[16];
        long p = GID_PREFIX;
        long guid = topology.portGuid(g);
        for (int i = 0; i < 8; i++) {
            gid[i] = (byte) (p >>> (56 - 8 * i));
            gid[8 + i] = (byte) (guid >>> (56 - 8 * i));
        }
        return gid;
    }

    /** A copy of the P_Key table of port slot {@code g}: as written, else the default. */
    public int[] pkeys(int g) {
        return pkeyTable(g).clone();
    }

    /** The port's P_Key table: as written, else the default. */
    int[] pkeyTable(int g) {
        int[] k = pkeys == null || g >= pkeys.length ? null : pkeys[g];
        return k == null ? DEFAULT_PKEYS : k;
    }

    /** The port's PortInfo as last read. */
    byte[] portInfoOf(int g) {
        byte[] pi = portInfo == null || g >= portInfo.length ? null : portInfo[g];
        return pi != null ? pi : topology.hasPortInfo(g) ? topology.portInfo(g) : null;
    }

    // ---- records

    /** The NodeRecords a requester at end port {@code requester} may see (one per end port with a LID). */
    List<byte[]> nodeRecords(int requester) {
        Topology t = topology;
        List<byte[]> out = new ArrayList<>();
        for (int g : endPortsByLid()) {
            if (!visible(requester, g)) {
                continue;
            }
            int n = t.portNode(g);
            byte[] r = new byte[NR.size()];
            NR.set(r, 0, "Lid", lids.lid(g));
            byte[] ni = t.nodeInfo(n);
            SmpAttributes.NODE_INFO.set(ni, 0, "PortGuid", t.portGuid(g));
            SmpAttributes.NODE_INFO.set(ni, 0, "LocalPort", t.portNumber(g));
            System.arraycopy(ni, 0, r, 4, ni.length);
            byte[] desc = t.description(n).getBytes(StandardCharsets.UTF_8);
            System.arraycopy(desc, 0, r, 44, Math.min(64, desc.length));
            out.add(r);
        }
        return out;
    }

    List<byte[]> portInfoRecords() {
        Topology t = topology;
        List<byte[]> out = new ArrayList<>();
        for (int g : portsByLid()) {
            byte[] pi = portInfoOf(g);
            if (pi == null) {
                continue;
            }
            byte[] r = new byte[PIR.size()];
            PIR.set(r, 0, "EndportLid", lidOf(g));
            PIR.set(r, 0, "PortNum", t.portNumber(g));
            System.arraycopy(pi, 0, r, 4, 64);
            out.add(r);
        }
        return out;
    }

    /** How many GUIDs the port holds (its PortInfo's GuidCap; 1 when unknown). */
    int guidCap(int g) {
        byte[] pi = portInfoOf(g);
        return pi == null ? 1 : Math.max(1, (int) SmpAttributes.PORT_INFO.get(pi, 0, "GuidCap"));
    }

    /**
     * The GUIDInfoRecords: for every end port with a LID (a CA port, a switch's port 0), in LID order, as many
     * blocks of eight GUIDs as its PortInfo's GuidCap holds; GUID 0 of block 0 is the port GUID, the others the
     * alias GUIDs {@code aliases} gives the port (by port GUID and index; 0 for none).
     */
    List<byte[]> guidInfoRecords(AliasGuids aliases) {
        Topology t = topology;
        Layout gir = SaAttributes.GUID_INFO_RECORD;
        List<byte[]> out = new ArrayList<>();
        for (int g : endPortsByLid()) {
            int cap = guidCap(g);
            long guid = t.portGuid(g);
            for (int block = 0; block < (cap + 7) / 8; block++) {
                byte[] r = new byte[gir.size()];
                gir.set(r, 0, "Lid", lids.lid(g));
                gir.set(r, 0, "BlockNum", block);
                long[] guids = aliases.block(guid, block);
                for (int i = 0; i < 8; i++) {
                    gir.set(r, 0, "Guid" + i, block * 8 + i < cap ? guids[i] : 0);
                }
                out.add(r);
            }
        }
        return out;
    }

    /** Every port that answers to a LID (CA ports with one, every port of a switch with one), by LID and port. */
    private List<Integer> portsByLid() {
        Topology t = topology;
        List<Integer> out = new ArrayList<>();
        for (int g : endPortsByLid()) {
            int n = t.portNode(g);
            if (t.isSwitch(n)) {
                for (int p = 0; p <= t.numPorts(n); p++) {
                    out.add(t.port(n, p));
                }
            } else {
                out.add(g);
            }
        }
        return out;
    }

    List<byte[]> linkRecords() {
        Topology t = topology;
        List<byte[]> out = new ArrayList<>();
        for (int g : portsByLid()) {
            int r = t.remote(g);
            if (r < 0 || lidOf(r) == 0) {
                continue;
            }
            byte[] rec = new byte[LR.size()];
            LR.set(rec, 0, "FromLID", lidOf(g));
            LR.set(rec, 0, "FromPort", t.portNumber(g));
            LR.set(rec, 0, "ToPort", t.portNumber(r));
            LR.set(rec, 0, "ToLID", lidOf(r));
            out.add(rec);
        }
        return out;
    }

    List<byte[]> switchInfoRecords() {
        Topology t = topology;
        List<byte[]> out = new ArrayList<>();
        for (int g : endPortsByLid()) {
            int n = t.portNode(g);
            int s = t.switchIndex(n);
            if (s < 0) {
                continue;
            }
            byte[] r = new byte[SWIR.size()];
            SWIR.set(r, 0, "Lid", lids.lid(g));
            byte[] si = t.switchInfo(s);
            System.arraycopy(si, 0, r, 4, Math.min(si.length, 20));
            if (lfts != null) {
                SWIR.set(r, 0, "LinearFdbTop", lfts.top());
            }
            out.add(r);
        }
        return out;
    }

    List<byte[]> lftRecords() {
        Topology t = topology;
        List<byte[]> out = new ArrayList<>();
        if (lfts == null) {
            return out;
        }
        for (int g : endPortsByLid()) {
            int s = t.switchIndex(t.portNode(g));
            if (s < 0 || s >= lfts.switches()) {
                continue;
            }
            byte[] table = lfts.table(s);
            for (int b = 0; b < Lfts.blocks(lfts.top()); b++) {
                byte[] r = new byte[LFTR.size()];
                LFTR.set(r, 0, "Lid", lids.lid(g));
                LFTR.set(r, 0, "BlockNum", b);
                System.arraycopy(table, b * 64, r, 8, 64);
                out.add(r);
            }
        }
        return out;
    }

    List<byte[]> pkeyTableRecords() {
        Topology t = topology;
        List<byte[]> out = new ArrayList<>();
        for (int g : portsByLid()) {
            int[] keys = pkeyTable(g);
            int blocks = Math.max(1, (keys.length + 31) / 32);
            for (int b = 0; b < blocks; b++) {
                byte[] r = new byte[PKTR.size()];
                PKTR.set(r, 0, "Lid", lidOf(g));
                PKTR.set(r, 0, "BlockNum", b);
                PKTR.set(r, 0, "PortNum", t.portNumber(g));
                for (int i = 0; i < 32 && b * 32 + i < keys.length; i++) {
                    int k = keys[b * 32 + i];
                    r[8 + 2 * i] = (byte) (k >> 8);
                    r[9 + 2 * i] = (byte) k;
                }
                out.add(r);
            }
        }
        return out;
    }

    // ---- paths

    /** One route's figures: the MTU and rate (IBA codes) the whole way can carry, and its switch hops. */
    record Route(int mtu, int rate, int hops) {
    }

    /** The route the LFTs give from end port {@code src} to {@code dlid}, or null when there is none. */
    Route route(int src, int dlid) {
        Topology t = topology;
        int mtu = portMtu(src, -1);
        double gbps = gbps(src);
        int dst = endPortByLid(dlid);
        if (dst < 0) {
            return null;
        }
        if (dst == src) {
            return new Route(mtu, rateCode(gbps), 0);
        }
        int cur = src;
        int n = t.portNode(src);
        int hops = 0;
        if (!t.isSwitch(n)) {
            int r = t.remote(src);
            if (r < 0) {
                return null;
            }
            mtu = Math.min(mtu, portMtu(src, r));
            gbps = Math.min(gbps, gbps(r));
            if (r == dst) {
                return new Route(mtu, rateCode(gbps), 0);
            }
            cur = r;
            n = t.portNode(r);
        }
        while (hops < 64) {
            int s = t.switchIndex(n);
            if (s < 0 || lfts == null || s >= lfts.switches()) {
                return null;
            }
            hops++;
            int e = lfts.port(s, dlid);
            if (e == 0) {
                // a switch's port 0 ends the path: its MTU too, as OpenSM counts it
                return t.port(n, 0) == dst ? new Route(Math.min(mtu, mtuOf(dst)), rateCode(gbps), hops) : null;
            }
            if (e == Lfts.NO_ROUTE || e > t.numPorts(n)) {
                return null;
            }
            int out = t.port(n, e);
            int r = t.remote(out);
            if (r < 0) {
                return null;
            }
            mtu = Math.min(mtu, portMtu(out, r));
            gbps = Math.min(gbps, Math.min(gbps(out), gbps(r)));
            if (r == dst) {
                return new Route(mtu, rateCode(gbps), hops);
            }
            cur = r;
            n = t.portNode(cur);
        }
        return null;
    }

    /** The MTU code a link (or a lone port, {@code r} &lt; 0) carries: both ends' caps and NeighborMTUs. */
    private int portMtu(int g, int r) {
        int m = mtuOf(g);
        return r < 0 ? m : Math.min(m, mtuOf(r));
    }

    private int mtuOf(int g) {
        byte[] pi = portInfoOf(g);
        if (pi == null) {
            return 1;
        }
        int cap = (int) PI_MTU_CAP.get(pi, 0);
        // a switch's port 0 has no neighbour: its MTU capability alone
        int nb = topology.portNumber(g) == 0 ? 0 : (int) PI_NEIGHBOR_MTU.get(pi, 0);
        int m = nb == 0 ? cap : Math.min(cap, nb);
        return m == 0 ? 1 : m;
    }

    private double gbps(int g) {
        Topology t = topology;
        LinkWidth w = t.activeWidth(g);
        LinkSpeed s = t.activeSpeed(g);
        if (w == null || s == null) {
            int n = t.portNode(g);
            if (t.isSwitch(n) && t.portNumber(g) == 0) {
                return Double.MAX_VALUE;        // port 0 is not a link: it does not limit the path
            }
            return 2.5;
        }
        return w.lanes() * s.nominalGbps();
    }

    /** The IBA rate codes by the Gb/s they stand for (a code's index is the code). */
    private static final double[] RATE_GBPS = {0, 0, 2.5, 10, 30, 5, 20, 40, 60, 80, 120, 14, 56, 112, 168, 25, 100,
        200, 300, 28, 50, 400, 600, 800, 1200};

    /** The IBA rate code nearest {@code gbps}. */
    static int rateCode(double gbps) {
        int best = 2;
        for (int c = 2; c < RATE_GBPS.length; c++) {
            if (Math.abs(RATE_GBPS[c] - gbps) < Math.abs(RATE_GBPS[best] - gbps)) {
                best = c;
            }
        }
        return best;
    }

    /** A rate code's Gb/s (0 for an unknown code), for comparing rates under selectors. */
    static double rateGbps(int code) {
        return code >= 0 && code < RATE_GBPS.length ? RATE_GBPS[code] : 0;
    }

    /**
     * The P_Key two ports share, as a path between them uses it: the first partition of {@code src}'s table that
     * {@code dst} also has, with at least one of the two a full member ({@link Partitions#shared}), with the
     * full-member bit; {@code want} (when not 0) picks that partition alone. 0 when they share none.
     */
    int sharedPkey(int src, int dst, int want) {
        int base = Partitions.shared(pkeyTable(src), pkeyTable(dst), want);
        return base == 0 ? 0 : base | Partitions.FULL;
    }

    /**
     * Whether a requester at end port {@code requester} may see port {@code g}, as OpenSM's SA decides it for
     * NodeRecords and PathRecords: the same port, or two that can talk through a partition.
     */
    boolean visible(int requester, int g) {
        return requester == g || Partitions.canTalk(pkeyTable(requester), pkeyTable(g));
    }

    /** The end ports' facts a QoS policy's port groups ask for. */
    final QosPolicy.Ports qosPorts = new QosPolicy.Ports() {
        @Override
        public long guid(int port) {
            return topology.portGuid(port);
        }

        @Override
        public org.ibtwin.model.NodeType nodeType(int port) {
            return topology.nodeType(topology.portNode(port));
        }

        @Override
        public String nodeDescription(int port) {
            return topology.description(topology.portNode(port));
        }

        @Override
        public int portNumber(int port) {
            return topology.portNumber(port);
        }

        @Override
        public boolean self(int port) {
            return port == topology.smPort();
        }

        @Override
        public int[] pkeys(int port) {
            return pkeyTable(port);
        }
    };

    /** Whether port {@code g} has P_Key {@code pkey} (either membership) in its table: its entry, or 0. */
    int sharedPkeyWithGroup(int g, int pkey) {
        return Partitions.entry(pkeyTable(g), pkey);
    }
}
