package org.ibtwin.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import org.ibtwin.fixture.TestResources;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Link;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.LinkWidth;
import org.ibtwin.model.Node;
import org.ibtwin.model.NodeType;
import org.ibtwin.model.PortState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TopologyFormatTest {
    static final ZonedDateTime WHEN = ZonedDateTime.of(2026, 11, 3, 4, 52, 0, 0, ZoneOffset.UTC);

    static String resource(String name) {
        return TestResources.text("/topo/" + name);
    }

    /** The records of a topology text (header dropped), as a set: record order is discovery order. */
    static TreeSet<String> records(String text) {
        String[] parts = text.split("\n\n");
        return new TreeSet<>(Arrays.asList(parts).subList(1, parts.length).stream().map(String::strip).toList());
    }

    @Test
    void realIbnetdiscoverOutputIsWrittenBackRecordForRecord() throws IOException {
        for (String name : List.of("real-ibnetdiscover-mixed.txt", "real-ibnetdiscover-2sw2path4hca.txt",
                "real-ibnetdiscover-misc.txt")) {
            String real = resource(name);
            Fabric f = TopologyReader.read(real, name);
            String ours = TopologyWriter.toString(f, WHEN);
            assertThat(records(ours)).as(name).isEqualTo(records(real));
        }
    }

    @Test
    void realDumpReadsIntoTheModel() throws IOException {
        Fabric f = TopologyReader.read(resource("real-ibnetdiscover-mixed.txt"), "mixed");
        assertThat(f.switches()).hasSize(2);
        assertThat(f.cas()).hasSize(9);
        assertThat(f.links()).hasSize(12);
        Node swA = f.byGuid(0x0002c90300000001L);
        assertThat(swA.description()).isEqualTo("swA");
        assertThat(swA.enhancedPort0()).isTrue();
        assertThat(swA.port(0).lid()).isEqualTo(3);
        assertThat(swA.deviceId()).isEqualTo(0xcf08);
        Node host3 = f.byGuid(0x0002c90300001020L);
        assertThat(host3.port(1).guid()).isEqualTo(0x0002c90300001021L);
        assertThat(host3.port(1).lid()).isEqualTo(13);
        assertThat(host3.port(1).state()).isEqualTo(PortState.ACTIVE);
        Link l = host3.port(1).link();
        assertThat(l.activeWidth()).isEqualTo(LinkWidth.X4);
        assertThat(l.activeSpeed()).isEqualTo(LinkSpeed.FDR10);
        // host5 on swA trained at DDR although both ends do EDR: a degraded link
        Link ddr = f.byGuid(0x0002c90300001040L).port(1).link();
        assertThat(ddr.activeSpeed()).isEqualTo(LinkSpeed.DDR);
        assertThat(ddr.isDegraded()).isTrue();
        Link narrow = f.byGuid(0x0002c90300001050L).port(1).link();
        assertThat(narrow.activeWidth()).isEqualTo(LinkWidth.X1);
        assertThat(narrow.isDegraded()).isTrue();
    }

    @Test
    void ibsimNetFileWithIncludeQualifiersAndRouter(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("misc.net"), resource("misc.net"));
        Files.writeString(dir.resolve("inc.net"), resource("inc.net"));
        Fabric f = TopologyReader.read(dir.resolve("misc.net"));
        assertThat(f.size()).isEqualTo(4);
        Node sw = f.byName("SW1");
        assertThat(sw.description()).isEqualTo("my switch");
        assertThat(sw.port(0).lid()).isEqualTo(9);
        assertThat(f.byName("HB").type()).isEqualTo(NodeType.CA);
        assertThat(f.byName("R1").type()).isEqualTo(NodeType.ROUTER);
        assertThat(f.byName("HA").description()).isEqualTo("host A");
        // what real ibsim made of the same file: HA 4xSDR, HB 4xQDR (w=3 s=7 on both ends), R1 4xSDR
        assertThat(sw.port(1).link().activeSpeed()).isEqualTo(LinkSpeed.SDR);
        assertThat(sw.port(2).link().activeSpeed()).isEqualTo(LinkSpeed.QDR);
        assertThat(sw.port(2).link().activeWidth()).isEqualTo(LinkWidth.X4);
        assertThat(sw.port(3).remote().node().name()).isEqualTo("R1");
    }

    @Test
    void liberalReadingOfHandEditedDumps() {
        String text = """
                # hand-made, spaces instead of tabs, no blank lines, short GUIDs
                vendid=0x2c9
                devid=0xd2f0
                switchguid=0x2c903000a0000(2c903000a0000)
                Switch 40 "S-0002c903000a0000" # "leaf01" enhanced port 0 lid 1 lmc 0
                [1] "H-0002c90300000100"[1](2c90300000101)  # "node001 mlx5_0" lid 2 4xHDR
                [2]    "H-0002c90300000200"[1](2c90300000201)   # "node002 mlx5_0" lid 3 4xHDR   # checked by bob
                vendid=0x2c9
                devid=0x101b
                caguid=0x2c90300000100
                Ca 1 "H-0002c90300000100" # "node001 mlx5_0"
                [1](2c90300000101) "S-0002c903000a0000"[1] # lid 2 lmc 0 "leaf01" lid 1 4xHDR
                vendid=0x2c9
                devid=0x101b
                caguid=0x0002c90300000200
                Ca 1 "H-0002c90300000200" # "node002 mlx5_0"
                [1](0002c90300000201) "S-0002c903000a0000"[2] # lid 3 lmc 0 "leaf01" lid 1 4xHDR
                """;
        Fabric f = TopologyReader.read(text, "hand.topo");
        assertThat(f.size()).isEqualTo(3);
        assertThat(f.links()).hasSize(2);
        assertThat(f.links()).allSatisfy(l -> assertThat(l.activeSpeed()).isEqualTo(LinkSpeed.HDR));
        assertThat(f.byGuid(0x2c90300000200L).port(1).guid()).isEqualTo(0x2c90300000201L);
        assertThat(f.byGuid(0x2c903000a0000L).description()).isEqualTo("leaf01");
    }

    @Test
    void writeThenReadGivesTheSameFabric(@TempDir Path dir) throws IOException {
        Fabric f = TopologyReader.read(resource("real-ibnetdiscover-mixed.txt"), "mixed");
        Path out = dir.resolve("out.topo");
        TopologyWriter.write(f, out);
        Fabric back = TopologyReader.read(out);
        assertThat(FabricComparison.canonical(back)).isEqualTo(FabricComparison.canonical(f));
        assertThat(TopologyWriter.toString(back, WHEN)).isEqualTo(TopologyWriter.toString(f, WHEN));
    }
}
