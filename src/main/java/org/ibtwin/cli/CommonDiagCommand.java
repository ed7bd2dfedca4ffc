package org.ibtwin.cli;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * A diag front end that takes ibdiag_common's options whole ({@link DiagOptions} mixed in): smpquery, perfquery,
 * ibaddr, ibportstate, ibroute, ibtracert and sminfo (a tool that gives one of those letters its own meaning swaps
 * that option in a model transformer).
 */
abstract class CommonDiagCommand extends DiagCommand {
    @Mixin
    DiagOptions diag;

    @Override
    final DiagOptions diag() {
        return diag;
    }

    /** A tool that also takes the common {@code -D}: the destination as a directed route instead of a LID. */
    abstract static class Directed extends CommonDiagCommand {
        @Option(names = {"-D", "--Direct"}, description = "Use Direct address argument.")
        boolean direct;
    }
}
