package org.ibtwin.sm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ibtwin.bench.Processes;
import org.ibtwin.cli.Cli;
import org.ibtwin.cli.Main;
import org.ibtwin.format.FabricFiles;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.interop.RealTools;
import org.ibtwin.interop.RemoteIbsim;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.LinkSpeed;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * ibtwin's SM against REAL ibsim: {@code ibtwin sm -o} brings up an {@code ibsim -r} (remote mode, ports in
 * 17800..17890, a socket name of its own), then the real {@code ibnetdiscover} must show every port with a LID and
 * the real {@code ibtracert} must get from every CA to every other (all pairs on the small fabric, a sample on the
 * larger), both through libumad2sim. Without the tools the test is skipped with an {@code INTEROP SKIPPED:} notice;
 * under CI=true their absence fails it.
 */
@Tag("interop")
class SmIbsimInteropTest {
    private static final Pattern CA_PORT = Pattern.compile(
            "^\\[(\\d+)]\\(([0-9a-f]+)\\)\\s+\"[^\"]+\"\\[\\d+]\\s+#\\s+lid (\\d+) lmc \\d+ \"[^\"]*\" lid (\\d+)",
            Pattern.MULTILINE);
    private static final Pattern SWITCH = Pattern.compile("^Switch\\s+\\d+ \"[^\"]+\"\\s+# \"([^\"]*)\".* lid (\\d+) "
            + "lmc", Pattern.MULTILINE);
    private static final Pattern SWITCH_PORT = Pattern.compile("^\\[\\d+]\\s+\"[^\"]+\"\\[\\d+](\\([0-9a-f]+\\))?"
            + "\\s+# \"[^\"]*\" lid (\\d+) ", Pattern.MULTILINE);

    @TempDir
    Path dir;

    record Tools(Path ibsim, Path ibnetdiscover, Path ibtracert, Path umad2sim) {
    }

    private static Tools tools() {
        Optional<Path> sim = Processes.executable("ibsim");
        Optional<Path> disc = Processes.executable("ibnetdiscover");
        Optional<Path> trace = Processes.executable("ibtracert");
        Path so = Path.of("/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so");
        List<String> missing = new ArrayList<>();
        sim.ifPresentOrElse(p -> { }, () -> missing.add("ibsim"));
        disc.ifPresentOrElse(p -> { }, () -> missing.add("ibnetdiscover"));
        trace.ifPresentOrElse(p -> { }, () -> missing.add("ibtracert"));
        if (!Files.isRegularFile(so)) {
            missing.add("libumad2sim.so");
        }
        if (!missing.isEmpty()) {
            String notice = "INTEROP SKIPPED: " + String.join(", ", missing) + " not found (install ibsim-utils "
                    + "infiniband-diags); ibtwin sm interop with real ibsim not run";
            RealTools.skip(notice);
        }
        return new Tools(sim.orElseThrow(), disc.orElseThrow(), trace.orElseThrow(), so);
    }

