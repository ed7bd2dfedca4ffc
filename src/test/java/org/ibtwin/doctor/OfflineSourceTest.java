package org.ibtwin.doctor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.ibtwin.format.FabricFiles;
import org.ibtwin.format.FormatException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Doctor on directories of saved tool outputs: the same findings as the model and live paths. */
class OfflineSourceTest {

    static Path resource(String name) {
        try {
            return Path.of(OfflineSourceTest.class.getResource("/doctor/" + name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Report examine(Path dir) {
        return Doctor.examine(OfflineSource.load(dir), new Thresholds());
    }

    @Test
    void defaultFabricFromItsDumpAndHostFilesGivesThePlantedProblems() {
        Report r = examine(resource("default-offline"));
        assertThat(r.findings()).as(r.toText()).extracting(Finding::id, Finding::where).containsExactly(
                tuple("T04", "leaf02/33 <-> spine01/17"), tuple("T14", "node033"), tuple("T07", "node017"));
        assertThat(r.ignored()).containsExactly("notes.txt: not a tool output doctor reads");
        assertThat(r.read()).contains("ibnetdiscover.txt (ibnetdiscover)", "node017/lspci-vv.txt (lspci -vv)",
                "node033/ip-d-link-ib0.txt (ip -d link)", "node001.ifcfg-ib0 (ifcfg-ib0)", "node003.mode (ib0 mode)");
        Report model = Doctor.examine(FabricState.of(FabricFiles.loadDefault(), "default", "default.yaml"),
                new Thresholds());
        assertThat(r.findings()).extracting(Finding::id, Finding::where)
                .isEqualTo(model.findings().stream().map(f -> tuple(f.id(), f.where())).toList());
    }

    @Test
    void realToolOutputsFromIbsim() {
        Report r = examine(resource("ibsim-lab"));
        assertThat(r.findings()).as(r.toText()).extracting(Finding::id, Finding::where).containsExactly(
                tuple("T04", "leaf01/6 <-> spine02/1"), tuple("T05", "node003/1 <-> leaf02/1"),
                tuple("T09", "leaf01/0"), tuple("T16", "leaf02/1"), tuple("T22", "spine02/1"),
                tuple("T24", "node003/1"));
        assertThat(r.ignored()).isEmpty();
        // the links judged from the topology alone agree with the net file read as a model
        Report model = Doctor.examine(FabricState.of(FabricFiles.load(resource("lab.net")), "lab.net", "-"),
                new Thresholds());
        assertThat(model.findings()).extracting(Finding::id, Finding::where).containsExactly(
                tuple("T04", "leaf01/6 <-> spine02/1"), tuple("T05", "node003/1 <-> leaf02/1"));
    }

    /** The lab's eight nodes and eight links, loaded from dir holding only the lab's file of that name as file. */
    private static FabricState labFromOneFile(Path dir, String name, String file) throws IOException {
        Files.copy(resource("ibsim-lab/" + name), dir.resolve(file));
        FabricState s = OfflineSource.load(dir);
        assertThat(s.fabric().size()).isEqualTo(8);
        assertThat(s.fabric().links()).hasSize(8);
        return s;
    }

    @Test
    void portsListAloneBuildsATopology(@TempDir Path dir) throws IOException {
        FabricState s = labFromOneFile(dir, "ibnetdiscover-p.txt", "p.txt");
        Report r = Doctor.examine(s, new Thresholds());
        assertThat(r.findings()).extracting(Finding::id, Finding::where).contains(tuple("T04",
                "leaf01/6 <-> spine02/1"));
    }

    @Test
    void linkinfoAloneBuildsATopologyWithStates(@TempDir Path dir) throws IOException {
        FabricState s = labFromOneFile(dir, "iblinkinfo.txt", "links");
        assertThat(s.portStatesKnown()).isTrue();
        assertThat(s.lidsKnown()).isTrue();
    }

    @Test
    void hostFilesWithoutTopology() {
        Report r = examine(resource("hosts-offline"));
        assertThat(r.findings()).as(r.toText()).extracting(Finding::id, Finding::where).containsExactly(
                tuple("T08", "node014/1"), tuple("T11", "SM port"), tuple("T01", "node005/1"),
                tuple("T02", "node007"), tuple("T03", "node006/1"), tuple("T04", "node013/1"),
                tuple("T13", "node012/1"), tuple("T17", "node009"), tuple("T19", "node008"),
                tuple("T21", "node010"));
        Finding t11 = r.findings().get(1);
        assertThat(t11.evidence().get(0)).isEqualTo("partitions.conf:3: Default partition member ALL=limited");
    }

    @Test
    void malformedKnownFilesAreFileLineErrors(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("pq.txt"), "# Port counters: Lid 6 port 1 (CapMask: 0x1200)\n"
                + "PortSelect:......................1\nSymbolErrorCounter:..............lots\n");
        assertThatThrownBy(() -> OfflineSource.load(dir)).isInstanceOf(FormatException.class)
                .hasMessage("pq.txt:3: SymbolErrorCounter \"lots\" is not a number");
    }

    @Test
    void brokenTopologyDumpIsAFileLineError(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("topo"), "Switch 8 \"S-1\"\n[1] \"H-9\"[1]\n");
        assertThatThrownBy(() -> OfflineSource.load(dir)).isInstanceOf(FormatException.class)
                .hasMessage("topo:2: port [1] connects to unknown node \"H-9\"");
    }

    @Test
    void unknownAndBinaryFilesAreIgnored(@TempDir Path dir) throws IOException {
        Files.write(dir.resolve("core"), new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1});
        Files.writeString(dir.resolve("todo.md"), "# fix the cables\n");
        Files.writeString(dir.resolve("lspci-vv.txt"), "3b:00.0 Infiniband controller: Mellanox [ConnectX-6]\n"
                + "\t\tLnkSta:\tSpeed 8GT/s, Width x8\n");
        FabricState s = OfflineSource.load(dir);
        assertThat(s.ignored()).containsExactly("core: not a text file",
                "lspci-vv.txt: lspci -vv output with no host in its name (name it <host>.<anything> or put it in "
                        + "<host>/)", "todo.md: not a tool output doctor reads");
    }

    @Test
    void twoPerfqueryReadingsGiveRates(@TempDir Path dir) throws IOException {
        String block = "# Port counters: Lid 2 port 1 (CapMask: 0x1300)\nPortSelect:......................1\n"
                + "SymbolErrorCounter:..............%d\nLinkDownedCounter:...............%d\n";
        Files.copy(resource("ibsim-lab/ibnetdiscover.txt"), dir.resolve("ibnetdiscover.txt"));
        Files.writeString(dir.resolve("counters.txt"), "Mon Nov 30 05:00:00 UTC 2026\n" + block.formatted(100, 1)
                + "Mon Nov 30 05:30:00 UTC 2026\n" + block.formatted(400, 3));
        Report r = examine(dir);
        assertThat(r.findings()).extracting(Finding::id, Finding::where, Finding::severity).contains(
                tuple("T16", "leaf02/1", Severity.ERROR), tuple("T24", "leaf02/1", Severity.ERROR));
        Finding t16 = r.findings().stream().filter(f -> f.id().equals("T16")).findFirst().orElseThrow();
        assertThat(t16.evidence().get(0)).isEqualTo("leaf02/1: SymbolErrorCounter rose by 300 in 30 min "
                + "(600/hour): 100 -> 400 (counters.txt:2, counters.txt:7), threshold 10");
    }
}
