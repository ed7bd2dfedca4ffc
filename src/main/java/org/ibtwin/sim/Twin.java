package org.ibtwin.sim;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import org.ibtwin.mad.Field;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.MgmtClasses;
import org.ibtwin.mad.SmpAttributes;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Link;
import org.ibtwin.model.LinkLayer;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.LinkWidth;
import org.ibtwin.model.Mtu;
import org.ibtwin.model.Node;
import org.ibtwin.model.NodeType;
import org.ibtwin.model.PhysState;
import org.ibtwin.model.Port;
import org.ibtwin.model.PortCounter;
import org.ibtwin.model.PortState;
import org.ibtwin.transport.MadAddress;

/**
 * The live twin of a {@link Fabric}: every node has an SMA and a PMA, every port a state machine, every switch
 * forwards by its linear forwarding table. Clients (an SM, tools, the ibsim endpoint) {@link #attach} at a port and
 * send MADs; the twin walks them through the fabric, answers them where they land and hands the answers back.
 *
 * <h2>Source of truth</h2>
 * The model is the twin's starting point and its static facts (names, GUIDs, device ids, cables). {@link #of} copies
 * the runtime state (LIDs, LMC, SM LID, port states, widths and speeds, MTU and VL caps, P_Keys, counters) into flat
 * arrays, and from then on the twin alone changes it; the model's {@link Port} objects keep their initial values
 * until {@link #syncModel()} writes the twin's state back into them (for the writers and summaries that read the
 * model). Nothing in the twin reads the model's runtime fields again, except the cable of a link when it trains.
 *
 * <h2>Threads</h2>
 * One lock: one MAD is processed at a time, from whichever thread sends it. Sinks are called from that thread while
 * the lock is held; a sink may send (its MAD is queued and processed once the current one is done) but must not
 * block. Every public method takes the lock.
 *
 * <h2>What it answers</h2>
 * The SMA ({@link Sma}): NodeInfo, NodeDescription, PortInfo, SwitchInfo, GUIDInfo, P_KeyTable, SLtoVLMappingTable,
 * VLArbitrationTable, LinearForwardingTable, MulticastForwardingTable and Mellanox ExtendedPortInfo, with M_Key
 * checks; SMInfo goes to the SM attached at the port (none: dropped, as ibsim drops it). The PMA ({@link Pma}):
 * ClassPortInfo, PortCounters, PortCountersExtended. SA and other GMP requests go to the SM attached at the
 * destination port. Forwarding: {@link Forwarding}. Where the specification and ibsim part, the twin follows the
 * specification: an attribute the node lacks is answered 0x0C (ibsim stays silent), a Set of a read-only attribute
 * 0x0C (ibsim: 0x08), LID-routed SMPs cross links in Init (ibsim wants Active), a directed route from a CA must
 * leave by the port the client sits at, and DrSLID/DrDLID LID-routed segments are walked (ibsim refuses them).
 * Where the model says nothing (capability masks, P_Key and GUID caps, switch port 0), it answers as ibsim does.
 *
 * <h2>Layout</h2>
 * Nodes are numbered in the model's order; every node has {@code numPorts + 1} port slots (slot 0 is a switch's
 * management port, unused on a CA), so a port's global index is {@code portBase[node] + number}. Hot state lives in
 * arrays indexed by that global index; each port also keeps a 64-byte PortInfo image for the fields only SMPs read
 * or write. Each switch has its LFT as a {@code byte[]} indexed by LID, grown in 64-entry blocks as they are set.
 */
public final class Twin {
    static final int PERMISSIVE = MadAddress.PERMISSIVE_LID;
    /** LIDs from here up are multicast (and the permissive LID). */
    static final int MULTICAST_BASE = 0xC000;
    /** IBA: at most 64 hops for a directed route; ibtwin also caps LID-routed walks there (an LFT loop). */
    static final int MAX_HOPS = 64;

    /**
     * PortXmitData / PortRcvData words per MAD crossing a link. A MAD on the wire is LRH 8 + BTH 12 + DETH 8 +
     * MAD 256 + ICRC 4 + VCRC 2 = 290 bytes between the delimiters (what the counters count), 72.5 words of 4
     * bytes; counted as 72, as ibsim counts it.
     */
    public static final int WORDS_PER_MAD = 72;

    // PortState and PortPhysicalState codes
    static final int DOWN = 1;
    static final int INIT = 2;
    static final int ARMED = 3;
    static final int ACTIVE = 4;
    static final int POLLING = 2;
    static final int DISABLED = 3;
    static final int LINK_UP = 5;

    // defaults this twin reports where the model says nothing (chosen to answer as ibsim does)
    static final int CA_PARTITION_CAP = 64;
    static final int SWITCH_PARTITION_CAP = 8;
    static final int SWITCH_PARTITION_ENFORCE_CAP = 64;
    static final int LINEAR_FDB_CAP = 0xC000;
    static final int MCAST_FDB_CAP = 1024;
    static final int VL_ARB_CAP = 8;
    static final int CA_GUID_CAP = 32;
    static final int CA_CAP_MASK = 0x0050c048;
    static final int SWITCH_CAP_MASK = 0x0000c048;
    /** CapabilityMask2 bits: IsLinkWidth2xSupported, IsLinkSpeedHDRSupported, IsLinkSpeedNDRSupported. */
    static final int CAP2_WIDTH_2X = 0x10;
    static final int CAP2_HDR = 0x20;
    static final int CAP2_NDR = 0x400;
    static final int CAP_IS_SM = 0x2;

