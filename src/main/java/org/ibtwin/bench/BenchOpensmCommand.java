package org.ibtwin.bench;

import static org.ibtwin.bench.OpensmHarness.mib;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.RandomAccessFile;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.net.BindException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.ibtwin.format.TopologyReader;
import org.ibtwin.format.TopologyWriter;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.lab.JitActivity;
import org.ibtwin.lab.Lab;
import org.ibtwin.lab.TwinWarmup;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.Node;
import org.ibtwin.sim.IbsimServer;
import org.ibtwin.sim.Twin;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ibtwin bench opensm}: real OpenSM's time to SUBNET UP on the twin and on real ibsim, the same generated fat
 * tree for both (written once by TopologyWriter, read back by the twin, loaded by {@code ibsim -r} with limits raised
 * to fit). For each size, one {@code opensm -o -R <routing>} a simulator, attached at the first CA, under
 * {@code LD_PRELOAD=libumad2sim.so}: launch to exit, launch to the log's SUBNET UP line, the log's first line to its
 * SUBNET UP line; whether every CA got a LID (OpenSM's guid2lid, and the twin's own PortInfo); OpenSM's and ibsim's
 * peak RSS; the twin's heap (after the fabric is loaded, and the peak during the run).
 *
 * <p>The twin runs in this JVM: give it the heap the size needs ({@code IBTWIN_JAVA_OPTS=-Xmx8g}). Sizes are host
 * counts, or {@code max}: the largest 3-level fat tree (radix 64) whose CAs and switches fit one subnet's unicast LID
 * space (49,151 LIDs): 45,551 CAs and 3,600 switches. Not a unit test: it takes minutes at large sizes.
 */
@Command(name = "opensm", mixinStandardHelpOptions = true,
        description = "OpenSM's time to SUBNET UP on the twin and on real ibsim, same fat tree.",
        footer = {"", "Example: IBTWIN_JAVA_OPTS=-Xmx8g ibtwin bench opensm --hosts 128,1024,8192 --twin-only max"})
public final class BenchOpensmCommand extends Bench {
    /** Twin runs so far in this JVM: each local-mode endpoint's name is its own. */
    private static final AtomicInteger RUNS = new AtomicInteger();


    @Option(names = "--hosts", split = ",", defaultValue = "128,1024", paramLabel = "<n|max>",
            description = "Sizes run on the twin and on real ibsim, a pair each, every other pair ibsim first "
                    + "(default: ${DEFAULT-VALUE}).")
    List<String> hosts;

    @Option(names = "--pairs", defaultValue = "1", paramLabel = "<n>",
            description = "Pairs (a twin run and an ibsim run) of each size, every other pair ibsim first; the "
                    + "summary gives the median twin/ibsim ratio (default: ${DEFAULT-VALUE}).")
    int pairs;

    @Option(names = "--twin-only", split = ",", paramLabel = "<n|max>",
            description = "Sizes run on the twin alone (e.g. max).")
    List<String> twinOnly = new ArrayList<>();

    @Option(names = "--routing", defaultValue = "minhop",
            description = "OpenSM routing engine (default: ${DEFAULT-VALUE}).")
    String routing;

    @Option(names = "--warmup", paramLabel = "<seconds>", defaultValue = "2",
            description = "Seconds the twin warms its JIT on a scratch twin before each run, as ibtwin sim does "
                    + "(counted in its ready_s; default: ${DEFAULT-VALUE}).")
    double warmup;

    @Option(names = "--timeout", defaultValue = "1800",
            description = "Seconds an OpenSM run may take before it is killed (default: ${DEFAULT-VALUE}).")
    int timeout;

    @Option(names = "--port", defaultValue = "17700",
            description = "Lowest UDP control port to use; the simulators take free ranges of 11 from here to +90.")
    int basePort;

    @Option(names = "--keep", paramLabel = "<dir>", description = "Keep the files (topologies, logs) in this directory.")
    Path keep;

    @Option(names = "--opensm-arg", paramLabel = "<arg>", description = "An extra OpenSM argument (repeatable).")
    List<String> opensmArgs = new ArrayList<>();

    @Option(names = "--umad2sim", paramLabel = "<path>", description = "libumad2sim.so (default: looked up).")
    Path umad2sim;

    @Option(names = "--local", description = "Both simulators in ibsim's local mode (unix sockets: ibsim without -r, "
            + "the twin as sim --local) instead of UDP; needs a JDK 22+ on Linux.")
    boolean local;

