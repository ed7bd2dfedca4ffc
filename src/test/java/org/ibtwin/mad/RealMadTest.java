package org.ibtwin.mad;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.ibtwin.fixture.TestResources;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * Real MADs, decoded by our layouts, dumped by {@link Dumps}, against what the real tool printed from those very
 * MADs. {@code src/test/resources/mad/raw}: each {@code NAME.txt} is a tool's output, {@code NAME.mads} the
 * responses it received (one 256-byte MAD per line, in hex, in the order it received them), both taken from the
 * same run of the command in {@code raw/COMMANDS} with {@code -d -d}, whose receive-buffer dumps give the bytes.
 * Each test does what the tool does with the responses: reads the capacities, then dumps.
 */
class RealMadTest {
    private static final int D = MadHeaders.SMP_DATA_OFFSET;

    static List<byte[]> mads(String name) {
        List<byte[]> out = new ArrayList<>();
        for (String line : resource(name + ".mads").split("\n")) {
            if (!line.isBlank()) {
                byte[] mad = HexFormat.of().parseHex(line.strip());
                assertThat(mad).hasSize(MadHeaders.MAD_SIZE);
                out.add(mad);
            }
        }
        return out;
    }

    static String resource(String name) {
        return TestResources.text("/mad/raw/" + name);
    }

    static String output(String name) {
        return resource(name + ".txt");
    }

    static long get(Layout l, byte[] mad, String field) {
        return l.get(mad, MadHeaders.dataOffset(MadHeaders.mgmtClass(mad)), field);
    }

    // ---- every MAD: the header reads right and decode -> encode gives back its bytes (reserved bits cleared)

    static Stream<String> names() {
        return resource("COMMANDS").lines().map(l -> l.substring(0, l.indexOf(".txt:")));
    }

    @ParameterizedTest
    @MethodSource("names")
    void everyResponseDecodesAndReencodesToItsBytes(String name) {
        for (byte[] mad : mads(name)) {
            int cls = MadHeaders.mgmtClass(mad);
            assertThat(MadHeaders.method(mad)).isEqualTo(Methods.GET_RESP);
            Layout header = switch (cls) {
                case MgmtClasses.SUBN_LID -> MadHeaders.SMP_LID;
                case MgmtClasses.SUBN_DIRECTED -> MadHeaders.SMP_DR;
                case MgmtClasses.PERF -> MadHeaders.PERF;
                default -> throw new AssertionError("class " + cls);
            };
            // reserved bytes of real responses are not always zero (ibsim leaves bytes in the SMP's last 128)
            assertThat(header.encode(header.decode(mad))).as(name).isEqualTo(Coverage.clearReserved(header, mad, 0));
            assertThat(header.get(mad, 0, cls == MgmtClasses.SUBN_DIRECTED ? "DrSmpStatus" : "MadStatus"))
                    .isZero();
            Layout attr = Attributes.get(cls, MadHeaders.attributeId(mad));
            int off = MadHeaders.dataOffset(cls);
            byte[] again = mad.clone();
            attr.encode(attr.decode(mad, off), again, off);
            assertThat(again).as(name + " " + attr.name()).isEqualTo(Coverage.clearReserved(attr, mad, off));
        }
    }

    @Test
    void directedRouteHeader() {
        byte[] mad = mads("nodeinfo-dr").get(0);
        Layout h = MadHeaders.SMP_DR;
        assertThat(h.get(mad, 0, "DrSmpDirection")).isEqualTo(1);
        assertThat(h.get(mad, 0, "DrSmpHopCnt")).isEqualTo(1);
        assertThat(h.get(mad, 0, "DrSmpSLID")).isEqualTo(0xffff);
        assertThat(h.get(mad, 0, "DrSmpDLID")).isEqualTo(0xffff);
        assertThat(h.getBytes(mad, 0, "DrSmpPath")[1]).isEqualTo((byte) 1);
    }

