package org.ibtwin.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.ibtwin.cli.Main;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The umad transport for real: ibtwin in a JVM of its own under {@code LD_PRELOAD=libumad2sim.so}, whose
 * {@code /dev/infiniband/umad0} and sysfs tree exist only in that library's view, talks to a real {@code ibsim -r}
 * through exactly the calls that talk to a kernel. {@code ibtwin sm -o --umad} brings the subnet up; ibnetdiscover,
 * iblinkinfo, perfquery, saquery and doctor over {@code --umad} print what they print over the ibsim client (run in
 * this JVM; saquery for answers of one RMPP segment: libumad2sim queues each MAD in a 288-byte buffer and copies
 * 232 bytes of it, so a reader gets the last 24 bytes of a MAD from past that buffer, which spoils multi-segment
 * tables and nothing else; see the README); bench umad shows the C library's calls bound in libumad2sim, and the
 * JDK's own lookup, which the preload does not reach, finds no HCA at all.
 */
@Tag("interop")
class UmadInteropTest {
    private static final int FIRST_PORT = 25000;
    private static final int LAST_PORT = 25080;
    private static final Duration CHILD_TIMEOUT = Duration.ofSeconds(90);

    record Run(int exit, String out, String err) {
    }

    @Test
    void overUmadUnderLibumad2simTheToolsPrintWhatTheyPrintOverTheIbsimClient(@TempDir Path dir) throws Exception {
        RealTools tools = RealTools.findOrSkip();
        Assumptions.assumeTrue(Runtime.version().feature() >= 22, "the umad transport needs a JDK 22+");
        Path example = Path.of("/usr/share/doc/ibsim-utils/net-examples/net.2sw2path4hca");
        Assumptions.assumeTrue(Files.isRegularFile(example), "ibsim's example net file not installed");
        Path net = dir.resolve("net");
        Files.copy(example, net);
        assertThat(Files.exists(Path.of("/dev/infiniband/umad0"))).as("this host has no umad device of its own")
                .isFalse();
        try (RemoteIbsim sim = RemoteIbsim.start(tools.ibsim, net, FIRST_PORT, LAST_PORT, List.of(),
                Duration.ofSeconds(30))) {
            Run up = child(tools, sim.port(), dir, "sm", "-o", "--umad", "-q");
            assertThat(up.exit()).as(up.err()).isZero();
            assertThat(up.out()).contains("SUBNET UP");

            // an SM that stays, as the SA saquery asks
            Path smOut = dir.resolve("sm.out");
            Process sm = start(tools, sim.port(), dir, smOut, "sm", "--umad", "-s", "0");
            try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (!Files.readString(smOut).contains("SUBNET UP") && sm.isAlive()
                        && System.nanoTime() < deadline) {
                    Thread.sleep(50);
                }
                assertThat(Files.readString(smOut)).contains("SUBNET UP");

                String ibsim = "127.0.0.1:" + sim.port();
                for (List<String> cmd : List.of(List.of("ibnetdiscover"), List.of("iblinkinfo"),
                        List.of("perfquery", "-x", "5", "1"), List.of("saquery", "3"), List.of("saquery", "SMIR"),
                        List.of("doctor"))) {
                    List<String> overUmad = new ArrayList<>(cmd);
                    overUmad.add("--umad");
                    Run u = child(tools, sim.port(), dir, overUmad.toArray(String[]::new));
                    List<String> overIbsim = new ArrayList<>(cmd);
                    overIbsim.addAll(List.of("--ibsim", ibsim));
                    Run c = inProcess(overIbsim.toArray(String[]::new));
                    assertThat(u.exit()).as(cmd + " over umad: " + u.err()).isEqualTo(c.exit());
                    assertThat(comparable(u.out())).as(cmd + " over umad").isEqualTo(comparable(c.out()));
                    assertThat(u.out()).as(String.valueOf(cmd)).isNotBlank();
                }
            } finally {
                RealTools.stop(sm);
            }

            Run bench = child(tools, sim.port(), dir, "bench", "umad", "--seconds", "1");
            assertThat(bench.exit()).as(bench.err()).isZero();
            for (String call : List.of("open", "read", "write", "poll", "ioctl", "opendir")) {
                assertThat(bench.out()).containsPattern("(?m)^  " + call + " +bound in " + tools.umad2sim + "$");
            }
            assertThat(bench.out()).contains("umad ibsim0 port 0 (/dev/infiniband/umad0):")
                    .containsPattern("in flight 4: [0-9,]+ round trips .* failures 0");

            // the JDK's default lookup binds the C library itself, past the preload: no HCA there
            Run jdk = child(tools, sim.port(), dir, List.of("-Dibtwin.umad.lookup=jdk"), "ibnetdiscover", "--umad");
            assertThat(jdk.exit()).isEqualTo(2);
            assertThat(jdk.err()).contains("no InfiniBand port with a umad device here");
        }
    }

    /**
     * The outputs as compared: ibnetdiscover's generation time left out, and the data and packet counters, which
     * the MADs of the runs between the two readings move on, and the source doctor names.
     */
    private static String comparable(String s) {
        return s.replaceAll("(?m)^# Topology file: generated on .*$", "# Topology file: generated on -")
                .replaceAll("(?m)^(Port\\w*(Data|Pkts):\\.+)\\d+$", "$1N")
                .replaceFirst("^ibtwin doctor: (ibsim at \\S+|umad) \\(", "ibtwin doctor: - (");
    }

    static Run inProcess(String... args) {
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new java.io.PrintWriter(out, true));
        cl.setErr(new java.io.PrintWriter(err, true));
        int rc = cl.execute(args);
        return new Run(rc, out.toString(), err.toString());
    }

    private static Run child(RealTools tools, int port, Path dir, String... args)
            throws IOException, InterruptedException {
        return child(tools, port, dir, List.of(), args);
    }

    /** ibtwin in a JVM of its own under libumad2sim, attached through it at the ibsim on {@code port}. */
    private static Run child(RealTools tools, int port, Path dir, List<String> jvm, String... args)
            throws IOException, InterruptedException {
        Path out = Files.createTempFile(dir, "child", ".out");
        Path err = Files.createTempFile(dir, "child", ".err");
        Process p = start(tools, port, dir, out, err, jvm, args);
        boolean done = p.waitFor(CHILD_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        if (!done) {
            RealTools.stop(p);
        }
        return new Run(done ? p.exitValue() : -1, Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    private static Process start(RealTools tools, int port, Path dir, Path out, String... args) throws IOException {
        return start(tools, port, dir, out, out, List.of(), args);
    }

    private static Process start(RealTools tools, int port, Path dir, Path out, Path err, List<String> jvm,
                                 String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-Xshare:auto", "-XX:TieredStopAtLevel=1"));
        cmd.addAll(jvm);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        if (out.equals(err)) {
            pb.redirectErrorStream(true).redirectOutput(out.toFile());
        } else {
            pb.redirectOutput(out.toFile()).redirectError(err.toFile());
        }
        Map<String, String> env = pb.environment();
        for (String k : new String[] {"IBSIM_SOCKNAME", "SIM_HOST", "SIM_SET_ISSM"}) {
            env.remove(k);
        }
        env.put("LD_PRELOAD", tools.umad2sim.toString());
        env.put("IBSIM_SERVER_NAME", RemoteIbsim.HOST);
        env.put("IBSIM_SERVER_PORT", Integer.toString(port));
        return pb.start();
    }
}
