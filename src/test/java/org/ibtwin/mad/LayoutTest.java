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
import org.junit.jupiter.params.provider.CsvFileSource;
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

    /**
     * Each field where the specification's tables put it: set to all ones in a zeroed attribute, it is {@code hex}
     * at byte {@code at}, and nothing else is set.
     */
    @ParameterizedTest(name = "{0}.{1}: {4} at byte {3}")
    @CsvFileSource(resources = "/mad/field-positions.csv")
    void fieldsWhereTheTablesPutThem(String layout, String field, int size, int at, String hex) throws Exception {
        String[] c = layout.split("\\.");
        Layout l = (Layout) Class.forName("org.ibtwin.mad." + c[0]).getField(c[1]).get(null);
        assertThat(ones(l, field)).isEqualTo(at(size, at, hex));
    }

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
        assertThat(h.field("SmpData").byteOffset()).isEqualTo(MadHeaders.SMP_DATA_OFFSET);
        assertThat(h.field("DrSmpPath").byteOffset()).isEqualTo(128);
        assertThat(h.field("DrSmpRetPath").byteOffset()).isEqualTo(192);
        assertThat(MadHeaders.SMP_LID.field("SmpData").byteOffset()).isEqualTo(64);
        assertThat(MadHeaders.PERF.field("GsData").byteOffset()).isEqualTo(MadHeaders.PERF_DATA_OFFSET);
    }

    @Test
    void saHeaderWithRmpp() {
        Layout h = MadHeaders.SA;
        assertThat(h.field("SaData").byteOffset()).isEqualTo(MadHeaders.SA_DATA_OFFSET);
        assertThat(MadHeaders.dataOffset(MgmtClasses.SUBN_ADM)).isEqualTo(56);
        assertThat(MadHeaders.dataOffset(MgmtClasses.PERF)).isEqualTo(64);
    }

    @Test
    void notices() {
        assertThat(SmpAttributes.NOTICE.field("NoticeDataDetails").byteOffset()).isEqualTo(10);
        assertThat(SmpAttributes.NOTICE_TRAP_256.field("NoticeDataTrap256DrRetPath").byteEnd()).isEqualTo(64);
        assertThat(SaAttributes.NOTICE.field("NoticeIssuerGID").byteOffset()).isEqualTo(64);
        assertThat(SmpAttributes.noticeFor(130)).isSameAs(SmpAttributes.NOTICE_TRAP_129);
        assertThat(SmpAttributes.noticeFor(64)).isSameAs(SmpAttributes.NOTICE);
    }

    @Test
    void perfMgt() {
        Layout pc = PerfAttributes.PORT_COUNTERS;
        // perfquery prints VL15Dropped's value as QP1Dropped (libibmad's offset); the codec keeps the spec's
        byte[] b = pc.encode(Map.of("QP1Dropped", 5, "VL15Dropped", 9));
        assertThat(pc.decode(b)).containsEntry("QP1Dropped", 5L).containsEntry("VL15Dropped", 9L);
        assertThat(pc.dump(b, 0)).contains("QP1Dropped:......................9\nVL15Dropped:.....................9\n");
    }

    @Test
    void saRecords() {
        assertThat(ones(SaAttributes.NODE_RECORD, "NodeDesc").substring(88)).isEqualTo("ff".repeat(64));
        assertThat(SaAttributes.SERVICE_RECORD.field("ServRecName").byteOffset()).isEqualTo(48);
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
