package org.ibtwin.cli;

import java.io.PrintWriter;
import java.util.Arrays;
import java.util.Locale;
import org.ibtwin.bench.BenchSpeed;
import org.ibtwin.bench.Jvm;
import org.ibtwin.bench.Rounds;
import org.ibtwin.gen.GpuCluster;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.perf.PerfParams;
import org.ibtwin.perf.collective.Collective;
import org.ibtwin.perf.collective.CollectiveModel;
import org.ibtwin.perf.collective.CollectiveParams;
import org.ibtwin.perf.collective.GpuNode;
import org.ibtwin.perf.collective.Job;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ibtwin bench nccl}: an all_reduce sweep (8 B to 8 GiB, factor 2) over every GPU of a rail-optimised fat
 * tree, as {@code ibtwin nccl all_reduce_perf -b 8 -e 8G -f 2} computes it on the in-process twin: the fabric
 * brought up by ibtwin's SM and learnt through MADs ({@link PerfFabric}), then per round the routes followed through
 * the LFTs, every ring and tree flow's max-min fair share, each size's algorithm and protocol. The time split
 * (bring-up, discovery, LFT reads, model) and the heap it takes.
 */
@Command(name = "nccl", mixinStandardHelpOptions = true,
        description = "Time an all_reduce sweep (8 B..8 GiB) on a rail-optimised GPU fat tree.")
public final class BenchNcclCommand extends CliCommand {

    @Option(names = "--nodes", defaultValue = "512", description = "GPU nodes (default: ${DEFAULT-VALUE}).")
    int nodes;

    @Option(names = "--gpus", defaultValue = "8", description = "GPUs (and NICs) per node (default: ${DEFAULT-VALUE}).")
    int gpus;

    @Mixin
    BenchSpeed speed;

    @Mixin
    Rounds runs = new Rounds(3, 1);

    @Override
    public Integer call() {
        PrintWriter out = out();
        PrintWriter err = err();
        LinkSpeed s = speed.speed();
        int rounds = runs.rounds();
        int warmup = runs.warmup();
        int radix = org.ibtwin.model.DeviceCatalog.switchFor(s).ports();
        GpuCluster.Spec cs = new GpuCluster.Spec(nodes, gpus, gpus, radix, s, true, "node%03d");
        err.println("bench nccl: building " + nodes + " nodes x " + gpus + " GPUs, rail-optimised, " + s.label()
                + " ...");
        err.flush();
        long t0 = System.nanoTime();
        long c0 = Jvm.processCpuNanos();
        Fabric f = GpuCluster.build(cs);
        long built = System.nanoTime();
        long cBuilt = Jvm.processCpuNanos();
        err.println("bench nccl: bringing it up in the in-process twin (ibtwin's SM), learning it through MADs ...");
        err.flush();
        org.ibtwin.lab.LabTransport t = org.ibtwin.lab.LabTransport.open(f, "the fabric", null);
        long up = System.nanoTime();
        long cUp = Jvm.processCpuNanos();
        try (PerfFabric pf = PerfFabric.over(t, f, "the in-process twin", err, "bench nccl")) {
            long learnt = System.nanoTime();
            long cLearnt = Jvm.processCpuNanos();
            long heapUp = Jvm.usedHeapAfterGc();
            Job job = new Job(GpuNode.of(pf.fabric()), gpus);
            long[] wall = new long[rounds];
            long first = 0;
            long firstCpu = 0;
            long[] cpuRounds = new long[rounds];
            CollectiveModel.Estimate last = null;
            int sizes = 0;
            Jvm.resetPeaks();
            for (int r = -warmup; r < rounds; r++) {
                long r0 = System.nanoTime();
                long q0 = Jvm.processCpuNanos();
                CollectiveModel m = new CollectiveModel(PerfParams.DEFAULT, CollectiveParams.DEFAULT,
                        NcclCommand.routes(pf), job, Collective.ALL_REDUCE);
                sizes = 0;
                for (long x = 8; x <= 8L << 30; x *= 2) {
                    last = m.estimate(x, 4, null, null);
                    sizes++;
                }
                long r1 = System.nanoTime();
                long q1 = Jvm.processCpuNanos();
                if (r == -warmup) {
                    first = r1 - r0;
                    firstCpu = q1 - q0;
                }
                if (r >= 0) {
                    wall[r] = r1 - r0;
                    cpuRounds[r] = q1 - q0;
                }
            }
            long peak = Jvm.peakHeap();
            long[] sorted = wall.clone();
            Arrays.sort(sorted);
            long[] cpuSorted = cpuRounds.clone();
            Arrays.sort(cpuSorted);
            out.printf(Locale.ROOT, "fabric: %d nodes x %d GPUs, rail-optimised %s in %d scalable units: %d CAs, %d "
                    + "switches, %d links (built in %.0f ms, cpu %.0f ms)%n", nodes, gpus, s.label(), cs.units(),
                    f.cas().size(), f.switches().size(), f.links().size(), (built - t0) / 1e6, (cBuilt - c0) / 1e6);
            out.printf(Locale.ROOT, "up:     %.0f ms (cpu %.0f ms) for ibtwin's SM to bring the twin up; %.0f ms (cpu "
                    + "%.0f ms) to learn it through %,d SMPs%n", (up - built) / 1e6, (cUp - cBuilt) / 1e6,
                    (learnt - up) / 1e6, (cLearnt - cUp) / 1e6, pf.live().discoverySmps());
            out.printf(Locale.ROOT, "sweep:  all_reduce_perf -b 8 -e 8G -f 2, %d ranks, %d sizes, every algorithm and "
                    + "protocol; routes %s%n", job.ranks(), sizes, pf.routeSource());
            out.printf(Locale.ROOT, "first:  %.0f ms (cpu %.0f ms), the LFT blocks read through MADs as the routes "
                    + "need them%n", first / 1e6, firstCpu / 1e6);
            out.printf(Locale.ROOT, "model:  best %.0f ms  median %.0f ms per sweep, cpu best %.0f ms (%d rounds after %d "
                    + "warm-up: routes through the tables read, flows, fair share and every size)%n", sorted[0] / 1e6,
                    sorted[sorted.length / 2] / 1e6, cpuSorted[0] / 1e6, rounds, warmup);
            out.printf(Locale.ROOT, "heap:   %.0f MiB with the twin up and the fabric learnt (after GC); peak %.0f "
                    + "MiB during the sweeps; -Xmx %.0f MiB%n", heapUp / 1048576.0, peak / 1048576.0,
                    Runtime.getRuntime().maxMemory() / 1048576.0);
            out.printf(Locale.ROOT, "8 GiB:  %s/%s, busbw %.1f GB/s: %s%n", last.algorithm().label(),
                    last.protocol().label(), last.busbw(), last.why());
            out.flush();
            return 0;
        }
    }
}
