package org.ibtwin.bench;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.ibtwin.gen.FatTree;
import org.ibtwin.lab.Lab;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.Node;
import org.ibtwin.model.Port;
import org.ibtwin.sm.SmConfig;
import org.ibtwin.sm.SmLog;
import org.ibtwin.sm.SubnetManager;
import org.ibtwin.sm.SweepReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ibtwin bench reroute}: ibtwin's SM running on a fat tree twin in process (16,384 hosts by default), inter-switch
 * cables pulled one after another; for each, the SM's fast re-route (trap 128, only the destinations through the
 * cable, only the changed LFT blocks) and the heavy sweep after it, as the SM's own sweep report gives them: the time
 * from the trap to the last LFT block written, the blocks written, and the full sweep's time for comparison.
 */
@Command(name = "reroute", mixinStandardHelpOptions = true,
        description = "Fast re-route: time from a pulled inter-switch cable to the last LFT block written.")
public final class BenchRerouteCommand extends Bench {

    @Mixin
    FatTreeShape shape;

    @Option(names = {"-R", "--routing-engine"}, defaultValue = "ftree",
            description = "Routing engines (default: ${DEFAULT-VALUE}).")
    String engines;

    @Option(names = "--pulls", defaultValue = "3", description = "Cables pulled, one after another (default: "
            + "${DEFAULT-VALUE}): a leaf's uplink, then links higher up.")
    int pulls;

    @Option(names = "--ibsim", paramLabel = "<hosts>", description = "Instead: ibtwin's SM vs real OpenSM (opensm -e, "
            + "sweeping whole) on real ibsim -r, a fresh ibsim for each, on a fat tree of this many hosts (as bench "
            + "sm --ibsim sizes it); the --pulls cables pulled at ibsim's console.")
    String ibsim;

    @Option(names = "--timeout", defaultValue = "600",
            description = "With --ibsim: seconds each wait may take (default: ${DEFAULT-VALUE}).")
    int timeout;

    @Mixin
    IbsimBenchOptions where;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        if (ibsim != null) {
            return new BenchRerouteIbsim(ibsim, pulls, engines, timeout, where.port(), where.keep()).run(out, spec.commandLine().getErr());
        }
        if (pulls < 1 || shape.hosts() < 2) {
            throw new IllegalArgumentException("--pulls must be 1 or more and --hosts 2 or more");
        }
        Fabric fabric = FatTree.build(shape.spec(LinkSpeed.NDR));
        List<Port[]> cables = cables(fabric, pulls);
        SmConfig cfg = SmConfig.defaults().withRouting(engines, null).withSweepInterval(Duration.ZERO);
        LinkedBlockingQueue<SweepReport> reports = new LinkedBlockingQueue<>();
        try (Lab lab = Lab.of(fabric).sm(cfg, SmLog.quiet()).smAt(fabric.cas().get(0).name()).start()) {
            SubnetManager sm = lab.sm();
            sm.onSweep((m, r) -> reports.add(r));
            out.printf(Locale.ROOT, "fat-tree-%d (%d levels, radix %d, NDR): %,d hosts, %,d switches, in process; "
                    + "ibtwin's SM at %s, routing %s%n", shape.hosts(), shape.levels(), shape.radix(), shape.hosts(),
                    fabric.switches().size(), fabric.cas().get(0).name(),
                    String.join(",", sm.routingChain()));
            out.flush();
            AtomicBoolean stop = new AtomicBoolean();
            Thread t = new Thread(() -> sm.run(stop), "ibtwin-bench-sm");
            t.setDaemon(true);
            t.start();
            int ok = 0;
            try {
                SweepReport first = reports.poll(30, TimeUnit.MINUTES);
                if (first == null || !first.subnetUp()) {
                    out.println("the first sweep did not bring the subnet up");
                    return 1;
                }
                out.printf(Locale.ROOT, "first sweep: SUBNET UP in %.3f s (%s, %,d LFT blocks)%n",
                        first.total().toNanos() / 1e9, first.engine(), first.lftBlocksWritten());
                out.flush();
                Thread.sleep(2000);   // the traps of bringing up repressed, the fabric quiet
                reports.clear();
                for (Port[] c : cables) {
                    lab.twin().linkDown(c[0].node().name(), c[0].number());
                    SweepReport r;
                    do {
                        r = reports.poll(30, TimeUnit.MINUTES);
                    } while (r != null && r.fastReroute() == null);
                    if (r == null) {
                        out.println("no sweep after the pull");
                        return 1;
                    }
                    SweepReport.FastReroute f = r.fastReroute();
                    out.printf(Locale.ROOT, "pulled %s/%d <-> %s/%d: fast re-route %s %s: %,d LIDs, %,d LFT blocks on "
                                    + "%,d switches, %.1f ms from the trap to the last LFT block; the heavy sweep after "
                                    + "it: %.3f s (%,d LFT blocks)%n", c[0].node().name(), c[0].number(),
                            c[1].node().name(), c[1].number(), f.engine(), f.partial() ? "in part"
                                    : "in full (" + f.why() + ")", f.lidsRerouted(), f.lftBlocksWritten(),
                            f.switchesWritten(), f.trapToLastLft().toNanos() / 1e6, r.total().toNanos() / 1e9,
                            r.lftBlocksWritten());
                    out.flush();
                    ok += r.subnetUp() ? 1 : 0;
                    Thread.sleep(1000);
                    reports.clear();
                }
            } finally {
                stop.set(true);
                t.join(60_000);
            }
            return ok == cables.size() ? 0 : 1;
        }
    }

    /** {@code n} inter-switch cables: the first leaf's first uplink, then one link a level higher, and so on. */
    static List<Port[]> cables(Fabric f, int n) {
        List<Port[]> out = new ArrayList<>();
        List<Node> switches = f.switches();
        for (int i = 0; out.size() < n && i < switches.size(); i += Math.max(1, switches.size() / n)) {
            Node s = switches.get(i);
            for (int p = s.numPorts(); p >= 1; p--) {
                Port q = s.port(p);
                if (q.link() != null && q.remote() != null && q.remote().node().isSwitch()) {
                    out.add(new Port[] {q, q.remote()});
                    break;
                }
            }
        }
        return out;
    }
}
