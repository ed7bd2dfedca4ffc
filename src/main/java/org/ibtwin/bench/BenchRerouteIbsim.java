package org.ibtwin.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.RandomAccessFile;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import org.ibtwin.format.TopologyReader;
import org.ibtwin.format.TopologyWriter;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Port;
import org.ibtwin.sm.SmConfig;
import org.ibtwin.sm.SmLog;
import org.ibtwin.sm.SubnetManager;
import org.ibtwin.sm.SweepReport;
import org.ibtwin.transport.IbsimClient;

/**
 * {@code ibtwin bench reroute --ibsim}: the same pulled inter-switch cable on the same fabric, real {@code ibsim -r}
 * (fresh for each SM, its console on our pipe), under ibtwin's SM and under real OpenSM ({@code opensm -e}, running
 * on as master, not {@code -o}). Each SM brings the subnet up; then {@code Unlink "S-..."[port]} typed at ibsim's
 * console pulls the cable (ibsim sends trap 128 from both switches), and the time from typing it to the last LFT
 * block written is read from each SM's own log: ours from its "Fast re-route:" line (written once the last block's
 * answer is in), OpenSM's from the line before its "SWITCHES CONFIGURED FOR UNICAST" box (logged once every LFT set
 * of the sweep has been answered; {@code -D 0x07} makes it print that box). OpenSM sweeps whole: its figure is that
 * of a heavy sweep; ours is the fast re-route, and the heavy sweep after it is given beside.
 */
record BenchRerouteIbsim(String size, int pulls, String routing, int timeoutSeconds, int port, Path keep) {
    /** OpenSM's verbosity: errors, info and verbose (its sweep boxes). */
    private static final List<String> OPENSM_LOG = List.of("-D", "0x07");
    private static final String BOX_UNICAST = "SWITCHES CONFIGURED FOR UNICAST";
    private static final String BOX_HEAVY = "INITIATING HEAVY SWEEP";
    private static final String TRAP_128 = "num:128";
    private static final int TRAP = 0;
    private static final int HEAVY = 1;
    private static final int LFT = 2;
    private static final int UP = 3;

    /**
     * One SM's re-route, in seconds from the console command (-1: not seen): the first trap 128 in, the last LFT
     * block written, SUBNET UP again; LFT blocks written (-1: not known); the heavy sweep's own time.
     */
    record Row(String sm, int pull, double toTrap, double toLastLft, long blocks, double toUp, double heavy, String how,
               String note) {
        boolean ok() {
            return toLastLft >= 0 && note.isEmpty();
        }
    }

