package org.ibtwin.cli;

import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import org.ibtwin.bench.FatTreeShape;
import org.ibtwin.bench.Jvm;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.lab.Lab;
import org.ibtwin.lab.TrafficEngine;
import org.ibtwin.lab.TrafficPattern;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.sm.SweepReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ibtwin bench web}: the web view of a generated fat tree's live twin (3 levels, 16,384 hosts by default),
 * brought up by ibtwin's SM: the time to build its view, the API's response times, and in a headless Chromium
 * (through Selenium) the map's first paint, with traffic running; {@code --screenshots DIR} saves the map and the
 * traffic page as PNGs.
 */
@Command(name = "web", mixinStandardHelpOptions = true,
        description = "Web view: view build time, API response times, the map's first paint in headless Chromium.")
public final class BenchWebCommand extends CliCommand {

    @Mixin
    FatTreeShape shape;

    @Option(names = "--pattern", defaultValue = "shift",
            description = "Traffic running while the pages are timed (default: ${DEFAULT-VALUE}; "
                    + TrafficPattern.USAGE + ").")
    String pattern;

    @Option(names = "--requests", defaultValue = "5", description = "Requests timed per endpoint (default: "
            + "${DEFAULT-VALUE}).")
    int requests;

    @Option(names = "--no-browser", description = "Time the API only.")
    boolean noBrowser;

    @Option(names = "--port", defaultValue = "0", description = "The web view's loopback port, chromedriver's the "
            + "next one (default: ${DEFAULT-VALUE}, any free ports).")
    int port;

