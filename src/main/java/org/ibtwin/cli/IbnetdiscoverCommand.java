package org.ibtwin.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import org.ibtwin.diag.NetCache;
import org.ibtwin.diag.NetDiff;
import org.ibtwin.diag.NetFabric;
import org.ibtwin.diag.NetJson;
import org.ibtwin.diag.NetOutputs;
import org.ibtwin.format.NodeNameMap;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ibtwin ibnetdiscover}: infiniband-diags' ibnetdiscover, the same options and output: the topology (the
 * format ibsim and {@code ibtwin topo} read), the ports report (-p), node lists (-l, -H, -S, -R), libibnetdisc's cache
 * files (--cache, --load-cache) and their diff (--diff, --diffcheck).
 */
@Command(name = "ibnetdiscover", mixinStandardHelpOptions = true,
        description = "Discover the fabric and print its topology, as infiniband-diags' ibnetdiscover does.",
        footer = {"", "Examples:",
            "  ibtwin ibnetdiscover --ibsim 127.0.0.1:7070         # the topology of a running ibsim",
            "  ibtwin ibnetdiscover -p                             # ports report",
            "  ibtwin ibnetdiscover --cache fabric.cache -S        # switches, and cache what was found",
            "  ibtwin ibnetdiscover --diff fabric.cache            # what changed since"})
public final class IbnetdiscoverCommand extends ScanCommand {
    @Option(names = {"-f", "--full"}, description = "Show full information (ports' speed and width, vlcap).")
    boolean full;

    @Option(names = {"-s", "--show"}, description = "Show more information (each node as the scan reaches it).")
    boolean show;

    @Option(names = {"-l", "--list"}, description = "List of connected nodes.")
    boolean listAll;

    @Option(names = {"-g", "--grouping"}, description = "Show grouping (for fabrics without chassis: every node "
            + "under \"Non-Chassis Nodes\").")
    boolean group;

    @Option(names = {"-H", "--Hca_list"}, description = "List of connected CAs.")
    boolean listCas;

    @Option(names = {"-S", "--Switch_list"}, description = "List of connected switches.")
    boolean listSwitches;

    @Option(names = {"-R", "--Router_list"}, description = "List of connected routers.")
    boolean listRouters;

    @Option(names = "--cache", paramLabel = "<file>", description = "File to cache ibnetdiscover data to.")
    String cache;

    @Option(names = "--diffcheck", paramLabel = "<key(s)>",
            description = "Checks for --diff: sw, ca, router, port, lid, nodedesc (default sw,ca,router,port).")
    String diffcheck;

    @Option(names = {"-p", "--ports"}, description = "Obtain a ports report.")
    boolean ports;

    @Option(names = {"-m", "--max_hops"}, description = "Report max hops discovered by the library.")
    boolean maxHops;

    @Option(names = {"-d", "--debug"}, description = "Raise debug level.")
    boolean[] debug = new boolean[0];

    @Parameters(arity = "0..1", paramLabel = "[topology-file]", description = "Write the topology here.")
    String topologyFile;

    @Override
    String tool() {
        return "ibnetdiscover";
    }

    @Override
    boolean debug() {
        return debug.length > 0;
    }

    @Override
    int execute() {
        checkCommonOptions();
        int diffFlags = NetDiff.ibnetdiscoverFlags(diffcheck);
        if (diffFlags < 0) {
            spec.commandLine().getErr().println("invalid diff check key: " + NetDiff.badKey(diffcheck, false));
            return usage();
        }
        NodeNameMap names = names();
        NetFabric diffFabric = null;
        if (scan.diff != null && (diffFabric = load(scan.diff)) == null) {
            throw new IbError("loading cached fabric for diff failed\n");
        }
        NetFabric fabric;
        StringBuilder shown = new StringBuilder();
        if (scan.loadCache != null) {
            fabric = load(scan.loadCache);
            if (fabric == null) {
                throw new IbError("loading cached fabric failed\n");
            }
        } else {
            fabric = discover(new byte[0], 0, show ? l -> shown.append(l).append('\n') : null);
        }
        NetOutputs o = new NetOutputs(names);
        if (group && !ports && listMask() == 0 && diffFabric == null && !scan.json) {
            int chassis = NetOutputs.chassisNodes(fabric).size();
            if (chassis > 0) {
                throw new IllegalArgumentException("-g: " + chassis + " nodes are in chassis (they share a system "
                        + "image GUID, or are Voltaire switches); ibtwin groups only fabrics without chassis");
            }
        }
        out.append(shown);
        int list = listMask();
        StringBuilder text = new StringBuilder();
        if (scan.json) {
            json(new NetJson(names).fabric(fabric, fabric.nodes()));
        } else if (ports) {
            o.ports(fabric, out);
        } else if (list != 0) {
            o.list(fabric, (list & 1) != 0, (list & 2) != 0, (list & 4) != 0, text);
        } else if (diffFabric != null) {
            new NetDiff(o).ibnetdiscover(diffFabric, fabric, diffFlags, text);
        } else {
            o.topology(fabric, ZonedDateTime.now(), full, maxHops, group, text);
        }
        if (topologyFile != null && !scan.json && !ports) {
            try {
                Files.writeString(Path.of(topologyFile), text, StandardCharsets.ISO_8859_1);
            } catch (IOException e) {
                throw new IbError("can't open file " + topologyFile + " for writing", e);
            }
        } else {
            out.append(text);
        }
        if (cache != null) {
            try {
                NetCache.write(fabric, Path.of(cache));
            } catch (IOException | UncheckedIOException e) {
                throw new IbError("caching ibnetdiscover data failed\n", e);
            }
        }
        return 0;
    }

    /** -l/-H/-S/-R: the last given wins, as in the real tool's option loop (1 CA, 2 switch, 4 router). */
    private int listMask() {
        if (spec.commandLine().getParseResult() == null) {
            return listAll ? 7 : listSwitches ? 2 : listCas ? 1 : listRouters ? 4 : 0;
        }
        int mask = 0;
        for (OptionSpec s : spec.commandLine().getParseResult().matchedOptions()) {
            switch (s.shortestName()) {
                case "-l" -> mask = 7;
                case "-H" -> mask = 1;
                case "-S" -> mask = 2;
                case "-R" -> mask = 4;
                default -> { }
            }
        }
        return mask;
    }
}
