package org.ibtwin.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The pairs' summary of {@code bench opensm}; the runs themselves are a benchmark (BenchOpensmInteropTest runs two). */
class BenchOpensmCommandTest {
    private static BenchOpensmCommand.Run run(String side, int hosts, double up, double cpu) {
        return new BenchOpensmCommand.Run(side, hosts, 0, 0, 0, 0, up + 0.1, up, up, hosts, -1, 0, 0, 0, 0, 0, cpu,
                -1, "-", -1, "");
    }

    @Test
    void pairsGiveTheMedianRatioWhicheverSideRanFirst() {
        java.util.List<BenchOpensmCommand.Run> runs = java.util.List.of(
                run("twin", 1024, 2.2, 0.6), run("ibsim", 1024, 2.0, 0.4),   // 1.10
                run("ibsim", 1024, 2.0, 0.5), run("twin", 1024, 1.8, 0.5),   // 0.90
                run("twin", 1024, 3.0, 0.7), run("ibsim", 1024, 2.0, 0.6),   // 1.50
                run("ibsim", 1024, 2.0, 0.4), run("twin", 1024, -1, 0.5),    // twin never up: left out
                run("twin", 128, 1.0, 0.1), run("ibsim", 128, 2.0, 0.2),     // 0.50
                run("ibsim", 128, 1.0, 0.2), run("twin", 128, 1.0, 0.1));    // 1.00
        java.util.List<BenchOpensmCommand.Ratio> q = BenchOpensmCommand.ratios(runs);
        assertThat(q).hasSize(2);
        BenchOpensmCommand.Ratio big = q.get(0);
        assertThat(big.hosts()).isEqualTo(1024);
        assertThat(big.pairs()).isEqualTo(3);
        assertThat(big.median()).isCloseTo(1.10, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(big.min()).isCloseTo(0.90, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(big.max()).isCloseTo(1.50, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(big.twinSlower()).isEqualTo(2);
        assertThat(big.twinCpu()).isEqualTo(0.6);
        assertThat(big.ibsimCpu()).isEqualTo(0.5);
        assertThat(q.get(1).median()).isCloseTo(0.75, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(BenchOpensmCommand.ratioLine(big)).isEqualTo("1024 CAs, 3 pairs: twin/ibsim launch to SUBNET UP "
                + "median 1.100x (0.900-1.500), twin slower in 2; sim_cpu median twin 0.60 s, ibsim 0.50 s");
    }

    @Test
    void zeroPairsIsAUsageError() {
        java.io.StringWriter err = new java.io.StringWriter();
        picocli.CommandLine cl = org.ibtwin.cli.Main.commandLine();
        cl.setOut(new java.io.PrintWriter(new java.io.StringWriter(), true));
        cl.setErr(new java.io.PrintWriter(err, true));
        assertThat(cl.execute("bench", "opensm", "--pairs", "0")).isEqualTo(2);
        assertThat(err.toString()).contains("--pairs must be >= 1");
    }
}
