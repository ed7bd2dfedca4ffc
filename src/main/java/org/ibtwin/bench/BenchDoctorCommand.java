package org.ibtwin.bench;

import java.io.PrintWriter;
import java.util.Locale;
import org.ibtwin.doctor.Doctor;
import org.ibtwin.doctor.FabricState;
import org.ibtwin.doctor.Report;
import org.ibtwin.doctor.Snapshot;
import org.ibtwin.doctor.Thresholds;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.model.Cable;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.Node;
import org.ibtwin.model.PortCounter;
import org.ibtwin.model.PortState;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ibtwin bench doctor}: doctor over a 3-level fat tree (16,384 CAs by default) with LIDs assigned as an SM
 * would, a few planted faults and counters on every port: the time to build the state and run every check, the
 * findings, and the heap the fabric and state hold.
 */
@Command(name = "doctor", mixinStandardHelpOptions = true,
        description = "Time ibtwin doctor over a 3-level fat tree (default 16,384 CAs); report heap.")
public final class BenchDoctorCommand extends Bench {

    @Option(names = "--hosts", defaultValue = "16384", description = "CAs (default: ${DEFAULT-VALUE}).")
    int hosts;

    @Option(names = "--radix", defaultValue = "64", description = "Switch radix (default: ${DEFAULT-VALUE}).")
    int radix;

    @Mixin
    Rounds runs = new Rounds(3, 1);

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        int rounds = runs.rounds();
        int warmup = runs.warmup();
        progress("building a 3-level fat tree, radix " + radix + ", " + hosts + " CAs ...");
        long heap0 = Jvm.usedHeapAfterGc();
        Fabric f = FatTree.build(FatTreeSpec.of(3, radix, hosts).withSpeed(LinkSpeed.HDR));
        int lid = 1;
        for (Node n : f.switches()) {
            n.port(0).setLid(lid++);
        }
        for (Node n : f.cas()) {
            n.port(1).setLid(lid++);
            n.port(1).setCounter(PortCounter.XMIT_DATA, 1_000_000L + n.port(1).lid());
        }
        for (org.ibtwin.model.Link l : f.links()) {
            l.a().setState(PortState.ACTIVE);
            l.b().setState(PortState.ACTIVE);
        }
        // plant: a DDR inter-switch link, a 1x host link, errors on one port
        f.switches().get(0).port(radix / 2 + 1).link().setCable(Cable.UNRATED.withMaxSpeed(LinkSpeed.DDR));
        f.cas().get(7).port(1).link().setCable(Cable.UNRATED.withMaxWidth(org.ibtwin.model.LinkWidth.X1));
        f.cas().get(9).port(1).setCounter(PortCounter.SYMBOL_ERROR, 5000);
        long heapFabric = Jvm.usedHeapAfterGc() - heap0;
        long[] stateNs = new long[rounds];
        long[] checkNs = new long[rounds];
        long[] snapNs = new long[rounds];
        Report r = null;
        FabricState s = null;
        for (int i = -warmup; i < rounds; i++) {
            long t0 = System.nanoTime();
            s = FabricState.of(f, "bench", "generated");
            long t1 = System.nanoTime();
            r = Doctor.examine(s, new Thresholds());
            long t2 = System.nanoTime();
            Snapshot.of(s).toJson();
            long t3 = System.nanoTime();
            if (i >= 0) {
                stateNs[i] = t1 - t0;
                checkNs[i] = t2 - t1;
                snapNs[i] = t3 - t2;
            }
        }
        long heapAll = Jvm.usedHeapAfterGc() - heap0;
        java.util.Map<String, Long> perCheck = new java.util.LinkedHashMap<>();
        for (org.ibtwin.doctor.Check c : Doctor.checks()) {
            if (c.skipReason(s) == null) {
                long t0 = System.nanoTime();
                c.run(s, new Thresholds());
                perCheck.put(c.id(), System.nanoTime() - t0);
            }
        }
        out.printf(Locale.ROOT, "bench doctor: %d CAs, %d switches, %d links (3-level fat tree, radix %d, HDR)%n",
                f.cas().size(), f.switches().size(), f.links().size(), radix);
        out.printf(Locale.ROOT, "  build state     best %8.1f ms   median %8.1f ms%n", ms(Stats.min(stateNs)),
                ms(Stats.median(stateNs)));
        out.printf(Locale.ROOT, "  run %d checks   best %8.1f ms   median %8.1f ms%n", r.checked().size(),
                ms(Stats.min(checkNs)), ms(Stats.median(checkNs)));
        StringBuilder slow = new StringBuilder();
        perCheck.entrySet().stream().sorted(java.util.Map.Entry.<String, Long>comparingByValue().reversed()).limit(5)
                .forEach(e -> slow.append(String.format(Locale.ROOT, " %s %.1f ms", e.getKey(), ms(e.getValue()))));
        out.printf(Locale.ROOT, "  slowest checks: %s%n", slow.toString().trim());
        out.printf(Locale.ROOT, "  snapshot JSON   best %8.1f ms   median %8.1f ms%n", ms(Stats.min(snapNs)),
                ms(Stats.median(snapNs)));
        out.printf(Locale.ROOT, "  findings: %s%n", r.summary());
        r.findings().forEach(x -> out.printf(Locale.ROOT, "    %-8s %s %s%n", x.severity(), x.id(), x.where()));
        out.printf(Locale.ROOT, "  heap: fabric %.0f MiB, fabric + state + report %.0f MiB (used, after GC)%n",
                heapFabric / 1048576.0, heapAll / 1048576.0);
        out.flush();
        return s == null ? 1 : 0;
    }

    private static double ms(long ns) {
        return ns / 1e6;
    }
}
