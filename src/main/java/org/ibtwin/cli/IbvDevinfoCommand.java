package org.ibtwin.cli;

import org.ibtwin.diag.Addresses;
import org.ibtwin.diag.HostTools;
import org.ibtwin.diag.LocalDevice;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ibtwin ibv_devinfo}: rdma-core's ibv_devinfo for the local HCA (device and port attributes), read by SMPs.
 * What verbs alone know (the firmware version, board id, -v's device limits) is left out.
 */
@Command(name = "ibv_devinfo", mixinStandardHelpOptions = true,
        description = "The local HCA's verbs attributes, as rdma-core's ibv_devinfo prints them.",
        footer = {"", "A node name as -d (or as the argument) attaches at that node: ibtwin ibv_devinfo node017."})
public final class IbvDevinfoCommand extends HostCommand {
    @Option(names = {"-d", "--ib-dev"}, paramLabel = "<dev>", description = "Use IB device <dev> (default all).")
    String device;

    @Option(names = {"-i", "--ib-port"}, paramLabel = "<port>", description = "Use port <port> (default all).")
    String port;

    @Option(names = {"-l", "--list"}, description = "Print only the IB devices names.")
    boolean list;

    @Option(names = {"-v", "--verbose"}, description = "Print all the attributes (those SMPs tell).")
    boolean verbose;

    @Parameters(arity = "0..1", paramLabel = "<node>", description = "The node whose HCA to show.")
    String node;

    @Override
    int execute() {
        int p = 0;
        if (port != null) {
            p = (int) Addresses.number(port);
            if (p <= 0) {
                usage();
                return 1;
            }
        }
        String wanted = device != null ? device : node;
        try (Attached a = attach(wanted)) {
            if (a == null) {
                err().println("IB device '" + wanted + "' wasn't found");
                return FAILED;
            }
            LocalDevice d = a.device();
            if (list) {
                out().print("1 HCA found:\n\t" + d.name() + "\n\n");
                return 0;
            }
            if (json) {
                out().print(toJson(HostTools.json(d)));
                return 0;
            }
            if (p > d.numPorts()) {
                err().println("Invalid port requested for device");
                return 4;
            }
            out().print(HostTools.ibvDevinfo(d, p));
            return 0;
        }
    }

    private void usage() {
        spec.commandLine().usage(out());
    }
}
