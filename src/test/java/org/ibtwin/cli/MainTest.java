package org.ibtwin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The command line through its public entry point, as a user runs it. */
class MainTest extends CliTest {
    @Test
    void helpListsEveryCommandWithOneLineAndEveryCommandHasHelp() {
        assertThat(runAppending("--help")).isZero();
        CommandLine root = Main.commandLine();
        for (String name : root.getSubcommands().keySet()) {
            assertThat(out.toString()).contains("  " + name + " ");
            if (!name.equals("help")) {
                out.getBuffer().setLength(0);
                assertThat(runAppending(name, "--help")).as(name).isZero();
                assertThat(out.toString()).as(name).startsWith("Usage: ibtwin " + name);
                out.getBuffer().setLength(0);
                runAppending("--help");
            }
        }
    }

    @Test
    void topoOfTheDefaultFabricShowsThePlantedProblems() {
        assertThat(runAppending("topo")).isZero();
        String text = out.toString();
        assertThat(text).contains("Fabric: default (built-in)")
                .containsPattern("switches +5 ")
                .containsPattern("CAs +60 ")
                .containsPattern("4xHDR +119 ")
                .containsPattern("4xDDR +1 ")
                .containsPattern("leaf02/33 +<-> spine01/17 +4xDDR +could be 4xHDR")
                .containsPattern("node017 +Gen3 x8 +55.5 Gb/s usable \\(63.0 Gb/s raw\\) under a 200 Gb/s port")
                .containsPattern("datagram 2044 +1 +node033")
                .contains("connected and datagram modes are mixed");
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void topoJsonIsValidJson() throws Exception {
        assertThat(runAppending("topo", "--json")).isZero();
        JsonNode j = new ObjectMapper().readTree(out.toString());
        assertThat(j.get("links").get("total").asInt()).isEqualTo(120);
        assertThat(j.get("degradedLinks")).hasSize(1);
        assertThat(j.get("slowPcieSlots").get(0).get("host").asText()).isEqualTo("node017");
    }

    @Test
    void generatedFilesLoadBack(@TempDir Path dir) {
        String prefix = dir.resolve("lab").toString();
        assertThat(runAppending("gen", "fat-tree", "--hosts", "100", "--speed", "EDR", "-o", prefix)).isZero();
        assertThat(Files.exists(dir.resolve("lab.topo"))).isTrue();
        out.getBuffer().setLength(0);
        assertThat(runAppending("topo", prefix + ".yaml")).isZero();
        assertThat(out.toString()).containsPattern("CAs +100 ").containsPattern("4xEDR +\\d+ ")
                .contains("Links trained below what both ends support: none");
    }

    @Test
    void badInputIsOneLineAndExitTwo(@TempDir Path dir) throws Exception {
        Path bad = dir.resolve("bad.topo");
        Files.writeString(bad, "Switch 8 \"SW1\"\n[3] \"NOPE\"[1]\n");
        assertThat(runAppending("topo", bad.toString())).isEqualTo(2);
        assertThat(err.toString().strip()).isEqualTo("ibtwin topo: " + bad + ":2: port [3] connects to unknown node \"NOPE\"");
        err.getBuffer().setLength(0);
        assertThat(runAppending("topo", dir.resolve("missing.topo").toString())).isEqualTo(2);
        assertThat(err.toString().strip()).isEqualTo("ibtwin topo: " + dir.resolve("missing.topo") + ": no such file");
        err.getBuffer().setLength(0);
        assertThat(runAppending("topo", "--colour")).isEqualTo(2);
        assertThat(err.toString().lines().count()).isEqualTo(1);
        err.getBuffer().setLength(0);
        assertThat(runAppending("topo", dir.toString())).isEqualTo(2);
        assertThat(err.toString().strip()).endsWith(": is a directory, not a fabric file");
    }
}
