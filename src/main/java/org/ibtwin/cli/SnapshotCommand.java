package org.ibtwin.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.PrintWriter;
import java.nio.file.Path;
import org.ibtwin.diag.QueryException;
import org.ibtwin.doctor.FabricState;
import org.ibtwin.doctor.Snapshot;
import org.ibtwin.doctor.SnapshotDiff;
import org.ibtwin.doctor.Sources;
import org.ibtwin.transport.MadTransportException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code ibtwin snapshot}: archive a fabric's state, and show what changed between two archives. */
@Command(name = "snapshot", mixinStandardHelpOptions = true,
        description = "Archive a fabric's state (save) and show what changed between two archives (diff).",
        subcommands = {SnapshotCommand.Save.class, SnapshotCommand.Diff.class})
public final class SnapshotCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** {@code ibtwin snapshot save}. */
    @Command(name = "save", mixinStandardHelpOptions = true,
            description = "Write one JSON archive: topology (as ibnetdiscover prints it), links, LIDs, port states, "
                    + "P_Keys, MTUs, forwarding tables, counters, SMs, host facts, time (ibtwin up and topo load it "
                    + "back as a fabric).",
            footer = {"", "The fabric: a fabric file (default: the built-in one), --from DIR, or --ibsim HOST:PORT."})
    public static final class Save extends CliCommand {

        @Parameters(index = "0", arity = "0..1", paramLabel = "<fabric>", description = "Fabric file.")
        String fabric;

        @Option(names = "--from", paramLabel = "DIR", description = "A directory of saved tool outputs.")
        Path from;

        @Mixin
        TransportOptions transport;

        @Option(names = {"-o", "--output"}, paramLabel = "FILE", required = true, description = "The archive to write.")
        Path output;

        @Override
        public Integer call() throws Exception {
            PrintWriter err = err();
            FileArgs.check("-o", output);   // before the fabric is read: a bad path costs nothing
            FabricState s;
            try {
                Sources.Live live = transport.live(fabric != null || from != null);
                s = Sources.open(fabric, from, live, null, line -> err.println("ibtwin snapshot: " + line));
            } catch (MadTransportException | QueryException e) {
                err.println("ibtwin snapshot save: cannot read " + transport.target() + ": "
                        + e.getMessage());
                return DoctorCommand.UNREACHABLE;
            }
            Snapshot snap = Snapshot.of(s);
            FileArgs.write("-o", () -> snap.write(output));
            spec.commandLine().getOut().println("wrote " + output + ": " + snap.nodes().size() + " nodes, "
                    + snap.links().size() + " links, " + snap.counters().size() + " ports with counters");
            spec.commandLine().getOut().flush();
            return 0;
        }
    }

    /** {@code ibtwin snapshot diff}. */
    @Command(name = "diff", mixinStandardHelpOptions = true,
            description = "Show what changed from archive A to archive B: nodes and links added or gone, speed and "
                    + "width changes, LID changes, port states, SMs, host facts, counter rises.",
            footer = {"", "Exit codes: 0 no differences, 1 differences, 2 bad input."})
    public static final class Diff extends CliCommand {

        @Parameters(index = "0", paramLabel = "A", description = "The older archive.")
        Path a;

        @Parameters(index = "1", paramLabel = "B", description = "The newer archive.")
        Path b;

        @Option(names = "--json", description = "Print JSON instead of text.")
        boolean json;

        @Override
        public Integer call() throws Exception {
            SnapshotDiff d = SnapshotDiff.of(Snapshot.read(a), Snapshot.read(b));
            PrintWriter out = out();
            if (json) {
                out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(
                        d.toJson()));
            } else {
                out.print(d.toText());
            }
            out.flush();
            return d.empty() ? 0 : 1;
        }
    }
}
