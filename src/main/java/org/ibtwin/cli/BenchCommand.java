package org.ibtwin.cli;

import picocli.CommandLine.Command;

/** {@code ibtwin bench}: benchmarks that print figures. */
@Command(name = "bench", mixinStandardHelpOptions = true, description = "Run a benchmark and print its figures.",
        subcommands = {BenchTopoCommand.class, BenchMadCommand.class, BenchIbsimCommand.class,
            BenchPerfCommand.class, BenchDoctorCommand.class, BenchReadersCommand.class, BenchSmCommand.class,
            BenchOpensmCommand.class, BenchIbnetdiscoverCommand.class, BenchNcclCommand.class,
            BenchTrafficCommand.class, BenchFuzzCommand.class, BenchWhatIfCommand.class,
            BenchWebCommand.class, BenchExporterCommand.class, BenchRoutingCommand.class})
public final class BenchCommand implements Runnable {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
