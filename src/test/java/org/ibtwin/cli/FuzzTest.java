package org.ibtwin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The project's fuzzing, a short run of each part through {@code ibtwin bench fuzz} (the million MADs are the
 * benchmark's): nothing throws, hangs or answers wrong, and a finding would print its seed and input.
 */
@Timeout(240)
class FuzzTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @Test
    void madsIntoTheTwinOverItsIbsimEndpointOnTwoFabrics() {
        int rc = Cli.execute(out, err, "bench", "fuzz", "--parts", "mads", "--mads", "3000", "--seed", "14");
        assertThat(rc).as(out + "\n" + err).isZero();
        assertThat(out.toString()).contains("mads: default fabric, seed 14: 1,500 datagrams",
                "mads: fat tree (2 levels, radix 16, 96 hosts), seed 15: 1,500 datagrams")
                .contains("crashes 0, hangs 0, wrong answers 0 of").doesNotContain("FINDINGS");
    }

    @Test
    void brokenFilesForEveryReaderEndInTheReadersOwnFileLineError() {
        int rc = Cli.execute(out, err, "bench", "fuzz", "--parts", "readers", "--files", "6", "--seed", "13");
        assertThat(rc).as(out + "\n" + err).isZero();
        assertThat(out.toString()).startsWith("readers: seed 13: 27 readers, ").contains("0 findings: clean");
    }

    /** Every command the receivers part knows, ibtwin's SM first, once each (no --commands: all of them). */
    @Test
    void theSmAndTheToolsAgainstAServerAnsweringGarbageEndWithTheirOwnLines() {
        int n = ReceiverFuzz.commands(java.util.List.of()).size();
        assertThat(ReceiverFuzz.commands(java.util.List.of()).get(0)).containsExactly("sm", "-o");
        int rc = Cli.execute(out, err, "bench", "fuzz", "--parts", "receivers", "--cases", String.valueOf(n),
                "--seed", "3");
        assertThat(rc).as(out + "\n" + err).isZero();
        assertThat(out.toString()).startsWith("receivers: seed 3: " + n + " runs of ibtwin's SM and tools against a "
                + "server answering garbage in ").contains(n + " ended with their own error lines, 0 findings: clean");
    }

    @Test
    void badOptionsAreOneLine() {
        assertThat(Cli.execute(out, err, "bench", "fuzz", "--parts", "nothing")).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin bench fuzz: --parts: unknown part \"nothing\" (mads, receivers, "
                + "readers)\n");
    }
}
