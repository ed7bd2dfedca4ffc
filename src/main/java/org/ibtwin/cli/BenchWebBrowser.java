package org.ibtwin.cli;

import java.io.PrintWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import org.ibtwin.web.Chromium;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.remote.RemoteWebDriver;

/**
 * {@code ibtwin bench web}'s browser part: the map's first paint in a headless Chromium driven through Selenium, and
 * the screenshots. Selenium is not inside ibtwin.jar: the build puts its jars in {@code target/lib/}, which the jar's
 * manifest names, and {@link BenchWebCommand} makes sure they (and the browser) are there before it loads this class,
 * the only one of the bench that names Selenium's.
 */
record BenchWebBrowser(PrintWriter out, String base, Path screenshots, int hosts, int driverPort) {
    /** Times the map's first paint; with screenshots, takes them (the what-if page rehearsing {@code changes}). */
    void run(String changes) throws Exception {
        int port = driverPort;
        if (port == 0) {
            try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
                port = s.getLocalPort();
            }
        }
        try (Chromium c = Chromium.start(port, 1600, 1000)) {
            RemoteWebDriver d = c.driver();
            JavascriptExecutor js = d;
            firstPaint(c, base, "");
            boolean pods = Boolean.TRUE.equals(js.executeScript(
                    "return ibtwin.cy.nodes('[kind=\"pod\"]').length > 0"));
            if (pods) {
                js.executeScript("ibtwin.lastUnfold = null; unfoldPod(0);");
                @SuppressWarnings("unchecked")
                java.util.Map<String, Object> u = (java.util.Map<String, Object>) c.await(
                        "return ibtwin.lastUnfold", Duration.ofMinutes(2));
                out.printf(Locale.ROOT, "browser: a pod unfolded (double-click) and drawn in %.0f ms: %,d nodes, "
                        + "%,d edges%n", num(u, "ms"), (long) num(u, "nodes"), (long) num(u, "edges"));
                js.executeScript("collapse()");
            }
            if (pods && screenshots == null) {
                firstPaint(c, base + "?pods=0", " switch by switch (?pods=0)");
            }
            out.flush();
            if (screenshots != null) {
                Thread.sleep(500);
                Path map = screenshots.resolve("web-map-" + hosts + ".png");
                Files.write(map, d.getScreenshotAs(OutputType.BYTES));
                js.executeScript("location.hash = '#traffic'");
                c.await("return document.querySelectorAll('#port-charts .port-chart').length > 0",
                        Duration.ofMinutes(2));
                Thread.sleep(3000);   // a few seconds of history on the charts
                Path traffic = screenshots.resolve("web-traffic-" + hosts + ".png");
                Files.write(traffic, d.getScreenshotAs(OutputType.BYTES));
                // a what-if asked for on its page: every uplink of a leaf pulled
                js.executeScript("location.hash = '#what-if'");
                c.await("return document.getElementById('wi-kinds').textContent.length > 0", Duration.ofMinutes(1));
                js.executeScript("document.getElementById('wi-changes').value = arguments[0];"
                        + "document.getElementById('wi-run').click();", changes);
                long w0 = System.nanoTime();
                c.await("return window.ibtwin.whatIfDrawn === 0 || window.ibtwin.whatIfDrawn === -1",
                        Duration.ofMinutes(10));
                out.printf(Locale.ROOT, "browser: a what-if asked for on the page, its report drawn in %.1f s%n",
                        (System.nanoTime() - w0) / 1e9);
                Thread.sleep(1000);
                Path whatIf = screenshots.resolve("web-what-if-" + hosts + ".png");
                Files.write(whatIf, d.getScreenshotAs(OutputType.BYTES));
                out.println("screenshots: " + map + ", " + traffic + ", " + whatIf);
            }
        }
    }

    /** Opens {@code url}, waits for the map's first paint and prints it and its parts. */
    private void firstPaint(Chromium c, String url, String what) throws InterruptedException {
        RemoteWebDriver d = c.driver();
        JavascriptExecutor js = d;
        long t0 = System.nanoTime();
        d.get(url);
        Object paint = c.await("return window.ibtwin && window.ibtwin.firstPaint", Duration.ofMinutes(5));
        double wall = (System.nanoTime() - t0) / 1e6;
        Number nav = (Number) js.executeScript("return performance.now()");
        out.printf(Locale.ROOT, "browser: the map%s: first paint %.0f ms after navigation (page clock %.0f ms; "
                        + "%.0f ms of it from fetching /api/map to cytoscape's first render); %s%n", what, wall,
                nav.doubleValue(), ((Number) paint).doubleValue(),
                js.executeScript("return document.getElementById('map-summary').textContent"));
        @SuppressWarnings("unchecked")
        java.util.Map<String, Object> t = (java.util.Map<String, Object>) js.executeScript("return ibtwin.timings");
        out.printf(Locale.ROOT, "browser:   of it (ms): the page before fetching the map %.0f, the server's answer "
                        + "%.0f, download %.0f, the scripts after it %.0f, JSON.parse %.0f, cytoscape's elements %.0f, "
                        + "its first render %.0f; %,d B, %,d nodes, %,d edges%n", num(t, "before"), num(t, "answer"),
                num(t, "download"), num(t, "scripts"), num(t, "parse"), num(t, "elements"), num(t, "render"),
                (long) num(t, "bytes"), (long) num(t, "nodes"), (long) num(t, "edges"));
        out.flush();
    }

    private static double num(java.util.Map<String, Object> m, String key) {
        Object o = m == null ? null : m.get(key);
        return o instanceof Number n ? n.doubleValue() : Double.NaN;
    }
}
