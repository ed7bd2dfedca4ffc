package org.ibtwin.bench;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The benches' dealings with the programs they start (real ibsim, real OpenSM, a twin in a JVM of its own): finding
 * them, their CPU time and peak RSS, stopping them (only the process given), and their scratch files.
 */
public final class Processes {
    private Processes() {
    }

    /** The CPU time a process has used so far, in seconds (0 when it is gone or the system does not tell). */
    public static double cpuSeconds(ProcessHandle p) {
        return p.info().totalCpuDuration().map(d -> d.toNanos() / 1e9).orElse(0.0);
    }

    /** VmHWM (peak resident set) of a process, in KiB; 0 when unknown. */
    public static long rssKb(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"), StandardCharsets.UTF_8)) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | NumberFormatException e) {
            // gone, or not Linux
        }
        return 0;
    }

    /** destroy, {@code graceSeconds} to exit, then destroyForcibly and as long again: only the process given. */
    public static void stop(Process p, int graceSeconds) throws InterruptedException {
        if (!p.isAlive()) {
            return;
        }
        p.destroy();
        if (!p.waitFor(graceSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            p.waitFor(graceSeconds, TimeUnit.SECONDS);
        }
    }

    /** {@link #stop(Process, int)} with ten seconds' grace. */
    public static void stop(Process p) throws InterruptedException {
        stop(p, 10);
    }

    /** {@code name} on the PATH or in the sbin directories, where OpenSM and ibsim are installed. */
    public static Optional<Path> executable(String name) {
        List<String> dirs = new ArrayList<>();
        String path = System.getenv("PATH");
        if (path != null) {
            dirs.addAll(List.of(path.split(File.pathSeparator)));
        }
        dirs.addAll(List.of("/usr/sbin", "/sbin", "/usr/local/sbin"));
        for (String d : dirs) {
            Path p = d.isEmpty() ? null : Path.of(d, name);
            if (p != null && Files.isRegularFile(p) && Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** libumad2sim.so where the distributions install it. */
    public static Optional<Path> findUmad2sim() {
        for (String p : new String[] {"/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so",
            "/usr/lib64/umad2sim/libumad2sim.so", "/usr/lib/umad2sim/libumad2sim.so"}) {
            if (Files.isRegularFile(Path.of(p))) {
                return Optional.of(Path.of(p));
            }
        }
        return Optional.empty();
    }

    /**
     * A base port P in {@code first..last} with P..P+10 all free for UDP on this machine right now: the eleven ports
     * an {@code ibsim -r -l P} (or the twin serving its protocol) takes.
     */
    public static int freeUdpRange(int first, int last) throws IOException {
        for (int tries = 0; tries < 100; tries++) {
            int base = first + ThreadLocalRandom.current().nextInt(last - first + 1);
            if (udpRangeFree(base)) {
                return base;
            }
        }
        throw new IOException("no free UDP port range P..P+10 with P in " + first + ".." + last);
    }

    private static boolean udpRangeFree(int base) {
        List<DatagramSocket> held = new ArrayList<>();
        try {
            for (int p = base; p <= base + 10; p++) {
                try {
                    held.add(new DatagramSocket(new InetSocketAddress((InetAddress) null, p)));
                } catch (SocketException e) {
                    return false;
                }
            }
            return true;
        } finally {
            held.forEach(DatagramSocket::close);
        }
    }

    /** {@code dir/side}, or {@code dir/side-2}, ... : a directory no run has used (OpenSM's cache starts empty). */
    public static Path fresh(Path dir, String side) {
        Path p = dir.resolve(side);
        for (int i = 2; Files.exists(p); i++) {
            p = dir.resolve(side + "-" + i);
        }
        return p;
    }

    /** Deletes {@code root} and everything under it (nothing when it is not there). */
    public static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** A log's text so far ("" when it is not there or cannot be read). */
    static String read(Path p) {
        try {
            return Files.exists(p) ? new String(Files.readAllBytes(p), StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            return "";
        }
    }

    /** What {@code p} gained since {@code offset[0]} (advanced). */
    static String grow(Path p, long[] offset) {
        if (!Files.exists(p)) {
            return "";
        }
        try (RandomAccessFile f = new RandomAccessFile(p.toFile(), "r")) {
            long len = f.length();
            if (len <= offset[0]) {
                return "";
            }
            // step back a little so that a line cut at the last read is seen whole
            long from = Math.max(0, offset[0] - 64);
            byte[] b = new byte[(int) Math.min(len - from, 1 << 24)];
            f.seek(from);
            f.readFully(b);
            offset[0] = from + b.length;
            return new String(b, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    /** The last {@code lines} lines of {@code s}, joined by " | ". */
    static String tail(String s, int lines) {
        String[] l = s.strip().split("\n");
        return String.join(" | ", java.util.Arrays.copyOfRange(l, Math.max(0, l.length - lines), l.length));
    }
}
