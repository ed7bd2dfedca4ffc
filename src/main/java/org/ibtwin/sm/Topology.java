package org.ibtwin.sm;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.ibtwin.mad.Field;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.SmpAttributes;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.LinkWidth;
import org.ibtwin.model.NodeNames;
import org.ibtwin.model.NodeType;

/**
 * The subnet as one discovery sweep found it, frozen: what the LID manager, the routing engines, the LFT writer and
 * the port activator work from. Nothing here changes after construction; every array accessor hands out a copy.
 *
 * <p>Layout, in arrays rather than object graphs: nodes are numbered in discovery order (0 is the SM's own node);
 * node {@code n} has {@code numPorts(n) + 1} port slots (slot 0 is a switch's management port, unused on a CA), so a
 * port's global index is {@code port(n, p)}. Each port keeps the 64-byte PortInfo it answered with; each switch its
 * 20-byte SwitchInfo. {@link #remote} is the other end of a port's link, -1 when the port is down or its neighbour
 * was left out (a duplicate GUID).
 */
public final class Topology {
    static final Layout PI = SmpAttributes.PORT_INFO;
    static final Layout SI = SmpAttributes.SWITCH_INFO;
    static final Field PI_LID = PI.field("Lid");
    static final Field PI_SM_LID = PI.field("SMLid");
    static final Field PI_CAP_MASK = PI.field("CapMask");
    static final Field PI_LMC = PI.field("LMC");
    static final Field PI_STATE = PI.field("LinkState");
    static final Field PI_PHYS = PI.field("PhysLinkState");
    static final Field PI_MTU_CAP = PI.field("MtuCap");
    static final Field PI_NEIGHBOR_MTU = PI.field("NeighborMTU");
    static final Field PI_VL_CAP = PI.field("VLCap");
    static final Field PI_OPER_VLS = PI.field("OperVLs");
    static final Field PI_LWS = PI.field("LinkWidthSupported");
    static final Field PI_LWE = PI.field("LinkWidthEnabled");
    static final Field PI_LWA = PI.field("LinkWidthActive");
    static final Field PI_LSS = PI.field("LinkSpeedSupported");
    static final Field PI_LSE = PI.field("LinkSpeedEnabled");
    static final Field PI_LSA = PI.field("LinkSpeedActive");
    static final Field PI_LSES = PI.field("LinkSpeedExtSupported");
    static final Field PI_LSEE = PI.field("LinkSpeedExtEnabled");
    static final Field PI_LSEA = PI.field("LinkSpeedExtActive");
    static final Field PI_LSES2 = PI.field("LinkSpeedExtSupported2");
    static final Field PI_LSEE2 = PI.field("LinkSpeedExtEnabled2");
    static final Field PI_LSEA2 = PI.field("LinkSpeedExtActive2");
    static final Field SI_LFT_CAP = SI.field("LinearFdbCap");
    static final Field SI_LFT_TOP = SI.field("LinearFdbTop");
    static final Field SI_STATE_CHANGE = SI.field("StateChange");
    static final Field SI_ENHANCED_PORT0 = SI.field("EnhancedPort0");

    /** PortInfo PortState / PhysicalPortState codes. */
    public static final int DOWN = 1;
    public static final int INIT = 2;
    public static final int ARMED = 3;
    public static final int ACTIVE = 4;
    public static final int LINK_UP = 5;
    /** CapabilityMask IsSM. */
    public static final int CAP_IS_SM = 0x2;

    // nodes
    private final long[] nodeGuid;
    private final byte[] nodeType;
    private final int[] numPorts;
    private final int[] portBase;
    private final String[] description;
    private final byte[][] path;
    private final int[] switchIndex;
    // ports
    private final int[] portNode;
    private final long[] portGuid;
    private final int[] remote;
    private final byte[] portInfo;
    private final boolean[] hasPortInfo;
    // switches
    private final int[] switchNode;
    private final byte[] switchInfo;
    private final int smPort;
    private final Map<Long, Integer> byGuid;
    /** The nodes' names, made on first use (a benign race: every thread makes the same array). */
    private volatile String[] names;
    /** NodeInfo as each node answered it, {@link #NODE_INFO_SIZE} bytes a node (empty when not kept). */
    private byte[] nodeInfo = new byte[0];

    static final int NODE_INFO_SIZE = 40;
    static final Layout NI = SmpAttributes.NODE_INFO;
    static final Field NI_SYSTEM_GUID = NI.field("SystemGuid");
    static final Field NI_DEVICE_ID = NI.field("DevId");
    static final Field NI_REVISION = NI.field("Revision");
    static final Field NI_VENDOR_ID = NI.field("VendorId");