    // PortCounters slots: PortCounter ordinals, then QP1Dropped
    static final int PC_SLOTS = PortCounter.values().length + 1;
    static final int PC_QP1_DROPPED = PortCounter.values().length;
    static final int PCX_SLOTS = ExtCounter.values().length;
    private static final long[] PC_MAX = new long[PC_SLOTS];

    static {
        for (PortCounter c : PortCounter.values()) {
            PC_MAX[c.ordinal()] = c.max();
        }
        PC_MAX[PC_QP1_DROPPED] = 0xffff;
    }

    final Fabric fabric;
    final ReentrantLock lock = new ReentrantLock();

    // ---- nodes
    final int nodeCount;
    final Node[] nodes;
    final byte[] nodeType;
    final int[] numPorts;
    final int[] portBase;
    final int[] swIndex;
    final byte[] nodeInfo;          // 40 bytes a node, PortGuid and LocalPort left 0
    final byte[] nodeDesc;          // 64 bytes a node
    private final Map<String, Integer> byName = new HashMap<>();
    private final Map<String, Integer> byDescription = new HashMap<>();

    // ---- ports
    final int portCount;
    final int[] portNode;
    final int[] remote;
    final Link[] link;
    final long[] portGuid;
    final int[] lid;
    final byte[] lmc;
    final byte[] state;
    final byte[] phys;
    final byte[] widthSup;
    final byte[] widthEn;
    final byte[] widthAct;          // LinkWidth ordinal + 1, 0 when down
    final short[] speedSup;
    final short[] speedEn;
    final byte[] speedAct;          // LinkSpeed ordinal + 1, 0 when down
    final boolean[] ethernet;
    final byte[] mlnxStateChangeEnable;
    final byte[] portInfo;          // 64 bytes a port
    final char[][] pkeys;           // null: the default table (0xFFFF at index 0)
    final int[] pc;                 // PC_SLOTS a port, unsigned, saturating at the field's width
    final long[] pcx;               // PCX_SLOTS a port, unsigned 64-bit, saturating
    final int[] portByLid = new int[MULTICAST_BASE];
    TwinAttachment[][] attached;

    // ---- switches
    final int switchCount;
    final int[] swNode;
    final byte[][] lft;
    final int[] lftTop;
    final byte[] switchInfo;        // 20 bytes a switch; LinearFDBTop and PortStateChange live apart
    final boolean[] portStateChange;
    final char[][] mft;

    // ---- sparse tables, written only by SMPs
    final Map<Long, Long> slToVl = new HashMap<>();
    final Map<Integer, byte[]> vlArb = new HashMap<>();
    final Map<Integer, long[]> guids = new HashMap<>();

    // ---- processing
    final byte[] work = new byte[256];
    private final ArrayDeque<Queued> queue = new ArrayDeque<>();
    private boolean draining;
    final long[] drops = new long[DropReason.values().length];
    long processed;
    long delivered;
    long sinkFailures;
    final Sma sma;
    final Pma pma;
    final Forwarding fwd;

    private record Queued(TwinAttachment from, byte[] mad, MadAddress to) {
    }

    private Twin(Fabric fabric) {
        this.fabric = fabric;
        List<Node> list = fabric.nodes();
        nodeCount = list.size();
        nodes = list.toArray(new Node[0]);
        nodeType = new byte[nodeCount];
        numPorts = new int[nodeCount];
        portBase = new int[nodeCount];
        swIndex = new int[nodeCount];
        nodeInfo = new byte[nodeCount * 40];
        nodeDesc = new byte[nodeCount * 64];
        int ports = 0;
        int switches = 0;
        for (int i = 0; i < nodeCount; i++) {
            Node n = nodes[i];
            nodeType[i] = (byte) n.type().code();
            numPorts[i] = n.numPorts();
            portBase[i] = ports;
            ports += n.numPorts() + 1;
            swIndex[i] = n.isSwitch() ? switches++ : -1;
            byName.putIfAbsent(n.name(), i);
            byDescription.putIfAbsent(n.description(), i);
        }
        portCount = ports;
        switchCount = switches;
        portNode = new int[ports];
        remote = new int[ports];
        link = new Link[ports];
        portGuid = new long[ports];
        lid = new int[ports];
        lmc = new byte[ports];
        state = new byte[ports];
        phys = new byte[ports];
        widthSup = new byte[ports];
        widthEn = new byte[ports];
        widthAct = new byte[ports];
        speedSup = new short[ports];
        speedEn = new short[ports];
        speedAct = new byte[ports];
        ethernet = new boolean[ports];
        mlnxStateChangeEnable = new byte[ports];
        portInfo = new byte[ports * 64];
        pkeys = new char[ports][];
        pc = new int[ports * PC_SLOTS];
        pcx = new long[ports * PCX_SLOTS];
        attached = new TwinAttachment[ports][];
        Arrays.fill(remote, -1);
        Arrays.fill(portByLid, -1);
        swNode = new int[switches];
        lft = new byte[switches][];
        lftTop = new int[switches];
        switchInfo = new byte[switches * 20];
        portStateChange = new boolean[switches];
        mft = new char[switches][];
        Map<Node, Integer> index = new HashMap<>();
        for (int i = 0; i < nodeCount; i++) {
            index.put(nodes[i], i);
        }
        for (int i = 0; i < nodeCount; i++) {
            initNode(i);
        }
        for (Link l : fabric.links()) {
            int a = portBase[index.get(l.a().node())] + l.a().number();
            int b = portBase[index.get(l.b().node())] + l.b().number();
            remote[a] = b;
            remote[b] = a;
            link[a] = l;
            link[b] = l;
        }
        for (int g = 0; g < ports; g++) {
            if (lid[g] != 0) {
                mapLid(g, 0, 0, lid[g], lmc[g]);
            }
            if (g != portBase[portNode[g]] && phys[g] == LINK_UP) {
                notePortChange(g);   // links came up since the switch was reset
            }
        }
        sma = new Sma(this);
        pma = new Pma(this);
        fwd = new Forwarding(this);
    }

