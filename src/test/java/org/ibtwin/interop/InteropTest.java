package org.ibtwin.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.ibtwin.cli.Cli;
import org.ibtwin.model.Fabric;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the interop tests that hold ibtwin against the real programs share: the real tools, found once (the class's
 * tests are skipped, or failed under CI, where they are missing), and a directory of each test's own. A test class
 * that needs more tools declares its own {@code findTools}, which then runs instead.
 */
@Tag("interop")
abstract class InteropTest {
    static RealTools tools;

    @TempDir
    Path dir;

    /**
     * One real {@code opensm -o -e -D 0x43 -R engine} on a real {@code ibsim -r} of {@code net} (ibsim's limits for
     * {@code fabric}) on a free range of {@code first..last}, which must end with 0: what it writes (its log
     * {@code osm.log}, {@code guid2lid}, the dumps) is left in {@code osmDir}.
     */
    static void opensmOnce(Fabric fabric, Path net, Path osmDir, int first, int last, String engine)
            throws IOException, InterruptedException {
        try (RemoteIbsim sim = RemoteIbsim.start(tools.ibsim, net, first, last, RealTools.limits(fabric),
                Duration.ofSeconds(20))) {
            UmadClient c = new UmadClient(tools.umad2sim, sim.port(), osmDir, null, Duration.ofSeconds(60));
            UmadClient.Result r = c.run(tools.opensm, "-o", "-e", "-f", osmDir.resolve("osm.log").toString(),
                    "-D", "0x43", "-R", engine);
            assertThat(r.exit()).as(r.out() + r.err()).isZero();
        }
    }

    /**
     * One {@code ibtwin sm -o --ibsim HOST:PORT options...} (in this JVM) on a fresh real {@code ibsim -r} of
     * {@code net} (ibsim's limits for {@code fabric}) on a free range of {@code first..last}, which must end with 0.
     */
    static void ourSmOnce(Fabric fabric, Path net, int first, int last, String... options)
            throws IOException, InterruptedException {
        try (RemoteIbsim sim = RemoteIbsim.start(tools.ibsim, net, first, last, RealTools.limits(fabric),
                Duration.ofSeconds(20))) {
            List<String> args = new ArrayList<>(List.of("sm", "-o", "--ibsim", RemoteIbsim.HOST + ":" + sim.port()));
            args.addAll(List.of(options));
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int rc = Cli.execute(out, err, args.toArray(String[]::new));
            assertThat(rc).as(out + "\n" + err).isZero();
        }
    }

    @BeforeAll
    static void findTools() {
        tools = RealTools.findOrSkip();
    }
}