    // ---- smpquery

    @Test
    void nodeInfo() {
        assertThat(Dumps.nodeInfo(PortId.lid(3), mads("nodeinfo-3").get(0), D)).isEqualTo(output("nodeinfo-3"));
        assertThat(Dumps.nodeInfo(PortId.lid(6), mads("nodeinfo-6").get(0), D)).isEqualTo(output("nodeinfo-6"));
        assertThat(Dumps.nodeInfo(PortId.directed(0, 1), mads("nodeinfo-dr").get(0), D))
                .isEqualTo(output("nodeinfo-dr"));
    }

    @Test
    void nodeDesc() {
        for (String n : List.of("nodedesc-3", "nodedesc-4")) {
            assertThat(Dumps.nodeDesc(mads(n).get(1), D)).isEqualTo(output(n));
        }
    }

    @Test
    void portInfo() {
        String[][] cases = {{"portinfo-3-0", "3", "0"}, {"portinfo-3-5", "3", "5"}, {"portinfo-4-1", "4", "1"},
            {"portinfo-1-4", "1", "4"}};
        for (String[] c : cases) {
            byte[] mad = mads(c[0]).get(0);
            int port = Integer.parseInt(c[2]);
            assertThat(MadHeaders.attributeModifier(mad)).isEqualTo(port);
            assertThat(Dumps.portInfo(PortId.lid(Integer.parseInt(c[1])), port, mad, D)).isEqualTo(output(c[0]));
        }
        assertThat(Dumps.portInfo(PortId.directed(0, 4), 4, mads("portinfo-dr").get(0), D))
                .isEqualTo(output("portinfo-dr"));
    }

    @Test
    void switchInfo() {
        assertThat(Dumps.switchInfo(PortId.lid(3), mads("switchinfo-3").get(0), D)).isEqualTo(output("switchinfo-3"));
        assertThat(Dumps.switchInfo(PortId.lid(1), mads("switchinfo-1").get(0), D)).isEqualTo(output("switchinfo-1"));
    }

    /** smpquery pkeys: NodeInfo (and SwitchInfo for a switch's external port) for the capacity, then blocks. */
    @Test
    void pkeys() {
        for (String n : List.of("pkeys-3", "pkeys-4", "pkeys-3-1")) {
            List<byte[]> m = mads(n);
            int cap;
            int first;
            if (get(SmpAttributes.NODE_INFO, m.get(0), "NodeType") == 2 && n.endsWith("-1")) {
                cap = (int) get(SmpAttributes.SWITCH_INFO, m.get(1), "PartEnforceCap");
                first = 2;
            } else {
                cap = (int) get(SmpAttributes.NODE_INFO, m.get(0), "PartCap");
                first = 1;
            }
            assertThat(Dumps.pkeys(cap, data(m.subList(first, m.size())))).as(n).isEqualTo(output(n));
        }
    }

    @Test
    void guids() {
        List<byte[]> m = mads("guids-4");
        int cap = (int) get(SmpAttributes.PORT_INFO, m.get(0), "GuidCap");
        assertThat(Dumps.guids(cap, data(m.subList(1, m.size())))).isEqualTo(output("guids-4"));
    }

    /** smpquery sl2vl: NodeInfo, then one SLtoVLMappingTable per row; the modifier says in and out port. */
    @Test
    void sl2vl() {
        for (String n : List.of("sl2vl-4", "sl2vl-3")) {
            List<byte[]> m = mads(n);
            StringBuilder sb = new StringBuilder(Dumps.sl2vlHeader(PortId.lid(n.equals("sl2vl-4") ? 4 : 3)));
            for (byte[] mad : m.subList(1, m.size())) {
                long mod = MadHeaders.attributeModifier(mad);
                sb.append(Dumps.sl2vlRow((int) (mod >> 8) & 0xff, (int) mod & 0xff, mad, D));
            }
            assertThat(sb.toString()).as(n).isEqualTo(output(n));
        }
    }

