package org.ibtwin.web;

import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openqa.selenium.MutableCapabilities;
import org.openqa.selenium.remote.RemoteWebDriver;

/**
 * A headless Chromium driven through Selenium's WebDriver client: Debian's {@code chromedriver} started on a
 * loopback port as a child process, the browser started by it, both stopped by PID when closed. For the web view's
 * benchmark and browser tests.
 */
public final class Chromium implements AutoCloseable {
    /** The Debian packages that hold the two programs. */
    public static final String PACKAGES = "chromium chromium-driver";
    private final Process driverProcess;
    private final RemoteWebDriver driver;

    private Chromium(Process driverProcess, RemoteWebDriver driver) {
        this.driverProcess = driverProcess;
        this.driver = driver;
    }

    /** Where a program is on the PATH (or /usr/bin), null when it is not. */
    public static Path which(String name) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, name);
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        Path p = Path.of("/usr/bin", name);
        return Files.isExecutable(p) ? p : null;
    }

    /** Which of chromium and chromedriver is missing, null when both are there. */
    public static String missing() {
        return which("chromium") == null ? "chromium" : which("chromedriver") == null ? "chromedriver" : null;
    }

    /**
     * Starts chromedriver on loopback {@code port} and a headless Chromium of {@code width} x {@code height}
     * through it.
     *
     * @throws IllegalStateException when a program is missing or chromedriver does not listen
     */
    public static Chromium start(int port, int width, int height) throws IOException, InterruptedException {
        String miss = missing();
        if (miss != null) {
            throw new IllegalStateException(miss + " not found (install " + PACKAGES + ")");
        }
        Process d = new ProcessBuilder(which("chromedriver").toString(), "--port=" + port,
                "--allowed-ips=127.0.0.1").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        try {
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (true) {
                try (Socket s = new Socket("127.0.0.1", port)) {
                    if (s.isConnected()) {
                        break;
                    }
                } catch (IOException e) {
                    if (System.nanoTime() > end || !d.isAlive()) {
                        throw new IllegalStateException("chromedriver did not listen on port " + port);
                    }
                    Thread.sleep(50);
                }
            }
            // Selenium's client says on stderr that it traces through OpenTelemetry: not worth a line
            java.util.logging.Logger.getLogger("org.openqa.selenium").setLevel(java.util.logging.Level.WARNING);
            MutableCapabilities caps = new MutableCapabilities();
            caps.setCapability("browserName", "chrome");
            caps.setCapability("goog:chromeOptions", Map.of("binary", which("chromium").toString(), "args",
                    List.of("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                            "--window-size=" + width + "," + height, "--no-first-run", "--disable-extensions")));
            RemoteWebDriver w = new RemoteWebDriver(URI.create("http://127.0.0.1:" + port).toURL(), caps);
            w.manage().timeouts().scriptTimeout(Duration.ofSeconds(300));
            w.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(300));
            return new Chromium(d, w);
        } catch (IOException | InterruptedException | RuntimeException e) {
            stop(d);
            throw e;
        }
    }

    /**
     * Runs {@code script} in the page every 50 ms until it returns something other than null or false, and returns
     * that.
     *
     * @throws IllegalStateException after {@code timeout}
     */
    public Object await(String script, Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (true) {
            Object o = driver.executeScript(script);
            if (o != null && !Boolean.FALSE.equals(o)) {
                return o;
            }
            if (System.nanoTime() > end) {
                throw new IllegalStateException("the page did not get there in " + timeout.toSeconds() + " s: "
                        + script);
            }
            Thread.sleep(50);
        }
    }

    public RemoteWebDriver driver() {
        return driver;
    }

    /** Quits the browser, then stops chromedriver and whatever it started by PID. */
    @Override
    public void close() {
        try {
            driver.quit();
        } catch (RuntimeException e) {
            // stopped by PID below
        }
        stop(driverProcess);
    }

    private static void stop(Process p) {
        List<ProcessHandle> kids = p.descendants().toList();
        p.destroy();
        for (ProcessHandle k : kids) {
            k.destroy();
        }
        try {
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
            for (ProcessHandle k : kids) {
                try {
                    k.onExit().get(5, TimeUnit.SECONDS);
                } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                    k.destroyForcibly();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
