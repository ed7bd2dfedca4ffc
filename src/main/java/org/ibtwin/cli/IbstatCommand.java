package org.ibtwin.cli;

import java.util.ArrayList;
import java.util.List;
import org.ibtwin.diag.Addresses;
import org.ibtwin.diag.HostTools;
import org.ibtwin.diag.LocalDevice;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code ibtwin ibstat}: infiniband-diags' ibstat for the local HCA, read by SMPs. */
@Command(name = "ibstat", mixinStandardHelpOptions = true,
        description = "Basic status of the local HCA and its ports, as infiniband-diags' ibstat.",
        footer = {"", "<ca_name> is the device (\"ibsim0\" on an ibsim, as libumad2sim names it); a node name there",
            "(ibtwin ibstat node017) attaches at that node instead, as --sim-host does.",
            "",
            "Examples:",
            "  ibtwin ibstat -l         # list all IB devices",
            "  ibtwin ibstat ibsim0 1   # stat port 1 of 'ibsim0'",
            "  ibtwin ibstat node017    # the HCA of node017"})
public final class IbstatCommand extends HostCommand {
    @Option(names = {"-l", "--list_of_cas"}, description = "List all IB devices.")
    boolean list;

    @Option(names = {"-s", "--short"}, description = "Short output.")
    boolean shortFormat;

    @Option(names = {"-p", "--port_list"}, description = "Show port list.")
    boolean portList;

    @Option(names = {"-v", "--verbose"}, description = "Increase verbosity level (accepted).")
    boolean[] verbose = new boolean[0];

    @Option(names = {"-d", "--debug"}, description = "Raise debug level (accepted).")
    boolean[] debug = new boolean[0];

    @Parameters(arity = "0..2", paramLabel = "<ca_name> [portnum]", description = "Device (or node) and port.")
    List<String> args = new ArrayList<>();

    @Override
    int execute() {
        int port = args.size() > 1 ? (int) Addresses.number(args.get(1)) : -1;
        String wanted = args.isEmpty() ? null : args.get(0);
        try (Attached a = attach(wanted)) {
            if (a == null) {
                panic("'" + wanted + "' IB device can't be found: Success");
                return FAILED;
            }
            LocalDevice d = a.device();
            if (json) {
                out().print(toJson(HostTools.json(d)));
                return 0;
            }
            if (portList) {
                out().print(HostTools.ibstatGuids(d));
                return 0;
            }
            if (list) {
                out().println(d.name());
                return 0;
            }
            if (!shortFormat && port >= 0) {
                LocalDevice.Port p = d.port(port);
                if (p == null) {
                    warn("ca_stat", HostTools.noSuchPort(d, port).substring("ca_stat: ".length()));
                    panic("stat of IB device '" + d.name() + "' failed: No such file or directory");
                    return FAILED;
                }
                out().print(HostTools.ibstatPort(d, p));
                return 0;
            }
            out().print(HostTools.ibstat(d, shortFormat));
            return 0;
        }
    }
}
