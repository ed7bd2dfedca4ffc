package org.ibtwin.diag;

import java.util.HashMap;
import java.util.Map;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.PortId;
import org.ibtwin.mad.SmpAttributes;
import org.ibtwin.model.Cable;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Link;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.LinkWidth;
import org.ibtwin.model.Mtu;
import org.ibtwin.model.Node;
import org.ibtwin.model.NodeType;
import org.ibtwin.model.PhysState;
import org.ibtwin.model.Port;
import org.ibtwin.model.PortState;
import org.ibtwin.perf.LftRoutes;
import org.ibtwin.transport.MadTransport;

/**
 * The fabric as it is, learnt through MADs for the performance model: {@link NetDiscovery}'s scan (NodeInfo,
 * NodeDescription, SwitchInfo, every port's PortInfo) made into a model {@link Fabric} whose links run at the width
 * and speed their PortInfo says, whose ports carry the state, LID and neighbour MTU the SM set, and whose switches
 * forward by the linear forwarding tables they hold: {@link #forwarding()} reads the LFT block a destination needs,
 * the first time it is needed, and keeps it. P_Key tables are read the same way, per port, when first asked.
 *
 * <p>What MADs do not carry (PCIe, NUMA, IPoIB mode, cable lengths) the caller adds from a fabric description.
 */
public final class LiveModel {
    private final MadQuery q;
    private final Fabric fabric = new Fabric();
    private final Map<Node, byte[]> paths = new HashMap<>();
    private final Map<Node, Integer> fdbTop = new HashMap<>();
    private final Map<Node, byte[][]> blocks = new HashMap<>();
    private static final byte[] UNREADABLE = new byte[0];
    private final Map<Port, int[]> pkeys = new HashMap<>();
    private final boolean routed;
    private final long discoverySmps;
    private long lftReads;
    private long pkeyReads;

    private LiveModel(MadTransport t, NetFabric net) {
        this.q = new MadQuery(t).timeout(java.time.Duration.ofMillis(500)).attempts(2);
        this.discoverySmps = net.smps();
        Map<NetNode, Node> made = new HashMap<>();
        boolean anyTable = false;
        for (NetNode nn : net.nodesInDiscoveryOrder()) {
            NodeType type = nn.isSwitch() ? NodeType.SWITCH : nn.type() == NetNode.ROUTER ? NodeType.ROUTER
                    : NodeType.CA;
            String d = nn.description();
            Node n = new Node(type, nn.guid(), (nn.isSwitch() ? "S-" : "H-") + String.format("%016x", nn.guid()),
                    Math.max(1, nn.numPorts()));
            if (d != null && !d.isBlank()) {
                n.setDescription(d.strip());
            }
            n.setSystemImageGuid(nn.systemImageGuid());
            n.setIds(nn.vendorId(), nn.deviceId(), (int) nn.revision());
            fabric.add(n);
            made.put(nn, n);
            paths.put(n, nn.path());
            if (nn.isSwitch() && nn.switchInfo() != null) {
                int top = (int) SmpAttributes.SWITCH_INFO.get(nn.switchInfo(), 0, "LinearFdbTop");
                fdbTop.put(n, top);
                anyTable |= top > 0;
            }
            for (int p = nn.isSwitch() ? 0 : 1; p <= nn.numPorts(); p++) {
                NetPort np = nn.port(p);
                if (np == null || np.info() == null) {
                    continue;
                }
                Port port = n.port(p);
                port.setGuid(np.guid());
                if (p == 0 || !nn.isSwitch()) {
                    port.setLid(np.baseLid());
                    port.setLmc(np.lmc());
                }
                port.setCapMask((int) np.get(NetPort.CAP_MASK));
                Mtu cap = Mtu.ofCode((int) SmpAttributes.PORT_INFO.get(np.info(), 0, "MtuCap"));
                if (cap != null) {
                    port.setMtuCap(cap);
                }
            }
        }
        for (NetPort[] l : net.links()) {
            Port a = made.get(l[0].node()).port(l[0].number());
            Port b = made.get(l[1].node()).port(l[1].number());
            if (a == null || b == null || a.link() != null || b.link() != null) {
                continue;
            }
            link(a, b, l[0]);
            for (int i = 0; i < 2; i++) {
                NetPort np = l[i];
                Port x = i == 0 ? a : b;
                PortState s = PortState.ofCode(np.state());
                x.setState(s == null ? PortState.DOWN : s);
                PhysState ps = PhysState.ofCode(np.physState());
                if (ps != null) {
                    x.setPhysState(ps);
                }
                Mtu m = Mtu.ofCode((int) np.get(NetPort.MTU_ACTIVE));
                x.setMtuActive(m);
            }
        }
        this.routed = anyTable;
    }

