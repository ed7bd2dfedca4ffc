package org.ibtwin.interop;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.ibtwin.bench.OpensmHarness;
import org.ibtwin.bench.Processes;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Node;
import org.junit.jupiter.api.Assumptions;

/**
 * The real InfiniBand programs the interop tests run: ibsim (the simulator), and OpenSM and ibnetdiscover as its
 * clients through libumad2sim. Finds them, starts ibsim on a net file in local (abstract unix socket) mode under a
 * socket name of its own, and runs clients against it. Every process started here is stopped before the call that
 * started it returns, or by {@link Sim#close()}.
 */
public final class RealTools {
    static final String PACKAGES = "opensm infiniband-diags ibsim-utils";
    static final String READY = "Network simulator ready.";
    /** OpenSM error lines: "... 0x01 -> osm_foo: ERR 0D16: Got Zero Node GUID!". */
    static final Pattern OSM_ERROR = Pattern.compile(" ERR [0-9A-Fa-f]{4}\\b");

    private static final AtomicInteger RUNS = new AtomicInteger();

    final Path ibsim;
    final Path opensm;
    final Path ibnetdiscover;
    final Path umad2sim;

    private RealTools(Path ibsim, Path opensm, Path ibnetdiscover, Path umad2sim) {
        this.ibsim = ibsim;
        this.opensm = opensm;
        this.ibnetdiscover = ibnetdiscover;
        this.umad2sim = umad2sim;
    }

    private static String missingTools;
    private static RealTools found;
    private static boolean noticeShown;

