package org.ibtwin.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ibtwin.cli.Cli;
import org.ibtwin.format.FabricFiles;
import org.ibtwin.format.tools.SmOutputs;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Link;
import org.ibtwin.model.Node;
import org.ibtwin.model.Port;
import org.ibtwin.sm.SmDumps;
import org.ibtwin.sm.routing.Lfts;
import org.ibtwin.sm.routing.RoutingBalance;
import org.ibtwin.sm.routing.SwitchGraph;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Routing balance against real OpenSM: on real {@code ibsim -r} loaded with a generated fat tree, real {@code opensm
 * -o -R <engine>} routes it (its LFTs read from its own {@code opensm-lfts.dump}); then, on a fresh ibsim, ibtwin's
 * SM with the same engine. Both sets of tables are counted the same way ({@link RoutingBalance}: CA LIDs per switch
 * port, up and down ports apart) and ours must be at least as even as OpenSM's: per level, and within the worst
 * switch. Ports 18200..18289.
 */
@Tag("interop")
@Timeout(120)
class SmBalanceInteropTest extends InteropTest {
    static final int FIRST_PORT = 18200;
    static final int LAST_PORT = 18289;
    private static final Pattern ROUTE = Pattern.compile(
            "^0x([0-9a-f]{4}) \\d{3} # (Channel Adapter|Switch|Router) portguid 0x([0-9a-f]{16}):", Pattern.MULTILINE);

    @ParameterizedTest(name = "{0}-level radix {1}, {2} hosts, -R {3}")
    @CsvSource({"2, 16, 64, minhop", "2, 16, 64, ftree", "3, 8, 64, minhop", "3, 8, 64, ftree"})
    void ourRoutesAreAtLeastAsBalancedAsOpensms(int levels, int radix, int hosts, String engine) throws Exception {
        Fabric fabric = FatTree.build(FatTreeSpec.of(levels, radix, hosts));
        Path net = FabricFiles.write(fabric, dir.resolve("lab"))[0];
        Path osmDir = Files.createDirectories(dir.resolve("opensm"));
        Path ourDir = Files.createDirectories(dir.resolve("ours"));
        opensmOnce(fabric, net, osmDir, FIRST_PORT, LAST_PORT, engine);
        assertThat(RealTools.read(osmDir.resolve("osm.log"))).contains("SUBNET UP");
        ourSmOnce(fabric, net, FIRST_PORT, LAST_PORT, "-q", "-R", engine, "--dump-dir", ourDir.toString());
        String osmLog = RealTools.read(osmDir.resolve("osm.log"));
        // OpenSM really used the engine (it falls back to minhop when ftree declines)
        assertThat(osmLog).contains("osm_ucast_mgr_process: " + engine + " tables configured on all switches");
        RoutingBalance theirs = balance(fabric, Files.readString(osmDir.resolve(SmDumps.LFTS), StandardCharsets.UTF_8));
        RoutingBalance ours = balance(fabric, Files.readString(ourDir.resolve(SmDumps.LFTS), StandardCharsets.UTF_8));
        assertThat(ours.caLids()).isEqualTo(hosts).isEqualTo(theirs.caLids());
        String both = "\nours:\n" + head(ours.report()) + "\nOpenSM:\n" + head(theirs.report());
        assertThat(ours.levels()).isEqualTo(theirs.levels());
        for (int level : ours.levels()) {
            for (boolean up : new boolean[] {true, false}) {
                RoutingBalance.Stats o = ours.levelStats(level, up);
                RoutingBalance.Stats t = theirs.levelStats(level, up);
                assertThat(o.ports()).isEqualTo(t.ports());
                assertThat(o.spread()).as("level %d %s spread%s", level, up ? "up" : "down", both)
                        .isLessThanOrEqualTo(t.spread());
            }
        }
        for (boolean up : new boolean[] {true, false}) {
            assertThat(ours.worstSwitchSpread(up)).as("worst switch %s spread%s", up ? "up" : "down", both)
                    .isLessThanOrEqualTo(theirs.worstSwitchSpread(up));
        }
        System.out.printf("balance %d-level radix %d %d hosts -R %s: ours %s / OpenSM %s (worst switch up spread "
                        + "%d / %d)%n", levels, radix, hosts, engine, ours.levelStats(1, true),
                theirs.levelStats(1, true), ours.worstSwitchSpread(true), theirs.worstSwitchSpread(true));
    }

