package org.ibtwin.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The ibtwin root command. */
@Command(name = "ibtwin", mixinStandardHelpOptions = true, version = "ibtwin 0.1.0",
        description = "An InfiniBand fabric in software.",
        subcommands = {CommandLine.HelpCommand.class})
public final class Main implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line and returns its exit code: 2 for usage errors. */
    public static int run(String... args) {
        CommandLine cl = commandLine();
        return cl.execute(args);
    }

    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Main());
        cl.setExitCodeExceptionMapper(t -> 2);
        return cl;
    }
}
