package org.ibtwin.cli;

import org.ibtwin.diag.Addresses;
import org.ibtwin.diag.HostTools;
import java.util.List;
import org.ibtwin.diag.LocalDevice;
import org.ibtwin.diag.MadQuery;
import org.ibtwin.diag.QueryException;
import org.ibtwin.diag.SysfsDevice;
import org.ibtwin.transport.MadTransportException;
import org.ibtwin.transport.UmadSysfs;
import org.ibtwin.transport.UmadTransport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ibtwin ibv_devinfo}: rdma-core's ibv_devinfo for the local HCA (device and port attributes). On umad from the
 * host's sysfs and the device's own NodeInfo and PortInfo; elsewhere by SMPs alone, where what verbs alone know (the
 * firmware version, board id) is left out. -v's device limits are never shown.
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
        if (onUmad()) {
            return fromSysfs(p);
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

    /**
     * On umad: every CA sysfs lists (or -d's), from its sysfs files and, for what only the device tells verbs
     * (vendor and part id, the MTUs), NodeInfo and PortInfo over the CA's first umad port.
     */
    private int fromSysfs(int port) {
        UmadSysfs s = sysfs();
        List<String> cas = sysfsCas(s);
        if (cas == null || cas.isEmpty()) {
            err().println("No IB devices found");
            return FAILED;
        }
        TransportOptions.Target t = transport.target();
        String wanted = device != null ? device : node != null ? node : t.umadCa().isEmpty() ? null : t.umadCa();
        if (wanted != null && !cas.contains(wanted)) {
            err().println("IB device '" + wanted + "' wasn't found");
            return FAILED;
        }
        List<String> names = wanted == null ? cas : List.of(wanted);
        if (list) {
            StringBuilder sb = new StringBuilder(names.size() + " HCA" + (names.size() == 1 ? "" : "s")
                    + " found:\n");
            names.forEach(n -> sb.append('\t').append(n).append('\n'));
            out().print(sb.append('\n'));
            return 0;
        }
        StringBuilder sb = new StringBuilder();
        for (String name : names) {
            SysfsDevice d = sysfsDevice(s, name);
            if (port > d.numPorts()) {
                out().print(sb);
                err().println("Invalid port requested for device");
                return 4;
            }
            LocalDevice smp;
            try (UmadTransport u = UmadTransport.open(name, null, false)) {
                smp = LocalDevice.read(new MadQuery(u), name, LocalDevice.View.KERNEL);
            } catch (QueryException e) {
                throw new MadTransportException(name + ": the local node does not answer: " + e.getMessage(), e);
            }
            sb.append(json ? toJson(HostTools.json(d)) : HostTools.ibvDevinfo(d, smp, port));
        }
        out().print(sb);
        return 0;
    }
}
