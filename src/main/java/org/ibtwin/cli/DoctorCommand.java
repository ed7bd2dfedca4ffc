package org.ibtwin.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import org.ibtwin.diag.QueryException;
import org.ibtwin.doctor.Doctor;
import org.ibtwin.doctor.FabricState;
import org.ibtwin.doctor.Report;
import org.ibtwin.doctor.Severity;
import org.ibtwin.doctor.Sources;
import org.ibtwin.doctor.Thresholds;
import org.ibtwin.transport.MadTransportException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code ibtwin doctor}: find what is wrong with a fabric, show the evidence, say the fix. */
@Command(name = "doctor", mixinStandardHelpOptions = true,
        description = "Examine a fabric and name each problem with its evidence and fix, most severe first.",
        footer = {"", "The fabric: a fabric file (ibnetdiscover dump, ibsim net file or description; default: the",
            "built-in one), --from DIR (saved outputs of the real tools, recognised by content), or --ibsim",
            "HOST:PORT (live, over MADs; without a file or --from, IBSIM_SERVER_NAME/PORT or IBSIM_SOCKNAME too).",
            "Exit codes: 0 nothing at or above --fail-on, 1 findings at or above it, 2 bad input,",
            "3 the live fabric could not be read."})
public final class DoctorCommand extends CliCommand {
    /** Exit code when live discovery fails. */
    static final int UNREACHABLE = 3;


    @Parameters(index = "0", arity = "0..1", paramLabel = "<fabric>", description = "Fabric file (default: built-in).")
    String fabric;

    @Option(names = "--from", paramLabel = "DIR", description = "A directory of saved tool outputs.")
    Path from;

    @Mixin
    TransportOptions transport;

    @Option(names = "--facts", paramLabel = "FABRIC",
            description = "Add the host facts (PCIe, NUMA, IPoIB, drivers) of a fabric description to --from or --ibsim.")
    String facts;

    @Option(names = "--partitions", paramLabel = "FILE", description = "OpenSM partitions.conf to judge (T11).")
    Path partitions;

    @Option(names = "--interval", paramLabel = "SECONDS",
            description = "Live: read the counters twice, this far apart, and judge their rise.")
    Integer interval;

    @Option(names = "--thresholds", paramLabel = "FILE",
            description = "Counter thresholds (ibqueryerrors' error_thresholds format) and suppress=T11,...")
    Path thresholds;

    @Option(names = "--fail-on", paramLabel = "SEVERITY", defaultValue = "error",
            description = "Exit 1 when a finding is at least this severe: critical, error, warning, info "
                    + "(default: ${DEFAULT-VALUE}).")
    String failOn;

    @Option(names = "--json", description = "Print JSON instead of text.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = out();
        PrintWriter err = err();
        Severity fail = Severity.parse(failOn);
        if (fail == null) {
            throw new IllegalArgumentException("--fail-on: \"" + failOn + "\" is not critical, error, warning or info");
        }
        boolean offline = fabric != null || from != null;
        if (interval != null && (interval < 1 || !transport.liveIbsim(offline))) {
            throw new IllegalArgumentException(!transport.liveIbsim(offline) ? "--interval needs --ibsim (or "
                    + "IBSIM_SERVER_NAME/PORT)" : "--interval must be at least 1 second");
        }
        Thresholds t = thresholds == null ? new Thresholds() : Thresholds.read(thresholds);
        FabricState state;
        try {
            Sources.Live live = transport.live(offline);
            state = Sources.open(fabric, from, live, interval == null ? null
                    : Duration.ofSeconds(interval), line -> {
                        err.println("ibtwin doctor: " + line);
                        err.flush();
                    });
        } catch (MadTransportException | QueryException e) {
            err.println("ibtwin doctor: cannot read " + transport.target() + ": " + e.getMessage());
            return UNREACHABLE;
        }
        // the twin of --fabric carries that fabric's host facts: judge them too unless --facts names others
        Sources.addFacts(state, facts == null && transport.fabric != null ? transport.fabric : facts);
        Sources.addPartitions(state, partitions);
        Report r = Doctor.examine(state, t);
        if (json) {
            ObjectMapper om = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
            out.println(om.writeValueAsString(r.toJson()));
        } else {
            out.print(r.toText());
        }
        out.flush();
        return r.exitCode(fail);
    }
}
