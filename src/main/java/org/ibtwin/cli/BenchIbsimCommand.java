package org.ibtwin.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.ibtwin.format.TopologyWriter;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.transport.IbsimClient;
import org.ibtwin.transport.IbsimRoundTripBench;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code ibtwin bench ibsim}: round trips per second of directed-route SMPs through the ibsim client protocol, with
 * 1 and with 4 MADs in flight. Without {@code --ibsim} it starts a real {@code ibsim -r} of its own on loopback (a
 * small generated fat tree), or with {@code --local} one in ibsim's local mode, and stops it afterwards.
 * {@code --ibsim HOST:PORT} or {@code --ibsim @NAME} measures a running one (real ibsim, or {@code ibtwin sim}).
 */
@Command(name = "ibsim", mixinStandardHelpOptions = true,
        description = "Round trips per second to ibsim (UDP, or its local mode), 1 and 4 MADs in flight.")
public final class BenchIbsimCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--ibsim", paramLabel = "<host:port|@name>",
            description = "A running ibsim -r (or ibtwin sim) to measure, or @name: one in local mode (default: start "
                    + "one on loopback).")
    String server;

    @Option(names = "--local", description = "Start ibsim in its local mode (unix sockets; no -r) instead; needs a "
            + "JDK 22+ on Linux.")
    boolean local;

    @Option(names = "--sim-host", paramLabel = "<node>", description = "Node to attach at (default: a CA).")
    String simHost;

    @Option(names = "--seconds", defaultValue = "5", description = "Seconds per measurement (default: ${DEFAULT-VALUE}).")
    int seconds;

    @Override
    public Integer call() throws Exception {
        if (seconds < 1) {
            throw new IllegalArgumentException("--seconds must be >= 1");
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Process ibsim = null;
        Path dir = null;
        String host = "127.0.0.1";
        int port = 0;
        String sockname = null;
        String attach = simHost;
        if (server != null && local) {
            throw new IllegalArgumentException("--local starts an ibsim of its own: give --local or --ibsim, not both");
        }
        try {
            if (server == null) {
                dir = Files.createTempDirectory("ibtwin-bench-ibsim");
                Fabric f = FatTree.build(FatTreeSpec.of(2, 8, 16).withSpeed(LinkSpeed.HDR));
                Path net = dir.resolve("bench.topo");
                TopologyWriter.write(f, net);
                if (attach == null) {
                    attach = TopologyWriter.id(f.cas().get(0));
                }
                if (local) {
                    sockname = "ibtwin-bench-ibsim-" + ProcessHandle.current().pid();
                    err.println("bench ibsim: starting ibsim (local mode, " + sockname + ") on a 16-host fat tree ...");
                } else {
                    port = freeUdpPort();
                    err.println("bench ibsim: starting ibsim -r -l " + port + " on a 16-host fat tree ...");
                }
                err.flush();
                ibsim = startIbsim(net, port, sockname, dir);
            } else if (server.startsWith("@")) {
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
            IbsimClient client;
            try {
                client = sockname != null
                        ? IbsimClient.connectLocal(sockname, attach, false, IbsimClient.DEFAULT_CONNECT_TIMEOUT)
                        : IbsimClient.connect(host, port, attach, false);
            } catch (org.ibtwin.transport.MadTransportException e) {
                throw new IllegalArgumentException(e.getMessage());
            }
            try (IbsimClient c = client) {
                out.println("attached at " + c.attachedNode() + " (client " + c.clientId() + "), DR NodeInfo to the "
                        + "neighbour switch:");
                for (int inFlight : new int[] {1, 4}) {
                    out.println("  " + IbsimRoundTripBench.run(c, inFlight, Duration.ofSeconds(seconds)));
                    out.flush();
                }
            }
            return 0;
        } finally {
            if (ibsim != null) {
                ibsim.destroy();
                if (!ibsim.waitFor(3, TimeUnit.SECONDS)) {
                    ibsim.destroyForcibly().waitFor(3, TimeUnit.SECONDS);
                }
            }
            if (dir != null) {
                try (var files = Files.list(dir)) {
                    for (Path p : files.toList()) {
                        Files.deleteIfExists(p);
                    }
                }
                Files.deleteIfExists(dir);
            }
        }
    }

    /** ibsim on {@code net}: remote mode at {@code port}, or local mode when {@code sockname} is given. */
    private static Process startIbsim(Path net, int port, String sockname, Path dir)
            throws IOException, InterruptedException {
        Path log = dir.resolve("ibsim.out");
        ProcessBuilder pb = new ProcessBuilder(sockname != null
                ? java.util.List.of("ibsim", "-s", "-n", net.toString())
                : java.util.List.of("ibsim", "-r", "-l", Integer.toString(port), "-s", "-n", net.toString()))
                .redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put("IBSIM_SOCKNAME", sockname != null ? sockname
                : "ibtwin-bench-" + ProcessHandle.current().pid());
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot start ibsim (install ibsim-utils, or give --ibsim host:port)");
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            if (Files.readString(log).contains("Network simulator ready")) {
                return p;
            }
            if (!p.isAlive()) {
                throw new IllegalStateException("ibsim exited: " + Files.readString(log).strip());
            }
            Thread.sleep(50);
        }
        p.destroyForcibly();
        throw new IllegalStateException("ibsim did not get ready in 20 s");
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
