package org.ibtwin.interop;

import java.io.File;
import java.io.IOException;
import java.net.BindException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.ibtwin.bench.Processes;
import org.ibtwin.sim.IbsimServer;
import org.ibtwin.sim.Twin;
import org.ibtwin.transport.IbsimClient;

/**
 * A real {@code ibsim -r -l PORT -s -n [limits] NETFILE} for interop tests: remote (UDP) mode on loopback, on a free
 * range of {@code PORT..PORT+10} drawn from the caller's own band of ports (never ibsim's default 7070, which other
 * users of the machine may hold), under an {@code IBSIM_SOCKNAME} of its own, so that it never meets another ibsim.
 * Clients reach it with {@code IBSIM_SERVER_NAME=127.0.0.1 IBSIM_SERVER_PORT=port()} ({@link UmadClient} runs real
 * tools so). {@link #close()} stops the one process it started, and nothing else.
 *
 * <p>Shared by the interop tests of every package (IbsimClient's, smpquery/perfquery's, the twin parity test).
 */
public final class RemoteIbsim implements AutoCloseable {
    /** Where clients find it. */
    public static final String HOST = "127.0.0.1";
    /** Four CAs, H-h1..H-h4, on ports 1..4 of one 8-port switch, sw1: an ibsim net file. */
    public static final String FOUR_CAS = oneSwitch(4);
    /** Three CAs, H-h1..H-h3, on ports 1..3 of one 8-port switch, sw1: an ibsim net file. */
    public static final String THREE_CAS = oneSwitch(3);
    /** ibsim's control port plus one data port per client slot. */
    public static final int PORTS_USED = 11;
    /** What ibsim prints once its network is up (its sockets are bound before). */
    public static final String READY = "Network simulator ready.";

    private static final int START_ATTEMPTS = 6;

    private final Process process;
    private final int port;
    private final Path log;
    private final String command;
    private final long readyNanos;

    private RemoteIbsim(Process process, int port, Path log, String command, long readyNanos) {
        this.process = process;
        this.port = port;
        this.log = log;
        this.command = command;
        this.readyNanos = readyNanos;
    }

    /** {@code cas} CAs, H-h1..H-hN, each on port N of one 8-port switch, sw1: an ibsim net file. */
    static String oneSwitch(int cas) {
        StringBuilder net = new StringBuilder("Switch 8 \"sw1\"\n");
        for (int i = 1; i <= cas; i++) {
            net.append('[').append(i).append("] \"H-h").append(i).append("\"[1]\n");
        }
        for (int i = 1; i <= cas; i++) {
            net.append("\nHca 1 \"H-h").append(i).append("\"\n[1] \"sw1\"[").append(i).append("]\n");
        }
        return net.toString();
    }

    /** Writes {@link #FOUR_CAS} to {@code dir}/four.net and starts ibsim on it ({@link #start}, 10 s to be ready). */
    public static RemoteIbsim fourCas(Path exe, Path dir, int firstPort, int lastPort)
            throws IOException, InterruptedException {
        Path net = dir.resolve("four.net");
        Files.writeString(net, FOUR_CAS);
        return start(exe, net, firstPort, lastPort, List.of(), Duration.ofSeconds(10));
    }

    /** The ibsim on PATH (or in the sbin directories), if installed. */
    public static java.util.Optional<Path> executable() {
        return RealTools.executable("ibsim");
    }

    /**
     * Starts ibsim on {@code netFile} in remote mode, with its control port drawn from {@code firstPort..lastPort}
     * (the whole range {@code P..P+10} must fit below {@code lastPort + 10}), and waits until it is ready. ibsim runs
     * in {@code netFile}'s directory and writes its output to {@code ibsim-PORT.log} there. A port taken between our
     * check and ibsim's bind makes ibsim exit: then another range is tried.
     *
     * @param extra options before the net file, e.g. ibsim's limits ({@code -N -S -P -L})
     * @throws IOException when ibsim exits before it is ready, or is not ready within {@code readyTimeout}
     */
    public static RemoteIbsim start(Path exe, Path netFile, int firstPort, int lastPort, List<String> extra,
                                    Duration readyTimeout) throws IOException, InterruptedException {
        return start(exe, netFile, firstPort, lastPort, extra, readyTimeout, false);
    }

    /**
     * {@link #fourCas}, with ibsim's console on (no {@code -n}): {@link #console} types a line at it
     * ({@code Unlink "H-h3"}, {@code Link "sw1"[3] "H-h3"[1]}).
     */
    public static RemoteIbsim fourCasWithConsole(Path exe, Path dir, int firstPort, int lastPort)
            throws IOException, InterruptedException {
        Path net = dir.resolve("four.net");
        Files.writeString(net, FOUR_CAS);
        return start(exe, net, firstPort, lastPort, List.of(), Duration.ofSeconds(10), true);
    }

    /** Types {@code line} at ibsim's console (started with it) and waits, 10 s at most, for its next prompt. */
    public void console(String line) throws IOException, InterruptedException {
        int before = read(log).split("sim> ", -1).length;
        process.getOutputStream().write((line + "\n").getBytes(StandardCharsets.UTF_8));
        process.getOutputStream().flush();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (read(log).split("sim> ", -1).length <= before) {
            if (System.nanoTime() > deadline || !process.isAlive()) {
                throw new IOException("ibsim did not answer \"" + line + "\"\n" + RealTools.tail(read(log)));
            }
            Thread.sleep(10);
        }
    }

