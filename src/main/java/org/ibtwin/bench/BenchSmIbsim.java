package org.ibtwin.bench;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.ibtwin.format.TopologyReader;
import org.ibtwin.format.TopologyWriter;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.model.Fabric;
import org.ibtwin.sm.SmConfig;
import org.ibtwin.sm.SmLog;
import org.ibtwin.sm.SmStateMachine;
import org.ibtwin.sm.SubnetManager;
import org.ibtwin.sm.SweepReport;
import org.ibtwin.transport.IbsimClient;

/**
 * {@code ibtwin bench sm --ibsim}: time to SUBNET UP for ibtwin's SM and for real OpenSM ({@code opensm -o -e}) on
 * the same generated fat tree over the same transport, real {@code ibsim -r}, restarted fresh for each so both start
 * from unconfigured ports; both attached at the first CA. OpenSM's figure is from its launch to the SUBNET UP line
 * of its log (as {@code bench opensm} takes it); ours from attaching to the end of the sweep that brought the
 * subnet up, in this process (no JVM start counted; the JIT is warmed on a small fabric first, as a long-running
 * SM's would be). Sizes as {@code bench opensm} picks them (HDR, radix from 40, two levels where they fit).
 */
final class BenchSmIbsim {
    private final List<String> sizes;
    private final String routing;
    private final int timeoutSeconds;
    private final int port;
    private final Path keep;

    BenchSmIbsim(List<String> sizes, String routing, int timeoutSeconds, int port, Path keep) {
        this.sizes = sizes;
        this.routing = routing;
        this.timeoutSeconds = timeoutSeconds;
        this.port = port;
        this.keep = keep;
    }

    /** One SM's run on one fresh ibsim. */
    record Row(int hosts, int switches, String sm, double ibsimReady, double toUp, long smps, boolean up,
               String note) {
    }

    int run(PrintWriter out, PrintWriter err) throws Exception {
        OpensmHarness.Programs programs = OpensmHarness.Programs.find();
        Path opensm = programs.opensm();
        Path ibsim = programs.ibsim();
        Path so = programs.umad2sim();
        List<FatTreeSpec> specs = new ArrayList<>();
        for (String s : sizes) {
            if (!s.isBlank()) {
                specs.add(OpensmHarness.spec(s));
            }
        }
        OpensmHarness runner = new OpensmHarness(routing, timeoutSeconds, port, false, List.of(), err);
        Path root = keep != null ? Files.createDirectories(keep) : Files.createTempDirectory("ibtwin-bench-sm");
        out.printf(Locale.ROOT, "bench sm --ibsim: ibtwin sm -o vs opensm -o -e, -R %s, each on a fresh ibsim -r; "
                + "files in %s%n", routing, root);
        out.println(header());
        out.flush();
        List<Row> rows = new ArrayList<>();
        try {
            warmUp(runner, ibsim, root.resolve("warmup"), err);
            for (FatTreeSpec spec : specs) {
                Path dir = Files.createDirectories(root.resolve("h" + spec.hosts()));
                Path topo = runner.writeTopology(spec, dir);
                Fabric f = TopologyReader.read(topo);
                rows.add(print(out, ours(runner, ibsim, f, topo, Processes.fresh(dir, "ibtwin"), null)));
                rows.add(print(out, theirs(runner, ibsim, opensm, so, f, topo, Processes.fresh(dir,
                        "opensm"))));
            }
        } finally {
            if (keep == null) {
                Processes.deleteTree(root);
            }
        }
        out.println();
        out.println("summary (time to SUBNET UP, ibtwin / OpenSM):");
        for (int i = 0; i + 1 < rows.size(); i += 2) {
            Row a = rows.get(i);
            Row b = rows.get(i + 1);
            out.printf(Locale.ROOT, "  %,6d hosts: ibtwin %.3f s, OpenSM %.3f s%s%n", a.hosts(), a.toUp(), b.toUp(),
                    a.toUp() > 0 && b.toUp() > 0 ? String.format(Locale.ROOT, " (x%.2f)", b.toUp() / a.toUp()) : "");
        }
        out.flush();
        return rows.stream().allMatch(Row::up) ? 0 : 1;
    }

