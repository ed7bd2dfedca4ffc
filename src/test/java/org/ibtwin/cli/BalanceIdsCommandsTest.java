package org.ibtwin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ibtwin.fixture.TwinFabric;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * check_lft_balance and ibidsverify through the CLI on the default fabric's twin, routed by our SM: live, on saved
 * files, with problems planted in those files, and as JSON. The comparison with the real scripts is
 * BalanceIdsInteropTest's.
 */
class BalanceIdsCommandsTest extends CliTest {
    private static TwinFabric up;

    @BeforeAll
    static void twin() {
        up = diagToolsOnDefaultTwin(0);
    }

    @Test
    void ourSmsRoutesAreBalancedOnEverySwitch() throws Exception {
        assertThat(run("check_lft_balance")).isZero();
        assertThat(out.toString()).isEmpty();
        assertThat(run("check_lft_balance", "-v")).isZero();
        assertThat(out.toString()).contains("Switch Port Usage: leaf01, 0x").contains("Switch Port Usage: spine02, 0x")
                .doesNotContain("Unbalanced");
        assertThat(run("check_lft_balance", "--json")).isZero();
        JsonNode j = new ObjectMapper().readTree(out.toString());
        assertThat(j.size()).isEqualTo(up.fabric.switches().size());
        for (JsonNode s : j) {
            assertThat(s.get("unbalanced").asBoolean()).isFalse();
            assertThat(s.get("max").asInt() - s.get("min").asInt()).isLessThanOrEqualTo(1);
        }
    }

    @Test
    void aSavedDumpWithRoutesPiledOnOnePortIsUnbalanced(@TempDir Path dir) throws Exception {
        assertThat(run("dump_fts")).isZero();
        String dump = out.toString();
        Path cache = dir.resolve("fabric.cache");
        assertThat(run("ibnetdiscover", "--cache", cache.toString())).isZero();
        Path same = dir.resolve("same.lfts");
        Files.writeString(same, dump);
        assertThat(run("check_lft_balance", "-l", same.toString(), "-i", cache.toString())).isZero();
        assertThat(out.toString()).isEmpty();
        // every CA LID that leaf01 sends up leaves by its first uplink instead
        StringBuilder piled = new StringBuilder();
        boolean leaf01 = false;
        String firstUp = null;
        Pattern route = Pattern.compile("^(0x[0-9a-f]{4}) (\\d{3}) (: \\(Channel Adapter.*)$");
        for (String line : dump.split("\n", -1)) {
            if (line.startsWith("Unicast lids")) {
                leaf01 = line.endsWith("(leaf01):");
            }
            Matcher m = route.matcher(line);
            if (leaf01 && m.matches() && Integer.parseInt(m.group(2)) > 20) {
                firstUp = firstUp == null ? m.group(2) : firstUp;
                line = m.group(1) + " " + firstUp + " " + m.group(3);
            }
            piled.append(line).append(line.isEmpty() ? "" : "\n");
        }
        Path bad = dir.resolve("piled.lfts");
        Files.writeString(bad, piled.toString());
        assertThat(run("check_lft_balance", "-l", bad.toString(), "-i", cache.toString())).isZero();
        assertThat(out.toString()).startsWith("Unbalanced Switch Port Usage: leaf01, 0x")
                .containsPattern("Port " + firstUp + ": \\d{2}\n").contains(": 0\n");
        // and with the links read live instead of from the cache
        assertThat(run("check_lft_balance", "-l", bad.toString())).isZero();
        assertThat(out.toString()).startsWith("Unbalanced Switch Port Usage: leaf01, 0x");
    }

    @Test
    void badFilesAreOneLineAndExit2(@TempDir Path dir) throws Exception {
        assertThat(run("check_lft_balance", "-l", dir.resolve("none").toString())).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("Couldn't open dump lfts file: " + dir.resolve("none")
                + ": No such file or directory\n");
        Path junk = Files.writeString(dir.resolve("junk"), "not a cache");
        assertThat(run("check_lft_balance", "-i", junk.toString())).isEqualTo(2);
        assertThat(err.toString()).startsWith("check_lft_balance: " + junk + ": ").hasLineCount(1);
        assertThat(run("ibidsverify", dir.resolve("none").toString())).isEqualTo(2);
        assertThat(err.toString()).hasLineCount(1);
    }

    @Test
    void ourSmsIdsAreValidAndAPlantedDuplicateIsFound(@TempDir Path dir) throws Exception {
        assertThat(run("ibidsverify")).isZero();
        assertThat(out.toString()).isEmpty();
        assertThat(run("ibidsverify", "-R", "--json")).isZero();
        assertThat(new ObjectMapper().readTree(out.toString()).get("ok").asBoolean()).isTrue();
        // node002's port given node001's LID, in a saved topology
        assertThat(run("ibnetdiscover", "-g")).isZero();
        String topo = out.toString();
        Matcher m2 = Pattern.compile("(caguid=(0x[0-9a-f]+)\\n[^\\n]*\\n[^\\n]*# lid )(\\d+)( lmc)").matcher(topo);
        assertThat(m2.find()).isTrue();
        String firstGuid = m2.group(2);
        String firstLid = m2.group(3);
        Path saved = dir.resolve("dup.topo");
        // the second CA's LID becomes the first one's
        int second = topo.indexOf("caguid=", m2.end());
        String tail = topo.substring(second).replaceFirst("# lid \\d+ lmc", "# lid " + firstLid + " lmc");
        Files.writeString(saved, topo.substring(0, second) + tail);
        assertThat(run("ibidsverify", saved.toString())).isEqualTo(1);
        assertThat(out.toString()).isEqualTo("LID " + firstLid + " already defined for NodeGUID " + firstGuid + "\n");
        assertThat(run("ibidsverify", "--json", saved.toString())).isEqualTo(1);
        JsonNode p = new ObjectMapper().readTree(out.toString()).get("problems").get(0);
        assertThat(p.get("kind").asText()).isEqualTo("duplicate-lid");
        assertThat(p.get("firstNodeGuid").asText()).isEqualTo(firstGuid);
    }
}