    @Option(names = "--screenshots", paramLabel = "<dir>",
            description = "Save the map (web-map-<hosts>.png), the traffic page (web-traffic-<hosts>.png) and a "
                    + "what-if page (web-what-if-<hosts>.png: a leaf's uplinks pulled) there.")
    Path screenshots;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = out();
        if (requests < 1) {
            throw new IllegalArgumentException("--requests must be at least 1");
        }
        if (screenshots != null) {
            Files.createDirectories(screenshots);
            if (!Files.isWritable(screenshots)) {
                throw new IllegalArgumentException("--screenshots: " + screenshots + " is not writable");
            }
        }
        if (port < 0 || port > 65534) {
            throw new IllegalArgumentException("--port: " + port + " is not in 0..65534");
        }
        String browserMissing = noBrowser ? null : browserMissing();
        if (browserMissing != null && screenshots != null) {
            throw new IllegalArgumentException("--screenshots: no browser to take them: " + browserMissing);
        }
        TrafficPattern p = TrafficPattern.parse(List.of(pattern.split("\\s+")));
        Fabric f = FatTree.build(shape.spec(LinkSpeed.NDR));
        try (Lab lab = Lab.of(f).start()) {
            SweepReport r = lab.bringUp();
            out.printf(Locale.ROOT, "%d-level fat tree, radix %d: %,d hosts, %,d switches, %,d links; %s by "
                            + "ibtwin's SM in %.1f s%n", shape.levels(), shape.radix(), shape.hosts(),
                            f.switches().size(), f.links().size(),
                    r.subnetUp() ? "SUBNET UP" : "NOT UP", r.total().toNanos() / 1e9);
            out.flush();
            if (!r.subnetUp()) {
                return 1;
            }
            long v0 = System.nanoTime();
            WebView view = WebView.of(lab, shape.hosts() + "-host fat tree, live", "generated", port);
            out.printf(Locale.ROOT, "web view on %s: first view built in %.2f s (heap %.0f MiB in use)%n",
                    view.server.url(), (System.nanoTime() - v0) / 1e9, Jvm.usedHeap() / 1048576.0);
            out.flush();
            TrafficEngine engine = lab.traffic();
            engine.start(p, TrafficEngine.DEFAULT_SIZE);
            engine.run(1);
            Thread.sleep(1500);   // two reads of the counters: rates on the traffic page
            String base = view.server.url();
            String rack = firstRack(base);
            HttpClient http = HttpClient.newHttpClient();
            doctor(out, http, base, "the first /api/doctor (traffic running)");
            out.println("API (ms: min / median / max of " + requests + ", the response's size):");
            for (String path : List.of("api/fabric", "api/map", "api/map?pods=0", "api/map/pod?id=P0",
                    "api/map/rack?id=" + rack, "api/devices",
                    "api/ports", "api/ports.csv", "api/links?q=health=degraded", "api/doctor", "api/traffic",
                    "api/events")) {
                List<Double> ms = new ArrayList<>();
                long bytes = 0;
                for (int i = 0; i < requests; i++) {
                    long t0 = System.nanoTime();
                    HttpResponse<byte[]> resp = http.send(HttpRequest.newBuilder(URI.create(base + path)).build(),
                            HttpResponse.BodyHandlers.ofByteArray());
                    ms.add((System.nanoTime() - t0) / 1e6);
                    if (resp.statusCode() == 404 && path.startsWith("api/map/pod")) {
                        ms.clear();
                        break;   // a fabric drawn switch by switch has no pods
                    }
                    if (resp.statusCode() != 200) {
                        throw new IllegalStateException(path + ": HTTP " + resp.statusCode());
                    }
                    bytes = resp.body().length;
                }
                if (ms.isEmpty()) {
                    continue;
                }
                Collections.sort(ms);
                out.printf(Locale.ROOT, "  %-28s %8.1f %8.1f %8.1f   %,11d B%n", "/" + (path.contains("rack?")
                        ? "api/map/rack?id=<rack>" : path), ms.getFirst(), ms.get(ms.size() / 2), ms.getLast(), bytes);
                out.flush();
            }
            // the view read again while traffic runs: the counters moved, the links did not
            long seen = json(http, base + "api/fabric").get("version").asLong();
            long until = System.nanoTime() + 120_000_000_000L;
            while (json(http, base + "api/fabric").get("version").asLong() == seen && System.nanoTime() < until) {
                Thread.sleep(200);
            }
            doctor(out, http, base, "/api/doctor after the view was read again under traffic");
            if (!noBrowser) {
                if (browserMissing == null) {
                    new BenchWebBrowser(out, base, screenshots, shape.hosts(), port == 0 ? 0 : port + 1)
                            .run(screenshots == null ? null : whatIfChanges(base));
                } else {
                    out.println("browser: skipped, " + browserMissing);
                }
            }
            engine.halt();
            return 0;
        }
    }

    /** Times one /api/doctor and prints it with what its examination did ({@code /api/doctor/status}). */
    private static void doctor(PrintWriter out, HttpClient http, String base, String what) throws Exception {
        long t0 = System.nanoTime();
        HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(URI.create(base + "api/doctor")).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        double ms = (System.nanoTime() - t0) / 1e6;
        if (r.statusCode() != 200) {
            throw new IllegalStateException("api/doctor: HTTP " + r.statusCode());
        }
        com.fasterxml.jackson.databind.JsonNode s = json(http, base + "api/doctor/status").get("last");
        out.printf(Locale.ROOT, "doctor: %s: %.0f ms, %,d B; its examination %,d ms: %d of %d checks run, %d from "
                        + "the last examination%n", what, ms, r.body().length, s.get("millis").asLong(),
                s.get("ran").asInt(), s.get("checks").asInt(), s.get("reused").asInt());
        out.flush();
    }

    private static com.fasterxml.jackson.databind.JsonNode json(HttpClient http, String url) throws Exception {
        return new com.fasterxml.jackson.databind.ObjectMapper().readTree(http.send(HttpRequest.newBuilder(
                URI.create(url)).build(), HttpResponse.BodyHandlers.ofString()).body());
    }

    /**
     * What the browser part lacks (Selenium's jars, chromium, chromedriver), null when nothing; asked before any class
     * that names Selenium's ({@link BenchWebBrowser}, {@link org.ibtwin.web.Chromium}) is loaded.
     */
    private static String browserMissing() {
        try {
            Class.forName("org.openqa.selenium.remote.RemoteWebDriver", false, BenchWebCommand.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return "Selenium's jars are not in lib/ beside the jar (mvn package, which ./ibtwin runs, copies them "
                    + "to target/lib/)";
        }
        String miss = org.ibtwin.web.Chromium.missing();
        return miss == null ? null : miss + " not found (install " + org.ibtwin.web.Chromium.PACKAGES + ")";
    }

    private static String firstRack(String base) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base
                + "api/devices?limit=1&q=type=ca")).build(), HttpResponse.BodyHandlers.ofString());
        com.fasterxml.jackson.databind.JsonNode t = new com.fasterxml.jackson.databind.ObjectMapper().readTree(r.body());
        int col = 0;
        while (!t.get("columns").get(col).asText().equals("rack")) {
            col++;
        }
        String name = t.get("rows").get(0).get(col).asText();
        HttpResponse<String> d = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base
                + "api/devices?limit=1&q=name=" + name)).build(), HttpResponse.BodyHandlers.ofString());
        com.fasterxml.jackson.databind.JsonNode u = new com.fasterxml.jackson.databind.ObjectMapper().readTree(d.body());
        return "R" + u.get("rows").get(0).get(u.get("columns").size() - 1).asText();
    }

    /** The what-if the screenshot shows: a leaf's uplinks pulled, as lines of changes. */
    private static String whatIfChanges(String base) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base
                + "api/links?limit=100000&q=link~leaf")).build(), HttpResponse.BodyHandlers.ofString());
        com.fasterxml.jackson.databind.JsonNode t = new com.fasterxml.jackson.databind.ObjectMapper().readTree(r.body());
        Map<String, List<String>> ups = new LinkedHashMap<>();
        for (com.fasterxml.jackson.databind.JsonNode row : t.get("rows")) {
            String end = row.get(0).asText().split(" <-> ")[0];   // nearer the hosts first: a leaf's uplink
            String node = end.substring(0, end.lastIndexOf('/'));
            if (node.startsWith("leaf")) {
                ups.computeIfAbsent(node, k -> new ArrayList<>()).add("pull-cable " + end);
            }
        }
        // the second leaf (the SM runs on the first one's first host): its rack cut off from the rest
        List<List<String>> leaves = new ArrayList<>(ups.values());
        return String.join("\n", leaves.get(Math.min(1, leaves.size() - 1)));
    }
}