    /** Discovery's raw arrays; the constructor takes ownership. */
    Topology(long[] nodeGuid, byte[] nodeType, int[] numPorts, String[] description, byte[][] path, long[] portGuid,
             int[] remote, byte[] portInfo, boolean[] hasPortInfo, byte[] switchInfo, int smPort) {
        int n = nodeGuid.length;
        this.nodeGuid = nodeGuid;
        this.nodeType = nodeType;
        this.numPorts = numPorts;
        this.description = description;
        this.path = path;
        this.portBase = new int[n];
        this.switchIndex = new int[n];
        int slots = 0;
        int switches = 0;
        for (int i = 0; i < n; i++) {
            portBase[i] = slots;
            slots += numPorts[i] + 1;
            switchIndex[i] = nodeType[i] == NodeType.SWITCH.code() ? switches++ : -1;
        }
        if (portGuid.length != slots || remote.length != slots || hasPortInfo.length != slots
                || portInfo.length != slots * 64 || switchInfo.length != switches * 20) {
            throw new IllegalArgumentException("topology arrays disagree on the number of ports or switches");
        }
        this.portNode = new int[slots];
        for (int i = 0; i < n; i++) {
            Arrays.fill(portNode, portBase[i], portBase[i] + numPorts[i] + 1, i);
        }
        this.switchNode = new int[switches];
        for (int i = 0; i < n; i++) {
            if (switchIndex[i] >= 0) {
                switchNode[switchIndex[i]] = i;
            }
        }
        this.portGuid = portGuid;
        this.remote = remote;
        this.portInfo = portInfo;
        this.hasPortInfo = hasPortInfo;
        this.switchInfo = switchInfo;
        this.smPort = smPort;
        this.byGuid = HashMap.newHashMap(n);
        for (int i = 0; i < n; i++) {
            byGuid.putIfAbsent(nodeGuid[i], i);
        }
    }

    /** Keeps the nodes' NodeInfo (discovery's, {@link #NODE_INFO_SIZE} bytes a node, in node order). */
    Topology withNodeInfo(byte[] info) {
        if (info.length != nodeGuid.length * NODE_INFO_SIZE) {
            throw new IllegalArgumentException("NodeInfo for " + info.length / NODE_INFO_SIZE + " nodes, not "
                    + nodeGuid.length);
        }
        this.nodeInfo = info;
        return this;
    }

    /** Node {@code n}'s NodeInfo as discovery first read it (40 bytes, a copy; zeros when not kept). */
    public byte[] nodeInfo(int n) {
        byte[] out = new byte[NODE_INFO_SIZE];
        if (nodeInfo.length >= (n + 1) * NODE_INFO_SIZE) {
            System.arraycopy(nodeInfo, n * NODE_INFO_SIZE, out, 0, NODE_INFO_SIZE);
        }
        return out;
    }

    // ---- nodes

    /** NodeInfo SystemImageGUID (0 when NodeInfo was not kept). */
    public long systemImageGuid(int n) {
        return nodeInfoField(n, NI_SYSTEM_GUID);
    }

    public int vendorId(int n) {
        return (int) nodeInfoField(n, NI_VENDOR_ID);
    }

    public int deviceId(int n) {
        return (int) nodeInfoField(n, NI_DEVICE_ID);
    }

    public long revision(int n) {
        return nodeInfoField(n, NI_REVISION);
    }

    private long nodeInfoField(int n, Field f) {
        return nodeInfo.length == 0 ? 0 : f.get(nodeInfo, n * NODE_INFO_SIZE);
    }

    public int nodeCount() {
        return nodeGuid.length;
    }

    public int switchCount() {
        return switchNode.length;
    }

    public int caCount() {
        int c = 0;
        for (byte t : nodeType) {
            c += t == NodeType.CA.code() ? 1 : 0;
        }
        return c;
    }

    public long nodeGuid(int n) {
        return nodeGuid[n];
    }

    public NodeType nodeType(int n) {
        return NodeType.ofCode(nodeType[n]);
    }

    public boolean isSwitch(int n) {
        return switchIndex[n] >= 0;
    }

    public int numPorts(int n) {
        return numPorts[n];
    }

    /** The node description, as NodeDescription gave it (NUL padding dropped). */
    public String description(int n) {
        return description[n];
    }

    /** The directed route from the SM to the node: the egress port at each hop. */
    public byte[] path(int n) {
        return path[n].clone();
    }

    /** Hops from the SM to the node. */
    public int hops(int n) {
        return path[n].length;
    }

