package org.ibtwin.mad;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

/** The printers' corners, as libibmad's mad_dump_* print them. */
class PrinterTest {
    /** Numbers, link widths and speeds, states and codes: one printer, one value of a field of that many bits. */
    @ParameterizedTest(name = "{0} {1} ({2} bits): \"{3}\"")
    @CsvFileSource(resources = "/mad/printer-formats.csv")
    void formats(Printer printer, long value, int bits, String printed) {
        assertThat(printer.format(value, bits)).isEqualTo(printed);
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
