package org.ibtwin.format;

import static org.assertj.core.api.Assertions.assertThat;

import org.ibtwin.model.Fabric;
import org.ibtwin.model.Guids;
import org.ibtwin.model.Node;
import org.junit.jupiter.api.Test;

/** GUIDs are unsigned 64-bit values: those at or above 0x8000000000000000 (every real NVIDIA OUI) read back whole. */
class HighOuiGuidsTest {

    @Test
    void aHighOuiDumpReadsBackWithEveryGuid() {
        Fabric f = HighOuiFabric.build();
        String text = HighOuiFabric.text(TopologyFormatTest.WHEN);
        assertThat(text).contains("switchguid=0xec0d9a0300ec8480(ec0d9a0300ec8480)")
                .contains("caguid=0xb8599f0300a1b2c2").contains("(b8599f0300a1b2c3)");
        Fabric back = TopologyReader.read(text, "high.topo");
        assertThat(FabricComparison.canonical(back)).isEqualTo(FabricComparison.canonical(f));
        for (long g : HighOuiFabric.SWITCH_GUIDS) {
            Node n = back.byGuid(g);
            assertThat(n).as(Guids.hex(g)).isNotNull();
            assertThat(n.port(0).guid()).isEqualTo(g);
            assertThat(n.systemImageGuid()).isEqualTo(g);
        }
        for (long g : HighOuiFabric.CA_GUIDS) {
            assertThat(back.byGuid(g).port(1).guid()).as(Guids.hex(g)).isEqualTo(g + 1);
        }
        assertThat(back.nodes()).noneMatch(n -> Long.compareUnsigned(n.guid() & 0xffffffff00000000L,
                TopologyReader.GENERATED_GUID_BASE) == 0);
        assertThat(TopologyWriter.toString(back, TopologyFormatTest.WHEN)).isEqualTo(text);
    }

    @Test
    void guidsInIbsimStyleIdsAndTheHighestGuidAreKept() {
        Fabric f = TopologyReader.read("""
                Switch 4 "S-ec0d9a0300ec8480"
                [1] "H-98039b03009fe1a0"[1]
                [2] "edge"[1]

                caguid=0xffffffffffffffff
                Ca 1 "edge"
                [1](ffffffffffffffff) "S-ec0d9a0300ec8480"[2]

                Ca 1 "H-98039b03009fe1a0"
                [1] "S-ec0d9a0300ec8480"[1]
                """, "net");
        assertThat(f.byName("S-ec0d9a0300ec8480").guid()).isEqualTo(0xec0d9a0300ec8480L);
        assertThat(f.byName("H-98039b03009fe1a0").guid()).isEqualTo(0x98039b03009fe1a0L);
        assertThat(f.byName("edge").guid()).isEqualTo(-1L);
        assertThat(f.byName("edge").port(1).guid()).isEqualTo(-1L);
        assertThat(f.byName("edge").systemImageGuid()).isEqualTo(-1L);
    }

    @Test
    void aDuplicateHighGuidIsStillCaught() {
        String text = """
                switchguid=0xec0d9a0300ec8480
                Switch 2 "a"
                [1] "b"[1]

                switchguid=0xec0d9a0300ec8480
                Switch 2 "b"
                [1] "a"[1]
                """;
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> TopologyReader.read(text, "dup.topo")))
                .hasMessage("dup.topo:6: duplicate node GUID 0xec0d9a0300ec8480 (also \"a\" at dup.topo:2)");
    }
}
