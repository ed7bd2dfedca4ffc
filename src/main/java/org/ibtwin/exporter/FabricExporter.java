package org.ibtwin.exporter;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.InfoSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import org.ibtwin.diag.MadQuery;
import org.ibtwin.diag.NetDiscovery;
import org.ibtwin.diag.NetFabric;
import org.ibtwin.diag.OpFailure;
import org.ibtwin.diag.PerfQueries;
import org.ibtwin.diag.QueryException;
import org.ibtwin.format.NodeNameMap;
import org.ibtwin.transport.MadTransport;
import org.ibtwin.transport.MadTransportException;

/**
 * One scrape of the fabric, as a Prometheus collector: a discovery ({@link NetDiscovery}, the reference exporter's
 * {@code ibnetdiscover}), then the counters of every cabled switch port and (when asked) of every cabled HCA port
 * through their PMAs ({@link PortReader}), published under the reference exporter's names: the
 * {@code infiniband_switch_port_*_total} and {@code infiniband_hca_port_*_total} counters (labels {@code guid},
 * {@code port}; the data counters in bytes), the {@code _info} and {@code uplink_info} metrics that carry the names,
 * LIDs and what each port is cabled to, the link rates, and each collector's duration, errors and timeouts.
 *
 * <p>The counters are this exporter's 64-bit running totals ({@link org.ibtwin.model.CounterTotals}, the SM's PerfMgr's too), so a reset by anyone or a
 * 16/32-bit PortCounters field does not show as a drop; the exporter itself clears counters only when asked
 * ({@link Options#resetCounters}: a port's PortCounters once one of them passes half its range). A port that does
 * not answer fails only itself: its device's {@code collect_error} or {@code collect_timeout} is 1 and
 * {@code infiniband_<switch|hca>_port_collect_error{guid,port}} is 1, while the rest of the scrape goes on. One
 * scrape runs at a time.
 */
public final class FabricExporter implements MultiCollector, AutoCloseable {
    /**
     * What to collect and how.
     *
     * @param switches      the switch collector (the reference's default)
     * @param hcas          the HCA collector (off by default there)
     * @param maxConcurrent devices read at once
     * @param resetCounters clear a port's 16/32-bit PortCounters once one passes half its range
     * @param runOnce       name the collectors {@code switch-runonce} etc. and add {@code last_execution}, as the
     *                      reference does when it writes a textfile
     * @param timestamps    give each port's counters the time its PMA answered, so that a scrape of a big fabric,
     *                      which reads ports over seconds, still gives exact rates (Prometheus honours them; a
     *                      node_exporter textfile must not carry them)
     */
    public record Options(boolean switches, boolean hcas, int maxConcurrent, boolean resetCounters, boolean runOnce,
                          boolean timestamps, NodeNameMap names, NetDiscovery.Config discovery) {
        public Options {
            if (maxConcurrent < 1) {
                throw new IllegalArgumentException("--max-concurrent must be at least 1, not " + maxConcurrent);
            }
            Objects.requireNonNull(names, "names");
            Objects.requireNonNull(discovery, "discovery");
        }
    }

    /** What a scrape found, besides the metrics (for the command's log line and the benchmark). */
    public record Scrape(int switches, int hcas, int ports, int failedPorts, double seconds) {
    }

    private static final String NS = "infiniband_";

    private final MadTransport transport;
    private final MadQuery query;
    private final Options opt;
    private final Consumer<String> log;
    private final org.ibtwin.model.CounterTotals totals = new org.ibtwin.model.CounterTotals();
    private final ExecutorService pool;
    private Scrape last;

