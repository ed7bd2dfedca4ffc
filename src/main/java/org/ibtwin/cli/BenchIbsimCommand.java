package org.ibtwin.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.ibtwin.bench.Processes;
import org.ibtwin.bench.Stats;
import org.ibtwin.format.TopologyWriter;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.transport.IbsimClient;
import org.ibtwin.transport.IbsimRoundTripBench;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ibtwin bench ibsim}: round trips per second of directed-route SMPs through the ibsim client protocol, with
 * 1 and with 4 MADs in flight, and the CPU each simulator spends per MAD. Without {@code --ibsim} it starts a real
 * {@code ibsim -r} on loopback and the twin ({@code ibtwin sim}, in a JVM of its own) on the same small fat tree, or
 * with {@code --local} both in ibsim's local mode, and drives the same MAD stream through each, {@code --pairs}
 * times, alternating which goes first; then it prints the medians. {@code --ibsim HOST:PORT} or {@code --ibsim @NAME}
 * measures a running one (real ibsim, or {@code ibtwin sim}) alone, without the CPU figure.
 *
 * <p>The CPU figure is each simulator process's user + system time ({@code /proc/<pid>/stat}, as
 * {@link ProcessHandle.Info#totalCpuDuration} reads it) over the timed window, divided by the round trips answered
 * in it. The twin runs in its own process so that both are measured by the same instrument and everything the twin
 * spends counts (its receive and send threads, the hand-offs between them, the JIT, the GC, its timers), while the
 * bench's own client counts for neither.
 */
@Command(name = "ibsim", mixinStandardHelpOptions = true,
        description = "Round trips per second and CPU per MAD: the twin and ibsim (UDP, or local mode), 1 and 4 MADs "
                + "in flight.")
public final class BenchIbsimCommand extends CliCommand {
    private static final String READY = "Network simulator ready";
    private static final int[] IN_FLIGHT = {1, 4};


    @Option(names = "--ibsim", paramLabel = "<host:port|@name>",
            description = "A running ibsim -r (or ibtwin sim) to measure alone, or @name: one in local mode (default: "
                    + "start ibsim and the twin on loopback and measure both).")
    String server;

    @Option(names = "--local", description = "Start ibsim and the twin in ibsim's local mode (unix sockets; ibsim "
            + "without -r, the twin as sim --local) instead of UDP; needs a JDK 22+ on Linux.")
    boolean local;

    @Option(names = "--sim-host", paramLabel = "<node>", description = "Node to attach at (default: a CA).")
    String simHost;

    @Option(names = "--seconds", defaultValue = "5", description = "Seconds per measurement (default: ${DEFAULT-VALUE}).")
    int seconds;

    @Option(names = "--pairs", defaultValue = "3",
            description = "Measurements of each simulator, alternating which goes first; the medians are printed "
                    + "(default: ${DEFAULT-VALUE}).")
    int pairs;

    @Option(names = "--twin-jvm-arg", paramLabel = "<arg>",
            description = "A JVM argument for the twin's process (repeatable), e.g. -XX:StartFlightRecording=...")
    List<String> twinJvmArgs = new ArrayList<>();

    /** A simulator this bench started: its process and where clients reach it. */
    private record Sim(String side, Process process, int port, String sockname) {
        long cpuNanos() {
            return Math.round(Processes.cpuSeconds(process.toHandle()) * 1e9);
        }
    }

    @Override
    public Integer call() throws Exception {
        if (seconds < 1) {
            throw new IllegalArgumentException("--seconds must be >= 1");
        }
        if (pairs < 1) {
            throw new IllegalArgumentException("--pairs must be >= 1");
        }
        if (server != null && local) {
            throw new IllegalArgumentException("--local starts simulators of its own: give --local or --ibsim, not both");
        }
        return server != null ? measureOne() : measureBoth();
    }

    /** One running simulator, as given by --ibsim. */
    private int measureOne() {
        PrintWriter out = out();
        String host = "127.0.0.1";
        int port = 0;
        String sockname = null;
        if (server.startsWith("@")) {
            sockname = server.substring(1);
        } else {
            int colon = server.lastIndexOf(':');
            if (colon < 0) {
                throw new IllegalArgumentException("--ibsim: expected host:port or @name, got '" + server + "'");
            }
            host = server.substring(0, colon);
            try {
                port = Integer.parseInt(server.substring(colon + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--ibsim: expected host:port or @name, got '" + server + "'");
            }
        }
        try (IbsimClient c = connect(host, port, sockname, simHost)) {
            out.println("attached at " + c.attachedNode() + " (client " + c.clientId() + "), DR NodeInfo to the "
                    + "neighbour switch:");
            for (int inFlight : IN_FLIGHT) {
                out.println("  " + IbsimRoundTripBench.run(c, inFlight, Duration.ofSeconds(seconds)));
                out.flush();
            }
        }
        return 0;
    }

    /** Real ibsim and the twin on the same fabric, the same MAD stream through each. */
    private int measureBoth() throws IOException, InterruptedException {
        PrintWriter out = out();
        PrintWriter err = err();
        Path dir = Files.createTempDirectory("ibtwin-bench-ibsim");
        List<Sim> sims = new ArrayList<>();
        try {
            Fabric f = FatTree.build(FatTreeSpec.of(2, 8, 16).withSpeed(LinkSpeed.HDR));
            Path net = dir.resolve("bench.topo");
            TopologyWriter.write(f, net);
            String attach = simHost != null ? simHost : TopologyWriter.id(f.cas().get(0));
            String mode = local ? "local mode" : "UDP";
            err.println("bench ibsim: starting ibsim and the twin (ibtwin sim, a JVM of its own) on a 16-host fat "
                    + "tree, " + mode + " ...");
            err.flush();
            String tag = "ibtwin-bench-ibsim-" + ProcessHandle.current().pid();
            Sim ibsim = startIbsim(net, local ? 0 : freeUdpPort(), local ? tag + "-ibsim" : null, dir);
            sims.add(ibsim);
            Sim twin = startTwin(net, local ? 0 : freeUdpPort(), local ? tag + "-twin" : null, dir);
            sims.add(twin);
            out.println("DR NodeInfo from " + attach + " to the neighbour switch, " + mode + ", " + seconds
                    + " s a measurement; simulator CPU: the process's user + system time (/proc/<pid>/stat) over "
                    + "the timed window, per round trip");
            // results[side][inFlight index]: side 0 the twin, 1 ibsim
            List<List<List<IbsimRoundTripBench.Result>>> results = List.of(
                    List.of(new ArrayList<>(), new ArrayList<>()), List.of(new ArrayList<>(), new ArrayList<>()));
            try (IbsimClient ct = connect("127.0.0.1", twin.port(), twin.sockname(), attach);
                 IbsimClient ci = connect("127.0.0.1", ibsim.port(), ibsim.sockname(), attach)) {
                // a second through each first, not counted: both past their first MADs (the twin's JIT too)
                IbsimRoundTripBench.run(ct, 4, Duration.ofSeconds(1));
                IbsimRoundTripBench.run(ci, 4, Duration.ofSeconds(1));
                for (int pair = 0; pair < pairs; pair++) {
                    int[] order = pair % 2 == 0 ? new int[] {1, 0} : new int[] {0, 1};
                    for (int side : order) {
                        Sim sim = side == 0 ? twin : ibsim;
                        IbsimClient c = side == 0 ? ct : ci;
                        for (int k = 0; k < IN_FLIGHT.length; k++) {
                            IbsimRoundTripBench.Result r = IbsimRoundTripBench.run(c, IN_FLIGHT[k],
                                    Duration.ofSeconds(seconds), sim::cpuNanos, 0, 1);
                            results.get(side).get(k).add(r);
                            out.printf(Locale.ROOT, "  pair %d %-5s %s%n", pair + 1, sim.side(), r);
                            out.flush();
                        }
                    }
                }
            }
            for (int k = 0; k < IN_FLIGHT.length; k++) {
                out.println(summary(IN_FLIGHT[k], results.get(0).get(k), results.get(1).get(k)));
            }
            return 0;
        } finally {
            for (Sim s : sims) {
                Processes.stop(s.process(), 3);
            }
            try (var files = Files.list(dir)) {
                for (Path p : files.toList()) {
                    Files.deleteIfExists(p);
                }
            }
            Files.deleteIfExists(dir);
        }
    }

    /** The medians line: "in flight 1, median of 3 pairs: CPU per MAD twin 21.3 us, ibsim 18.2 us (1.17x); ...". */
    static String summary(int inFlight, List<IbsimRoundTripBench.Result> twin, List<IbsimRoundTripBench.Result> ibsim) {
        double tc = Stats.median(twin.stream().mapToDouble(IbsimRoundTripBench.Result::cpuMicrosPerMad).toArray());
        double ic = Stats.median(ibsim.stream().mapToDouble(IbsimRoundTripBench.Result::cpuMicrosPerMad).toArray());
        double tr = Stats.median(twin.stream().mapToDouble(IbsimRoundTripBench.Result::perSecond).toArray());
        double ir = Stats.median(ibsim.stream().mapToDouble(IbsimRoundTripBench.Result::perSecond).toArray());
        return String.format(Locale.ROOT, "in flight %d, median of %d pairs: CPU per MAD twin %.1f us, ibsim %.1f us "
                + "(twin/ibsim %.2f); round trips/s twin %,.0f, ibsim %,.0f", inFlight, twin.size(), tc, ic, tc / ic,
                tr, ir);
    }

    private static IbsimClient connect(String host, int port, String sockname, String attach) {
        try {
            return sockname != null
                    ? IbsimClient.connectLocal(sockname, attach, false, IbsimClient.DEFAULT_CONNECT_TIMEOUT)
                    : IbsimClient.connect(host, port, attach, false);
        } catch (org.ibtwin.transport.MadTransportException e) {
            throw new IllegalArgumentException(e.getMessage());
        }
    }

    /** The twin as {@code ibtwin sim} in a JVM of its own (this one's java and class path), UDP or local mode. */
    private Sim startTwin(Path net, int port, String sockname, Path dir) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(twinJvmArgs);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName(), "sim",
                "--no-console"));
        if (sockname != null) {
            cmd.add("--local=" + sockname);
        } else {
            cmd.addAll(List.of("-p", Integer.toString(port)));
        }
        cmd.add(net.toString());
        Path log = dir.resolve("twin.out");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        awaitReady(p, log, "the twin", 120);
        return new Sim("twin", p, port, sockname);
    }

    /** ibsim on {@code net}: remote mode at {@code port}, or local mode when {@code sockname} is given. */
    private static Sim startIbsim(Path net, int port, String sockname, Path dir)
            throws IOException, InterruptedException {
        Path log = dir.resolve("ibsim.out");
        ProcessBuilder pb = new ProcessBuilder(sockname != null
                ? List.of("ibsim", "-s", "-n", net.toString())
                : List.of("ibsim", "-r", "-l", Integer.toString(port), "-s", "-n", net.toString()))
                .redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put("IBSIM_SOCKNAME", sockname != null ? sockname
                : "ibtwin-bench-" + ProcessHandle.current().pid());
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot start ibsim (install ibsim-utils, or give --ibsim host:port)");
        }
        awaitReady(p, log, "ibsim", 20);
        return new Sim("ibsim", p, port, sockname);
    }

    /** Waits for a simulator's "Network simulator ready" line; stops it and says why when it does not come. */
    private static void awaitReady(Process p, Path log, String what, int seconds)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            if (Files.readString(log).contains(READY)) {
                return;
            }
            if (!p.isAlive()) {
                throw new IllegalStateException(what + " exited: " + Files.readString(log).strip());
            }
            Thread.sleep(50);
        }
        Processes.stop(p, 3);
        throw new IllegalStateException(what + " did not get ready in " + seconds + " s");
    }

    /** A UDP port with the next ten free too (ibsim -r uses port .. port+10). */
    private static int freeUdpPort() throws IOException {
        for (int attempt = 0; attempt < 50; attempt++) {
            int base;
            try (DatagramSocket s = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
                base = s.getLocalPort();
            }
            if (base > 65000) {
                continue;
            }
            boolean free = true;
            for (int i = 0; i <= 10 && free; i++) {
                try (DatagramSocket s = new DatagramSocket(base + i, InetAddress.getLoopbackAddress())) {
                    free = s.isBound();
                } catch (IOException e) {
                    free = false;
                }
            }
            if (free) {
                return base;
            }
        }
        throw new IOException("no free UDP port range for ibsim");
    }
}
