package org.ibtwin.cli;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.ibtwin.diag.MadQuery;
import org.ibtwin.diag.Tracer;
import org.ibtwin.mad.PortId;
import org.ibtwin.transport.MadTransport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code ibtwin ibtracert}: infiniband-diags' ibtracert, the unicast route between two ports (LIDs or -G GUIDs). */
@Command(name = "ibtracert", mixinStandardHelpOptions = true,
        description = "Trace the route between two ports through the switches' forwarding tables, as ibtracert.",
        footer = {"", "Examples:",
            "  ibtwin ibtracert 4 16                       # show path between lids 4 and 16",
            "  ibtwin ibtracert -n 4 16                    # same, but using simple output format",
            "  ibtwin ibtracert -G 0x8f1040396522d 0x002c9000100d051   # use guid addresses",
            "Errors print as ibtracert prints them (\"Failed to get route information\"), exit code 255."})
public final class IbtracertCommand extends DiagCommand {
    @Mixin
    DiagOptions diag;

    @Override
    DiagOptions diag() {
        return diag;
    }

    @Option(names = {"-f", "--force"}, description = "Force.")
    boolean force;

    @Option(names = {"-n", "--no_info"}, description = "Simple format.")
    boolean simple;

    @Option(names = "--node-name-map", paramLabel = "<file>", description = "Node name map file (accepted).")
    String nodeNameMap;

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
        checkCommonOptions();
        if (args.size() < 2) {
            return usage();
        }
        int ms = timeoutMillis();
        try (MadTransport t = attach()) {
            MadQuery q = query(t);
            Destinations.Type type = Destinations.type(spec, "-L");
            Optional<PortId> src = Destinations.resolve(this, q, type, args.get(0));
            if (src.isEmpty()) {
                warn("get_route: can't resolve source port " + args.get(0));
                throw new IbError("Failed to get route information");
            }
            Optional<PortId> dst = Destinations.resolve(this, q, type, args.get(1));
            if (dst.isEmpty()) {
                warn("get_route: can't resolve destination port " + args.get(1));
                throw new IbError("Failed to get route information");
            }
            Tracer tr = new Tracer(q, ms > 0 ? Duration.ofMillis(ms) : null, force, this::warn);
            int[][] from = {{0}};
            StringBuilder text = new StringBuilder();
            if (!tr.route(from, src.get().lid(), 0, text)) {
                warn("get_route: can't find a route to the src port");
                throw new IbError("Failed to get route information");
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
                throw new IbError("Failed to get route information");
            }
        }
        return 0;
    }
}
