package org.ibtwin.bench;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.BindException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ibtwin.format.TopologyWriter;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.Node;
import org.ibtwin.sim.IbsimServer;

/**
 * The harness of the benches that run real OpenSM and real ibsim ({@code bench opensm}, {@code bench sm --ibsim},
 * {@code bench routing}): the fat tree for a size, its topology file, a real {@code ibsim} started on a free port
 * range (or in local mode) with its limits raised to fit, the twin's endpoint, one {@code opensm -o} under
 * {@code LD_PRELOAD=libumad2sim.so} watched to its end (exit, SUBNET UP, ERR lines, peak RSS), and OpenSM's log
 * times and guid2lid file read back.
 *
 * @param routing OpenSM's {@code -R} engine
 * @param timeout seconds a simulator's start or an OpenSM run may take before it is stopped
 * @param basePort the lowest UDP control port; simulators take free ranges of 11 from here to +90
 * @param local both simulators in ibsim's local mode (unix sockets) instead of UDP
 * @param opensmArgs extra OpenSM arguments
 * @param err where progress lines go
 */
public record OpensmHarness(String routing, int timeout, int basePort, boolean local, List<String> opensmArgs,
                            PrintWriter err) {
    /** Unicast LIDs 1..0xBFFF. */
    static final int UNICAST_LIDS = 0xBFFF;
    static final int MAX_RADIX = 64;
    /** ibsim 0.10's compiled-in limits; {@link #limits} only ever raises them. */
    private static final int IBSIM_MAX_NODES = 2048;
    private static final int IBSIM_MAX_SWITCHES = 256;
    private static final int IBSIM_MAX_PORTS = 13312;
    private static final int IBSIM_MAX_LINEAR_CAP = 30720;
    private static final String READY = "Network simulator ready.";
    /** The timestamp at the start of an OpenSM log line: "Nov 30 05:56:48 375645 ". */
    public static final Pattern LOG_TIME = Pattern.compile("^(\\w{3}) +(\\d{1,2}) (\\d\\d):(\\d\\d):(\\d\\d) (\\d{6}) ");

    /** The real programs the ibsim benches run: opensm, ibsim and libumad2sim.so. */
    public record Programs(Path opensm, Path ibsim, Path umad2sim) {
        /** Found where installed, or an IllegalArgumentException naming the package to install. */
        public static Programs find() {
            return new Programs(Processes.executable("opensm").orElseThrow(() -> new IllegalArgumentException(
                    "opensm not found (install opensm)")),
                    Processes.executable("ibsim").orElseThrow(() -> new IllegalArgumentException(
                            "ibsim not found (install ibsim-utils)")),
                    Processes.findUmad2sim().orElseThrow(() -> new IllegalArgumentException(
                            "libumad2sim.so not found (install libumad2sim0)")));
        }
    }

    public OpensmHarness {
        opensmArgs = List.copyOf(opensmArgs);
    }

    /** The same harness with more OpenSM arguments. */
    public OpensmHarness withOpensmArgs(List<String> more) {
        List<String> all = new ArrayList<>(opensmArgs);
        all.addAll(more);
        return new OpensmHarness(routing, timeout, basePort, local, all, err);
    }

    /**
     * A size: the smallest even radix from 40 (an HDR switch) whose tree holds the hosts, 2 levels when they fit;
     * "max": radix 64, 3 levels, the most hosts whose CAs and switches fit the unicast LIDs.
     */
    public static FatTreeSpec spec(String size) {
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

    public Path writeTopology(FatTreeSpec s, Path dir) throws IOException {
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

    /** Where libumad2sim finds a simulator: a UDP control port on loopback, or a local-mode basename. */
    public record Endpoint(int port, String sockname) {
        public static Endpoint udp(int port) {
            return new Endpoint(port, null);
        }

        public static Endpoint local(String sockname) {
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
    public record RealIbsim(Process process, Endpoint endpoint, double readySeconds, String note) {
    }

    /**
     * Starts a fresh {@code ibsim -r -l PORT -s -n} with its limits on {@code topo} in {@code dir} (created), on a
     * free range from the base port, and waits for it to be ready; the caller stops the process
     * ({@link Processes#stop}).
     */
    public RealIbsim startIbsim(Path ibsim, Fabric f, Path topo, Path dir) throws IOException, InterruptedException {
        return startIbsim(ibsim, f, topo, dir, false);
    }

    /**
     * {@link #startIbsim(Path, Fabric, Path, Path)}, with {@code console}: without {@code -n}, ibsim's console
     * reading the process's stdin ({@code Unlink "S-..."[40]} written there pulls a cable).
     */
    public RealIbsim startIbsim(Path ibsim, Fabric f, Path topo, Path dir, boolean console)
            throws IOException, InterruptedException {
        Files.createDirectories(dir);
        List<String> cmd = new ArrayList<>(List.of(ibsim.toString(), "-l", "0", "-s"));
        if (!console) {
            cmd.add("-n");
        }
        if (!local) {
            cmd.add(1, "-r");
        }
        cmd.addAll(limits(f));
        cmd.add(topo.toAbsolutePath().toString());
        long t0 = System.nanoTime();
        Path log = dir.resolve("ibsim.out");
        String note = "";
        for (int attempt = 0; attempt < 6; attempt++) {
            int port = Processes.freeUdpRange(basePort, basePort + 80);
            cmd.set(cmd.indexOf("-l") + 1, Integer.toString(port));
            String sockname = "ibtwin-bench-" + ProcessHandle.current().pid() + "-" + port;
            ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).redirectInput(console ? ProcessBuilder.Redirect.PIPE
                            : ProcessBuilder.Redirect.from(new File("/dev/null")));
            pb.environment().remove("LD_PRELOAD");
            pb.environment().put("IBSIM_SOCKNAME", sockname);
            t0 = System.nanoTime();
            Process q = pb.start();
            while (q.isAlive() && !Processes.read(log).contains(READY)
                    && System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(timeout)) {
                Thread.sleep(20);
            }
            if (q.isAlive() && Processes.read(log).contains(READY)) {
                return new RealIbsim(q, local ? Endpoint.local(sockname) : Endpoint.udp(port),
                        seconds(System.nanoTime() - t0), "");
            }
            Processes.stop(q);
            note = "ibsim did not start: " + Processes.tail(Processes.read(log), 3);
        }
        return new RealIbsim(null, null, 0, note);
    }

    /** ibsim's -N, -S, -P (and -L when the LIDs need it), with a quarter of headroom over the fabric. */
    public static List<String> limits(Fabric f) {
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
        List<String> a = new ArrayList<>(List.of("-N", Long.toString(Math.max(IBSIM_MAX_NODES, headroom(f.size()))),
                "-S", Long.toString(Math.max(IBSIM_MAX_SWITCHES, headroom(switches))),
                "-P", Long.toString(Math.max(IBSIM_MAX_PORTS, headroom(ports)))));
        if (headroom(lids) > IBSIM_MAX_LINEAR_CAP) {
            a.addAll(List.of("-L", "49152"));
        }
        return a;
    }

    private static long headroom(long n) {
        return n + n / 4 + 16;
    }

    public record OpensmRun(int exit, double launchToExit, double launchToUp, double logFirstToUp, int errLines,
                     long rssKb, String note) {
    }

    /** One {@code opensm -o}, attached at {@code simHost} of the simulator at {@code at}, watched to its end. */
    public OpensmRun opensm(Path opensm, Path so, Endpoint at, String simHost, Path dir, Process simulator)
            throws IOException, InterruptedException {
        Path log = dir.resolve("opensm.log");
        ProcessBuilder pb = opensmProcess(opensm, so, at, simHost, dir, true);
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
            rss = Math.max(rss, Processes.rssKb(p.pid()));
            if (seenUp < 0) {
                long[] off = {logOffset};
                if (Processes.grow(log, off).contains("SUBNET UP")) {
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
                Processes.stop(p);
                break;
            }
            if (now - t0 > TimeUnit.SECONDS.toNanos(timeout)) {
                note = "killed after " + timeout + " s";
                Processes.stop(p);
                break;
            }
        }
        double launchToExit = seconds(System.nanoTime() - t0);
        int exit = p.isAlive() ? -1 : p.exitValue();
        // streamed: with a debug level at 16,384 CAs the log passes 2 GiB, more than one string holds
        int errs = 0;
        String firstErr = "";
        LocalDateTime first = null;
        LocalDateTime up = null;
        if (Files.exists(log)) {
            try (BufferedReader in = Files.newBufferedReader(log, StandardCharsets.ISO_8859_1)) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    if (line.contains(" ERR ") && errs++ == 0) {
                        firstErr = line.length() > 160 ? line.substring(0, 160) : line;
                    }
                    if (first != null && up != null) {
                        continue;
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
            note = (note.isEmpty() ? "" : note + "; ") + "first ERR: " + firstErr;
        }
        return new OpensmRun(exit, launchToExit, launchToUp, firstToUp, errs, rss, note);
    }


    /**
     * {@code opensm -e -f DIR/opensm.log -R routing [opensmArgs]} attached at {@code simHost} of the simulator at
     * {@code at} under libumad2sim, running on as a master SM (no {@code -o}) until the caller stops it
     * ({@link Processes#stop}); its output in {@code DIR/opensm.out}.
     */
    public Process startOpensm(Path opensm, Path so, Endpoint at, String simHost, Path dir) throws IOException {
        return opensmProcess(opensm, so, at, simHost, dir, false).start();
    }

    private ProcessBuilder opensmProcess(Path opensm, Path so, Endpoint at, String simHost, Path dir, boolean once) {
        List<String> cmd = new ArrayList<>(List.of(opensm.toString(), "-e", "-f", dir.resolve("opensm.log").toString(),
                "-R", routing));
        if (once) {
            cmd.add(1, "-o");
        }
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
        return pb;
    }

    /** "Nov 30 05:56:48 375645": this year (or last, for a December log read in January), local time. */
    public static LocalDateTime logTime(Matcher m) {
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

    /** The twin's endpoint: in local mode at {@code sockname}, else UDP on a free range from the base port. */
    IbsimServer startServer(org.ibtwin.sim.AttachPoint fabric, String sockname) throws IOException {
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
                server.start(InetAddress.getLoopbackAddress(), Processes.freeUdpRange(basePort, basePort + 80));
                return server;
            } catch (BindException e) {
                server.close();
                last = e;
            }
        }
        throw last;
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }

    /** Bytes as the OpenSM benches print them: "512M", or "12.5G" from 10 GiB. */
    static String mib(long bytes) {
        return bytes >= 10L << 30 ? String.format(Locale.ROOT, "%.1fG", bytes / (double) (1L << 30))
                : String.format(Locale.ROOT, "%dM", bytes >> 20);
    }
}