    /** Our SM's sweeps on a small fabric first: the JIT compiles the SM's code, as it would in a running SM. */
    private void warmUp(OpensmHarness runner, Path ibsim, Path dir, PrintWriter err) throws Exception {
        Files.createDirectories(dir);
        FatTreeSpec spec = OpensmHarness.spec("64");
        Path topo = runner.writeTopology(spec, dir);
        Fabric f = TopologyReader.read(topo);
        for (int i = 0; i < 3; i++) {
            Row r = ours(runner, ibsim, f, topo, Processes.fresh(dir, "run"), null);
            err.printf(Locale.ROOT, "  warm-up %d: 64 hosts in %.3f s%n", i + 1, r.toUp());
        }
        err.flush();
    }

    private Row ours(OpensmHarness runner, Path ibsim, Fabric f, Path topo, Path dir, SmLog log)
            throws Exception {
        OpensmHarness.RealIbsim sim = runner.startIbsim(ibsim, f, topo, dir);
        if (sim.process() == null) {
            return new Row(hosts(f), f.switches().size(), "ibtwin", 0, -1, 0, false, sim.note());
        }
        try {
            String at = TopologyWriter.id(f.cas().get(0));
            SmConfig cfg = SmConfig.defaults().withRouting(routing, null).withSweepInterval(Duration.ZERO);
            long t0 = System.nanoTime();
            try (IbsimClient c = IbsimClient.connect("127.0.0.1", sim.endpoint().port(), at, true,
                    IbsimClient.DEFAULT_CONNECT_TIMEOUT)) {
                SubnetManager sm = new SubnetManager(c, cfg, log);
                SweepReport r = new SmStateMachine(sm, SmStateMachine.Polling.defaults(), log).once();
                double secs = (System.nanoTime() - t0) / 1e9;
                sm.detach();
                if (r == null) {
                    return new Row(hosts(f), f.switches().size(), "ibtwin", sim.readySeconds(), -1, 0, false,
                            "went STANDBY");
                }
                return new Row(hosts(f), f.switches().size(), "ibtwin", sim.readySeconds(), r.subnetUp() ? secs : -1,
                        r.smps(), r.subnetUp(), r.subnetUp() ? "" : r.problems().isEmpty() ? "not up"
                        : r.problems().get(0));
            }
        } finally {
            Processes.stop(sim.process());
        }
    }

    private Row theirs(OpensmHarness runner, Path ibsim, Path opensm, Path so, Fabric f, Path topo, Path dir)
            throws Exception {
        OpensmHarness.RealIbsim sim = runner.startIbsim(ibsim, f, topo, dir);
        if (sim.process() == null) {
            return new Row(hosts(f), f.switches().size(), "opensm", 0, -1, 0, false, sim.note());
        }
        try {
            OpensmHarness.OpensmRun r = runner.opensm(opensm, so, sim.endpoint(),
                    TopologyWriter.id(f.cas().get(0)), dir, sim.process());
            boolean up = r.launchToUp() >= 0;
            return new Row(hosts(f), f.switches().size(), "opensm", sim.readySeconds(), r.launchToUp(), -1, up,
                    r.note());
        } finally {
            Processes.stop(sim.process());
        }
    }

    private static int hosts(Fabric f) {
        return f.cas().size();
    }

    private static String header() {
        return String.format(Locale.ROOT, "%7s %8s  %-7s %11s %13s %9s  %s", "hosts", "switches", "SM", "ibsim ready",
                "SUBNET UP (s)", "SMPs", "note");
    }

    private static Row print(PrintWriter out, Row r) {
        out.printf(Locale.ROOT, "%,7d %,8d  %-7s %11.2f %13s %9s  %s%n", r.hosts(), r.switches(), r.sm(),
                r.ibsimReady(), r.toUp() < 0 ? "-" : String.format(Locale.ROOT, "%.3f", r.toUp()),
                r.smps() < 0 ? "-" : String.format(Locale.ROOT, "%,d", r.smps()), r.note());
        out.flush();
        return r;
    }
}