    /** smpquery vlarb: NodeInfo and SwitchInfo for port 0 of a switch, PortInfo for the caps, then the tables. */
    @Test
    void vlArbitration() {
        for (String[] c : new String[][] {{"vlarb-4-1", "4", "1"}, {"vlarb-3", "3", "0"}, {"vlarb-1", "1", "0"}}) {
            List<byte[]> m = mads(c[0]);
            PortId dest = PortId.lid(Integer.parseInt(c[1]));
            int port = Integer.parseInt(c[2]);
            int i = 0;
            String out;
            if (port == 0 && get(SmpAttributes.NODE_INFO, m.get(i++), "NodeType") == 2
                    && get(SmpAttributes.SWITCH_INFO, m.get(i++), "EnhancedPort0") == 0) {
                out = Dumps.noVlArb(dest, port);
            } else {
                byte[] pi = m.get(i++);
                int low = (int) get(SmpAttributes.PORT_INFO, pi, "VLArbLowCap");
                int high = (int) get(SmpAttributes.PORT_INFO, pi, "VLArbHighCap");
                out = Dumps.vlArbHeader(dest, port, low, high)
                        + Dumps.vlArbTable("Low", low, data(m.subList(i, i + 1)))
                        + Dumps.vlArbTable("High", high, data(m.subList(i + 1, i + 2)));
            }
            assertThat(out).as(c[0]).isEqualTo(output(c[0]));
        }
    }

    @Test
    void mellanoxExtendedPortInfo() {
        assertThat(Dumps.mlnxExtPortInfo(PortId.lid(4), 1, mads("mepi-4").get(0), D)).isEqualTo(output("mepi-4"));
    }

    @Test
    void smInfo() {
        assertThat(Dumps.smInfo(3, mads("sminfo").get(0), D)).isEqualTo(output("sminfo"));
    }

    // ---- perfquery: ClassPortInfo first, then the counters

    @Test
    void perfquery() {
        Layout cpi = PerfAttributes.CLASS_PORT_INFO;
        for (String[] c : new String[][] {{"perf-4-1", "4", "1"}, {"perf-3-all", "3", "255"}, {"perfx-4-1", "4", "1"},
            {"perf-rcverr", "4", "1"}, {"perf-xmtdisc", "4", "1"}}) {
            List<byte[]> m = mads(c[0]);
            int capMask = (int) get(cpi, m.get(0), "CapabilityMask");
            int capMask2 = (int) get(cpi, m.get(0), "CapabilityMask2");
            PortId dest = PortId.lid(Integer.parseInt(c[1]));
            int port = Integer.parseInt(c[2]);
            byte[] mad = m.get(1);
            String out = switch (MadHeaders.attributeId(mad)) {
                case AttributeIds.PORT_COUNTERS -> Dumps.portCounters(dest, port, capMask, mad, D);
                case AttributeIds.PORT_COUNTERS_EXTENDED ->
                    Dumps.portCountersExtended(dest, port, capMask, capMask2, mad, D);
                case AttributeIds.PORT_RCV_ERROR_DETAILS -> Dumps.portRcvErrorDetails(dest, port, mad, D);
                case AttributeIds.PORT_XMIT_DISCARD_DETAILS -> Dumps.portXmitDiscardDetails(dest, port, mad, D);
                default -> throw new AssertionError(c[0]);
            };
            assertThat(out).as(c[0]).isEqualTo(output(c[0]));
        }
    }

    /** The attribute data of each MAD, as 64- or 192-byte blocks at offset 0. */
    static List<byte[]> data(List<byte[]> mads) {
        List<byte[]> out = new ArrayList<>();
        for (byte[] mad : mads) {
            out.add(java.util.Arrays.copyOfRange(mad, D, MadHeaders.MAD_SIZE));
        }
        return out;
    }
}
