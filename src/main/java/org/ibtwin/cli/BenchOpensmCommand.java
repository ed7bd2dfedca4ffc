package org.ibtwin.cli;

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
import java.util.concurrent.Callable;
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
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

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
public final class BenchOpensmCommand implements Callable<Integer> {
    /** Unicast LIDs 1..0xBFFF. */
    static final int UNICAST_LIDS = 0xBFFF;
    static final int MAX_RADIX = 64;
    private static final int SLOTS = 10;
    private static final String READY = "Network simulator ready.";
    /** Twin runs so far in this JVM: each local-mode endpoint's name is its own. */
    private static final AtomicInteger RUNS = new AtomicInteger();
    static final Pattern LOG_TIME = Pattern.compile("^(\\w{3}) +(\\d{1,2}) (\\d\\d):(\\d\\d):(\\d\\d) (\\d{6}) ");

    @Spec
    CommandSpec spec;

    @Option(names = "--hosts", split = ",", defaultValue = "128,1024", paramLabel = "<n|max>",
            description = "Sizes run on the twin and on real ibsim, a pair each, every other pair ibsim first "
                    + "(default: ${DEFAULT-VALUE}).")
    List<String> hosts;

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

    /** One OpenSM run on one simulator. */
    record Run(String side, int hosts, int switches, double loadSeconds, double readySeconds, int exit,
               double launchToExit, double launchToUp, double logFirstToUp, int casWithLid, int twinCasWithLid,
               int errLines, long opensmRssKb, long ibsimRssKb, long heapAfterLoad, long heapPeak, double simCpu,
               double jitCpu, String gc, long bytesPerMad, String note) {
    }

    /**
     * The OpenSM and ibsim runs of this bench for another one ({@code bench sm --ibsim}): OpenSM with {@code -R
     * routing}, each run killed after {@code timeoutSeconds}, simulators on free ranges from {@code port}, progress
     * lines to {@code err}.
     */
    static BenchOpensmCommand runner(String routing, int timeoutSeconds, int port, PrintWriter err) {
        BenchOpensmCommand b = new BenchOpensmCommand();
        b.routing = routing;
        b.timeout = timeoutSeconds;
        b.basePort = port;
        b.out = err;
        b.err = err;
        return b;
    }

