package org.ibtwin.mad;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the real tools print in cases the golden fabric does not show. */
class DumpsTest {

    @Test
    void portIds() {
        assertThat(PortId.lid(3)).hasToString("Lid 3");
        assertThat(PortId.directed(0)).hasToString("DR path slid 65535; dlid 65535; 0");
        assertThat(PortId.directed(0, 1, 4)).hasToString("DR path slid 65535; dlid 65535; 0,1,4");
        assertThat(new PortId(3, 3, 65535, new int[] {0, 2})).hasToString("Lid 3 DR path slid 3; dlid 65535; 0,2");
        assertThat(PortId.directed(0, 1)).isEqualTo(PortId.directed(0, 1)).hasSameHashCodeAs(PortId.directed(0, 1));
        assertThat(PortId.directed(0, 1, 4).hops()).isEqualTo(2);
    }

    @Test
    void portInfoWithKeysAndXdr() {
        byte[] pi = SmpAttributes.PORT_INFO.encode(Map.of("Mkey", 0x1234L, "LinkSpeedExtActive2", 1,
                "LinkSpeedExtSupported2", 1, "LinkSpeedExtEnabled2", 1));
        String plain = Dumps.portInfo(PortId.lid(1), 1, pi, 0);
        assertThat(plain).contains("Mkey:............................<not displayed>\n")
                .doesNotContain("LinkSpeedExtActive2");
        String full = Dumps.portInfo(PortId.lid(1), 1, pi, 0, true, true);
        assertThat(full).contains("Mkey:............................0x0000000000001234\n")
                .endsWith("LinkSpeedExtEnabled:.............0\n"
                        + "LinkSpeedExtActive2:.............212.5 Gbps\n"
                        + "LinkSpeedExtSupported2:..........212.5 Gbps\n"
                        + "LinkSpeedExtEnabled2:............212.5 Gbps\n");
    }

    @Test
    void portXmitWaitIsZeroWithoutItsCapabilityBit() {
        byte[] pc = PerfAttributes.PORT_COUNTERS.encode(Map.of("PortXmitWait", 99));
        assertThat(Dumps.portCounters(PortId.lid(2), 1, 0x0100, pc, 0))
                .startsWith("# Port counters: Lid 2 port 1 (CapMask: 0x100)\n")
                .endsWith("PortXmitWait:....................0\n");
        assertThat(PerfAttributes.PORT_COUNTERS.get(pc, 0, "PortXmitWait")).as("caller's buffer untouched")
                .isEqualTo(99);
        assertThat(Dumps.portCounters(PortId.lid(2), 1, 0x1000, pc, 0)).endsWith("PortXmitWait:....................99\n");
    }

    @Test
    void extendedCountersFollowTheCapabilityMasks() {
        byte[] pc = PerfAttributes.PORT_COUNTERS_EXTENDED.encode(Map.of("PortSelect", 1, "QP1Dropped", 5));
        String narrow = Dumps.portCountersExtended(PortId.lid(2), 1, 0, 0, pc, 0);
        assertThat(narrow.lines()).hasSize(7).last().isEqualTo("PortRcvPkts:.....................0");
        assertThat(narrow).startsWith("# Port extended counters: Lid 2 port 1 (CapMask: 0x00 CapMask2: 0x0000000)");
        String all = Dumps.portCountersExtended(PortId.lid(2), 1, 0x200, 0x2, pc, 0);
        assertThat(all.lines()).hasSize(26);
        assertThat(all).contains("PortMulticastRcvPkts:............0\nCounterSelect2:..................0x00000000\n"
                + "SymbolErrorCounter:..............0\n").endsWith("QP1Dropped:......................5\n");
    }

    @Test
    void vlArbitrationOverTwoBlocks() {
        byte[] b = SmpAttributes.VL_ARB_TABLE.encode(Map.of("Entry0VL", 15, "Entry0Weight", 255));
        String t = Dumps.vlArbTable("High", 33, List.of(b, b));
        assertThat(t).startsWith("# High priority VL Arbitration Table:\nVL    : |0xF |0x0 |")
                .endsWith("|\n\nVL    : |0xF |\nWEIGHT: |0xFF|\n");
        assertThatThrownBy(() -> Dumps.vlArbTable("High", 33, List.of(b))).isInstanceOf(MadFormatException.class);
    }

    @Test
    void pkeysAndGuidsNeedTheirBlocks() {
        assertThatThrownBy(() -> Dumps.pkeys(64, List.of(new byte[64]))).isInstanceOf(MadFormatException.class)
                .hasMessage("P_KeyTable: 2 blocks needed, 1 given");
        assertThat(Dumps.pkeys(12, List.of(new byte[64]))).hasLineCount(3);
        assertThat(Dumps.guids(3, List.of(new byte[64]))).isEqualTo(
                "   0: 0x0000000000000000 0x0000000000000000\n   2: 0x0000000000000000 0x0000000000000000\n"
                        + "3 guids capacity for this port\n");
    }

    @Test
    void longNodeDescriptionsGetOneDot() {
        byte[] nd = SmpAttributes.NODE_DESCRIPTION.encode(Map.of("NodeDesc", "x".repeat(40)));
        assertThat(Dumps.nodeDesc(nd, 0)).isEqualTo("Node Description:." + "x".repeat(40) + "\n");
    }

    @Test
    void smInfoStates() {
        byte[] si = SmpAttributes.SM_INFO.encode(Map.of("SmInfoGuid", 0x2c90000000001L, "SmActivity", 7,
                "SmPriority", 15, "SmState", 2));
        assertThat(Dumps.smInfo(9, si, 0)).isEqualTo(
                "sminfo: sm lid 9 sm guid 0x2c90000000001, activity count 7 priority 15 state 2 SMINFO_STANDBY\n");
    }

    @Test
    void dumpsRejectTruncatedBuffers() {
        assertThatThrownBy(() -> Dumps.nodeInfo(PortId.lid(1), new byte[64], 40))
                .isInstanceOf(MadFormatException.class).hasMessageStartingWith("NodeInfo: buffer truncated");
        assertThatThrownBy(() -> Dumps.portCounters(PortId.lid(1), 1, 0, new byte[100], 64))
                .isInstanceOf(MadFormatException.class).hasMessageStartingWith("PortCounters: buffer truncated");
    }
}
