package org.ibtwin.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import org.ibtwin.cli.Main;
import org.ibtwin.format.TopologyWriter;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.model.Fabric;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ibtwin exporter} graphed by a real Prometheus (Debian's {@code prometheus}): {@code ibtwin up} serves a
 * 1,024-host fat tree over its ibsim endpoint with its console on our pipe, the exporter attaches to it as an ibsim
 * client and serves /metrics on loopback, Prometheus scrapes it every 15 s (the exporter stamps each port's
 * counters with the time its PMA answered, so rates stay exact however long a scrape takes on a loaded machine), and the console's {@code traffic start
 * shift} moves the counters. Prometheus's HTTP API then answers: the target is up, the reference exporter's metric
 * names are there, and {@code irate()} of each host's transmit bytes (the rate between its last two samples; {@code rate()}
 * divides by the whole window, which the first samples do not fill yet) is the rate its flow runs at (the traffic
 * engine's status), its ACKs and headers on top.
 */
@Tag("interop")
@Timeout(400)
class PrometheusInteropTest {
    /** This test's band is 24500..24599: ibsim endpoint (and the ten after it), exporter, Prometheus; two tries. */
    static final int[][] PORTS = {{24500, 24520, 24530}, {24550, 24570, 24580}};
    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;
    final List<Process> started = new ArrayList<>();
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    Path upOut;
    Writer console;

    @AfterEach
    void stop() {
        for (int i = started.size() - 1; i >= 0; i--) {
            RealTools.stop(started.get(i));
        }
    }

    private Process start(Path out, String... cmd) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(out.toFile());
        pb.environment().remove("LD_PRELOAD");
        Process p = pb.start();
        started.add(p);
        return p;
    }

    private Process ibtwin(Path out, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        cmd.addAll(List.of(args));
        return start(out, cmd.toArray(new String[0]));
    }

    private static boolean waitFor(Process p, Path out, String text, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (p.isAlive() && !RealTools.read(out).contains(text) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        return p.isAlive() && RealTools.read(out).contains(text);
    }

    /** Types a console line and waits for the next prompt; returns what the console printed. */
    private String type(String line) throws Exception {
        return IbtwinUp.type(console, upOut, line);
    }

    private JsonNode api(int port, String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
        JsonNode j = JSON.readTree(r.body());
        assertThat(j.path("status").asText()).as(r.body()).isEqualTo("success");
        return j.path("data");
    }

    private JsonNode query(int port, String promql) throws Exception {
        return api(port, "/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8)).path("result");
    }

    @Test
    void prometheusGraphsTheRatesOfA1024HostTwinsTraffic() throws Exception {
        Optional<Path> prom = RealTools.executable("prometheus");
        if (prom.isEmpty()) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                fail("CI=true but prometheus not found (scripts/setup installs it)");
            }
            System.err.println("INTEROP SKIPPED: prometheus not found (apt-get install prometheus)");
            org.junit.jupiter.api.Assumptions.assumeTrue(false, "INTEROP SKIPPED: prometheus not found");
        }
        Fabric f = FatTree.build(FatTreeSpec.of(2, 64, 1024));
        Path topo = dir.resolve("fat.topo");
        TopologyWriter.write(f, topo);

        int[] ports = null;
        for (int[] p : PORTS) {
            upOut = dir.resolve("up-" + p[0] + ".out");
            Process up = ibtwin(upOut, "up", topo.toString(), "--port", Integer.toString(p[0]), "--sweep", "0");
            console = new OutputStreamWriter(up.getOutputStream(), StandardCharsets.UTF_8);
            if (waitFor(up, upOut, RealTools.READY, 120)) {
                ports = p;
                break;
            }
            RealTools.stop(up);
            started.remove(up);
        }
        assertThat(ports).as("ibtwin up started on one of the test's ports").isNotNull();
        Path exOut = dir.resolve("exporter.out");
        Process exporter = ibtwin(exOut, "exporter", "--ibsim", "127.0.0.1:" + ports[0], "--listen",
                "127.0.0.1:" + ports[1], "--collector.hca");
        assertThat(waitFor(exporter, exOut, "serving http://127.0.0.1:" + ports[1] + "/metrics", 60))
                .as(RealTools.read(exOut)).isTrue();

        String status = type("traffic start shift");
        Map<String, Double> flowGbps = new HashMap<>();
        Matcher m = TrafficInteropTest.FLOW.matcher(status);
        while (m.find()) {
            flowGbps.put(m.group(1), Double.parseDouble(m.group(3)));
        }
        assertThat(flowGbps).as(status).isNotEmpty();

        Path config = dir.resolve("prometheus.yml");
        Files.writeString(config, """
                global:
                  scrape_interval: 15s
                  scrape_timeout: 15s
                scrape_configs:
                  - job_name: infiniband
                    static_configs:
                      - targets: ['127.0.0.1:%d']
                """.formatted(ports[1]));
        Path promOut = dir.resolve("prometheus.out");
        Process p = start(promOut, prom.orElseThrow().toString(), "--config.file=" + config,
                "--storage.tsdb.path=" + dir.resolve("tsdb"), "--web.listen-address=127.0.0.1:" + ports[2]);
        assertThat(waitFor(p, promOut, "Server is ready to receive web requests", 60)).as(RealTools.read(promOut))
                .isTrue();

        String rate = "irate(infiniband_hca_port_transmit_data_bytes_total[1m]) * on(guid) group_left(hca) "
                + "infiniband_hca_info";
        JsonNode result = null;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (System.nanoTime() < deadline) {
            result = query(ports[2], rate);
            if (result.size() >= 1024) {
                break;
            }
            Thread.sleep(1000);
        }
        assertThat(result).as("rates of every host's port in Prometheus; exporter: "
                + RealTools.tail(RealTools.read(exOut))).hasSize(1024);

        JsonNode up = query(ports[2], "up{job=\"infiniband\"}");
        assertThat(up.get(0).path("value").get(1).asText()).isEqualTo("1");
        JsonNode errors = query(ports[2], "infiniband_exporter_collect_errors");
        for (JsonNode e : errors) {
            assertThat(e.path("value").get(1).asText()).as(e.toString()).isEqualTo("0");
        }
        List<String> names = new ArrayList<>();
        api(ports[2], "/api/v1/label/__name__/values").forEach(n -> names.add(n.asText()));
        assertThat(names).contains("infiniband_switch_port_transmit_data_bytes_total",
                "infiniband_switch_port_receive_data_bytes_total", "infiniband_switch_port_symbol_error_total",
                "infiniband_switch_uplink_info", "infiniband_switch_info", "infiniband_switch_collect_duration_seconds",
                "infiniband_hca_port_transmit_data_bytes_total", "infiniband_hca_info", "infiniband_hca_uplink_info",
                "infiniband_hca_rate_bytes_per_second", "infiniband_exporter_collector_duration_seconds");

        int compared = 0;
        for (JsonNode r : result) {
            String host = r.path("metric").path("hca").asText().split(" ")[0];
            Double gbps = flowGbps.get(host);
            if (gbps == null) {
                continue;   // the console shows some flows, not all
            }
            double bytesPerSecond = r.path("value").get(1).asDouble();
            assertThat(bytesPerSecond).as(host + " transmits at the rate of its flow, %.2f Gb/s", gbps)
                    .isBetween(gbps * 1e9 / 8 * 0.9, gbps * 1e9 / 8 * 1.25);
            compared++;
        }
        assertThat(compared).isGreaterThanOrEqualTo(Math.min(5, flowGbps.size()));
    }
}