    @ParameterizedTest(name = "{0}-level, radix {1}, {2} hosts, -R {3}")
    @CsvSource({"2, 8, 16, minhop, 0", "3, 8, 48, 'ftree,updn', 60", "2, 12, 36, updn, 80"})
    void ourSmBringsUpRealIbsimAndTheRealToolsAgree(int levels, int radix, int hosts, String engines, int sample)
            throws Exception {
        Tools t = tools();
        Fabric fabric = FatTree.build(FatTreeSpec.of(levels, radix, hosts).withSpeed(LinkSpeed.EDR));
        Path net = FabricFiles.write(fabric, dir.resolve("lab"))[0];
        try (RealIbsim sim = RealIbsim.start(t, net)) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int rc = Cli.execute(out, err, "sm", "-o", "--ibsim", "127.0.0.1:" + sim.port(), "-R", engines,
                    "--check-routes");
            assertThat(rc).as(out + "\n" + err + "\n" + sim.log()).isZero();
            assertThat(out.toString()).contains("SUBNET UP");
            assertThat(err.toString()).isEmpty();

            // ibnetdiscover: every switch and every CA port has a LID
            Result disc = sim.run(t.ibnetdiscover.toString());
            assertThat(disc.rc).as(disc.err).isZero();
            Map<String, Integer> caLids = new LinkedHashMap<>();
            Matcher m = CA_PORT.matcher(disc.out);
            while (m.find()) {
                caLids.put(m.group(2), Integer.parseInt(m.group(3)));
            }
            assertThat(caLids).hasSize(hosts);
            assertThat(caLids.values()).doesNotContain(0).doesNotHaveDuplicates();
            Matcher sw = SWITCH.matcher(disc.out);
            int switches = 0;
            while (sw.find()) {
                switches++;
                assertThat(Integer.parseInt(sw.group(2))).as(sw.group(1)).isPositive();
            }
            assertThat(switches).isEqualTo(fabric.switches().size());
            Matcher sp = SWITCH_PORT.matcher(disc.out);
            while (sp.find()) {
                assertThat(Integer.parseInt(sp.group(2))).as(sp.group()).isPositive();
            }

            // ibtracert from every CA to every other (or a sample)
            List<Integer> lids = new ArrayList<>(caLids.values());
            List<int[]> pairs = new ArrayList<>();
            for (int a : lids) {
                for (int b : lids) {
                    if (a != b) {
                        pairs.add(new int[] {a, b});
                    }
                }
            }
            if (sample > 0 && sample < pairs.size()) {
                java.util.Collections.shuffle(pairs, new Random(42));
                pairs = pairs.subList(0, sample);
            }
            // three at a time: each is one of ibsim's ten client slots
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(3);
            try {
                List<java.util.concurrent.Future<String>> checks = new ArrayList<>();
                for (int[] p : pairs) {
                    checks.add(pool.submit(() -> {
                        Result tr = sim.run(t.ibtracert.toString(), Integer.toString(p[0]), Integer.toString(p[1]));
                        boolean ok = tr.rc == 0 && tr.out.contains("To ca ")
                                && tr.out.contains(" lid " + p[1] + "-" + p[1] + " ");
                        return ok ? null : "ibtracert " + p[0] + " " + p[1] + ": rc " + tr.rc + "\n" + tr.out + tr.err;
                    }));
                }
                for (var c : checks) {
                    assertThat(c.get()).isNull();
                }
            } finally {
                pool.shutdownNow();
            }
        }
    }

    /**
     * The same in ibsim's local mode (unix sockets, no {@code -r}): {@code ibtwin sm -o --ibsim @NAME} brings the
     * fabric up; real ibnetdiscover through libumad2sim in local mode, and ibtwin's own ibnetdiscover through
     * {@code IBSIM_SOCKNAME}, both see every CA with the LID the SM gave it.
     */
    @org.junit.jupiter.api.Test
    void ourSmBringsUpRealIbsimInLocalMode() throws Exception {
        Tools t = tools();
        Assumptions.assumeTrue(org.ibtwin.transport.SlotSocket.implementation().equals("libc"),
                "ibsim's local mode needs C-library sockets (JDK 22+ on Linux)");
        Fabric fabric = FatTree.build(FatTreeSpec.of(2, 8, 16).withSpeed(LinkSpeed.EDR));
        Path net = FabricFiles.write(fabric, dir.resolve("lab"))[0];
        String name = "ibtwin-sm-local-" + ProcessHandle.current().pid();
        try (org.ibtwin.interop.RemoteIbsim sim = org.ibtwin.interop.RemoteIbsim.startLocal(t.ibsim, net, name,
                List.of(), java.time.Duration.ofSeconds(10))) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int rc = Cli.execute(out, err, "sm", "-o", "--ibsim", "@" + name, "--check-routes");
            assertThat(rc).as(out + "\n" + err + "\n" + sim.output()).isZero();
            assertThat(out.toString()).contains("attached at @" + name + " node ").contains("SUBNET UP");

            ProcessBuilder pb = new ProcessBuilder(t.ibnetdiscover.toString()).redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            Map<String, String> env = pb.environment();
            env.remove("IBSIM_SERVER_NAME");
            env.remove("IBSIM_SERVER_PORT");
            env.remove("SIM_HOST");
            env.put("LD_PRELOAD", t.umad2sim.toString());
            env.put("IBSIM_SOCKNAME", name);
            Process p = pb.start();
            String real = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as(real).isZero();
            Map<String, Integer> caLids = new LinkedHashMap<>();
            Matcher m = CA_PORT.matcher(real);
            while (m.find()) {
                caLids.put(m.group(2), Integer.parseInt(m.group(3)));
            }
            assertThat(caLids).hasSize(16);
            assertThat(caLids.values()).doesNotContain(0).doesNotHaveDuplicates();

            StringWriter ours = new StringWriter();
            StringWriter oursErr = new StringWriter();
            CommandLine disc = Main.commandLine();
            disc.setOut(new PrintWriter(ours, true));
            disc.setErr(new PrintWriter(oursErr, true));
            assertThat(disc.execute("ibnetdiscover", "--ibsim", "@" + name)).as(oursErr.toString()).isZero();
            Matcher o = CA_PORT.matcher(ours.toString());
            Map<String, Integer> ourLids = new LinkedHashMap<>();
            while (o.find()) {
                ourLids.put(o.group(2), Integer.parseInt(o.group(3)));
            }
            assertThat(ourLids).isEqualTo(caLids);
        }
    }

    record Result(int rc, String out, String err) {
    }

    /** A real {@code ibsim -r} ({@link RemoteIbsim}) on a free base port in 17800..17879, real tools its clients. */
    record RealIbsim(RemoteIbsim ibsim, Path dir, Tools tools) implements AutoCloseable {
        static RealIbsim start(Tools t, Path net) throws IOException, InterruptedException {
            return new RealIbsim(RemoteIbsim.start(t.ibsim, net, 17800, 17879, List.of(), Duration.ofSeconds(10)),
                    net.toAbsolutePath().getParent(), t);
        }

        int port() {
            return ibsim.port();
        }

        String log() {
            return ibsim.output();
        }

        /** A real tool as an ibsim client through libumad2sim (remote mode). */
        Result run(String... cmd) throws IOException, InterruptedException {
            Path o = Files.createTempFile(dir, "out", ".txt");
            Path e = Files.createTempFile(dir, "err", ".txt");
            ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectOutput(o.toFile())
                    .redirectError(e.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            Map<String, String> env = pb.environment();
            env.remove("IBSIM_SOCKNAME");
            env.remove("SIM_HOST");
            env.put("LD_PRELOAD", tools.umad2sim.toString());
            env.put("IBSIM_SERVER_NAME", "127.0.0.1");
            env.put("IBSIM_SERVER_PORT", Integer.toString(port()));
            Process p = pb.start();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                p.waitFor(5, TimeUnit.SECONDS);
                return new Result(-1, Files.readString(o), "timed out");
            }
            return new Result(p.exitValue(), Files.readString(o), Files.readString(e));
        }

        @Override
        public void close() {
            ibsim.close();
        }
    }
}