    /** Collects over {@code transport} (kept open by the caller) with {@code query} over it; logs failures. */
    public FabricExporter(MadTransport transport, MadQuery query, Options opt, Consumer<String> log) {
        this.transport = Objects.requireNonNull(transport, "transport");
        this.query = Objects.requireNonNull(query, "query");
        this.opt = Objects.requireNonNull(opt, "opt");
        this.log = Objects.requireNonNull(log, "log");
        this.pool = Executors.newFixedThreadPool(opt.maxConcurrent(), r -> {
            Thread t = new Thread(r, "exporter-pma");
            t.setDaemon(true);
            return t;
        });
    }

    /** The last scrape's summary (null before the first). */
    public synchronized Scrape lastScrape() {
        return last;
    }

    private String collector(String name) {
        return opt.runOnce() ? name + "-runonce" : name;
    }

    /** A device's reading: its ports' readings, how long they took and when they were done (System.nanoTime). */
    private record DeviceRead(Device device, List<PortReader.Reading> ports, double seconds, long done) {
    }

    @Override
    public synchronized MetricSnapshots collect() {
        long start = System.nanoTime();
        Families fam = new Families();
        NetFabric fabric = null;
        double discoverErrors = 0;
        try {
            fabric = NetDiscovery.discover(transport, opt.discovery());
        } catch (NetDiscovery.Failed | MadTransportException e) {
            log.accept("discovery failed: " + e.getMessage());
            discoverErrors = 1;
        }
        double discoverSeconds = (System.nanoTime() - start) / 1e9;
        fam.exporter(collector("ibnetdiscover"), discoverErrors, 0, discoverSeconds);
        int switches = 0;
        int hcas = 0;
        int ports = 0;
        int failed = 0;
        if (fabric != null) {
            List<Device> devices = new ArrayList<>();
            for (Device d : Device.of(fabric, opt.names())) {
                if (d.isSwitch() ? opt.switches() : opt.hcas()) {
                    devices.add(d);
                }
            }
            List<Future<DeviceRead>> futures = new ArrayList<>(devices.size());
            PortReader reader = new PortReader(query);
            for (Device d : devices) {
                futures.add(pool.submit(() -> read(reader, d)));
            }
            Map<Boolean, double[]> stats = new LinkedHashMap<>();   // switch? -> {errors, timeouts, last done}
            long readStart = System.nanoTime();
            for (Future<DeviceRead> f : futures) {
                DeviceRead r = join(f);
                Device d = r.device();
                double[] st = stats.computeIfAbsent(d.isSwitch(), k -> new double[3]);
                st[2] = Math.max(st[2], (r.done() - readStart) / 1e9);
                String kind = d.isSwitch() ? "switch" : "hca";
                if (d.isSwitch()) {
                    switches++;
                } else {
                    hcas++;
                }
                boolean error = false;
                boolean timeout = false;
                for (PortReader.Reading p : r.ports()) {
                    ports++;
                    if (p.failed()) {
                        failed++;
                        if (p.failure().kind() == QueryException.Kind.TIMEOUT) {
                            timeout = true;
                        } else {
                            error = true;
                        }
                        fam.gauge(NS + kind + "_port_collect_error", "Indicates the port's counters could not be read",
                                Labels.of("guid", d.guidLabel(), "port", Integer.toString(p.port())), 1);
                        log.accept(String.format("%s %s \"%s\" port %d: %s", kind, d.guidLabel(), d.name(), p.port(),
                                p.failure().getMessage()));
                        continue;
                    }
                    long[] t = totals.add(d.guid(), p.port(), p.values(), p.bits());
                    fam.counters(d, p, t, opt.timestamps());
                }
                st[0] += error ? 1 : 0;
                st[1] += timeout ? 1 : 0;
                fam.device(d, collector(kind), r.seconds(), error ? 1 : 0, timeout ? 1 : 0);
            }
            // the collectors share the pool: each one's duration runs until its last device was read
            if (opt.switches()) {
                double[] st = stats.getOrDefault(true, new double[3]);
                fam.exporter(collector("switch"), st[0], st[1], st[2]);
            }
            if (opt.hcas()) {
                double[] st = stats.getOrDefault(false, new double[3]);
                fam.exporter(collector("hca"), st[0], st[1], st[2]);
            }
        }
        if (opt.runOnce()) {
            double now = System.currentTimeMillis() / 1000.0;
            for (String c : List.of("ibnetdiscover", "switch", "hca")) {
                if (c.equals("ibnetdiscover") || c.equals("switch") && opt.switches() || c.equals("hca") && opt.hcas()) {
                    fam.gauge(NS + "exporter_last_execution", "Last execution time of exporter",
                            Labels.of("collector", collector(c)), now);
                }
            }
        }
        last = new Scrape(switches, hcas, ports, failed, (System.nanoTime() - start) / 1e9);
        return fam.build();
    }