    /** The twin of {@code fabric}, in the state the model describes (links trained as the model trained them). */
    public static Twin of(Fabric fabric) {
        return new Twin(Objects.requireNonNull(fabric, "fabric"));
    }

    // =====================================================================================================
    // initial state

    private static final Layout NI = SmpAttributes.NODE_INFO;
    private static final Layout PI = SmpAttributes.PORT_INFO;
    private static final Layout SI = SmpAttributes.SWITCH_INFO;

    private void initNode(int i) {
        Node n = nodes[i];
        boolean sw = n.isSwitch();
        int o = i * 40;
        NI.set(nodeInfo, o, "BaseVers", 1);
        NI.set(nodeInfo, o, "ClassVers", 1);
        NI.set(nodeInfo, o, "NodeType", n.type().code());
        NI.set(nodeInfo, o, "NumPorts", n.numPorts());
        NI.set(nodeInfo, o, "SystemGuid", n.systemImageGuid());
        NI.set(nodeInfo, o, "Guid", n.guid());
        NI.set(nodeInfo, o, "PartCap", sw ? SWITCH_PARTITION_CAP : CA_PARTITION_CAP);
        NI.set(nodeInfo, o, "DevId", n.deviceId());
        NI.set(nodeInfo, o, "Revision", n.revision() & 0xffffffffL);
        NI.set(nodeInfo, o, "VendorId", n.vendorId());
        byte[] d = n.description().getBytes(StandardCharsets.UTF_8);
        System.arraycopy(d, 0, nodeDesc, i * 64, Math.min(64, d.length));
        if (sw) {
            int s = swIndex[i];
            swNode[s] = i;
            lft[s] = new byte[0];
            int so = s * 20;
            SI.set(switchInfo, so, "LinearFdbCap", LINEAR_FDB_CAP);
            SI.set(switchInfo, so, "McastFdbCap", MCAST_FDB_CAP);
            SI.set(switchInfo, so, "PartEnforceCap", SWITCH_PARTITION_ENFORCE_CAP);
            SI.set(switchInfo, so, "FilterRawInbound", 1);
            SI.set(switchInfo, so, "FilterRawOutbound", 1);
            SI.set(switchInfo, so, "EnhancedPort0", n.enhancedPort0() ? 1 : 0);
        }
        for (int p = sw ? 0 : 1; p <= n.numPorts(); p++) {
            initPort(i, p, n.port(p));
        }
    }

