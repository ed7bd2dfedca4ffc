package org.ibtwin.mad;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Where fields sit (checked byte by byte against the IBA specification's tables), every layout at its extremes,
 * the registry, the builder's checks.
 */
class LayoutTest {

    static List<Layout> layouts() {
        return Attributes.all();
    }

    /** Sets one field to all ones in a zeroed attribute: the hex of the result. */
    static String ones(Layout l, String field) {
        byte[] b = new byte[l.size()];
        Field f = l.field(field);
        if (f.isArray()) {
            byte[] v = new byte[f.bitLength() / 8];
            Arrays.fill(v, (byte) 0xff);
            l.setBytes(b, 0, f, v);
        } else {
            l.set(b, 0, f, f.maxValue());
        }
        return HexFormat.of().formatHex(b);
    }

    /** Hex of a buffer of {@code size} bytes with {@code hex} at byte {@code at}. */
    static String at(int size, int at, String hex) {
        byte[] b = new byte[size];
        byte[] h = HexFormat.of().parseHex(hex);
        System.arraycopy(h, 0, b, at, h.length);
        return HexFormat.of().formatHex(b);
    }

    @ParameterizedTest
    @MethodSource("layouts")
    void everyLayoutAtItsExtremes(Layout l) {
        Map<String, Object> max = new LinkedHashMap<>();
        for (Field f : l.fields()) {
            if (f.isArray()) {
                byte[] v = new byte[f.bitLength() / 8];
                Arrays.fill(v, (byte) 0xff);
                max.put(f.name(), v);
            } else {
                max.put(f.name(), f.maxValue());
            }
        }
        byte[] enc = l.encode(max);
        assertThat(enc).isEqualTo(Coverage.mask(l));
        byte[] ones = new byte[l.size()];
        Arrays.fill(ones, (byte) 0xff);
        assertThat(l.encode(l.decode(ones))).isEqualTo(Coverage.mask(l));
        assertThat(l.encode(l.decode(new byte[l.size()]))).isEqualTo(new byte[l.size()]);
        assertThat(l.dump(ones, 0)).isNotEmpty();
        Set<String> names = new HashSet<>();
        for (Field f : l.fields()) {
            assertThat(names.add(f.name())).as(f.name()).isTrue();
            assertThat(f.byteEnd()).isLessThanOrEqualTo(l.size());
        }
    }

    // ---- positions, against the specification's tables

    @Test
    void commonMadHeader() {
        Layout h = MadHeaders.MAD;
        byte[] b = h.encode(Map.of("MadBaseVersion", 1, "MadMgmtClass", MgmtClasses.SUBN_ADM, "MadClassVersion", 2,
                "MadIsResponse", 1, "MadMethod", Methods.GET_TABLE, "MadStatus", MadStatus.SA_NO_RECORDS,
                "MadTRID", 0x0102030405060708L, "MadAttr", AttributeIds.PATH_RECORD, "MadModifier", 0xdeadbeefL));
        assertThat(HexFormat.of().formatHex(b))
                .isEqualTo("01030292" + "0300" + "0000" + "0102030405060708" + "0035" + "0000" + "deadbeef");
        assertThat(MadHeaders.method(b)).isEqualTo(Methods.GET_TABLE_RESP);
        assertThat(MadHeaders.mgmtClass(b)).isEqualTo(MgmtClasses.SUBN_ADM);
        assertThat(MadHeaders.tid(b)).isEqualTo(0x0102030405060708L);
        assertThat(MadHeaders.attributeId(b)).isEqualTo(AttributeIds.PATH_RECORD);
        assertThat(MadHeaders.attributeModifier(b)).isEqualTo(0xdeadbeefL);
        assertThatThrownBy(() -> MadHeaders.attributeModifier(new byte[10])).isInstanceOf(MadFormatException.class)
                .hasMessageContaining("truncated");
    }

    @Test
    void directedRouteSmpHeader() {
        Layout h = MadHeaders.SMP_DR;
        assertThat(ones(h, "DrSmpDirection")).isEqualTo(at(256, 4, "80"));
        assertThat(ones(h, "DrSmpStatus")).isEqualTo(at(256, 4, "7fff"));
        assertThat(ones(h, "DrSmpHopPtr")).isEqualTo(at(256, 6, "ff"));
        assertThat(ones(h, "DrSmpHopCnt")).isEqualTo(at(256, 7, "ff"));
        assertThat(ones(h, "MadMkey")).isEqualTo(at(256, 24, "ffffffffffffffff"));
        assertThat(ones(h, "DrSmpSLID")).isEqualTo(at(256, 32, "ffff"));
        assertThat(ones(h, "DrSmpDLID")).isEqualTo(at(256, 34, "ffff"));
        assertThat(h.field("SmpData").byteOffset()).isEqualTo(MadHeaders.SMP_DATA_OFFSET);
        assertThat(h.field("DrSmpPath").byteOffset()).isEqualTo(128);
        assertThat(h.field("DrSmpRetPath").byteOffset()).isEqualTo(192);
        assertThat(MadHeaders.SMP_LID.field("SmpData").byteOffset()).isEqualTo(64);
        assertThat(MadHeaders.PERF.field("GsData").byteOffset()).isEqualTo(MadHeaders.PERF_DATA_OFFSET);
    }

    @Test
    void saHeaderWithRmpp() {
        Layout h = MadHeaders.SA;
        assertThat(ones(h, "RmppVers")).isEqualTo(at(256, 24, "ff"));
        assertThat(ones(h, "RmppType")).isEqualTo(at(256, 25, "ff"));
        assertThat(ones(h, "RmppResp")).isEqualTo(at(256, 26, "f8"));
        assertThat(ones(h, "RmppFlags")).isEqualTo(at(256, 26, "07"));
        assertThat(ones(h, "RmppStatus")).isEqualTo(at(256, 27, "ff"));
        assertThat(ones(h, "RmppSegNum")).isEqualTo(at(256, 28, "ffffffff"));
        assertThat(ones(h, "RmppPayload")).isEqualTo(at(256, 32, "ffffffff"));
        assertThat(ones(h, "SaSMkey")).isEqualTo(at(256, 36, "ffffffffffffffff"));
        assertThat(ones(h, "SaAttrOffs")).isEqualTo(at(256, 44, "ffff"));
        assertThat(ones(h, "SaCompMask")).isEqualTo(at(256, 48, "ffffffffffffffff"));
        assertThat(h.field("SaData").byteOffset()).isEqualTo(MadHeaders.SA_DATA_OFFSET);
        assertThat(MadHeaders.dataOffset(MgmtClasses.SUBN_ADM)).isEqualTo(56);
        assertThat(MadHeaders.dataOffset(MgmtClasses.PERF)).isEqualTo(64);
    }

    @Test
    void nodeInfo() {
        Layout l = SmpAttributes.NODE_INFO;
        assertThat(ones(l, "NodeType")).isEqualTo(at(40, 2, "ff"));
        assertThat(ones(l, "SystemGuid")).isEqualTo(at(40, 4, "ffffffffffffffff"));
        assertThat(ones(l, "PortGuid")).isEqualTo(at(40, 20, "ffffffffffffffff"));
        assertThat(ones(l, "PartCap")).isEqualTo(at(40, 28, "ffff"));
        assertThat(ones(l, "Revision")).isEqualTo(at(40, 32, "ffffffff"));
        assertThat(ones(l, "LocalPort")).isEqualTo(at(40, 36, "ff"));
        assertThat(ones(l, "VendorId")).isEqualTo(at(40, 37, "ffffff"));
    }

    @Test
    void portInfo() {
        Layout l = SmpAttributes.PORT_INFO;
        assertThat(ones(l, "Lid")).isEqualTo(at(64, 16, "ffff"));
        assertThat(ones(l, "CapMask")).isEqualTo(at(64, 20, "ffffffff"));
        assertThat(ones(l, "LinkWidthActive")).isEqualTo(at(64, 31, "ff"));
        assertThat(ones(l, "LinkSpeedSupported")).isEqualTo(at(64, 32, "f0"));
        assertThat(ones(l, "LinkState")).isEqualTo(at(64, 32, "0f"));
        assertThat(ones(l, "PhysLinkState")).isEqualTo(at(64, 33, "f0"));
        assertThat(ones(l, "ProtectBits")).isEqualTo(at(64, 34, "c0"));
        assertThat(ones(l, "LMC")).isEqualTo(at(64, 34, "07"));
        assertThat(ones(l, "LinkSpeedActive")).isEqualTo(at(64, 35, "f0"));
        assertThat(ones(l, "NeighborMTU")).isEqualTo(at(64, 36, "f0"));
        assertThat(ones(l, "VLStallCount")).isEqualTo(at(64, 42, "e0"));
        assertThat(ones(l, "HoqLife")).isEqualTo(at(64, 42, "1f"));
        assertThat(ones(l, "OperVLs")).isEqualTo(at(64, 43, "f0"));
        assertThat(ones(l, "ClientReregister")).isEqualTo(at(64, 51, "80"));
        assertThat(ones(l, "SubnetTimeout")).isEqualTo(at(64, 51, "1f"));
        assertThat(ones(l, "RespTimeVal")).isEqualTo(at(64, 52, "1f"));
        assertThat(ones(l, "LinkSpeedExtActive2")).isEqualTo(at(64, 56, "60"));
        assertThat(ones(l, "LinkSpeedExtSupported2")).isEqualTo(at(64, 56, "18"));
        assertThat(ones(l, "LinkSpeedExtEnabled2")).isEqualTo(at(64, 56, "07"));
        assertThat(ones(l, "RoundTrip")).isEqualTo(at(64, 57, "ffffff"));
        assertThat(ones(l, "CapabilityMask2")).isEqualTo(at(64, 60, "ffff"));
        assertThat(ones(l, "LinkSpeedExtActive")).isEqualTo(at(64, 62, "f0"));
        assertThat(ones(l, "LinkSpeedExtEnabled")).isEqualTo(at(64, 63, "1f"));
    }

    @Test
    void tablesAndSmInfo() {
        assertThat(ones(SmpAttributes.SL_TO_VL_TABLE, "SL0")).isEqualTo(at(8, 0, "f0"));
        assertThat(ones(SmpAttributes.SL_TO_VL_TABLE, "SL15")).isEqualTo(at(8, 7, "0f"));
        assertThat(ones(SmpAttributes.VL_ARB_TABLE, "Entry0VL")).isEqualTo(at(64, 0, "0f"));
        assertThat(ones(SmpAttributes.VL_ARB_TABLE, "Entry31Weight")).isEqualTo(at(64, 63, "ff"));
        assertThat(ones(SmpAttributes.LINEAR_FWD_TABLE, "Entry63")).isEqualTo(at(64, 63, "ff"));
        assertThat(ones(SmpAttributes.MCAST_FWD_TABLE, "PortMask31")).isEqualTo(at(64, 62, "ffff"));
        assertThat(ones(SmpAttributes.P_KEY_TABLE, "PKey31")).isEqualTo(at(64, 62, "ffff"));
        assertThat(ones(SmpAttributes.GUID_INFO, "GUID7")).isEqualTo(at(64, 56, "ffffffffffffffff"));
        assertThat(ones(SmpAttributes.SM_INFO, "SmActivity")).isEqualTo(at(21, 16, "ffffffff"));
        assertThat(ones(SmpAttributes.SM_INFO, "SmPriority")).isEqualTo(at(21, 20, "f0"));
        assertThat(ones(SmpAttributes.SM_INFO, "SmState")).isEqualTo(at(21, 20, "0f"));
        assertThat(ones(SmpAttributes.SWITCH_INFO, "LifeTime")).isEqualTo(at(20, 11, "f8"));
        assertThat(ones(SmpAttributes.SWITCH_INFO, "EnhancedPort0")).isEqualTo(at(20, 16, "08"));
        assertThat(ones(SmpAttributes.SWITCH_INFO, "MulticastFDBTop")).isEqualTo(at(20, 18, "ffff"));
    }

    @Test
    void notices() {
        assertThat(ones(SmpAttributes.NOTICE, "NoticeIsGeneric")).isEqualTo(at(64, 0, "80"));
        assertThat(ones(SmpAttributes.NOTICE, "NoticeProducerType")).isEqualTo(at(64, 1, "ffffff"));
        assertThat(ones(SmpAttributes.NOTICE, "NoticeTrapNumber")).isEqualTo(at(64, 4, "ffff"));
        assertThat(ones(SmpAttributes.NOTICE, "NoticeToggle")).isEqualTo(at(64, 8, "80"));
        assertThat(SmpAttributes.NOTICE.field("NoticeDataDetails").byteOffset()).isEqualTo(10);
        assertThat(ones(SmpAttributes.NOTICE_TRAP_128, "NoticeDataLID")).isEqualTo(at(64, 10, "ffff"));
        assertThat(ones(SmpAttributes.NOTICE_TRAP_129, "NoticeDataPortLID")).isEqualTo(at(64, 12, "ffff"));
        assertThat(ones(SmpAttributes.NOTICE_TRAP_129, "NoticeDataPortNum")).isEqualTo(at(64, 14, "ff"));
        assertThat(ones(SmpAttributes.NOTICE_TRAP_144, "NoticeDataTrap144OtherChanges")).isEqualTo(at(64, 15, "01"));
        assertThat(ones(SmpAttributes.NOTICE_TRAP_144, "NoticeDataTrap144CapMask")).isEqualTo(at(64, 16, "ffffffff"));
        assertThat(ones(SmpAttributes.NOTICE_TRAP_144, "NoticeDataTrap144ChangeFlags")).isEqualTo(at(64, 21, "3f"));
        assertThat(ones(SmpAttributes.NOTICE_TRAP_144, "NoticeDataTrap144CapMask2")).isEqualTo(at(64, 22, "ffff"));
        assertThat(ones(SmpAttributes.NOTICE_TRAP_256, "NoticeDataTrap256Mkey")).isEqualTo(at(64, 24,
                "ffffffffffffffff"));
        assertThat(ones(SmpAttributes.NOTICE_TRAP_256, "NoticeDataTrap256DrNotice")).isEqualTo(at(64, 33, "80"));
        assertThat(ones(SmpAttributes.NOTICE_TRAP_256, "NoticeDataTrap256DrHopCnt")).isEqualTo(at(64, 33, "3f"));
        assertThat(SmpAttributes.NOTICE_TRAP_256.field("NoticeDataTrap256DrRetPath").byteEnd()).isEqualTo(64);
        assertThat(SaAttributes.NOTICE.field("NoticeIssuerGID").byteOffset()).isEqualTo(64);
        assertThat(SmpAttributes.noticeFor(130)).isSameAs(SmpAttributes.NOTICE_TRAP_129);
        assertThat(SmpAttributes.noticeFor(64)).isSameAs(SmpAttributes.NOTICE);
    }

    @Test
    void perfMgt() {
        Layout cpi = PerfAttributes.CLASS_PORT_INFO;
        assertThat(ones(cpi, "CapabilityMask2")).isEqualTo(at(72, 4, "ffffffe0"));
        assertThat(ones(cpi, "RespTimeVal")).isEqualTo(at(72, 7, "1f"));
        assertThat(ones(cpi, "RedirectQP")).isEqualTo(at(72, 33, "ffffff"));
        assertThat(ones(cpi, "TrapQKey")).isEqualTo(at(72, 68, "ffffffff"));
        Layout pc = PerfAttributes.PORT_COUNTERS;
        assertThat(ones(pc, "QP1Dropped")).isEqualTo(at(44, 20, "ffff"));
        assertThat(ones(pc, "VL15Dropped")).isEqualTo(at(44, 22, "ffff"));
        assertThat(ones(pc, "ExcessiveBufferOverrunErrors")).isEqualTo(at(44, 19, "0f"));
        assertThat(ones(pc, "PortXmitWait")).isEqualTo(at(44, 40, "ffffffff"));
        // perfquery prints VL15Dropped's value as QP1Dropped (libibmad's offset); the codec keeps the spec's
        byte[] b = pc.encode(Map.of("QP1Dropped", 5, "VL15Dropped", 9));
        assertThat(pc.decode(b)).containsEntry("QP1Dropped", 5L).containsEntry("VL15Dropped", 9L);
        assertThat(pc.dump(b, 0)).contains("QP1Dropped:......................9\nVL15Dropped:.....................9\n");
        assertThat(ones(PerfAttributes.PORT_COUNTERS_EXTENDED, "QP1Dropped")).isEqualTo(at(184, 176,
                "ffffffffffffffff"));
    }

    @Test
    void saRecords() {
        Layout pr = SaAttributes.PATH_RECORD;
        assertThat(ones(pr, "PathRecDLid")).isEqualTo(at(64, 40, "ffff"));
        assertThat(ones(pr, "PathRecFlowLabel")).isEqualTo(at(64, 44, "0fffff"));
        assertThat(ones(pr, "PathRecHopLimit")).isEqualTo(at(64, 47, "ff"));
        assertThat(ones(pr, "PathRecNumPath")).isEqualTo(at(64, 49, "7f"));
        assertThat(ones(pr, "PathRecSL")).isEqualTo(at(64, 53, "0f"));
        assertThat(ones(pr, "PathRecMtu")).isEqualTo(at(64, 54, "3f"));
        assertThat(ones(pr, "PathRecRate")).isEqualTo(at(64, 55, "3f"));
        assertThat(ones(pr, "PathRecPreference")).isEqualTo(at(64, 57, "ff"));
        Layout mc = SaAttributes.MC_MEMBER_RECORD;
        assertThat(ones(mc, "McastMemMLid")).isEqualTo(at(52, 36, "ffff"));
        assertThat(ones(mc, "McastMemPkey")).isEqualTo(at(52, 40, "ffff"));
        assertThat(ones(mc, "McastMemSL")).isEqualTo(at(52, 44, "f0"));
        assertThat(ones(mc, "McastMemScope")).isEqualTo(at(52, 48, "f0"));
        assertThat(ones(mc, "McastMemJoinState")).isEqualTo(at(52, 48, "0f"));
        assertThat(ones(mc, "McastMemProxyJoin")).isEqualTo(at(52, 49, "80"));
        assertThat(ones(SaAttributes.NODE_RECORD, "NodeType")).isEqualTo(at(108, 6, "ff"));
        assertThat(ones(SaAttributes.NODE_RECORD, "NodeDesc").substring(88)).isEqualTo("ff".repeat(64));
        assertThat(ones(SaAttributes.PORT_INFO_RECORD, "LMC")).isEqualTo(at(68, 38, "07"));
        assertThat(ones(SaAttributes.LFT_RECORD, "Entry0")).isEqualTo(at(72, 8, "ff"));
        assertThat(ones(SaAttributes.P_KEY_TABLE_RECORD, "PortNum")).isEqualTo(at(72, 4, "ff"));
        assertThat(ones(SaAttributes.SM_INFO_RECORD, "SmState")).isEqualTo(at(25, 24, "0f"));
        assertThat(ones(SaAttributes.LINK_RECORD, "ToLID")).isEqualTo(at(6, 4, "ffff"));
        assertThat(ones(SaAttributes.SERVICE_RECORD, "ServRecLease")).isEqualTo(at(176, 28, "ffffffff"));
        assertThat(SaAttributes.SERVICE_RECORD.field("ServRecName").byteOffset()).isEqualTo(48);
        assertThat(ones(SaAttributes.INFORM_INFO, "InformQPN")).isEqualTo(at(36, 28, "ffffff"));
        assertThat(ones(SaAttributes.INFORM_INFO, "InformRespTimeVal")).isEqualTo(at(36, 31, "1f"));
        assertThat(ones(SaAttributes.INFORM_INFO, "InformProducerType")).isEqualTo(at(36, 33, "ffffff"));
        assertThat(SaAttributes.tableStride(SaAttributes.NODE_RECORD)).isEqualTo(112);
        assertThat(SaAttributes.tableStride(SaAttributes.PATH_RECORD)).isEqualTo(64);
        assertThat(SaAttributes.tableStride(SaAttributes.SM_INFO_RECORD)).isEqualTo(32);
    }

    // ---- registry, constants

    @Test
    void registry() {
        assertThat(Attributes.get(MgmtClasses.SUBN_DIRECTED, AttributeIds.PORT_INFO))
                .isSameAs(Attributes.get(MgmtClasses.SUBN_LID, AttributeIds.PORT_INFO))
                .isSameAs(SmpAttributes.PORT_INFO);
        assertThat(Attributes.get(MgmtClasses.SUBN_ADM, AttributeIds.NODE_RECORD)).isSameAs(SaAttributes.NODE_RECORD);
        assertThat(Attributes.get(MgmtClasses.SUBN_ADM, AttributeIds.NOTICE)).isSameAs(SaAttributes.NOTICE);
        assertThat(Attributes.get(MgmtClasses.SUBN_LID, AttributeIds.NOTICE)).isSameAs(SmpAttributes.NOTICE);
        assertThat(Attributes.get(MgmtClasses.PERF, AttributeIds.CLASS_PORT_INFO))
                .isSameAs(PerfAttributes.CLASS_PORT_INFO);
        assertThat(Attributes.find(MgmtClasses.PERF, 0x7777)).isEmpty();
        assertThatThrownBy(() -> Attributes.get(MgmtClasses.SUBN_LID, 0x7777))
                .isInstanceOf(MadFormatException.class).hasMessage("SubnLid: no layout for attribute 0x7777");
        assertThat(Attributes.all()).doesNotHaveDuplicates().contains(MadHeaders.SA, SmpAttributes.NOTICE_TRAP_256);
    }

    @Test
    void methodsAndStatus() {
        assertThat(Methods.responseTo(Methods.GET)).isEqualTo(Methods.GET_RESP);
        assertThat(Methods.responseTo(Methods.SET)).isEqualTo(Methods.GET_RESP);
        assertThat(Methods.responseTo(Methods.TRAP)).isEqualTo(Methods.TRAP_REPRESS);
        assertThat(Methods.responseTo(Methods.GET_TABLE)).isEqualTo(Methods.GET_TABLE_RESP);
        assertThat(Methods.responseTo(Methods.REPORT)).isEqualTo(Methods.REPORT_RESP);
        assertThat(Methods.name(0x92)).isEqualTo("GetTableResp");
        assertThat(MadStatus.describe(0)).isEqualTo("OK");
        assertThat(MadStatus.describe(MadStatus.METHOD_ATTR_NOT_SUPPORTED))
                .isEqualTo("0x000c method/attribute not supported");
        assertThat(MadStatus.describe(MadStatus.SA_NO_RECORDS)).isEqualTo("0x0300 class-specific 0x3");
        assertThat(MgmtClasses.name(MgmtClasses.SUBN_DIRECTED)).isEqualTo("SubnDirected");
    }

    // ---- the builder's checks

    @Test
    void builderRefusesBadTables() {
        assertThatThrownBy(() -> Layout.builder("X", 4).uint("A", 0, 8).uint("B", 4, 8).build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("X.B overlaps");
        assertThatThrownBy(() -> Layout.builder("X", 4).uint("A", 0, 8).uint("A", 8, 8).build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("two fields named A");
        assertThatThrownBy(() -> Layout.builder("X", 4).uint("A", 30, 8).build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("runs past");
        assertThatThrownBy(() -> Layout.builder("X", 32).array("A", 4, 128))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("whole bytes");
        assertThatThrownBy(() -> Layout.builder("X", 32).uint("A", 4, 64))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("8 bytes");
        assertThatThrownBy(() -> Layout.builder("X", 32).field("A", 0, 8, Printer.STRING))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SmpAttributes.NODE_INFO.field("Nope"))
                .isInstanceOf(MadFormatException.class).hasMessage("NodeInfo.Nope: no such field");
    }

    @Test
    void fieldFromAnotherLayoutOutsideThisOneIsRefused() {
        Field f = SmpAttributes.PORT_INFO.field("CapabilityMask2");
        assertThatThrownBy(() -> SmpAttributes.NODE_INFO.get(new byte[64], 0, f))
                .isInstanceOf(MadFormatException.class).hasMessageContaining("outside");
    }

    @Test
    void encodeAcceptsBooleansBigIntegersAndStrings() {
        Layout l = SaAttributes.NODE_RECORD;
        byte[] b = l.encode(Map.of("SystemGuid", new java.math.BigInteger("18446744073709551615"), "NodeDesc",
                "node001 HCA-1", "BaseVers", true));
        assertThat(l.get(b, 0, "SystemGuid")).isEqualTo(-1L);
        assertThat(l.get(b, 0, "BaseVers")).isEqualTo(1);
        assertThat(l.dumpLine(l.field("NodeDesc"), b, 0)).isEqualTo("NodeDesc:........................'node001 HCA-1'");
        assertThatThrownBy(() -> l.encode(Map.of("SystemGuid", java.math.BigInteger.ONE.shiftLeft(64))))
                .isInstanceOf(MadFormatException.class).hasMessageContaining("NodeRecord.SystemGuid");
        assertThatThrownBy(() -> l.encode(Map.of("NumPorts", java.math.BigInteger.valueOf(256))))
                .isInstanceOf(MadFormatException.class);
    }
}