    int run(PrintWriter out, PrintWriter err) throws Exception {
        OpensmHarness.Programs programs = OpensmHarness.Programs.find();
        Path opensm = programs.opensm();
        Path ibsim = programs.ibsim();
        Path so = programs.umad2sim();
        FatTreeSpec spec = OpensmHarness.spec(size);
        OpensmHarness runner = new OpensmHarness(routing, timeoutSeconds, port, false, OPENSM_LOG, err);
        Path root = keep != null ? Files.createDirectories(keep) : Files.createTempDirectory("ibtwin-bench-reroute");
        try {
            Path topo = runner.writeTopology(spec, root);
            Fabric f = TopologyReader.read(topo);
            List<String> unlinks = new ArrayList<>();
            out.printf(Locale.ROOT, "bench reroute --ibsim: fat-tree-%d (%d levels, radix %d): %,d hosts, %,d switches;"
                            + " -R %s; each SM on a fresh ibsim -r, attached at %s; files in %s%n", spec.hosts(),
                    spec.levels(), spec.radix(), f.cas().size(), f.switches().size(), routing,
                    f.cas().get(0).name(), root);
            for (Port[] cable : BenchRerouteCommand.cables(f, pulls)) {
                unlinks.add("Unlink \"" + TopologyWriter.id(cable[0].node()) + "\"[" + cable[0].number() + "]");
                out.printf(Locale.ROOT, "pull %d: %s/%d <-> %s/%d, at ibsim's console: %s%n", unlinks.size(),
                        cable[0].node().name(), cable[0].number(), cable[1].node().name(), cable[1].number(),
                        unlinks.getLast());
            }
            out.println("times from the pull (typed at ibsim's console): the first trap 128 at the SM, the last LFT "
                    + "block written, SUBNET UP again; sweep: the heavy sweep's own time");
            out.println(header());
            out.flush();
            List<Row> a = ours(runner, ibsim, f, topo, Processes.fresh(root, "ibtwin"), unlinks, out);
            List<Row> b = theirs(runner, ibsim, opensm, so, f, topo, Processes.fresh(root, "opensm"), unlinks, out);
            boolean ok = a.size() == unlinks.size() && b.size() == unlinks.size();
            for (int i = 0; ok && i < a.size(); i++) {
                ok = a.get(i).ok() && b.get(i).ok();
            }
            if (ok) {
                out.println("summary (from the pulled cable to the last LFT block written, ibtwin / OpenSM):");
                for (int i = 0; i < a.size(); i++) {
                    out.printf(Locale.ROOT, "  pull %d: ibtwin %.1f ms, OpenSM %.1f ms (x%.1f)%n", i + 1,
                            a.get(i).toLastLft() * 1e3, b.get(i).toLastLft() * 1e3,
                            b.get(i).toLastLft() / a.get(i).toLastLft());
                }
            }
            out.flush();
            return ok ? 0 : 1;
        } finally {
            if (keep == null) {
                Processes.deleteTree(root);
            }
        }
    }

    private List<Row> ours(OpensmHarness runner, Path ibsim, Fabric f, Path topo, Path dir, List<String> unlinks,
                           PrintWriter out) throws Exception {
        OpensmHarness.RealIbsim sim = runner.startIbsim(ibsim, f, topo, dir, true);
        List<Row> rows = new ArrayList<>();
        if (sim.process() == null) {
            rows.add(print(out, failed("ibtwin", 1, sim.note())));
            return rows;
        }
        AtomicLong fastAt = new AtomicLong(-1);
        PrintWriter file = new PrintWriter(Files.newBufferedWriter(dir.resolve("ibtwin.log")), false);
        SmLog log = new SmLog() {
            @Override
            public void info(String line) {
                if (line.startsWith("Fast re-route:")) {
                    fastAt.compareAndSet(-1, System.nanoTime());
                }
                write("", line);
            }

            @Override
            public void warn(String line) {
                write("warning: ", line);
            }

            private synchronized void write(String level, String line) {
                file.println(LocalTime.now() + " " + level + line);
            }
        };
        try (file; IbsimClient c = IbsimClient.connect("127.0.0.1", sim.endpoint().port(), TopologyWriter.id(f.cas().get(0)),
                true, IbsimClient.DEFAULT_CONNECT_TIMEOUT)) {
            SmConfig cfg = SmConfig.defaults().withRouting(routing, null).withSweepInterval(Duration.ZERO);
            SubnetManager sm = new SubnetManager(c, cfg, log);
            LinkedBlockingQueue<SweepReport> reports = new LinkedBlockingQueue<>();
            sm.onSweep((m, r) -> reports.add(r));
            AtomicBoolean stop = new AtomicBoolean();
            Thread t = new Thread(() -> sm.run(stop), "ibtwin-bench-sm");
            t.setDaemon(true);
            t.start();
            try {
                SweepReport first = reports.poll(timeoutSeconds, TimeUnit.SECONDS);
                if (first == null || !first.subnetUp()) {
                    rows.add(print(out, failed("ibtwin", 1, "the first sweep did not bring the subnet up")));
                    return rows;
                }
                runner.err().printf(Locale.ROOT, "  ibtwin: SUBNET UP in %.3f s%n", first.total().toNanos() / 1e9);
                runner.err().flush();
                for (String unlink : unlinks) {
                    Thread.sleep(2000);   // the traps of bringing up repressed, the fabric quiet
                    reports.clear();
                    fastAt.set(-1);
                    long t0 = System.nanoTime();
                    type(sim.process(), unlink);
                    long deadline = t0 + TimeUnit.SECONDS.toNanos(timeoutSeconds);
                    SweepReport r = null;
                    while (r == null || r.fastReroute() == null) {
                        long left = deadline - System.nanoTime();
                        r = left <= 0 ? null : reports.poll(left, TimeUnit.NANOSECONDS);
                        if (r == null) {
                            rows.add(print(out, failed("ibtwin", rows.size() + 1, "no re-route within "
                                    + timeoutSeconds + " s of the pull")));
                            return rows;
                        }
                    }
                    long upAt = System.nanoTime();
                    SweepReport.FastReroute fr = r.fastReroute();
                    double toLast = (fastAt.get() - t0) / 1e9;
                    double trapToLast = fr.trapToLastLft().toNanos() / 1e9;
                    String how = "fast re-route " + fr.engine() + (fr.partial() ? " in part" : " in full ("
                            + fr.why() + ")") + String.format(Locale.ROOT, ", %,d LIDs on %,d switches; the heavy "
                            + "sweep after it: %,d blocks", fr.lidsRerouted(), fr.switchesWritten(),
                            r.lftBlocksWritten());
                    rows.add(print(out, new Row("ibtwin", rows.size() + 1, toLast - trapToLast, toLast,
                            fr.lftBlocksWritten(), (upAt - t0) / 1e9, r.total().toNanos() / 1e9, how,
                            r.subnetUp() ? "" : "not up after the pull")));
                }
                return rows;
            } finally {
                stop.set(true);
                t.join(60_000);
                sm.detach();
            }
        } finally {
            Processes.stop(sim.process());
        }
    }

