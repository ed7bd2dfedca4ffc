package org.ibtwin.cli;

import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.Callable;
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
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec.Target;

/**
 * {@code ibtwin bench nccl}: an all_reduce sweep (8 B to 8 GiB, factor 2) over every GPU of a rail-optimised fat
 * tree, as {@code ibtwin nccl all_reduce_perf -b 8 -e 8G -f 2} computes it: the routes, every ring and tree flow's
 * max-min fair share, each size's algorithm and protocol. Wall time per sweep and the heap it takes.
 */
@Command(name = "nccl", mixinStandardHelpOptions = true,
        description = "Time an all_reduce sweep (8 B..8 GiB) on a rail-optimised GPU fat tree.")
public final class BenchNcclCommand implements Callable<Integer> {
    @picocli.CommandLine.Spec(Target.SELF)
    CommandSpec spec;

    @Option(names = "--nodes", defaultValue = "512", description = "GPU nodes (default: ${DEFAULT-VALUE}).")
    int nodes;

    @Option(names = "--gpus", defaultValue = "8", description = "GPUs (and NICs) per node (default: ${DEFAULT-VALUE}).")
    int gpus;

    @Option(names = "--speed", defaultValue = "NDR", description = "Link speed (default: ${DEFAULT-VALUE}).")
    String speed;

    @Option(names = "--rounds", defaultValue = "3", description = "Measured sweeps (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--warmup", defaultValue = "1", description = "Warm-up sweeps (default: ${DEFAULT-VALUE}).")
    int warmup;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        LinkSpeed s = LinkSpeed.parse(speed);
        if (s == null) {
            throw new IllegalArgumentException("--speed: unknown speed '" + speed + "'");
        }
        if (rounds < 1 || warmup < 0) {
            throw new IllegalArgumentException("--rounds must be >= 1 and --warmup >= 0");
        }
        int radix = org.ibtwin.model.DeviceCatalog.switchFor(s).ports();
        GpuCluster.Spec cs = new GpuCluster.Spec(nodes, gpus, gpus, radix, s, true, "node%03d");
        err.println("bench nccl: building " + nodes + " nodes x " + gpus + " GPUs, rail-optimised, " + s.label()
                + " ...");
        err.flush();
        Fabric f = GpuCluster.build(cs);
        long fabricHeap = usedAfterGc();
        Job job = new Job(GpuNode.of(f), gpus);
        long[] wall = new long[rounds];
        CollectiveModel.Estimate last = null;
        int sizes = 0;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            p.resetPeakUsage();
        }
        for (int r = -warmup; r < rounds; r++) {
            long t0 = System.nanoTime();
            CollectiveModel m = new CollectiveModel(PerfParams.DEFAULT, CollectiveParams.DEFAULT,
                    NcclCommand.routes(f), job, Collective.ALL_REDUCE);
            sizes = 0;
            for (long b = 8; b <= 8L << 30; b *= 2) {
                last = m.estimate(b, 4, null, null);
                sizes++;
            }
            long t1 = System.nanoTime();
            if (r >= 0) {
                wall[r] = t1 - t0;
            }
        }
        long peak = 0;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP && p.getPeakUsage() != null) {
                peak += p.getPeakUsage().getUsed();
            }
        }
        out.printf(Locale.ROOT, "fabric: %d nodes x %d GPUs, rail-optimised %s in %d scalable units: %d CAs, %d "
                + "switches, %d links%n", nodes, gpus, s.label(), cs.units(), f.cas().size(), f.switches().size(),
                f.links().size());
        out.printf(Locale.ROOT, "sweep:  all_reduce_perf -b 8 -e 8G -f 2, %d ranks, %d sizes, every algorithm and "
                + "protocol%n", job.ranks(), sizes);
        long[] sorted = wall.clone();
        Arrays.sort(sorted);
        out.printf(Locale.ROOT, "wall:   best %.0f ms  median %.0f ms (%d rounds after %d warm-up; routes, flows, "
                + "fair share and every size)%n", sorted[0] / 1e6, sorted[sorted.length / 2] / 1e6, rounds, warmup);
        out.printf(Locale.ROOT, "heap:   %.0f MiB with the fabric built (after GC); peak %.0f MiB during the "
                + "sweeps; -Xmx %.0f MiB%n", fabricHeap / 1048576.0, peak / 1048576.0,
                Runtime.getRuntime().maxMemory() / 1048576.0);
        out.printf(Locale.ROOT, "8 GiB:  %s/%s, busbw %.1f GB/s: %s%n", last.algorithm().label(),
                last.protocol().label(), last.busbw(), last.why());
        out.flush();
        return 0;
    }

    private static long usedAfterGc() {
        Runtime rt = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return rt.totalMemory() - rt.freeMemory();
    }
}
