package org.ibtwin.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import org.ibtwin.bench.Stats;
import org.ibtwin.bench.BenchSpeed;
import org.ibtwin.bench.Jvm;
import org.ibtwin.bench.Rounds;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.lab.Lab;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.perf.AllToAll;
import org.ibtwin.perf.Endpoint;
import org.ibtwin.perf.MinHopRoutes;
import org.ibtwin.perf.Op;
import org.ibtwin.perf.PerfParams;
import org.ibtwin.perf.Spec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ibtwin bench perf}: how long the performance model takes to resolve a shift all-to-all (routes for every
 * pair and the max-min fair share of the whole fabric) on a 3-level fat tree. The fabric is built once; each round
 * computes the routes afresh.
 */
@Command(name = "perf", mixinStandardHelpOptions = true,
        description = "Time a shift all-to-all (routes + max-min fair share) on a 3-level fat tree.")
public final class BenchPerfCommand extends CliCommand {

    @Option(names = "--hosts", defaultValue = "16384", description = "Hosts (default: ${DEFAULT-VALUE}).")
    int hosts;

    @Option(names = "--pairs", defaultValue = "1024", description = "Pairs (default: ${DEFAULT-VALUE}).")
    int pairs;

    @Option(names = "--radix", defaultValue = "64", description = "Switch radix (default: ${DEFAULT-VALUE}).")
    int radix;

    @Mixin
    BenchSpeed speed;

    @Mixin
    Rounds runs = new Rounds(5, 2);

    @Option(names = "--live", description = "Over the fabric as it is: the twin brought up by ibtwin's SM, then per "
            + "round MAD discovery from a host, and the shift routed by the live LFTs (each block read once, when a "
            + "route first needs it), as the perf commands do.")
    boolean live;

    @Override
    public Integer call() {
        PrintWriter out = out();
        PrintWriter err = err();
        LinkSpeed s = speed.speed();
        int rounds = runs.rounds();
        int warmup = runs.warmup();
        err.println("bench perf: building a 3-level fat tree, radix " + radix + ", " + hosts + " hosts ...");
        err.flush();
        Fabric f = FatTree.build(FatTreeSpec.of(3, radix, hosts).withSpeed(s));
        if (live) {
            return live(out, err, f, s);
        }
        List<Endpoint> ends = f.cas().stream().map(n -> Endpoint.of(n.port(1), false)).toList();
        List<AllToAll.Pair> pp = AllToAll.shift(ends, pairs, ends.size() / 2);
        Spec spec64k = Spec.of(Op.WRITE, 65536);
        long[] setupNs = new long[rounds];
        long[] solveNs = new long[rounds];
        AllToAll.Result result = null;
        for (int r = -warmup; r < rounds; r++) {
            long t0 = System.nanoTime();
            MinHopRoutes routes = new MinHopRoutes(f);
            long t1 = System.nanoTime();
            result = AllToAll.run(PerfParams.DEFAULT, spec64k, routes, pp);
            long t2 = System.nanoTime();
            if (r >= 0) {
                setupNs[r] = t1 - t0;
                solveNs[r] = t2 - t1;
            }
        }
        long[] total = new long[rounds];
        for (int i = 0; i < rounds; i++) {
            total[i] = setupNs[i] + solveNs[i];
        }
        out.printf(Locale.ROOT, "fabric: 3-level fat tree, radix %d, %s: %d hosts, %d switches, %d links%n", radix, s,
                f.cas().size(), f.switches().size(), f.links().size());
        int every = ends.size() / pairs;
        out.printf(Locale.ROOT, "shift all-to-all: %d pairs, every %shost to the one %d further on, RDMA write 64 KiB%n",
                pairs, every == 1 ? "" : ordinal(every) + " ", ends.size() / 2);
        out.printf(Locale.ROOT, "resolved: best %s  median %s  (routing setup %s, pair routes + max-min fair share %s;"
                        + " medians of %d rounds after %d warm-up)%n", Stats.ms(Stats.min(total)), Stats.ms(Stats.median(total)),
                Stats.ms(Stats.median(setupNs)), Stats.ms(Stats.median(solveNs)), rounds, warmup);
        out.printf(Locale.ROOT, "result:   aggregate %.1f Gb/s; per pair min %.2f, mean %.2f, max %.2f Gb/s; %d unrouted%n",
                result.aggregateGbps(), result.minGbps(), result.meanGbps(), result.maxGbps(), result.unrouted());
        out.printf(Locale.ROOT, "          pair 1 (%s -> %s): %s%n", pp.get(0).src().name(), pp.get(0).dst().name(),
                result.pairs().get(0).why().text());
        out.flush();
        return 0;
    }