    /** The node with this GUID, or -1. */
    public int nodeByGuid(long guid) {
        Integer i = byGuid.get(guid);
        return i == null ? -1 : i;
    }

    /** The switch number (0..switchCount-1) of node {@code n}, or -1 for a CA or router. */
    public int switchIndex(int n) {
        return switchIndex[n];
    }

    public int switchNode(int s) {
        return switchNode[s];
    }

    // ---- ports

    /** Port slots: every node's ports plus its slot 0. */
    public int portSlots() {
        return portNode.length;
    }

    /** The global index of port {@code p} of node {@code n}. */
    public int port(int n, int p) {
        if (p < 0 || p > numPorts[n]) {
            throw new IllegalArgumentException("node " + n + " has no port " + p);
        }
        return portBase[n] + p;
    }

    public int portNode(int g) {
        return portNode[g];
    }

    public int portNumber(int g) {
        return g - portBase[portNode[g]];
    }

    public long portGuid(int g) {
        return portGuid[g];
    }

    /** The other end of the port's link, or -1. */
    public int remote(int g) {
        return remote[g];
    }

    /** Whether discovery read the port's PortInfo. */
    public boolean hasPortInfo(int g) {
        return hasPortInfo[g];
    }

    /** The port's PortInfo as discovery read it (64 bytes, a copy). */
    public byte[] portInfo(int g) {
        return Arrays.copyOfRange(portInfo, g * 64, g * 64 + 64);
    }

    long portInfoField(int g, Field f) {
        return f.get(portInfo, g * 64);
    }

    public int lid(int g) {
        return (int) portInfoField(g, PI_LID);
    }

    public int lmc(int g) {
        return (int) portInfoField(g, PI_LMC);
    }

    public int smLid(int g) {
        return (int) portInfoField(g, PI_SM_LID);
    }

    public int linkState(int g) {
        return (int) portInfoField(g, PI_STATE);
    }

    public int physState(int g) {
        return (int) portInfoField(g, PI_PHYS);
    }

    public int mtuCap(int g) {
        return (int) portInfoField(g, PI_MTU_CAP);
    }

    public int vlCap(int g) {
        return (int) portInfoField(g, PI_VL_CAP);
    }

    public long capabilityMask(int g) {
        return portInfoField(g, PI_CAP_MASK);
    }

    /**
     * The end ports: every CA and router port discovery reached, and every switch's port 0 (the ports that take
     * LIDs), in node order.
     */
    public int[] endPorts() {
        int[] out = new int[portSlots()];
        int k = 0;
        for (int n = 0; n < nodeCount(); n++) {
            if (isSwitch(n)) {
                out[k++] = portBase[n];
            } else {
                for (int p = 1; p <= numPorts[n]; p++) {
                    if (hasPortInfo[portBase[n] + p]) {
                        out[k++] = portBase[n] + p;
                    }
                }
            }
        }
        return Arrays.copyOf(out, k);
    }

    /** The number of links: pairs of ports each the other's {@link #remote}. */
    public int linkCount() {
        int c = 0;
        for (int g = 0; g < remote.length; g++) {
            c += remote[g] > g ? 1 : 0;
        }
        return c;
    }

    // ---- switches

    /** SwitchInfo as discovery read it (20 bytes, a copy). */
    public byte[] switchInfo(int s) {
        return Arrays.copyOfRange(switchInfo, s * 20, s * 20 + 20);
    }

    public int linearFdbCap(int s) {
        return (int) SI_LFT_CAP.get(switchInfo, s * 20);
    }

    public int linearFdbTop(int s) {
        return (int) SI_LFT_TOP.get(switchInfo, s * 20);
    }

    /** Whether the switch said a port changed state since the bit was last cleared. */
    public boolean stateChange(int s) {
        return SI_STATE_CHANGE.get(switchInfo, s * 20) != 0;
    }

    public boolean enhancedPort0(int s) {
        return SI_ENHANCED_PORT0.get(switchInfo, s * 20) != 0;
    }

    // ---- the SM

    /** The SM's own port (a CA port, or a switch's port 0). */
    public int smPort() {
        return smPort;
    }

    public int smNode() {
        return portNode[smPort];
    }

    // ---- link facts

    /** A link that trained below what both its ends support and enable. */
    public record DegradedLink(int portA, int portB, String active, String capable) {
    }

