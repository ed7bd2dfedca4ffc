package org.ibtwin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ibtwin sim --script}: the console's commands from a file, before (or instead of) the console. */
class SimCommandTest {
    /** A port of the range the project's tests may bind (17600..17690), clear of the interop tests'. */
    private static final String PORT = "17680";
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @TempDir
    Path dir;

    private int run(String... args) {
        return Cli.execute(out, err, args);
    }

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
        assertThat(run("sim", "--port", PORT, "--script", s.toString())).as(err.toString()).isZero();
        assertThat(out.toString()).contains("Network simulator ready.", "replugged with a 4xDDR cable: 4xDDR",
                "(could be 4xHDR)", "LinkDowned 2", "PortCounters.SymbolErrorCounter has been set to 12",
                "# Port counters: Lid ").containsPattern("SymbolErrorCounter:\\.+12\n");
    }

    @Test
    void aBadScriptLineIsFileLineMessageAndExitTwo() throws Exception {
        Path s = dir.resolve("bad.sim");
        Files.writeString(s, "flap node017 1\nreboot node017\nQuit\n");
        assertThat(run("sim", "--port", PORT, "--no-console", "--script", s.toString())).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin sim: " + s + ":2: node \"node017\" is not a switch\n");
    }
}
