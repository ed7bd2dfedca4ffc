package org.ibtwin.interop;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs real programs (OpenSM, infiniband-diags) as clients of a simulator in remote mode: {@code ibsim -r}
 * ({@link RemoteIbsim}) or the twin's IbsimServer, whichever listens at {@code 127.0.0.1:port}. Each runs under
 * {@code LD_PRELOAD=libumad2sim.so} with {@code IBSIM_SERVER_NAME}/{@code IBSIM_SERVER_PORT} set, OpenSM's cache and
 * temporary directories pointed at {@code dir}, and {@code SIM_HOST} when given (else the simulator's default node).
 * The tools print their argv[0] in error lines, so they run as "smpquery", not "/usr/sbin/smpquery".
 *
 * @param umad2sim   libumad2sim.so
 * @param port       the simulator's control port
 * @param dir        working directory, OSM_CACHE_DIR and OSM_TMP_DIR
 * @param simHost    the node to attach at (a topology id such as "H-0002c90300000002"), or null
 * @param timeout    a client still running then is killed and reported as exit code -1
 */
record UmadClient(Path umad2sim, int port, Path dir, String simHost, Duration timeout) {
    /** One run: the command as shown, its exit code (-1: killed at the timeout), its outputs and wall time. */
    record Result(String command, int exit, String out, String err, long nanos) {
        long millis() {
            return TimeUnit.NANOSECONDS.toMillis(nanos);
        }

        boolean timedOut() {
            return exit == -1;
        }
    }

    UmadClient withSimHost(String node) {
        return new UmadClient(umad2sim, port, dir, node, timeout);
    }

    UmadClient withDir(Path d) {
        return new UmadClient(umad2sim, port, d, simHost, timeout);
    }

    UmadClient withTimeout(Duration t) {
        return new UmadClient(umad2sim, port, dir, simHost, t);
    }

    /** Runs {@code exe args...} to completion (or the timeout) and returns what it printed. */
    Result run(Path exe, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("/bin/bash", "-c", "exec -a \"$0\" \"$1\" \"${@:2}\"",
                exe.getFileName().toString(), exe.toString()));
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile(dir, "run", ".out");
        Path err = Files.createTempFile(dir, "run", ".err");
        try {
            ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectOutput(out.toFile())
                    .redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            env(pb.environment());
            long t0 = System.nanoTime();
            Process p = pb.start();
            boolean done = RealTools.waitOrStop(p, timeout);
            long nanos = System.nanoTime() - t0;
            String shown = exe.getFileName() + (args.length == 0 ? "" : " " + String.join(" ", args));
            return new Result(shown, done ? p.exitValue() : -1, RealTools.read(out), RealTools.read(err), nanos);
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /** Starts {@code exe args...} in the background (e.g. an OpenSM left running); the caller stops it. */
    Process start(Path exe, Path stdout, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(exe.toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(stdout.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        env(pb.environment());
        return pb.start();
    }

    /** The client environment: this simulator, whatever the caller's environment says. */
    void env(Map<String, String> env) {
        for (String k : new String[] {"IBSIM_SOCKNAME", "SIM_HOST", "SIM_SET_ISSM"}) {
            env.remove(k);
        }
        env.put("LD_PRELOAD", umad2sim.toString());
        env.put("IBSIM_SERVER_NAME", RemoteIbsim.HOST);
        env.put("IBSIM_SERVER_PORT", Integer.toString(port));
        env.put("OSM_CACHE_DIR", dir.toString());
        env.put("OSM_TMP_DIR", dir.toString());
        if (simHost != null) {
            env.put("SIM_HOST", simHost);
        }
    }
}
