package org.ibtwin.cli;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.ibtwin.diag.MadQuery;
import org.ibtwin.diag.Tracer;
import org.ibtwin.format.NodeNameMap;
import org.ibtwin.mad.PortId;
import org.ibtwin.transport.MadTransport;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code ibtwin ibtracert}: infiniband-diags' ibtracert, the unicast route between two ports (LIDs or -G GUIDs). */
@Command(name = "ibtracert", mixinStandardHelpOptions = true,
        description = "Trace the route between two ports through the switches' forwarding tables, as ibtracert.",
        footer = {"", "Examples:",
            "  ibtwin ibtracert 4 16                       # show path between lids 4 and 16",
            "  ibtwin ibtracert -n 4 16                    # same, but using simple output format",
            "  ibtwin ibtracert -G 0x8f1040396522d 0x002c9000100d051   # use guid addresses",
            "  ibtwin ibtracert -m 0xc000 4 16              # multicast route of MLID 0xc000 from lid 4 to 16",
            "Errors print as ibtracert prints them (\"Failed to get route information\"), exit code 255."})
public final class IbtracertCommand extends CommonDiagCommand {
    @Option(names = {"-f", "--force"}, description = "Force.")
    boolean force;

    @Option(names = {"-n", "--no_info"}, description = "Simple format.")
    boolean simple;

    @Option(names = {"-m", "--mlid"}, paramLabel = "<mlid>", description = "Multicast trace of the mlid (0xc000 or "
            + "larger): the route through the switches' multicast forwarding tables.")
    String mlid;

    @Option(names = "--node-name-map", paramLabel = "<file>", description = "Node name map file (`GUID \"name\"` lines; default: "
                    + "/etc/infiniband-diags/ib-node-name-map when it exists).")
    String nodeNameMap;

    /** --node-name-map's names (read when the command runs). */
    private NodeNameMap names = NodeNameMap.empty();

    @Option(names = "--ports-file", paramLabel = "<file>", description = "Port pairs file (\"src dest\" a line).")
    String portsFile;

    @Option(names = "--json", description = "Print the route as JSON (the lines of the trace).")
    boolean json;

    @Parameters(arity = "0..2", paramLabel = "<src-addr> <dest-addr>", description = "The two ports.")
    List<String> args = new ArrayList<>();

    @Override
    String tool() {
        return "ibtracert";
    }

    @Override
    int execute() {
        names = NodeNameMap.open(nodeNameMap);
        checkCommonOptions();
        if (args.size() < 2 && portsFile == null) {
            return usage();
        }
        try (MadTransport t = attach()) {
            MadQuery q = query(t);
            if (portsFile == null) {
                if (!route(q, args.get(0), args.get(1))) {
                    throw new IbError("Failed to get route information");
                }
                return 0;
            }
            List<String> lines;
            try {
                lines = java.nio.file.Files.readAllLines(java.nio.file.Path.of(portsFile),
                        java.nio.charset.StandardCharsets.ISO_8859_1);
            } catch (java.io.IOException | java.io.UncheckedIOException e) {
                throw new IbError("cannot open ports-file " + portsFile, e);
            }
            int pairs = 0;
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i).strip();
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                String[] w = line.split("\\s+");
                if (w.length < 2) {
                    throw new IbError("ports-file, " + portsFile + ", at line " + (i + 1) + " contains bad data");
                }
                pairs++;
                if (!route(q, trunc(w[0]), trunc(w[1]))) {
                    throw new IbError("Failed to get route information at line " + (i + 1));
                }
            }
            out.append(pairs).append(" lid/guid pairs processed from ").append(portsFile).append('\n');
        }
        return 0;
    }

    /** -m's value as strtoul(…, 0) reads it (0x hex, 0 octal, decimal); a bad one is a usage error. */
    private int mlidValue() {
        String v = mlid.strip();
        try {
            long x = v.startsWith("0x") || v.startsWith("0X") ? Long.parseLong(v.substring(2), 16)
                    : v.length() > 1 && v.startsWith("0") ? Long.parseLong(v.substring(1), 8) : Long.parseLong(v);
            return x > 0xffff ? -1 : (int) x;
        } catch (NumberFormatException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "-m: \"" + mlid + "\" is not a LID");
        }
    }

    /** sscanf's %20s. */
    private static String trunc(String s) {
        return s.length() > 20 ? s.substring(0, 20) : s;
    }

    /** get_route: a route from {@code srcArg} to {@code dstArg} appended to the output; false after the warnings. */
    private boolean route(MadQuery q, String srcArg, String dstArg) {
        int ms = timeoutMillis();
        Destinations.Type type = Destinations.type(spec, "-L");
        Optional<PortId> src = Destinations.resolve(this, q, type, srcArg);
        if (src.isEmpty()) {
            warn("get_route: can't resolve source port " + srcArg);
            return false;
        }
        Optional<PortId> dst = Destinations.resolve(this, q, type, dstArg);
        if (dst.isEmpty()) {
            warn("get_route: can't resolve destination port " + dstArg);
            return false;
        }
        Tracer tr = new Tracer(q, ms > 0 ? Duration.ofMillis(ms) : null, force, this::warn).names(names::name);
        int[][] from = {{0}};
        StringBuilder text = new StringBuilder();
        if (!tr.route(from, src.get().lid(), 0, text)) {
            warn("get_route: can't find a route to the src port");
            return false;
        }
        if (mlid != null) {
            if (!tr.multicast(from, mlidValue(), dst.get().lid(), simple ? 1 : 2, text)) {
                warn("get_route: can't find a multicast route from src to dest");
                return false;
            }
            out.append(json ? Json.write(java.util.Map.of("trace", List.of(text.toString().split("\n")),
                    "complete", true)) : text);
            return true;
        }
        boolean ok = tr.route(from, dst.get().lid(), simple ? 1 : 2, text);
        if (json) {
            out.append(Json.write(java.util.Map.of("trace", List.of(text.toString().split("\n")),
                    "complete", ok)));
        } else {
            out.append(text);
        }
        if (!ok) {
            warn("get_route: can't find a route from src to dest");
        }
        return ok;
    }
}