    /**
     * Skips the calling test for what {@code notice} names as missing ("INTEROP SKIPPED: ... not found (install
     * ...)"), printed once on stderr; under {@code CI=true}, where scripts/setup installed everything, fails it.
     */
    public static void skip(String notice) {
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            fail("CI=true but " + notice);
        }
        System.err.println(notice);
        Assumptions.abort(notice);
    }

    /** {@code name} of infiniband-diags, or the calling test skipped ({@link #skip}) when it is not installed. */
    static Path diagOrSkip(String name) {
        Optional<Path> p = executable(name);
        if (p.isEmpty()) {
            skip("INTEROP SKIPPED: " + name + " not found (install infiniband-diags)");
        }
        return p.orElseThrow();
    }

    /**
     * Skips the calling test, as {@link #skip} does, unless every named executable is found: "INTEROP SKIPPED: a, b
     * or c not found (install {@code install})".
     */
    static void requireOrSkip(String install, String... names) {
        if (!Arrays.stream(names).allMatch(n -> executable(n).isPresent())) {
            String listed = names.length == 1 ? names[0] : String.join(", ", Arrays.copyOf(names, names.length - 1))
                    + " or " + names[names.length - 1];
            skip("INTEROP SKIPPED: " + listed + " not found (install " + install + ")");
        }
    }

    /**
     * Finds the tools (looked up once per JVM). When one is missing the calling test is skipped, with a notice on
     * stderr the first time, except under CI (CI=true), where scripts/setup installs them and their absence fails
     * the test.
     */
    static synchronized RealTools findOrSkip() {
        if (found == null && missingTools == null) {
            lookUp();
        }
        if (missingTools != null) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                fail("CI=true but " + missingTools + " not found: scripts/setup installs " + PACKAGES);
            }
            String notice = "INTEROP SKIPPED: " + missingTools + " not found (install " + PACKAGES + ")";
            if (!noticeShown) {
                System.err.println(notice);
                noticeShown = true;
            }
            Assumptions.assumeTrue(false, notice);
        }
        return found;
    }

    private static void lookUp() {
        Optional<Path> sim = executable("ibsim");
        Optional<Path> sm = executable("opensm");
        Optional<Path> disc = executable("ibnetdiscover");
        Optional<Path> so = umad2sim();
        List<String> missing = new ArrayList<>();
        if (sim.isEmpty()) {
            missing.add("ibsim");
        }
        if (sm.isEmpty()) {
            missing.add("opensm");
        }
        if (disc.isEmpty()) {
            missing.add("ibnetdiscover");
        }
        if (so.isEmpty()) {
            missing.add("libumad2sim.so");
        }
        if (missing.isEmpty()) {
            found = new RealTools(sim.orElseThrow(), sm.orElseThrow(), disc.orElseThrow(), so.orElseThrow());
        } else {
            missingTools = String.join(", ", missing);
        }
    }

    /** An executable on PATH, or in the sbin directories a non-root PATH may leave out. */
    static Optional<Path> executable(String name) {
        return Processes.executable(name);
    }

    /** /usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so, or wherever a /usr/lib* tree holds it. */
    static Optional<Path> umad2sim() {
        Path usual = Path.of("/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so");
        if (Files.isRegularFile(usual)) {
            return Optional.of(usual);
        }
        for (String root : new String[] {"/usr/lib", "/usr/lib64", "/usr/lib32", "/usr/local/lib"}) {
            Path r = Path.of(root);
            if (!Files.isDirectory(r)) {
                continue;
            }
            try (Stream<Path> s = Files.find(r, 4, (p, a) -> a.isRegularFile()
                    && p.getFileName().toString().equals("libumad2sim.so")
                    && p.getParent().getFileName().toString().equals("umad2sim"))) {
                Optional<Path> hit = s.findFirst();
                if (hit.isPresent()) {
                    return hit;
                }
            } catch (IOException | UncheckedIOException e) {
                // an unreadable directory: keep looking elsewhere
            }
        }
        return Optional.empty();
    }

    /** ibsim's -N, -S, -P (and -L when needed) for a fabric, with headroom: as the benches start ibsim. */
    static List<String> limits(Fabric f) {
        return OpensmHarness.limits(f);
    }

    /** Starts {@code ibsim -s -n} on {@code netFile} and waits until it says it is ready. */
    Sim start(Path netFile, Fabric fabric, Path dir, Duration readyTimeout) throws IOException, InterruptedException {
        String sock = "ibt" + ProcessHandle.current().pid() + "n" + RUNS.incrementAndGet();
        Path out = dir.resolve("ibsim.out");
        List<String> cmd = new ArrayList<>(List.of(ibsim.toString(), "-s", "-n"));
        cmd.addAll(limits(fabric));
        cmd.add(netFile.toAbsolutePath().toString());
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile())
                .redirectOutput(out.toFile()).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        scrub(pb.environment());
        pb.environment().remove("LD_PRELOAD");
        pb.environment().put("IBSIM_SOCKNAME", sock);
        long t0 = System.nanoTime();
        Process p = pb.start();
        Sim sim = new Sim(this, p, sock, dir, out, String.join(" ", cmd));
        try {
            long deadline = t0 + readyTimeout.toNanos();
            while (!sim.output().contains(READY)) {
                if (!p.isAlive()) {
                    fail("ibsim exited with " + p.exitValue() + " before \"" + READY + "\"\n$ " + sim.command
                            + "\n" + sim.output());
                }
                if (System.nanoTime() > deadline) {
                    fail("ibsim not ready after " + readyTimeout.toSeconds() + " s\n$ " + sim.command + "\n"
                            + sim.output());
                }
                Thread.sleep(10);
            }
            sim.readyNanos = System.nanoTime() - t0;
            return sim;
        } catch (Throwable e) {
            sim.close();
            throw e;
        }
    }

    /** Clients must reach this simulator, in local mode, whatever the caller's environment says. */
    private static void scrub(Map<String, String> env) {
        for (String k : new String[] {"IBSIM_SERVER_NAME", "IBSIM_SERVER_PORT", "SIM_HOST", "SIM_SET_ISSM",
            "IBSIM_SOCKNAME"}) {
            env.remove(k);
        }
    }

    /** What a client run left behind. */
    record Run(String command, int exitCode, Path stdout, Path stderr, long nanos) {
        String out() {
            return read(stdout);
        }

        String err() {
            return read(stderr);
        }

        long millis() {
            return TimeUnit.NANOSECONDS.toMillis(nanos);
        }
    }

    /** A running ibsim; closing it stops it. */
    static final class Sim implements AutoCloseable {
        private final RealTools tools;
        private final Process process;
        final String socketName;
        final Path dir;
        private final Path out;
        final String command;
        long readyNanos;

        Sim(RealTools tools, Process process, String socketName, Path dir, Path out, String command) {
            this.tools = tools;
            this.process = process;
            this.socketName = socketName;
            this.dir = dir;
            this.out = out;
            this.command = command;
        }

        String output() {
            return read(out);
        }

        long readyMillis() {
            return TimeUnit.NANOSECONDS.toMillis(readyNanos);
        }

        /**
         * Runs a client of this simulator (LD_PRELOAD=libumad2sim) to completion; {@code name} names its output
         * files. A client still running at the timeout is killed and the test fails.
         */
        Run client(String name, Duration timeout, String... args) throws IOException, InterruptedException {
            List<String> cmd = List.of(args);
            Path stdout = dir.resolve(name + ".out");
            Path stderr = dir.resolve(name + ".err");
            ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile())
                    .redirectOutput(stdout.toFile()).redirectError(stderr.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            Map<String, String> env = pb.environment();
            scrub(env);
            env.put("LD_PRELOAD", tools.umad2sim.toString());
            env.put("IBSIM_SOCKNAME", socketName);
            env.put("OSM_CACHE_DIR", dir.toString());
            env.put("OSM_TMP_DIR", dir.toString());
            long t0 = System.nanoTime();
            Process p = pb.start();
            boolean done = waitOrStop(p, timeout);
            long nanos = System.nanoTime() - t0;
            String shown = String.join(" ", cmd);
            if (!done) {
                fail(shown + " still running after " + timeout.toSeconds() + " s; killed\nstderr:\n"
                        + tail(read(stderr)) + "\nibsim:\n" + tail(output()));
            }
            return new Run(shown, p.exitValue(), stdout, stderr, nanos);
        }

        /** Asks ibsim to stop, then kills it if it lingers. */
        @Override
        public void close() {
            stop(process);
        }
    }

    /**
     * A real OpenSM ({@code -s 0}, {@code partitions} as its partitions.conf) left running in {@code dir} as a client
     * of the ibsim at {@code port}, attached at H-h1, returned once its SA answers real {@code saquery SMIR} from
     * H-h2 (20 s at most, else the test fails); the caller stops it.
     */
    static Process opensmWithSa(RealTools tools, int port, Path dir, String partitions, Duration timeout)
            throws IOException, InterruptedException {
        Files.writeString(dir.resolve("partitions.conf"), partitions);
        UmadClient smClient = new UmadClient(tools.umad2sim, port, dir, "H-h1", timeout);
        Path log = dir.resolve("opensm.log");
        Process osm = smClient.start(tools.opensm, dir.resolve("opensm.out"), "-s", "0", "-f", log.toString(),
                "-P", dir.resolve("partitions.conf").toString());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        UmadClient c = smClient.withSimHost("H-h2");
        Path saquery = executable("saquery").orElseThrow();
        while (c.run(saquery, "SMIR").exit() != 0) {
            if (!osm.isAlive() || System.nanoTime() > deadline) {
                stop(osm);
                fail("OpenSM's SA did not answer:\n" + tail(read(log)));
            }
            Thread.sleep(100);
        }
        return osm;
    }

    /** Waits for {@code p} to end, {@code timeout} at most; whether it did (if not, it is stopped). */
    static boolean waitOrStop(Process p, Duration timeout) throws InterruptedException {
        boolean done = false;
        try {
            done = p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } finally {
            if (!done) {
                stop(p);
            }
        }
        return done;
    }

    /** destroy, wait a few seconds, then destroyForcibly and wait. */
    static void stop(Process p) {
        if (!p.isAlive()) {
            return;
        }
        p.destroy();
        boolean interrupted = false;
        try {
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            interrupted = true;
            p.destroyForcibly();
            try {
                p.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException again) {
                // give up waiting; the kill has been sent
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** The OpenSM log lines that carry an error code. */
    static List<String> errorLines(String log) {
        List<String> errs = new ArrayList<>();
        for (String line : log.split("\n")) {
            Matcher m = OSM_ERROR.matcher(line);
            if (m.find()) {
                errs.add(line);
            }
        }
        return errs;
    }

    static String read(Path p) {
        try {
            return Files.exists(p) ? new String(Files.readAllBytes(p), StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The last 40 lines of a text. */
    static String tail(String s) {
        String[] lines = s.split("\n");
        int from = Math.max(0, lines.length - 40);
        return (from > 0 ? "...\n" : "") + String.join("\n", Arrays.copyOfRange(lines, from, lines.length));
    }
}
