package org.ibtwin.doctor;

import java.util.HashMap;
import java.util.Map;
import org.ibtwin.fixture.InMemoryTransport;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.MadHeaders;
import org.ibtwin.mad.MadStatus;
import org.ibtwin.mad.Methods;
import org.ibtwin.mad.MgmtClasses;
import org.ibtwin.mad.PerfAttributes;
import org.ibtwin.mad.SmpAttributes;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.LinkWidth;
import org.ibtwin.model.Node;
import org.ibtwin.model.Port;
import org.ibtwin.model.PortCounter;
import org.ibtwin.transport.LocalPort;
import org.ibtwin.transport.MadAddress;

/**
 * A test stand-in for a fabric on the wire: a model {@link Fabric} answering the SMPs live discovery sends (NodeInfo,
 * NodeDescription, SwitchInfo, PortInfo, P_KeyTable, SMInfo at the SM's node) by directed route from the port it is
 * attached at, and PMA PortCounters by LID from the model's counters. Anything else goes unanswered or gets
 * "unsupported". Not the twin (doctor must not use the twin); just enough of an SMA and PMA for doctor's tests.
 */
final class ModelTransport extends InMemoryTransport {
    private final Fabric f;
    private final Port attach;
    private final Node sm;
    private final Map<Integer, Port> byLid = new HashMap<>();

    /** @param sm the node whose SMInfo answers as the master (null: no SM) */
    ModelTransport(Fabric f, Port attach, Node sm) {
        super(1);
        this.f = f;
        this.attach = attach;
        this.sm = sm;
        for (Node n : f.nodes()) {
            for (int i = n.isSwitch() ? 0 : 1; i <= (n.isSwitch() ? 0 : n.numPorts()); i++) {
                if (n.port(i).lid() > 0) {
                    byLid.put(n.port(i).lid(), n.port(i));
                }
            }
        }
    }

    @Override
    public LocalPort localPort() {
        return new LocalPort("model0", attach.number(), attach.node().guid(), attach.guid(), attach.lid(), 0,
                attach.smLid(), 4, false);
    }

    @Override
    protected byte[] answer(byte[] mad, MadAddress to) {
        int cls = MadHeaders.mgmtClass(mad);
        int attr = MadHeaders.attributeId(mad);
        long mod = MadHeaders.attributeModifier(mad);
        byte[] r = mad.clone();
        r[3] = (byte) Methods.GET_RESP;
        byte[] data = new byte[64];
        int status;
        if (cls == MgmtClasses.SUBN_DIRECTED) {
            Port at = walk(mad);
            if (at == null) {
                return null;
            }
            status = smp(at, attr, mod, data);
            r[4] |= (byte) 0x80;
            System.arraycopy(data, 0, r, MadHeaders.SMP_DATA_OFFSET, 64);
        } else if (cls == MgmtClasses.PERF) {
            Port p = byLid.get(to.lid());
            if (p == null) {
                return null;
            }
            byte[] d = new byte[192];
            status = pma(p.node(), attr, mad[MadHeaders.PERF_DATA_OFFSET + 1] & 0xff, d);
            System.arraycopy(d, 0, r, MadHeaders.PERF_DATA_OFFSET, 192);
        } else {
            return null;
        }
        r[4] = (byte) ((r[4] & 0x80) | (status >> 8));
        r[5] = (byte) status;
        return r;
    }

    /** Follows the initial path: the port the SMP arrives at, or null where the path leads nowhere. */
    private Port walk(byte[] mad) {
        int hops = (int) MadHeaders.SMP_DR.get(mad, 0, "DrSmpHopCnt");
        byte[] path = MadHeaders.SMP_DR.getBytes(mad, 0, "DrSmpPath");
        Port at = attach;
        for (int i = 1; i <= hops; i++) {
            Node n = at.node();
            if (!n.isSwitch() && i > 1) {
                return null;        // a CA does not forward
            }
            Port out = n.port(path[i] & 0xff);
            if (out == null || out.link() == null || !out.link().isUp()) {
                return null;
            }
            at = out.remote();
        }
        return at;
    }

