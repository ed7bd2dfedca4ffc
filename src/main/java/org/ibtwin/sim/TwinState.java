package org.ibtwin.sim;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongSupplier;
import org.ibtwin.mad.Field;
import org.ibtwin.mad.Layout;
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
 * The twin's state: what every node, port and switch holds, in flat arrays, and the helpers the agents
 * ({@link Sma}, {@link Pma}, {@link Forwarding}, {@link Traps}) and {@link Links} share to read and change it. It
 * takes no lock: its callers run under {@link Twin}'s, the only one.
 *
 * <h2>Layout</h2>
 * Nodes are numbered in the model's order; every node has {@code numPorts + 1} port slots (slot 0 is a switch's
 * management port, unused on a CA), so a port's global index is {@code portBase[node] + number}. Hot state lives in
 * arrays indexed by that global index; each port also keeps a 64-byte PortInfo image for the fields only SMPs read
 * or write. Each switch has its LFT as a {@code byte[]} indexed by LID, grown in 64-entry blocks as they are set.
 *
 * <h2>Source of truth</h2>
 * The constructor copies the model's runtime state (LIDs, LMC, SM LID, port states, widths and speeds, MTU and VL
 * caps, P_Keys, counters) into the arrays; from then on the twin alone changes it, until {@link #syncModel()}
 * writes it back into the model's {@link Port} objects.
 */
final class TwinState {
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
    /** A port held down by a fault ({@link Twin#linkDown}): its link does not train until {@link Twin#linkUp}. */
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
    /** Running M_Key lease timers: management port to the clock's deadline (IBA 14.2.4.2); absent: not running. */
    final Map<Integer, Long> mkeyLease = new HashMap<>();

    // ---- processing
    final byte[] work = new byte[256];
    final long[] drops = new long[DropReason.values().length];
    long processed;
    long delivered;
    long sinkFailures;
    /** MAD drop rules set by fault injection; empty: nothing dropped by chance. */
    final DropRules dropRules = new DropRules();
    /** The clock traps are resent by (System.nanoTime, or a test's). */
    LongSupplier clock = System::nanoTime;
    /** Moves whenever data could take another way: a port's state or LID, a link, an LFT entry. */
    long forwardingVersion;
    /** Node indices by model node, for the data plane's inspection methods. */
    final Map<Node, Integer> nodeIndexByNode;
    /** The clients at each port (null: none), as {@link Twin#attach} put them there. */
    TwinAttachment[][] attached;

    TwinState(Fabric fabric) {
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
            byte[] held = n.linearForwarding();
            if (held != null && held.length > 0) {
                // the table a snapshot saved: in whole 64-entry blocks, LinearFDBTop its last LID
                int len = Math.min(LINEAR_FDB_CAP, (held.length + 63) / 64 * 64);
                lft[s] = Arrays.copyOf(held, len);
                Arrays.fill(lft[s], Math.min(held.length, len), len, (byte) 0xff);
                lftTop[s] = Math.min(held.length, len) - 1;
            }
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

    /**
     * What a switch's power cycle clears (its links are the caller's): LID and SM LID (0), M_Key, LFT and
     * LinearFDBTop, MFT, P_Keys, SL-to-VL and VL arbitration tables, enabled widths and speeds as at power-up, PMA
     * counters at 0; every external port Down/Polling, PortStateChange set.
     */
    void resetSwitch(int s) {
        int n = swNode[s];
        int base = portBase[n];
        lft[s] = new byte[0];
        lftTop[s] = 0;
        mft[s] = null;
        Arrays.fill(switchInfo, s * 20, s * 20 + 20, (byte) 0);
        initSwitchInfo(n);
        portStateChange[s] = true;
        guids.remove(base);
        mkeyLease.remove(base);
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
    // names: a node by its topology id, node description or host name; a port by node and number

    /** The index of the node named so (topology id, description, host name). */
    int nodeIndex(String name) {
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

    /** A port's global index. */
    int globalPort(String nodeName, int port) {
        int node = nodeIndex(Objects.requireNonNull(nodeName, "nodeName"));
        if (port < (isSwitch(node) ? 0 : 1) || port > numPorts[node]) {
            throw new IllegalArgumentException("node \"" + nodeName + "\" has no port " + port);
        }
        return portBase[node] + port;
    }

    /** A port's global index, refusing port 0 (it has no link). */
    int physicalPort(String nodeName, int port) {
        int g = globalPort(nodeName, port);
        if (port == 0) {
            throw new IllegalArgumentException("port 0 of \"" + nodeName + "\" has no link");
        }
        return g;
    }

    /** A port's global index, refusing one without a link. */
    int linkedPort(String nodeName, int port) {
        int g = physicalPort(nodeName, port);
        if (remote[g] < 0) {
            throw new IllegalArgumentException("port " + port + " of \"" + nodeName + "\" is not linked");
        }
        return g;
    }

    /** The switch index of the switch named so. */
    int switchOf(String name) {
        int node = nodeIndex(Objects.requireNonNull(name, "switchName"));
        if (!isSwitch(node)) {
            throw new IllegalArgumentException("node \"" + name + "\" is not a switch");
        }
        return swIndex[node];
    }

    /** "S-0002c9…"[3]: a port as ibsim names it. */
    String portName(int g) {
        return "\"" + nodes[portNode[g]].name() + "\"[" + portNumber(g) + "]";
    }

    // =====================================================================================================
    // clients and MADs

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

    /**
     * Writes the twin's runtime state back into the model: its links (a cable unplugged, replugged or swapped, a
     * Link between other ports), and in its ports LIDs, LMC, SM LID, port and physical states, enabled widths and
     * speeds, the trained width and speed, link layers, neighbour MTU (as the active MTU), P_Keys and the
     * PortCounters counters.
     */
    void syncModel() {
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
}