    private void initPort(int node, int number, Port p) {
        int g = portBase[node] + number;
        boolean sw = nodeType[node] == NodeType.SWITCH.code();
        boolean port0 = sw && number == 0;
        boolean mgmt = !sw || port0;
        portNode[g] = node;
        portGuid[g] = p.guid();
        if (mgmt) {
            lid[g] = p.lid();
            lmc[g] = (byte) (port0 && !nodes[node].enhancedPort0() ? 0 : p.lmc());
        }
        if (port0) {
            // the management port has no link: it reports what ibsim's does
            state[g] = ACTIVE;
            phys[g] = LINK_UP;
            widthSup[g] = (byte) LinkWidth.upTo(LinkWidth.X12);
            widthEn[g] = (byte) LinkWidth.maskOf(LinkWidth.X4);
            widthAct[g] = (byte) (LinkWidth.X4.ordinal() + 1);
            speedSup[g] = (short) LinkSpeed.maskOf(LinkSpeed.SDR, LinkSpeed.DDR, LinkSpeed.QDR);
            speedEn[g] = (short) LinkSpeed.maskOf(LinkSpeed.SDR);
            speedAct[g] = (byte) (LinkSpeed.SDR.ordinal() + 1);
        } else {
            state[g] = (byte) p.state().code();
            phys[g] = (byte) p.physState().code();
            widthSup[g] = (byte) p.widthSupported();
            widthEn[g] = (byte) p.widthEnabled();
            speedSup[g] = (short) p.speedSupported();
            speedEn[g] = (short) p.speedEnabled();
            widthAct[g] = (byte) (p.widthActive() == null ? 0 : p.widthActive().ordinal() + 1);
            speedAct[g] = (byte) (p.speedActive() == null ? 0 : p.speedActive().ordinal() + 1);
            ethernet[g] = p.linkLayer() != LinkLayer.INFINIBAND;
        }
        int[] keys = p.pkeys();
        if (!(keys.length == 1 && keys[0] == 0xffff)) {
            char[] t = new char[pkeyCap(g)];
            for (int k = 0; k < Math.min(t.length, keys.length); k++) {
                t[k] = (char) keys[k];
            }
            pkeys[g] = t;
        }
        for (PortCounter c : PortCounter.values()) {
            long v = p.counter(c);
            if (v != 0) {
                pc[g * PC_SLOTS + c.ordinal()] = (int) Math.min(v, c.max());
            }
        }
        int o = g * 64;
        int mtuCap = port0 ? Mtu.MTU1024.code() : p.mtuCap().code();
        int vlCap = p.vlCap();
        if (mgmt) {
            PI.set(portInfo, o, "GidPrefix", 0xfe80000000000000L);
            PI.set(portInfo, o, "SMLid", p.smLid());
            PI.set(portInfo, o, "CapMask", p.capMask() != 0 ? p.capMask() : port0 ? SWITCH_CAP_MASK : CA_CAP_MASK);
            PI.set(portInfo, o, "MkeyLeasePeriod", 0xff9);
            PI.set(portInfo, o, "GuidCap", port0 ? 1 : CA_GUID_CAP);
            PI.set(portInfo, o, "SubnetTimeout", 0x1f);
            PI.set(portInfo, o, "RespTimeVal", port0 ? 8 : 0);
            PI.set(portInfo, o, "CapabilityMask2", p.capMask2() != 0 ? p.capMask2() : capMask2(node));
        }
        PI.set(portInfo, o, "LinkDownDefState", POLLING);
        PI.set(portInfo, o, "NeighborMTU", port0 ? Mtu.MTU256.code() : mtuCap);
        PI.set(portInfo, o, "VLCap", vlCap);
        PI.set(portInfo, o, "VLArbHighCap", VL_ARB_CAP);
        PI.set(portInfo, o, "VLArbLowCap", VL_ARB_CAP);
        PI.set(portInfo, o, "MtuCap", mtuCap);
        PI.set(portInfo, o, "VLStallCount", port0 ? 0 : 7);
        if (sw && !port0 && p.link() == null) {
            PI.set(portInfo, o, "LocalPhysErr", 4);   // what ibsim's template for an unlinked switch port says
        }
        PI.set(portInfo, o, "OperVLs", vlCap);
    }

    /** CapabilityMask2 from what the node's ports support: 2x width, HDR, NDR. */
    private int capMask2(int node) {
        int widths = 0;
        int speeds = 0;
        for (int p = 1; p <= numPorts[node]; p++) {
            Port mp = nodes[node].port(p);
            widths |= mp.widthSupported();
            speeds |= mp.speedSupported();
        }
        int cap = 0;
        if ((widths & (1 << LinkWidth.X2.ordinal())) != 0) {
            cap |= CAP2_WIDTH_2X;
        }
        if ((speeds & (1 << LinkSpeed.HDR.ordinal())) != 0) {
            cap |= CAP2_HDR;
        }
        if ((speeds & (1 << LinkSpeed.NDR.ordinal())) != 0) {
            cap |= CAP2_NDR;
        }
        return cap;
    }

    // =====================================================================================================
    // attachments

    /**
     * Attaches a client at a port, as a umad client opens its HCA port.
     *
     * @param nodeName the node's topology id ("S-0002c9…", "Hca1") or, failing that, its node description; null
     *                 for the default: the first CA (its port 1) or, in a fabric without CAs, the first switch
     * @param port     the port; 0 for the default: port 0 of a switch, port 1 of a CA or router
     * @throws IllegalArgumentException for an unknown node ("unknown node ...") or a port it does not have
     */
    public Attachment attach(String nodeName, int port) {
        lock.lock();
        try {
            int node = nodeName == null ? defaultNode() : nodeIndex(nodeName);
            boolean sw = isSwitch(node);
            int number = port == 0 ? (sw ? 0 : 1) : port;
            if (sw && number != 0) {
                throw new IllegalArgumentException("node \"" + nodes[node].name()
                        + "\" is a switch: clients attach at its port 0, not " + number);
            }
            if (number < 0 || number > numPorts[node]) {
                throw new IllegalArgumentException("node \"" + nodes[node].name() + "\" has no port " + number);
            }
            int g = portBase[node] + number;
            TwinAttachment a = new TwinAttachment(this, g);
            TwinAttachment[] at = attached[g];
            attached[g] = at == null ? new TwinAttachment[] {a} : append(at, a);
            return a;
        } finally {
            lock.unlock();
        }
    }

    /** {@link #attach(String, int) attach(nodeName, 0)}: what the ibsim endpoint's AttachPoint does. */
    public Attachment attach(String nodeName) {
        return attach(nodeName, 0);
    }

    private int defaultNode() {
        for (int i = 0; i < nodeCount; i++) {
            if (nodeType[i] != NodeType.SWITCH.code()) {
                return i;
            }
        }
        if (nodeCount == 0) {
            throw new IllegalArgumentException("unknown node: the fabric is empty");
        }
        return 0;
    }

