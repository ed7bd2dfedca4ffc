package org.ibtwin.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.ibtwin.diag.IdsVerify;
import org.ibtwin.diag.NetFabric;
import org.ibtwin.diag.NetOutputs;
import org.ibtwin.format.NodeNameMap;
import org.ibtwin.format.TopologyReader;
import org.ibtwin.transport.MadTransport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ibtwin ibidsverify}: infiniband-diags' ibidsverify script, the same lines and exit code: LIDs that are 0
 * or given twice, node and port GUIDs given twice, port GUIDs that are another node's GUID ({@link IdsVerify}), read
 * from the fabric's topology as {@code ibnetdiscover -g} prints it. The script keeps that topology in
 * /var/cache/infiniband-diags and rescans only with -R; ibtwin scans every time (-R is accepted) and never touches
 * that cache, which belongs to the real fabric's tools. A topology file may be given instead of a scan.
 */
@Command(name = "ibidsverify", mixinStandardHelpOptions = true,
        description = "Validate LIDs and GUIDs (check for zero and duplicates) in the subnet, as infiniband-diags' "
                + "ibidsverify does. Exit status 1 when it finds any.",
        footer = {"", "Examples:",
            "  ibtwin ibidsverify --ibsim 127.0.0.1:7070      # a running ibsim's fabric",
            "  ibtwin ibidsverify saved.topo                  # a saved ibnetdiscover output"})
public final class IbidsverifyCommand extends DiagCommand {
    @Option(names = "-R", description = "Recalculate ibnetdiscover information (ibtwin always does).")
    boolean recalculate;

    @Option(names = {"-t", "--timeout"}, paramLabel = "<ms>", description = "Timeout in ms for the scan.")
    String timeout;

    @Option(names = "--json", description = "The problems found, as JSON.")
    boolean json;

    @Parameters(arity = "0..1", paramLabel = "<topology-file>",
            description = "An ibnetdiscover topology to check instead of scanning.")
    String topologyFile;

    @Override
    DiagOptions diag() {
        return DiagOptions.timeoutOnly(timeout);
    }

    @Override
    String tool() {
        return "ibidsverify";
    }

    @Override
    int execute() {
        PrintWriter err = spec.commandLine().getErr();
        String topology;
        if (topologyFile != null) {
            topology = readWhole(topologyFile, "Failed to open ibnet topology: ", Main.USAGE);
            // the script reads anything; a file that is no topology is one line and exit 2, as in topo (duplicate
            // GUIDs and LIDs pass the check: finding them is this tool's job)
            TopologyReader.check(Path.of(topologyFile));
        } else {
            checkCommonOptions();
            NetFabric f = scan();
            if (f == null) {
                return 0;       // the script reads the empty output of a failed ibnetdiscover: nothing to report
            }
            // ibnetdiscover -g; a fabric with chassis is listed ungrouped (the same records, in another order)
            boolean group = NetOutputs.chassisNodes(f).isEmpty();
            StringBuilder sb = new StringBuilder();
            new NetOutputs(NodeNameMap.open(null)).topology(f, ZonedDateTime.now(), false, false, group, sb);
            topology = sb.toString();
        }
        List<IdsVerify.Problem> problems = IdsVerify.check(topology);
        if (json) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("ok", problems.isEmpty());
            m.put("problems", problems.stream().map(IbidsverifyCommand::problem).toList());
            out.append(Json.write(m));
        } else {
            out.append(IdsVerify.text(problems));
        }
        return problems.isEmpty() ? 0 : 1;
    }

    private static Map<String, Object> problem(IdsVerify.Problem p) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", p.kind().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'));
        m.put("message", p.message());
        m.put("nodeType", p.nodeType());
        m.put("guid", p.guid());
        m.put("lid", number(p.lid()));
        if (p.other() != null) {
            if (p.kind() == IdsVerify.Kind.DUPLICATE_LID) {
                m.put("firstNodeGuid", p.other());
            } else {
                m.put("firstLid", number(p.other()));
            }
        }
        return m;
    }

    /** A LID as a JSON number when it reads as one (the topology's digits), else as it was spelled. */
    private static Object number(String lid) {
        try {
            return Integer.parseInt(lid);
        } catch (NumberFormatException e) {
            return lid;
        }
    }

    /** The scan ibnetdiscover would make, or null (its complaint on stderr) when it cannot be made. */
    private NetFabric scan() {
        try (MadTransport t = attach()) {
            return discover(t, new byte[0], scanConfig(), "discover failed");
        } catch (IbError e) {
            PrintWriter err = spec.commandLine().getErr();
            err.println("ibnetdiscover: iberror: failed: " + e.getMessage());
            return null;
        }
    }
}
