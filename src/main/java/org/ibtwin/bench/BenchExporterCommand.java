package org.ibtwin.bench;

import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.util.Locale;
import org.ibtwin.diag.MadQuery;
import org.ibtwin.diag.NetDiscovery;
import org.ibtwin.exporter.FabricExporter;
import org.ibtwin.format.NodeNameMap;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.lab.LabTransport;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.LinkSpeed;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ibtwin bench exporter}: scrapes of {@code ibtwin exporter}'s collector (switch and HCA collectors) on a
 * generated fat tree (3 levels, 16,384 hosts by default) brought up in process by ibtwin's SM: each scrape's time
 * (discovery and every cabled port's PMA reads), the series and bytes of its exposition, and the heap.
 */
@Command(name = "exporter", mixinStandardHelpOptions = true,
        description = "Exporter: one scrape of a big twin (time, series, exposition bytes, heap).")
public final class BenchExporterCommand extends Bench {

    @Mixin
    FatTreeShape shape;

    @Option(names = "--scrapes", defaultValue = "3", description = "Scrapes timed (default: ${DEFAULT-VALUE}).")
    int scrapes;

    @Option(names = "--max-concurrent", defaultValue = "4",
            description = "Devices read at once (default: ${DEFAULT-VALUE}, the exporter's).")
    int maxConcurrent;

    @Override
    public Integer call() throws Exception {
        if (scrapes < 1) {
            throw new IllegalArgumentException("--scrapes must be at least 1");
        }
        PrintWriter out = spec.commandLine().getOut();
        Fabric f = FatTree.build(shape.spec(LinkSpeed.NDR));
        long b0 = System.nanoTime();
        try (LabTransport t = LabTransport.open(f, "the benchmark's fat tree", null)) {
            out.printf(Locale.ROOT, "%d-level fat tree, radix %d: %,d hosts, %,d switches, %,d links; up in %.1f s%n",
                    shape.levels(), shape.radix(), shape.hosts(), f.switches().size(), f.links().size(),
                            (System.nanoTime() - b0) / 1e9);
            long h0 = Jvm.usedHeapAfterGc();
            FabricExporter.Options opt = new FabricExporter.Options(true, true, maxConcurrent, false, false, true,
                    NodeNameMap.empty(), NetDiscovery.Config.defaults().withMaxSmps(4));
            try (FabricExporter ex = new FabricExporter(t, new MadQuery(t), opt, line -> { })) {
                for (int i = 1; i <= scrapes; i++) {
                    long c0 = System.nanoTime();
                    MetricSnapshots m = ex.collect();
                    long c1 = System.nanoTime();
                    ByteArrayOutputStream text = new ByteArrayOutputStream(1 << 24);
                    PrometheusTextFormatWriter.create().write(text, m);
                    long c2 = System.nanoTime();
                    int series = 0;
                    for (var s : m) {
                        series += s.getDataPoints().size();
                    }
                    FabricExporter.Scrape s = ex.lastScrape();
                    long held = Jvm.usedHeapAfterGc();
                    out.printf(Locale.ROOT, "scrape %d: %.2f s collect (%,d switches, %,d HCA ports, %,d ports read, "
                                    + "%d failed) + %.2f s exposition: %,d series, %.1f MiB of text; heap %.1f MiB "
                                    + "in use with the scrape held (%.1f MiB above the twin)%n", i, (c1 - c0) / 1e9,
                            s.switches(), s.hcas(), s.ports(), s.failedPorts(), (c2 - c1) / 1e9, series,
                            text.size() / 1048576.0, held / 1048576.0, (held - h0) / 1048576.0);
                    out.flush();
                }
                out.printf(Locale.ROOT, "heap: %.1f MiB in use between scrapes (the exporter keeps the running "
                        + "totals), %.1f MiB before the exporter%n", Jvm.usedHeapAfterGc() / 1048576.0, h0 / 1048576.0);
            }
        }
        out.flush();
        return 0;
    }
}
