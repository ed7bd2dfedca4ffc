package org.ibtwin.transport;

import java.io.File;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * A real {@code ibsim -r -l PORT -s -n NETFILE} for interop tests, on a random free port range in 17100..17190
 * (never the default 7070, which other users of this machine may hold), with its own IBSIM_SOCKNAME. Stopped by
 * {@link #close()}, which kills only the process it started.
 */
final class IbsimProcess implements AutoCloseable {
    static final String HOST = "127.0.0.1";

    private final Process process;
    private final int port;
    private final Path log;

    private IbsimProcess(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    /** The ibsim on PATH, if installed. */
    static Optional<Path> executable() {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            Path p = Path.of(dir, "ibsim");
            if (Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** The visible notice that the ibsim interop tests are skipped. */
    static void printSkipNotice() {
        System.err.println("INTEROP SKIPPED: ibsim not installed (package ibsim-utils); "
                + "IbsimClient interop tests not run");
    }

    /** Starts ibsim on {@code netFile} and waits until a client can attach. */
    static IbsimProcess start(Path exe, Path netFile) throws IOException, InterruptedException {
        IOException last = null;
        for (int tries = 0; tries < 8; tries++) {
            int port = freeRange();
            Path log = netFile.resolveSibling("ibsim-" + port + ".log");
            ProcessBuilder pb = new ProcessBuilder(exe.toString(), "-r", "-l", Integer.toString(port), "-s", "-n",
                    netFile.getFileName().toString())
                    .directory(netFile.getParent().toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            pb.environment().put("IBSIM_SOCKNAME", "ibtwin-transport-" + ProcessHandle.current().pid() + "-" + port);
            Process p = pb.start();
            IbsimProcess sim = new IbsimProcess(p, port, log);
            try {
                sim.awaitReady();
                return sim;
            } catch (IOException e) {
                last = e;
                sim.close();
            }
        }
        throw last;
    }

    /** Waits until a client attaches (and detaches); IOException if ibsim died (e.g. a port was taken). */
    private void awaitReady() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("ibsim exited with " + process.exitValue() + ": " + output());
            }
            try (IbsimClient c = IbsimClient.connect(HOST, port, null, false, java.time.Duration.ofMillis(300))) {
                if (c.clientId() >= 0) {
                    return;
                }
            } catch (MadTransportException e) {
                Thread.sleep(50);
            }
        }
        throw new IOException("ibsim did not become ready: " + output());
    }

    int port() {
        return port;
    }

    boolean isAlive() {
        return process.isAlive();
    }

    String output() {
        try {
            return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            return "(" + e + ")";
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(3, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(3, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    /** A base port P in 17100..17180 with P..P+10 all free for UDP on this machine right now. */
    private static int freeRange() throws IOException {
        for (int tries = 0; tries < 50; tries++) {
            int base = 17100 + ThreadLocalRandom.current().nextInt(81);
            List<DatagramSocket> held = new ArrayList<>();
            boolean free = true;
            try {
                for (int p = base; p <= base + IbsimWire.MAX_CLIENTS; p++) {
                    try {
                        held.add(new DatagramSocket(new InetSocketAddress((InetAddress) null, p)));
                    } catch (SocketException e) {
                        free = false;
                        break;
                    }
                }
            } finally {
                held.forEach(DatagramSocket::close);
            }
            if (free) {
                return base;
            }
        }
        throw new IOException("no free UDP port range in 17100..17190");
    }
}
