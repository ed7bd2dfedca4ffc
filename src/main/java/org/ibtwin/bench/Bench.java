package org.ibtwin.bench;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * What a bench command shares: its picocli spec, the writers it prints on (figures on out, progress on err), and
 * its progress lines ({@code bench <name>: ...}, flushed at once so that a long run shows where it is).
 */
abstract class Bench implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    /** Where the bench prints its figures. */
    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    /** Where it prints progress and warnings. */
    PrintWriter err() {
        return spec.commandLine().getErr();
    }

    /** A progress line on err: {@code bench <name>: <line>}, flushed. */
    void progress(String line) {
        PrintWriter err = err();
        err.println("bench " + spec.name() + ": " + line);
        err.flush();
    }
}
