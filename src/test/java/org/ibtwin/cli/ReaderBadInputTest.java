package org.ibtwin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.ibtwin.fixture.TestResources;
import org.ibtwin.format.HighOuiFabric;
import org.junit.jupiter.api.Test;

/** Files that are not what a reader expects, through the commands: one line naming the file (and line), exit 2. */
class ReaderBadInputTest extends CliTest {
    private static final byte[] NOT_UTF8 = {(byte) 0xff, (byte) 0xfe, 'x', '\n'};

    private Path file(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text, StandardCharsets.UTF_8);
    }

    @Test
    void theNodeListsAndIbidsverifyRejectWhatTopoRejects() throws IOException {
        Path g = file("garbage.topo", "hello world\nthis is not a topology\n");
        String line = g + ":1: expected Switch, Ca, Hca or Rt, or a [port] line, got: hello world\n";
        for (String tool : new String[] {"topo", "ibhosts", "ibswitches", "ibnodes", "ibidsverify"}) {
            assertThat(run(tool, g.toString())).as(tool).isEqualTo(2);
            assertThat(err.toString()).isEqualTo("ibtwin " + tool + ": " + line);
            assertThat(out.toString()).isEmpty();
        }
        Path empty = file("empty.topo", "# nothing here\n\n");
        for (String tool : new String[] {"topo", "ibhosts", "ibidsverify"}) {
            assertThat(run(tool, empty.toString())).as(tool).isEqualTo(2);
            assertThat(err.toString()).isEqualTo("ibtwin " + tool + ": " + empty + ": no nodes (no Switch, Ca or Rt "
                    + "line)\n");
        }
    }

    @Test
    void ibidsverifyStillReportsDuplicateGuidsInAGroupedTopology() throws IOException {
        // two CAs answering with one port GUID, in a grouped (ibnetdiscover) topology
        Path t = file("dup.topo", TestResources.text("/topo/dup-portguid.topo"));
        assertThat(run("ibidsverify", t.toString())).as(err.toString()).isEqualTo(1);
        assertThat(out.toString()).contains("0xec0d9a0300123451");
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void anEmptyTopologyIsRefusedByEveryCommandThatLoadsAFabric() throws IOException {
        Path empty = file("empty.topo", "");
        String why = empty + ": no nodes (no Switch, Ca or Rt line)\n";
        assertThat(run("topo", empty.toString())).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin topo: " + why);
        assertThat(out.toString()).isEmpty();
        assertThat(run("up", "--once", empty.toString())).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin up: " + why);
        assertThat(run("sim", empty.toString(), "--port", "18080", "--warmup", "0", "--no-console")).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin sim: " + why);
        assertThat(run("doctor", empty.toString())).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin doctor: " + why);
    }

    @Test
    void filesThatAreNotUtf8SayItWithTheirName() throws IOException {
        Path topo = HighOuiFabric.write(dir.resolve("edr.topo"));
        Path guid2lid = Files.write(dir.resolve("guid2lid"), NOT_UTF8);
        assertThat(run("up", "--once", "--guid2lid", guid2lid.toString(), topo.toString())).isZero();
        assertThat(err.toString()).startsWith("ibtwin up: warning: " + guid2lid
                + ": not a text file (invalid UTF-8)\n");
        // (the SM then writes its own guid2lid over the bad one, as OpenSM does)
        Path bad = Files.write(dir.resolve("bad.bin"), NOT_UTF8);
        String why = bad + ": not a text file (invalid UTF-8)";
        assertThat(run("up", "--once", "-R", "updn", "-a", bad.toString(), topo.toString())).isZero();
        assertThat(err.toString()).startsWith("ibtwin up: warning: " + why + "; updn finds its roots itself\n");
        assertThat(run("snapshot", "diff", bad.toString(), bad.toString())).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin snapshot diff: " + why + "\n");
        assertThat(run("topo", bad.toString())).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin topo: " + why + "\n");
    }

    @Test
    void rootGuidsNamingACaOrNoNodeAreOneWarningEach() throws IOException {
        Path topo = HighOuiFabric.write(dir.resolve("edr.topo"));
        Path roots = file("roots.txt", "0xec0d9a0300ec8480\n0xec0d9a0300123451\n0x1234\n");
        assertThat(run("up", "--once", "-R", "updn", "-a", roots.toString(), topo.toString())).isZero();
        assertThat(err.toString()).isEqualTo(
                "ibtwin up: warning: root GUID 0xec0d9a0300123451 is host01, a CA, not a switch: ignored\n"
                + "ibtwin up: warning: root GUID 0x0000000000001234 is no node of this fabric: ignored\n");
    }

    @Test
    void aDescriptionWhoseTopologyIsADirectoryNamesItsOwnFileAndLine() throws IOException {
        Files.createDirectories(dir.resolve("net"));
        Path yaml = file("lab.yaml", "# a lab\ntopology: net\n");
        assertThat(run("topo", yaml.toString())).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin topo: " + yaml + ":2: topology: " + dir.resolve("net")
                + " is a directory, not a topology file\n");
    }

    @Test
    void anOversizedDescriptionIsRefusedBeforeItIsParsed() throws IOException {
        Path big = file("big.yaml", "# padding\n".repeat(330_000));
        assertThat(run("topo", big.toString())).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin topo: " + big + ": larger than the 3 MiB (3,145,728 characters) "
                + "a YAML document may have\n");
        Path line = file("line.yaml", "topology: " + "a".repeat(70_000) + "\n");
        assertThat(run("topo", line.toString())).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin topo: " + line + ":1: line longer than 65,536 characters "
                + "(70,010)\n");
    }

    @Test
    void snapshotDiffRefusesLidsOutOfRangeAtTheirLine() throws IOException {
        Path topo = HighOuiFabric.write(dir.resolve("edr.topo"));
        Path a = dir.resolve("a.json");
        assertThat(run("snapshot", "save", topo.toString(), "-o", a.toString())).isZero();
        String text = Files.readString(a, StandardCharsets.UTF_8);
        int at = text.indexOf("\"lid\" : ");
        int line = (int) text.substring(0, at).chars().filter(c -> c == '\n').count() + 1;
        Path bad = file("neg.json", text.substring(0, at) + "\"lid\" : -3" + text.substring(text.indexOf(',', at)));
        assertThat(run("snapshot", "diff", a.toString(), bad.toString())).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin snapshot diff: " + bad + ":" + line
                + ": not an ibtwin snapshot: nodes[0].lid: -3 is not a LID (0..65535)\n");
    }

    @Test
    void doctorFromADirectoryGetsThroughAHundredThousandLineKeyValueFile() throws IOException {
        Path from = Files.createDirectories(dir.resolve("from"));
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 100_000; i++) {
            sb.append("setting").append(i).append(": value ").append(i).append('\n');
        }
        file("from/settings.txt", sb.toString());
        assertThat(run("doctor", "--from", from.toString())).as(err.toString()).isZero();
        assertThat(out.toString()).contains("ignored files:\n  settings.txt: not a tool output doctor reads");
    }
}
