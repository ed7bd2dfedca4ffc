package org.ibtwin.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;
import org.ibtwin.diag.Addresses;
import org.ibtwin.diag.NetDiff;
import org.ibtwin.diag.NetFabric;
import org.ibtwin.diag.NetJson;
import org.ibtwin.diag.NetNode;
import org.ibtwin.diag.NetOutputs;
import org.ibtwin.diag.NetPort;
import org.ibtwin.format.NodeNameMap;
import org.ibtwin.mad.PortId;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ibtwin iblinkinfo}: infiniband-diags' iblinkinfo, the same options and lines: every port of every node
 * with its link's width, speed and states and what is at the other end, with the "Could be" hints where both ends
 * could run faster or wider.
 */
@Command(name = "iblinkinfo", mixinStandardHelpOptions = true,
        description = "Report link info for every port of the fabric, as infiniband-diags' iblinkinfo does.",
        footer = {"", "Examples:",
            "  ibtwin iblinkinfo --ibsim 127.0.0.1:7070     # every link of a running ibsim",
            "  ibtwin iblinkinfo -d                         # only the ports that are down",
            "  ibtwin iblinkinfo -l --switches-only         # one line per switch port",
            "  ibtwin iblinkinfo -D 0,1                     # the switch behind the attached port"})
public final class IblinkinfoCommand extends ScanCommand {
    @Option(names = {"-S", "--switch"}, paramLabel = "<port_guid>",
            description = "Start partial scan at the port with this GUID (hex).")
    String switchGuid;

    @Option(names = {"-G", "--port-guid"}, paramLabel = "<port_guid>", description = "(same as -S)")
    String portGuid;

    @Option(names = {"-D", "--Direct"}, paramLabel = "<dr_path>",
            description = "Start partial scan at the port at this directed route.")
    String drPath;

    @Option(names = {"-a", "--all"}, description = "Print all nodes found in a partial fabric scan.")
    boolean all;

    @Option(names = {"-n", "--hops"}, paramLabel = "<hops>",
            description = "Number of hops to include away from specified node.")
    String hops;

    @Option(names = {"-d", "--down"}, description = "Print only down links.")
    boolean down;

    @Option(names = {"-l", "--line"}, description = "(line mode) print all information for each link on a single "
            + "line.")
    boolean line;

    @Option(names = {"-p", "--additional"}, description = "Print additional port settings (HoqLife, VLStallCount).")
    boolean additional;

    @Option(names = "--diffcheck", paramLabel = "<key(s)>",
            description = "Checks for --diff: port, state, lid, nodedesc (default port,state).")
    String diffcheck;

    @Option(names = "--filterdownports", paramLabel = "<file>",
            description = "Cache file whose down ports are left out when they are down now too.")
    String filterDownPorts;

    @Option(names = "--switches-only", description = "Output only switches.")
    boolean switchesOnly;

    @Option(names = "--cas-only", description = "Output only CAs.")
    boolean casOnly;

    @Option(names = {"-s", "--sm_port"}, paramLabel = "<lid>", description = "SM port LID.")
    String smPort;

    @Option(names = "-R", hidden = true, description = "Accepted, does nothing (as in the real tool).")
    boolean nop;

    @Override
    String tool() {
        return "iblinkinfo";
    }

    @Override
    DiagOptions diag() {
        DiagOptions d = super.diag();
        d.smPort = smPort;
        return d;
    }

