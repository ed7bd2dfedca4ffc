package org.ibtwin.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.ibtwin.cli.Cli;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ibtwin's SM on real ibsim's example net of CAs with two ports: each CA port is set through the switch port facing
 * it (a CA answers PortInfo for the port an SMP came in by), so every port comes up in one sweep, as under OpenSM.
 */
@Tag("interop")
class TwoPortCaSmInteropTest {
    @TempDir
    Path dir;

    @Test
    void everyPortOfTheTwoPortCasComesUp() throws Exception {
        RealTools tools = RealTools.findOrSkip();
        Path example = Path.of(TwinParityInteropTest.EXAMPLES, "net.2sw2path4hca2port");
        Assumptions.assumeTrue(Files.isRegularFile(example), "no ibsim example nets installed");
        Path net = dir.resolve("net.2sw2path4hca2port");
        Files.copy(example, net);
        try (RemoteIbsim sim = RemoteIbsim.start(tools.ibsim, net, 25980, 25999, List.of(), Duration.ofSeconds(10))) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int exit = Cli.execute(out, err, "sm", "-o", "--ibsim", RemoteIbsim.HOST + ":" + sim.port());
            assertThat(exit).as(err.toString()).isZero();
            assertThat(out.toString() + err).contains("SUBNET UP").doesNotContain("SUBNET NOT UP")
                    .contains("12 armed, 12 activated");
        }
    }
}
