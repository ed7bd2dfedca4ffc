package org.ibtwin.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class Guid2LidFileTest {
    @TempDir
    Path dir;

    @Test
    void writesWhatOpenSmWritesAndReadsItBack() {
        Map<Long, Guid2LidFile.Range> m = Map.of(0x0002c90300000003L, new Guid2LidFile.Range(6, 6),
                0x0002c90380000000L, new Guid2LidFile.Range(1, 1), 0xf452140300a1b2c1L,
                new Guid2LidFile.Range(0x40, 0x43));
        String text = Guid2LidFile.format(m);
        assertThat(text).isEqualTo("""
                0x0002c90300000003 0x0006 0x0006

                0x0002c90380000000 0x0001 0x0001

                0xf452140300a1b2c1 0x0040 0x0043

                """);
        Path f = dir.resolve("guid2lid");
        Guid2LidFile.write(f, m);
        assertThat(Guid2LidFile.read(f).entries()).isEqualTo(m);
        assertThat(Guid2LidFile.read(f).problems()).isEmpty();
        assertThat(Files.exists(dir.resolve("guid2lid.tmp"))).isFalse();
    }

    @Test
    void badEntriesAreReportedByLineAndLeftOutTheRestKept() {
        Guid2LidFile.Contents c = Guid2LidFile.parse("""
                0x0002c90300000003 0x0006 0x0006

                0x0002c90300000005 7
                0xzz 0x0008 0x0008
                0x0002c90300000007 0xc000 0xc000
                0x0002c90300000009 12 11
                0x0002c90300000003 0x0009 0x0009
                  0x0002c9030000000b 0x000a 0x000a
                0x0002c9030000000d 13 13
                """, "g2l");
        assertThat(c.entries()).containsOnlyKeys(0x0002c90300000003L, 0x0002c9030000000dL);
        assertThat(c.entries().get(0x0002c9030000000dL)).isEqualTo(new Guid2LidFile.Range(13, 13));
        assertThat(c.problems()).containsExactly(
                "g2l:3: expected \"0x<port guid> <first lid> <last lid>\", got \"0x0002c90300000005 7\"",
                "g2l:4: \"0xzz\" is not a GUID",
                "g2l:5: \"0xc000 0xc000\" is not a unicast LID range (1..0xbfff, first <= last)",
                "g2l:6: \"12 11\" is not a unicast LID range (1..0xbfff, first <= last)",
                "g2l:7: GUID 0x0002c90300000003 appears again; the first entry is kept",
                "g2l:8: a line that is not an entry (entries start in the first column: \"0x<port guid> <first lid> "
                        + "<last lid>\")");
    }

    @Test
    void aMissingFileIsEmpty() {
        assertThat(Guid2LidFile.read(dir.resolve("none")).entries()).isEmpty();
    }

    @Test
    void guidListsAreOneGuidALineWithCommentsAndFileLineErrors() {
        assertThat(GuidListFile.parse("# roots\n0x0002c90380000004\n\n  0x2c90380000005 spine02 # the other\n12\n",
                "roots")).containsExactly(0x0002c90380000004L, 0x0002c90380000005L, 12L);
        assertThatThrownBy(() -> GuidListFile.parse("0x1\nspine01\n", "roots"))
                .isInstanceOf(FormatException.class)
                .hasMessage("roots:2: \"spine01\" is not a GUID (one GUID a line, like 0x0002c90300000001)");
        assertThat(List.of()).isEmpty();
    }
}