    private PrintWriter out;
    private PrintWriter err;
    private OpensmHarness harness;

    /** One OpenSM run on one simulator. */
    record Run(String side, int hosts, int switches, double loadSeconds, double readySeconds, int exit,
               double launchToExit, double launchToUp, double logFirstToUp, int casWithLid, int twinCasWithLid,
               int errLines, long opensmRssKb, long ibsimRssKb, long heapAfterLoad, long heapPeak, double simCpu,
               double jitCpu, String gc, long bytesPerMad, String note) {
    }

    @Override
    public Integer call() throws Exception {
        out = spec.commandLine().getOut();
        err = spec.commandLine().getErr();
        harness = new OpensmHarness(routing, timeout, basePort, local, opensmArgs, err);
        if (timeout < 1) {
            throw new IllegalArgumentException("--timeout must be >= 1");
        }
        if (pairs < 1) {
            throw new IllegalArgumentException("--pairs must be >= 1");
        }
        if (local && !IbsimServer.socketImplementation().equals("libc")) {
            throw new IllegalArgumentException("--local: the twin serves ibsim's local mode on a JDK 22 or later on "
                    + "Linux only (this is " + Runtime.version().feature() + ")");
        }
        Path opensm = Processes.executable("opensm").orElseThrow(() -> new IllegalArgumentException(
                "opensm not found (install opensm)"));
        Path so = umad2sim != null ? umad2sim : Processes.findUmad2sim().orElseThrow(() -> new IllegalArgumentException(
                "libumad2sim.so not found (install libumad2sim0)"));
        Optional<Path> ibsim = Processes.executable("ibsim");
        if (hosts.stream().anyMatch(h -> !h.isBlank()) && ibsim.isEmpty()) {
            throw new IllegalArgumentException("ibsim not found (install ibsim-utils), or use --twin-only");
        }
        Path root = keep != null ? Files.createDirectories(keep) : Files.createTempDirectory("ibtwin-bench-opensm");
        out.printf(Locale.ROOT, "bench opensm: opensm -o -R %s%s; %s; twin JVM max heap %s, %s sockets; files in %s%n",
                routing, opensmArgs.isEmpty() ? "" : " " + String.join(" ", opensmArgs),
                local ? "ibsim's local mode (unix sockets)" : "UDP (ibsim -r)", mib(Runtime.getRuntime().maxMemory()),
                IbsimServer.socketImplementation(), root);
        out.println(header());
        out.flush();
        List<Run> runs = new ArrayList<>();
        try {
            int pair = 0;
            for (String h : hosts) {
                if (h.isBlank()) {
                    continue;
                }
                FatTreeSpec s = OpensmHarness.spec(h);
                Path dir = Files.createDirectories(root.resolve("h" + s.hosts()));
                Path topo = harness.writeTopology(s, dir);
                for (int i = 0; i < pairs; i++) {
                    // every other pair the other way round, so that neither side always runs first
                    if (pair++ % 2 == 0) {
                        runs.add(print(twin(s, topo, Processes.fresh(dir, "twin"), opensm, so)));
                        runs.add(print(ibsim(s, topo, Processes.fresh(dir, "ibsim"), opensm, so,
                                ibsim.orElseThrow())));
                    } else {
                        runs.add(print(ibsim(s, topo, Processes.fresh(dir, "ibsim"), opensm, so,
                                ibsim.orElseThrow())));
                        runs.add(print(twin(s, topo, Processes.fresh(dir, "twin"), opensm, so)));
                    }
                }
            }
            for (String h : twinOnly) {
                if (h.isBlank()) {
                    continue;
                }
                FatTreeSpec s = OpensmHarness.spec(h);
                Path dir = Files.createDirectories(root.resolve("h" + s.hosts()));
                Path topo = harness.writeTopology(s, dir);
                runs.add(print(twin(s, topo, Processes.fresh(dir, "twin"), opensm, so)));
            }
        } finally {
            if (keep == null) {
                Processes.deleteTree(root);
            }
        }
        out.println();
        out.println("summary:");
        out.println(header());
        runs.forEach(r -> out.println(row(r)));
        for (Ratio q : ratios(runs)) {
            out.println(ratioLine(q));
        }
        out.flush();
        return 0;
    }

    /**
     * One size's pairs: the twin's launch-to-SUBNET-UP over ibsim's, pair by pair (median, range), and each side's
     * median simulator CPU seconds; over the pairs where both came up.
     */
    record Ratio(int hosts, int pairs, double median, double min, double max, int twinSlower, double twinCpu,
                 double ibsimCpu) {
    }

