package org.ibtwin.doctor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.ibtwin.format.FormatException;
import org.ibtwin.format.TopologyReader;
import org.ibtwin.model.Cable;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.IpoibMode;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.PortCounter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnapshotTest {

    private static Snapshot snap(Fabric f, String when) {
        return Snapshot.of(Lab.state(f).time(Instant.parse(when)));
    }

    @Test
    void roundTripsThroughAFileAndCarriesARealTopology(@TempDir Path dir) throws IOException {
        Fabric f = Lab.healthy();
        Lab.port(f, "leaf02/3").setCounter(PortCounter.SYMBOL_ERROR, 12);
        Snapshot s = snap(f, "2026-11-30T05:00:00Z");
        Path file = dir.resolve("a.json");
        s.write(file);
        Snapshot back = Snapshot.read(file);
        assertThat(back).isEqualTo(s);
        assertThat(back.nodes()).hasSize(65);
        assertThat(back.links()).hasSize(120);
        assertThat(back.counters()).singleElement().satisfies(c -> {
            assertThat(c.port()).isEqualTo("leaf02/3");
            assertThat(c.values()).containsEntry("SymbolErrorCounter", 12L);
        });
        // the embedded topology is an ibnetdiscover dump the reader takes back, LIDs and all
        Fabric again = TopologyReader.read(back.topology(), "embedded");
        assertThat(again.size()).isEqualTo(65);
        assertThat(Lab.port(again, "node005/1").lid()).isEqualTo(Lab.port(f, "node005/1").lid());
    }

    @Test
    void diffNamesWhatChanged() {
        Fabric f = Lab.healthy();
        Snapshot a = snap(f, "2026-11-30T05:00:00Z");
        Lab.link(f, "leaf02/25").setCable(Cable.UNRATED.withMaxSpeed(LinkSpeed.DDR));
        f.disconnect(Lab.link(f, "leaf01/30"));
        Lab.port(f, "node005/1").setLid(999);
        Lab.port(f, "node007/1").setState(org.ibtwin.model.PortState.INIT);
        Lab.port(f, "node004/1").setCounter(PortCounter.LINK_DOWNED, 3);
        Lab.node(f, "node033").setHostFacts(Lab.node(f, "node033").hostFacts().withIpoib(IpoibMode.DATAGRAM, 2044));
        Snapshot b = snap(f, "2026-11-30T06:00:00Z");
        SnapshotDiff d = SnapshotDiff.of(a, b);
        assertThat(d.linksChanged()).containsExactly("leaf02/25 <-> spine01/13: 4xHDR -> 4xDDR (could be 4xHDR)");
        assertThat(d.linksGone()).containsExactly("leaf01/30 <-> spine02/5 4xHDR");
        assertThat(d.lidsChanged()).containsExactly("node005/1: LID 10 -> 999");
        assertThat(d.statesChanged()).containsExactly("node007/1: Active/LinkUp -> Initialize/LinkUp");
        assertThat(d.counterRises()).containsExactly("node004/1: LinkDownedCounter +3 (0 -> 3)");
        assertThat(d.hostsChanged()).containsExactly("node033: ipoib_mode CONNECTED -> DATAGRAM",
                "node033: ipoib_mtu 65520 -> 2044");
        assertThat(d.nodesAdded()).isEmpty();
        assertThat(d.toText()).contains("links changed (1):", "links gone (1):", "LIDs changed (1):");
        assertThat(SnapshotDiff.of(a, a).empty()).isTrue();
        assertThat(SnapshotDiff.of(a, a).toText()).endsWith("no differences\n");
        Fabric g = Lab.healthy();
        g.disconnect(Lab.link(g, "node060/1"));
        assertThat(SnapshotDiff.of(snap(Lab.healthy(), "2026-11-30T05:00:00Z"), snap(g, "2026-11-30T05:00:01Z"))
                .linksGone()).containsExactly("node060/1 <-> leaf03/20 4xHDR");
    }

    @Test
    void notASnapshotIsAFileLineError(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("x.json");
        Files.writeString(f, "{\n  \"format\": \"ibtwin-snapshot/1\",\n  \"nodes\": [ oops ]\n}\n");
        assertThatThrownBy(() -> Snapshot.read(f)).isInstanceOf(FormatException.class)
                .hasMessageStartingWith(f + ":3: not an ibtwin snapshot:");
        Files.writeString(f, "{\"nodes\": []}");
        assertThatThrownBy(() -> Snapshot.read(f)).hasMessage(f + ": not an ibtwin snapshot (no \"format\": "
                + "\"ibtwin-snapshot/1\")");
    }

    @Test
    void aPartitionChangeAnMtuAndAnLftChangeShowInTheDiff() {
        Fabric f = Lab.healthy();
        FabricState sa = Lab.state(f).time(Instant.parse("2026-11-30T05:00:00Z"));
        org.ibtwin.model.Node leaf = Lab.node(f, "leaf01");
        int[] lft = new int[12];
        java.util.Arrays.fill(lft, 1);
        sa.routes().put(leaf, lft.clone());
        Snapshot a = Snapshot.of(sa);
        Lab.port(f, "node005/1").setPkeys(new int[] {0x7fff, 0x8001});
        Lab.port(f, "node006/1").setMtuCap(org.ibtwin.model.Mtu.MTU2048);
        FabricState sb = Lab.state(f).time(Instant.parse("2026-11-30T06:00:00Z"));
        lft[7] = 3;
        lft[9] = 4;
        sb.routes().put(leaf, lft);
        Snapshot b = Snapshot.of(sb);
        SnapshotDiff d = SnapshotDiff.of(a, b);
        assertThat(d.pkeysChanged()).containsExactly("node005/1: P_Keys 0xffff -> 0x7fff 0x8001");
        assertThat(d.mtusChanged()).containsExactly("node006/1: MTU cap 4096 -> 2048");
        assertThat(d.lftsChanged()).containsExactly("leaf01: 2 LIDs routed differently (LID 7: port 1 -> port 3, "
                + "...)");
        assertThat(d.toText()).contains("P_Keys changed (1):", "forwarding tables changed (1):");
        assertThat(d.toJson()).containsKeys("pkeys_changed", "mtus_changed", "forwarding_tables_changed");
    }

    @Test
    void aSnapshotWrittenBeforePkeysMtusAndLftsReadsWithThemUnknown(@TempDir Path dir) throws IOException {
        Snapshot s = snap(Lab.healthy(), "2026-11-30T05:00:00Z");
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        var tree = (com.fasterxml.jackson.databind.node.ObjectNode) json.readTree(s.toJson());
        tree.remove("lfts");
        for (var n : tree.get("nodes")) {
            for (var p : n.get("ports")) {
                ((com.fasterxml.jackson.databind.node.ObjectNode) p).remove(List.of("pkeys", "mtuCap", "mtuActive"));
            }
        }
        String old = json.writeValueAsString(tree);
        assertThat(old).doesNotContain("pkeys", "mtuCap", "lfts");
        Path file = dir.resolve("old.json");
        Files.writeString(file, old);
        Snapshot back = Snapshot.read(file);
        assertThat(back.lfts()).isEmpty();
        assertThat(back.nodes().get(10).ports().get(0).pkeys()).isNull();
        assertThat(SnapshotDiff.of(back, s).empty()).as(SnapshotDiff.of(back, s).toText()).isTrue();
    }

    @Test
    void aSnapshotLoadsBackAsAFabricWithItsPkeys(@TempDir Path dir) throws IOException {
        Fabric f = Lab.healthy();
        Lab.port(f, "node005/1").setPkeys(new int[] {0x7fff, 0x8001});
        Lab.port(f, "node006/1").setMtuCap(org.ibtwin.model.Mtu.MTU2048);
        Path file = dir.resolve("snap.json");
        snap(f, "2026-11-30T05:00:00Z").write(file);
        Fabric back = org.ibtwin.format.FabricFiles.load(file);
        assertThat(back.size()).isEqualTo(65);
        assertThat(Lab.port(back, "node005/1").pkeys()).containsExactly(0x7fff, 0x8001);
        assertThat(Lab.port(back, "node004/1").pkeys()).containsExactly(0xffff);
        assertThat(Lab.port(back, "node006/1").mtuCap()).isEqualTo(org.ibtwin.model.Mtu.MTU2048);
        assertThat(Lab.port(back, "node005/1").lid()).isEqualTo(Lab.port(f, "node005/1").lid());
        Files.writeString(file, "{\"format\": \"ibtwin-snapshot/1\", \"topology\": \"\"}");
        assertThatThrownBy(() -> org.ibtwin.format.FabricFiles.load(file)).hasMessage(file + ": the snapshot holds "
                + "no topology (it was saved from outputs without an ibnetdiscover dump), so it cannot be loaded as a "
                + "fabric");
    }
}
