package org.ibtwin.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** PartitionsConf.looksLike recognises in one pass exactly the statements the regular expression does. */
class PartitionsLooksLikeTest {
    /** The statement as a regular expression: right, but quadratic over a long file with no ';'. */
    private static final Pattern STATEMENT = Pattern.compile(
            "(?m)^\\s*[A-Za-z0-9_.\\-]+\\s*(=\\s*(0[xX])?[0-9a-fA-F]+)?\\s*(,[^:;\\n]*)?:[^;]*;");

    private static boolean byRegex(String text) {
        StringBuilder sb = new StringBuilder();
        for (String line : text.split("\n", -1)) {
            int h = line.indexOf('#');
            sb.append(h < 0 ? line : line.substring(0, h)).append('\n');
        }
        return STATEMENT.matcher(sb).find();
    }

    @Provide
    Arbitrary<String> texts() {
        return Arbitraries.strings().withChars("aZ09x=,:;# \t\n.-_g").ofMaxLength(40);
    }

    @Property(tries = 3000)
    void agreesWithTheRegularExpression(@ForAll("texts") String text) {
        assertThat(PartitionsConf.looksLike(text)).as("%s", text.replace("\n", "\\n")).isEqualTo(byRegex(text));
    }

    @Test
    void realStatementsAndNearMisses() {
        assertThat(PartitionsConf.looksLike("Default=0x7fff, ipoib : ALL=full ;\n")).isTrue();
        assertThat(PartitionsConf.looksLike("# c\n  storage = 0x0002 ,mtu=5 :\n 0xec0d9a0300123451=full;")).isTrue();
        assertThat(PartitionsConf.looksLike("storage = 0x0002\n : ALL;")).isTrue();
        assertThat(PartitionsConf.looksLike("storage ,mtu=5\n : ALL;")).isFalse();
        assertThat(PartitionsConf.looksLike("Default=0x7fff : ALL=full # ; in a comment\n")).isFalse();
        assertThat(PartitionsConf.looksLike("key: value\nother: thing\n")).isFalse();
        assertThat(PartitionsConf.looksLike(";\nkey: value\n")).isFalse();
        assertThat(PartitionsConf.looksLike("key: value;\n")).isTrue();
    }

    @Test
    void aHundredThousandKeyValueLinesAreNoPartitionsFile() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 100_000; i++) {
            sb.append("key").append(i).append(": value ").append(i).append('\n');
        }
        assertThat(PartitionsConf.looksLike(sb.toString())).isFalse();
        assertThat(PartitionsConf.looksLike(sb + "last: one;\n")).isTrue();
    }
}