    private List<Row> theirs(OpensmHarness runner, Path ibsim, Path opensm, Path so, Fabric f, Path topo, Path dir,
                             List<String> unlinks, PrintWriter out) throws Exception {
        OpensmHarness.RealIbsim sim = runner.startIbsim(ibsim, f, topo, dir, true);
        List<Row> rows = new ArrayList<>();
        if (sim.process() == null) {
            rows.add(print(out, failed("opensm", 1, sim.note())));
            return rows;
        }
        Process p = null;
        try {
            p = runner.startOpensm(opensm, so, sim.endpoint(), TopologyWriter.id(f.cas().get(0)), dir);
            Path log = dir.resolve("opensm.log");
            long[] offset = {0};
            if (!waitFor(log, offset, "SUBNET UP", p, sim.process())) {
                rows.add(print(out, failed("opensm", 1, "no SUBNET UP within " + timeoutSeconds + " s"
                        + exited(p))));
                return rows;
            }
            runner.err().println("  opensm: SUBNET UP (its log is written in blocks: lines show up late)");
            runner.err().flush();
            for (String unlink : unlinks) {
                Thread.sleep(2000);
                // where the log is now: OpenSM writes it in blocks, so what is on disk may end mid-line
                long from = Files.size(log);
                offset[0] = from;
                Instant fault = Instant.now();
                type(sim.process(), unlink);
                if (!waitFor(log, offset, "SUBNET UP", p, sim.process())) {
                    rows.add(print(out, failed("opensm", rows.size() + 1, "no SUBNET UP within " + timeoutSeconds
                            + " s of the pull" + exited(p))));
                    return rows;
                }
                Thread.sleep(200);
                rows.add(print(out, read(log, from, fault, rows.size() + 1)));
            }
            return rows;
        } finally {
            if (p != null) {
                Processes.stop(p);
            }
            Processes.stop(sim.process());
        }
    }

