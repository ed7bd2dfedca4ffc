package org.ibtwin.cli;

import java.io.PrintWriter;
import org.ibtwin.diag.QueryException;
import org.ibtwin.format.FormatException;
import org.ibtwin.sm.SmException;
import org.ibtwin.transport.MadTransportException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The ibtwin root command. */
@Command(name = "ibtwin", mixinStandardHelpOptions = true, version = "ibtwin 0.1.0",
        description = "An InfiniBand fabric in software.",
        subcommands = {TopoCommand.class, GenCommand.class, SimCommand.class, UpCommand.class, SmCommand.class,
            SmpqueryCommand.class, IbnetdiscoverCommand.class, IblinkinfoCommand.class, NodeListCommand.Hosts.class,
            NodeListCommand.Switches.class, NodeListCommand.Nodes.class,
            IbstatCommand.class, IbstatusCommand.class, IbvDevinfoCommand.class, SminfoCommand.class,
            IbaddrCommand.class, IbportstateCommand.class, IbrouteCommand.class, IbtracertCommand.class,
            DumpFtsCommand.class, DumpFtsCommand.Lfts.class, DumpFtsCommand.Mfts.class, IbqueryerrorsCommand.class,
            SaqueryCommand.class,
            PerfqueryCommand.class, PerftestCommand.WriteBw.class, PerftestCommand.ReadBw.class,
            PerftestCommand.SendBw.class, PerftestCommand.AtomicBw.class, PerftestCommand.WriteLat.class,
            PerftestCommand.ReadLat.class, PerftestCommand.SendLat.class, PerftestCommand.AtomicLat.class,
            IpoibCommand.class, PerfCommand.class, NcclCommand.class, DoctorCommand.class, SnapshotCommand.class,
            CheckLftBalanceCommand.class, CheckRoutingCommand.class, IbidsverifyCommand.class,
            TrafficCommand.class, WhatIfCommand.class, WebCommand.class, ExporterCommand.class,
            SlurmCommand.class, BenchCommand.class,
            CommandLine.HelpCommand.class})
public final class Main implements Runnable {
    /** Exit code for usage and input errors. */
    public static final int USAGE = 2;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line and returns its exit code: 2 for usage and input errors. */
    public static int run(String... args) {
        return commandLine().execute(args);
    }

    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Main());
        // wide enough that every command's summary in --help stays on one line
        cl.setUsageHelpWidth(130);
        cl.setParameterExceptionHandler(GenCommand::handleParseError);
        cl.setExecutionExceptionHandler(Main::handleFailure);
        return cl;
    }

    /**
     * Bad input (a malformed file, a bad option, a path that cannot be read or written) is one line and exit 2;
     * anything else is one line and exit 1, with the trace only on request.
     */
    private static int handleFailure(Exception ex, CommandLine cl, CommandLine.ParseResult parsed) {
        PrintWriter err = cl.getErr();
        String name = cl.getCommandSpec().qualifiedName();
        if (ex instanceof FormatException || ex instanceof IllegalArgumentException) {
            err.println(name + ": " + ex.getMessage());
            return USAGE;
        }
        if (ex instanceof SmException || ex instanceof MadTransportException || ex instanceof QueryException) {
            // expected failures of a fabric that does not answer as it should: what failed, no class names
            err.println(name + ": " + ex.getMessage());
            return 1;
        }
        String file = FileArgs.describe(ex);
        if (file != null) {
            // a path that cannot be read or written (an output file under /proc, a directory given as a file)
            err.println(name + ": " + file);
            return USAGE;
        }
        err.println(name + ": internal error: " + ex);
        if (System.getenv("IBTWIN_DEBUG") != null) {
            ex.printStackTrace(err);
        }
        return 1;
    }
}
