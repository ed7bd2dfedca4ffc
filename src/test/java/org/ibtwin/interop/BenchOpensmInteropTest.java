package org.ibtwin.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.ibtwin.cli.Main;
import org.ibtwin.sim.IbsimServer;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

/** {@code ibtwin bench opensm}: real OpenSM brings the same small tree up on the twin and on real ibsim, both modes. */
@Tag("interop")
@Timeout(120)
class BenchOpensmInteropTest {
    static final int FIRST_PORT = 18600;

    @Test
    void overUdp() {
        RealTools.findOrSkip();
        String out = bench("--pairs", "2");
        assertThat(out).contains("UDP (ibsim -r)");
        bothUp(out);
        // two pairs, one twin first and one ibsim first, then their median ratio
        String summary = out.substring(out.indexOf("summary:"));
        assertThat(summary.lines().filter(l -> l.matches("^(twin|ibsim) +16 .*")).map(l -> l.split(" ")[0]))
                .as(out).containsExactly("twin", "ibsim", "ibsim", "twin");
        assertThat(summary).as(out).containsPattern("(?m)^16 CAs, 2 pairs: twin/ibsim launch to SUBNET UP median "
                + "[\\d.]+x \\([\\d.]+-[\\d.]+\\), twin slower in [012]; sim_cpu median twin [\\d.]+ s, ibsim [\\d.]+ s$");
    }

    @Test
    void inIbsimsLocalMode() {
        RealTools.findOrSkip();
        Assumptions.assumeTrue(IbsimServer.socketImplementation().equals("libc"),
                "ibsim's local mode needs C-library sockets (a JDK 22+ on Linux)");
        String out = bench("--local");
        assertThat(out).contains("ibsim's local mode (unix sockets)");
        bothUp(out);
    }

    private static String bench(String... more) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        List<String> args = new ArrayList<>(List.of("bench", "opensm", "--hosts", "16", "--warmup", "0.2",
                "--timeout", "60", "--port", Integer.toString(FIRST_PORT)));
        args.addAll(List.of(more));
        int rc = cl.execute(args.toArray(String[]::new));
        assertThat(rc).as(out + "\n" + err).isZero();
        return out.toString();
    }

    /**
     * Each side's row in the summary: OpenSM exited 0 at SUBNET UP, every CA has a LID, no ERR line in its log; the
     * twin's row ends with its collections and the bytes allocated per MAD, ibsim's with dashes there.
     */
    private static void bothUp(String out) {
        String summary = out.substring(out.indexOf("summary:"));
        assertThat(summary).as(out)
                .containsPattern("(?m)^twin +16 +\\d+ +[\\d.]+ +[\\d.]+ +0 +[\\d.]+ +[\\d.]+ +[\\d.]+ +16/16 +0 "
                        + ".* \\d+/\\d+ +\\d+ *$")
                .containsPattern("(?m)^ibsim +16 +\\d+ +[\\d.]+ +[\\d.]+ +0 +[\\d.]+ +[\\d.]+ +[\\d.]+ +16 +0 "
                        + ".* - +- *$");
    }
}
