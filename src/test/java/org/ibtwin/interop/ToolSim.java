package org.ibtwin.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.ibtwin.cli.Cli;
import org.ibtwin.diag.MadQuery;
import org.ibtwin.format.TopologyWriter;
import org.ibtwin.model.Fabric;
import org.ibtwin.sim.IbsimServer;
import org.ibtwin.transport.IbsimClient;
import org.junit.jupiter.api.Assumptions;

/**
 * A simulator on a test's band of UDP ports (a real {@code ibsim -r}, or the twin's own endpoint) with the real tools
 * (through libumad2sim, {@link UmadClient}) and ours (in this JVM, {@code --ibsim}) as its clients: what the tests
 * that hold a real tool's output against ours share. Closing it stops the simulator it started.
 */
record ToolSim(RealTools tools, Runnable stop, int port, Path dir, UmadClient client, Duration timeout)
        implements AutoCloseable {
    /** Where ibsim-utils installs its example net file. */
    static final Path IBSIM_EXAMPLE = Path.of("/usr/share/doc/ibsim-utils/net-examples/net");

    /** What one run printed, and how it ended. */
    record Result(String command, int exit, String out, String err) {
    }

    private ToolSim(RealTools tools, Runnable stop, int port, Path dir, Duration timeout) {
        this(tools, stop, port, dir, new UmadClient(tools.umad2sim, port, dir, null, timeout), timeout);
    }

    /** A real {@code ibsim -r} on {@code net}, on a free range of {@code first..last}; ready within 10 s. */
    static ToolSim start(RealTools tools, Path net, Path dir, int first, int last, Duration timeout)
            throws IOException, InterruptedException {
        RemoteIbsim ibsim = RemoteIbsim.start(tools.ibsim, net, first, last, List.of(), Duration.ofSeconds(10));
        return new ToolSim(tools, ibsim::close, ibsim.port(), dir, timeout);
    }

    /** The twin's endpoint, already serving; closing this closes it. */
    static ToolSim on(RealTools tools, IbsimServer twin, Path dir, Duration timeout) {
        return new ToolSim(tools, twin::close, twin.port(), dir, timeout);
    }

    /** ibsim's example net copied into {@code dir} as {@code net}; the calling test is skipped where it is missing. */
    static Path ibsimExample(Path dir) throws IOException {
        Assumptions.assumeTrue(Files.isRegularFile(IBSIM_EXAMPLE), "no ibsim example installed");
        Path net = dir.resolve("net");
        Files.copy(IBSIM_EXAMPLE, net);
        return net;
    }

    /** {@code fabric} written by our TopologyWriter to {@code dir/file}: a net file ibsim loads. */
    static Path topology(Fabric fabric, Path dir, String file) throws IOException {
        Path net = dir.resolve(file);
        TopologyWriter.write(fabric, net);
        return net;
    }

    /** One real {@code opensm -o} (LIDs for everyone), which must end with 0. */
    void sweep(String... extra) throws IOException, InterruptedException {
        List<String> a = new ArrayList<>(List.of("-o", "-f", dir.resolve("opensm.log").toString()));
        a.addAll(List.of(extra));
        Result sm = real(tools.opensm, a.toArray(String[]::new));
        assertThat(sm.exit()).as("opensm -o\n" + sm.out() + sm.err()).isZero();
    }

    /** A real tool, as a client of this simulator where it attaches clients; one still running at the timeout fails. */
    Result real(Path exe, String... args) throws IOException, InterruptedException {
        return result(client.run(exe, args));
    }

    /** The real {@code tool} attached at {@code node} (null: where the simulator attaches clients). */
    Result realAt(String node, String tool, String... args) throws IOException, InterruptedException {
        return result(client.withSimHost(node).run(RealTools.executable(tool).orElseThrow(), args));
    }

    private Result result(UmadClient.Result r) {
        if (r.timedOut()) {
            fail(r.command() + " still running after " + timeout.toSeconds() + " s\n" + r.err());
        }
        return new Result(r.command(), r.exit(), r.out(), r.err());
    }

    /** Ours, in this JVM: {@code ibtwin TOOL --ibsim HOST:PORT ARGS...} ({@code args[0]} is the tool). */
    Result ours(String... args) {
        return oursAt(null, args);
    }

    /** Ours: {@code ibtwin TOOL --ibsim HOST:PORT ARGS...}. */
    Result ours(String tool, String[] args) {
        String[] a = new String[args.length + 1];
        a[0] = tool;
        System.arraycopy(args, 0, a, 1, args.length);
        return oursAt(null, a);
    }

    /** Ours attached at {@code node} ({@code --sim-host}; null: where the simulator attaches clients). */
    Result oursAt(String node, String... args) {
        List<String> a = new ArrayList<>(List.of(args[0], "--ibsim", RemoteIbsim.HOST + ":" + port));
        if (node != null) {
            a.addAll(List.of("--sim-host", node));
        }
        a.addAll(Arrays.asList(args).subList(1, args.length));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int rc = Cli.execute(out, err, a.toArray(String[]::new));
        return new Result("ibtwin " + String.join(" ", a), rc, out.toString(), err.toString());
    }

    /** A real OpenSM left running (the SA, for the tools' -G), until closed; it returns once the SA answers. */
    RunningSm startSm() throws IOException, InterruptedException {
        Path smLog = dir.resolve("opensm-sa.log");
        ProcessBuilder pb = new ProcessBuilder(tools.opensm.toString(), "-f", smLog.toString())
                .directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("opensm-sa.out").toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        client.env(pb.environment());
        Process p = pb.start();
        RunningSm sm = new RunningSm(p);
        // the SA answers once the subnet is up (OpenSM's log is written late): ask it for our own port
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        try (IbsimClient c = IbsimClient.connect(RemoteIbsim.HOST, port, null, false)) {
            MadQuery q = new MadQuery(c).timeout(Duration.ofMillis(200)).attempts(1);
            while (true) {
                try {
                    c.refreshLocalPort();
                    org.ibtwin.diag.Resolver.guid(q, c.localPort().portGuid(), 0);
                    break;
                } catch (org.ibtwin.diag.QueryException e) {
                    if (!p.isAlive() || System.nanoTime() > deadline) {
                        sm.close();
                        fail("opensm's SA did not answer:\n" + RealTools.tail(RealTools.read(smLog)));
                    }
                    Thread.sleep(50);
                }
            }
        }
        return sm;
    }

    /** An OpenSM {@link #startSm()} left running; closing it stops it. */
    record RunningSm(Process process) implements AutoCloseable {
        @Override
        public void close() {
            RealTools.stop(process);
        }
    }

    /** The ports of a node to query: a switch's every port, 0 included; a CA's the one it was reached by. */
    static List<Integer> ports(boolean isSwitch, int numPorts, int port) {
        List<Integer> p = new ArrayList<>();
        if (isSwitch) {
            for (int i = 0; i <= numPorts; i++) {
                p.add(i);
            }
        } else {
            p.add(port);
        }
        return p;
    }

    /** Stops the simulator this started (or closes the twin's endpoint it was given). */
    @Override
    public void close() {
        stop.run();
    }
}
