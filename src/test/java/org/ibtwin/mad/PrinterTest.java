package org.ibtwin.mad;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The printers' corners, as libibmad's mad_dump_* print them. */
class PrinterTest {

    @Test
    void numbers() {
        assertThat(Printer.UINT.format(-1L, 64)).isEqualTo("18446744073709551615");
        assertThat(Printer.HEX.format(0, 24)).isEqualTo("0x000000");
        assertThat(Printer.HEX.format(0, 4)).isEqualTo("0x00");
        assertThat(Printer.HEX.format(0x1c, 27)).isEqualTo("0x0000001c");
        assertThat(Printer.HEX.format(0x200000, 64)).isEqualTo("0x0000000000200000");
        assertThat(Printer.RHEX.format(0xfe80, 64)).isEqualTo("000000000000fe80");
    }

    @Test
    void widths() {
        assertThat(Printer.LINK_WIDTH.format(8, 8)).isEqualTo("12X");
        assertThat(Printer.LINK_WIDTH.format(16, 8)).isEqualTo("2X");
        assertThat(Printer.LINK_WIDTH.format(3, 8)).isEqualTo("undefined (3)");
        assertThat(Printer.LINK_WIDTH_ENABLED.format(3, 8)).isEqualTo("1X or 4X");
        assertThat(Printer.LINK_WIDTH_ENABLED.format(0, 8)).isEqualTo("undefined (0)");
        assertThat(Printer.LINK_WIDTH_ENABLED.format(0x23, 8)).isEqualTo("1X or 4X or undefined (35)");
        assertThat(Printer.LINK_WIDTH_SUPPORTED.format(31, 8)).isEqualTo("1X or 4X or 8X or 12X or 2X");
        assertThat(Printer.LINK_WIDTH_SUPPORTED.format(2, 8)).isEqualTo("4X (IBA extension)");
        assertThat(Printer.LINK_WIDTH_SUPPORTED.format(0, 8)).isEqualTo("undefined (0) (IBA extension)");
        assertThat(Printer.LINK_WIDTH_SUPPORTED.format(0x21, 8)).isEqualTo("1X or undefined (33)");
    }

    @Test
    void speeds() {
        assertThat(Printer.LINK_SPEED.format(0, 4)).isEqualTo("Extended speed");
        assertThat(Printer.LINK_SPEED.format(3, 4)).isEqualTo("undefined (3)");
        assertThat(Printer.LINK_SPEED_SUPPORTED.format(7, 4)).isEqualTo("2.5 Gbps or 5.0 Gbps or 10.0 Gbps");
        assertThat(Printer.LINK_SPEED_SUPPORTED.format(2, 4)).isEqualTo("5.0 Gbps (IBA extension)");
        assertThat(Printer.LINK_SPEED_ENABLED.format(0, 4)).isEqualTo("undefined (0) (IBA extension)");
        assertThat(Printer.LINK_SPEED_ENABLED.format(9, 4)).isEqualTo("2.5 Gbps or undefined (9)");
        assertThat(Printer.LINK_SPEED_EXT.format(4, 4)).isEqualTo("53.125 Gbps");
        assertThat(Printer.LINK_SPEED_EXT.format(8, 4)).isEqualTo("106.25 Gbps");
        assertThat(Printer.LINK_SPEED_EXT_SUPPORTED.format(0, 4)).isEqualTo("0");
        assertThat(Printer.LINK_SPEED_EXT_SUPPORTED.format(15, 4))
                .isEqualTo("14.0625 Gbps or 25.78125 Gbps or 53.125 Gbps or 106.25 Gbps");
        assertThat(Printer.LINK_SPEED_EXT_ENABLED.format(30, 5)).isEqualTo("Extended link speeds disabled");
        assertThat(Printer.LINK_SPEED_EXT_ENABLED.format(16, 5)).isEqualTo("undefined (16)");
        assertThat(Printer.LINK_SPEED_EXT_ENABLED.format(17, 5)).isEqualTo("14.0625 Gbps or undefined (17)");
        assertThat(Printer.LINK_SPEED_EXT2.format(0, 2)).isEqualTo("No Extended Speed 2");
        assertThat(Printer.LINK_SPEED_EXT2.format(1, 2)).isEqualTo("212.5 Gbps");
        assertThat(Printer.LINK_SPEED_EXT2_SUPPORTED.format(1, 2)).isEqualTo("212.5 Gbps");
        assertThat(Printer.LINK_SPEED_EXT2_SUPPORTED.format(0, 2)).isEqualTo("0");
        assertThat(Printer.LINK_SPEED_EXT2_ENABLED.format(3, 3)).isEqualTo(" undefined (3)");
    }

