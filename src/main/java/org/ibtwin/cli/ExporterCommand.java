package org.ibtwin.cli;

import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import org.ibtwin.diag.MadQuery;
import org.ibtwin.diag.NetDiscovery;
import org.ibtwin.exporter.FabricExporter;
import org.ibtwin.format.NodeNameMap;
import org.ibtwin.transport.MadTransport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ibtwin exporter}: a Prometheus exporter of the fabric's port counters under the metric names of the
 * infiniband_exporter (its dashboards work unchanged), over any transport the diag tools take. It serves
 * {@code /metrics} on loopback (each scrape discovers the fabric and reads the counters), or with
 * {@code --textfile} collects once and writes node_exporter's textfile atomically.
 */
@Command(name = "exporter", mixinStandardHelpOptions = true,
        description = "Prometheus exporter of the fabric's port counters (infiniband_exporter's metrics).",
        footer = {"", "Serves http://127.0.0.1:9315/metrics until stopped, or with --textfile collects once and "
                + "writes node_exporter's textfile (written beside it, then renamed over it)."})
public final class ExporterCommand extends CliCommand {

    @Mixin
    TransportOptions transport;

    @Option(names = {"--listen", "--web.listen-address"}, paramLabel = "HOST:PORT", defaultValue = "127.0.0.1:9315",
            description = "Where to serve /metrics (default: ${DEFAULT-VALUE}, loopback only).")
    String listen;

    @Option(names = {"--textfile", "--exporter.output"}, paramLabel = "PATH",
            description = "Collect once and write the metrics to PATH (node_exporter's textfile collector).")
    Path textfile;

    @Option(names = "--collector.switch", description = "Collect switch port counters (the default).")
    boolean switchOn;

    @Option(names = "--no-collector.switch", description = "Do not collect switch port counters.")
    boolean switchOff;

    @Option(names = "--collector.hca",
            description = "Collect HCA port counters (off by default, as infiniband_exporter's).")
    boolean hcaOn;

    @Option(names = "--no-collector.hca", description = "Do not collect HCA port counters (the default).")
    boolean hcaOff;

    @Option(names = {"--node-name-map", "--ibnetdiscover.node-name-map"}, paramLabel = "FILE",
            description = "Names for GUIDs (the tools' node name map; default: its usual file when present).")
    String nodeNameMap;

    @Option(names = {"--max-concurrent", "--perfquery.max-concurrent"}, paramLabel = "N", defaultValue = "4",
            description = "Devices read at once (default: ${DEFAULT-VALUE}).")
    int maxConcurrent;

    @Option(names = {"-t", "--timeout"}, paramLabel = "MS", defaultValue = "1000",
            description = "Timeout of one MAD in milliseconds, before its retries (default: ${DEFAULT-VALUE}).")
    int timeoutMs;

    @Option(names = "--timestamps", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Stamp each port's counters with the time its PMA answered (served metrics only; a "
                    + "textfile never carries them; default: on).")
    boolean timestamps;

    @Option(names = "--reset-counters",
            description = "Clear a port's 16/32-bit PortCounters once one passes half its range (never otherwise).")
    boolean resetCounters;