    private static RemoteIbsim start(Path exe, Path netFile, int firstPort, int lastPort, List<String> extra,
                                     Duration readyTimeout, boolean console) throws IOException, InterruptedException {
        Path dir = netFile.toAbsolutePath().getParent();
        String last = "";
        for (int attempt = 0; attempt < START_ATTEMPTS; attempt++) {
            int port = freeRange(firstPort, lastPort);
            Path log = dir.resolve("ibsim-" + port + ".log");
            List<String> cmd = new ArrayList<>(List.of(exe.toString(), "-r", "-l", Integer.toString(port), "-s"));
            if (!console) {
                cmd.add("-n");
            }
            cmd.addAll(extra);
            cmd.add(netFile.getFileName().toString());
            ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).redirectInput(console ? ProcessBuilder.Redirect.PIPE
                            : ProcessBuilder.Redirect.from(new File("/dev/null")));
            pb.environment().remove("LD_PRELOAD");
            pb.environment().put("IBSIM_SOCKNAME", "ibtwin-" + ProcessHandle.current().pid() + "-" + port);
            long t0 = System.nanoTime();
            Process p = pb.start();
            String shown = String.join(" ", cmd);
            long deadline = t0 + readyTimeout.toNanos();
            while (p.isAlive() && !read(log).contains(READY) && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            if (p.isAlive() && read(log).contains(READY)) {
                return new RemoteIbsim(p, port, log, shown, System.nanoTime() - t0);
            }
            boolean timedOut = p.isAlive();
            RealTools.stop(p);
            last = "$ " + shown + "\n" + RealTools.tail(read(log));
            if (timedOut) {
                throw new IOException("ibsim not ready after " + readyTimeout.toSeconds() + " s\n" + last);
            }
        }
        throw new IOException("ibsim -r did not start in " + START_ATTEMPTS + " attempts\n" + last);
    }

    /**
     * Starts ibsim on {@code netFile} in its local mode (no {@code -r}: unix sockets in the abstract namespace named
     * {@code sockname}, as clients find it through {@code IBSIM_SOCKNAME}) and waits until it is ready. Its
     * {@link #port()} is 0.
     */
    public static RemoteIbsim startLocal(Path exe, Path netFile, String sockname, List<String> extra,
                                         Duration readyTimeout) throws IOException, InterruptedException {
        Path dir = netFile.toAbsolutePath().getParent();
        Path log = dir.resolve("ibsim-" + sockname + ".log");
        List<String> cmd = new ArrayList<>(List.of(exe.toString(), "-s", "-n"));
        cmd.addAll(extra);
        cmd.add(netFile.getFileName().toString());
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.environment().remove("LD_PRELOAD");
        pb.environment().put("IBSIM_SOCKNAME", sockname);
        long t0 = System.nanoTime();
        Process p = pb.start();
        long deadline = t0 + readyTimeout.toNanos();
        while (p.isAlive() && !read(log).contains(READY) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        if (p.isAlive() && read(log).contains(READY)) {
            return new RemoteIbsim(p, 0, log, "IBSIM_SOCKNAME=" + sockname + " " + String.join(" ", cmd),
                    System.nanoTime() - t0);
        }
        RealTools.stop(p);
        throw new IOException("ibsim (local mode, " + sockname + ") not ready\n" + RealTools.tail(read(log)));
    }

    /**
     * The twin's own ibsim endpoint (an {@link IbsimServer} attaching every client at port 0 of the node it names) on a
     * free range of {@code first..last}; a range taken between the check and the bind is tried again, 8 times at most.
     */
    public static IbsimServer serveTwin(Twin twin, int first, int last) throws IOException {
        BindException taken = null;
        for (int attempt = 0; attempt < 8; attempt++) {
            IbsimServer server = new IbsimServer(name -> twin.attach(name, 0));
            try {
                server.start(InetAddress.getLoopbackAddress(), freeRange(first, last));
                return server;
            } catch (BindException e) {
                server.close();
                taken = e;
            }
        }
        throw taken;
    }

    /** A base port P in {@code first..last} with P..P+10 all free for UDP on this machine right now. */
    public static int freeRange(int first, int last) throws IOException {
        return Processes.freeUdpRange(first, last);
    }

    /** The control port (clients' IBSIM_SERVER_PORT); 0 in local mode. */
    public int port() {
        return port;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** What ibsim printed so far. */
    public String output() {
        return read(log);
    }

    /** The command line, as started. */
    public String command() {
        return command;
    }

    /** Launch to "Network simulator ready.", in milliseconds. */
    public long readyMillis() {
        return TimeUnit.NANOSECONDS.toMillis(readyNanos);
    }

    /** ibsim's process id. */
    public long pid() {
        return process.pid();
    }

    /** Asks ibsim to stop, then kills it if it lingers. */
    @Override
    public void close() {
        RealTools.stop(process);
    }

    private static String read(Path p) {
        try {
            return Files.exists(p) ? new String(Files.readAllBytes(p), StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            return "(" + e + ")";
        }
    }

    /** The LID of {@code node}'s port, as a client attached there on the ibsim at {@code port} learns it. */
    public static int lid(int port, String node) {
        try (IbsimClient c = IbsimClient.connect(HOST, port, node, false)) {
            return c.localPort().lid();
        }
    }

    /** The port GUID of {@code node}'s port, as a client attached there on the ibsim at {@code port} learns it. */
    public static long portGuid(int port, String node) {
        try (IbsimClient c = IbsimClient.connect(HOST, port, node, false)) {
            return c.localPort().portGuid();
        }
    }
}