    /** The pairs of {@code runs} (a twin and an ibsim run of one size, either order, next to each other) by size. */
    static List<Ratio> ratios(List<Run> runs) {
        Map<Integer, List<double[]>> bySize = new java.util.LinkedHashMap<>();
        for (int i = 0; i + 1 < runs.size(); i++) {
            Run a = runs.get(i);
            Run b = runs.get(i + 1);
            if (a.hosts() != b.hosts() || a.side().equals(b.side())) {
                continue;
            }
            i++;
            Run twin = a.side().equals("twin") ? a : b;
            Run sim = twin == a ? b : a;
            if (twin.launchToUp() > 0 && sim.launchToUp() > 0) {
                bySize.computeIfAbsent(twin.hosts(), k -> new ArrayList<>()).add(new double[] {
                    twin.launchToUp() / sim.launchToUp(), twin.simCpu(), sim.simCpu()});
            }
        }
        List<Ratio> out = new ArrayList<>();
        bySize.forEach((hosts, ps) -> {
            double[] r = ps.stream().mapToDouble(p -> p[0]).sorted().toArray();
            out.add(new Ratio(hosts, r.length, median(r), r[0], r[r.length - 1],
                    (int) ps.stream().filter(p -> p[0] > 1).count(),
                    median(ps.stream().mapToDouble(p -> p[1]).sorted().toArray()),
                    median(ps.stream().mapToDouble(p -> p[2]).sorted().toArray())));
        });
        return out;
    }

