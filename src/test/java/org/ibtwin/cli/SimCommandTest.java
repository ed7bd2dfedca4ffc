package org.ibtwin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.channels.DatagramChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import org.ibtwin.sim.IbsimServer;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** {@code ibtwin sim}: the console's commands from a file ({@code --script}), the endpoint's modes and its errors. */
class SimCommandTest extends CliTest {
    /** A port of the range the project's tests may bind (17600..17690), clear of the interop tests'. */
    private static final String PORT = "17680";

    @Test
    void aScriptRunsAgainstTheDefaultFabricAndQuitEndsTheSim() throws Exception {
        Path s = dir.resolve("faults.sim");
        Files.writeString(s, """
                # the default fabric's leaf02/33 <-> spine01/17 is the degraded one
                cable leaf01 33 DDR 4x
                flap "node017" 1 2
                PerformanceSet "node005"[1] PortCounters.SymbolErrorCounter=12
                counters node005 1
                Quit
                """);
        assertThat(runAppending("sim", "--port", PORT, "--script", s.toString())).as(err.toString()).isZero();
        assertThat(out.toString()).contains("Network simulator ready.", "replugged with a 4xDDR cable: 4xDDR",
                "(could be 4xHDR)", "LinkDowned 2", "PortCounters.SymbolErrorCounter has been set to 12",
                "# Port counters: Lid ").containsPattern("SymbolErrorCounter:\\.+12\n");
    }

    @Test
    void localModeServesUnixSocketsNamedAsIbsimNamesThem() throws Exception {
        Assumptions.assumeTrue(IbsimServer.socketImplementation().equals("libc"),
                "ibsim's local mode needs C-library sockets (a JDK 22+ on Linux)");
        Path s = dir.resolve("quit.sim");
        Files.writeString(s, "clients\nQuit\n");
        String name = "ibtwin-cli-" + ProcessHandle.current().pid();
        assertThat(runAppending("sim", "--local=" + name, "--warmup", "0", "--script", s.toString())).as(err.toString())
                .isZero();
        assertThat(out.toString()).contains("ibsim endpoint on local sockets @" + name + ":ctl, @" + name
                + ":out0..9 (IBSIM_SOCKNAME=" + name + ")", "Network simulator ready.", "no clients");

        // a name another server holds: one line, exit 2
        try (IbsimServer other = new IbsimServer(node -> null)) {
            other.startLocal(name);
            err.getBuffer().setLength(0);
            assertThat(runAppending("sim", "--local=" + name, "--warmup", "0", "--script", s.toString())).isEqualTo(2);
            assertThat(err.toString()).isEqualTo("ibtwin sim: --local: local socket @" + name + ":ctl is taken "
                    + "(another ibsim server uses the basename \"" + name + "\")\n");
        }
        err.getBuffer().setLength(0);
        assertThat(runAppending("sim", "--local=" + "x".repeat(120), "--warmup", "0")).isEqualTo(2);
        assertThat(err.toString()).startsWith("ibtwin sim: --local: bad socket name \"xxx");
    }

    @Test
    void aTakenPortIsOneLineAndExitTwo() throws Exception {
        try (DatagramChannel taken = DatagramChannel.open(StandardProtocolFamily.INET)) {
            taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 17683));
            assertThat(runAppending("sim", "--port", "17678", "--warmup", "0", "--no-console")).isEqualTo(2);
            assertThat(err.toString()).isEqualTo("ibtwin sim: --port: port 17683 of 127.0.0.1 is taken (an ibsim "
                    + "server needs 17678..17688)\n");
        }
    }

    @Test
    void aBadScriptLineIsFileLineMessageAndExitTwo() throws Exception {
        Path s = dir.resolve("bad.sim");
        Files.writeString(s, "flap node017 1\nreboot node017\nQuit\n");
        assertThat(runAppending("sim", "--port", PORT, "--no-console", "--script", s.toString())).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin sim: " + s + ":2: node \"node017\" is not a switch\n");
    }
}
