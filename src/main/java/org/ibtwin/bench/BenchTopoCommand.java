package org.ibtwin.bench;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.ibtwin.format.TopologyReader;
import org.ibtwin.format.TopologyWriter;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.LinkSpeed;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ibtwin bench topo}: how long parsing and writing a 3-level fat tree's ibnetdiscover file takes, and how much
 * heap the parsed fabric holds. Runs warm-up rounds first; prints the best and median of the measured rounds.
 */
@Command(name = "topo", mixinStandardHelpOptions = true,
        description = "Time writing and parsing the topology file of a 3-level fat tree; report heap.")
public final class BenchTopoCommand extends Bench {

    @Option(names = "--hosts", defaultValue = "50000", description = "Hosts (default: ${DEFAULT-VALUE}).")
    int hosts;

    @Option(names = "--radix", defaultValue = "64", description = "Switch radix (default: ${DEFAULT-VALUE}).")
    int radix;

    @Mixin
    BenchSpeed speed;

    @Mixin
    Rounds runs = new Rounds(5, 2);

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        LinkSpeed s = speed.speed();
        int rounds = runs.rounds();
        int warmup = runs.warmup();
        FatTreeSpec fs = FatTreeSpec.of(3, radix, hosts).withSpeed(s);
        progress("building a 3-level fat tree, radix " + radix + ", " + hosts + " hosts ...");
        Fabric f = FatTree.build(fs);
        Path dir = Files.createTempDirectory("ibtwin-bench");
        Path topo = dir.resolve("fabric.topo");
        try {
            long[] writeNs = new long[rounds];
            long[] readNs = new long[rounds];
            for (int r = -warmup; r < rounds; r++) {
                progress("round " + (r < 0 ? "warm-up " + (r + warmup + 1) : (r + 1) + "/" + rounds));
                long t0 = System.nanoTime();
                TopologyWriter.write(f, topo);
                long t1 = System.nanoTime();
                Fabric back = TopologyReader.read(topo);
                long t2 = System.nanoTime();
                if (back.size() != f.size() || back.links().size() != f.links().size()) {
                    throw new IllegalStateException("read back " + back.size() + " nodes, wrote " + f.size());
                }
                if (r >= 0) {
                    writeNs[r] = t1 - t0;
                    readNs[r] = t2 - t1;
                }
            }
            long bytes = Files.size(topo);
            long retained = retainedHeap(topo);
            out.printf(Locale.ROOT, "fabric: 3-level fat tree, radix %d, %s: %d hosts, %d switches, %d links%n",
                    radix, s, f.cas().size(), f.switches().size(), f.links().size());
            out.printf(Locale.ROOT, "file:   %.1f MiB ibnetdiscover text%n", bytes / 1048576.0);
            out.printf(Locale.ROOT, "write:  best %s  median %s  (%d rounds after %d warm-up)%n", Stats.ms(Stats.min(writeNs)),
                    Stats.ms(Stats.median(writeNs)), rounds, warmup);
            out.printf(Locale.ROOT, "parse:  best %s  median %s%n", Stats.ms(Stats.min(readNs)), Stats.ms(Stats.median(readNs)));
            out.printf(Locale.ROOT, "heap:   parsed fabric retains %.1f MiB; peak heap in use %.1f MiB (max heap %.0f MiB)%n",
                    retained / 1048576.0, Jvm.peakHeap() / 1048576.0,
                    Runtime.getRuntime().maxMemory() / 1048576.0);
            out.flush();
        } finally {
            Files.deleteIfExists(topo);
            Files.deleteIfExists(dir);
        }
        return 0;
    }

    /** Heap held by one parsed fabric: used heap after GC with it alive, minus without it. */
    private static long retainedHeap(Path topo) {
        long before = Jvm.usedHeapAfterGc();
        Fabric keep = TopologyReader.read(topo);
        long after = Jvm.usedHeapAfterGc();
        if (keep.size() < 0) {
            throw new IllegalStateException();
        }
        return after - before;
    }

}