    @Override
    public Integer call() throws Exception {
        out = spec.commandLine().getOut();
        err = spec.commandLine().getErr();
        if (timeout < 1) {
            throw new IllegalArgumentException("--timeout must be >= 1");
        }
        if (local && !IbsimServer.socketImplementation().equals("libc")) {
            throw new IllegalArgumentException("--local: the twin serves ibsim's local mode on a JDK 22 or later on "
                    + "Linux only (this is " + Runtime.version().feature() + ")");
        }
        Path opensm = executable("opensm").orElseThrow(() -> new IllegalArgumentException(
                "opensm not found (install opensm)"));
        Path so = umad2sim != null ? umad2sim : findUmad2sim().orElseThrow(() -> new IllegalArgumentException(
                "libumad2sim.so not found (install libumad2sim0)"));
        Optional<Path> ibsim = executable("ibsim");
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
                FatTreeSpec s = spec(h);
                Path dir = Files.createDirectories(root.resolve("h" + s.hosts()));
                Path topo = writeTopology(s, dir);
                // every other pair the other way round, so that neither side always runs first
                if (pair++ % 2 == 0) {
                    runs.add(print(twin(s, topo, fresh(dir, "twin"), opensm, so)));
                    runs.add(print(ibsim(s, topo, fresh(dir, "ibsim"), opensm, so, ibsim.orElseThrow())));
                } else {
                    runs.add(print(ibsim(s, topo, fresh(dir, "ibsim"), opensm, so, ibsim.orElseThrow())));
                    runs.add(print(twin(s, topo, fresh(dir, "twin"), opensm, so)));
                }
            }
            for (String h : twinOnly) {
                if (h.isBlank()) {
                    continue;
                }
                FatTreeSpec s = spec(h);
                Path dir = Files.createDirectories(root.resolve("h" + s.hosts()));
                Path topo = writeTopology(s, dir);
                runs.add(print(twin(s, topo, fresh(dir, "twin"), opensm, so)));
            }
        } finally {
            if (keep == null) {
                deleteTree(root);
            }
        }
        out.println();
        out.println("summary:");
        out.println(header());
        runs.forEach(r -> out.println(row(r)));
        out.flush();
        return 0;
    }

    // ---------------------------------------------------------------- sizes

    /**
     * A size: the smallest even radix from 40 (an HDR switch) whose tree holds the hosts, 2 levels when they fit;
     * "max": radix 64, 3 levels, the most hosts whose CAs and switches fit the unicast LIDs.
     */
    static FatTreeSpec spec(String size) {
        if (size.strip().equalsIgnoreCase("max")) {
            int lo = 1;
            int hi = (int) Math.min(FatTreeSpec.maxHosts(3, MAX_RADIX, 1), UNICAST_LIDS);
            while (lo < hi) {
                int mid = (lo + hi + 1) >>> 1;
                if (mid + FatTree.plan(FatTreeSpec.of(3, MAX_RADIX, mid)).switches() <= UNICAST_LIDS) {
                    lo = mid;
                } else {
                    hi = mid - 1;
                }
            }
            return FatTreeSpec.of(3, MAX_RADIX, lo).withSpeed(LinkSpeed.HDR);
        }
        int n;
        try {
            n = Integer.parseInt(size.strip().replace("_", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("size: expected a host count or max, got '" + size + "'");
        }
        if (n < 2) {
            throw new IllegalArgumentException("size: at least 2 hosts, got " + n);
        }
        for (int r = 40; r <= FatTreeSpec.MAX_RADIX; r += 2) {
            for (int levels = 2; levels <= 3; levels++) {
                if (FatTreeSpec.maxHosts(levels, r, 1) >= n) {
                    FatTreeSpec s = FatTreeSpec.of(levels, r, n).withSpeed(LinkSpeed.HDR);
                    if (n + FatTree.plan(s).switches() > UNICAST_LIDS) {
                        throw new IllegalArgumentException(n + " hosts and their switches do not fit "
                                + UNICAST_LIDS + " unicast LIDs (max: use 'max')");
                    }
                    return s;
                }
            }
        }
        throw new IllegalArgumentException(n + " hosts: too many for a 3-level fat tree");
    }

    /** {@code dir/side}, or {@code dir/side-2}, ... : a directory no run has used (OpenSM's cache starts empty). */
    static Path fresh(Path dir, String side) {
        Path p = dir.resolve(side);
        for (int i = 2; Files.exists(p); i++) {
            p = dir.resolve(side + "-" + i);
        }
        return p;
    }

    Path writeTopology(FatTreeSpec s, Path dir) throws IOException {
        Path topo = dir.resolve("fabric.topo");
        if (!Files.exists(topo)) {
            long t0 = System.nanoTime();
            Fabric f = FatTree.build(s);
            TopologyWriter.write(f, topo);
            err.printf(Locale.ROOT, "  %d hosts: %d-level fat tree, radix %d, %d switches, written in %.1f s%n",
                    s.hosts(), s.levels(), s.radix(), FatTree.plan(s).switches(), seconds(System.nanoTime() - t0));
            err.flush();
        }
        return topo;
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
        long heapAfterLoad = usedHeap();
        resetPeaks();
        String simHost = TopologyWriter.id(f.cas().get(0));
        OpensmRun r;
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
        try (IbsimServer server = startServer(warm.attachPoint(), sockname)) {
            Duration budget = Duration.ofMillis(Math.round(warmup * 1000));
            ready = seconds(warm.run(server, budget).took().toNanos());
            Endpoint at = local ? Endpoint.local(sockname) : Endpoint.udp(server.port());
            cpu0 = cpuSeconds(ProcessHandle.current());
            jit0 = JitActivity.compilerCpuNanos();
            gc0 = gcTotals();
            alloc0 = allocatedBytes();
            mads0 = twin.processed();
            r = opensm(opensm, so, at, simHost, dir, null);
            cpu1 = cpuSeconds(ProcessHandle.current());
            jit1 = JitActivity.compilerCpuNanos();
            gc1 = gcTotals();
            alloc1 = allocatedBytes();
            mads1 = twin.processed();
        }
        long heapPeak = peakHeap();
        int twinLids = 0;
        for (Node ca : f.cas()) {
            if (twin.lid(ca.name(), 1) != 0) {
                twinLids++;
            }
        }
        int withLid = casWithLid(f, dir.resolve("guid2lid"));
        return new Run("twin", s.hosts(), f.switches().size(), load, ready, r.exit, r.launchToExit, r.launchToUp,
                r.logFirstToUp, withLid, twinLids, r.errLines, r.rssKb, 0, heapAfterLoad, heapPeak, cpu1 - cpu0,
                (jit1 - jit0) / 1e9, (gc1[0] - gc0[0]) + "/" + (gc1[1] - gc0[1]),
                alloc0 < 0 || alloc1 < 0 || mads1 == mads0 ? -1 : (alloc1 - alloc0) / (mads1 - mads0), r.note);
    }

    private Run ibsim(FatTreeSpec s, Path topo, Path dir, Path opensm, Path so, Path ibsim) throws Exception {
        Fabric f = TopologyReader.read(topo);
        String simHost = TopologyWriter.id(f.cas().get(0));
        RealIbsim sim = startIbsim(ibsim, f, topo, dir);
        if (sim.process() == null) {
            return new Run("ibsim", s.hosts(), f.switches().size(), 0, 0, -1, 0, -1, -1, 0, -1, 0, 0, 0, 0, 0, -1, -1,
                    "-", -1, sim.note());
        }
        OpensmRun r;
        long ibsimRss;
        double cpu;
        try {
            double cpu0 = cpuSeconds(sim.process().toHandle());
            r = opensm(opensm, so, sim.endpoint(), simHost, dir, sim.process());
            cpu = cpuSeconds(sim.process().toHandle()) - cpu0;
            ibsimRss = rssKb(sim.process().pid());
        } finally {
            stop(sim.process());
        }
        int withLid = casWithLid(f, dir.resolve("guid2lid"));
        return new Run("ibsim", s.hosts(), f.switches().size(), 0, sim.readySeconds(), r.exit, r.launchToExit,
                r.launchToUp, r.logFirstToUp, withLid, -1, r.errLines, r.rssKb, ibsimRss, 0, 0, cpu, -1, "-", -1,
                r.note);
    }

    /** Where libumad2sim finds a simulator: a UDP control port on loopback, or a local-mode basename. */
    record Endpoint(int port, String sockname) {
        static Endpoint udp(int port) {
            return new Endpoint(port, null);
        }

        static Endpoint local(String sockname) {
            return new Endpoint(0, sockname);
        }

        /** Sets a client's libumad2sim environment for this endpoint. */
        void pointAt(Map<String, String> env) {
            for (String k : new String[] {"IBSIM_SOCKNAME", "IBSIM_SERVER_NAME", "IBSIM_SERVER_PORT"}) {
                env.remove(k);
            }
            if (sockname != null) {
                env.put("IBSIM_SOCKNAME", sockname);
            } else {
                env.put("IBSIM_SERVER_NAME", "127.0.0.1");
                env.put("IBSIM_SERVER_PORT", Integer.toString(port));
            }
        }
    }

    /**
     * A real {@code ibsim} started for one run: its process (null when it did not start, see note), and where its
     * clients find it.
     */
    record RealIbsim(Process process, Endpoint endpoint, double readySeconds, String note) {
    }

    /**
     * Starts a fresh {@code ibsim -r -l PORT -s -n} with its limits on {@code topo} in {@code dir} (created), on a
     * free range from --port, and waits for it to be ready; the caller stops the process ({@link #stop}).
     */
    RealIbsim startIbsim(Path ibsim, Fabric f, Path topo, Path dir) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        List<String> cmd = new ArrayList<>(List.of(ibsim.toString(), "-l", "0", "-s", "-n"));
        if (!local) {
            cmd.add(1, "-r");
        }
        cmd.addAll(limits(f));
        cmd.add(topo.toAbsolutePath().toString());
        long t0 = System.nanoTime();
        Path log = dir.resolve("ibsim.out");
        String note = "";
        for (int attempt = 0; attempt < 6; attempt++) {
            int port = freeRange();
            cmd.set(cmd.indexOf("-l") + 1, Integer.toString(port));
            String sockname = "ibtwin-bench-" + ProcessHandle.current().pid() + "-" + port;
            ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            pb.environment().remove("LD_PRELOAD");
            pb.environment().put("IBSIM_SOCKNAME", sockname);
            t0 = System.nanoTime();
            Process q = pb.start();
            while (q.isAlive() && !read(log).contains(READY)
                    && System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(timeout)) {
                Thread.sleep(20);
            }
            if (q.isAlive() && read(log).contains(READY)) {
                return new RealIbsim(q, local ? Endpoint.local(sockname) : Endpoint.udp(port),
                        seconds(System.nanoTime() - t0), "");
            }
            stop(q);
            note = "ibsim did not start: " + tail(read(log), 3);
        }
        return new RealIbsim(null, null, 0, note);
    }

    /** ibsim's -N, -S, -P (and -L when the LIDs need it), with a quarter of headroom over the fabric. */
    static List<String> limits(Fabric f) {
        long switches = 0;
        long ports = 0;
        long lids = 0;
        for (Node n : f.nodes()) {
            if (n.isSwitch()) {
                switches++;
                ports += n.numPorts() + 1;
                lids++;
            } else {
                ports += n.numPorts();
                lids += n.numPorts();
            }
        }
        List<String> a = new ArrayList<>(List.of("-N", Long.toString(Math.max(2048, headroom(f.size()))),
                "-S", Long.toString(Math.max(256, headroom(switches))),
                "-P", Long.toString(Math.max(13312, headroom(ports)))));
        if (headroom(lids) > 30720) {
            a.addAll(List.of("-L", "49152"));
        }
        return a;
    }

    private static long headroom(long n) {
        return n + n / 4 + 16;
    }

    // ---------------------------------------------------------------- OpenSM

    record OpensmRun(int exit, double launchToExit, double launchToUp, double logFirstToUp, int errLines,
                     long rssKb, String note) {
    }

    /** One {@code opensm -o}, attached at {@code simHost} of the simulator at {@code at}, watched to its end. */
    OpensmRun opensm(Path opensm, Path so, Endpoint at, String simHost, Path dir, Process simulator)
            throws IOException, InterruptedException {
        Path log = dir.resolve("opensm.log");
        List<String> cmd = new ArrayList<>(List.of(opensm.toString(), "-o", "-e", "-f", log.toString(), "-R",
                routing));
        cmd.addAll(opensmArgs);
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("opensm.out").toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        Map<String, String> env = pb.environment();
        env.remove("SIM_SET_ISSM");
        env.put("LD_PRELOAD", so.toString());
        at.pointAt(env);
        env.put("SIM_HOST", simHost);
        env.put("OSM_CACHE_DIR", dir.toString());
        env.put("OSM_TMP_DIR", dir.toString());
        long launchMillis = System.currentTimeMillis();
        long t0 = System.nanoTime();
        Process p = pb.start();
        long rss = 0;
        long seenUp = -1;
        long logOffset = 0;
        long lastReport = t0;
        String note = "";
        while (true) {
            if (p.waitFor(200, TimeUnit.MILLISECONDS)) {
                break;
            }
            long now = System.nanoTime();
            rss = Math.max(rss, rssKb(p.pid()));
            if (seenUp < 0) {
                long[] off = {logOffset};
                if (grow(log, off).contains("SUBNET UP")) {
                    seenUp = now - t0;
                }
                logOffset = off[0];
            }
            if (now - lastReport > TimeUnit.SECONDS.toNanos(60)) {
                lastReport = now;
                err.printf(Locale.ROOT, "    ... %.0f s, opensm RSS %s%s%n", seconds(now - t0), mib(rss * 1024),
                        seenUp >= 0 ? ", SUBNET UP seen" : "");
                err.flush();
            }
            if (simulator != null && !simulator.isAlive()) {
                note = "the simulator died";
                stop(p);
                break;
            }
            if (now - t0 > TimeUnit.SECONDS.toNanos(timeout)) {
                note = "killed after " + timeout + " s";
                stop(p);
                break;
            }
        }
        double launchToExit = seconds(System.nanoTime() - t0);
        int exit = p.isAlive() ? -1 : p.exitValue();
        String text = read(log);
        int errs = 0;
        LocalDateTime first = null;
        LocalDateTime up = null;
        for (String line : text.split("\n")) {
            if (line.contains(" ERR ")) {
                errs++;
            }
            Matcher m = LOG_TIME.matcher(line);
            if (m.find()) {
                LocalDateTime t = logTime(m);
                if (first == null) {
                    first = t;
                }
                if (up == null && line.contains("SUBNET UP")) {
                    up = t;
                }
            }
        }
        double launchToUp = -1;
        double firstToUp = -1;
        if (up != null) {
            long upMillis = up.atZone(ZoneId.systemDefault()).toInstant().toEpochMilli();
            launchToUp = (upMillis - launchMillis) / 1000.0;
            firstToUp = java.time.Duration.between(first, up).toNanos() / 1e9;
        } else if (note.isEmpty()) {
            note = "no SUBNET UP";
        }
        if (errs > 0) {
            note = (note.isEmpty() ? "" : note + "; ") + "first ERR: " + firstErr(text);
        }
        return new OpensmRun(exit, launchToExit, launchToUp, firstToUp, errs, rss, note);
    }

    private static String firstErr(String log) {
        for (String line : log.split("\n")) {
            if (line.contains(" ERR ")) {
                return line.length() > 160 ? line.substring(0, 160) : line;
            }
        }
        return "";
    }

    /** "Nov 30 05:56:48 375645": this year (or last, for a December log read in January), local time. */
    static LocalDateTime logTime(Matcher m) {
        LocalDateTime now = LocalDateTime.now();
        DateTimeFormatter f = DateTimeFormatter.ofPattern("yyyy MMM d H:m:s", Locale.ENGLISH);
        LocalDateTime t = LocalDateTime.parse(now.getYear() + " " + m.group(1) + " " + m.group(2) + " " + m.group(3)
                + ":" + m.group(4) + ":" + m.group(5), f).plusNanos(Long.parseLong(m.group(6)) * 1000);
        return t.isAfter(now.plusDays(1)) ? t.minusYears(1) : t;
    }

    /** The CAs whose port 1 GUID OpenSM's guid2lid file gives a LID. */
    static int casWithLid(Fabric f, Path guid2lid) throws IOException {
        if (!Files.exists(guid2lid)) {
            return 0;
        }
        Set<Long> lidded = new HashSet<>();
        for (String line : Files.readAllLines(guid2lid, StandardCharsets.UTF_8)) {
            String[] w = line.strip().split("\\s+");
            if (w.length >= 2 && w[0].startsWith("0x")) {
                try {
                    if (Integer.decode(w[1]) != 0) {
                        lidded.add(Long.parseUnsignedLong(w[0].substring(2), 16));
                    }
                } catch (NumberFormatException e) {
                    // not a guid2lid line
                }
            }
        }
        int n = 0;
        for (Node ca : f.cas()) {
            if (lidded.contains(ca.port(1).guid())) {
                n++;
            }
        }
        return n;
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

    /** The JVM's garbage collections so far and the milliseconds they took, all collectors together. */
    static long[] gcTotals() {
        long n = 0;
        long ms = 0;
        for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
            n += Math.max(0, b.getCollectionCount());
            ms += Math.max(0, b.getCollectionTime());
        }
        return new long[] {n, ms};
    }

    /** Bytes the JVM's threads have allocated so far; -1 where the JVM does not say. */
    static long allocatedBytes() {
        if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean t
                && t.isThreadAllocatedMemorySupported() && t.isThreadAllocatedMemoryEnabled()) {
            return t.getTotalThreadAllocatedBytes();
        }
        return -1;
    }

    private static String cpu(double seconds) {
        return seconds >= 0 ? String.format(Locale.ROOT, "%.2f", seconds) : "-";
    }

    private Run print(Run r) {
        out.println(row(r));
        out.flush();
        return r;
    }

    private static String mib(long bytes) {
        return bytes >= 10L << 30 ? String.format(Locale.ROOT, "%.1fG", bytes / (double) (1L << 30))
                : String.format(Locale.ROOT, "%dM", bytes >> 20);
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }

    // ---------------------------------------------------------------- memory

    private static long usedHeap() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static void resetPeaks() {
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP) {
                p.resetPeakUsage();
            }
        }
    }

    /** The heap pools' peaks added up: an upper bound of the heap in use at any one time since the reset. */
    private static long peakHeap() {
        long sum = 0;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP && p.getPeakUsage() != null) {
                sum += p.getPeakUsage().getUsed();
            }
        }
        return sum;
    }

    /** The CPU time a process has used so far, in seconds (0 when it is gone or the system does not tell). */
    static double cpuSeconds(ProcessHandle p) {
        return p.info().totalCpuDuration().map(d -> d.toNanos() / 1e9).orElse(0.0);
    }

    /** VmHWM (peak resident set) of a process, in KiB; 0 when unknown. */
    static long rssKb(long pid) {
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

    // ---------------------------------------------------------------- processes, ports, files

    /** The twin's endpoint: in local mode at {@code sockname}, else UDP on a free range from --port. */
    private IbsimServer startServer(org.ibtwin.sim.AttachPoint fabric, String sockname) throws IOException {
        if (sockname != null) {
            IbsimServer server = new IbsimServer(fabric);
            try {
                server.startLocal(sockname);
            } catch (IOException | RuntimeException e) {
                server.close();
                throw e;
            }
            return server;
        }
        BindException last = null;
        for (int attempt = 0; attempt < 8; attempt++) {
            IbsimServer server = new IbsimServer(fabric);
            try {
                server.start(InetAddress.getLoopbackAddress(), freeRange());
                return server;
            } catch (BindException e) {
                server.close();
                last = e;
            }
        }
        throw last;
    }

    /** A control port P in --port..--port+80 with P..P+10 free for UDP now. */
    private int freeRange() throws IOException {
        for (int tries = 0; tries < 100; tries++) {
            int base = basePort + ThreadLocalRandom.current().nextInt(81);
            List<DatagramSocket> held = new ArrayList<>();
            boolean free = true;
            try {
                for (int p = base; p <= base + SLOTS && free; p++) {
                    try {
                        held.add(new DatagramSocket(new InetSocketAddress((InetAddress) null, p)));
                    } catch (SocketException e) {
                        free = false;
                    }
                }
            } finally {
                held.forEach(DatagramSocket::close);
            }
            if (free) {
                return base;
            }
        }
        throw new IOException("no free UDP port range in " + basePort + ".." + (basePort + 90));
    }

    /** destroy, a few seconds' grace, then destroyForcibly: only the process given. */
    static void stop(Process p) throws InterruptedException {
        if (!p.isAlive()) {
            return;
        }
        p.destroy();
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }

    static Optional<Path> executable(String name) {
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

    static Optional<Path> findUmad2sim() {
        for (String p : new String[] {"/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so",
            "/usr/lib64/umad2sim/libumad2sim.so", "/usr/lib/umad2sim/libumad2sim.so"}) {
            if (Files.isRegularFile(Path.of(p))) {
                return Optional.of(Path.of(p));
            }
        }
        return Optional.empty();
    }

    private static String read(Path p) {
        try {
            return Files.exists(p) ? new String(Files.readAllBytes(p), StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            return "";
        }
    }

    /** What {@code p} gained since {@code offset[0]} (advanced). */
    private static String grow(Path p, long[] offset) {
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

    private static String tail(String s, int lines) {
        String[] l = s.strip().split("\n");
        return String.join(" | ", java.util.Arrays.copyOfRange(l, Math.max(0, l.length - lines), l.length));
    }

    static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** Runs as {@code java -Xmx8g -cp ibtwin.jar org.ibtwin.cli.BenchOpensmCommand ...} until BenchCommand lists it. */
    public static void main(String[] args) {
        System.exit(new CommandLine(new BenchOpensmCommand()).execute(args));
    }
}