    private int nodeIndex(String name) {
        Integer i = byName.get(name);
        if (i == null) {
            i = byDescription.get(name);
        }
        if (i == null) {
            throw new IllegalArgumentException("unknown node \"" + name + "\"");
        }
        return i;
    }

    private int globalPort(String nodeName, int port) {
        int node = nodeIndex(Objects.requireNonNull(nodeName, "nodeName"));
        if (port < (isSwitch(node) ? 0 : 1) || port > numPorts[node]) {
            throw new IllegalArgumentException("node \"" + nodeName + "\" has no port " + port);
        }
        return portBase[node] + port;
    }

    private static TwinAttachment[] append(TwinAttachment[] a, TwinAttachment x) {
        TwinAttachment[] b = Arrays.copyOf(a, a.length + 1);
        b[a.length] = x;
        return b;
    }

    void detach(TwinAttachment a) {
        lock.lock();
        try {
            if (a.detached) {
                return;
            }
            a.detached = true;
            TwinAttachment[] at = attached[a.gp];
            int k = 0;
            TwinAttachment[] rest = new TwinAttachment[at.length - 1];
            for (TwinAttachment x : at) {
                if (x != a) {
                    rest[k++] = x;
                }
            }
            attached[a.gp] = rest.length == 0 ? null : rest;
            if (a.isSm) {
                a.isSm = false;
                updateIsSm(a.gp);
            }
        } finally {
            lock.unlock();
        }
    }

    void setIsSm(TwinAttachment a, boolean sm) {
        lock.lock();
        try {
            if (!a.detached) {
                a.isSm = sm;
                updateIsSm(a.gp);
            }
        } finally {
            lock.unlock();
        }
    }

    private void updateIsSm(int g) {
        boolean any = false;
        TwinAttachment[] at = attached[g];
        if (at != null) {
            for (TwinAttachment x : at) {
                any |= x.isSm;
            }
        }
        long cap = PI.get(portInfo, g * 64, "CapMask");
        PI.set(portInfo, g * 64, "CapMask", any ? cap | CAP_IS_SM : cap & ~CAP_IS_SM);
    }

    /** The SM attachment at the port that takes MADs for {@code g} (a switch's port 0), or null. */
    TwinAttachment smAt(int g) {
        TwinAttachment[] at = attached[agentPort(g)];
        if (at != null) {
            for (TwinAttachment x : at) {
                if (x.isSm) {
                    return x;
                }
            }
        }
        return null;
    }

    /** The attachment at {@code g}'s agent port that should have the response with {@code tid}, or null. */
    TwinAttachment responder(int g, long tid) {
        TwinAttachment[] at = attached[agentPort(g)];
        if (at == null) {
            return null;
        }
        if (at.length == 1) {
            return at[0];
        }
        for (TwinAttachment x : at) {
            if (x.sentRecently(tid)) {
                return x;
            }
        }
        return at[0];
    }

    /** Where clients of the node at {@code g} sit: a switch's port 0, else the port itself. */
    int agentPort(int g) {
        int n = portNode[g];
        return isSwitch(n) ? portBase[n] : g;
    }

    // =====================================================================================================
    // processing

    /** A MAD an attachment sends: processed now, or queued when sent from inside a sink. */
    void submit(TwinAttachment a, byte[] mad, MadAddress to) {
        Objects.requireNonNull(mad, "mad");
        Objects.requireNonNull(to, "to");
        lock.lock();
        try {
            if (draining) {
                queue.add(new Queued(a, mad.clone(), to));
                return;
            }
            draining = true;
            try {
                process(a, mad, to);
                Queued q;
                while ((q = queue.poll()) != null) {
                    process(q.from, q.mad, q.to);
                }
            } finally {
                draining = false;
            }
        } finally {
            lock.unlock();
        }
    }

    private void process(TwinAttachment a, byte[] mad, MadAddress to) {
        processed++;
        if (a.detached) {
            drops[DropReason.DETACHED.ordinal()]++;
            return;
        }
        boolean ok;
        if (mad.length != 256 || mad[0] != 1) {
            ok = drop(DropReason.MALFORMED);
        } else {
            byte[] w = work;
            System.arraycopy(mad, 0, w, 0, 256);
            a.noteSent(w);
            int cls = w[1] & 0xff;
            ok = cls == MgmtClasses.SUBN_DIRECTED ? fwd.directed(a, w, to) : fwd.lidRouted(a, w, to, cls);
        }
        if (!ok) {
            MadSink s = a.sink;
            try {
                s.undeliverable(mad.clone(), to);
            } catch (RuntimeException e) {
                sinkFailures++;
            }
        }
    }

    /** Counts a drop; always false, so callers can {@code return drop(...)}. */
    boolean drop(DropReason r) {
        drops[r.ordinal()]++;
        return false;
    }

    /** As {@link #drop}, for callers returning a port index. */
    int dropPort(DropReason r) {
        drops[r.ordinal()]++;
        return -1;
    }

    /** Hands a copy of {@code w} to an attachment's sink. */
    void deliver(TwinAttachment a, byte[] w, MadAddress from) {
        delivered++;
        byte[] copy = Arrays.copyOf(w, 256);
        try {
            a.sink.receive(copy, from);
        } catch (RuntimeException e) {
            sinkFailures++;
        }
    }

    // =====================================================================================================
    // state helpers used by the agents and forwarding

