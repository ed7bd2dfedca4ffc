package org.ibtwin.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.ibtwin.format.FormatException;
import org.ibtwin.format.GuidListFile;
import org.ibtwin.format.PartitionsConf;
import org.ibtwin.sm.SmConfig;
import org.ibtwin.sm.SubnetManager;
import org.ibtwin.sm.routing.RoutingEngines;
import picocli.CommandLine.Option;

/** The SM options {@code ibtwin sm} and {@code ibtwin up} share, named as opensm names them. */
public final class SmOptions {
    @Option(names = {"-R", "--routing_engine"}, paramLabel = "<engines>",
            description = "Routing engines to try in order, comma separated: minhop, updn, ftree "
                    + "(default: minhop; minhop ends every chain).")
    String engines;

    @Option(names = {"-a", "--root_guid_file"}, paramLabel = "<file>",
            description = "Switch GUIDs to use as updn roots, one a line (default: found).")
    Path rootGuidFile;

    @Option(names = {"-l", "--lmc"}, paramLabel = "<lmc>", defaultValue = "0",
            description = "LIDs per CA port as a power of two, 0..7 (default: ${DEFAULT-VALUE}).")
    int lmc;

    @Option(names = {"-r", "--reassign_lids"}, description = "Give every port a new LID.")
    boolean reassignLids;

    @Option(names = "--guid2lid", paramLabel = "<file>",
            description = "Load and save the LIDs in this guid2lid file (OpenSM's format).")
    Path guid2lid;

    @Option(names = {"-n", "--maxsmps"}, paramLabel = "<n>", defaultValue = "4",
            description = "SMPs in flight at once (default: ${DEFAULT-VALUE}).")
    int maxSmps;

    @Option(names = {"-t", "--timeout"}, paramLabel = "<ms>", defaultValue = "200",
            description = "SMP timeout in milliseconds (default: ${DEFAULT-VALUE}).")
    int timeoutMs;

    @Option(names = "--retries", paramLabel = "<n>", defaultValue = "3",
            description = "SMP retries after the first attempt (default: ${DEFAULT-VALUE}).")
    int retries;

    @Option(names = "--check-routes",
            description = "Follow every programmed CA route and check for credit loops after routing.")
    boolean checkRoutes;

    @Option(names = {"-P", "--Pconfig"}, paramLabel = "<file>",
            description = "Partitions to program, OpenSM's partitions.conf (default: every port a full member of "
                    + "the Default partition 0x7fff).")
    Path partitionsFile;

    @Option(names = "--strict",
            description = "Refuse a partitions file that leaves the SM's own port without full membership of the "
                    + "Default partition, or takes ports out of partitions they are in (default: warn and apply).")
    boolean strict;

    @Option(names = {"-F", "--config"}, paramLabel = "<file>",
            description = "An opensm.conf (accepted; not supported yet: it is ignored, with a warning).")
    Path config;

    /** The partitions file read, or null without -P; bad input is a {@link FormatException} (file:line). */
    PartitionsConf partitions() {
        return partitionsFile == null ? null : PartitionsConf.read(partitionsFile);
    }

    /**
     * Hands the partitions read by {@link #partitions()} to the SM, its warnings to {@code err}: with --strict, a
     * file with problems is refused (one line, exit 2), else they are warned (by the SM's log) and it is applied.
     */
    void apply(SubnetManager manager, PartitionsConf conf, PrintWriter err, String command) {
        if (conf != null) {
            conf.warnings().forEach(w -> err.println(command + ": warning: " + w));
            err.flush();
        }
        List<String> problems = manager.partitions(conf, strict);
        if (strict && !problems.isEmpty()) {
            throw new IllegalArgumentException("--strict: refusing " + String.join("; ", problems));
        }
    }

    /**
     * Rereads the partitions file (SIGHUP, the console's reread) and asks for a heavy sweep, as OpenSM does on
     * SIGHUP; what happened is one line to {@code out} (bad file, --strict refusal: the partitions stay).
     */
    String reread(SubnetManager manager, PrintWriter err, String command) {
        if (partitionsFile == null) {
            manager.requestSweep();
            return "no partitions file (-P) to reread; heavy sweep requested";
        }
        PartitionsConf conf;
        try {
            conf = PartitionsConf.read(partitionsFile);
        } catch (FormatException e) {
            return e.getMessage() + "; the partitions stay as they were";
        }
        conf.warnings().forEach(w -> err.println(command + ": warning: " + w));
        List<String> problems = manager.partitions(conf, strict);
        if (strict && !problems.isEmpty()) {
            return "--strict: refusing " + String.join("; ", problems) + "; the partitions stay as they were";
        }
        manager.requestSweep();
        return "partitions reread from " + partitionsFile + " (" + conf.partitions().size() + " partitions); heavy "
                + "sweep requested";
    }

    /** The configuration these options and {@code sweep} (the sweep interval) make; warnings go to {@code err}. */
    SmConfig config(Duration sweep, int priority, PrintWriter err, String command) {
        if (config != null) {
            err.println(command + ": warning: -F/--config is not supported yet; ignoring " + config);
        }
        if (timeoutMs < 1) {
            throw new IllegalArgumentException("--timeout must be at least 1 ms");
        }
        if (guid2lid != null) {
            FileArgs.notDirectory("--guid2lid", guid2lid);
        }
        String chain = engines == null ? "minhop" : engines;
        RoutingEngines.chain(chain, RoutingEngines.Options.none());   // unknown names: exit 2 before anything runs
        List<Long> roots = List.of();
        if (rootGuidFile != null) {
            try {
                roots = GuidListFile.read(rootGuidFile);
            } catch (FormatException e) {
                err.println(command + ": warning: " + e.getMessage() + "; updn finds its roots itself");
            }
        }
        return SmConfig.defaults().withMaxSmps(maxSmps).withTimeout(Duration.ofMillis(timeoutMs), retries)
                .withLmc(lmc).withRouting(chain, roots).withGuid2lid(guid2lid).withReassignLids(reassignLids)
                .withPriority(priority).withSweepInterval(sweep).withCheckRoutes(checkRoutes);
    }
}