    /**
     * Scans the fabric behind {@code t} (which the caller keeps open while routes are followed: LFT blocks and
     * P_Key tables are read through it as they are needed).
     *
     * @throws NetDiscovery.Failed when the scan cannot start
     */
    public static LiveModel discover(MadTransport t, NetDiscovery.Config cfg) {
        return new LiveModel(t, NetDiscovery.discover(t, cfg));
    }

    /** The two ports cabled at the width and speed the PortInfo of {@code seen} says the link runs at. */
    private void link(Port a, Port b, NetPort seen) {
        LinkWidth w = LinkWidth.ofCode(seen.widthActive());
        LinkSpeed s = activeSpeed(seen);
        if (w != null && s != null) {
            for (Port p : new Port[] {a, b}) {
                p.setWidths(1 << w.ordinal(), 1 << w.ordinal());
                p.setSpeeds(1 << s.ordinal(), 1 << s.ordinal());
            }
        }
        Link l = fabric.connect(a, b, Cable.UNRATED);
        if (w != null && s != null && (l.activeWidth() != w || l.activeSpeed() != s)) {
            l.setCable(Cable.UNRATED.withMaxSpeed(s).withMaxWidth(w));
        }
    }

    /** The active speed a port's PortInfo (and its extended speeds, and FDR10) say; null when none is known. */
    public static LinkSpeed activeSpeed(NetPort p) {
        int ext = p.speedExtActive();
        if (ext != 0) {
            for (LinkSpeed s : LinkSpeed.values()) {
                if (s.extSpeedCode() == ext || (ext == 32 && s == LinkSpeed.XDR)) {
                    return s;
                }
            }
        }
        if (p.fdr10()) {
            return LinkSpeed.FDR10;
        }
        for (LinkSpeed s : LinkSpeed.values()) {
            if (s.speedCode() == p.speedActive() && s.fdr10Code() == 0) {
                return s;
            }
        }
        return null;
    }

    public Fabric fabric() {
        return fabric;
    }

    /**
     * Whether an SM has routed the fabric: some switch holds a linear forwarding table (LinearFdbTop above 0). The
     * SM need not be there still ({@code opensm -o} routes and leaves).
     */
    public boolean routed() {
        return routed;
    }

    /** SMPs the scan took. */
    public long discoverySmps() {
        return discoverySmps;
    }

    /** LFT blocks read so far (each once). */
    public long lftBlocksRead() {
        return lftReads;
    }

    /** P_Key tables read so far. */
    public long pkeyTablesRead() {
        return pkeyReads;
    }

    /**
     * The switches' forwarding as their LFTs hold it, for {@link LftRoutes}: the egress port of the entry for the
     * destination's base LID, its block read the first time it is needed; 0xff (or a LID above LinearFdbTop, or a
     * block that cannot be read) is no entry.
     */
    public LftRoutes.Forwarding forwarding() {
        return (sw, dst) -> {
            int lid = dst.lid();
            Integer top = fdbTop.get(sw);
            if (lid <= 0 || top == null || lid > top) {
                return -1;
            }
            byte[] b = block(sw, lid / 64);
            return b == null ? -1 : b[lid % 64] & 0xff;
        };
    }

    /** A switch's LinearFDBTop as its SwitchInfo gave it (-1: not a switch of this scan). */
    public int linearFdbTop(Node sw) {
        Integer top = fdbTop.get(sw);
        return top == null ? -1 : top;
    }

    /**
     * A switch's LFT block {@code block} (64 egress ports, by LID), read the first time it is asked; null when it
     * cannot be read or lies above LinearFDBTop.
     */
    public byte[] lftBlock(Node sw, int block) {
        Integer top = fdbTop.get(sw);
        if (top == null || block < 0 || block > top / 64) {
            return null;
        }
        byte[] b = block(sw, block);
        return b == null ? null : b.clone();
    }

