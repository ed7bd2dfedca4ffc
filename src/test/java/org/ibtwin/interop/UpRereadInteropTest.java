package org.ibtwin.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real {@code ibtwin up} process (UDP ports 18500..18560) with a partitions file, judged by real saquery and
 * smpquery: SIGHUP (sent by PID) rereads the file and sweeps instead of ending the process, as OpenSM does; so does
 * the console's {@code reread}; a file that locks the SM's port out is warned of in one line.
 */
@Tag("interop")
class UpRereadInteropTest {
    private static final Duration TOOL_TIMEOUT = Duration.ofSeconds(20);
    private static RealTools tools;

    @BeforeAll
    static void findTools() {
        tools = RealTools.findOrSkip();
    }

    /** {@code ibtwin up} in a JVM of its own, on this test's class path. */
    private static Process up(Path dir, int port, Path out, Path err, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"), "-cp",
                System.getProperty("java.class.path"), "org.ibtwin.cli.Main", "up"));
        cmd.addAll(List.of(args));
        cmd.addAll(List.of("-p", Integer.toString(port)));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectOutput(out.toFile())
                .redirectError(err.toFile());
        pb.environment().remove("LD_PRELOAD");
        return pb.start();
    }

    private static void await(String what, Process p, Path log, BooleanSupplier done) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!done.getAsBoolean()) {
            if (!p.isAlive() || System.nanoTime() > deadline) {
                fail(what + (p.isAlive() ? " (timed out)" : " (ibtwin up exited " + p.exitValue() + ")") + ":\n"
                        + RealTools.tail(RealTools.read(log)));
            }
            Thread.sleep(100);
        }
    }

    private static String saquery(UmadClient c, String... args) {
        try {
            return c.run(RealTools.executable("saquery").orElseThrow(), args).out();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Test
    void sighupAndTheConsoleRereadThePartitionsAndSweepAndTheProcessLivesOn(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("four.net"), RemoteIbsim.FOUR_CAS);
        Path conf = dir.resolve("partitions.conf");
        Files.writeString(conf, "Default=0x7fff, ipoib : ALL=limited, SELF=full ;\n");
        Path out = dir.resolve("up.out");
        Path err = dir.resolve("up.err");
        Process p = null;
        int port = 0;
        for (int base = 18500; base <= 18560 && p == null; base += 12) {
            Process tried = up(dir, base, out, err, "four.net", "--sm-node", "H-h1", "-P", conf.toString(), "-s", "0");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (tried.isAlive() && !RealTools.read(out).contains("Network simulator ready.")
                    && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            if (tried.isAlive() && RealTools.read(out).contains("Network simulator ready.")) {
                p = tried;
                port = base;
            } else {
                RealTools.stop(tried);
            }
        }
        assertThat(p).as("ibtwin up did not start on 18500..18560:\n" + RealTools.read(err)).isNotNull();
        Process up = p;
        try (OutputStream console = up.getOutputStream()) {
            long h2 = RemoteIbsim.portGuid(port, "H-h2");
            long h4 = RemoteIbsim.portGuid(port, "H-h4");
            int lid4 = RemoteIbsim.lid(port, "H-h4");
            UmadClient c = new UmadClient(tools.umad2sim, port, dir, "H-h2", TOOL_TIMEOUT);
            // h2 and h4: both limited Default members, so the SA hides h4 from h2
            assertThat(saquery(c, "NR", Integer.toString(lid4))).isEmpty();

            // put them in blue, then SIGHUP by PID: the file is reread, the SM sweeps, the process lives on
            Files.writeString(conf, String.format("Default=0x7fff, ipoib : ALL=limited, SELF=full ;%n"
                    + "blue=0x0010 : 0x%016x=full, 0x%016x=full ;%n", h2, h4));
            new ProcessBuilder("kill", "-HUP", Long.toString(up.pid())).inheritIO().start().waitFor();
            await("SIGHUP reread", up, out, () -> RealTools.read(out).contains("SIGHUP: partitions reread from "
                    + conf));
            await("h4 visible to h2 after the sweep", up, err, () -> saquery(c, "NR", Integer.toString(lid4))
                    .contains("H-h4"));
            UmadClient c4 = c.withSimHost("H-h4");
            String pk = c4.run(RealTools.executable("smpquery").orElseThrow(), "pkeys", Integer.toString(lid4), "1")
                    .out();
            assertThat(pk).startsWith("   0: 0x7fff 0x8010 0x0000");
            assertThat(up.isAlive()).isTrue();

            // the console's reread: h4 out of blue again; the summary of ports leaving a partition, one line
            Files.writeString(conf, "Default=0x7fff, ipoib : ALL=limited, SELF=full ;\n");
            console.write("reread\n".getBytes(StandardCharsets.UTF_8));
            console.flush();
            await("console reread", up, out, () -> RealTools.read(out).contains("partitions reread from " + conf
                    + " (1 partitions); heavy sweep requested"));
            await("h4 hidden again", up, err, () -> saquery(c, "NR", Integer.toString(lid4)).isEmpty());
            assertThat(RealTools.read(err)).contains("ibtwin up: warning: " + conf + ": 2 ports leave partitions "
                    + "they are in now (H-h2/1 leaves 0x0010, ...)");

            // a file that locks the SM out: warned, in one line naming the file and line
            Files.writeString(conf, "# oops\nDefault=0x7fff : ALL=limited ;\n");
            new ProcessBuilder("kill", "-HUP", Long.toString(up.pid())).inheritIO().start().waitFor();
            await("lockout warning", up, err, () -> RealTools.read(err).contains("ibtwin up: warning: " + conf
                    + ":2: Default partition member ALL=limited leaves the SM's own port a limited member of the "
                    + "Default partition (0x7fff): no port can reach the SA (add SELF=full)"));
            assertThat(up.isAlive()).isTrue();
        } finally {
            RealTools.stop(up);
        }
    }
}