    /** --live: discovery + LFT reads + the shift through MADs on the twin our SM brought up; wall time and heap. */
    private Integer live(PrintWriter out, PrintWriter err, Fabric f, LinkSpeed s) {
        out.printf(Locale.ROOT, "fabric: 3-level fat tree, radix %d, %s: %d hosts, %d switches, %d links%n", radix, s,
                f.cas().size(), f.switches().size(), f.links().size());
        out.flush();
        try (Lab lab = Lab.of(f).smAt(f.cas().get(0).name()).start()) {
            long u0 = System.nanoTime();
            var up = lab.bringUp();
            out.printf(Locale.ROOT, "brought up by ibtwin's SM in %.2f s (%s, %,d SMPs)%n",
                    (System.nanoTime() - u0) / 1e9, up.subnetUp() ? "SUBNET UP" : "NOT UP", up.smps());
            out.flush();
            if (!up.subnetUp()) {
                return 1;
            }
            String from = f.cas().get(f.cas().size() - 1).name();
            int rounds = runs.rounds();
            int warmup = runs.warmup();
            long[] discoverNs = new long[rounds];
            long[] solveNs = new long[rounds];
            long[] heap = new long[rounds];
            AllToAll.Result result = null;
            PerfFabric last = null;
            List<AllToAll.Pair> pp = null;
            for (int r = -warmup; r < rounds; r++) {
                last = null;
                System.gc();
                long h0 = Jvm.usedHeap();
                long t0 = System.nanoTime();
                PerfFabric pf = PerfFabric.over(lab.attachTool(from), f, "the twin", err, "bench perf");
                long t1 = System.nanoTime();
                List<Endpoint> ends = pf.fabric().cas().stream()
                        .sorted((a, b) -> Long.compareUnsigned(a.guid(), b.guid()))
                        .map(n -> Endpoint.of(n.port(1), false)).toList();
                pp = AllToAll.shift(ends, pairs, ends.size() / 2);
                result = AllToAll.run(PerfParams.DEFAULT, Spec.of(Op.WRITE, 65536), pf.routes(), pp);
                long t2 = System.nanoTime();
                last = pf;
                System.gc();
                long h1 = Jvm.usedHeap();
                if (r >= 0) {
                    discoverNs[r] = t1 - t0;
                    solveNs[r] = t2 - t1;
                    heap[r] = h1 - h0;
                }
                pf.close();
            }
            long[] total = new long[rounds];
            for (int i = 0; i < rounds; i++) {
                total[i] = discoverNs[i] + solveNs[i];
            }
            out.printf(Locale.ROOT, "shift all-to-all over MADs from %s: %d pairs, RDMA write 64 KiB; %,d SMPs of "
                    + "discovery, %,d LFT blocks read (of %,d on the switches)%n", from, pairs,
                    last.live().discoverySmps(), last.live().lftBlocksRead(), f.switches().stream()
                            .mapToLong(n -> lab.twin().linearFdbTop(n.name()) / 64 + 1).sum());
            out.printf(Locale.ROOT, "resolved: best %s  median %s  (discovery %s, LFT reads + pair routes + max-min "
                            + "fair share %s; medians of %d rounds after %d warm-up)%n", Stats.ms(Stats.min(total)),
                    Stats.ms(Stats.median(total)), Stats.ms(Stats.median(discoverNs)), Stats.ms(Stats.median(solveNs)), rounds, warmup);
            out.printf(Locale.ROOT, "heap: %.1f MiB live after a round (the discovered model, its LFT blocks and the "
                    + "result), median; %.1f MiB used in all%n", Stats.median(heap) / 1048576.0, Jvm.usedHeap() / 1048576.0);
            out.printf(Locale.ROOT, "result:   aggregate %.1f Gb/s; per pair min %.2f, mean %.2f, max %.2f Gb/s; %d "
                    + "unrouted%n", result.aggregateGbps(), result.minGbps(), result.meanGbps(), result.maxGbps(),
                    result.unrouted());
            out.printf(Locale.ROOT, "          pair 1 (%s -> %s): %s%n", pp.get(0).src().name(), pp.get(0).dst().name(),
                    result.pairs().get(0).why().text());
            out.flush();
            return result.unrouted() == 0 ? 0 : 1;
        }
    }

    private static String ordinal(int n) {
        String suffix = n % 100 >= 11 && n % 100 <= 13 ? "th" : switch (n % 10) {
            case 1 -> "st";
            case 2 -> "nd";
            case 3 -> "rd";
            default -> "th";
        };
        return n + suffix;
    }
}
