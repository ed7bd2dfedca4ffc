package org.ibtwin.diag;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.ibtwin.fixture.InMemoryTransport;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.MadHeaders;
import org.ibtwin.mad.MadStatus;
import org.ibtwin.mad.Methods;
import org.ibtwin.mad.MgmtClasses;
import org.ibtwin.mad.PerfAttributes;
import org.ibtwin.mad.SaAttributes;
import org.ibtwin.mad.SmpAttributes;
import org.ibtwin.transport.LocalPort;
import org.ibtwin.transport.MadAddress;

/**
 * A two-node fabric answering MADs in memory, for tests of the query layer and the commands without ibsim: switch
 * "sw" (LID 1, 4 ports, enhanced port 0, node GUID 0x10) where we are attached, and CA "ca" (LID 2, one port, node
 * GUID 0x20, port GUID 0x21) on its port 1; the SM is at LID 1. Requests to anything else go unanswered (a timeout);
 * a port past a node's last gets status 0x001c. It records every request it was sent.
 */
public final class FakeFabric extends InMemoryTransport {
    public static final int SWITCH_LID = 1;
    public static final int CA_LID = 2;
    public static final long CA_PORT_GUID = 0x21;

    /** The requests sent, in order, as sent. */
    public final List<byte[]> sent = Collections.synchronizedList(new ArrayList<>());
    /** The destinations of {@link #sent}. */
    public final List<MadAddress> sentTo = Collections.synchronizedList(new ArrayList<>());
    /** PortCounters of every port of both nodes, [node][port]: SymbolErrorCounter, PortXmitData. */
    private final long[][] symbolErrors = {{0, 3, 0, 0, 0}, {0, 9}};

    public FakeFabric() {
        super(100);
    }

    @Override
    public LocalPort localPort() {
        return new LocalPort("fake0", 0, 0x10, 0x10, SWITCH_LID, 0, SWITCH_LID, 4, false);
    }

    /** Which node a request reaches: 0 the switch, 1 the CA, -1 nothing. */
    private static int target(byte[] mad, MadAddress to) {
        int cls = MadHeaders.mgmtClass(mad);
        if (cls == MgmtClasses.SUBN_DIRECTED && to.lid() == MadAddress.PERMISSIVE_LID) {
            int hops = mad[7];
            if (hops == 0) {
                return 0;
            }
            if (hops == 1 && mad[129] == 1) {
                return 1;
            }
            return -1;
        }
        if (cls == MgmtClasses.SUBN_DIRECTED) {
            return -1;      // combined routes: not supported here, as in ibsim
        }
        return to.lid() == SWITCH_LID ? 0 : to.lid() == CA_LID ? 1 : -1;
    }

    @Override
    protected byte[] answer(byte[] mad, MadAddress to) {
        sent.add(mad.clone());
        sentTo.add(to);
        return respond(mad, to);
    }

    private byte[] respond(byte[] mad, MadAddress to) {
        int node = target(mad, to);
        if (node < 0) {
            return null;
        }
        byte[] r = mad.clone();
        r[3] = (byte) Methods.GET_RESP;
        int cls = MadHeaders.mgmtClass(mad);
        int attr = MadHeaders.attributeId(mad);
        long mod = MadHeaders.attributeModifier(mad);
        byte[] data = new byte[cls == MgmtClasses.SUBN_ADM ? 200 : 192];
        int status;
        if (MgmtClasses.isSmp(cls)) {
            status = smp(node, attr, mod, data);
            if (cls == MgmtClasses.SUBN_DIRECTED) {
                r[4] |= (byte) 0x80;    // D bit: the way back
            }
        } else if (cls == MgmtClasses.PERF) {
            status = pma(node, MadHeaders.method(mad), attr, Arrays.copyOfRange(mad, 64, 256), data);
        } else {
            status = sa(attr, Arrays.copyOfRange(mad, 56, 256), data);
        }
        r[4] = (byte) ((r[4] & 0x80) | (status >> 8));
        r[5] = (byte) status;
        int off = cls == MgmtClasses.SUBN_ADM ? 56 : 64;
        System.arraycopy(data, 0, r, off, Math.min(data.length, 256 - off));
        return r;
    }