    @Override
    public Integer call() throws Exception {
        if (timeoutMs < 1) {
            throw new IllegalArgumentException("--timeout: must be a positive number of milliseconds, not "
                    + timeoutMs);
        }
        if (switchOn && switchOff || hcaOn && hcaOff) {
            throw new IllegalArgumentException("give --collector.X or --no-collector.X, not both");
        }
        boolean switches = !switchOff;
        boolean hcas = hcaOn;
        if (!switches && !hcas) {
            throw new IllegalArgumentException("nothing to collect: --no-collector.switch without --collector.hca");
        }
        String[] hostPort = textfile == null ? listenAddress(listen) : null;
        PrintWriter err = err();
        NetDiscovery.Config cfg = NetDiscovery.Config.defaults().withTimeout(Duration.ofMillis(timeoutMs))
                .withMaxSmps(4).withErrors(line -> err.println("ibtwin exporter: ibnetdisc: " + line));
        FabricExporter.Options opt = new FabricExporter.Options(switches, hcas, maxConcurrent, resetCounters,
                textfile != null, timestamps && textfile == null, NodeNameMap.open(nodeNameMap), cfg);
        if (textfile != null) {
            checkWritable(textfile);
        }
        try (MadTransport t = transport.open();
             FabricExporter exporter = new FabricExporter(t, new MadQuery(t).timeout(Duration.ofMillis(timeoutMs)),
                     opt, line -> err.println("ibtwin exporter: " + line))) {
            if (textfile != null) {
                writeTextfile(exporter.collect(), textfile);
                FabricExporter.Scrape s = exporter.lastScrape();
                err.printf("ibtwin exporter: %d switches, %d HCA ports, %d ports read (%d failed) in %.3f s: %s%n",
                        s.switches(), s.hcas(), s.ports(), s.failedPorts(), s.seconds(), textfile);
                err.flush();
                return 0;
            }
            PrometheusRegistry registry = new PrometheusRegistry();
            registry.register(exporter);
            HTTPServer server;
            try {
                server = HTTPServer.builder().hostname(hostPort[0]).port(Integer.parseInt(hostPort[1]))
                        .registry(registry).buildAndStart();
            } catch (IOException e) {
                throw new IllegalArgumentException("--listen " + listen + ": cannot listen there (" + e.getMessage()
                        + ")");
            }
            err.println("ibtwin exporter: serving http://" + hostPort[0] + ":" + server.getPort() + "/metrics");
            err.flush();
            CountDownLatch forever = new CountDownLatch(1);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                server.close();
                forever.countDown();
            }, "exporter-stop"));
            forever.await();
            return 0;
        }
    }

    /** {@code HOST:PORT}, checked: a port 0-65535 (0: any free one). */
    static String[] listenAddress(String s) {
        int colon = s.lastIndexOf(':');
        String host = colon < 0 ? "127.0.0.1" : s.substring(0, colon);
        String port = colon < 0 ? s : s.substring(colon + 1);
        if (host.isEmpty()) {
            host = "127.0.0.1";
        }
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        try {
            int p = Integer.parseInt(port);
            if (p >= 0 && p <= 0xffff) {
                return new String[] {host, Integer.toString(p)};
            }
        } catch (NumberFormatException e) {
            // the message below
        }
        throw new IllegalArgumentException("--listen " + s + ": not HOST:PORT (a port 0-65535)");
    }

    /** Fails before the scrape when the textfile's directory cannot take it. */
    private static void checkWritable(Path file) {
        Path dir = file.toAbsolutePath().getParent();
        if (Files.isDirectory(file)) {
            throw new IllegalArgumentException("--textfile " + file + ": is a directory");
        }
        if (dir == null || !Files.isDirectory(dir) || !Files.isWritable(dir)) {
            throw new IllegalArgumentException("--textfile " + file + ": cannot write there (" + (dir == null
                    || !Files.isDirectory(dir) ? "no such directory" : "directory not writable") + ")");
        }
    }

    /**
     * Writes the metrics beside {@code file} and renames the result over it, so node_exporter never reads half a
     * file (its textfile collector reads {@code *.prom} only, and the temporary name does not end so).
     */
    static void writeTextfile(MetricSnapshots metrics, Path file) throws IOException {
        Path abs = file.toAbsolutePath();
        Path tmp = abs.resolveSibling("." + abs.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
        try {
            try (OutputStream out = Files.newOutputStream(tmp)) {
                PrometheusTextFormatWriter.create().write(out, metrics);
            }
            try {
                Files.move(tmp, abs, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            Files.deleteIfExists(tmp);
            throw new IllegalArgumentException("--textfile " + file + ": cannot write (" + e.getMessage() + ")");
        }
    }
}
