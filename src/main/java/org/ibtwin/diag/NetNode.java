package org.ibtwin.diag;

import java.nio.charset.StandardCharsets;
import org.ibtwin.mad.Field;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.SmpAttributes;

/**
 * A node found by {@link NetDiscovery}: its NodeInfo, NodeDescription and (a switch) SwitchInfo as answered, the
 * directed route it was first reached by, and its ports (index 0..numPorts; null where nothing was learnt).
 */
public final class NetNode {
    private static final Layout NI = SmpAttributes.NODE_INFO;
    static final Field NI_GUID = NI.field("Guid");
    static final Field NI_TYPE = NI.field("NodeType");
    static final Field NI_PORTS = NI.field("NumPorts");
    static final Field NI_PORT_GUID = NI.field("PortGuid");
    static final Field NI_LOCAL_PORT = NI.field("LocalPort");
    private static final Field NI_SYS_GUID = NI.field("SystemGuid");
    private static final Field NI_DEV_ID = NI.field("DevId");
    private static final Field NI_VENDOR_ID = NI.field("VendorId");
    private static final Field NI_REVISION = NI.field("Revision");

    /** NodeType codes. */
    public static final int CA = 1;
    public static final int SWITCH = 2;
    public static final int ROUTER = 3;

    private final long guid;
    private final int type;
    private final int numPorts;
    private final byte[] nodeInfo;
    private final byte[] path;
    final NetPort[] ports;
    byte[] nodeDesc = new byte[64];
    byte[] switchInfo;
    int smaLid;
    int smaLmc;
    boolean enhancedPort0;

    NetNode(byte[] nodeInfo, byte[] path) {
        this.nodeInfo = nodeInfo;
        this.guid = NI_GUID.get(nodeInfo, 0);
        this.type = (int) NI_TYPE.get(nodeInfo, 0);
        this.numPorts = (int) NI_PORTS.get(nodeInfo, 0);
        this.path = path;
        this.ports = new NetPort[numPorts + 1];
    }

    /** For a node read back from a cache file. */
    NetNode(byte[] nodeInfo, byte[] path, long guid, int type, int numPorts) {
        this.nodeInfo = nodeInfo;
        this.guid = guid;
        this.type = type;
        this.numPorts = numPorts;
        this.path = path;
        this.ports = new NetPort[numPorts + 1];
    }

    public long guid() {
        return guid;
    }

    /** NodeType: 1 CA, 2 switch, 3 router. */
    public int type() {
        return type;
    }

    public boolean isSwitch() {
        return type == SWITCH;
    }

    public int numPorts() {
        return numPorts;
    }

    /** The NodeInfo bytes as answered (the first time). */
    public byte[] nodeInfo() {
        return nodeInfo;
    }

    public long systemImageGuid() {
        return NI_SYS_GUID.get(nodeInfo, 0);
    }

    public long portGuid() {
        return NI_PORT_GUID.get(nodeInfo, 0);
    }

    public int vendorId() {
        return (int) NI_VENDOR_ID.get(nodeInfo, 0);
    }

    public int deviceId() {
        return (int) NI_DEV_ID.get(nodeInfo, 0);
    }

    public long revision() {
        return NI_REVISION.get(nodeInfo, 0);
    }

    /** The 64 NodeDescription bytes (all zero when it was not answered). */
    public byte[] nodeDescBytes() {
        return nodeDesc;
    }

    /** The description as C prints the 64-byte field with %s: up to the first NUL. */
    public String description() {
        int n = 0;
        while (n < nodeDesc.length && nodeDesc[n] != 0) {
            n++;
        }
        return new String(nodeDesc, 0, n, StandardCharsets.ISO_8859_1);
    }

    /** SwitchInfo, or null (not a switch, or not answered). */
    public byte[] switchInfo() {
        return switchInfo;
    }

    /** The directed route this node was first reached by (egress port per hop; empty: the starting node). */
    public byte[] path() {
        return path.clone();
    }

    int hops() {
        return path.length;
    }

    /** Port {@code n}, or null when nothing was learnt about it. */
    public NetPort port(int n) {
        return n >= 0 && n < ports.length ? ports[n] : null;
    }

    /** A switch's LID (port 0's). */
    public int smaLid() {
        return smaLid;
    }

    public int smaLmc() {
        return smaLmc;
    }

    public boolean enhancedPort0() {
        return enhancedPort0;
    }

    /** "0x0002c90300000001". */
    @Override
    public String toString() {
        return String.format("0x%016x", guid);
    }
}
