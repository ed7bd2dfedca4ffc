package org.ibtwin.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.ibtwin.diag.Addresses;
import org.ibtwin.diag.ErrorQuery;
import org.ibtwin.diag.MadQuery;
import org.ibtwin.diag.NetFabric;
import org.ibtwin.diag.NetNode;
import org.ibtwin.diag.NetPort;
import org.ibtwin.diag.QueryException;
import org.ibtwin.diag.Resolver;
import org.ibtwin.format.NodeNameMap;
import org.ibtwin.transport.MadTransport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ibtwin ibqueryerrors}: infiniband-diags' ibqueryerrors over a fabric scan, the error counters of every
 * port over their thresholds (the error_thresholds file), with suppression lists, data counters and resets.
 */
@Command(name = "ibqueryerrors", mixinStandardHelpOptions = true,
        description = "Ports whose error counters are over their thresholds, as infiniband-diags' ibqueryerrors.",
        footer = {"", "The exit code is 1 when a port has errors beyond its threshold, as ibqueryerrors'.",
            "Not yet: -r (port link information) and -D <dr_path>."})
public final class IbqueryerrorsCommand extends ScanCommand {
    static final String DEFAULT_THRESHOLDS = "/etc/infiniband-diags/error_thresholds";

    @Option(names = {"-s", "--suppress"}, paramLabel = "<err1,err2,...>", description = "Suppress errors listed.")
    List<String> suppress = new ArrayList<>();

    @Option(names = {"-c", "--suppress-common"}, description = "Suppress some of the common counters.")
    boolean suppressCommon;

    @Option(names = {"-G", "--port-guid", "-S"}, paramLabel = "<port_guid>",
            description = "Report the node containing the port specified by <port_guid>.")
    String portGuid;

    @Option(names = "--skip-sl", description = "Don't obtain SL to all destinations.")
    boolean skipSl;

    @Option(names = "--threshold-file", paramLabel = "<file>",
            description = "Specify an alternate threshold file, default: " + DEFAULT_THRESHOLDS)
    String thresholdFile;

    @Option(names = {"-R", "--GNDN"}, description = "(This option is obsolete and does nothing)")
    boolean gndn;

    @Option(names = "--data", description = "Include data counters for ports with errors.")
    boolean data;

    @Option(names = "--switch", description = "Print data for switches only.")
    boolean switches;

    @Option(names = "--ca", description = "Print data for CA's only.")
    boolean cas;

    @Option(names = "--router", description = "Print data for routers only.")
    boolean routers;

    @Option(names = "--details", description = "Include transmit discard details.")
    boolean details;

    @Option(names = "--counters", description = "Print data counters only.")
    boolean counters;

    @Option(names = {"-k", "--clear-errors"}, description = "Clear error counters after read.")
    boolean clearErrors;

    @Option(names = {"-K", "--clear-counts"}, description = "Clear data counters after read.")
    boolean clearCounts;

    @Override
    String tool() {
        return "ibqueryerrors";
    }

    @Override
    int execute() {
        checkCommonOptions();
        List<String> suppressed = new ArrayList<>();
        for (String list : suppress) {
            for (String s : list.split(",")) {
                if (ErrorQuery.COUNTER_NAMES.contains(s)) {
                    suppressed.add(s);
                }
            }
        }
        if (suppressCommon) {
            suppressed.add("PortRcvSwitchRelayErrors");
        }
        NetFabric fabric = scan.loadCache != null ? load(scan.loadCache) : discover(new byte[0], 0, null);
        if (fabric == null) {
            spec.commandLine().getErr().println("loading cached fabric failed");
            return IBERROR;
        }
        StringBuilder thresholdText = null;
        Map<String, Long> thresholds = Map.of();
        Path tf = Path.of(thresholdFile != null ? thresholdFile : DEFAULT_THRESHOLDS);
        if (Files.isReadable(tf)) {
            try {
                thresholdText = new StringBuilder();
                thresholds = ErrorQuery.thresholds(Files.readAllLines(tf, StandardCharsets.ISO_8859_1),
                        thresholdText);
            } catch (IOException e) {
                thresholdText = null;
            }
        }
        ErrorQuery.Options opt = new ErrorQuery.Options(switches, cas, routers, data, counters, details,
                clearErrors, clearCounts, List.copyOf(suppressed), thresholds,
                thresholdText == null ? null : thresholdText.toString());
        NodeNameMap names = names();
        try (MadTransport t = attach()) {
            MadQuery q = query(t);
            ErrorQuery eq = new ErrorQuery(q, opt, this::warn, s -> spec.commandLine().getErr().println(s));
            if (portGuid != null) {
                NetPort port = fabric.portByGuid(Addresses.unsigned(portGuid));
                if (port == null) {
                    spec.commandLine().getErr().println("Failed to find node: " + portGuid);
                } else {
                    eq.node(port.node(), names.name(port.node().guid(), port.node().description()), out);
                }
            } else {
                if (!skipSl && !saAnswers(q)) {
                    spec.commandLine().getErr().println("Query SA failed: Connection timed out; sa call path_query "
                            + "failed");
                    return 0;
                }
                for (NetNode n : fabric.nodes()) {
                    eq.node(n, names.name(n.guid(), n.description()), out);
                }
            }
            StringBuilder text = out;
            if (scan.json) {
                text = new StringBuilder();
            }
            int bad = eq.summary(text, opt.thresholdText());
            if (scan.json) {
                out.setLength(0);
                Map<String, Object> m = new java.util.LinkedHashMap<>();
                m.put("findings", eq.findings());
                m.put("summary", eq.totals());
                m.put("thresholds", thresholds);
                m.put("suppressed", suppressed);
                json(m);
            }
            return bad != 0 ? 1 : 0;
        }
    }

    /**
     * ibqueryerrors first asks the SA for the path records from this port (the SLs to query with); without an SA
     * it stops there. ibtwin asks for the path to itself and queries on SL 0 as ibqueryerrors does without QoS.
     */
    private boolean saAnswers(MadQuery q) {
        try {
            Resolver.guid(q, q.localPort().portGuid(), smLid());
            return true;
        } catch (QueryException e) {
            return e.kind() != QueryException.Kind.TIMEOUT;
        }
    }
}
