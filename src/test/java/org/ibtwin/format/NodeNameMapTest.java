package org.ibtwin.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class NodeNameMapTest {
    @Test
    void readsTheFormsTheToolsRead() {
        NodeNameMap m = NodeNameMap.parse("""
                # a comment
                   # an indented comment

                0x0002c90300000001 "leaf 01"
                0x0002c90300000002\tbare-name # trailing comment
                  0X0002C90300000003 "quoted" then more
                0x0002c90300000001 "second entry for the same GUID"
                012 "octal ten"
                13 "decimal"
                0x0002c90300000004
                0x0002c90300000005#no space before the comment
                """, "names");
        assertThat(m.get(0x0002c90300000001L)).isEqualTo("leaf 01");
        assertThat(m.get(0x0002c90300000002L)).isEqualTo("bare-name ");
        assertThat(m.get(0x0002c90300000003L)).isEqualTo("quoted");
        assertThat(m.get(10)).isEqualTo("octal ten");
        assertThat(m.get(13)).isEqualTo("decimal");
        assertThat(m.get(0x0002c90300000004L)).isNull();
        assertThat(m.get(0x0002c90300000005L)).isEqualTo("no space before the comment");
        assertThat(m.size()).isEqualTo(6);
    }

    @Test
    void namesFallBackToTheCleanedDescription() {
        NodeNameMap m = NodeNameMap.parse("0x1 \"one\"\n", "n");
        assertThat(m.name(1, "ignored")).isEqualTo("one");
        assertThat(m.name(2, "tab\there")).isEqualTo("tab here");
        assertThat(NodeNameMap.empty().name(1, "x".repeat(70))).hasSize(64);
    }

    @Test
    void aLineThatIsNotAnEntryIsAnErrorAtItsLine() {
        assertThatThrownBy(() -> NodeNameMap.parse("0x1 \"ok\"\n\nguid \"no\"\n", "map.txt"))
                .isInstanceOf(FormatException.class).hasMessageStartingWith("map.txt:3: \"guid\" is not a GUID");
        assertThatThrownBy(() -> NodeNameMap.parse("0x1z \"no\"\n", "m"))
                .hasMessageStartingWith("m:1: \"0x1z\" is not a GUID");
    }
}