    /** The links whose active width or speed is below the best both ends support and enable. */
    public List<DegradedLink> degradedLinks() {
        List<DegradedLink> out = new ArrayList<>();
        for (int g = 0; g < remote.length; g++) {
            int r = remote[g];
            if (r < g || !hasPortInfo[g] || !hasPortInfo[r]) {
                continue;
            }
            LinkWidth wa = width((int) portInfoField(g, PI_LWA));
            LinkSpeed sa = activeSpeed(g);
            int widths = (int) (portInfoField(g, PI_LWS) & portInfoField(g, PI_LWE) & portInfoField(r, PI_LWS)
                    & portInfoField(r, PI_LWE));
            LinkWidth wc = widest(widths);
            LinkSpeed sc = bestCommonSpeed(g, r);
            if (wa == null || sa == null || wc == null || sc == null) {
                continue;
            }
            if (wa.lanes() < wc.lanes() || sa.compareTo(sc) < 0) {
                out.add(new DegradedLink(g, r, wa.label() + sa.label(), wc.label() + sc.label()));
            }
        }
        return out;
    }

    /** The link's active width and speed, "4xHDR", or null when the port has none. */
    public String activeRate(int g) {
        LinkWidth w = width((int) portInfoField(g, PI_LWA));
        LinkSpeed s = activeSpeed(g);
        return w == null || s == null ? null : w.label() + s.label();
    }

    /** The port's active width, or null when it has none. */
    public LinkWidth activeWidth(int g) {
        return width((int) portInfoField(g, PI_LWA));
    }

    /** The port's active speed, or null when it has none. */
    public LinkSpeed activeSpeed(int g) {
        int e2 = (int) portInfoField(g, PI_LSEA2);
        int e = (int) portInfoField(g, PI_LSEA);
        int l = (int) portInfoField(g, PI_LSA);
        return e2 != 0 ? ext2Speed(e2) : e != 0 ? extSpeed(e) : legacySpeed(l);
    }

    private LinkSpeed bestCommonSpeed(int g, int r) {
        int e2 = (int) (portInfoField(g, PI_LSES2) & portInfoField(g, PI_LSEE2) & portInfoField(r, PI_LSES2)
                & portInfoField(r, PI_LSEE2));
        if (e2 != 0) {
            return ext2Speed(Integer.highestOneBit(e2));
        }
        int e = (int) (portInfoField(g, PI_LSES) & portInfoField(g, PI_LSEE) & portInfoField(r, PI_LSES)
                & portInfoField(r, PI_LSEE));
        if (e != 0) {
            return extSpeed(Integer.highestOneBit(e));
        }
        int l = (int) (portInfoField(g, PI_LSS) & portInfoField(g, PI_LSE) & portInfoField(r, PI_LSS)
                & portInfoField(r, PI_LSE));
        return l == 0 ? null : legacySpeed(Integer.highestOneBit(l));
    }

    private static LinkWidth width(int code) {
        try {
            return code == 0 ? null : LinkWidth.ofCode(code);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static LinkWidth widest(int codes) {
        LinkWidth best = null;
        for (LinkWidth w : LinkWidth.values()) {
            if ((codes & w.code()) != 0 && (best == null || w.lanes() > best.lanes())) {
                best = w;
            }
        }
        return best;
    }

    private static LinkSpeed legacySpeed(int code) {
        for (LinkSpeed s : LinkSpeed.values()) {
            if (s.speedCode() == code && s.extSpeedCode() == 0 && s.fdr10Code() == 0) {
                return s;
            }
        }
        return null;
    }

    private static LinkSpeed extSpeed(int code) {
        for (LinkSpeed s : LinkSpeed.values()) {
            if (s.extSpeedCode() == code) {
                return s;
            }
        }
        return null;
    }

    private static LinkSpeed ext2Speed(int code) {
        return code == 1 ? LinkSpeed.XDR : null;
    }

    /** "leaf02/33": a port named by its node's {@link #shortName} and number. */
    public String portName(int g) {
        return shortName(portNode[g]) + "/" + portNumber(g);
    }

    /**
     * The node as a human calls it ({@link NodeNames}): its host name, told apart by description and GUID where
     * other nodes share it; its GUID when it has no description.
     */
    public String shortName(int n) {
        String[] s = names;
        if (s == null) {
            s = NodeNames.of(nodeGuid.length, this::nodeType, i -> description[i],
                    i -> String.format("0x%016x", nodeGuid[i]), i -> nodeGuid[i]);
            names = s;
        }
        return s[n];
    }

    static String text(byte[] nodeDescription) {
        int len = 0;
        while (len < nodeDescription.length && nodeDescription[len] != 0) {
            len++;
        }
        return new String(nodeDescription, 0, len, StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return "Topology(" + nodeCount() + " nodes, " + switchCount() + " switches, " + linkCount() + " links)";
    }
}
