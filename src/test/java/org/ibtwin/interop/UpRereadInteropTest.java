package org.ibtwin.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.ibtwin.interop.IbtwinUp.await;
import static org.ibtwin.interop.IbtwinUp.say;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
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
        Path conf = dir.resolve("partitions.conf");
        Files.writeString(conf, "Default=0x7fff, ipoib : ALL=limited, SELF=full ;\n");
        IbtwinUp ibtwin = IbtwinUp.start(dir, 18500, 18560, "four.net", RemoteIbsim.FOUR_CAS, "--sm-node", "H-h1", "-P", conf.toString(),
                "-s", "0");
        Path out = ibtwin.out();
        Path err = ibtwin.err();
        int port = ibtwin.port();
        Process up = ibtwin.process();
        try (OutputStream console = up.getOutputStream()) {
            long h2 = RemoteIbsim.portGuid(port, "H-h2");
            long h4 = RemoteIbsim.portGuid(port, "H-h4");
            int lid4 = RemoteIbsim.lid(port, "H-h4");
            UmadClient c = ibtwin.client("H-h2");
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
            say(console, "reread");
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
            ibtwin.close();
        }
    }
}
