package org.ibtwin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ibtwin.format.HighOuiFabric;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A dump whose GUIDs carry real NVIDIA OUIs (top bit set) and whose six switches share one description, through
 * the commands an admin runs on it: every GUID comes back as the dump gives it, never a made-up 0x0002c9fe one, and
 * the degraded inter-switch link names both switches by description and GUID.
 */
class HighOuiCommandsTest extends CliTest {
    private static final String DEGRADED_TOPO = "  " + HighOuiFabric.DEGRADED
            + " 4xDDR   could be 4xEDR   (cable: unknown carries 4xDDR)\n";
    /** ibnetdiscover prints GUIDs without their leading zeros. */
    private static final Pattern GUID = Pattern.compile("0x([0-9a-f]{1,16})\\b");

    Path dump;

    @BeforeEach
    void writeDump() {
        dump = HighOuiFabric.write(dir.resolve("edr.topo"));
    }

    @Test
    void topoNamesTheSharedDescriptionSwitchesByGuid() throws IOException {
        assertThat(run("topo", dump.toString())).as(err.toString()).isZero();
        assertThat(out.toString()).contains("  switches            6   (Switch-IB (36 ports): 6)\n")
                .contains("Links trained below what both ends support: 1\n" + DEGRADED_TOPO);
        assertThat(run("topo", "--json", dump.toString())).isZero();
        JsonNode d = new ObjectMapper().readTree(out.toString()).get("degradedLinks").get(0);
        assertThat(d.get("end1").asText() + " <-> " + d.get("end2").asText()).isEqualTo(HighOuiFabric.DEGRADED);
        assertThat(out.toString()).doesNotContain("0x0002c9fe");
    }

    @Test
    void upAndDoctorNameTheDegradedLinkByTheRealGuids() {
        assertThat(run("up", "--once", dump.toString())).as(err.toString()).isZero();
        assertThat(out.toString()).contains("\n  degraded: " + HighOuiFabric.DEGRADED + " 4xDDR (could be 4xEDR)\n")
                .contains("  SM at host01/1 (port GUID 0xec0d9a0300123451), LID ");
        assertThat(run("doctor", dump.toString())).isEqualTo(1);
        assertThat(out.toString()).contains("\nERROR    T04  " + HighOuiFabric.DEGRADED + "\n");
        assertThat(run("doctor", "--fabric", dump.toString())).isEqualTo(1);
        assertThat(out.toString()).contains("\nERROR    T04  " + HighOuiFabric.DEGRADED + "\n");
        assertThat(out.toString() + err).doesNotContain("0x0002c9fe");
    }

    @Test
    void theScannersOverTheTwinAndTheirCachePrintEveryGuid() throws IOException {
        assertThat(run("ibswitches", "--fabric", dump.toString())).as(err.toString()).isZero();
        List<String> switches = new ArrayList<>();
        for (String l : out.toString().split("\n")) {
            switches.add(l.replaceAll(" lid \\d+ ", " lid L "));
        }
        List<String> expected = new ArrayList<>();
        for (long g : HighOuiFabric.SWITCH_GUIDS) {
            expected.add(String.format("Switch\t: 0x%016x ports 36 \"SwitchIB Mellanox Technologies\" enhanced port 0 "
                    + "lid L lmc 0", g));
        }
        assertThat(switches).containsExactlyInAnyOrderElementsOf(expected);
        Path cache = dir.resolve("edr.cache");
        Path topo = dir.resolve("scanned.topo");
        assertThat(run("ibnetdiscover", "--fabric", dump.toString(), "--cache", cache.toString(), topo.toString()))
                .as(err.toString()).isZero();
        assertThat(guids(Files.readString(topo, StandardCharsets.UTF_8)))
                .containsExactlyInAnyOrderElementsOf(HighOuiFabric.allGuids());
        assertThat(run("ibnetdiscover", "--load-cache", cache.toString())).as(err.toString()).isZero();
        assertThat(guids(out.toString())).containsExactlyInAnyOrderElementsOf(HighOuiFabric.allGuids());
        assertThat(run("iblinkinfo", "--load-cache", cache.toString())).as(err.toString()).isZero();
        assertThat(out.toString()).contains("Switch: 0xec0d9a0300ec8480 SwitchIB Mellanox Technologies:\n")
                .contains("      0xb8599f0300a1b2c3 ");
    }

    @Test
    void snapshotsKeepEveryGuidAndTheirDiffNamesTheSwitchesApart() throws IOException {
        Path a = dir.resolve("a.json");
        assertThat(run("snapshot", "save", dump.toString(), "-o", a.toString())).as(err.toString()).isZero();
        JsonNode s = new ObjectMapper().readTree(a.toFile());
        List<String> saved = new ArrayList<>();
        for (JsonNode n : s.get("nodes")) {
            saved.add(n.get("guid").asText());
            for (JsonNode p : n.get("ports")) {
                if (!n.get("type").asText().equals("Switch")) {
                    saved.add(p.get("guid").asText());
                }
            }
        }
        assertThat(saved).containsExactlyInAnyOrderElementsOf(HighOuiFabric.allGuids());
        // a cable pulled between leaf 4 and spine 2, then the diff
        String text = Files.readString(dump, StandardCharsets.UTF_8).replace(
                "[12]\t\"S-0002c90300d5e6f0\"[4]\t\t# \"SwitchIB Mellanox Technologies\" lid 0 4xEDR\n", "").replace(
                "[4]\t\"S-506b4b0300c0ff00\"[12]\t\t# \"SwitchIB Mellanox Technologies\" lid 0 4xEDR\n", "");
        Path pulled = Files.writeString(dir.resolve("pulled.topo"), text, StandardCharsets.UTF_8);
        Path b = dir.resolve("b.json");
        assertThat(run("snapshot", "save", pulled.toString(), "-o", b.toString())).as(err.toString()).isZero();
        assertThat(run("snapshot", "diff", a.toString(), b.toString())).isEqualTo(1);
        assertThat(out.toString()).contains("links gone (1):\n  SwitchIB Mellanox Technologies (0x506b4b0300c0ff00)/12"
                + " <-> SwitchIB Mellanox Technologies (0x0002c90300d5e6f0)/4 4xEDR\n");
    }

    /** The GUIDs a topology or iblinkinfo text names, each once, as 0x and 16 digits. */
    static List<String> guids(String text) {
        List<String> out = new ArrayList<>();
        Matcher m = GUID.matcher(text.replaceAll("(?m)^(?:# Initiated from |vendid=|devid=).*$", "")
                .replaceAll("\\b(?:switchguid|caguid|sysimgguid)=0x", "=0x")
                .replaceAll("\\(([0-9a-f]{1,16})\\)", "(0x$1)"));
        while (m.find()) {
            out.add(String.format("0x%016x", Long.parseUnsignedLong(m.group(1), 16)));
        }
        return out.stream().distinct().toList();
    }
}
