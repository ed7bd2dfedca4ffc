package org.ibtwin.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** Runs {@code ibtwin} with arguments in process, as the CLI tests do, its output and errors into writers. */
public final class Cli {
    private Cli() {
    }

    /** The exit code of {@code ibtwin args}; what it printed is added to {@code out} and {@code err}. */
    public static int execute(StringWriter out, StringWriter err, String... args) {
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    /** {@link #execute} with {@code out} and {@code err} emptied first: they hold this run's output alone. */
    public static int executeAfresh(StringWriter out, StringWriter err, String... args) {
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        return execute(out, err, args);
    }
}
