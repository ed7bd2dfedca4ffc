package org.ibtwin.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A real {@code ibtwin up} process for interop tests: a JVM of its own on the test's class path, started in
 * {@code dir} with its output in {@code up.out} and {@code up.err} there, on the first free base port of the caller's
 * band (tried every 12 ports: ibsim's endpoint uses P..P+10): {@code port} is the base port clients use as
 * IBSIM_SERVER_PORT. {@link #close()} stops the one process it started.
 */
record IbtwinUp(RealTools tools, Process process, int port, Path dir, Path out, Path err) implements AutoCloseable {
    /** Every base port tried is this far from the last one. */
    static final int PORT_STEP = 12;
    /** How long a real tool run as a client may take. */
    static final Duration TOOL_TIMEOUT = Duration.ofSeconds(20);

    /**
     * Writes {@code net} to {@code dir/netFile} and starts {@code ibtwin up netFile args... -p P} for P =
     * {@code first}, {@code first + 12}, ... up to {@code last}, until one says its network is up within 60 s; fails
     * the test when
     * none does. The test is skipped (failed under CI) where the real tools its clients need are missing.
     */
    static IbtwinUp start(Path dir, int first, int last, String netFile, String net, String... args)
            throws IOException, InterruptedException {
        RealTools tools = RealTools.findOrSkip();
        Files.writeString(dir.resolve(netFile), net);
        List<String> upArgs = new ArrayList<>(List.of(netFile));
        upArgs.addAll(List.of(args));
        Path out = dir.resolve("up.out");
        Path err = dir.resolve("up.err");
        IbtwinUp up = null;
        for (int base = first; base <= last && up == null; base += PORT_STEP) {
            Process tried = launch(dir, base, out, err, upArgs);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (tried.isAlive() && !RealTools.read(out).contains(RealTools.READY)
                    && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            if (tried.isAlive() && RealTools.read(out).contains(RealTools.READY)) {
                up = new IbtwinUp(tools, tried, base, dir, out, err);
            } else {
                RealTools.stop(tried);
            }
        }
        assertThat(up).as("ibtwin up did not start on " + first + ".." + last + ":\n" + RealTools.read(err))
                .isNotNull();
        return up;
    }

    private static Process launch(Path dir, int port, Path out, Path err, List<String> args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"), "-cp",
                System.getProperty("java.class.path"), "org.ibtwin.cli.Main", "up"));
        cmd.addAll(args);
        cmd.addAll(List.of("-p", Integer.toString(port)));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectOutput(out.toFile())
                .redirectError(err.toFile());
        pb.environment().remove("LD_PRELOAD");
        return pb.start();
    }

    /** A real tool's client attached at {@code node} of this process's ibsim endpoint. */
    UmadClient client(String node) {
        return new UmadClient(tools.umad2sim, port, dir, node, TOOL_TIMEOUT);
    }

    /** Waits up to 60 s for {@code done}; fails with the tail of {@code log} when it times out or the process ends. */
    static void await(String what, Process p, Path log, BooleanSupplier done) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!done.getAsBoolean()) {
            if (!p.isAlive() || System.nanoTime() > deadline) {
                fail(what + (p.isAlive() ? " (timed out)" : " (ibtwin up exited " + p.exitValue() + ")") + ":\n"
                        + RealTools.tail(RealTools.read(log)));
            }
            Thread.sleep(100);
        }
    }

    /**
     * Types {@code line} at the console ({@code console}, whose output goes to {@code out}) and waits, 60 s at most,
     * until what it prints ends with the next prompt: returns that.
     */
    static String type(Writer console, Path out, String line) throws IOException, InterruptedException {
        int before = RealTools.read(out).length();
        console.write(line + "\n");
        console.flush();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            String all = RealTools.read(out);
            String now = all.substring(Math.min(before, all.length()));
            if (now.endsWith("sim> ") && now.length() > 5) {
                return now;
            }
            Thread.sleep(20);
        }
        throw new IOException("the console did not answer \"" + line + "\":\n"
                + RealTools.tail(RealTools.read(out)));
    }

    /** One line to the console. */
    static void say(OutputStream console, String line) throws IOException {
        console.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        console.flush();
    }

    /** Stops the process (destroy, then destroyForcibly if it lingers). */
    @Override
    public void close() {
        RealTools.stop(process);
    }
}
