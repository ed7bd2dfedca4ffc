package org.ibtwin.format;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Malformed topology files: each gives one exact {@code file:line: message}. */
class TopologyErrorsTest {
    private static final String SW = "Switch\t8 \"SW1\"\t\t# \"sw one\" base port 0 lid 1 lmc 0\n";
    private static final String CA = "Ca\t1 \"HA\"\n[1]\t\"SW1\"[1]\n";

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', textBlock = """
            Swich 8 "SW1"                                        | bad.topo:1: expected Switch, Ca, Hca or Rt, or a [port] line, got: Swich 8 "SW1"
            [1] "HA"[1]                                          | bad.topo:1: port line before any Switch, Ca or Rt line
            Switch many "SW1"                                    | bad.topo:1: port count "many" is not a number
            Switch 300 "SW1"                                     | bad.topo:1: port count 300 outside 1..254
            Switch 8                                             | bad.topo:1: Switch line without a node name
            Switch 8 "SW1\\n[9] "HA"[1]                           | bad.topo:1: unterminated quoted string
            vendid=0x2c9\\ndevid=0xzz\\nSwitch 8 "SW1"            | bad.topo:1: devid "0xzz" is not a number
            vendid=0x2c9\\nsysimgguid=0x12345678901234567\\nCa 1 "HA" | bad.topo:1: sysimgguid "0x12345678901234567" is not a GUID
            colour=blue\\nSwitch 8 "SW1"                          | bad.topo:1: unknown key "colour" (expected vendid, devid, sysimgguid, switchguid, caguid or rtguid)
            caguid=0x10\\nSwitch 8 "SW1"                          | bad.topo:2: caguid given for a Switch node
            Switch 8 "SW1"\\n[9] "HA"[1]                          | bad.topo:2: port 9 outside 1..8 of "SW1"
            Switch 8 "SW1"\\n[x] "HA"[1]                          | bad.topo:2: port number "x" is not a number
            Switch 8 "SW1"\\n[1 "HA"[1]                           | bad.topo:2: missing ] after port number
            Switch 8 "SW1"\\n[1] "HA"[1](12g)                     | bad.topo:2: remote port GUID "12g" is not a GUID
            Switch 8 "SW1"\\n[1] "HA"[1] w=7x                     | bad.topo:2: w=7x is not a link width mask (a mask of 1=1x 2=4x 4=8x 8=12x 16=2x)
            Switch 8 "SW1"\\n[1] "HA"[1] q=1                      | bad.topo:2: unknown port qualifier "q=" (expected w=, s= or e=)
            Switch 8 "SW1"\\n[1] "HA"[1] fast                     | bad.topo:2: unexpected "fast" on port line
            Switch 8 "SW1"\\n[1] "NOPE"[1]                        | bad.topo:2: port [1] connects to unknown node "NOPE"
            Switch 8 "SW1"\\n[1] "SW1"[1]                         | bad.topo:2: port [1] of "SW1" connects to itself
            Switch 8 "SW1"\\n[1] "HA"[2]\\n\\nCa 1 "HA"             | bad.topo:2: remote port 2 outside 1..1 of "HA"
            Switch 8 "SW1"\\n\\nSwitch 4 "SW1"                     | bad.topo:3: node "SW1" defined again (first at bad.topo:1)
            Switch 8 "SW1"\\n[1] "HA"[1]\\n[1] "HB"[1]\\n\\nCa 1 "HA"\\nCa 1 "HB" | bad.topo:3: port [1] of "SW1" listed twice (first at line 2)
            switchguid=0x5\\nSwitch 8 "SW1"\\nswitchguid=0x5\\nSwitch 8 "SW2" | bad.topo:4: duplicate node GUID 0x0000000000000005 (also "SW1" at bad.topo:2)
            Switch 8 "SW1"\\n[1] "HA"[1]\\n[2] "HA"[1]\\n\\nCa 1 "HA" | bad.topo:3: "HA"[1] is already connected to "SW1"[1] (bad.topo:2)
            Switch 8 "SW1"\\n[1] "HA"[1] # "a" lid 2 4xEDR\\n\\nCa 1 "HA"\\n[1] "SW1"[1] # lid 2 lmc 0 "b" lid 1 4xHDR | bad.topo:5: link is 4xHDR here but 4xEDR at bad.topo:2
            Switch 8 "SW1"\\n[1] "HA"[1] w=1\\n\\nCa 1 "HA"\\n[1] "SW1"[1] w=2 | bad.topo:5: mismatched enabled width between the two ends of SW1[1] <-> HA[1]
            vendid=0x2c9                                         | bad.topo:1: node attributes (vendid) with no Switch, Ca or Rt line after them
            """)
    void malformed(String text, String expected) {
        String t = text.replace("\\n", "\n");
        assertThatThrownBy(() -> TopologyReader.read(t, "bad.topo"))
                .isInstanceOf(FormatException.class)
                .hasMessage(expected);
    }

    @Test
    void descriptionLongerThan64Bytes() {
        String t = "Ca 1 \"HA\" # \"" + "x".repeat(65) + "\"\n";
        assertThatThrownBy(() -> TopologyReader.read(t, "long.topo"))
                .hasMessage("long.topo:1: node description of \"HA\" is longer than 64 bytes");
    }

    @Test
    void missingAndCyclicIncludes(@TempDir Path dir) throws IOException {
        Path a = dir.resolve("a.net");
        Files.writeString(a, SW + "\ninclude \"missing.net\"\n");
        assertThatThrownBy(() -> TopologyReader.read(a))
                .hasMessage(a + ":3: included file \"missing.net\" not found");
        Path b = dir.resolve("b.net");
        Files.writeString(b, CA + "\ninclude \"b.net\"\n");
        assertThatThrownBy(() -> TopologyReader.read(b))
                .hasMessage(b + ": includes itself");
    }

    @Test
    void missingAndBinaryFiles(@TempDir Path dir) throws IOException {
        Path none = dir.resolve("none.topo");
        assertThatThrownBy(() -> TopologyReader.read(none)).hasMessage(none + ": no such file");
        Path bin = dir.resolve("bin.topo");
        Files.write(bin, new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1, 2, (byte) 0xc3});
        assertThatThrownBy(() -> TopologyReader.read(bin)).hasMessage(bin + ": not a text file (invalid UTF-8)");
    }
}