    boolean isSwitch(int node) {
        return swIndex[node] >= 0;
    }

    int portNumber(int g) {
        return g - portBase[portNode[g]];
    }

    /** Whether {@code dlid} lies in the LID range of {@code g} (its LID and LMC). */
    boolean inRange(int g, int dlid) {
        int base = lid[g];
        return base != 0 && dlid >= base && dlid < base + (1 << lmc[g]);
    }

    /** The P_Key table length of a port: NodeInfo PartitionCap, or SwitchInfo PartitionEnforcementCap on a
     * switch's external ports. */
    int pkeyCap(int g) {
        int n = portNode[g];
        if (isSwitch(n)) {
            return g == portBase[n] ? SWITCH_PARTITION_CAP : SWITCH_PARTITION_ENFORCE_CAP;
        }
        return CA_PARTITION_CAP;
    }

    int pkey(int g, int index) {
        char[] t = pkeys[g];
        if (t == null) {
            return index == 0 ? 0xffff : 0;
        }
        return index < t.length ? t[index] : 0;
    }

    /** Moves a port's LID range in the LID index. */
    void setLid(int g, int newLid, int newLmc) {
        int oldLid = lid[g];
        int oldLmc = lmc[g];
        if (oldLid == newLid && oldLmc == newLmc) {
            return;
        }
        lid[g] = newLid;
        lmc[g] = (byte) newLmc;
        mapLid(g, oldLid, oldLmc, newLid, newLmc);
    }

    private void mapLid(int g, int oldLid, int oldLmc, int newLid, int newLmc) {
        if (oldLid != 0) {
            for (int l = oldLid; l < Math.min(MULTICAST_BASE, oldLid + (1 << oldLmc)); l++) {
                if (portByLid[l] == g) {
                    portByLid[l] = -1;
                }
            }
        }
        if (newLid != 0) {
            for (int l = newLid; l < Math.min(MULTICAST_BASE, newLid + (1 << newLmc)); l++) {
                portByLid[l] = g;
            }
        }
    }

    /** Adds to a PortCounters slot, saturating at the field's width. */
    void addPc(int g, int slot, long delta) {
        int i = g * PC_SLOTS + slot;
        long v = Integer.toUnsignedLong(pc[i]) + delta;
        pc[i] = (int) Math.min(v, PC_MAX[slot]);
    }

    long pcValue(int g, int slot) {
        return Integer.toUnsignedLong(pc[g * PC_SLOTS + slot]);
    }

    static long pcMax(int slot) {
        return PC_MAX[slot];
    }

    /** Adds to a PortCountersExtended counter, saturating at 2^64-1. */
    void addPcx(int g, int slot, long delta) {
        int i = g * PCX_SLOTS + slot;
        long v = pcx[i] + delta;
        pcx[i] = Long.compareUnsigned(v, pcx[i]) < 0 ? -1L : v;
    }

    /** Counts one MAD leaving {@code out} and arriving at {@code in}. */
    void countCrossing(int out, int in) {
        addPc(out, PortCounter.XMIT_PKTS.ordinal(), 1);
        addPc(out, PortCounter.XMIT_DATA.ordinal(), WORDS_PER_MAD);
        addPcx(out, ExtCounter.XMIT_PKTS.ordinal(), 1);
        addPcx(out, ExtCounter.XMIT_DATA.ordinal(), WORDS_PER_MAD);
        addPcx(out, ExtCounter.UNICAST_XMIT_PKTS.ordinal(), 1);
        addPc(in, PortCounter.RCV_PKTS.ordinal(), 1);
        addPc(in, PortCounter.RCV_DATA.ordinal(), WORDS_PER_MAD);
        addPcx(in, ExtCounter.RCV_PKTS.ordinal(), 1);
        addPcx(in, ExtCounter.RCV_DATA.ordinal(), WORDS_PER_MAD);
        addPcx(in, ExtCounter.UNICAST_RCV_PKTS.ordinal(), 1);
    }

    // =====================================================================================================
    // link events

    /**
     * Trains the link at {@code g} again, as hardware does after a state change: the widest width and fastest
     * speed both ports support and enable and the cable carries. Both ports come up LinkUp/Init, or go (stay)
     * Down/Polling; a disabled end stays Disabled. The switches at either end note a port state change unless
     * {@code quietAt} is the port whose own Set caused it.
     */
    void train(int g, int quietAt) {
        int r = remote[g];
        if (r < 0) {
            linkLost(g, -1, false, quietAt);
            return;
        }
        Link l = link[g];
        int widths = widthSup[g] & widthEn[g] & widthSup[r] & widthEn[r] & LinkWidth.upTo(l.cable().maxWidth());
        int speeds = speedSup[g] & speedEn[g] & speedSup[r] & speedEn[r];
        int cableSpeeds = 0;
        for (LinkSpeed s : LinkSpeed.values()) {
            if (s.compareTo(l.cable().maxSpeed()) <= 0) {
                cableSpeeds |= 1 << s.ordinal();
            }
        }
        LinkWidth w = LinkWidth.widest(widths);
        LinkSpeed s = LinkSpeed.highest(speeds & cableSpeeds);
        boolean up = w != null && s != null && !ethernet[g] && !ethernet[r] && phys[g] != DISABLED
                && phys[r] != DISABLED;
        if (!up) {
            linkLost(g, r, false, quietAt);
            return;
        }
        for (int p : new int[] {g, r}) {
            widthAct[p] = (byte) (w.ordinal() + 1);
            speedAct[p] = (byte) (s.ordinal() + 1);
            phys[p] = LINK_UP;
            state[p] = INIT;
            if (p != quietAt) {
                notePortChange(p);
            }
        }
    }

