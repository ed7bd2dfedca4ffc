package org.ibtwin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.ibtwin.fixture.TwinFabric;
import org.ibtwin.format.TopologyReader;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Link;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ibnetdiscover, iblinkinfo, ibswitches, ibhosts and ibnodes through the CLI on the default fabric's twin, brought
 * up by our SM in process: what they find is the fabric the model describes. The line-for-line comparison with the
 * real tools is ScanToolsInteropTest's.
 */
class ScanCommandsTest extends CliTest {
    private static TwinFabric up;

    @BeforeAll
    static void twin() {
        up = diagToolsOnDefaultTwin(4);
    }

    @Test
    void theTopologyReadsBackAsTheModelsFabric() {
        assertThat(run("ibnetdiscover")).isZero();
        assertThat(err.toString()).isEmpty();
        Fabric found = TopologyReader.read(out.toString(), "ibnetdiscover");
        assertThat(found.size()).isEqualTo(up.fabric.size());
        assertThat(links(found)).isEqualTo(links(up.fabric));
        assertThat(out.toString()).contains("# Initiated from node " + String.format("%016x",
                up.fabric.cas().get(4).guid())).contains("4xDDR").contains("4xHDR");
    }

    private static Set<String> links(Fabric f) {
        Set<String> s = new HashSet<>();
        for (Link l : f.links()) {
            String a = Long.toHexString(l.a().node().guid()) + "/" + l.a().number();
            String b = Long.toHexString(l.b().node().guid()) + "/" + l.b().number();
            s.add(a.compareTo(b) < 0 ? a + "-" + b + " " + l.activeWidth() + l.activeSpeed()
                    : b + "-" + a + " " + l.activeWidth() + l.activeSpeed());
        }
        return s;
    }

    @Test
    void iblinkinfoHintsWhatTheDegradedLinkCouldBe() {
        assertThat(run("iblinkinfo")).isZero();
        String degraded = out.toString().lines().filter(l -> l.contains("   33[  ] ==( 4X           5.0 Gbps"))
                .findFirst().orElseThrow();
        assertThat(degraded).endsWith("\"spine01\" ( Could be 53.125 Gbps)");
        assertThat(out.toString().lines().filter(l -> l.startsWith("Switch: "))).hasSize(5);
        assertThat(out.toString().lines().filter(l -> l.startsWith("CA: "))).hasSize(60);
        assertThat(run("iblinkinfo", "-d", "--switches-only")).isZero();
        assertThat(out.toString().lines().filter(l -> l.contains("==>")))
                .allMatch(l -> l.contains("Down/"));
        assertThat(run("iblinkinfo", "-l", "--cas-only")).isZero();
        assertThat(out.toString().lines()).hasSize(60).allMatch(l -> l.startsWith("0x"));
    }

    @Test
    void theScriptsListSwitchesAndHosts() {
        assertThat(run("ibswitches")).isZero();
        assertThat(out.toString().lines()).hasSize(5).allMatch(l -> l.matches("Switch\t: 0x[0-9a-f]{16} ports 40 "
                + "\"(leaf|spine)0\\d\" enhanced port 0 lid \\d+ lmc 0"));
        assertThat(run("ibhosts")).isZero();
        assertThat(out.toString().lines()).hasSize(60).allMatch(l -> l.matches("Ca\t: 0x[0-9a-f]{16} ports 1 "
                + "\"node\\d{3} mlx5_0\""));
        assertThat(run("ibnodes")).isZero();
        assertThat(out.toString().lines()).hasSize(65);
    }

    @Test
    void jsonHasEveryNodeAndItsLinks() throws Exception {
        assertThat(run("ibnetdiscover", "--json")).isZero();
        JsonNode j = new ObjectMapper().readTree(out.toString());
        assertThat(j.get("nodes")).hasSize(65);
        assertThat(j.get("smps").asLong()).isPositive();
        assertThat(run("iblinkinfo", "--json", "--switches-only")).isZero();
        j = new ObjectMapper().readTree(out.toString());
        assertThat(j.get("nodes")).hasSize(5);
        assertThat(out.toString()).contains("\"couldBeSpeed\" : \"53.125 Gbps\"");
        assertThat(run("ibhosts", "--json")).isZero();
        assertThat(new ObjectMapper().readTree(out.toString())).hasSize(60);
    }

    @Test
    void aCacheReadsBackToTheSameOutput(@TempDir Path dir) throws Exception {
        Path c = dir.resolve("f.cache");
        assertThat(run("ibnetdiscover", "-p", "--cache", c.toString())).isZero();
        String live = out.toString();
        assertThat(run("ibnetdiscover", "-p", "--load-cache", c.toString())).isZero();
        assertThat(out.toString()).isEqualTo(live);
        assertThat(run("ibnetdiscover", "--diff", c.toString())).isZero();
        assertThat(out.toString()).isEmpty();
        Files.write(c, new byte[64]);
        assertThat(run("ibnetdiscover", "--load-cache", c.toString())).isEqualTo(DiagCommand.IBERROR);
        assertThat(out.toString()).startsWith("ibnetdiscover: iberror: failed: loading cached fabric failed");
        assertThat(err.toString()).contains("not a fabric cache file");
    }

    @Test
    void aBadNodeNameMapIsOneLineNamingItsLine(@TempDir Path dir) throws Exception {
        Path map = dir.resolve("names");
        Files.writeString(map, "# names\n0x0002c90300000003 \"first\"\nnot-a-guid \"x\"\n");
        assertThat(run("ibnetdiscover", "--node-name-map", map.toString())).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin ibnetdiscover: " + map + ":3: \"not-a-guid\" is not a GUID "
                + "(node name map lines are GUID \"name\", like 0x0002c90300000001 \"leaf01\")\n");
        assertThat(run("iblinkinfo", "--node-name-map", dir.resolve("missing").toString())).isEqualTo(2);
        assertThat(err.toString()).contains("missing").contains("no such file");
    }

    @Test
    void aNodeNameMapRenamesNodes(@TempDir Path dir) throws Exception {
        long leaf = up.fabric.switches().get(0).guid();
        Path map = dir.resolve("names");
        Files.writeString(map, String.format("0x%x \"the first leaf\"%n", leaf));
        assertThat(run("ibnetdiscover", "-S", "--node-name-map", map.toString())).isZero();
        assertThat(out.toString()).contains(String.format("Switch\t : 0x%016x ports 40 devid 0x%x vendid 0x%x "
                + "\"the first leaf\"", leaf, up.fabric.switches().get(0).deviceId(),
                up.fabric.switches().get(0).vendorId()));
    }

    @Test
    void badOptionsAreUsageErrors() {
        assertThat(run("ibnetdiscover", "--diffcheck", "sw,nope")).isEqualTo(2);
        assertThat(err.toString()).startsWith("invalid diff check key: nope\n");
        assertThat(run("iblinkinfo", "--no-such-option")).isEqualTo(2);
    }
}