    private int smp(int node, int attr, long mod, byte[] d) {
        boolean sw = node == 0;
        int ports = sw ? 4 : 1;
        switch (attr) {
            case AttributeIds.NODE_INFO -> SmpAttributes.NODE_INFO.encode(java.util.Map.of("BaseVers", 1,
                    "ClassVers", 1, "NodeType", sw ? 2 : 1, "NumPorts", ports, "SystemGuid", sw ? 0x10L : 0x20L,
                    "Guid", sw ? 0x10L : 0x20L, "PortGuid", sw ? 0x10L : 0x21L, "PartCap", sw ? 8 : 64,
                    "LocalPort", sw ? 0 : 1), d, 0);
            case AttributeIds.NODE_DESC -> SmpAttributes.NODE_DESCRIPTION.encode(java.util.Map.of("NodeDesc",
                    sw ? "sw" : "ca\u0001x"), d, 0);
            case AttributeIds.SWITCH_INFO -> {
                if (!sw) {
                    return MadStatus.METHOD_ATTR_NOT_SUPPORTED;
                }
                SmpAttributes.SWITCH_INFO.encode(java.util.Map.of("LinearFdbCap", 128, "McastFdbCap", 32,
                        "LinearFdbTop", 2, "PartEnforceCap", 32, "EnhancedPort0", 1), d, 0);
            }
            case AttributeIds.PORT_INFO -> {
                int p = (int) (mod & 0xff);
                if (p > ports) {
                    return MadStatus.INVALID_FIELD;
                }
                SmpAttributes.PORT_INFO.encode(java.util.Map.of("Lid", sw ? SWITCH_LID : CA_LID, "SMLid", 1,
                        "LocalPort", sw ? p : 1, "GidPrefix", 0xfe80_0000_0000_0000L, "VLArbLowCap", 8,
                        "VLArbHighCap", 8, "GuidCap", sw ? 1 : 8, "LinkState", p == 1 || p == 0 ? 4 : 1), d, 0);
            }
            case AttributeIds.P_KEY_TABLE, AttributeIds.GUID_INFO, AttributeIds.SL_TO_VL_TABLE,
                    AttributeIds.VL_ARB_TABLE -> d[1] = (byte) 0xff;
            case AttributeIds.LINEAR_FWD_TABLE -> {
                if (!sw || mod > 1) {
                    return MadStatus.INVALID_FIELD;
                }
                Arrays.fill(d, 0, 64, (byte) 0xff);
                if (mod == 0) {
                    d[1] = 0;
                    d[2] = 1;
                }
            }
            case AttributeIds.MCAST_FWD_TABLE -> {
                if (!sw) {
                    return MadStatus.INVALID_FIELD;
                }
                if (mod == 0) {
                    d[0] = 0;
                    d[1] = 0x06;        // MLID 0xc000 to ports 1 and 2
                }
            }
            default -> {
                return MadStatus.METHOD_ATTR_NOT_SUPPORTED;
            }
        }
        return 0;
    }

    private int pma(int node, int method, int attr, byte[] req, byte[] d) {
        int port = req[1] & 0xff;
        int ports = node == 0 ? 4 : 1;
        if (attr == AttributeIds.CLASS_PORT_INFO) {
            d[2] = 0x12;                                 // CapMask 0x1200: PortXmitWait, extended width
            return 0;
        }
        if (port > ports || node == 1 && port == 0) {
            return MadStatus.INVALID_FIELD;
        }
        System.arraycopy(req, 0, d, 0, 4);
        if (method == Methods.SET) {
            int select = ((req[2] & 0xff) << 8) | (req[3] & 0xff);
            if ((select & 1) != 0) {
                symbolErrors[node][port] = 0;
            }
            return 0;
        }
        if (attr == AttributeIds.PORT_COUNTERS) {
            PerfAttributes.PORT_COUNTERS.set(d, 0, "SymbolErrorCounter", symbolErrors[node][port]);
            PerfAttributes.PORT_COUNTERS.set(d, 0, "PortXmitData", 1000L * port);
            PerfAttributes.PORT_COUNTERS.set(d, 0, "PortXmitWait", 5);
            return 0;
        }
        if (attr == AttributeIds.PORT_XMIT_DISCARD_DETAILS || attr == AttributeIds.PORT_RCV_ERROR_DETAILS) {
            return 0;
        }
        if (attr == AttributeIds.PORT_COUNTERS_EXTENDED) {
            PerfAttributes.PORT_COUNTERS_EXTENDED.set(d, 0, "PortXmitData", 1L << 40);
            return 0;
        }
        return MadStatus.METHOD_ATTR_NOT_SUPPORTED;
    }

    private static int sa(int attr, byte[] req, byte[] d) {
        if (attr != AttributeIds.PATH_RECORD) {
            return MadStatus.METHOD_ATTR_NOT_SUPPORTED;
        }
        byte[] dgid = SaAttributes.PATH_RECORD.getBytes(req, 0, "PathRecDGid");
        long guid = ByteBuffer.wrap(dgid).getLong(8);
        int lid = guid == CA_PORT_GUID ? CA_LID : guid == 0x10 ? SWITCH_LID : 0;
        if (lid == 0) {
            return MadStatus.SA_NO_RECORDS;
        }
        SaAttributes.PATH_RECORD.set(d, 0, "PathRecDLid", lid);
        return 0;
    }
}
