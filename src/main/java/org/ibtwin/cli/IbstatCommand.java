package org.ibtwin.cli;

import java.util.ArrayList;
import java.util.List;
import org.ibtwin.diag.Addresses;
import org.ibtwin.diag.HostTools;
import org.ibtwin.diag.LocalDevice;
import org.ibtwin.diag.SysfsDevice;
import org.ibtwin.transport.UmadSysfs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ibtwin ibstat}: infiniband-diags' ibstat for the local HCA: on umad read from the host's sysfs as the real
 * one reads it, elsewhere made up from SMPs to the local node.
 */
@Command(name = "ibstat", mixinStandardHelpOptions = true,
        description = "Basic status of the local HCA and its ports, as infiniband-diags' ibstat (on umad: read from "
                + "sysfs, as ibstat reads it; IBTWIN_SYSFS names another directory for /sys).",
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
        if (onUmad()) {
            return fromSysfs();
        }
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

    /**
     * On umad: the host's sysfs, as the real ibstat reads it through libibumad. No CA named: every CA sysfs lists
     * (-l: their names, -p: their port GUIDs). {@code --umad CA[:PORT]} names them as the arguments do.
     */
    private int fromSysfs() {
        UmadSysfs s = sysfs();
        List<String> cas = sysfsCas(s);
        if (cas == null || cas.isEmpty()) {
            throw new IllegalArgumentException("no InfiniBand device here (" + s.classDir() + " lists none)");
        }
        if (list) {
            cas.forEach(out()::println);
            return 0;
        }
        TransportOptions.Target t = transport.target();
        String ca = !args.isEmpty() ? args.get(0) : t.umadCa().isEmpty() ? null : t.umadCa();
        Integer port = args.size() > 1 ? Integer.valueOf((int) Addresses.number(args.get(1)))
                : args.isEmpty() ? t.umadPort() : null;
        List<SysfsDevice> devices = new ArrayList<>();
        for (String name : ca == null ? cas : List.of(ca)) {
            SysfsDevice d = sysfsDevice(s, name);
            if (d == null) {
                panic("'" + name + "' IB device can't be found: Success");
                return FAILED;
            }
            devices.add(d);
        }
        if (json) {
            List<Object> all = new ArrayList<>();
            devices.forEach(d -> all.add(HostTools.json(d)));
            out().print(toJson(ca != null ? all.get(0) : all));
            return 0;
        }
        StringBuilder sb = new StringBuilder();
        for (SysfsDevice d : devices) {
            if (portList) {
                sb.append(HostTools.ibstatGuids(d));
            } else if (!shortFormat && port != null) {
                SysfsDevice.Port p = d.port(port);
                if (p == null) {
                    out().print(sb);
                    warn("ca_stat", HostTools.noSuchPort(d, port).substring("ca_stat: ".length()));
                    panic("stat of IB device '" + d.name() + "' failed: "
                            + (d.anyMissing() ? "No such file or directory" : "Success"));
                    return FAILED;
                }
                sb.append(HostTools.ibstatPort(d, p));
            } else {
                sb.append(HostTools.ibstat(d, shortFormat));
            }
        }
        out().print(sb);
        return 0;
    }
}
