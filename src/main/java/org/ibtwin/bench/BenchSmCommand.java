package org.ibtwin.bench;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.lab.Lab;
import org.ibtwin.sm.SmConfig;
import org.ibtwin.sm.SmLog;
import org.ibtwin.sm.SubnetManager;
import org.ibtwin.sm.SweepReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ibtwin bench sm}: time to SUBNET UP for ibtwin's SM on the twin, in process: a generated fat tree (3 levels,
 * 16,384 hosts by default), the SM attached at the first host, one heavy sweep from power-on (no LIDs, ports in
 * Init), phase by phase; then a second sweep over the subnet as it left it (nothing to change), and the heap the
 * model, the twin and the SM hold.
 */
@Command(name = "sm", mixinStandardHelpOptions = true,
        description = "Time to SUBNET UP for ibtwin's SM on an in-process fat tree, and heap.")
public final class BenchSmCommand extends Bench {

    @Mixin
    FatTreeShape shape;

    @Option(names = {"-R", "--routing_engine"}, defaultValue = "minhop",
            description = "Routing engines (default: ${DEFAULT-VALUE}).")
    String engines;

    @Option(names = "--maxsmps", defaultValue = "4", description = "SMPs in flight (default: ${DEFAULT-VALUE}).")
    int maxSmps;

    @Option(names = "--warmup", defaultValue = "0",
            description = "Bring up a 2-level fat tree of this many hosts first, to warm the JIT (default: none).")
    int warmupHosts;

    @Option(names = "--ibsim", description = "Instead: ibtwin's SM vs real OpenSM (opensm -o -e) on real ibsim -r, "
            + "a fresh ibsim for each, at --sizes.")
    boolean ibsim;

    @Option(names = "--sizes", split = ",", defaultValue = "128,1024", paramLabel = "<n>",
            description = "With --ibsim: host counts (default: ${DEFAULT-VALUE}).")
    java.util.List<String> sizes;

    @Mixin
    IbsimBenchOptions where;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        if (ibsim) {
            return new BenchSmIbsim(sizes, engines, 1800, where.port(), where.keep()).run(out, spec.commandLine().getErr());
        }
        FatTreeSpec ftSpec = shape.spec(LinkSpeed.NDR);
        if (warmupHosts > 0) {
            Fabric w = FatTree.build(FatTreeSpec.of(2, 64, Math.min(warmupHosts, 2048)).withSpeed(LinkSpeed.NDR));
            try (Lab warm = Lab.of(w).sm(SmConfig.defaults().withRouting(engines, null), SmLog.quiet())
                    .start()) {
                SubnetManager sm = warm.sm();
                for (int i = 0; i < 3; i++) {
                    sm.forgetLfts();
                    sm.sweep();
                }
            }
            out.printf(Locale.ROOT, "warm-up: 3 sweeps of a %,d-host 2-level fat tree%n", Math.min(warmupHosts, 2048));
        }
        long h0 = Jvm.usedHeapAfterGc();
        Fabric fabric = FatTree.build(ftSpec);
        long h1 = Jvm.usedHeapAfterGc();
        SmConfig cfg = SmConfig.defaults().withMaxSmps(maxSmps).withRouting(engines, null)
                .withSweepInterval(Duration.ZERO);
        try (Lab lab = Lab.of(fabric).sm(cfg, SmLog.quiet()).smAt(fabric.cas().get(0).name()).start()) {
            long h2 = Jvm.usedHeapAfterGc();
            SubnetManager sm = lab.sm();
            out.printf(Locale.ROOT, "%d-level fat tree, radix %d: %,d hosts, %,d switches, %,d links; SM at %s, %d SMPs "
                    + "in flight, routing %s%n", shape.levels(), shape.radix(), shape.hosts(),
                    fabric.switches().size(), fabric.links().size(),
                    fabric.cas().get(0).name(), maxSmps, String.join(",", sm.routingChain()));
            out.flush();
            long cpu0 = Jvm.processCpuNanos();
            SweepReport first = sm.sweep();
            long cpu1 = Jvm.processCpuNanos();
            long h3 = Jvm.usedHeapAfterGc();
            print(out, "first sweep (power-on)", first);
            if (cpu0 >= 0) {
                out.printf(Locale.ROOT, "  process CPU time in the first sweep: %.3f s (every thread, the JIT "
                        + "compiler's included)%n", (cpu1 - cpu0) / 1e9);
            }
            long lftSets = sm.setsSent(AttributeIds.LINEAR_FWD_TABLE);
            SweepReport second = sm.sweep();
            print(out, "second sweep (no change)", second);
            out.printf(Locale.ROOT, "  LFT blocks set: %,d on the first sweep, %,d on the second%n", lftSets,
                    sm.setsSent(AttributeIds.LINEAR_FWD_TABLE) - lftSets);
            out.printf(Locale.ROOT, "heap: model %.1f MiB, twin %.1f MiB, SM state %.1f MiB (after the first sweep)%n",
                    mib(h1 - h0), mib(h2 - h1), mib(h3 - h2));
            out.flush();
            return first.subnetUp() && second.subnetUp() ? 0 : 1;
        }
    }

    private static void print(PrintWriter out, String what, SweepReport r) {
        double secs = r.total().toNanos() / 1e9;
        out.printf(Locale.ROOT, "%s: %s in %.3f s (%,d SMPs, %,.0f SMPs/s)%n", what,
                r.subnetUp() ? "SUBNET UP" : "NOT UP", secs, r.smps(), r.smps() / secs);
        out.printf(Locale.ROOT, "  discovery %.3f s, LIDs %.3f s, routing %.3f s (%s), LFTs %.3f s (%,d blocks), "
                        + "ports %.3f s (%,d armed, %,d activated)%n", s(r.discovery()), s(r.lids()), s(r.routing()),
                r.engine(), s(r.lfts()), r.lftBlocksWritten(), s(r.activation()), r.portsArmed(), r.portsActivated());
        out.flush();
    }

    private static double s(Duration d) {
        return d.toNanos() / 1e9;
    }

    private static double mib(long bytes) {
        return bytes / 1048576.0;
    }
}
