package org.ibtwin.web;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.remote.RemoteWebDriver;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * A real headless Chromium driven through Selenium's Java bindings ({@link Chromium}), and an {@code ibtwin}
 * command line to look at, run through the test's own class path: child processes, stopped by their PIDs. Without Chromium the browser tests are skipped with a
 * printed {@code BROWSER SKIPPED} notice; under CI=true they fail instead, as scripts/setup installs it.
 */
final class Browser implements AutoCloseable {
    static final String PACKAGES = "chromium chromium-driver";
    private static boolean noticeShown;
    private final List<Process> processes = new ArrayList<>();
    private Chromium chromium;

    /** The two programs are there, or the test is skipped (failed under CI). */
    static void programs() {
        String missing = Chromium.missing();
        if (missing != null) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                fail("CI=true but " + missing + " not found: scripts/setup installs " + Chromium.PACKAGES);
            }
            String notice = "BROWSER SKIPPED: " + missing + " not found (install " + Chromium.PACKAGES + ")";
            if (!noticeShown) {
                System.err.println(notice);
                noticeShown = true;
            }
            Assumptions.assumeTrue(false, notice);
        }
    }

    /** A running {@code ibtwin} command: its stdin (the console) and the lines it printed. */
    static final class Ibtwin {
        final Process process;
        final PrintWriter console;
        final List<String> lines = java.util.Collections.synchronizedList(new ArrayList<>());

        Ibtwin(Process p) {
            this.process = p;
            this.console = new PrintWriter(new OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8), true);
            Thread t = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = r.readLine()) != null) {
                        lines.add(line);
                    }
                } catch (IOException e) {
                    // the process ended
                }
            }, "ibtwin-output");
            t.setDaemon(true);
            t.start();
        }

        /** The URL of the web view, once the command printed it. */
        String url(Duration timeout) throws InterruptedException {
            long end = System.nanoTime() + timeout.toNanos();
            while (System.nanoTime() < end) {
                synchronized (lines) {
                    for (String l : lines) {
                        if (l.contains("web view on ")) {
                            return l.substring(l.indexOf("http://"), l.indexOf(' ', l.indexOf("http://")));
                        }
                    }
                }
                if (!process.isAlive()) {
                    fail("ibtwin ended: " + String.join("\n", lines));
                }
                Thread.sleep(50);
            }
            fail("no web view URL within " + timeout + ": " + String.join("\n", lines));
            return null;
        }
    }

    /** Starts {@code ibtwin args...} (the CLI's main class on this test's class path), stderr with stdout. */
    Ibtwin ibtwin(String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx1g");
        if (Runtime.version().feature() >= 22) {
            cmd.add("--enable-native-access=ALL-UNNAMED");
        }
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add("org.ibtwin.cli.Main");
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        processes.add(p);
        return new Ibtwin(p);
    }

    /** Starts chromedriver on {@code port} and a headless Chromium through it. */
    RemoteWebDriver open(int port, int width, int height) throws Exception {
        programs();
        chromium = Chromium.start(port, width, height);
        return chromium.driver();
    }

    /** Quits the browser, then stops every process started here (and what they started) by PID. */
    @Override
    public void close() {
        if (chromium != null) {
            chromium.close();
        }
        for (int i = processes.size() - 1; i >= 0; i--) {
            Process p = processes.get(i);
            List<ProcessHandle> kids = p.descendants().toList();
            p.destroy();
            for (ProcessHandle k : kids) {
                k.destroy();
            }
            try {
                if (!p.waitFor(5, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    p.waitFor(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            for (ProcessHandle k : kids) {
                if (k.isAlive()) {
                    k.destroyForcibly();
                }
            }
        }
    }
}