    @Test
    void statesAndCodes() {
        assertThat(Printer.PORT_STATE.format(3, 4)).isEqualTo("Armed");
        assertThat(Printer.PORT_STATE.format(7, 4)).isEqualTo("?(7)");
        assertThat(Printer.PHYS_PORT_STATE.format(3, 4)).isEqualTo("Disabled");
        assertThat(Printer.PHYS_PORT_STATE.format(4, 4)).isEqualTo("PortConfigurationTraining");
        assertThat(Printer.LINK_DOWN_DEF_STATE.format(1, 4)).isEqualTo("Sleep");
        assertThat(Printer.MTU.format(5, 4)).isEqualTo("4096");
        assertThat(Printer.MTU.format(0, 4)).isEqualTo("?(0)");
        assertThat(Printer.VL_CAP.format(5, 4)).isEqualTo("VL0-14");
        assertThat(Printer.OPER_VLS.format(0, 4)).isEqualTo("No change");
        assertThat(Printer.NODE_TYPE.format(3, 8)).isEqualTo("Router");
        assertThat(Printer.NODE_TYPE.format(0, 8)).isEqualTo("?(0)?");
    }

    @Test
    void capabilityMasks() {
        assertThat(Printer.PORT_CAPABILITY_MASK.format(0, 32)).isEqualTo("0x0");
        assertThat(Printer.PORT_CAPABILITY_MASK.format(0x2001, 32)).isEqualTo("0x2001");
        assertThat(Printer.PORT_CAPABILITY_MASK.format(0x80010000L, 32))
                .isEqualTo("0x80010000\n\t\t\t\tIsCommunicatonManagementSupported\n\t\t\t\tIsHierarchyInfoSupported");
        assertThat(Printer.PORT_CAPABILITY_MASK2.format(0x401, 16))
                .isEqualTo("0x401\n\t\t\t\tIsSetNodeDescriptionSupported\n\t\t\t\tIsLinkSpeedNDRSupported");
        assertThat(Printer.PORT_CAPABILITY_MASK2.format(0x800, 16)).isEqualTo("0x800");
    }

    @Test
    void arraysAndStrings() {
        assertThat(Printer.ARRAY.format(new byte[] {(byte) 0xfe, (byte) 0x80, 0, 1})).isEqualTo("fe800001");
        byte[] s = new byte[64];
        byte[] text = "spine two".getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(text, 0, s, 0, text.length);
        assertThat(Printer.STRING.format(s)).isEqualTo("'spine two'");
        byte[] full = new byte[64];
        Arrays.fill(full, (byte) 'a');
        // libibmad: snprintf(buf, 64, "'%s'", ...): 63 characters, the closing quote lost
        assertThat(Printer.STRING.format(full)).isEqualTo("'" + "a".repeat(62));
        assertThat(Layout.line("McastPkeyTrapSuppressionEnabled", "0"))
                .isEqualTo("McastPkeyTrapSuppressionEnabled:.0");
        assertThat(Layout.line("ThisNameIsThirtyTwoCharactersLng", "0"))
                .isEqualTo("ThisNameIsThirtyTwoCharactersLng:0");
    }
}