    /**
     * OpenSM's log from the pull on: the first trap 128, the timestamped line before the unicast box and before the
     * heavy sweep's box, and SUBNET UP, each against the time the cable was pulled.
     */
    private static Row read(Path log, long from, Instant fault, int pull) throws IOException {
        LocalDateTime last = null;
        LocalDateTime[] seen = new LocalDateTime[4];   // the trap, the heavy sweep's box, the unicast box, SUBNET UP
        String engine = "";
        LocalDateTime pulled = LocalDateTime.ofInstant(fault, ZoneId.systemDefault());
        try (RandomAccessFile raf = new RandomAccessFile(log.toFile(), "r")) {
            raf.seek(from);
            BufferedReader in = new BufferedReader(new InputStreamReader(Channels.newInputStream(raf.getChannel()),
                    StandardCharsets.ISO_8859_1));
            for (String line = in.readLine(); line != null && seen[UP] == null; line = in.readLine()) {
                Matcher m = OpensmHarness.LOG_TIME.matcher(line);
                if (m.find()) {
                    last = OpensmHarness.logTime(m);
                }
                if (last == null || last.isBefore(pulled)) {
                    continue;   // still in OpenSM's buffer when the cable was pulled
                }
                int k = line.contains(TRAP_128) ? TRAP : line.contains(BOX_HEAVY) ? HEAVY
                        : line.contains(BOX_UNICAST) ? LFT : seen[LFT] != null && line.contains("SUBNET UP") ? UP : -1;
                if (k >= 0 && seen[k] == null) {
                    seen[k] = last;
                } else if (line.contains("tables configured on all switches")) {
                    engine = line.substring(line.indexOf("-> ") + 3).replaceFirst("^osm_ucast_mgr_process: ", "");
                }
            }
        }
        String note = seen[TRAP] == null ? "no trap 128 in its log" : seen[LFT] == null ? "no unicast box in its log"
                : "";
        return new Row("opensm", pull, since(fault, seen[TRAP]), since(fault, seen[LFT]), -1, since(fault, seen[UP]),
                seen[HEAVY] == null || seen[UP] == null ? -1 : Duration.between(seen[HEAVY], seen[UP]).toNanos() / 1e9,
                "heavy sweep" + (engine.isEmpty() ? "" : ": " + engine), note);
    }

    private static double since(Instant fault, LocalDateTime t) {
        return t == null ? -1 : Duration.between(fault, t.atZone(ZoneId.systemDefault()).toInstant()).toNanos() / 1e9;
    }

    /** Whether {@code needle} appears in what {@code log} gains from {@code offset}, before the time limit. */
    private boolean waitFor(Path log, long[] offset, String needle, Process p, Process sim)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (System.nanoTime() < deadline && p.isAlive() && sim.isAlive()) {
            if (Processes.grow(log, offset).contains(needle)) {
                return true;
            }
            Thread.sleep(50);
        }
        return false;
    }

    private static String exited(Process p) {
        return p.isAlive() ? "" : " (opensm exited " + p.exitValue() + ")";
    }

    /** A line at ibsim's console. */
    private static void type(Process sim, String command) throws IOException {
        OutputStream console = sim.getOutputStream();
        console.write((command + "\n").getBytes(StandardCharsets.US_ASCII));
        console.flush();
    }

    private static Row failed(String sm, int pull, String note) {
        return new Row(sm, pull, -1, -1, -1, -1, -1, "", note);
    }

    private static String header() {
        return String.format(Locale.ROOT, "%-7s %4s %10s %18s %10s %14s %11s  %s", "SM", "pull", "trap (ms)", "last LFT block (ms)",
                "LFT blocks", "SUBNET UP (s)", "sweep (s)", "how");
    }

    private static Row print(PrintWriter out, Row r) {
        out.printf(Locale.ROOT, "%-7s %4d %10s %18s %10s %14s %11s  %s%s%n", r.sm(), r.pull(), ms(r.toTrap()), ms(r.toLastLft()),
                r.blocks() < 0 ? "-" : String.format(Locale.ROOT, "%,d", r.blocks()), s(r.toUp()), s(r.heavy()),
                r.how(), r.note().isEmpty() ? "" : (r.how().isEmpty() ? "" : "; ") + r.note());
        out.flush();
        return r;
    }

    private static String ms(double secs) {
        return secs < 0 ? "-" : String.format(Locale.ROOT, "%.1f", secs * 1e3);
    }

    private static String s(double secs) {
        return secs < 0 ? "-" : String.format(Locale.ROOT, "%.3f", secs);
    }
}
