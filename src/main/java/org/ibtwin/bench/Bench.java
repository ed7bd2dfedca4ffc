package org.ibtwin.bench;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * What a bench command shares: its picocli spec (figures go to its out, progress to its err) and its progress
 * lines ({@code bench <name>: ...}, flushed at once so that a long run shows where it is).
 */
abstract class Bench implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    /** A progress line on err: {@code bench <name>: <line>}, flushed. */
    void progress(String line) {
        PrintWriter err = spec.commandLine().getErr();
        err.println("bench " + spec.name() + ": " + line);
        err.flush();
    }
}
