package org.ibtwin.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.ibtwin.cli.Main;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

/**
 * {@code ibtwin bench reroute --ibsim}: one cable pulled at real ibsim's console (UDP 26300..26390) under ibtwin's
 * SM and under real OpenSM on the same small tree; each row has the trap, the last LFT block and SUBNET UP again,
 * ours a fast re-route in part, OpenSM's a heavy sweep.
 */
@Tag("interop")
@Timeout(400)
class BenchRerouteInteropTest {
    @Test
    void bothSmsRerouteTheSamePulledCable() {
        RealTools.findOrSkip();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int rc = cl.execute("bench", "reroute", "--ibsim", "64", "-R", "minhop", "--pulls", "1", "--port", "26300",
                "--timeout", "150");
        String o = out.toString();
        assertThat(rc).as(o + "\n" + err).isZero();
        assertThat(o).contains("pull 1: S-0002c90380000000/40 <-> ")
                .containsPattern("(?m)^ibtwin +1 +[\\d.]+ +[\\d.]+ +\\d+ +[\\d.]+ +[\\d.]+  fast re-route minhop in "
                        + "part, \\d+ LIDs on 6 switches; the heavy sweep after it: \\d+ blocks$")
                .containsPattern("(?m)^opensm +1 +[\\d.]+ +[\\d.]+ +- +[\\d.]+ +[\\d.]+  heavy sweep: minhop tables "
                        + "configured on all switches$")
                .containsPattern("(?m)^  pull 1: ibtwin [\\d.]+ ms, OpenSM [\\d.]+ ms \\(x[\\d.]+\\)$");
    }
}
