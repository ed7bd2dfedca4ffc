package org.ibtwin.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * What a command of the command line shares: its picocli spec, and the writers it prints on (the command line's, so
 * that a caller, a test among them, can capture what it prints).
 */
abstract class CliCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    /** Where the command prints what it was asked for. */
    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    /** Where it prints progress, warnings and errors. */
    PrintWriter err() {
        return spec.commandLine().getErr();
    }
}
