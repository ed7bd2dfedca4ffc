package org.ibtwin.sm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.ibtwin.fixture.TwinFabric;
import org.ibtwin.format.tools.SmOutputs;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.model.Node;
import org.ibtwin.sm.routing.RoutingBalance;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dumps our SM writes, on the twin: their lines in OpenSM's formats, the LFT dump as the switches hold it (read
 * back through ibtwin's ibroute reader), and the balance report's figures (real OpenSM's files are compared in
 * SmStateInteropTest and SmBalanceInteropTest).
 */
class SmDumpsTest {
    private static final Pattern LST_END = Pattern.compile("\\{ (SW|CA)(-SM)? Ports:[0-9A-F]{2} SystemGUID:[0-9a-f]{16} "
            + "NodeGUID:[0-9a-f]{16} PortGUID:[0-9a-f]{16} VenID:[0-9A-F]{6,8} DevID:[0-9A-F]{4,8} Rev:[0-9A-F]{8} "
            + "\\{[^}]*} LID:[0-9A-F]{4} PN:[0-9A-F]{2} } ");
    private static final Pattern LST = Pattern.compile("(" + LST_END + "){2}PHY=4x LOG=ACT SPD=(25|50|\\?\\?)");

    @TempDir
    Path dir;

    @Test
    void dumpsOfAFatTreeAreInOpensmsFormatsAndTheLftsAreTheSwitches() throws Exception {
        try (TwinFabric f = new TwinFabric(FatTree.build(FatTreeSpec.of(3, 8, 32)))) {
            SubnetManager sm = f.sm(SmConfig.defaults().withRouting("ftree", null));
            sm.onSweep(SmDumps.writer(dir, SmLog.quiet()));
            assertThat(sm.sweep().subnetUp()).isTrue();

            List<String> lst = Files.readAllLines(dir.resolve(SmDumps.SUBNET_LST));
            assertThat(lst).hasSize(2 * f.fabric.links().size()).allMatch(l -> LST.matcher(l).matches());
            // the SM's own port is marked, from both ends of its link
            assertThat(lst.stream().filter(l -> l.contains("{ CA-SM "))).hasSize(2);

            String dump = Files.readString(dir.resolve(SmDumps.LFTS));
            List<SmOutputs.Routes> routes = SmOutputs.ibroute(dump, SmDumps.LFTS);
            assertThat(routes).hasSize(f.fabric.switches().size());
            for (SmOutputs.Routes r : routes) {
                Node sw = f.fabric.byGuid(r.switchGuid());
                assertThat(r.switchLid()).isEqualTo(f.twin.lid(sw.name(), 0));
                for (int lid = 1; lid < r.lft().length; lid++) {
                    int entry = f.twin.lftEntry(sw.name(), lid);
                    assertThat(r.lft()[lid]).as("%s LID %d", sw.name(), lid).isEqualTo(entry == 0xff ? -1 : entry);
                }
            }
            assertThat(dump).contains(" lids dumped\n").contains("# Channel Adapter portguid 0x");

            RoutingBalance b = RoutingBalance.of(sm.switchGraph(), sm.lfts());
            assertThat(b.caLids()).isEqualTo(32);
            assertThat(b.levels()).containsExactly(1, 2, 3);
            for (int level : b.levels()) {
                assertThat(b.levelStats(level, false).spread()).as("level %d down", level).isLessThanOrEqualTo(1);
                assertThat(b.levelStats(level, true).spread()).as("level %d up", level).isLessThanOrEqualTo(1);
            }
            // every CA LID leaves each leaf by one port: down ports (one CA each) carry 1, ups carry the rest
            assertThat(b.levelStats(1, false).max()).isEqualTo(1);
            String report = Files.readString(dir.resolve(SmDumps.BALANCE));
            assertThat(report).startsWith("# CA LIDs routed out of each switch port: 32 CA LIDs, ")
                    .contains("\nlevel 1 (").contains("  port 1 down: 1\n");
        }
    }
}
