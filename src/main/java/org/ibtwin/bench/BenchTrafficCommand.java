package org.ibtwin.bench;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.lab.TrafficEngine;
import org.ibtwin.lab.TrafficPattern;
import org.ibtwin.lab.TrafficStatus;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.Node;
import org.ibtwin.sim.Attachment;
import org.ibtwin.sim.ExtCounter;
import org.ibtwin.sim.Twin;
import org.ibtwin.sim.TwinTransport;
import org.ibtwin.sm.SmConfig;
import org.ibtwin.sm.SmLog;
import org.ibtwin.sm.SubnetManager;
import org.ibtwin.sm.SweepReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ibtwin bench traffic}: the traffic engine on a generated fat tree (3 levels, 16,384 hosts by default)
 * brought up by ibtwin's SM in process: the time to plan a pattern (route every flow over the LFTs, solve the rates),
 * the cost of one step of the clock (every port's counters), the simulated seconds per wall second the engine's
 * thread reaches at {@code --speed}, and the heap the plan holds.
 */
@Command(name = "traffic", mixinStandardHelpOptions = true,
        description = "Traffic engine: plan time, step cost, simulated seconds per wall second, heap.")
public final class BenchTrafficCommand extends Bench {

    @Mixin
    FatTreeShape shape;

    @Option(names = "--pattern", defaultValue = "all-to-all",
            description = "The pattern (default: ${DEFAULT-VALUE}; " + TrafficPattern.USAGE + ").")
    String pattern;

    @Option(names = "--speed", defaultValue = "100",
            description = "Simulated seconds per wall second asked of the engine's thread (default: ${DEFAULT-VALUE}).")
    double speed;

    @Option(names = "--wall", defaultValue = "5", description = "Wall seconds to run the thread (default: "
            + "${DEFAULT-VALUE}).")
    double wall;

    @Option(names = "--steps", defaultValue = "1000", description = "Steps of 10 ms timed back to back (default: "
            + "${DEFAULT-VALUE}).")
    int steps;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        if (!(wall > 0) || steps < 1) {
            throw new IllegalArgumentException("--wall must be > 0 and --steps at least 1");
        }
        TrafficPattern p = TrafficPattern.parse(List.of(pattern.split("\\s+")));
        Fabric f = FatTree.build(shape.spec(LinkSpeed.NDR));
        Twin twin = Twin.of(f);
        Attachment a = twin.attach(f.cas().getFirst().name(), 0);
        a.setIsSm(true);
        try (TwinTransport t = new TwinTransport(a); TrafficEngine engine = new TrafficEngine(twin)) {
            SubnetManager sm = new SubnetManager(t, SmConfig.defaults(), SmLog.quiet());
            SweepReport r = sm.sweep();
            out.printf(Locale.ROOT, "%d-level fat tree, radix %d: %,d hosts, %,d switches, %,d links; %s by "
                            + "ibtwin's SM in %.1f s%n", shape.levels(), shape.radix(), shape.hosts(),
                            f.switches().size(), f.links().size(),
                    r.subnetUp() ? "SUBNET UP" : "NOT UP", r.total().toNanos() / 1e9);
            out.flush();
            if (!r.subnetUp()) {
                return 1;
            }
            long h0 = Jvm.usedHeapAfterGc();
            long c0 = Jvm.processCpuNanos();
            long t0 = System.nanoTime();
            TrafficStatus st = engine.start(p, TrafficEngine.DEFAULT_SIZE);
            long t1 = System.nanoTime();
            long c1 = Jvm.processCpuNanos();
            long h1 = Jvm.usedHeapAfterGc();
            int ports = engine.ports().size();
            out.printf(Locale.ROOT, "plan %s: %.2f s, %s (%,d flows routed over the LFTs and solved; %,d without a "
                            + "path), %,d ports touched, %.1f Gb/s aggregate; heap of the plan %.1f MiB%n", p.label(),
                    (t1 - t0) / 1e9, c0 < 0 ? "CPU unknown" : String.format(Locale.ROOT, "%.2f s of process CPU",
                            (c1 - c0) / 1e9), st.collective() != null ? st.collective().pairs() : st.flows().size(),
                    st.unrouted(), ports, st.aggregateGbps(), (h1 - h0) / 1048576.0);
            out.flush();
            for (int i = 0; i < Math.min(200, steps); i++) {
                engine.advanceNanos(10_000_000L);   // warm the step
            }
            long s0 = System.nanoTime();
            for (int i = 0; i < steps; i++) {
                engine.advanceNanos(10_000_000L);
            }
            double step = (System.nanoTime() - s0) / 1e9 / steps;
            out.printf(Locale.ROOT, "step: %.1f us for every counter of %,d ports (%d steps of 10 ms simulated: "
                    + "%,.0f simulated s per wall s at that step)%n", step * 1e6, ports, steps, 0.01 / step);
            double sim0 = engine.seconds();
            long w0 = System.nanoTime();
            engine.run(speed);
            Thread.sleep(Math.round(wall * 1000));
            engine.halt();
            double w = (System.nanoTime() - w0) / 1e9;
            double sims = engine.seconds() - sim0;
            out.printf(Locale.ROOT, "thread at --speed %s: %.1f simulated s in %.2f wall s = %.1f simulated s per "
                    + "wall s (ticks every %d ms)%n", fmt(speed), sims, w, sims / w, TrafficEngine.TICK_MILLIS);
            Node h = f.cas().get(1);
            out.printf(Locale.ROOT, "counters: %s port 1 PortXmitData %,d words after %.1f simulated s%n",
                    h.description().split(" ")[0], twin.extendedCounter(h.name(), 1, ExtCounter.XMIT_DATA),
                    engine.seconds());
            out.printf(Locale.ROOT, "heap: %.1f MiB in use (model, twin, SM, engine)%n",
                    Jvm.usedHeapAfterGc() / 1048576.0);
            out.flush();
            sm.detach();
            return 0;
        }
    }

    private static String fmt(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }
}