    /** Both ends of a link go Down; each end polls unless disabled. */
    void linkLost(int g, int r, boolean countDowned, int quietAt) {
        for (int p : new int[] {g, r}) {
            if (p < 0) {
                continue;
            }
            boolean wasUp = phys[p] == LINK_UP;
            widthAct[p] = 0;
            speedAct[p] = 0;
            state[p] = DOWN;
            if (phys[p] != DISABLED) {
                phys[p] = POLLING;
            }
            if (wasUp && countDowned) {
                addPc(p, PortCounter.LINK_DOWNED.ordinal(), 1);
            }
            if (wasUp && p != quietAt) {
                notePortChange(p);
            }
        }
    }

    private void notePortChange(int g) {
        int s = swIndex[portNode[g]];
        if (s >= 0) {
            portStateChange[s] = true;
        }
    }

    /**
     * The cable at a port is pulled, or the port fails: both ends go Down/Polling and count LinkDowned; the
     * switches note a port state change.
     */
    public void linkDown(String nodeName, int port) {
        lock.lock();
        try {
            int g = physicalPort(nodeName, port);
            linkLost(g, remote[g], true, -1);
        } finally {
            lock.unlock();
        }
    }

    /** The link at a port trains again (a replugged cable, a port re-enabled): both ends LinkUp/Init if it can. */
    public void linkUp(String nodeName, int port) {
        lock.lock();
        try {
            int g = physicalPort(nodeName, port);
            if (phys[g] == DISABLED) {
                phys[g] = POLLING;
            }
            if (remote[g] >= 0 && phys[remote[g]] == DISABLED) {
                phys[remote[g]] = POLLING;
            }
            if (phys[g] != LINK_UP) {
                train(g, -1);
            }
        } finally {
            lock.unlock();
        }
    }

    private int physicalPort(String nodeName, int port) {
        int g = globalPort(nodeName, port);
        if (port == 0) {
            throw new IllegalArgumentException("port 0 of \"" + nodeName + "\" has no link");
        }
        return g;
    }

    // =====================================================================================================
    // inspection and faults

    public Fabric fabric() {
        return fabric;
    }

    public int nodeCount() {
        return nodeCount;
    }

    public int switchCount() {
        return switchCount;
    }

    /** Port slots: every node's ports plus one (port 0). */
    public int portSlots() {
        return portCount;
    }

    /** The port's LID (a switch's LID is its port 0's). */
    public int lid(String nodeName, int port) {
        lock.lock();
        try {
            return lid[globalPort(nodeName, port)];
        } finally {
            lock.unlock();
        }
    }

    public int lmc(String nodeName, int port) {
        lock.lock();
        try {
            return lmc[globalPort(nodeName, port)];
        } finally {
            lock.unlock();
        }
    }

    public PortState portState(String nodeName, int port) {
        lock.lock();
        try {
            return PortState.ofCode(state[globalPort(nodeName, port)]);
        } finally {
            lock.unlock();
        }
    }

    public PhysState physState(String nodeName, int port) {
        lock.lock();
        try {
            return PhysState.ofCode(phys[globalPort(nodeName, port)]);
        } finally {
            lock.unlock();
        }
    }

    /** The trained width of a port's link, null when down. */
    public LinkWidth activeWidth(String nodeName, int port) {
        lock.lock();
        try {
            return PortCodes.width(widthAct[globalPort(nodeName, port)]);
        } finally {
            lock.unlock();
        }
    }

    /** The trained speed of a port's link, null when down. */
    public LinkSpeed activeSpeed(String nodeName, int port) {
        lock.lock();
        try {
            return PortCodes.speed(speedAct[globalPort(nodeName, port)]);
        } finally {
            lock.unlock();
        }
    }

    /** The model port whose LID range holds {@code lid}, or null. */
    public Port portAtLid(int lid) {
        lock.lock();
        try {
            if (lid <= 0 || lid >= MULTICAST_BASE || portByLid[lid] < 0) {
                return null;
            }
            int g = portByLid[lid];
            return nodes[portNode[g]].port(portNumber(g));
        } finally {
            lock.unlock();
        }
    }

    /** A switch's LFT entry for {@code lid}: the egress port, 0xFF when unprogrammed. */
    public int lftEntry(String switchName, int lid) {
        lock.lock();
        try {
            int s = switchOf(switchName);
            byte[] t = lft[s];
            return lid >= 0 && lid < t.length ? t[lid] & 0xff : 0xff;
        } finally {
            lock.unlock();
        }
    }

    public int linearFdbTop(String switchName) {
        lock.lock();
        try {
            return lftTop[switchOf(switchName)];
        } finally {
            lock.unlock();
        }
    }

    private int switchOf(String name) {
        int node = nodeIndex(Objects.requireNonNull(name, "switchName"));
        if (!isSwitch(node)) {
            throw new IllegalArgumentException("node \"" + name + "\" is not a switch");
        }
        return swIndex[node];
    }