    private DeviceRead read(PortReader reader, Device d) {
        long t0 = System.nanoTime();
        List<PortReader.Reading> r = reader.read(d);
        if (opt.resetCounters()) {
            for (PortReader.Reading p : r) {
                if (!p.failed() && p.nearSaturation()) {
                    reset(d, p);
                }
            }
        }
        long done = System.nanoTime();
        return new DeviceRead(d, r, (done - t0) / 1e9, done);
    }

    /** Clears what {@code p} read from PortCounters, through perfquery's reset ({@code perfquery -R}). */
    private void reset(Device d, PortReader.Reading p) {
        int mask = p.basicMask();
        if (mask == 0) {
            return;
        }
        try {
            new PerfQueries(query, w -> { }).run(new PerfQueries.Request(d.lid(), p.port(), List.of(p.port()), mask,
                    true, false, true, true, false, false, false, false), new StringBuilder());
            totals.cleared(d.guid(), p.port(), CounterMetric.counters(mask));
        } catch (OpFailure e) {
            log.accept(String.format("reset of %s port %d failed: %s", d.guidLabel(), p.port(), e.getMessage()));
        }
    }

    private static DeviceRead join(Future<DeviceRead> f) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("scrape interrupted", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }

    /** The metric families of one scrape, filled as devices come in. */
    private static final class Families {
        private final Map<String, CounterSnapshot.Builder> counters = new LinkedHashMap<>();
        private final Map<String, List<CounterSnapshot.CounterDataPointSnapshot>> counterPoints =
                new LinkedHashMap<>();
        private final Map<String, String> gaugeHelp = new LinkedHashMap<>();
        private final Map<String, List<GaugeSnapshot.GaugeDataPointSnapshot>> gauges = new LinkedHashMap<>();
        private final Map<String, String> infoHelp = new LinkedHashMap<>();
        private final Map<String, List<InfoSnapshot.InfoDataPointSnapshot>> infos = new LinkedHashMap<>();

        void counters(Device d, PortReader.Reading p, long[] total, boolean timestamps) {
            String kind = d.isSwitch() ? "switch" : "hca";
            String who = d.isSwitch() ? "switch" : "HCA";
            Labels labels = Labels.of("guid", d.guidLabel(), "port", Integer.toString(p.port()));
            for (int i = 0; i < total.length; i++) {
                if (p.bits()[i] == 0) {
                    continue;
                }
                CounterMetric c = CounterMetric.ALL.get(i);
                String name = NS + kind + "_" + c.name();
                counters.computeIfAbsent(name, n -> CounterSnapshot.builder().name(n)
                        .help("Infiniband " + who + " port " + c.field()));
                double v = unsigned(total[i]) * (c.words() ? 4 : 1);
                var point = CounterSnapshot.CounterDataPointSnapshot.builder().labels(labels).value(v);
                if (timestamps) {
                    point.scrapeTimestampMillis(p.millis());
                }
                counterPoints.computeIfAbsent(name, n -> new ArrayList<>()).add(point.build());
            }
        }

