package org.ibtwin.cli;

import java.util.ArrayList;
import java.util.List;
import org.ibtwin.diag.Addresses;
import org.ibtwin.diag.MadQuery;
import org.ibtwin.diag.OpFailure;
import org.ibtwin.diag.PerfQueries;
import org.ibtwin.diag.QueryException;
import org.ibtwin.diag.Resolver;
import org.ibtwin.mad.PortId;
import org.ibtwin.transport.LocalPort;
import org.ibtwin.transport.MadTransport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ibtwin perfquery}: infiniband-diags' perfquery for PortCounters, PortCountersExtended and the discard and
 * receive error details: the same arguments, queries (ClassPortInfo first), resets and output.
 */
@Command(name = "perfquery", mixinStandardHelpOptions = true,
        description = "Query (and reset) a port's performance counters, as infiniband-diags' perfquery.",
        footer = {"", "Without a destination the local port is read. port(s): one port, a list \"1,4,8\" or a range",
            "\"1-10\"; reset_mask: CounterSelect (and CounterSelect2 above bit 15) of a reset, default all.",
            "Errors print as perfquery prints them, exit code 255.",
            "",
            "Examples:",
            "  ibtwin perfquery --ibsim 127.0.0.1:7070     # read local port's performance counters",
            "  ibtwin perfquery 32 1             # read performance counters from lid 32, port 1",
            "  ibtwin perfquery -x 32 1          # read extended performance counters from lid 32, port 1",
            "  ibtwin perfquery -a 32            # read performance counters from lid 32, all ports",
            "  ibtwin perfquery -r 32 1          # read performance counters and reset",
            "  ibtwin perfquery -R 32 2 0x0fff   # reset only error counters of port 2",
            "  ibtwin perfquery -l 32 1-10       # read performance counters from lid 32, port 1-10, each port",
            "  ibtwin perfquery -a 32 1,4,8      # read ports 1, 4 and 8 of lid 32, aggregate output"})
public final class PerfqueryCommand extends CommonDiagCommand {
    /** perfquery's MAX_PORTS: the most ports a list or range may name. */
    static final int MAX_PORTS = 255;

    @Option(names = {"-x", "--extended"}, description = "Show extended port counters.")
    boolean extended;

    @Option(names = {"-D", "--xmtdisc"}, description = "Show Xmt Discard Details.")
    boolean xmtDisc;

    @Option(names = {"-E", "--rcverr"}, description = "Show Rcv Error Details.")
    boolean rcvErr;

    @Option(names = {"-a", "--all_ports"}, description = "Show aggregated counters.")
    boolean allPorts;

    @Option(names = {"-l", "--loop_ports"}, description = "Iterate through each port.")
    boolean loopPorts;

    @Option(names = {"-r", "--reset_after_read"}, description = "Reset counters after read.")
    boolean reset;

    @Option(names = {"-R", "--Reset_only"}, description = "Only reset counters.")
    boolean resetOnly;

    @Parameters(arity = "0..3", paramLabel = "[<lid|guid> [[port(s)] [reset_mask]]]",
            description = "Destination, port(s) and reset mask.")
    List<String> args = new ArrayList<>();

    @Override
    String tool() {
        return "perfquery";
    }

    @Override
    int execute() {
        checkCommonOptions();
        int port = allPorts ? PerfQueries.ALL_PORTS : 0;
        List<Integer> ports = new ArrayList<>();
        if (args.size() > 1) {
            String p = args.get(1);
            if (p.indexOf(',') >= 0) {
                for (String tok : p.split(",")) {
                    if (!tok.isEmpty()) {
                        ports.add((int) Addresses.unsigned(tok));
                    }
                }
                if (!ports.isEmpty()) {
                    port = ports.get(0);
                }
            } else if (p.indexOf('-') >= 0) {
                int dash = p.indexOf('-');
                long min = Addresses.unsigned(p.substring(0, dash));
                long max = Addresses.unsigned(p.substring(dash + 1));
                if ((int) min >= (int) max) {
                    throw new IbError("max port must be greater than min port in range");
                }
                for (long i = min; i <= max && ports.size() <= MAX_PORTS; i++) {
                    ports.add((int) i);
                }
                port = ports.get(0);
            } else {
                port = (int) Addresses.unsigned(p);
            }
            if (ports.size() > MAX_PORTS) {
                throw new IllegalArgumentException("at most " + MAX_PORTS + " ports in a list or range");
            }
        }
        boolean maskGiven = args.size() > 2;
        int mask = maskGiven ? (int) Addresses.unsigned(args.get(2)) : 0xffff;

        try (MadTransport t = attach()) {
            MadQuery q = query(t);
            int lid;
            if (!args.isEmpty()) {
                lid = resolve(q, args.get(0)).lid();
            } else {
                LocalPort self = q.localPort();
                lid = self.lid();
                port = self.portNumber();
            }
            PerfQueries.Request r = new PerfQueries.Request(lid, port, ports, mask, maskGiven, extended, reset,
                    resetOnly, allPorts, loopPorts, xmtDisc, rcvErr);
            try {
                new PerfQueries(q, this::warn).run(r, out);
            } catch (OpFailure f) {
                throw failed("", f);
            }
        }
        return 0;
    }

    private PortId resolve(MadQuery q, String arg) {
        if (diag.guid && !lastIsLid()) {
            var g = Addresses.guid(arg);
            if (g.isPresent()) {
                try {
                    return Resolver.guid(q, g.getAsLong(), smLid());
                } catch (QueryException e) {
                    warnQuery(e);
                    warn("ib_path_query_via: sa call path_query failed");
                }
            }
            throw new IbError("can't resolve destination port " + arg);
        }
        return Addresses.lid(arg).orElseThrow(() -> new IbError("can't resolve destination port " + arg));
    }

    /** Whether -L came after the last -G (the last address type given wins). */
    private boolean lastIsLid() {
        if (!diag.lid || spec.commandLine().getParseResult() == null) {
            return false;
        }
        String last = "";
        for (var o : spec.commandLine().getParseResult().matchedOptions()) {
            if (o.shortestName().equals("-L") || o.shortestName().equals("-G")) {
                last = o.shortestName();
            }
        }
        return last.equals("-L");
    }
}
