package org.ibtwin.cli;

import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.ibtwin.diag.NetFabric;
import org.ibtwin.diag.NetJson;
import org.ibtwin.diag.NetNode;
import org.ibtwin.diag.NetOutputs;
import org.ibtwin.diag.NodeLists;
import org.ibtwin.format.NodeNameMap;
import org.ibtwin.format.TopologyReader;
import org.ibtwin.transport.MadTransport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ibtwin ibhosts}, {@code ibswitches}, {@code ibnodes}: infiniband-diags' scripts over ibnetdiscover, the same
 * lines: the CAs or switches of the fabric (ibnodes: both), from a scan or from a topology file.
 */
abstract class NodeListCommand extends DiagCommand {
    @Option(names = {"-t", "--timeout"}, paramLabel = "<timeout_ms>", description = "Timeout in ms.")
    String timeout;

    @Option(names = {"-y", "--m_key"}, paramLabel = "<mkey>", description = "M_Key to use in requests.")
    String mkey;

    @Option(names = "--json", description = "Print JSON instead of the tool's text.")
    boolean json;

    @Parameters(arity = "0..1", paramLabel = "<topology-file>",
            description = "A topology (ibnetdiscover output) to list from instead of scanning.")
    String topologyFile;

    /** Whether the tool lists CAs, switches, or both. */
    abstract boolean hosts();

    abstract boolean switches();

    @Override
    DiagOptions diag() {
        DiagOptions d = DiagOptions.timeoutOnly(timeout);
        d.mkey = "0".equals(mkey) ? null : mkey;
        return d;
    }

    @Override
    String tool() {
        return "ibnetdiscover";
    }

    @Override
    int execute() {
        if (json) {
            return jsonList();
        }
        String text;
        if (topologyFile != null) {
            text = readWhole(topologyFile, "cat: ", 1);
            // the real script greps whatever it is given; a file that is no topology is one line and exit 2 here,
            // as in every other command that reads one
            TopologyReader.check(Path.of(topologyFile));
        } else {
            checkCommonOptions();
            NetFabric f = scan();
            StringBuilder sb = new StringBuilder();
            new NetOutputs(NodeNameMap.open(null)).topology(f, ZonedDateTime.now(), false, false, false, sb);
            text = sb.toString();
        }
        List<String> lines = new ArrayList<>();
        if (hosts()) {
            lines.addAll(NodeLists.hosts(text));
        }
        if (switches()) {
            lines.addAll(NodeLists.switches(text));
        }
        for (String l : lines) {
            out.append(l).append('\n');
        }
        return 0;
    }

    private NetFabric scan() {
        try (MadTransport t = attach()) {
            return discover(t, new byte[0], scanConfig(), "discover failed\n");
        }
    }

    private int jsonList() {
        if (topologyFile != null) {
            throw new IllegalArgumentException("--json lists a scanned fabric, not a topology file");
        }
        checkCommonOptions();
        NetFabric f = scan();
        NetJson j = new NetJson(NodeNameMap.open(null));
        List<Map<String, Object>> l = new ArrayList<>();
        if (hosts()) {
            for (NetNode n : f.cas()) {
                l.add(j.node(n, false));
            }
        }
        if (switches()) {
            for (NetNode n : f.switches()) {
                l.add(j.node(n, false));
            }
        }
        try {
            out.append(new com.fasterxml.jackson.databind.ObjectMapper()
                    .enable(com.fasterxml.jackson.databind.SerializationFeature.INDENT_OUTPUT)
                    .writeValueAsString(l)).append('\n');
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        return 0;
    }

    /** ibhosts. */
    @Command(name = "ibhosts", mixinStandardHelpOptions = true,
            description = "Show the CAs of the fabric (or of a topology file), as infiniband-diags' ibhosts does.")
    public static final class Hosts extends NodeListCommand {
        @Override
        boolean hosts() {
            return true;
        }

        @Override
        boolean switches() {
            return false;
        }
    }

    /** ibswitches. */
    @Command(name = "ibswitches", mixinStandardHelpOptions = true,
            description = "Show the switches of the fabric (or of a topology file), as infiniband-diags' ibswitches "
                    + "does.")
    public static final class Switches extends NodeListCommand {
        @Override
        boolean hosts() {
            return false;
        }

        @Override
        boolean switches() {
            return true;
        }
    }

    /** ibnodes: ibhosts, then ibswitches. */
    @Command(name = "ibnodes", mixinStandardHelpOptions = true,
            description = "Show the CAs and then the switches of the fabric, as infiniband-diags' ibnodes does.")
    public static final class Nodes extends NodeListCommand {
        @Override
        boolean hosts() {
            return true;
        }

        @Override
        boolean switches() {
            return true;
        }
    }
}
