package org.ibtwin.sim;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.Field;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.Methods;
import org.ibtwin.mad.MgmtClasses;
import org.ibtwin.mad.SmpAttributes;
import org.ibtwin.model.Cable;
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
 * <h2>Traps and faults</h2>
 * Switches trap 128 when a link goes down or up by itself, ports trap 144 when their CapabilityMask changes; traps
 * repeat until repressed ({@link Traps}). Faults, for tests and the {@link Console}: {@link #linkDown},
 * {@link #linkUp}, {@link #flap}, {@link #unplug}, {@link #replug(String, int, org.ibtwin.model.Cable)},
 * {@link #link}, {@link #setCounter}, {@link #setDropRate(String, int, int, double)}, {@link #rebootSwitch},
 * {@link #setLinkLayer}, {@link #kill}, {@link #setCapabilityMask}. Where ibsim and hardware part, the twin follows
 * hardware: pulling a live cable counts LinkDowned at both ends (ibsim's Unlink counts nothing), and a drop rate
 * applies to every MAD a port receives, not only those its SMA answers.
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
    private final Map<String, Integer> byHost = new HashMap<>();

    // ---- ports
    final int portCount;
    final int[] portNode;
    final int[] remote;
    /** The cable at each port: of its link, or, once unplugged, of the link it had (what a ReLink puts back). */
    final Cable[] cable;
    /** The port a port was linked to before it was unplugged, or -1 (ibsim's previous_remotenode). */
    final int[] prevRemote;
    /** A port held down by a fault ({@link #linkDown}): its link does not train until {@link #linkUp}. */
    final boolean[] held;
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
    final byte[] widthEn0;          // the enabled masks at power-up (a rebooted switch comes back with them)
    final short[] speedEn0;
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
    final Traps traps;
    /** MAD drop rules set by fault injection; empty: nothing dropped by chance. */
    final DropRules dropRules = new DropRules();
    /** The clock traps are resent by (System.nanoTime, or a test's). */
    LongSupplier clock = System::nanoTime;
    /** Moves whenever data could take another way: a port's state or LID, a link, an LFT entry. */
    long forwardingVersion;
    /** Node indices by model node, for the data plane's inspection methods. */
    private final Map<Node, Integer> nodeIndexByNode;

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
            String d = n.description().strip();
            int sp = d.indexOf(' ');
            if (sp > 0) {
                byHost.putIfAbsent(d.substring(0, sp), i);
            }
        }
        portCount = ports;
        switchCount = switches;
        portNode = new int[ports];
        remote = new int[ports];
        cable = new Cable[ports];
        prevRemote = new int[ports];
        held = new boolean[ports];
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
        widthEn0 = new byte[ports];
        speedEn0 = new short[ports];
        ethernet = new boolean[ports];
        mlnxStateChangeEnable = new byte[ports];
        portInfo = new byte[ports * 64];
        pkeys = new char[ports][];
        pc = new int[ports * PC_SLOTS];
        pcx = new long[ports * PCX_SLOTS];
        attached = new TwinAttachment[ports][];
        Arrays.fill(remote, -1);
        Arrays.fill(prevRemote, -1);
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
        nodeIndexByNode = index;
        for (int i = 0; i < nodeCount; i++) {
            initNode(i);
        }
        for (Link l : fabric.links()) {
            int a = portBase[index.get(l.a().node())] + l.a().number();
            int b = portBase[index.get(l.b().node())] + l.b().number();
            remote[a] = b;
            remote[b] = a;
            cable[a] = l.cable();
            cable[b] = l.cable();
        }
        for (int g = 0; g < ports; g++) {
            if (lid[g] != 0) {
                mapLid(g, 0, 0, lid[g], lmc[g]);
            }
            int s = swIndex[portNode[g]];
            if (s >= 0 && g != portBase[portNode[g]] && phys[g] == LINK_UP) {
                portStateChange[s] = true;   // links came up since the switch was reset
            }
            widthEn0[g] = widthEn[g];
            speedEn0[g] = speedEn[g];
        }
        sma = new Sma(this);
        pma = new Pma(this);
        fwd = new Forwarding(this);
        traps = new Traps(this);
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
    static final Field PI_SM_LID = PI.field("SMLid");

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
            initSwitchInfo(i);
        }
        for (int p = sw ? 0 : 1; p <= n.numPorts(); p++) {
            initPort(i, p, n.port(p));
        }
    }

    /** SwitchInfo as at power-up (LinearFDBTop and PortStateChange live apart). */
    private void initSwitchInfo(int i) {
        int so = swIndex[i] * 20;
        SI.set(switchInfo, so, "LinearFdbCap", LINEAR_FDB_CAP);
        SI.set(switchInfo, so, "McastFdbCap", MCAST_FDB_CAP);
        SI.set(switchInfo, so, "PartEnforceCap", SWITCH_PARTITION_ENFORCE_CAP);
        SI.set(switchInfo, so, "FilterRawInbound", 1);
        SI.set(switchInfo, so, "FilterRawOutbound", 1);
        SI.set(switchInfo, so, "EnhancedPort0", nodes[i].enhancedPort0() ? 1 : 0);
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
        initPortInfo(node, number, p, p.smLid());
    }

    /** The PortInfo image of a port as at power-up (the runtime fields live apart), with {@code smLid}. */
    private void initPortInfo(int node, int number, Port p, int smLid) {
        int g = portBase[node] + number;
        boolean sw = isSwitch(node);
        boolean port0 = sw && number == 0;
        boolean mgmt = !sw || port0;
        int o = g * 64;
        int mtuCap = port0 ? Mtu.MTU1024.code() : p.mtuCap().code();
        int vlCap = p.vlCap();
        if (mgmt) {
            PI.set(portInfo, o, "GidPrefix", 0xfe80000000000000L);
            PI.set(portInfo, o, "SMLid", smLid);
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
     * @param nodeName the node's topology id ("S-0002c9…", "Hca1") or, failing that, its node description or host
     *                 name (the description's first word); null for the default: the first CA (its port 1) or, in
     *                 a fabric without CAs, the first switch
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

    /** The index of the node named so (topology id, description, host name). */
    int nodeIndexOf(String name) {
        lock.lock();
        try {
            return nodeIndex(name);
        } finally {
            lock.unlock();
        }
    }

    /** The cable at a port, or the one it had before it was unplugged; null if it never had one. */
    Cable lastCable(String nodeName, int port) {
        lock.lock();
        try {
            return cable[physicalPort(nodeName, port)];
        } finally {
            lock.unlock();
        }
    }

    private int nodeIndex(String name) {
        Integer i = byName.get(name);
        if (i == null) {
            i = byDescription.get(name);
        }
        if (i == null) {
            i = byHost.get(name);
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
            remove(a);
            if (a.isSm) {
                a.isSm = false;
                updateIsSm(a.gp);
                settle();
            }
        } finally {
            lock.unlock();
        }
    }

    private void remove(TwinAttachment a) {
        TwinAttachment[] at = attached[a.gp];
        int k = 0;
        TwinAttachment[] rest = new TwinAttachment[at.length - 1];
        for (TwinAttachment x : at) {
            if (x != a) {
                rest[k++] = x;
            }
        }
        attached[a.gp] = rest.length == 0 ? null : rest;
    }

    void setIsSm(TwinAttachment a, boolean sm) {
        lock.lock();
        try {
            if (!a.detached) {
                a.isSm = sm;
                updateIsSm(a.gp);
                settle();
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
        long now = any ? cap | CAP_IS_SM : cap & ~CAP_IS_SM;
        if (now != cap) {
            PI.set(portInfo, g * 64, "CapMask", now);
            traps.capabilityChanged(g);   // trap 144: IsSM set or cleared
        }
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
                drain();
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

    /** Hands {@code w} to an attachment's sink: a copy, unless the sink only borrows it for the call. */
    void deliver(TwinAttachment a, byte[] w, MadAddress from) {
        delivered++;
        MadSink sink = a.sink;
        byte[] mad = sink.borrows() && w.length == 256 ? w : Arrays.copyOf(w, 256);
        try {
            sink.receive(mad, from);
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
        forwardingVersion++;
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

    /** Re-counts a crossing {@link #countCrossing} counted as unicast as a multicast packet. */
    void countMulticast(int out, int in) {
        addPcx(out, ExtCounter.UNICAST_XMIT_PKTS.ordinal(), -1);
        addPcx(out, ExtCounter.MULTICAST_XMIT_PKTS.ordinal(), 1);
        addPcx(in, ExtCounter.UNICAST_RCV_PKTS.ordinal(), -1);
        addPcx(in, ExtCounter.MULTICAST_RCV_PKTS.ordinal(), 1);
    }

    // =====================================================================================================
    // link events

    /**
     * Trains the link at {@code g} again, as hardware does after a state change: the widest width and fastest
     * speed both ports support and enable and the cable carries. Both ports come up LinkUp/Init, or go (stay)
     * Down/Polling; a disabled end stays Disabled, and a port held down by a fault, unplugged or running Ethernet
     * keeps the link down. The switches at either end note a port state change (and trap) unless {@code quietAt}
     * is the port whose own Set caused it.
     */
    void train(int g, int quietAt) {
        int r = remote[g];
        if (r < 0) {
            linkLost(g, -1, false, quietAt);
            return;
        }
        Cable c = cable[g];
        int widths = widthSup[g] & widthEn[g] & widthSup[r] & widthEn[r] & LinkWidth.upTo(c.maxWidth());
        int speeds = speedSup[g] & speedEn[g] & speedSup[r] & speedEn[r] & cableSpeeds(c);
        LinkWidth w = LinkWidth.widest(widths);
        LinkSpeed s = LinkSpeed.highest(speeds);
        boolean up = w != null && s != null && !ethernet[g] && !ethernet[r] && phys[g] != DISABLED
                && phys[r] != DISABLED && !held[g] && !held[r];
        if (!up) {
            linkLost(g, r, false, quietAt);
            return;
        }
        forwardingVersion++;
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

    /** The speeds a cable carries: every one up to its rating. */
    private static int cableSpeeds(Cable c) {
        int m = 0;
        for (LinkSpeed s : LinkSpeed.values()) {
            if (s.compareTo(c.maxSpeed()) <= 0) {
                m |= 1 << s.ordinal();
            }
        }
        return m;
    }

    /** Both ends of a link go Down; each end polls unless disabled. */
    void linkLost(int g, int r, boolean countDowned, int quietAt) {
        forwardingVersion++;
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

    /**
     * A port changed state by itself (not by its own Set): a switch sets SwitchInfo PortStateChange and owes its SM
     * a trap 128; a CA port's change is the neighbouring switch's to report.
     */
    private void notePortChange(int g) {
        int n = portNode[g];
        int s = swIndex[n];
        if (s >= 0) {
            portStateChange[s] = true;
            traps.linkStateChanged(n);
        }
    }

    /**
     * After a fault, a capability change or a batch of MADs: sends the traps they raised (and those whose
     * timeout passed), then processes whatever the receivers sent back from their sinks. Inside a batch (a sink
     * calling in) the outer batch does it.
     */
    private void settle() {
        if (draining) {
            return;
        }
        draining = true;
        try {
            drain();
        } finally {
            draining = false;
        }
    }

    private void drain() {
        while (true) {
            Queued q;
            while ((q = queue.poll()) != null) {
                process(q.from, q.mad, q.to);
            }
            traps.flush();
            if (queue.isEmpty()) {
                return;
            }
        }
    }

    private int physicalPort(String nodeName, int port) {
        int g = globalPort(nodeName, port);
        if (port == 0) {
            throw new IllegalArgumentException("port 0 of \"" + nodeName + "\" has no link");
        }
        return g;
    }

    private int linkedPort(String nodeName, int port) {
        int g = physicalPort(nodeName, port);
        if (remote[g] < 0) {
            throw new IllegalArgumentException("port " + port + " of \"" + nodeName + "\" is not linked");
        }
        return g;
    }

    // =====================================================================================================
    // faults: links and cables

    /**
     * The port fails, or its cable does: both ends go Down/Polling, count LinkDowned (a link that was up), and the
     * switches on the link trap 128 to the SM. The port is held down until {@link #linkUp}: no PortInfo Set
     * brings it back.
     */
    public void linkDown(String nodeName, int port) {
        linkDown(nodeName, port, false);
    }

    /**
     * As {@link #linkDown(String, int)}; {@code disable}: this end goes Disabled instead of Polling, as
     * {@code ibportstate ... disable} leaves it (an SM's PortInfo Set of PortPhysicalState Polling enables it
     * again, but the fault's hold stays until {@link #linkUp}).
     */
    public void linkDown(String nodeName, int port, boolean disable) {
        lock.lock();
        try {
            int g = physicalPort(nodeName, port);
            held[g] = true;
            linkLost(g, remote[g], true, -1);
            if (disable) {
                phys[g] = DISABLED;
            }
            settle();
        } finally {
            lock.unlock();
        }
    }

    /**
     * The link at a port trains again (a fault cleared, a port re-enabled): both ends come up LinkUp/Init if they
     * can (the switches trap 128), or stay Polling.
     */
    public void linkUp(String nodeName, int port) {
        lock.lock();
        try {
            int g = physicalPort(nodeName, port);
            int r = remote[g];
            held[g] = false;
            if (phys[g] == DISABLED) {
                phys[g] = POLLING;
            }
            if (r >= 0) {
                held[r] = false;
                if (phys[r] == DISABLED) {
                    phys[r] = POLLING;
                }
            }
            if (phys[g] != LINK_UP) {
                train(g, -1);
            }
            settle();
        } finally {
            lock.unlock();
        }
    }

    /**
     * The link at a port goes down and comes back {@code times} times, as a marginal cable makes it: LinkDowned
     * counts each at both ends, and the link ends up trained again (Init: the SM must bring it to Active). The
     * switches trap 128 (one trap each until the SM represses it).
     *
     * @throws IllegalStateException when the link is not up
     */
    public void flap(String nodeName, int port, int times) {
        if (times < 1) {
            throw new IllegalArgumentException("flap count must be at least 1: " + times);
        }
        lock.lock();
        try {
            int g = linkedPort(nodeName, port);
            if (phys[g] != LINK_UP) {
                throw new IllegalStateException("the link at port " + port + " of \"" + nodeName
                        + "\" is down: nothing to flap");
            }
            for (int i = 0; i < times; i++) {
                linkLost(g, remote[g], true, -1);
                train(g, -1);
            }
            settle();
        } finally {
            lock.unlock();
        }
    }

    /**
     * The cable at a port is pulled out (ibsim's Unlink): both ends go Down/Polling with no neighbour, count
     * LinkDowned if the link was up, and the switches trap 128. The twin remembers the pair and the cable for
     * {@link #replug}.
     */
    public void unplug(String nodeName, int port) {
        lock.lock();
        try {
            int g = linkedPort(nodeName, port);
            unplug(g);
            settle();
        } finally {
            lock.unlock();
        }
    }

    private void unplug(int g) {
        int r = remote[g];
        linkLost(g, r, true, -1);
        remote[g] = -1;
        remote[r] = -1;
        prevRemote[g] = r;
        prevRemote[r] = g;
    }

    /** Unplugs every linked port of a node (ibsim's Unlink of a whole node); returns how many. */
    public int unplugAll(String nodeName) {
        lock.lock();
        try {
            int n = nodeIndex(Objects.requireNonNull(nodeName, "nodeName"));
            int count = 0;
            for (int p = 1; p <= numPorts[n]; p++) {
                int g = portBase[n] + p;
                if (remote[g] >= 0) {
                    unplug(g);
                    count++;
                }
            }
            settle();
            return count;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Plugs back every cable pulled from a node's ports whose other end is still free (ibsim's ReLink of a whole
     * node); returns how many.
     */
    public int replugAll(String nodeName) {
        lock.lock();
        try {
            int n = nodeIndex(Objects.requireNonNull(nodeName, "nodeName"));
            int count = 0;
            for (int p = 1; p <= numPorts[n]; p++) {
                int g = portBase[n] + p;
                int r = prevRemote[g];
                if (remote[g] < 0 && r >= 0 && remote[r] < 0) {
                    connect(g, r, cable[g]);
                    count++;
                }
            }
            return count;
        } finally {
            lock.unlock();
        }
    }

    /** Plugs the cable pulled from a port back in (ibsim's ReLink): the link trains again, as it did before. */
    public LinkStatus replug(String nodeName, int port) {
        return replug(nodeName, port, null);
    }

    /**
     * Plugs a cable back between a port and the port it was linked to, {@code with} in place of the old one (null:
     * the old one); a port still linked has its cable pulled first (a cable swap). The link trains again: a cable
     * rated below what both ports could do brings it up degraded; one nothing fits leaves it down.
     *
     * @return how it trained
     */
    public LinkStatus replug(String nodeName, int port, Cable with) {
        lock.lock();
        try {
            int g = physicalPort(nodeName, port);
            if (remote[g] >= 0) {
                if (with == null) {
                    throw new IllegalArgumentException("port " + port + " of \"" + nodeName + "\" is linked");
                }
                unplug(g);
            }
            int r = prevRemote[g];
            if (r < 0) {
                throw new IllegalArgumentException("port " + port + " of \"" + nodeName
                        + "\" has no previous link to restore");
            }
            if (remote[r] >= 0) {
                throw new IllegalArgumentException("port " + port + " of \"" + nodeName + "\" was linked to "
                        + portName(r) + ", which is linked to " + portName(remote[r]) + " now");
            }
            connect(g, r, with != null ? with : cable[g]);
            return status(g);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Cables two free ports together (ibsim's Link); the link trains.
     *
     * @param with the cable; null: the cable last seen at the first port, else {@link Cable#UNRATED}
     */
    public LinkStatus link(String nodeA, int portA, String nodeB, int portB, Cable with) {
        lock.lock();
        try {
            int a = physicalPort(nodeA, portA);
            int b = physicalPort(nodeB, portB);
            if (a == b) {
                throw new IllegalArgumentException("a port cannot be linked to itself: " + portName(a));
            }
            for (int g : new int[] {a, b}) {
                if (remote[g] >= 0) {
                    throw new IllegalArgumentException(portName(g) + " is already linked to "
                            + portName(remote[g]));
                }
            }
            Cable c = with != null ? with : cable[a] != null ? cable[a] : Cable.UNRATED;
            connect(a, b, c);
            return status(a);
        } finally {
            lock.unlock();
        }
    }

    private void connect(int g, int r, Cable c) {
        remote[g] = r;
        remote[r] = g;
        cable[g] = c;
        cable[r] = c;
        prevRemote[g] = -1;
        prevRemote[r] = -1;
        train(g, -1);
        settle();
    }

    /** "S-0002c9…"[3]: a port as ibsim names it. */
    String portName(int g) {
        return "\"" + nodes[portNode[g]].name() + "\"[" + portNumber(g) + "]";
    }

    /** How the link at a port trained, what it could do, its cable and the port at its other end. */
    public LinkStatus linkStatus(String nodeName, int port) {
        return locked(() -> status(physicalPort(nodeName, port)));
    }

    private LinkStatus status(int g) {
        int r = remote[g];
        LinkWidth capW = null;
        LinkSpeed capS = null;
        String rn = null;
        int rp = 0;
        if (r >= 0) {
            capW = LinkWidth.widest(widthSup[g] & widthEn[g] & widthSup[r] & widthEn[r]);
            capS = LinkSpeed.highest(speedSup[g] & speedEn[g] & speedSup[r] & speedEn[r]);
            rn = nodes[portNode[r]].name();
            rp = portNumber(r);
        }
        return new LinkStatus(PortCodes.width(widthAct[g]), PortCodes.speed(speedAct[g]), capW, capS,
                r >= 0 ? cable[g] : null, rn, rp);
    }

    /**
     * A port's link layer changes (mlxconfig LINK_TYPE): to Ethernet the link goes down (LinkDowned counted, the
     * switch traps 128) and stays down, both ends Polling, as an IB switch sees an Ethernet port; back to
     * InfiniBand it trains again.
     */
    public void setLinkLayer(String nodeName, int port, LinkLayer layer) {
        Objects.requireNonNull(layer, "layer");
        lock.lock();
        try {
            int g = physicalPort(nodeName, port);
            boolean eth = layer != LinkLayer.INFINIBAND;
            if (ethernet[g] == eth) {
                return;
            }
            ethernet[g] = eth;
            if (eth) {
                linkLost(g, remote[g], true, -1);
            } else if (phys[g] != LINK_UP) {
                train(g, -1);
            }
            settle();
        } finally {
            lock.unlock();
        }
    }

    public LinkLayer linkLayer(String nodeName, int port) {
        return locked(() -> ethernet[physicalPort(nodeName, port)] ? LinkLayer.ETHERNET : LinkLayer.INFINIBAND);
    }

    // =====================================================================================================
    // faults: nodes, SMs, MADs

    /**
     * A switch reboots (power cycle, firmware reset): everything the SM programmed is lost: LID and SM LID (0),
     * M_Key, LFT and LinearFDBTop, MFT, P_Keys, SL-to-VL and VL arbitration tables, enabled widths and speeds as
     * at power-up, PMA counters at 0, pending traps. Its links drop (the neighbours count LinkDowned and their
     * switches trap 128) and train again (Init); PortStateChange is set. Without a LID and an SM LID the rebooted
     * switch itself sends no trap: the SM finds it on its next sweep, or by the neighbours' traps.
     */
    public void rebootSwitch(String switchName) {
        lock.lock();
        try {
            int s = switchOf(switchName);
            int n = swNode[s];
            int base = portBase[n];
            for (int p = 1; p <= numPorts[n]; p++) {
                int g = base + p;
                if (phys[g] == LINK_UP) {
                    linkLost(g, remote[g], true, -1);
                }
            }
            traps.forget(n);
            lft[s] = new byte[0];
            lftTop[s] = 0;
            mft[s] = null;
            Arrays.fill(switchInfo, s * 20, s * 20 + 20, (byte) 0);
            initSwitchInfo(n);
            portStateChange[s] = true;
            guids.remove(base);
            slToVl.keySet().removeIf(k -> (k >>> 16) == base);
            for (int p = 0; p <= numPorts[n]; p++) {
                int g = base + p;
                pkeys[g] = null;
                vlArb.remove(g);
                mlnxStateChangeEnable[g] = 0;
                Arrays.fill(pc, g * PC_SLOTS, (g + 1) * PC_SLOTS, 0);
                Arrays.fill(pcx, g * PCX_SLOTS, (g + 1) * PCX_SLOTS, 0);
                Arrays.fill(portInfo, g * 64, g * 64 + 64, (byte) 0);
                initPortInfo(n, p, nodes[n].port(p), 0);
                if (p != 0) {
                    widthEn[g] = widthEn0[g];
                    speedEn[g] = speedEn0[g];
                    state[g] = DOWN;
                    phys[g] = POLLING;
                }
            }
            setLid(base, 0, 0);
            updateIsSm(base);
            for (int p = 1; p <= numPorts[n]; p++) {
                int g = base + p;
                if (remote[g] >= 0 && phys[g] != LINK_UP) {
                    train(g, -1);
                }
            }
            settle();
        } finally {
            lock.unlock();
        }
    }

    /** The SM attachments (those that set IsSM), in port order. */
    public List<Attachment> smAttachments() {
        lock.lock();
        try {
            List<Attachment> out = new ArrayList<>();
            for (TwinAttachment[] at : attached) {
                if (at != null) {
                    for (TwinAttachment a : at) {
                        if (a.isSm) {
                            out.add(a);
                        }
                    }
                }
            }
            return out;
        } finally {
            lock.unlock();
        }
    }

    /**
     * An SM process is killed: its attachment goes away without clearing anything, as a dead process leaves the
     * HCA. The port stays up with its IsSM capability bit still set; SMInfo and SA requests to it are dropped
     * (nobody answers), and whatever the dead client still sends is dropped.
     */
    public void kill(Attachment a) {
        if (!(a instanceof TwinAttachment ta) || ta.twin != this) {
            throw new IllegalArgumentException("not an attachment of this twin: " + a);
        }
        lock.lock();
        try {
            if (!ta.detached) {
                ta.detached = true;
                remove(ta);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Kills every SM attachment ({@link #kill}); returns how many. */
    public int killSms() {
        List<Attachment> sms = smAttachments();
        for (Attachment a : sms) {
            kill(a);
        }
        return sms.size();
    }

    /**
     * The host changes a port's CapabilityMask (as ib_modify_port does; a PortInfo Set cannot, the field is
     * read-only to SMPs): the IsSM bit stays as the port's attachments set it. A change sends trap 144 from the
     * port to its SM.
     */
    public void setCapabilityMask(String nodeName, int port, int mask) {
        lock.lock();
        try {
            int node = nodeIndex(Objects.requireNonNull(nodeName, "nodeName"));
            int g = globalPort(nodeName, port);
            if (isSwitch(node) && port != 0) {
                throw new IllegalArgumentException("a switch's capability mask is its port 0's, not port " + port);
            }
            long before = PI.get(portInfo, g * 64, "CapMask");
            long now = Integer.toUnsignedLong(mask & ~CAP_IS_SM) | (before & CAP_IS_SM);
            if (now != before) {
                PI.set(portInfo, g * 64, "CapMask", now);
                traps.capabilityChanged(g);
                settle();
            }
        } finally {
            lock.unlock();
        }
    }

    /** The port's CapabilityMask as PortInfo reports it (a switch: its port 0's). */
    public int capabilityMask(String nodeName, int port) {
        lock.lock();
        try {
            int g = agentPort(globalPort(nodeName, port));
            return (int) PI.get(portInfo, g * 64, "CapMask");
        } finally {
            lock.unlock();
        }
    }

    /**
     * MADs arriving at a port are dropped with probability {@code rate} (0..1; 0 clears), by the twin's seeded
     * random source ({@link #setFaultSeed}): every MAD its link brings in, and at a switch's port 0 every MAD for
     * the switch's agents. A dropped request is bounced to its sender as undeliverable (status 110 through the ibsim
     * endpoint, as ibsim's Error does).
     */
    public void setDropRate(String nodeName, int port, double rate) {
        setDropRate(nodeName, port, 0, rate);
    }

    /** As {@link #setDropRate(String, int, double)}, for MADs of one attribute id only ({@code 0}: any). */
    public void setDropRate(String nodeName, int port, int attributeId, double rate) {
        lock.lock();
        try {
            dropRules.set(globalPort(nodeName, port), attributeId, rate);
        } finally {
            lock.unlock();
        }
    }

    /** MADs of one attribute id ({@code 0}: any) are dropped at every port with probability {@code rate}. */
    public void setDropRate(int attributeId, double rate) {
        lock.lock();
        try {
            dropRules.set(-1, attributeId, rate);
        } finally {
            lock.unlock();
        }
    }

    /** Clears the drop rates of a port (all its attributes). */
    public void clearDropRates(String nodeName, int port) {
        lock.lock();
        try {
            dropRules.clearPort(globalPort(nodeName, port));
        } finally {
            lock.unlock();
        }
    }

    /** Clears every drop rate. */
    public void clearDropRates() {
        lock.lock();
        try {
            dropRules.clear();
        } finally {
            lock.unlock();
        }
    }

    /** Restarts the random source of the drop rates: the same seed and the same MADs drop the same ones. */
    public void setFaultSeed(long seed) {
        lock.lock();
        try {
            dropRules.seed(seed);
        } finally {
            lock.unlock();
        }
    }

    /** The drop rules in force, as "port attribute rate" descriptions. */
    public List<String> dropRates() {
        return locked(() -> dropRules.describe(this));
    }

    // =====================================================================================================
    // traps

    /** A trap the twin sent and the SM has not repressed yet. */
    public record PendingTrap(String nodeName, int port, int number, long tid, int sends) {
    }

    /** The traps not yet repressed, oldest first. */
    public List<PendingTrap> pendingTraps() {
        return locked(() -> traps.list());
    }

    /** Sends every pending trap again now (same TID); returns how many. */
    public int resendTraps() {
        lock.lock();
        try {
            int n = traps.markAllDue();
            settle();
            return n;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Sends again the pending traps whose issuing port's SubnetTimeout (4.096 µs × 2^SubnetTimeout) has passed
     * since they were last sent, as an SMA does until its trap is repressed. The twin checks this itself after
     * every MAD and fault; a fabric with nothing happening needs a timer to call it ({@link TrapTimer}).
     */
    public void resendTrapsDue() {
        lock.lock();
        try {
            settle();
        } finally {
            lock.unlock();
        }
    }

    /** Traps sent so far, resends included. */
    public long trapsSent() {
        return lockedLong(() -> traps.sent);
    }

    /** The clock trap timeouts are measured by, in nanoseconds ({@link System#nanoTime} unless a test sets one). */
    public void setClock(LongSupplier nanos) {
        lock.lock();
        try {
            clock = Objects.requireNonNull(nanos, "nanos");
        } finally {
            lock.unlock();
        }
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
        return lockedInt(() -> lid[globalPort(nodeName, port)]);
    }

    public int lmc(String nodeName, int port) {
        return lockedInt(() -> lmc[globalPort(nodeName, port)]);
    }

    public PortState portState(String nodeName, int port) {
        return locked(() -> PortState.ofCode(state[globalPort(nodeName, port)]));
    }

    public PhysState physState(String nodeName, int port) {
        return locked(() -> PhysState.ofCode(phys[globalPort(nodeName, port)]));
    }

    /** The trained width of a port's link, null when down. */
    public LinkWidth activeWidth(String nodeName, int port) {
        return locked(() -> PortCodes.width(widthAct[globalPort(nodeName, port)]));
    }

    /** The trained speed of a port's link, null when down. */
    public LinkSpeed activeSpeed(String nodeName, int port) {
        return locked(() -> PortCodes.speed(speedAct[globalPort(nodeName, port)]));
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

    /** Whether a switch's MFT sends multicast LID {@code mlid} out of {@code port}. */
    public boolean mftEntry(String switchName, int mlid, int port) {
        lock.lock();
        try {
            int node = nodeIndex(Objects.requireNonNull(switchName, "switchName"));
            if (!isSwitch(node)) {
                throw new IllegalArgumentException("node \"" + switchName + "\" is not a switch");
            }
            return port >= 0 && port <= numPorts[node] && mlid >= MULTICAST_BASE && mlid < PERMISSIVE
                    && fwd.mftHas(node, mlid, port);
        } finally {
            lock.unlock();
        }
    }

    /**
     * A multicast packet (a UD send, e.g. an IPoIB broadcast) from port {@code port} of {@code nodeName} to
     * multicast LID {@code mlid}, forwarded through the switches' MFTs: the ports it reached, as "node/port", in
     * the order reached. Counts the crossings (PortMulticastXmitPkts and PortMulticastRcvPkts on the way).
     */
    public List<String> multicast(String nodeName, int port, int mlid) {
        lock.lock();
        try {
            int g = globalPort(nodeName, port);
            List<String> out = new ArrayList<>();
            for (int q : fwd.multicast(g, mlid)) {
                out.add(nodes[portNode[q]].name() + "/" + portNumber(q));
            }
            return out;
        } finally {
            lock.unlock();
        }
    }

    public int linearFdbTop(String switchName) {
        return lockedInt(() -> lftTop[switchOf(switchName)]);
    }

    private int switchOf(String name) {
        int node = nodeIndex(Objects.requireNonNull(name, "switchName"));
        if (!isSwitch(node)) {
            throw new IllegalArgumentException("node \"" + name + "\" is not a switch");
        }
        return swIndex[node];
    }

    // ---- the data plane: what traffic reads and adds

    /**
     * A count that moves whenever data could take another way (a port's state or LID, a link trained or lost, an
     * LFT entry written with a new value): a traffic engine re-resolves its routes when it sees it move.
     */
    public long forwardingVersion() {
        return lockedLong(() -> forwardingVersion);
    }

    /**
     * Where switch {@code sw} sends packets for CA port {@code dst}, as its LFT holds it now: the egress port number,
     * or -1 when {@code dst} has no LID, the entry is unprogrammed or names no port, or the egress port is not Active
     * (data moves only over Active ports). Read under the twin's lock.
     */
    public int egressPort(Node sw, Port dst) {
        lock.lock();
        try {
            Integer n = nodeIndexByNode.get(sw);
            Integer d = nodeIndexByNode.get(dst.node());
            if (n == null || d == null || !isSwitch(n)) {
                return -1;
            }
            int dlid = lid[portBase[d] + dst.number()];
            byte[] t = lft[swIndex[n]];
            if (dlid <= 0 || dlid >= t.length) {
                return -1;
            }
            int out = t[dlid] & 0xff;
            if (out < 1 || out > numPorts[n]) {
                return -1;
            }
            return state[portBase[n] + out] == ACTIVE ? out : -1;
        } finally {
            lock.unlock();
        }
    }

    /** Whether a model port's twin is Active (a CA port that can send data). */
    public boolean isActive(Port p) {
        lock.lock();
        try {
            Integer n = nodeIndexByNode.get(p.node());
            return n != null && p.number() <= numPorts[n] && state[portBase[n] + p.number()] == ACTIVE;
        } finally {
            lock.unlock();
        }
    }

    /** The twin's index of a model port (the slot {@link #addTraffic} takes), or -1 for a port of another fabric. */
    public int portSlot(Port p) {
        Integer n = nodeIndexByNode.get(p.node());
        return n == null || p.number() < 0 || p.number() > numPorts[n] ? -1 : portBase[n] + p.number();
    }

    /** Values per port in {@link #addTraffic}'s delta array: XmitData, RcvData, XmitPkts, RcvPkts, XmitWait. */
    public static final int TRAFFIC_FIELDS = 5;

    /**
     * Adds unicast data traffic to the PMA counters of {@code count} ports at once, under the lock: for port slot
     * {@code slots[i]}, {@code deltas[i*5 .. i*5+4]} are the 4-octet words sent and received, the packets sent and
     * received, and the PortXmitWait ticks. PortCounters saturate at their field's width, PortCountersExtended
     * (data, packets, unicast packets) at 2^64-1. Allocation-free.
     */
    public void addTraffic(int[] slots, int count, long[] deltas) {
        lock.lock();
        try {
            for (int i = 0; i < count; i++) {
                int g = slots[i];
                int o = i * TRAFFIC_FIELDS;
                long xd = deltas[o];
                long rd = deltas[o + 1];
                long xp = deltas[o + 2];
                long rp = deltas[o + 3];
                long xw = deltas[o + 4];
                if (xd != 0 || xp != 0) {
                    addPc(g, PortCounter.XMIT_DATA.ordinal(), xd);
                    addPc(g, PortCounter.XMIT_PKTS.ordinal(), xp);
                    addPcx(g, ExtCounter.XMIT_DATA.ordinal(), xd);
                    addPcx(g, ExtCounter.XMIT_PKTS.ordinal(), xp);
                    addPcx(g, ExtCounter.UNICAST_XMIT_PKTS.ordinal(), xp);
                }
                if (rd != 0 || rp != 0) {
                    addPc(g, PortCounter.RCV_DATA.ordinal(), rd);
                    addPc(g, PortCounter.RCV_PKTS.ordinal(), rp);
                    addPcx(g, ExtCounter.RCV_DATA.ordinal(), rd);
                    addPcx(g, ExtCounter.RCV_PKTS.ordinal(), rp);
                    addPcx(g, ExtCounter.UNICAST_RCV_PKTS.ordinal(), rp);
                }
                if (xw != 0) {
                    addPc(g, PortCounter.XMIT_WAIT.ordinal(), xw);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** A PortCounters counter of a port, as the PMA reports it. */
    public long counter(String nodeName, int port, PortCounter c) {
        return lockedLong(() -> pcValue(globalPort(nodeName, port), c.ordinal()));
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
        return lockedLong(() -> pcx[globalPort(nodeName, port) * PCX_SLOTS + c.ordinal()]);
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
        return lockedLong(() -> drops[reason.ordinal()]);
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
        return lockedLong(() -> processed);
    }

    /** MADs handed to sinks. */
    public long delivered() {
        return lockedLong(() -> delivered);
    }

    /**
     * Writes the twin's runtime state back into the model: its links (a cable unplugged, replugged or swapped, a
     * Link between other ports), and in its ports LIDs, LMC, SM LID, port and physical states, enabled widths and
     * speeds, the trained width and speed, link layers, neighbour MTU (as the active MTU), P_Keys and the
     * PortCounters counters.
     */
    public void syncModel() {
        lock.lock();
        try {
            syncLinks();
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
                        mp.setActive(PortCodes.width(widthAct[g]), PortCodes.speed(speedAct[g]));
                        mp.setLinkLayer(ethernet[g] ? LinkLayer.ETHERNET : LinkLayer.INFINIBAND);
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

    /** The model's links made the twin's: pulled, added, re-cabled (the port states are written after). */
    private void syncLinks() {
        for (int n = 0; n < nodeCount; n++) {
            for (int number = 1; number <= numPorts[n]; number++) {
                syncLink(portBase[n] + number, nodes[n].port(number));
            }
        }
    }

    private void syncLink(int g, Port mp) {
        Link ml = mp.link();
        int r = remote[g];
        if (r < 0) {
            if (ml != null) {
                fabric.disconnect(ml);
            }
            return;
        }
        if (r < g) {
            return;   // done from its other end
        }
        Port mr = nodes[portNode[r]].port(portNumber(r));
        if (ml != null && ml.other(mp) == mr) {
            if (!ml.cable().equals(cable[g])) {
                ml.setCable(cable[g]);
            }
            return;
        }
        if (ml != null) {
            fabric.disconnect(ml);
        }
        if (mr.link() != null) {
            fabric.disconnect(mr.link());
        }
        fabric.connect(mp, mr, cable[g]);
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

    /** A port's PortCounters attribute as its PMA answers a Get (192 bytes of attribute data). */
    byte[] portCountersData(int g) {
        lock.lock();
        try {
            byte[] w = new byte[256];
            w[0] = 1;
            w[1] = (byte) MgmtClasses.PERF;
            w[2] = 1;
            w[3] = (byte) Methods.GET;
            w[16] = (byte) (AttributeIds.PORT_COUNTERS >> 8);
            w[17] = (byte) AttributeIds.PORT_COUNTERS;
            w[64 + 1] = (byte) portNumber(g);
            pma.handle(portNode[g], g, w, Methods.GET);
            return Arrays.copyOfRange(w, 64, 256);
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

    /** Reads under the twin's lock: the inspection API sees one consistent state. */
    private <T> T locked(java.util.function.Supplier<T> read) {
        lock.lock();
        try {
            return read.get();
        } finally {
            lock.unlock();
        }
    }

    private int lockedInt(java.util.function.IntSupplier read) {
        lock.lock();
        try {
            return read.getAsInt();
        } finally {
            lock.unlock();
        }
    }

    private long lockedLong(java.util.function.LongSupplier read) {
        lock.lock();
        try {
            return read.getAsLong();
        } finally {
            lock.unlock();
        }
    }
}
