package org.ibtwin.bench;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import org.ibtwin.format.PartitionsConf;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.lab.FailureSweep;
import org.ibtwin.lab.Rehearsal;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Node;
import org.ibtwin.sm.SmConfig;
import org.ibtwin.whatif.Change;
import org.ibtwin.whatif.Report;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ibtwin bench what-if}: a partition change rehearsed on a 16,384-host 3-level fat tree (one twin brought
 * up and learnt through MADs, the after side from the SM's P_Key rules, compared), and {@code --each-link} over a
 * 1,024-host 2-level tree and a 16,384-host 3-level tree (wall time, scenarios a second; on the big tree a sample of
 * the scenarios spread evenly over them, {@code --sample}, and the projected time of all).
 */
@Command(name = "what-if", mixinStandardHelpOptions = true,
        description = "what-if: a partition change on 16,384 hosts; --each-link on 1,024 and 16,384 hosts.")
public final class BenchWhatIfCommand extends Bench {

    @Option(names = "--partition-hosts", defaultValue = "16384", description = "Hosts of the 3-level tree the "
            + "partition change runs on (default: ${DEFAULT-VALUE}; 0: skip).")
    int partitionHosts;

    @Option(names = "--each-link-hosts", defaultValue = "1024", description = "Hosts of the 2-level tree "
            + "--each-link runs on in full (default: ${DEFAULT-VALUE}; 0: skip).")
    int eachHosts;

    @Option(names = "--big-hosts", defaultValue = "16384", description = "Hosts of the 3-level tree --each-link "
            + "samples (default: ${DEFAULT-VALUE}; 0: skip).")
    int bigHosts;

    @Option(names = "--sample", defaultValue = "64", description = "Scenarios timed on the 3-level tree (default: "
            + "${DEFAULT-VALUE}).")
    int sample;

    @Option(names = {"--jobs", "-j", "--threads"}, paramLabel = "N", description = "Scenarios at once (default: the "
            + "cores).")
    Integer threads;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        int th = threads != null ? threads : Runtime.getRuntime().availableProcessors();
        if (th < 1 || sample < 1) {
            throw new IllegalArgumentException("--jobs and --sample must be 1 or more");
        }
        Rehearsal.Settings settings = new Rehearsal.Settings(SmConfig.defaults(), null, null, null);
        if (partitionHosts > 0) {
            Supplier<Fabric> load = () -> FatTree.build(FatTreeSpec.of(3, 64, partitionHosts));
            Fabric f = load.get();
            StringBuilder conf = new StringBuilder("Default=0x7fff, ipoib : ALL=limited, SELF=full ;\n");
            List<Node> cas = f.cas();
            for (int t = 0; t < 2; t++) {
                conf.append(t == 0 ? "tenantA=0x8001, ipoib :" : "tenantB=0x8002, ipoib :");
                for (int i = t * cas.size() / 2; i < (t + 1) * cas.size() / 2; i++) {
                    conf.append(i == t * cas.size() / 2 ? " " : ", ").append(String.format(Locale.ROOT,
                            "0x%016x=full", cas.get(i).port(1).guid()));
                }
                conf.append(" ;\n");
            }
            Change c = new Change.Partitions(PartitionsConf.parse(conf.toString(), "two-tenants.conf"));
            long t0 = System.nanoTime();
            Report r = Rehearsal.run(load, "3-level fat tree", settings, List.of(c));
            long wall = System.nanoTime() - t0;
            Runtime rt = Runtime.getRuntime();
            out.printf(Locale.ROOT, "partition change (two tenants of %,d hosts each) on a 3-level fat tree of %,d "
                    + "hosts: %.1f s wall (one twin up and learnt through MADs, the after side by the SM's P_Key rules, "
                    + "%,d host pairs compared); %,d pairs "
                    + "lost, %,d ports change; heap %,d MiB%n", partitionHosts / 2, partitionHosts, wall / 1e9,
                    r.pairs(), r.lostPairs(), r.partitionNodes(), (rt.totalMemory() - rt.freeMemory()) >> 20);
            out.flush();
        }
        if (eachHosts > 0) {
            FailureSweep.Result r = Rehearsal.eachFailure(() -> FatTree.build(FatTreeSpec.of(2, 64, eachHosts)),
                    "2-level", settings, false, th);
            out.printf(Locale.ROOT, "--each-link on a 2-level fat tree of %,d hosts: %,d scenarios in %.2f s on %d "
                    + "threads, %.1f scenarios/s (%,d of %,d destination trees followed again, %,d of %,d shift pairs "
                    + "made again)%n", eachHosts, r.scenarios().size(), r.wallNanos() / 1e9, th,
                    r.scenarios().size() / (r.wallNanos() / 1e9), r.destinationsFollowed(), r.destinationsTotal(),
                    r.shiftPairsMadeAgain(), r.shiftPairsTotal());
            out.flush();
        }
        if (bigHosts > 0) {
            FailureSweep.Result r = Rehearsal.eachFailure(() -> FatTree.build(FatTreeSpec.of(3, 64, bigHosts)),
                    "3-level", settings, false, th, sample);
            Fabric f = FatTree.build(FatTreeSpec.of(3, 64, bigHosts));
            long isl = f.links().stream().filter(l -> l.a().node().isSwitch() && l.b().node().isSwitch()).count();
            double rate = r.scenarios().size() / (r.wallNanos() / 1e9);
            out.printf(Locale.ROOT, "--each-link on a 3-level fat tree of %,d hosts: a sample of %,d of its %,d "
                    + "scenarios (spread evenly) in %.2f s on %d threads, %.2f scenarios/s (all of them: about %.0f s, "
                    + "projected; %,d of %,d shift pairs made again)%n", bigHosts, r.scenarios().size(), isl,
                    r.wallNanos() / 1e9, th, rate, isl / rate, r.shiftPairsMadeAgain(), r.shiftPairsTotal());
            out.flush();
        }
        return 0;
    }
}
