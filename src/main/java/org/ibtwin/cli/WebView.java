package org.ibtwin.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.Locale;
import org.ibtwin.lab.Lab;
import org.ibtwin.sim.Console;
import org.ibtwin.sm.SmLog;
import org.ibtwin.sm.SubnetManager;
import org.ibtwin.sm.SweepReport;
import org.ibtwin.web.Events;
import org.ibtwin.web.Monitor;
import org.ibtwin.web.Snapshots;
import org.ibtwin.web.WebServer;
import org.ibtwin.web.WebSource;
import org.ibtwin.web.WhatIfs;

/**
 * {@code --web [PORT]} of {@code ibtwin up} and {@code ibtwin sim}, and {@code ibtwin web}: the web view of a source
 * served on loopback, its events fed by the SM's sweeps and the console's commands; closed with the lab.
 */
final class WebView implements AutoCloseable {
    /** The port {@code --web} takes without a number. */
    static final String DEFAULT_PORT = "8070";
    /** How often a live source is read again (the map follows a pulled cable within this and a push). */
    static final long PERIOD_MILLIS = 100;

    final Events events = new Events();
    final Monitor monitor;
    final WebServer server;

    private WebView(WebSource source, int port, String option) throws IOException {
        this(source, port, option, new WhatIfs(true), new Snapshots(java.util.List.of()));
    }

    private WebView(WebSource source, int port, String option, WhatIfs whatIfs, Snapshots snapshots)
            throws IOException {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException(option + ": port " + port + " is not in 0..65535");
        }
        events.add("source", "serving " + source.name());
        monitor = new Monitor(source, events, PERIOD_MILLIS);
        try {
            server = WebServer.start(monitor, events, whatIfs, snapshots, port);
        } catch (IllegalArgumentException e) {
            monitor.close();
            throw new IllegalArgumentException(option + ": " + e.getMessage(), e);
        } catch (IOException | RuntimeException e) {
            monitor.close();
            throw e;
        }
        monitor.start();
    }

    static WebView serve(WebSource source, int port, String option) throws IOException {
        return new WebView(source, port, option);
    }

    /** {@code ibtwin web}'s view: a source with saved what-if reports and snapshots to compare. */
    static WebView serve(WebSource source, int port, String option, WhatIfs whatIfs, Snapshots snapshots)
            throws IOException {
        return new WebView(source, port, option, whatIfs, snapshots);
    }

    /** The web view of a running lab, added to it (stopped with it). */
    static WebView of(Lab lab, String name, String facts, int port) throws IOException {
        return lab.add(new WebView(WebSource.of(lab, name, facts), port, "--web"));
    }

    /** The SM's heavy sweeps as events (after {@code also}, the hook that was there: the dumps), */
    void watch(SubnetManager sm, java.util.function.BiConsumer<SubnetManager, SweepReport> also) {
        sm.onSweep((m, r) -> {
            if (also != null) {
                also.accept(m, r);
            }
            events.add("sweep", String.format(Locale.ROOT, "heavy sweep: %s in %d ms (%,d SMPs), %,d LFT blocks "
                            + "written, %d ports activated, %d degraded links", r.subnetUp() ? "SUBNET UP"
                            : "SUBNET NOT UP", r.total().toMillis(), r.smps(), r.lftBlocksWritten(),
                    r.portsActivated(), r.degradedLinks().size()));
        });
    }

    /**
     * An SM's log that also turns its state changes (DISCOVERING, STANDBY, MASTER) into {@code sm} events of the
     * web view attached to it, as they happen; the lines themselves go to {@code log} unchanged.
     */
    static final class SmEvents implements SmLog {
        private final SmLog log;
        private volatile Events events;

        SmEvents(SmLog log) {
            this.log = log;
        }

        void attach(WebView view) {
            this.events = view == null ? null : view.events;
        }

        @Override
        public void info(String line) {
            log.info(line);
        }

        @Override
        public void warn(String line) {
            log.warn(line);
        }

        @Override
        public void progress(String line) {
            log.progress(line);
        }

        @Override
        public void stateChange(String from, String to, String why) {
            log.stateChange(from, to, why);
            Events e = events;
            if (e != null) {
                e.add("sm", "SM " + from + " -> " + to + ": " + why, "", java.util.Map.of("state", to, "from", from,
                        "why", why));
            }
        }
    }

    /** The console's commands as events. */
    void watch(Console console) {
        console.onCommand(line -> events.add("console", line));
    }

    /** The line {@code up} and {@code sim} print at start. */
    void announce(PrintWriter out) {
        out.println("web view on " + server.url() + " (read-only, what-ifs on copies; JSON under " + server.url()
                + "api/)");
        out.flush();
    }

    @Override
    public void close() {
        server.close();
        monitor.close();
    }
}