    /** A PortCounters counter of a port, as the PMA reports it. */
    public long counter(String nodeName, int port, PortCounter c) {
        lock.lock();
        try {
            return pcValue(globalPort(nodeName, port), c.ordinal());
        } finally {
            lock.unlock();
        }
    }

    /** Sets a PortCounters counter (a fault: symbol errors, link downed...), saturating at the field's width. */
    public void setCounter(String nodeName, int port, PortCounter c, long value) {
        lock.lock();
        try {
            int g = globalPort(nodeName, port);
            pc[g * PC_SLOTS + c.ordinal()] = (int) Math.min(Math.max(0, value), c.max());
        } finally {
            lock.unlock();
        }
    }

    /** Adds to a PortCounters counter, saturating. */
    public void addCounter(String nodeName, int port, PortCounter c, long delta) {
        lock.lock();
        try {
            addPc(globalPort(nodeName, port), c.ordinal(), Math.max(0, delta));
        } finally {
            lock.unlock();
        }
    }

    public long extendedCounter(String nodeName, int port, ExtCounter c) {
        lock.lock();
        try {
            return pcx[globalPort(nodeName, port) * PCX_SLOTS + c.ordinal()];
        } finally {
            lock.unlock();
        }
    }

    public void setExtendedCounter(String nodeName, int port, ExtCounter c, long value) {
        lock.lock();
        try {
            pcx[globalPort(nodeName, port) * PCX_SLOTS + c.ordinal()] = value;
        } finally {
            lock.unlock();
        }
    }

    /** MADs dropped for {@code reason}. */
    public long drops(DropReason reason) {
        lock.lock();
        try {
            return drops[reason.ordinal()];
        } finally {
            lock.unlock();
        }
    }

    /** MADs dropped, all reasons. */
    public long drops() {
        lock.lock();
        try {
            long t = 0;
            for (long d : drops) {
                t += d;
            }
            return t;
        } finally {
            lock.unlock();
        }
    }

    /** MADs the attachments sent. */
    public long processed() {
        lock.lock();
        try {
            return processed;
        } finally {
            lock.unlock();
        }
    }

    /** MADs handed to sinks. */
    public long delivered() {
        lock.lock();
        try {
            return delivered;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Writes the twin's runtime state back into the model's ports: LIDs, LMC, SM LID, port and physical states,
     * enabled widths and speeds, neighbour MTU (as the active MTU), P_Keys and the PortCounters counters. (The
     * trained width and speed stay as the model last trained them: only the model's links set those.)
     */
    public void syncModel() {
        lock.lock();
        try {
            for (int i = 0; i < nodeCount; i++) {
                Node n = nodes[i];
                boolean sw = isSwitch(i);
                for (int p = sw ? 0 : 1; p <= numPorts[i]; p++) {
                    int g = portBase[i] + p;
                    Port mp = n.port(p);
                    if (!sw || p == 0) {
                        mp.setLid(lid[g]);
                        mp.setLmc(lmc[g]);
                        mp.setSmLid((int) PI.get(portInfo, g * 64, "SMLid"));
                    }
                    if (!sw || p != 0) {
                        mp.setState(PortState.ofCode(state[g]));
                        mp.setPhysState(PhysState.ofCode(phys[g]));
                        mp.setWidths(widthSup[g] & 0xff, widthEn[g] & 0xff);
                        mp.setSpeeds(speedSup[g] & 0xffff, speedEn[g] & 0xffff);
                        mp.setMtuActive(Mtu.ofCode((int) PI.get(portInfo, g * 64, "NeighborMTU")));
                    }
                    int cap = pkeyCap(g);
                    int len = 0;
                    for (int k = 0; k < cap; k++) {
                        if (pkey(g, k) != 0) {
                            len = k + 1;
                        }
                    }
                    int[] keys = new int[Math.max(1, len)];
                    for (int k = 0; k < len; k++) {
                        keys[k] = pkey(g, k);
                    }
                    mp.setPkeys(keys);
                    for (PortCounter c : PortCounter.values()) {
                        mp.setCounter(c, pcValue(g, c.ordinal()));
                    }
                }
            }
        } finally {
            lock.unlock();
        }
    }

    // ---- attribute bytes for attachments

    byte[] nodeInfoOf(int g) {
        lock.lock();
        try {
            byte[] b = new byte[64];
            sma.renderNodeInfo(portNode[g], g, b, 0);
            return b;
        } finally {
            lock.unlock();
        }
    }

    byte[] portInfoOf(int g) {
        lock.lock();
        try {
            byte[] b = new byte[64];
            sma.renderPortInfo(g, b, 0, portNumber(g));
            return b;
        } finally {
            lock.unlock();
        }
    }

    int[] pkeysOf(int g) {
        lock.lock();
        try {
            int[] k = new int[pkeyCap(g)];
            for (int i = 0; i < k.length; i++) {
                k[i] = pkey(g, i);
            }
            return k;
        } finally {
            lock.unlock();
        }
    }

    static Field field(Layout l, String name) {
        return l.field(name);
    }

    @Override
    public String toString() {
        return "Twin(" + nodeCount + " nodes, " + switchCount + " switches)";
    }
}
