package org.ibtwin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** {@code ibtwin web} through the command line: its JSON API and CSV on the default fabric, and its bad input. */
class WebCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newHttpClient();

    private HttpResponse<String> get(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private JsonNode json(String url) throws Exception {
        HttpResponse<String> r = get(url);
        assertThat(r.statusCode()).as(url).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("application/json");
        return JSON.readTree(r.body());
    }

    @Test
    void servesTheDefaultFabricReadOnly() throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        AtomicInteger code = new AtomicInteger(-1);
        Thread t = new Thread(() -> code.set(Cli.execute(out, err, "web", "--port", "24761")));
        t.start();
        try {
            long end = System.nanoTime() + 60_000_000_000L;
            while (!out.toString().contains("web view on ") && System.nanoTime() < end && t.isAlive()) {
                Thread.sleep(20);
            }
            assertThat(out.toString()).contains("ibtwin web: default (built-in): 65 nodes (5 switches, 60 CAs), "
                    + "120 links").contains("web view on http://127.0.0.1:24761/ (read-only, what-ifs on copies;");
            String base = "http://127.0.0.1:24761/";

            JsonNode f = json(base + "api/fabric");
            assertThat(f.get("live").asBoolean()).isFalse();
            assertThat(f.get("switches").asInt()).isEqualTo(5);
            assertThat(f.get("hosts").asInt()).isEqualTo(60);
            assertThat(f.get("linkHealth").get("degraded").asInt()).isEqualTo(1);

            JsonNode map = json(base + "api/map");
            List<Integer> racks = new ArrayList<>();
            int switches = 0;
            for (JsonNode n : map.get("nodes")) {
                String kind = n.get("data").get("kind").asText();
                switches += kind.equals("switch") ? 1 : 0;
                if (kind.equals("rack")) {
                    racks.add(n.get("data").get("hosts").asInt());
                }
            }
            assertThat(switches).isEqualTo(5);
            assertThat(racks).containsExactly(20, 20, 20);
            String rack = map.get("nodes").get(5).get("data").get("id").asText();
            assertThat(json(base + "api/map/rack?id=" + rack).get("nodes")).hasSize(20);

            JsonNode deg = json(base + "api/links?q=health=degraded");
            assertThat(deg.get("total").asInt()).isEqualTo(1);
            assertThat(deg.get("rows").get(0).get(0).asText()).isEqualTo("leaf02/33 <-> spine01/17");
            String linkId = deg.get("rows").get(0).get(deg.get("rows").get(0).size() - 1).asText();
            JsonNode link = json(base + "api/link?id=" + linkId);
            assertThat(link.get("link").get("couldBe").asText()).isEqualTo("4xHDR");
            assertThat(link.get("ports")).hasSize(2);

            HttpResponse<String> csv = get(base + "api/ports.csv?q=couldbe%3D4xhdr");
            assertThat(csv.headers().firstValue("Content-Type").orElse("")).startsWith("text/csv");
            assertThat(csv.body().lines().toList()).hasSize(3);
            assertThat(csv.body()).contains("\r\nleaf02,33,").contains("\r\nspine01,17,");

            JsonNode doc = json(base + "api/doctor");
            List<String> ids = new ArrayList<>();
            for (JsonNode x : doc.get("findings")) {
                ids.add(x.get("id").asText());
                if (x.get("id").asText().equals("T04")) {
                    assertThat(x.get("targets").get(0).asText()).isEqualTo(linkId);
                }
            }
            assertThat(ids).contains("T04", "T07", "T14");

            assertThat(get(base + "webjars/cytoscape/dist/cytoscape.min.js").statusCode()).isEqualTo(200);
            assertThat(get(base + "webjars/uplot/dist/uPlot.iife.min.js").statusCode()).isEqualTo(200);
            assertThat(get(base).body()).contains("<title>ibtwin</title>");
            assertThat(get(base + "api/nosuch").statusCode()).isEqualTo(404);
            assertThat(get(base + "app/../../secret").statusCode()).isEqualTo(404);
            HttpResponse<String> post = http.send(HttpRequest.newBuilder(URI.create(base + "api/fabric"))
                    .POST(HttpRequest.BodyPublishers.ofString("x")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(post.statusCode()).isEqualTo(405);
            assertThat(json(base + "api/events").get(0).get("text").asText()).startsWith("serving ");
        } finally {
            t.interrupt();
            t.join(10_000);
        }
        assertThat(t.isAlive()).isFalse();
    }

    @Test
    void badInputIsOneLineAndExitTwo() throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertThat(Cli.executeAfresh(out, err, "web", "--port", "70000")).isEqualTo(2);
        assertThat(err.toString().strip()).isEqualTo("ibtwin web: --port: port 70000 is not in 0..65535");
        assertThat(Cli.executeAfresh(out, err, "web", "--port", "0", "no/such/fabric.topo")).isEqualTo(2);
        assertThat(err.toString().strip().lines().count()).isEqualTo(1);
        assertThat(err.toString()).contains("no/such/fabric.topo");
        assertThat(Cli.executeAfresh(out, err, "up", "--web", "--once")).isEqualTo(2);
        assertThat(err.toString()).contains("--web serves until quit");
        try (ServerSocket taken = new ServerSocket(24762, 1, java.net.InetAddress.getLoopbackAddress())) {
            assertThat(taken.isBound()).isTrue();
            assertThat(Cli.executeAfresh(out, err, "web", "--port", "24762", "default")).isEqualTo(2);
            assertThat(err.toString().strip()).startsWith("ibtwin web: --port: port 24762 of 127.0.0.1: ");
            assertThat(err.toString().strip().lines().count()).isEqualTo(1);
        }
    }
}