    @Override
    int execute() {
        checkCommonOptions();
        PrintWriter err = spec.commandLine().getErr();
        int diffFlags = NetDiff.iblinkinfoFlags(diffcheck);
        if (diffFlags < 0) {
            err.println("invalid diff check key: " + NetDiff.badKey(diffcheck, true));
            return usage();
        }
        NodeNameMap names = names();
        String guidArg = portGuid != null ? portGuid : switchGuid;
        long guid = guidArg == null ? 0 : Addresses.unsigned(guidArg);
        int onlyType = switchesOnly ? NetNode.SWITCH : casOnly ? NetNode.CA : 0;
        if (casOnly && switchesOnly) {
            onlyType = lastOnly();
        }
        if (drPath != null && scan.loadCache != null) {
            err.println("Cannot specify cache and direct route path");
            return 1;
        }
        byte[] from = null;
        if (drPath != null) {
            Optional<PortId> p = Addresses.directed(drPath);
            if (p.isEmpty() || p.get().hops() > 63) {
                warn("main: Failed to resolve " + drPath + "; attempting full scan");
            } else {
                int[] path = p.get().path();
                from = new byte[path.length - 1];
                for (int i = 1; i < path.length; i++) {
                    from[i - 1] = (byte) path[i];
                }
            }
        }
        NetFabric diffFabric = null;
        if (scan.diff != null && (diffFabric = load(scan.diff)) == null) {
            throw new IbError("loading cached fabric for diff failed\n");
        }
        NetFabric filter = null;
        if (filterDownPorts != null && (filter = load(filterDownPorts)) == null) {
            throw new IbError("loading cached fabric for filterdownports failed\n");
        }
        int maxHops = hops == null ? 0 : (int) Math.min(Integer.MAX_VALUE, Addresses.unsigned(hops) & 0xffffffffL);
        NetFabric fabric;
        if (scan.loadCache != null) {
            fabric = load(scan.loadCache);
            if (fabric == null) {
                err.println("loading cached fabric failed");
                return 1;
            }
        } else if (from != null) {
            try {
                fabric = discover(from, maxHops == 0 ? 1 : maxHops, null);
            } catch (IbError e) {
                if (all) {
                    return 0;       // libibnetdisc hands back an empty fabric: nothing to print
                }
                err.println("Failed to get local Node Info");
                return 1;
            }
        } else {
            try {
                fabric = discover(new byte[0], maxHops, null);
            } catch (IbError e) {
                err.println("discover failed");
                return 1;
            }
        }
        NetOutputs o = new NetOutputs(names);
        NetOutputs.LinkOptions lo = new NetOutputs.LinkOptions(down, line, additional, filter);
        List<NetNode> nodes = onlyType == 0 ? fabric.nodes() : fabric.nodes(onlyType);
        NetNode one = null;
        if (!all && guidArg != null) {
            NetPort p = fabric.portByGuid(guid);
            if (p == null || (onlyType != 0 && p.node().type() != onlyType)) {
                err.println("Failed to find port: " + guidArg);
                return 0;
            }
            one = p.node();
        } else if (!all && from != null) {
            NetNode n = fabric.from();
            NetPort p = fabric.portByGuid(n.portGuid());
            if (p == null || (onlyType != 0 && p.node().type() != onlyType)) {
                err.println("Failed to find port: " + drPath);
                return 0;
            }
            one = p.node();
        }
        if (scan.json) {
            json(new NetJson(names).fabric(fabric, one != null ? List.of(one) : nodes));
            return 0;
        }
        if (diffFabric != null) {
            if (one != null) {
                // the real tool compares the node found now with itself, then looks it up in the cache: only a
                // node the cache lacks shows
                if (diffFabric.node(one.guid()) == null) {
                    o.linkNode(one, lo, "> ", out);
                }
            } else {
                new NetDiff(o).iblinkinfo(diffFabric, onlyType == 0 ? diffFabric.nodes() : diffFabric.nodes(onlyType),
                        fabric, nodes, diffFlags, lo, out);
            }
            return 0;
        }
        if (one != null) {
            o.linkNode(one, lo, "", out);
        } else {
            for (NetNode n : nodes) {
                o.linkNode(n, lo, "", out);
            }
        }
        return 0;
    }

    private int lastOnly() {
        int t = 0;
        if (spec.commandLine().getParseResult() == null) {
            return NetNode.CA;
        }
        for (var s : spec.commandLine().getParseResult().matchedOptions()) {
            if (s.longestName().equals("--switches-only")) {
                t = NetNode.SWITCH;
            } else if (s.longestName().equals("--cas-only")) {
                t = NetNode.CA;
            }
        }
        return t;
    }
}