    private static double median(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    static String ratioLine(Ratio q) {
        return String.format(Locale.ROOT, "%d CAs, %d pairs: twin/ibsim launch to SUBNET UP median %.3fx (%.3f-%.3f), "
                + "twin slower in %d; sim_cpu median twin %.2f s, ibsim %.2f s", q.hosts(), q.pairs(), q.median(),
                q.min(), q.max(), q.twinSlower(), q.twinCpu(), q.ibsimCpu());
    }

    // ---------------------------------------------------------------- the two sides

    private Run twin(FatTreeSpec s, Path topo, Path dir, Path opensm, Path so) throws Exception {
        Files.createDirectories(dir);
        System.gc();
        long t0 = System.nanoTime();
        Fabric f = TopologyReader.read(topo);
        Twin twin = Lab.of(f).noSm().start().twin();   // no SM of ours: real OpenSM manages it
        double load = seconds(System.nanoTime() - t0);
        System.gc();
        long heapAfterLoad = Jvm.usedHeap();
        Jvm.resetPeaks();
        String simHost = TopologyWriter.id(f.cas().get(0));
        OpensmHarness.OpensmRun r;
        double ready;
        double cpu0;
        double cpu1;
        long jit0;
        long jit1;
        long[] gc0;
        long[] gc1;
        long alloc0;
        long alloc1;
        long mads0;
        long mads1;
        TwinWarmup warm = TwinWarmup.around(name -> twin.attach(name, 0));
        String sockname = local ? "ibtwin-bench-" + ProcessHandle.current().pid() + "-twin-" + RUNS.incrementAndGet()
                : null;
        try (IbsimServer server = harness.startServer(warm.attachPoint(), sockname)) {
            Duration budget = Duration.ofMillis(Math.round(warmup * 1000));
            ready = seconds(warm.run(server, budget).took().toNanos());
            OpensmHarness.Endpoint at = local ? OpensmHarness.Endpoint.local(sockname)
                    : OpensmHarness.Endpoint.udp(server.port());
            cpu0 = Processes.cpuSeconds(ProcessHandle.current());
            jit0 = JitActivity.compilerCpuNanos();
            gc0 = Jvm.gcTotals();
            alloc0 = Jvm.allocatedBytes();
            mads0 = twin.processed();
            r = harness.opensm(opensm, so, at, simHost, dir, null);
            cpu1 = Processes.cpuSeconds(ProcessHandle.current());
            jit1 = JitActivity.compilerCpuNanos();
            gc1 = Jvm.gcTotals();
            alloc1 = Jvm.allocatedBytes();
            mads1 = twin.processed();
        }
        long heapPeak = Jvm.peakHeap();
        int twinLids = 0;
        for (Node ca : f.cas()) {
            if (twin.lid(ca.name(), 1) != 0) {
                twinLids++;
            }
        }
        int withLid = OpensmHarness.casWithLid(f, dir.resolve("guid2lid"));
        return new Run("twin", s.hosts(), f.switches().size(), load, ready, r.exit(), r.launchToExit(), r.launchToUp(),
                r.logFirstToUp(), withLid, twinLids, r.errLines(), r.rssKb(), 0, heapAfterLoad, heapPeak, cpu1 - cpu0,
                (jit1 - jit0) / 1e9, (gc1[0] - gc0[0]) + "/" + (gc1[1] - gc0[1]),
                alloc0 < 0 || alloc1 < 0 || mads1 == mads0 ? -1 : (alloc1 - alloc0) / (mads1 - mads0), r.note());
    }

    private Run ibsim(FatTreeSpec s, Path topo, Path dir, Path opensm, Path so, Path ibsim) throws Exception {
        Fabric f = TopologyReader.read(topo);
        String simHost = TopologyWriter.id(f.cas().get(0));
        OpensmHarness.RealIbsim sim = harness.startIbsim(ibsim, f, topo, dir);
        if (sim.process() == null) {
            return new Run("ibsim", s.hosts(), f.switches().size(), 0, 0, -1, 0, -1, -1, 0, -1, 0, 0, 0, 0, 0, -1, -1,
                    "-", -1, sim.note());
        }
        OpensmHarness.OpensmRun r;
        long ibsimRss;
        double cpu;
        try {
            double cpu0 = Processes.cpuSeconds(sim.process().toHandle());
            r = harness.opensm(opensm, so, sim.endpoint(), simHost, dir, sim.process());
            cpu = Processes.cpuSeconds(sim.process().toHandle()) - cpu0;
            ibsimRss = Processes.rssKb(sim.process().pid());
        } finally {
            Processes.stop(sim.process());
        }
        int withLid = OpensmHarness.casWithLid(f, dir.resolve("guid2lid"));
        return new Run("ibsim", s.hosts(), f.switches().size(), 0, sim.readySeconds(), r.exit(), r.launchToExit(),
                r.launchToUp(), r.logFirstToUp(), withLid, -1, r.errLines(), r.rssKb(), ibsimRss, 0, 0, cpu, -1, "-", -1,
                r.note());
    }

    // ---------------------------------------------------------------- output

    private static String header() {
        return String.format(Locale.ROOT,
                "%-6s %7s %6s %8s %8s %5s %9s %9s %9s %12s %8s %9s %9s %9s %9s %8s %8s %8s %6s  %s",
                "side", "CAs", "sw", "load_s", "ready_s", "exit", "launch_up", "log_up", "launch_ex", "CAs_w/LID",
                "ERRs", "osm_RSS", "sim_RSS", "heap_load", "heap_peak", "sim_cpu", "jit_cpu", "gc_n/ms", "B/MAD",
                "note");
    }

    private static String row(Run r) {
        return String.format(Locale.ROOT,
                "%-6s %7d %6d %8.2f %8.2f %5d %9.2f %9.2f %9.2f %12s %8d %9s %9s %9s %9s %8s %8s %8s %6s  %s",
                r.side(), r.hosts(), r.switches(), r.loadSeconds(), r.readySeconds(), r.exit(), r.launchToUp(),
                r.logFirstToUp(), r.launchToExit(), r.casWithLid() + (r.twinCasWithLid() >= 0 ? "/" + r.twinCasWithLid()
                        : ""), r.errLines(), mib(r.opensmRssKb() * 1024), r.ibsimRssKb() > 0
                        ? mib(r.ibsimRssKb() * 1024) : "-", r.heapAfterLoad() > 0 ? mib(r.heapAfterLoad()) : "-",
                r.heapPeak() > 0 ? mib(r.heapPeak()) : "-", cpu(r.simCpu()), cpu(r.jitCpu()), r.gc(),
                r.bytesPerMad() >= 0 ? Long.toString(r.bytesPerMad()) : "-", r.note());
    }

    private static String cpu(double seconds) {
        return seconds >= 0 ? String.format(Locale.ROOT, "%.2f", seconds) : "-";
    }

    private Run print(Run r) {
        out.println(row(r));
        out.flush();
        return r;
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }

    /** Runs as {@code java -Xmx8g -cp ibtwin.jar org.ibtwin.bench.BenchOpensmCommand ...}, outside ibtwin bench. */
    public static void main(String[] args) {
        System.exit(new CommandLine(new BenchOpensmCommand()).execute(args));
    }
}
