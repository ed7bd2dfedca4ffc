package org.ibtwin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.ibtwin.gen.Direct;
import org.ibtwin.model.LinkSpeed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

class BenchRoutingCommandTest {
    @Test
    void openSmsRoutingTimeAndEngineComeFromItsLog() {
        String log = """
                Dec 01 23:53:04 886787 [6AE39740] 0x02 -> osm_opensm_bind: Setting IS_SM on port 0x0002c90380000000
                Dec 01 23:53:05 447374 [67E326C0] 0x80 -> Entering MASTER state
                Dec 01 23:53:05 473690 [67E326C0] 0x02 -> osm_ucast_mgr_process: dor tables configured on all switches
                Dec 01 23:53:05 676807 [67E326C0] 0x02 -> SUBNET UP
                """;
        assertThat(BenchRoutingCommand.routingSeconds(log)).isCloseTo(0.026316, org.assertj.core.data.Offset.offset(1e-6));
        assertThat(BenchRoutingCommand.usedEngine(log)).isEqualTo("dor");
        assertThat(BenchRoutingCommand.routingSeconds("no such lines")).isEqualTo(-1);
    }

    @Test
    void oursAreRoutedAndCheckedAndTabulated() {
        BenchRoutingCommand.Row r = BenchRoutingCommand.ours("torus-4x4",
                Direct.torus(new int[] {4, 4}, true, 1, 0, LinkSpeed.HDR), "dor");
        assertThat(r.deadlockFree()).isEqualTo("yes");
        assertThat(r.r().unreached()).isZero();
        String line = BenchRoutingCommand.format(r);
        assertThat(line).startsWith("| torus-4x4 ").contains("| dor     | ibtwin |").contains("| yes ");
        BenchRoutingCommand.Row m = BenchRoutingCommand.ours("torus-4x4",
                Direct.torus(new int[] {4, 4}, true, 1, 0, LinkSpeed.HDR), "minhop");
        assertThat(BenchRoutingCommand.format(m)).contains("|   1 | no ");
    }

    /** Runs {@code ibtwin ARGS} in a fresh command line; its exit code, its output and errors in out and err. */
    private static int execute(StringWriter out, StringWriter err, String... args) {
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    @ParameterizedTest(name = "an unknown {0} is a usage error")
    @CsvSource(delimiter = '|', value = {
        "--fabrics | moebius | ibtwin bench routing: --fabrics: none of [moebius] is one of [torus-8x8x8",
        "--engines | lash    | ibtwin bench routing: --engines: lash is none of [minhop, dor, dfsssp"})
    void anUnknownFabricOrEngineIsAUsageError(String option, String name, String message) {
        StringWriter err = new StringWriter();
        assertThat(execute(new StringWriter(), err, "bench", "routing", option, name, "--ours-only")).isEqualTo(2);
        assertThat(err.toString()).startsWith(message);
    }

    @Test
    void oneEngineOfOneFabricRunsAlone() {
        StringWriter out = new StringWriter();
        assertThat(execute(out, new StringWriter(), "bench", "routing", "--fabrics", "mesh-16x16", "--engines", "dor",
                "--ours-only")).isZero();
        assertThat(out.toString().lines().filter(l -> l.startsWith("| mesh-16x16 "))).singleElement()
                .asString().contains("| dor     | ibtwin |");
    }
}
