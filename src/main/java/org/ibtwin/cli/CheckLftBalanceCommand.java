package org.ibtwin.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.ibtwin.diag.Addresses;
import org.ibtwin.diag.LftBalance;
import org.ibtwin.diag.NetCache;
import org.ibtwin.diag.NetFabric;
import org.ibtwin.diag.NetNode;
import org.ibtwin.diag.NetOutputs;
import org.ibtwin.diag.NetPort;
import org.ibtwin.diag.RouteDump;
import org.ibtwin.format.NodeNameMap;
import org.ibtwin.transport.MadTransport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ibtwin check_lft_balance}: infiniband-diags' check_lft_balance script, the same options and lines: for each
 * switch of an LFT dump, how many CA LIDs leave by each port, and whether the busiest port carries more than one LID
 * more than the idlest ({@link LftBalance}). As the script, it reads a dump_fts / dump_lfts listing ({@code -l}) and
 * an ibnetdiscover cache ({@code -i}) whose iblinkinfo lines say which ports are down or lead to a host; either one
 * left out is taken live from the fabric instead (a scan and every switch's LFT, as dump_fts and ibnetdiscover
 * --cache would have written them), so {@code ibtwin check_lft_balance} alone judges the fabric it attaches to.
 */
@Command(name = "check_lft_balance", mixinStandardHelpOptions = true,
        description = "Check the balance of the switches' unicast forwarding tables, as infiniband-diags' "
                + "check_lft_balance does (live when -l/-i are left out).",
        footer = {"", "Examples:",
            "  ibtwin check_lft_balance                      # the fabric attached to, live: unbalanced switches",
            "  ibtwin check_lft_balance -v                   # every switch's port usage",
            "  ibtwin check_lft_balance -l lfts.txt -i fabric.cache -e   # saved dump_lfts.sh and ibnetdiscover "
                + "--cache outputs"})
public final class CheckLftBalanceCommand extends DiagCommand {
    @Option(names = "-l", paramLabel = "lft-output",
            description = "dump_fts (dump_lfts.sh) output to read (default: every switch's LFT, read now).")
    String lftFile;

    @Option(names = "-i", paramLabel = "ibnetdiscover-cache",
            description = "ibnetdiscover --cache file for the links (default: a scan now).")
    String cacheFile;

    @Option(names = "-e", description = "turn on heuristic(s) to look at switch balances deeper")
    boolean heuristics;

    @Option(names = "-v", description = "verbose output, output all switches")
    boolean verbose;

    @Option(names = {"-t", "--timeout"}, paramLabel = "<ms>", description = "Timeout in ms for a live scan.")
    String timeout;

    @Option(names = "--json", description = "Every switch's port usage and verdict as JSON.")
    boolean json;

    @Override
    DiagOptions diag() {
        return DiagOptions.timeoutOnly(timeout);
    }

    @Override
    String tool() {
        return "check_lft_balance";
    }

    @Override
    int execute() {
        PrintWriter err = spec.commandLine().getErr();
        String dump = null;
        if (lftFile != null) {
            dump = readWhole(lftFile, "Couldn't open dump lfts file: ", Main.USAGE);
        }
        NetFabric links = null;
        if (cacheFile != null) {
            try {
                links = NetCache.read(Path.of(cacheFile));
            } catch (IOException | NetCache.BadCache e) {
                err.println("check_lft_balance: " + cacheFile + ": " + (e instanceof NetCache.BadCache
                        ? e.getMessage() : "cannot read ibnetdiscover cache (" + e.getMessage() + ")"));
                return Main.USAGE;
            }
        }
        if (dump == null || links == null) {
            checkCommonOptions();
            try (MadTransport t = attach()) {
                NetFabric scanned = scan(t);
                if (links == null) {
                    links = scanned;
                }
                if (dump == null) {
                    dump = dumpFts(t, scanned);
                }
            }
        }
        List<LftBalance.SwitchUsage> usage = LftBalance.judge(dump, iblinkinfo(links), heuristics);
        if (json) {
            out.append(Json.write(toJson(usage)));
        } else {
            out.append(LftBalance.text(usage, verbose));
        }
        return 0;
    }

    private NetFabric scan(MadTransport t) {
        return discover(t, new byte[0], scanConfig(), "discover failed");
    }

    /** What dump_fts prints for the scanned fabric. */
    private String dumpFts(MadTransport t, NetFabric f) {
        NodeNameMap names = NodeNameMap.open(null);
        RouteDump d = new RouteDump(query(t), false, false, this::warn, s -> spec.commandLine().getErr().println(s));
        StringBuilder text = new StringBuilder();
        for (NetNode sw : f.switches()) {
            d.unicast(f, sw, names.name(sw.guid(), sw.description()), 0, 0, text);
        }
        return text.toString();
    }

    /** {@code iblinkinfo -S <guid>} on the fabric: the lines of the node that has a port with that GUID. */
    private static Function<String, String> iblinkinfo(NetFabric f) {
        NetOutputs o = new NetOutputs(NodeNameMap.open(null));
        NetOutputs.LinkOptions lo = new NetOutputs.LinkOptions(false, false, false, null);
        return guid -> {
            NetPort p = f.portByGuid(Addresses.unsigned(guid));
            if (p == null) {
                return "";
            }
            StringBuilder sb = new StringBuilder();
            o.linkNode(p.node(), lo, "", sb);
            return sb.toString();
        };
    }

    private static List<Map<String, Object>> toJson(List<LftBalance.SwitchUsage> usage) {
        List<Map<String, Object>> l = new ArrayList<>();
        for (LftBalance.SwitchUsage s : usage) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("guid", s.guid());
            m.put("name", s.name());
            m.put("unbalanced", s.unbalanced());
            m.put("min", s.min());
            m.put("max", s.max());
            List<Map<String, Object>> ports = new ArrayList<>();
            for (LftBalance.PortUsage p : s.ports()) {
                Map<String, Object> pm = new LinkedHashMap<>();
                pm.put("port", Integer.parseInt(p.port()));
                pm.put("lids", p.lids());
                ports.add(pm);
            }
            m.put("ports", ports);
            l.add(m);
        }
        return l;
    }
}
