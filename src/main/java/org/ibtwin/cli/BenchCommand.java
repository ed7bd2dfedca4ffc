package org.ibtwin.cli;

import org.ibtwin.bench.BenchDoctorCommand;
import org.ibtwin.bench.BenchExporterCommand;
import org.ibtwin.bench.BenchIbnetdiscoverCommand;
import org.ibtwin.bench.BenchMadCommand;
import org.ibtwin.bench.BenchOpensmCommand;
import org.ibtwin.bench.BenchReadersCommand;
import org.ibtwin.bench.BenchRerouteCommand;
import org.ibtwin.bench.BenchSmCommand;
import org.ibtwin.bench.BenchTopoCommand;
import org.ibtwin.bench.BenchTrafficCommand;
import org.ibtwin.bench.BenchUmadCommand;
import org.ibtwin.bench.BenchWhatIfCommand;
import picocli.CommandLine.Command;

/**
 * {@code ibtwin bench}: benchmarks that print figures. The benches and their harness live in {@code org.ibtwin.bench};
 * the few here drive code only the command line has (the perf front end, the web view, the fuzzers, the routing
 * tables' readers, a twin started as {@code ibtwin sim}).
 */
@Command(name = "bench", mixinStandardHelpOptions = true, description = "Run a benchmark and print its figures.",
        subcommands = {BenchTopoCommand.class, BenchMadCommand.class, BenchIbsimCommand.class,
            BenchPerfCommand.class, BenchDoctorCommand.class, BenchReadersCommand.class, BenchSmCommand.class,
            BenchOpensmCommand.class, BenchIbnetdiscoverCommand.class, BenchNcclCommand.class,
            BenchTrafficCommand.class, BenchFuzzCommand.class, BenchWhatIfCommand.class,
            BenchWebCommand.class, BenchExporterCommand.class, BenchRoutingCommand.class, BenchUmadCommand.class,
            BenchRerouteCommand.class})
public final class BenchCommand implements Runnable {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