    /** {@code ibtwin bench sm --ibsim}: both SMs bring the same fabric up on fresh real ibsims, figures printed. */
    @org.junit.jupiter.api.Test
    void benchSmIbsimTimesBothSms() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int rc = Cli.execute(out, err, "bench", "sm", "--ibsim", "--sizes", "32", "--port", Integer.toString(FIRST_PORT));
        assertThat(rc).as(out + "\n" + err).isZero();
        assertThat(out.toString())
                .containsPattern("(?m)^ +32 +\\d+ +ibtwin +[\\d.]+ +[\\d.]+ +[\\d,]+ *$")
                .containsPattern("(?m)^ +32 +\\d+ +opensm +[\\d.]+ +[\\d.]+ +- *$")
                .containsPattern("(?m)^ +32 hosts: ibtwin [\\d.]+ s, OpenSM [\\d.]+ s \\(x[\\d.]+\\)$");
    }

    private static String head(String report) {
        return report.lines().takeWhile(l -> !l.isEmpty()).reduce("", (a, b) -> a + b + "\n");
    }

    /**
     * The balance of the tables in an OpenSM-format LFT dump, on the fabric's switches and links: the LIDs are the
     * dump's own (each SM gave out its own), placed by the port GUIDs the dump names.
     */
    static RoutingBalance balance(Fabric f, String dump) {
        List<SmOutputs.Routes> routes = SmOutputs.ibroute(dump, "opensm-lfts.dump");
        List<Node> sws = f.switches();
        Map<Long, Integer> swIndex = new HashMap<>();
        for (int s = 0; s < sws.size(); s++) {
            swIndex.put(sws.get(s).guid(), s);
        }
        Map<Long, Port> portByGuid = new HashMap<>();
        for (Node n : f.nodes()) {
            for (int p = n.isSwitch() ? 0 : 1; p <= (n.isSwitch() ? 0 : n.numPorts()); p++) {
                portByGuid.put(n.port(p).guid(), n.port(p));
            }
        }
        int top = 0;
        for (SmOutputs.Routes r : routes) {
            top = Math.max(top, r.lft().length - 1);
        }
        SwitchGraph.Builder b = SwitchGraph.builder(sws.size(), top);
        for (int s = 0; s < sws.size(); s++) {
            b.setSwitch(s, sws.get(s).guid(), sws.get(s).name(), sws.get(s).numPorts());
        }
        for (Link l : f.links()) {
            if (l.isUp() && l.a().node().isSwitch() && l.b().node().isSwitch()) {
                b.link(swIndex.get(l.a().node().guid()), l.a().number(), swIndex.get(l.b().node().guid()),
                        l.b().number());
            }
        }
        Matcher m = ROUTE.matcher(dump);
        boolean[] placed = new boolean[top + 1];
        while (m.find()) {
            int lid = Integer.parseInt(m.group(1), 16);
            if (placed[lid]) {
                continue;
            }
            placed[lid] = true;
            Port p = portByGuid.get(Long.parseUnsignedLong(m.group(3), 16));
            assertThat(p).as("port GUID %s", m.group(3)).isNotNull();
            if (p.node().isSwitch()) {
                b.dest(lid, 1, swIndex.get(p.node().guid()), 0, false);
            } else {
                Port sw = p.remote();
                b.dest(lid, 1, swIndex.get(sw.node().guid()), sw.number(), true);
            }
        }
        SwitchGraph g = b.build();
        byte[][] tables = new byte[sws.size()][];
        for (SmOutputs.Routes r : routes) {
            byte[] t = Lfts.empty(top);
            for (int lid = 0; lid < r.lft().length; lid++) {
                if (r.lft()[lid] >= 0) {
                    t[lid] = (byte) r.lft()[lid];
                }
            }
            tables[swIndex.get(r.switchGuid())] = t;
        }
        for (int s = 0; s < tables.length; s++) {
            assertThat(tables[s]).as("LFT of %s in the dump", sws.get(s).name()).isNotNull();
        }
        return RoutingBalance.of(g, new Lfts(tables, top));
    }
}
