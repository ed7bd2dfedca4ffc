package org.ibtwin.cli;

import java.io.PrintWriter;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import org.ibtwin.sm.SmLog;

/** The SM's log on a terminal: info lines to stdout (when wanted), warnings and progress to stderr, time-stamped. */
final class SmLogPrinter implements SmLog {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");

    private final PrintWriter out;
    private final PrintWriter err;
    private final String prefix;
    private final boolean info;
    private final boolean progress;

    SmLogPrinter(PrintWriter out, PrintWriter err, String prefix, boolean info, boolean progress) {
        this.out = out;
        this.err = err;
        this.prefix = prefix;
        this.info = info;
        this.progress = progress;
    }

    @Override
    public synchronized void info(String line) {
        if (info) {
            out.println(LocalTime.now().format(TIME) + " " + line);
            out.flush();
        }
    }

    @Override
    public synchronized void warn(String line) {
        err.println(prefix + ": warning: " + line);
        err.flush();
    }

    @Override
    public synchronized void progress(String line) {
        if (progress) {
            err.println(prefix + ": " + line);
            err.flush();
        }
    }
}
