package org.ibtwin.lab;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.ibtwin.sim.IbsimServer;

/**
 * Real OpenSM as the SM of a lab's twin: {@code opensm -o} (one sweep, then exit) run as a client of the lab's ibsim
 * endpoint under {@code LD_PRELOAD=libumad2sim.so}, attached at a node ({@code SIM_HOST}), its cache (guid2lid) and
 * temporary files in a directory of the caller's. The environment is the one the interop tests give every real
 * client of the twin: the endpoint by {@code IBSIM_SERVER_NAME}/{@code IBSIM_SERVER_PORT} (UDP) or
 * {@code IBSIM_SOCKNAME} (ibsim's local mode), whatever the caller's environment says. The process is stopped, by
 * its own handle, when it overruns the timeout.
 */
public final class RealOpensm {
    private static final String[] SBIN = {"/usr/sbin", "/sbin", "/usr/local/sbin"};
    private static final String[] UMAD2SIM = {"/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so",
        "/usr/lib64/umad2sim/libumad2sim.so", "/usr/lib/umad2sim/libumad2sim.so"};

    private final Path opensm;
    private final Path umad2sim;
    private final int basePort;
    private final Duration timeout;

    /** One run: its exit status (-1: stopped at the timeout), its log, and what it said where it went wrong. */
    public record Run(int exit, String log) {
        /** Whether OpenSM brought the subnet up ("SUBNET UP" in its log) and exited cleanly. */
        public boolean up() {
            return exit == 0 && log.contains("SUBNET UP");
        }

        /** The first ERR line of the log (or the exit status), for a one-line message. */
        public String why() {
            for (String l : log.split("\n")) {
                if (l.contains(" ERR ")) {
                    return l.strip();
                }
            }
            return exit == -1 ? "still running at the timeout" : exit != 0 ? "exit status " + exit
                    : "no SUBNET UP in its log";
        }
    }

    private RealOpensm(Path opensm, Path umad2sim, int basePort, Duration timeout) {
        this.opensm = opensm;
        this.umad2sim = umad2sim;
        this.basePort = basePort;
        this.timeout = timeout;
    }

    /**
     * opensm and libumad2sim.so as installed; endpoints over UDP from {@code basePort} (each takes 11 ports) where
     * ibsim's local mode cannot be served.
     *
     * @throws IllegalArgumentException (one line: exit 2) when either is not installed
     */
    public static RealOpensm find(int basePort, Duration timeout) {
        Optional<Path> sm = executable("opensm");
        Optional<Path> so = umad2sim();
        if (sm.isEmpty() || so.isEmpty()) {
            throw new IllegalArgumentException("--sm opensm: " + (sm.isEmpty() ? "opensm" : "libumad2sim.so")
                    + " not found (install opensm and libumad2sim0, or use ibtwin's SM: --sm ibtwin)");
        }
        return new RealOpensm(sm.get(), so.get(), basePort, timeout);
    }

    /** An executable on PATH, or in the sbin directories a user's PATH may leave out. */
    public static Optional<Path> executable(String name) {
        List<String> dirs = new ArrayList<>();
        String path = System.getenv("PATH");
        if (path != null) {
            dirs.addAll(List.of(path.split(File.pathSeparator)));
        }
        dirs.addAll(List.of(SBIN));
        for (String d : dirs) {
            Path p = d.isEmpty() ? null : Path.of(d, name);
            if (p != null && Files.isRegularFile(p) && Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** libumad2sim.so where the distributions install it. */
    public static Optional<Path> umad2sim() {
        for (String p : UMAD2SIM) {
            if (Files.isRegularFile(Path.of(p))) {
                return Optional.of(Path.of(p));
            }
        }
        return Optional.empty();
    }

    /**
     * The environment of a real client of {@code server} attached at {@code simHost} (null: the endpoint's default
     * node), with OpenSM's cache and temporary files in {@code dir}.
     */
    public static void clientEnv(Map<String, String> env, Path umad2sim, IbsimServer server, Path dir,
                                 String simHost) {
        String local = server.basename();
        clientEnv(env, umad2sim, local, local == null ? server.port() : 0, dir, simHost);
    }

    /** {@link #clientEnv(Map, Path, IbsimServer, Path, String)} for an endpoint by local name (null: UDP port). */
    public static void clientEnv(Map<String, String> env, Path umad2sim, String localName, int port, Path dir,
                                 String simHost) {
        for (String k : new String[] {"IBSIM_SOCKNAME", "IBSIM_SERVER_NAME", "IBSIM_SERVER_PORT", "SIM_HOST",
            "SIM_SET_ISSM"}) {
            env.remove(k);
        }
        env.put("LD_PRELOAD", umad2sim.toString());
        if (localName != null) {
            env.put("IBSIM_SOCKNAME", localName);
        } else {
            env.put("IBSIM_SERVER_NAME", "127.0.0.1");
            env.put("IBSIM_SERVER_PORT", Integer.toString(port));
        }
        env.put("OSM_CACHE_DIR", dir.toString());
        env.put("OSM_TMP_DIR", dir.toString());
        if (simHost != null) {
            env.put("SIM_HOST", simHost);
        }
    }

    /**
     * Starts {@code lab}'s endpoint for OpenSM: ibsim's local mode under a name of this process's own where the JDK
     * serves it, else UDP on loopback at the {@code copy}-th range from the base port.
     */
    IbsimServer serve(Lab lab, int copy) throws IOException {
        if (IbsimServer.socketImplementation().equals("libc")) {
            return lab.serve("ibtwin-what-if-" + ProcessHandle.current().pid() + "-" + System.nanoTime(), 0,
                    Duration.ZERO);
        }
        return lab.serve(null, basePort + 11 * copy, Duration.ZERO);
    }

    /** {@code opensm -o -f DIR/opensm.log args...} at {@code simHost} of {@code server}, to its end. */
    public Run once(IbsimServer server, String simHost, Path dir, List<String> args) throws IOException {
        Files.createDirectories(dir);
        Path log = dir.resolve("opensm.log");
        Files.deleteIfExists(log);
        List<String> cmd = new ArrayList<>(List.of(opensm.toString(), "-o", "-f", log.toString()));
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("opensm.out").toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        clientEnv(pb.environment(), umad2sim, server, dir, simHost);
        Process p = pb.start();
        int exit;
        try {
            if (p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                exit = p.exitValue();
            } else {
                exit = -1;
                p.destroy();
                if (!p.waitFor(10, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    p.waitFor(10, TimeUnit.SECONDS);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            exit = -1;
        }
        String text = Files.exists(log) ? new String(Files.readAllBytes(log), StandardCharsets.UTF_8) : "";
        return new Run(exit, text);
    }
}
