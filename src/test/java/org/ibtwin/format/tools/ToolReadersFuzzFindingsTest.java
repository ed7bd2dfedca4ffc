package org.ibtwin.format.tools;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.ibtwin.format.FormatException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** What the reader fuzzing found: numbers too big for their field were unchecked exceptions, not file:line. */
class ToolReadersFuzzFindingsTest {
    static Stream<Arguments> findings() {
        String line = "0x0002c90380000002 \"leaf02\"      65536    1[  ] ==( 4X        53.125 Gbps "
                + "Active/  LinkUp)==>  0x0002c90300000007      8    1[  ] \"node003 mlx5_0\" ( )\n";
        String dump = "Unicast lids [0x0-0x41] of switch Lid 2 guid 0x0002c90380000001 (leaf02):\n"
                + "  Lid  Out   Destination\n"
                + "0x80000000 021 : (Switch portguid 0x0002c90380000000: 'leaf01')\n";
        String wide = "Unicast lids [0x0-0x7fffffff] of switch Lid 2 guid 0x0002c90380000001 (leaf02):\n";
        String lspci = "3b:00.0 Infiniband controller: Mellanox Technologies MT28908 Family [ConnectX-6]\n"
                + "\tCapabilities: [60] Express (v2) Endpoint, MSI 00\n"
                + "\t\tLnkCap:\tPort #0, Speed 16GT/s, Width x99999999999999999999, ASPM not supported\n";
        return Stream.of(
                finding("an iblinkinfo LID beyond 16 bits", () -> DiscoveryOutputs.iblinkinfo(line, "iblinkinfo.txt"),
                        "iblinkinfo.txt:1: lid 65536 out of range (0..65535)"),
                finding("an ibroute LID too big for an int", () -> SmOutputs.ibroute(dump, "ibroute.txt"),
                        "ibroute.txt:3: LID 0x80000000 beyond the range in the header"),
                finding("an ibroute LID range too big for an int", () -> SmOutputs.ibroute(wide, "ibroute.txt"),
                        "ibroute.txt:1: LID range end 0x7fffffff beyond 0xffff"),
                finding("an lspci width too big for an int", () -> HostOutputs.lspci(lspci, "lspci-vv.txt"),
                        "lspci-vv.txt:3: PCIe width \"99999999999999999999\" is not a number"));
    }

    private static Arguments finding(String what, ThrowingCallable read, String message) {
        return Arguments.of(what, read, message);
    }

    @ParameterizedTest(name = "{0} is file:line")
    @MethodSource("findings")
    void aNumberTooBigForItsFieldIsFileLine(String what, ThrowingCallable read, String message) {
        assertThatThrownBy(read).as(what).isInstanceOf(FormatException.class).hasMessage(message);
    }
}