    private int smp(Port at, int attr, long mod, byte[] d) {
        Node n = at.node();
        switch (attr) {
            case AttributeIds.NODE_INFO -> SmpAttributes.NODE_INFO.encode(Map.of("BaseVers", 1, "ClassVers", 1,
                    "NodeType", n.type().code(), "NumPorts", n.numPorts(), "SystemGuid", n.systemImageGuid(), "Guid",
                    n.guid(), "PortGuid", n.isSwitch() ? n.guid() : at.guid(), "DevId", n.deviceId(), "VendorId",
                    n.vendorId(), "LocalPort", at.number()), d, 0);
            case AttributeIds.NODE_DESC -> SmpAttributes.NODE_DESCRIPTION.encode(Map.of("NodeDesc", n.description()),
                    d, 0);
            case AttributeIds.SWITCH_INFO -> {
                if (!n.isSwitch()) {
                    return MadStatus.METHOD_ATTR_NOT_SUPPORTED;
                }
                SmpAttributes.SWITCH_INFO.encode(Map.of("LinearFdbCap", 49152, "EnhancedPort0",
                        n.enhancedPort0() ? 1 : 0), d, 0);
            }
            case AttributeIds.PORT_INFO -> {
                Port p = n.port((int) (mod & 0xff));
                if (p == null || (p.isSwitchPort0() && !n.isSwitch())) {
                    return MadStatus.INVALID_FIELD;
                }
                portInfo(p, at, d);
            }
            case AttributeIds.P_KEY_TABLE -> {
                int[] keys = at.pkeys();
                for (int i = 0; i < Math.min(32, keys.length); i++) {
                    d[2 * i] = (byte) (keys[i] >> 8);
                    d[2 * i + 1] = (byte) keys[i];
                }
            }
            case AttributeIds.SM_INFO -> {
                if (n != sm) {
                    return MadStatus.METHOD_ATTR_NOT_SUPPORTED;
                }
                SmpAttributes.SM_INFO.encode(Map.of("SmInfoGuid", n.managementPort().guid(), "SmPriority", 0,
                        "SmState", 3), d, 0);
            }
            default -> {
                return MadStatus.METHOD_ATTR_NOT_SUPPORTED;
            }
        }
        return 0;
    }

    /** PortInfo of {@code p}, asked through {@code at}: LocalPortNum is the port the SMP came in by, as an SMA sets it. */
    private void portInfo(Port p, Port at, byte[] d) {
        Node n = p.node();
        Port mgmt = n.managementPort();
        Layout l = SmpAttributes.PORT_INFO;
        int cap = 0x4000 | (n == sm && (p.isSwitchPort0() || !n.isSwitch()) ? 0x2 : 0);
        l.set(d, 0, "Lid", n.isSwitch() ? mgmt.lid() : p.lid());
        l.set(d, 0, "SMLid", p.smLid());
        l.set(d, 0, "CapMask", cap);
        l.set(d, 0, "LMC", p.lmc());
        l.set(d, 0, "LocalPort", at.number());
        l.set(d, 0, "MtuCap", p.mtuCap().code());
        l.set(d, 0, "LinkState", p.isSwitchPort0() ? 4 : p.state().code());
        l.set(d, 0, "PhysLinkState", p.isSwitchPort0() ? 5 : p.physState().code());
        if (p.isSwitchPort0()) {
            return;
        }
        l.set(d, 0, "LinkWidthSupported", widthBits(p.widthSupported()));
        l.set(d, 0, "LinkWidthEnabled", widthBits(p.widthEnabled()));
        l.set(d, 0, "LinkSpeedSupported", speedBits(p.speedSupported(), false));
        l.set(d, 0, "LinkSpeedEnabled", speedBits(p.speedEnabled(), false));
        l.set(d, 0, "LinkSpeedExtSupported", speedBits(p.speedSupported(), true));
        l.set(d, 0, "LinkSpeedExtEnabled", speedBits(p.speedEnabled(), true));
        if (p.widthActive() != null) {
            l.set(d, 0, "LinkWidthActive", p.widthActive().code());
            LinkSpeed s = p.speedActive();
            l.set(d, 0, "LinkSpeedActive", s.speedCode() != 0 ? s.speedCode() : 4);
            l.set(d, 0, "LinkSpeedExtActive", s.extSpeedCode());
        }
    }

    private static int widthBits(int mask) {
        int b = 0;
        for (LinkWidth w : LinkWidth.values()) {
            if ((mask & (1 << w.ordinal())) != 0) {
                b |= w.code();
            }
        }
        return b;
    }

    private static int speedBits(int mask, boolean ext) {
        int b = 0;
        for (LinkSpeed s : LinkSpeed.values()) {
            if ((mask & (1 << s.ordinal())) != 0 && s != LinkSpeed.FDR10) {
                b |= ext ? s.extSpeedCode() : s.speedCode();
            }
        }
        return b;
    }

    private static int pma(Node n, int attr, int portSelect, byte[] d) {
        if (attr != AttributeIds.PORT_COUNTERS) {
            return MadStatus.METHOD_ATTR_NOT_SUPPORTED;
        }
        Port p = n.port(portSelect);
        if (p == null) {
            return MadStatus.INVALID_FIELD;
        }
        Layout l = PerfAttributes.PORT_COUNTERS;
        l.set(d, 0, "PortSelect", portSelect);
        for (PortCounter c : PortCounter.values()) {
            l.find(c.fieldName()).ifPresent(fd -> l.set(d, 0, fd, p.counter(c)));
        }
        return 0;
    }
}
