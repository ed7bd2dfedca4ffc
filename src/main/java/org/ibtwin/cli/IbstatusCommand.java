package org.ibtwin.cli;

import java.util.ArrayList;
import java.util.List;
import org.ibtwin.diag.HostTools;
import org.ibtwin.diag.LocalDevice;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code ibtwin ibstatus}: infiniband-diags' ibstatus script for the local HCA, its sysfs files read by SMPs. A
 * device that is not there is the script's "Fatal error:  device 'x': sys files not found (...)", exit 255.
 */
@Command(name = "ibstatus", mixinStandardHelpOptions = true,
        description = "Status of the local HCA's ports as the ibstatus script prints them.",
        footer = {"", "Examples:",
            "  ibtwin ibstatus ibsim0     # shows status of all ports of 'ibsim0'",
            "  ibtwin ibstatus ibsim0:1   # shows status port number 1 of 'ibsim0'",
            "  ibtwin ibstatus node017    # the HCA of node017 (a node name attaches there)"})
public final class IbstatusCommand extends HostCommand {
    @Parameters(arity = "0..*", paramLabel = "devname[:portnum]", description = "Devices (or nodes) and ports.")
    List<String> args = new ArrayList<>();

    @Override
    int execute() {
        if (args.isEmpty()) {
            args.add(null);
        }
        for (String arg : args) {
            String dev = arg == null ? null : arg.replaceFirst(":.*$", "");
            String portPart = arg == null ? null : arg.replaceFirst("^.*:", "");
            try (Attached a = attach(dev)) {
                String base = "/sys/class/infiniband/" + dev + "/ports";
                if (a == null) {
                    out().println("Fatal error:  device '" + dev + "': sys files not found (" + base + ")");
                    return FAILED;
                }
                LocalDevice d = a.device();
                if (json) {
                    out().print(toJson(HostTools.json(d)));
                    continue;
                }
                List<LocalDevice.Port> ports = new ArrayList<>(d.ports());
                if (arg != null && !portPart.equals(dev)) {
                    ports.clear();
                    for (String p : portPart.trim().split("\\s+")) {
                        LocalDevice.Port found = null;
                        for (LocalDevice.Port x : d.ports()) {
                            if (Integer.toString(x.number()).equals(p)) {
                                found = x;
                            }
                        }
                        if (found == null) {
                            out().print(missingPort(d.name(), p));
                            continue;
                        }
                        ports.add(found);
                    }
                }
                out().print(HostTools.ibstatus(d, ports));
            }
        }
        return 0;
    }

    /** What the script prints for a port directory that is not there: every file unknown, link_layer IB. */
    private static String missingPort(String dev, String port) {
        return "Infiniband device '" + dev + "' port " + port + " status:\n"
                + "\tdefault gid:\t unknown\n\tbase lid:\t unknown\n\tsm lid:\t\t unknown\n\tstate:\t\t unknown\n"
                + "\tphys state:\t unknown\n\trate:\t\t unknown\n\tlink_layer:\t IB\n\n";
    }
}
