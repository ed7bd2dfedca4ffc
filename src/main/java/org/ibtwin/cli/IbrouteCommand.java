package org.ibtwin.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.ibtwin.diag.Addresses;
import org.ibtwin.format.NodeNameMap;
import org.ibtwin.diag.MadQuery;
import org.ibtwin.diag.OpFailure;
import org.ibtwin.diag.RouteDump;
import org.ibtwin.mad.PortId;
import org.ibtwin.transport.MadTransport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code ibtwin ibroute}: infiniband-diags' ibroute, a switch's unicast or multicast forwarding table. */
@Command(name = "ibroute", mixinStandardHelpOptions = true,
        description = "A switch's unicast (or multicast, -M) routes, as infiniband-diags' ibroute prints them.",
        footer = {"", "Examples:",
            "  ibtwin ibroute 4              # dump all lids with valid out ports of switch with lid 4",
            "  ibtwin ibroute -a 4           # same, but dump all lids, even with invalid out ports",
            "  ibtwin ibroute -n 4           # simple dump format - no destination resolving",
            "  ibtwin ibroute 4 10           # dump lids starting from 10",
            "  ibtwin ibroute 4 0x10 0x20    # dump lid range",
            "  ibtwin ibroute -G 0x08f1040023   # resolve switch by GUID",
            "  ibtwin ibroute -D 0,1         # resolve switch by direct path",
            "  ibtwin ibroute -M 4           # dump all non empty mlids of switch with lid 4",
            "  ibtwin ibroute -M 4 0xc010 0xc020   # same, but with range",
            "  ibtwin ibroute -M -n 4        # simple dump format"})
public final class IbrouteCommand extends CommonDiagCommand.Directed {
    @Option(names = {"-a", "--all"}, description = "Show all lids, even invalid entries.")
    boolean all;

    @Option(names = {"-n", "--no_dests"}, description = "Do not try to resolve destinations.")
    boolean brief;

    @Option(names = {"-M", "--Multicast"}, description = "Show multicast forwarding tables.")
    boolean multicast;

    @Option(names = "--node-name-map", paramLabel = "<file>", description = "Node name map file (`GUID \"name\"` lines; default: "
                    + "/etc/infiniband-diags/ib-node-name-map when it exists).")
    String nodeNameMap;

    /** --node-name-map's names (read when the command runs). */
    private NodeNameMap names = NodeNameMap.empty();

    @Option(names = "--json", description = "Print the routes as JSON.")
    boolean json;

    @Parameters(arity = "0..3", paramLabel = "[<dest dr_path|lid|guid> [<startlid> [<endlid>]]]",
            description = "The switch and the LID range.")
    List<String> args = new ArrayList<>();

    @Override
    String tool() {
        return "ibroute";
    }

    @Override
    int execute() {
        names = NodeNameMap.open(nodeNameMap);
        checkCommonOptions();
        if (args.isEmpty()) {
            return usage();
        }
        int start = args.size() > 1 ? (int) Addresses.unsigned(args.get(1)) : 0;
        int end = args.size() > 2 ? (int) Addresses.unsigned(args.get(2)) : 0;
        try (MadTransport t = attach()) {
            MadQuery q = query(t);
            PortId dest = Destinations.resolve(this, q, Destinations.type(spec, "-L"), args.get(0))
                    .orElseThrow(() -> new IbError("can't resolve destination port " + args.get(0)));
            RouteDump d = new RouteDump(q, all, brief, this::warn, s -> spec.commandLine().getErr().println(s))
                    .names(names::name);
            StringBuilder text = new StringBuilder();
            try {
                if (multicast) {
                    d.multicast(dest, start, end, text);
                    if (json) {
                        throw new IbError("--json is for unicast routes");
                    }
                } else {
                    List<RouteDump.Route> routes = d.unicast(dest, start, end, text);
                    if (json) {
                        List<Map<String, Object>> rs = new ArrayList<>();
                        for (RouteDump.Route r : routes) {
                            Map<String, Object> m = new LinkedHashMap<>();
                            m.put("lid", r.lid());
                            m.put("port", r.port());
                            m.put("destination", r.info().replaceFirst("^: \\(", "").replaceFirst("\\)$", ""));
                            rs.add(m);
                        }
                        Map<String, Object> m = new LinkedHashMap<>();
                        m.put("switch", dest.toString());
                        m.put("routes", rs);
                        out.append(Json.write(m));
                        return 0;
                    }
                }
            } catch (OpFailure f) {
                out.append(text);
                throw failed("", f);
            }
            out.append(text);
        }
        return 0;
    }
}
