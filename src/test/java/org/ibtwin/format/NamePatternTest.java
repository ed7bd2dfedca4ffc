package org.ibtwin.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class NamePatternTest {

    @Test
    void expandsPaddedRanges() {
        assertThat(NamePattern.parse("node[001-003]").expand()).containsExactly("node001", "node002", "node003");
        assertThat(NamePattern.parse("node[001-064]").expand()).hasSize(64).startsWith("node001").endsWith("node064");
    }

    @Test
    void expandsListsOfNumbersAndRanges() {
        assertThat(NamePattern.parse("node[1-4,7,9-10]").expand())
                .containsExactly("node1", "node2", "node3", "node4", "node7", "node9", "node10");
    }

    @Test
    void paddingFollowsTheWidthOfTheBounds() {
        NamePattern leaf = NamePattern.parse("leaf[01-08]");
        assertThat(leaf.matches("leaf05")).isTrue();
        assertThat(leaf.matches("leaf5")).isFalse();
        assertThat(leaf.matches("leaf09")).isFalse();
        assertThat(leaf.matches("leaf005")).isFalse();
        NamePattern plain = NamePattern.parse("n[8-10]");
        assertThat(plain.expand()).containsExactly("n8", "n9", "n10");
        assertThat(plain.matches("n08")).isFalse();
        assertThat(plain.matches("n10")).isTrue();
    }

    @Test
    void plainNamesMatchThemselvesOnly() {
        NamePattern p = NamePattern.parse("node017");
        assertThat(p.matches("node017")).isTrue();
        assertThat(p.matches("node0170")).isFalse();
        assertThat(p.matches("node01")).isFalse();
        assertThat(p.expand()).containsExactly("node017");
        assertThat(p.isGlob()).isFalse();
    }

    @Test
    void globsMatchAnyRun() {
        NamePattern p = NamePattern.parse("node0*");
        assertThat(p.isGlob()).isTrue();
        assertThat(p.matches("node0")).isTrue();
        assertThat(p.matches("node017")).isTrue();
        assertThat(p.matches("node117")).isFalse();
        assertThat(NamePattern.parse("*").matches("MF0;leaf01:MQM8700/U1")).isTrue();
        assertThat(NamePattern.parse("*leaf*").matches("MF0;leaf01:MQM8700/U1")).isTrue();
        assertThatThrownBy(p::expand).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void bracketsAndDigitsAroundThemBacktrack() {
        NamePattern p = NamePattern.parse("n[1-2]0");
        assertThat(p.matches("n10")).isTrue();
        assertThat(p.matches("n20")).isTrue();
        assertThat(p.matches("n30")).isFalse();
        assertThat(NamePattern.parse("rack[1-2]node[01-02]").expand())
                .containsExactly("rack1node01", "rack1node02", "rack2node01", "rack2node02");
    }

    @Test
    void commasOutsideBracketsSeparateAlternatives() {
        NamePattern p = NamePattern.parse("node[01-02],leaf01");
        assertThat(p.expand()).containsExactly("node01", "node02", "leaf01");
        assertThat(p.matches("leaf01")).isTrue();
        assertThat(p.matches("leaf02")).isFalse();
    }

    @Test
    void escapesMakeCharactersLiteral() {
        NamePattern p = NamePattern.parse("a\\,b\\[1\\]");
        assertThat(p.expand()).containsExactly("a,b[1]");
        assertThat(NamePattern.parse(NamePattern.escape("x*[2],y\\")).matches("x*[2],y\\")).isTrue();
    }

    @Test
    void badSyntaxIsExplained() {
        assertThatThrownBy(() -> NamePattern.parse("node[1-4"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("bad name pattern \"node[1-4\": \"[\" at column 5 is never closed");
        assertThatThrownBy(() -> NamePattern.parse("node[10-1]"))
                .hasMessage("bad name pattern \"node[10-1]\": range 10-1 is reversed");
        assertThatThrownBy(() -> NamePattern.parse("node[01-100]"))
                .hasMessage("bad name pattern \"node[01-100]\": range 01-100 pads its bounds to different widths");
        assertThatThrownBy(() -> NamePattern.parse("node[]"))
                .hasMessage("bad name pattern \"node[]\": empty brackets \"[]\"");
        assertThatThrownBy(() -> NamePattern.parse("node1]"))
                .hasMessage("bad name pattern \"node1]\": \"]\" at column 6 has no \"[\"");
        assertThatThrownBy(() -> NamePattern.parse("node[a-3]"))
                .hasMessage("bad name pattern \"node[a-3]\": \"a-3\" in brackets is not a number or range"
                        + " (expected like 1-4 or 007)");
        assertThatThrownBy(() -> NamePattern.parse("node[1,,2]"))
                .hasMessage("bad name pattern \"node[1,,2]\": \"\" in brackets is not a number or range"
                        + " (expected like 1-4 or 007)");
        assertThatThrownBy(() -> NamePattern.parse("a[1[2]]"))
                .hasMessage("bad name pattern \"a[1[2]]\": \"[\" at column 4 inside brackets");
        assertThatThrownBy(() -> NamePattern.parse("a,,b"))
                .hasMessage("bad name pattern \"a,,b\": empty name before \",\" at column 3");
        assertThatThrownBy(() -> NamePattern.parse("a\\"))
                .hasMessage("bad name pattern \"a\\\": \"\\\" at the end escapes nothing");
        assertThatThrownBy(() -> NamePattern.parse("")).hasMessage("empty name pattern");
    }

    @Test
    void compressesRuns() {
        assertThat(NamePattern.compress(List.of("node001", "node002", "node003", "node005")))
                .isEqualTo("node[001-003,005]");
        assertThat(NamePattern.compress(List.of("node8", "node9", "node10"))).isEqualTo("node[8-10]");
        assertThat(NamePattern.compress(List.of("node099", "node100", "node101"))).isEqualTo("node[099-101]");
        assertThat(NamePattern.compress(List.of("node017"))).isEqualTo("node017");
        assertThat(NamePattern.compress(List.of("leaf01", "leaf02", "node001", "spine", "a,b")))
                .isEqualTo("leaf[01-02],node001,spine,a\\,b");
        assertThat(NamePattern.compress(List.of("r1n01", "r1n02", "r2n01")))
                .isEqualTo("r1n[01-02],r2n01");
        assertThat(NamePattern.compress(List.of("33", "34", "36"))).isEqualTo("[33-34,36]");
    }

    @Property(tries = 300)
    void compressMatchesExactlyTheNames(@ForAll("nameSets") Set<String> names,
                                        @ForAll("nameSets") Set<String> others) {
        String text = NamePattern.compress(new ArrayList<>(new TreeSet<>(names)));
        NamePattern p = NamePattern.parse(text);
        for (String n : names) {
            assertThat(p.matches(n)).as("%s matches %s", text, n).isTrue();
        }
        for (String n : others) {
            assertThat(p.matches(n)).as("%s matches %s", text, n).isEqualTo(names.contains(n));
        }
        assertThat(new TreeSet<>(p.expand())).isEqualTo(new TreeSet<>(names));
    }

    @Provide
    Arbitrary<Set<String>> nameSets() {
        Arbitrary<String> prefix = Arbitraries.of("node", "leaf", "n", "gpu-", "r1n", "", "x[", "a,b");
        Arbitrary<String> suffix = Arbitraries.of("", "", "", "-ib", "a");
        Arbitrary<Integer> number = Arbitraries.integers().between(0, 130);
        Arbitrary<Integer> pad = Arbitraries.of(0, 2, 3);
        Arbitrary<String> numbered = Combinators.combine(prefix, number, pad, suffix)
                .as((pr, n, w, su) -> pr + (w == 0 ? Integer.toString(n) : String.format("%0" + w + "d", n)) + su);
        Arbitrary<String> plain = Arbitraries.of("spine", "login", "x*y", "a\\b");
        return Arbitraries.oneOf(numbered, numbered, numbered, plain).set().ofMinSize(1).ofMaxSize(40)
                .map(LinkedHashSet::new);
    }
}