        void device(Device d, String collector, double seconds, double error, double timeout) {
            String kind = d.isSwitch() ? "switch" : "hca";
            String who = d.isSwitch() ? "switch" : "HCA";
            String guid = d.guidLabel();
            Labels dc = Labels.of("guid", guid, "collector", collector);
            gauge(NS + kind + "_collect_duration_seconds", "Duration of collection", dc, seconds);
            gauge(NS + kind + "_collect_error", "Indicates if collect error", dc, error);
            gauge(NS + kind + "_collect_timeout", "Indicates if collect timeout", dc, timeout);
            info(NS + kind, "Infiniband " + who + " information",
                    Labels.of("guid", guid, kind, d.name(), "lid", Integer.toString(d.lid())));
            for (Device.Uplink u : d.uplinks()) {
                String port = Integer.toString(u.port());
                if (d.isSwitch()) {
                    Labels gp = Labels.of("guid", guid, "port", port);
                    gauge(NS + "switch_port_rate_bytes_per_second", "Infiniband switch port rate", gp, u.rate());
                    gauge(NS + "switch_port_raw_rate_bytes_per_second", "Infiniband switch port raw rate", gp,
                            u.rawRate());
                } else {
                    Labels g = Labels.of("guid", guid);
                    gauge(NS + "hca_rate_bytes_per_second", "Infiniband HCA rate", g, u.rate());
                    gauge(NS + "hca_raw_rate_bytes_per_second", "Infiniband HCA raw rate", g, u.rawRate());
                }
                info(NS + kind + "_uplink", "Infiniband " + who + " uplink information",
                        Labels.of("guid", guid, "port", port, kind, d.name(), "uplink", u.remoteName(),
                                "uplink_guid", Device.hex(u.remoteGuid()), "uplink_type", u.type(),
                                "uplink_port", Integer.toString(u.remotePort()),
                                "uplink_lid", Integer.toString(u.remoteLid())));
            }
        }

        void exporter(String collector, double errors, double timeouts, double seconds) {
            Labels c = Labels.of("collector", collector);
            gauge(NS + "exporter_collect_errors", "Number of errors that occurred during collection", c, errors);
            gauge(NS + "exporter_collect_timeouts", "Number of timeouts that occurred during collection", c,
                    timeouts);
            gauge(NS + "exporter_collector_duration_seconds", "Collector time duration.", c, seconds);
        }

        void gauge(String name, String help, Labels labels, double value) {
            gaugeHelp.putIfAbsent(name, help);
            gauges.computeIfAbsent(name, n -> new ArrayList<>())
                    .add(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(labels).value(value).build());
        }

        /** An {@code _info} metric: {@code name} is given without the suffix the exposition adds. */
        void info(String name, String help, Labels labels) {
            infoHelp.putIfAbsent(name, help);
            infos.computeIfAbsent(name, n -> new ArrayList<>())
                    .add(InfoSnapshot.InfoDataPointSnapshot.builder().labels(labels).build());
        }

        MetricSnapshots build() {
            List<MetricSnapshot> all = new ArrayList<>();
            for (var e : counters.entrySet()) {
                CounterSnapshot.Builder b = e.getValue();
                counterPoints.get(e.getKey()).forEach(b::dataPoint);
                all.add(b.build());
            }
            for (var e : gauges.entrySet()) {
                GaugeSnapshot.Builder b = GaugeSnapshot.builder().name(e.getKey()).help(gaugeHelp.get(e.getKey()));
                e.getValue().forEach(b::dataPoint);
                all.add(b.build());
            }
            for (var e : infos.entrySet()) {
                InfoSnapshot.Builder b = InfoSnapshot.builder().name(e.getKey()).help(infoHelp.get(e.getKey()));
                e.getValue().forEach(b::dataPoint);
                all.add(b.build());
            }
            all.sort(java.util.Comparator.comparing(s -> s.getMetadata().getPrometheusName()));
            return new MetricSnapshots(all);
        }

        private static double unsigned(long v) {
            return v >= 0 ? v : (double) (v >>> 1) * 2.0 + (v & 1);
        }
    }
}
