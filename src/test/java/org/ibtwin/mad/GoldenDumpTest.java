package org.ibtwin.mad;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.ibtwin.fixture.TestResources;
import org.junit.jupiter.api.Test;

/**
 * Our dumps against the real tools, byte for byte. The golden files in {@code src/test/resources/mad/golden} are
 * what smpquery, perfquery and sminfo (infiniband-diags 44.0) printed against ibsim 0.10 running
 * {@code mad/mad.net} with OpenSM 3.3.23 as SM ({@code golden/COMMANDS} lists each command; {@code README.md}
 * there says how). Each test writes the values the real output shows into our layouts, usually inside a whole
 * 256-byte MAD, and checks our dump prints exactly that output.
 */
class GoldenDumpTest {
    private static final int DATA = MadHeaders.SMP_DATA_OFFSET;

    static String golden(String name) {
        return TestResources.text("/mad/golden/" + name + ".txt");
    }

    /** A map of field values from name, value pairs. */
    static Map<String, Object> values(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    /** {@code base} with some values changed. */
    static Map<String, Object> with(Map<String, Object> base, Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>(base);
        m.putAll(values(kv));
        return m;
    }

    /** A GetResp SMP (directed route when {@code dest} is, else LID routed) carrying {@code attr} encoded. */
    static byte[] smp(PortId dest, int attrId, Layout attr, Map<String, Object> v) {
        byte[] mad = new byte[MadHeaders.MAD_SIZE];
        boolean dr = dest.lid() == 0;
        Layout hdr = dr ? MadHeaders.SMP_DR : MadHeaders.SMP_LID;
        hdr.encode(values("MadBaseVersion", 1, "MadMgmtClass", dr ? MgmtClasses.SUBN_DIRECTED : MgmtClasses.SUBN_LID,
                "MadClassVersion", 1, "MadIsResponse", 1, "MadMethod", Methods.GET_RESP & 0x7f,
                "MadTRID", 0x1234_5678_9abcL, "MadAttr", attrId), mad, 0);
        assertThat(Attributes.get(MadHeaders.mgmtClass(mad), MadHeaders.attributeId(mad))).isSameAs(attr);
        assertThat(MadHeaders.method(mad)).isEqualTo(Methods.GET_RESP);
        attr.encode(v, mad, DATA);
        return mad;
    }

    /** A GetResp PerfMgt MAD carrying {@code attr} encoded. */
    static byte[] perf(int attrId, Layout attr, Map<String, Object> v) {
        byte[] mad = MadHeaders.PERF.encode(values("MadBaseVersion", 1, "MadMgmtClass", MgmtClasses.PERF,
                "MadClassVersion", 1, "MadIsResponse", 1, "MadMethod", 1, "MadAttr", attrId));
        assertThat(Attributes.get(MgmtClasses.PERF, attrId)).isSameAs(attr);
        attr.encode(v, mad, MadHeaders.PERF_DATA_OFFSET);
        return mad;
    }

    // ---- NodeInfo, NodeDescription

    static final Map<String, Object> CA_NODE = values("BaseVers", 1, "ClassVers", 1, "NodeType", 1, "NumPorts", 1,
            "SystemGuid", 0x100000L, "Guid", 0x100000L, "PortGuid", 0x100001L, "PartCap", 64, "DevId", 0,
            "Revision", 0xa1, "LocalPort", 1, "VendorId", 0);

    @Test
    void nodeInfoOfASwitch() {
        Map<String, Object> v = with(CA_NODE, "NodeType", 2, "NumPorts", 12, "SystemGuid", 0x200000L,
                "Guid", 0x200000L, "PortGuid", 0x200000L, "PartCap", 8, "LocalPort", 0);
        PortId dest = PortId.lid(3);
        byte[] mad = smp(dest, AttributeIds.NODE_INFO, SmpAttributes.NODE_INFO, v);
        assertThat(Dumps.nodeInfo(dest, mad, DATA)).isEqualTo(golden("nodeinfo-3"));
    }

    @Test
    void nodeInfoOfCas() {
        PortId dest = PortId.lid(4);
        byte[] mad = smp(dest, AttributeIds.NODE_INFO, SmpAttributes.NODE_INFO, CA_NODE);
        assertThat(Dumps.nodeInfo(dest, mad, DATA)).isEqualTo(golden("nodeinfo-4"));

        Map<String, Object> h2 = with(CA_NODE, "NumPorts", 2, "SystemGuid", 0x100002L, "Guid", 0x100002L,
                "PortGuid", 0x100004L, "LocalPort", 2);
        byte[] attr = SmpAttributes.NODE_INFO.encode(h2);
        assertThat(Dumps.nodeInfo(PortId.lid(8), attr, 0)).isEqualTo(golden("nodeinfo-8"));
    }

    @Test
    void nodeInfoOverADirectedRoute() {
        PortId dest = PortId.directed(0, 1);
        byte[] mad = smp(dest, AttributeIds.NODE_INFO, SmpAttributes.NODE_INFO, CA_NODE);
        assertThat(Dumps.nodeInfo(dest, mad, DATA)).isEqualTo(golden("nodeinfo-dr"));
    }

    @Test
    void nodeDescriptions() {
        String[][] cases = {{"nodedesc-1", "spine two"}, {"nodedesc-3", "leaf switch one"},
            {"nodedesc-4", "node001 HCA-1"}, {"nodedesc-6", "node002 mlx5_0"}};
        for (String[] c : cases) {
            byte[] mad = smp(PortId.lid(1), AttributeIds.NODE_DESC, SmpAttributes.NODE_DESCRIPTION,
                    values("NodeDesc", c[1]));
            assertThat(Dumps.nodeDesc(mad, DATA)).as(c[0]).isEqualTo(golden(c[0]));
        }
    }

    // ---- PortInfo

    /** Port 1 of H1 (lid 4), a 4xQDR CA port with LMC 1. */
    static final Map<String, Object> CA_PORT = values("Mkey", 0x0123_4567_89ab_cdefL,
            "GidPrefix", 0xfe80_0000_0000_0000L, "Lid", 4, "SMLid", 3, "CapMask", 0x50c048, "DiagCode", 0,
            "MkeyLeasePeriod", 4089, "LocalPort", 1, "LinkWidthEnabled", 3, "LinkWidthSupported", 31,
            "LinkWidthActive", 2, "LinkSpeedSupported", 7, "LinkState", 4, "PhysLinkState", 5,
            "LinkDownDefState", 2, "ProtectBits", 0, "LMC", 1, "LinkSpeedActive", 4, "LinkSpeedEnabled", 7,
            "NeighborMTU", 4, "SMSL", 0, "VLCap", 4, "InitType", 0, "VLHighLimit", 0, "VLArbHighCap", 8,
            "VLArbLowCap", 8, "InitReply", 0, "MtuCap", 4, "VLStallCount", 7, "HoqLife", 0, "OperVLs", 4,
            "PartEnforceInb", 0, "PartEnforceOutb", 0, "FilterRawInb", 0, "FilterRawOutb", 0, "MkeyViolations", 0,
            "PkeyViolations", 0, "QkeyViolations", 0, "GuidCap", 32, "ClientReregister", 0,
            "McastPkeyTrapSuppressionEnabled", 0, "SubnetTimeout", 31, "RespTimeVal", 0, "LocalPhysErr", 0,
            "OverrunErr", 0, "MaxCreditHint", 0, "RoundTrip", 0, "CapabilityMask2", 0x30,
            "LinkSpeedExtActive", 0, "LinkSpeedExtSupported", 0, "LinkSpeedExtEnabled", 0);

    /** Port 1 of the leaf switch: no LID, no capability mask of its own. */
    static final Map<String, Object> SWITCH_PORT = with(CA_PORT, "GidPrefix", 0L, "Lid", 0, "SMLid", 0,
            "CapMask", 0, "MkeyLeasePeriod", 0, "LocalPort", 0, "LMC", 0, "HoqLife", 16, "GuidCap", 0,
            "SubnetTimeout", 0, "CapabilityMask2", 0);

    void portInfo(String golden, PortId dest, int port, Map<String, Object> v) {
        byte[] mad = smp(dest, AttributeIds.PORT_INFO, SmpAttributes.PORT_INFO, v);
        assertThat(Dumps.portInfo(dest, port, mad, DATA)).as(golden).isEqualTo(golden(golden));
    }

    @Test
    void portInfoOfCaPorts() {
        portInfo("portinfo-4-1", PortId.lid(4), 1, CA_PORT);
        portInfo("portinfo-8-2", PortId.lid(8), 2, with(CA_PORT, "Lid", 8, "LocalPort", 2, "LinkWidthEnabled", 1,
                "LinkWidthActive", 1, "LinkSpeedActive", 1, "LinkSpeedEnabled", 1));
    }

    @Test
    void portInfoOfSwitchPortZero() {
        portInfo("portinfo-3-0", PortId.lid(3), 0, with(CA_PORT, "Lid", 3, "CapMask", 0xc04a, "LocalPort", 0,
                "LinkWidthEnabled", 2, "LMC", 0, "LinkSpeedActive", 1, "LinkSpeedEnabled", 1, "NeighborMTU", 1,
                "MtuCap", 3, "VLStallCount", 0, "GuidCap", 1, "RespTimeVal", 8));
    }

    @Test
    void portInfoOfSwitchExternalPorts() {
        portInfo("portinfo-3-1", PortId.lid(3), 1, SWITCH_PORT);
        portInfo("portinfo-3-5", PortId.lid(3), 5, with(SWITCH_PORT, "LinkWidthEnabled", 2, "LinkState", 1,
                "PhysLinkState", 2, "LinkSpeedActive", 1, "LinkSpeedEnabled", 1, "HoqLife", 0, "LocalPhysErr", 4));
        Map<String, Object> fdr = with(SWITCH_PORT, "LinkWidthEnabled", 15, "LinkWidthActive", 8, "HoqLife", 18,
                "LinkSpeedExtActive", 1, "LinkSpeedExtSupported", 7, "LinkSpeedExtEnabled", 1);
        portInfo("portinfo-1-4", PortId.lid(1), 4, fdr);
        portInfo("portinfo-dr", PortId.directed(0, 4), 4, with(fdr, "LocalPort", 4));
    }

    // ---- SwitchInfo, P_Keys, GUIDs, SL2VL, VL arbitration, vendor PortInfo, SMInfo

    static final Map<String, Object> SWITCH = values("LinearFdbCap", 30720, "RandomFdbCap", 0, "McastFdbCap", 1024,
            "LinearFdbTop", 9, "DefPort", 0, "DefMcastPrimPort", 0, "DefMcastNotPrimPort", 0, "LifeTime", 18,
            "StateChange", 0, "OptSLtoVLMapping", 0, "LidsPerPort", 0, "PartEnforceCap", 64, "InboundPartEnf", 0,
            "OutboundPartEnf", 0, "FilterRawInbound", 1, "FilterRawOutbound", 1, "EnhancedPort0", 1,
            "MulticastFDBTop", 0);

    @Test
    void switchInfo() {
        byte[] mad = smp(PortId.lid(3), AttributeIds.SWITCH_INFO, SmpAttributes.SWITCH_INFO, SWITCH);
        assertThat(Dumps.switchInfo(PortId.lid(3), mad, DATA)).isEqualTo(golden("switchinfo-3"));
        mad = smp(PortId.lid(1), AttributeIds.SWITCH_INFO, SmpAttributes.SWITCH_INFO,
                with(SWITCH, "EnhancedPort0", 0));
        assertThat(Dumps.switchInfo(PortId.lid(1), mad, DATA)).isEqualTo(golden("switchinfo-1"));
    }

    static List<byte[]> blocks(Layout l, int n, Map<String, Object> first) {
        List<byte[]> out = new ArrayList<>();
        out.add(l.encode(first));
        for (int i = 1; i < n; i++) {
            out.add(new byte[l.size()]);
        }
        return out;
    }

    @Test
    void pkeys() {
        Map<String, Object> keys = values("PKey0", 0xffff, "PKey1", 0x8001, "PKey2", 0x0002);
        List<byte[]> b = blocks(SmpAttributes.P_KEY_TABLE, 2, keys);
        assertThat(Dumps.pkeys(8, b)).isEqualTo(golden("pkeys-3"));
        assertThat(Dumps.pkeys(64, b)).isEqualTo(golden("pkeys-4"));
    }

    @Test
    void guids() {
        assertThat(Dumps.guids(1, blocks(SmpAttributes.GUID_INFO, 1, values("GUID0", 0x200000L))))
                .isEqualTo(golden("guids-3"));
        assertThat(Dumps.guids(32, blocks(SmpAttributes.GUID_INFO, 4, values("GUID0", 0x100001L))))
                .isEqualTo(golden("guids-4"));
    }

    static final Map<String, Object> SL2VL = values("SL0", 0, "SL1", 1, "SL2", 2, "SL3", 3, "SL4", 4, "SL5", 5,
            "SL6", 6, "SL7", 7, "SL8", 8, "SL9", 9, "SL10", 10, "SL11", 11, "SL12", 12, "SL13", 13, "SL14", 14,
            "SL15", 7);

    @Test
    void sl2vlOfACa() {
        byte[] mad = smp(PortId.lid(4), AttributeIds.SL_TO_VL_TABLE, SmpAttributes.SL_TO_VL_TABLE, SL2VL);
        assertThat(Dumps.sl2vlHeader(PortId.lid(4)) + Dumps.sl2vlRow(0, 0, mad, DATA)).isEqualTo(golden("sl2vl-4"));
    }

    @Test
    void sl2vlOfASwitch() {
        StringBuilder sb = new StringBuilder(Dumps.sl2vlHeader(PortId.lid(3)));
        byte[] table = SmpAttributes.SL_TO_VL_TABLE.encode(SL2VL);
        for (int in = 0; in <= 12; in++) {
            sb.append(Dumps.sl2vlRow(in, 0, table, 0));
        }
        assertThat(sb.toString()).isEqualTo(golden("sl2vl-3"));
    }

    @Test
    void vlArbitration() {
        Map<String, Object> low = new LinkedHashMap<>();
        Map<String, Object> high = new LinkedHashMap<>();
        for (int i = 0; i < 8; i++) {
            low.put("Entry" + i + "VL", i);
            low.put("Entry" + i + "Weight", i == 0 ? 0 : 4);
            high.put("Entry" + i + "VL", i);
            high.put("Entry" + i + "Weight", i == 0 ? 4 : 0);
        }
        PortId dest = PortId.lid(4);
        String out = Dumps.vlArbHeader(dest, 1, 8, 8)
                + Dumps.vlArbTable("Low", 8, List.of(SmpAttributes.VL_ARB_TABLE.encode(low)))
                + Dumps.vlArbTable("High", 8, List.of(SmpAttributes.VL_ARB_TABLE.encode(high)));
        assertThat(out).isEqualTo(golden("vlarb-4-1"));
        assertThat(Dumps.noVlArb(PortId.lid(1), 0)).isEqualTo(golden("vlarb-1"));
    }

    @Test
    void mellanoxExtendedPortInfo() {
        byte[] mad = smp(PortId.lid(4), AttributeIds.MLNX_EXT_PORT_INFO, SmpAttributes.MLNX_EXT_PORT_INFO,
                values());
        assertThat(Dumps.mlnxExtPortInfo(PortId.lid(4), 1, mad, DATA)).isEqualTo(golden("mepi-4"));
    }

    @Test
    void smInfo() {
        byte[] mad = smp(PortId.lid(3), AttributeIds.SM_INFO, SmpAttributes.SM_INFO, values("SmInfoGuid", 0x200000L,
                "SmInfoKey", 0L, "SmActivity", 103, "SmPriority", 0, "SmState", 3));
        assertThat(Dumps.smInfo(3, mad, DATA)).isEqualTo(golden("sminfo"));
    }

    // ---- perfquery

    static final int CAP_CA = 0x1200;
    static final int CAP_SWITCH = 0x1300;

    @Test
    void portCountersWithErrors() {
        byte[] cpi = PerfAttributes.CLASS_PORT_INFO.encode(values("BaseVersion", 1, "ClassVersion", 1,
                "CapabilityMask", CAP_CA, "CapabilityMask2", 0, "RespTimeVal", 18));
        int capMask = (int) PerfAttributes.CLASS_PORT_INFO.get(cpi, 0, "CapabilityMask");
        // QP1Dropped stays 0, as in ibsim: perfquery shows VL15Dropped's 77 for it too.
        byte[] mad = perf(AttributeIds.PORT_COUNTERS, PerfAttributes.PORT_COUNTERS, values("PortSelect", 1,
                "CounterSelect", 0, "SymbolErrorCounter", 65535, "LinkErrorRecoveryCounter", 7,
                "LinkDownedCounter", 3, "PortRcvErrors", 12, "PortRcvRemotePhysicalErrors", 1,
                "PortRcvSwitchRelayErrors", 2, "PortXmitDiscards", 400, "PortXmitConstraintErrors", 5,
                "PortRcvConstraintErrors", 6, "CounterSelect2", 0, "LocalLinkIntegrityErrors", 9,
                "ExcessiveBufferOverrunErrors", 15, "QP1Dropped", 0, "VL15Dropped", 77,
                "PortXmitData", 4294967295L, "PortRcvData", 123458805, "PortXmitPkts", 1000027,
                "PortRcvPkts", 1000027, "PortXmitWait", 31337));
        assertThat(Dumps.portCounters(PortId.lid(4), 1, capMask, mad, 64)).isEqualTo(golden("perf-4-1"));
    }

    @Test
    void portCountersOfAllPorts() {
        byte[] mad = perf(AttributeIds.PORT_COUNTERS, PerfAttributes.PORT_COUNTERS, values("PortSelect", 255,
                "PortRcvSwitchRelayErrors", 18, "PortXmitData", 7704, "PortRcvData", 7704, "PortXmitPkts", 107,
                "PortRcvPkts", 107));
        assertThat(Dumps.portCounters(PortId.lid(3), 255, CAP_SWITCH, mad, 64)).isEqualTo(golden("perf-3-all"));
    }

    @Test
    void portCountersExtended() {
        byte[] mad = perf(AttributeIds.PORT_COUNTERS_EXTENDED, PerfAttributes.PORT_COUNTERS_EXTENDED,
                values("PortSelect", 1, "PortXmitData", -1L, "PortRcvData", 1234567892283L,
                        "PortXmitPkts", 5000000029L, "PortRcvPkts", 5000000029L, "PortUnicastXmitPkts", 42,
                        "PortUnicastRcvPkts", 43, "PortMulticastXmitPkts", 44, "PortMulticastRcvPkts", 0,
                        // ClassPortInfo's CapabilityMask2 has no extended error counters: not printed
                        "SymbolErrorCounter", 99));
        assertThat(Dumps.portCountersExtended(PortId.lid(4), 1, CAP_CA, 0, mad, 64)).isEqualTo(golden("perfx-4-1"));

        mad = perf(AttributeIds.PORT_COUNTERS_EXTENDED, PerfAttributes.PORT_COUNTERS_EXTENDED, values(
                "PortSelect", 4, "PortXmitData", 4464, "PortRcvData", 4464, "PortXmitPkts", 62, "PortRcvPkts", 62));
        assertThat(Dumps.portCountersExtended(PortId.lid(3), 4, CAP_SWITCH, 0, mad, 64))
                .isEqualTo(golden("perfx-3-4"));
    }

    @Test
    void errorAndDiscardDetails() {
        byte[] mad = perf(AttributeIds.PORT_RCV_ERROR_DETAILS, PerfAttributes.PORT_RCV_ERROR_DETAILS, values(
                "PortSelect", 1, "PortLocalPhysicalErrors", 11, "PortMalformedPktErrors", 22,
                "PortBufferOverrunErrors", 33, "PortDLIDMappingErrors", 44, "PortVLMappingErrors", 55,
                "PortLoopingErrors", 66));
        assertThat(Dumps.portRcvErrorDetails(PortId.lid(4), 1, mad, 64)).isEqualTo(golden("perf-rcverr"));

        mad = perf(AttributeIds.PORT_XMIT_DISCARD_DETAILS, PerfAttributes.PORT_XMIT_DISCARD_DETAILS, values(
                "PortSelect", 1, "PortInactiveDiscards", 1, "PortNeighborMTUDiscards", 2,
                "PortSwLifetimeLimitDiscards", 3, "PortSwHOQLifetimeLimitDiscards", 65535));
        assertThat(Dumps.portXmitDiscardDetails(PortId.lid(4), 1, mad, 64)).isEqualTo(golden("perf-xmtdisc"));
    }
}
