package org.ibtwin.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.ibtwin.diag.Addresses;
import org.ibtwin.diag.MadQuery;
import org.ibtwin.diag.NetFabric;
import org.ibtwin.diag.NetNode;
import org.ibtwin.diag.RouteDump;
import org.ibtwin.format.NodeNameMap;
import org.ibtwin.transport.MadTransport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ibtwin dump_fts}: infiniband-diags' dump_fts, every switch's forwarding table (ibroute's format) after a
 * fabric scan ({@link org.ibtwin.diag.NetDiscovery}); destinations come from the scan. {@code dump_lfts} and
 * {@code dump_mfts} are the old scripts: dump_fts (-M for dump_mfts) and their closing warning.
 */
@Command(name = "dump_fts", mixinStandardHelpOptions = true,
        description = "Every switch's unicast (or -M multicast) forwarding table, as infiniband-diags' dump_fts.",
        footer = {"", "Examples:",
            "  ibtwin dump_fts                 # every switch's valid unicast routes",
            "  ibtwin dump_fts -a              # same, but dump all lids, even with invalid out ports",
            "  ibtwin dump_fts -n              # simple dump format - no destination resolving",
            "  ibtwin dump_fts 0x10 0x20       # dump lid range",
            "  ibtwin dump_fts -M              # every switch's non empty mlids",
            "  ibtwin dump_fts -M 0xc010 0xc020   # same, but with range"})
public class DumpFtsCommand extends ScanCommand {
    @Option(names = {"-a", "--all"}, description = "Show all lids, even invalid entries.")
    boolean all;

    @Option(names = {"-n", "--no_dests"}, description = "Do not try to resolve destinations.")
    boolean brief;

    @Option(names = {"-M", "--Multicast"}, description = "Show multicast forwarding tables.")
    boolean multicast;

    @Parameters(arity = "0..2", paramLabel = "[<startlid> [<endlid>]]", description = "The LID range.")
    List<String> args = new ArrayList<>();

    @Override
    String tool() {
        return "dump_fts";
    }

    /** What the script adds after dump_fts's output (dump_lfts, dump_mfts). */
    String trailer() {
        return "";
    }

    boolean multicast() {
        return multicast;
    }

    @Override
    int execute() {
        checkCommonOptions();
        int start = !args.isEmpty() ? (int) Addresses.unsigned(args.get(0)) : 0;
        int end = args.size() > 1 ? (int) Addresses.unsigned(args.get(1)) : 0;
        NetFabric fabric;
        try {
            fabric = discover(new byte[0], 0, null);
        } catch (IbError e) {
            out.setLength(0);
            spec.commandLine().getErr().println("Failed to discover fabric");
            spec.commandLine().getOut().print(trailer());
            return IBERROR;
        }
        NodeNameMap names = names();
        List<Map<String, Object>> json = new ArrayList<>();
        try (MadTransport t = attach()) {
            MadQuery q = query(t);
            RouteDump d = new RouteDump(q, all, brief, this::warn, s -> spec.commandLine().getErr().println(s));
            for (NetNode sw : fabric.switches()) {
                String desc = names.name(sw.guid(), sw.description());
                StringBuilder text = new StringBuilder();
                if (multicast()) {
                    d.multicast(sw, desc, start, end, text);
                } else {
                    List<RouteDump.Route> routes = d.unicast(fabric, sw, desc, start, end, text);
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("switch", String.format("0x%016x", sw.guid()));
                    m.put("description", desc);
                    m.put("lid", sw.smaLid());
                    List<Map<String, Object>> rs = new ArrayList<>();
                    for (RouteDump.Route r : routes) {
                        Map<String, Object> x = new LinkedHashMap<>();
                        x.put("lid", r.lid());
                        x.put("port", r.port());
                        rs.add(x);
                    }
                    m.put("routes", rs);
                    json.add(m);
                }
                if (!scan.json) {
                    out.append(text);
                }
            }
        }
        if (scan.json) {
            json(json);
        } else {
            out.append(trailer());
        }
        return 0;
    }

    /** {@code ibtwin dump_lfts}: the dump_lfts.sh script, dump_fts and its warning. */
    @Command(name = "dump_lfts", mixinStandardHelpOptions = true,
            description = "dump_fts with the old dump_lfts.sh script's closing warning.")
    public static final class Lfts extends DumpFtsCommand {
        @Override
        String trailer() {
            return "\n*** WARNING ***: this command has been replaced by dump_fts\n\n\n";
        }
    }

    /** {@code ibtwin dump_mfts}: the dump_mfts.sh script, dump_fts -M and its warning. */
    @Command(name = "dump_mfts", mixinStandardHelpOptions = true,
            description = "dump_fts -M with the old dump_mfts.sh script's closing warning.")
    public static final class Mfts extends DumpFtsCommand {
        @Override
        boolean multicast() {
            return true;
        }

        @Override
        String trailer() {
            return "\n*** WARNING ***: this command has been replaced by dump_fts -M\n\n\n";
        }
    }
}