    private byte[] block(Node sw, int block) {
        byte[][] t = blocks.computeIfAbsent(sw, k -> new byte[fdbTop.get(k) / 64 + 1][]);
        if (t[block] == null) {
            try {
                t[block] = q.smpGet(PortId.directed(path(sw)), AttributeIds.LINEAR_FWD_TABLE, block);
            } catch (QueryException e) {
                t[block] = UNREADABLE;
            }
            lftReads++;
        }
        return t[block] == UNREADABLE ? null : t[block];
    }

    /**
     * A CA port's P_Key table (its first block: 32 entries, the keys a host's partitions use), read the first time
     * it is asked, through that port (a two-port CA's second port has a table of its own); entries with a zero key
     * left out. Null when it cannot be read.
     */
    public int[] pkeys(Port p) {
        if (pkeys.containsKey(p)) {
            return pkeys.get(p);
        }
        int[] keys = null;
        try {
            byte[] t = q.smpGet(PortId.directed(p.node().isSwitch() ? path(p.node()) : pathInto(p)),
                    AttributeIds.P_KEY_TABLE, p.node().isSwitch() ? (long) p.number() << 16 : 0);
            keys = new int[32];
            int n = 0;
            for (int i = 0; i < 32; i++) {
                int k = ((t[2 * i] & 0xff) << 8) | (t[2 * i + 1] & 0xff);
                if ((k & 0x7fff) != 0) {
                    keys[n++] = k;
                }
            }
            keys = java.util.Arrays.copyOf(keys, n);
        } catch (QueryException e) {
            keys = null;
        }
        pkeyReads++;
        pkeys.put(p, keys);
        return keys;
    }

    /**
     * Copies a fabric description's host facts and cables onto the nodes and links MADs showed, matched by node GUID,
     * else by host name (a cable only where it keeps the width and speed the link trained at).
     */
    public void addFacts(Fabric description) {
        Fabric live = fabric;
        Map<Long, Node> byGuid = new HashMap<>();
        Map<String, Node> byName = new HashMap<>();
        for (Node n : description.nodes()) {
            byGuid.put(n.guid(), n);
            byName.putIfAbsent(org.ibtwin.perf.Names.node(n), n);
        }
        Map<Node, Node> match = new HashMap<>();
        for (Node n : live.nodes()) {
            Node d = byGuid.get(n.guid());
            if (d == null || d.type() != n.type()) {
                d = byName.get(org.ibtwin.perf.Names.node(n));
            }
            if (d == null || d.type() != n.type()) {
                continue;
            }
            match.put(n, d);
            if (d.hostFacts() != null) {
                n.setHostFacts(d.hostFacts());
            }
        }
        for (Link l : live.links()) {
            Node da = match.get(l.a().node());
            Node db = match.get(l.b().node());
            if (da == null || db == null) {
                continue;
            }
            Port pa = da.port(l.a().number());
            if (pa == null || pa.link() == null || pa.remote() == null || pa.remote().node() != db
                    || pa.remote().number() != l.b().number()) {
                continue;
            }
            var before = l.cable();
            var width = l.activeWidth();
            var speed = l.activeSpeed();
            var states = new org.ibtwin.model.PortState[] {l.a().state(), l.b().state()};
            var phys = new org.ibtwin.model.PhysState[] {l.a().physState(), l.b().physState()};
            l.setCable(pa.link().cable());
            if (l.activeWidth() != width || l.activeSpeed() != speed) {
                l.setCable(before);
            }
            l.a().setState(states[0]);
            l.b().setState(states[1]);
            l.a().setPhysState(phys[0]);
            l.b().setPhysState(phys[1]);
        }
    }

    /**
     * A directed-route path that arrives at CA port {@code p} itself (a CA answers P_KeyTable for the port an SMP
     * enters by, IBA 14.2.5.7): through the switch port facing it; the node's own path when no switch faces it.
     */
    private int[] pathInto(Port p) {
        Port far = p.remote();
        if (far == null || !far.node().isSwitch() || !paths.containsKey(far.node())) {
            return path(p.node());
        }
        int[] sw = path(far.node());
        int[] out = java.util.Arrays.copyOf(sw, sw.length + 1);
        out[sw.length] = far.number();
        return out;
    }

    /** The directed-route path to a node as smpquery -D takes it (a leading 0, then the egress ports). */
    private int[] path(Node n) {
        byte[] p = paths.get(n);
        int[] out = new int[p.length + 1];
        for (int i = 0; i < p.length; i++) {
            out[i + 1] = p[i] & 0xff;
        }
        return out;
    }
}
