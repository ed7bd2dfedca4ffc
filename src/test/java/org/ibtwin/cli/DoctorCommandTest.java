package org.ibtwin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ibtwin doctor and ibtwin snapshot as a user runs them: outputs and exit codes. */
class DoctorCommandTest extends CliTest {
    private static String resource(String name) {
        try {
            return Path.of(DoctorCommandTest.class.getResource("/doctor/" + name).toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void defaultFabricReportMostSevereFirst() {
        assertThat(runAppending("doctor")).isEqualTo(1);
        String text = out.toString();
        assertThat(text).startsWith("ibtwin doctor: default (built-in) (65 nodes (5 switches, 60 CAs), 120 links)\n");
        assertThat(text.indexOf("ERROR    T04  leaf02/33 <-> spine01/17")).isPositive()
                .isLessThan(text.indexOf("ERROR    T14  node033"));
        assertThat(text.indexOf("ERROR    T14  node033")).isLessThan(text.indexOf("WARNING  T07  node017"));
        assertThat(text).contains("3 findings: 0 critical, 2 errors, 1 warning, 0 info; 15 checks run, 6 not checked:")
                .contains("fix: move the HCA to a PCIe slot");
        // nothing named: the built-in fabric, and stderr says so
        assertThat(err.toString()).isEqualTo("ibtwin: no HCA here: querying the simulated fabric default "
                + "(built-in)\n");
    }

    @Test
    void failOnChoosesTheExitCode() {
        assertThat(runAppending("doctor", "--fail-on", "critical")).isZero();
        assertThat(runAppending("doctor", "--fail-on", "warning")).isEqualTo(1);
        assertThat(runAppending("doctor", "--fail-on", "bad")).isEqualTo(2);
        assertThat(err.toString()).contains("ibtwin doctor: --fail-on: \"bad\" is not critical, error, warning or info");
    }

    @Test
    void jsonReport() throws IOException {
        assertThat(runAppending("doctor", "--json")).isEqualTo(1);
        JsonNode j = new ObjectMapper().readTree(out.toString());
        assertThat(j.get("summary").get("error").asInt()).isEqualTo(2);
        assertThat(j.get("findings").get(0).get("id").asText()).isEqualTo("T04");
        assertThat(j.get("findings").get(0).get("where").asText()).isEqualTo("leaf02/33 <-> spine01/17");
        assertThat(j.get("findings").get(0).get("evidence").isArray()).isTrue();
        assertThat(j.get("notChecked").size()).isEqualTo(6);
    }

    @Test
    void fromADirectoryOfToolOutputs() {
        assertThat(runAppending("doctor", "--from", resource("ibsim-lab"))).isEqualTo(1);
        assertThat(out.toString()).contains("ERROR    T05  node003/1 <-> leaf02/1", "read 10 files");
    }

    @Test
    void healthyFabricExitsZero(@TempDir Path dir) {
        assertThat(runAppending("gen", "fat-tree", "--hosts", "64", "--speed", "EDR", "-o",
                dir.resolve("ft").toString()))
                .isZero();
        out.getBuffer().setLength(0);
        assertThat(runAppending("doctor", dir.resolve("ft.yaml").toString())).isZero();
        assertThat(out.toString()).contains("no findings: 0 critical, 0 errors, 0 warnings, 0 info");
    }

    @Test
    void badInputIsOneLineAndExitTwo(@TempDir Path dir) throws IOException {
        assertThat(runAppending("doctor", "--from", dir.resolve("nope").toString())).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin doctor: " + dir.resolve("nope") + ": no such directory\n");
        err.getBuffer().setLength(0);
        Files.writeString(dir.resolve("node1.ibstat"), "CA 'mlx5_0'\n\tCA type: MT4123\n\tPort 1:\n"
                + "\t\tState: Sleeping\n");
        assertThat(runAppending("doctor", "--from", dir.toString())).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin doctor: node1.ibstat:4: port state \"Sleeping\" not understood\n");
        err.getBuffer().setLength(0);
        assertThat(runAppending("doctor", "default", "--from", dir.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("give one fabric");
        err.getBuffer().setLength(0);
        Path t = dir.resolve("thresholds");
        Files.writeString(t, "Nonsense=1\n");
        assertThat(runAppending("doctor", "--thresholds", t.toString())).isEqualTo(2);
        assertThat(err.toString()).startsWith("ibtwin doctor: " + t + ":1: unknown threshold \"Nonsense\"");
    }

    @Test
    void thresholdsFileSuppressesAndTightens(@TempDir Path dir) throws IOException {
        Path t = dir.resolve("thresholds");
        Files.writeString(t, "suppress=T04,T14\n");
        assertThat(runAppending("doctor", "--thresholds", t.toString())).isZero();
        assertThat(out.toString()).contains("WARNING  T07  node017").doesNotContain("T04  leaf02")
                .contains("T04 link trained at a lower speed", "suppressed in the thresholds file");
    }

    @Test
    void partitionsFileIsJudged(@TempDir Path dir) throws IOException {
        Path p = dir.resolve("partitions.conf");
        Files.writeString(p, "Default=0x7fff : ALL=limited;\n");
        assertThat(runAppending("doctor", "--partitions", p.toString(), "--fail-on", "critical")).isEqualTo(1);
        assertThat(out.toString()).contains("CRITICAL T11  SM port", p + ":1: Default partition member ALL=limited");
    }

    @Test
    void liveOnTheInProcessTwinOfAFabricFindsThePlantedProblemsThroughMads() {
        assertThat(runAppending("doctor", "--fabric", "default")).isEqualTo(1);
        assertThat(err.toString()).contains("ibtwin doctor: discovered 65 nodes, 120 links");
        assertThat(out.toString()).contains("the in-process twin of default (65 nodes", "ERROR    T04  leaf02/33 <-> "
                + "spine01/17", "ERROR    T14  node033", "WARNING  T07  node017");
    }

    @Test
    void liveWithNothingListeningExitsThree() {
        assertThat(runAppending("doctor", "--ibsim", "127.0.0.1:17489")).isEqualTo(3);
        assertThat(err.toString()).startsWith("ibtwin doctor: cannot read ibsim at 127.0.0.1:17489: ");
    }

    @Test
    void snapshotSaveAndDiff(@TempDir Path dir) throws IOException {
        Path a = dir.resolve("a.json");
        Path b = dir.resolve("b.json");
        assertThat(runAppending("snapshot", "save", "-o", a.toString())).isZero();
        assertThat(runAppending("snapshot", "save", "--from", resource("ibsim-lab"), "-o", b.toString())).isZero();
        assertThat(out.toString()).contains("wrote " + a + ": 65 nodes, 120 links, 0 ports with counters");
        out.getBuffer().setLength(0);
        assertThat(runAppending("snapshot", "diff", a.toString(), a.toString())).isZero();
        assertThat(out.toString()).endsWith("no differences\n");
        out.getBuffer().setLength(0);
        assertThat(runAppending("snapshot", "diff", a.toString(), b.toString())).isEqualTo(1);
        assertThat(out.toString()).contains("nodes gone (", "links gone (");
        out.getBuffer().setLength(0);
        assertThat(runAppending("snapshot", "diff", "--json", a.toString(), b.toString())).isEqualTo(1);
        assertThat(new ObjectMapper().readTree(out.toString()).get("links_gone").size()).isPositive();
        Files.writeString(dir.resolve("bad.json"), "[]");
        assertThat(runAppending("snapshot", "diff", a.toString(), dir.resolve("bad.json").toString())).isEqualTo(2);
        assertThat(err.toString()).contains("bad.json:1: not an ibtwin snapshot: a value of the wrong kind");
    }

    @Test
    void aSnapshotLoadsBackAsAFabricInTopoAndUpWithItsPkeys(@TempDir Path dir) throws IOException {
        Path a = dir.resolve("a.json");
        assertThat(runAppending("snapshot", "save", "-o", a.toString())).isZero();
        // a tenant's P_Keys, as a snapshot of a partitioned fabric holds them
        ObjectMapper json = new ObjectMapper();
        var tree = json.readTree(a.toFile());
        for (var n : tree.get("nodes")) {
            if (n.get("name").asText().equals("node005")) {
                var keys = ((com.fasterxml.jackson.databind.node.ObjectNode) n.get("ports").get(0)).putArray("pkeys");
                keys.add("0x7fff").add("0x8001");
            }
        }
        json.writeValue(a.toFile(), tree);
        out.getBuffer().setLength(0);
        assertThat(runAppending("topo", a.toString())).as(err.toString()).isZero();
        assertThat(out.toString()).contains("switches            5", "CAs                60");
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        // up without -P: the SM finds the tenant's P_Keys and says, once, that it replaces them
        assertThat(runAppending("up", "--once", a.toString())).as(err.toString()).isZero();
        assertThat(out.toString()).contains("SUBNET UP");
        assertThat(err.toString()).contains("ibtwin up: warning: P_Keys: 1 ports have P_Keys another SM programmed "
                + "that this SM's partitions (none: no -P, every port a full Default member) change (node005/1 has "
                + "0x7fff 0x8001, gets 0xffff)");
    }
}
