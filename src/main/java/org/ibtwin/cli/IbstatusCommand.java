package org.ibtwin.cli;

import java.util.ArrayList;
import java.util.List;
import org.ibtwin.diag.HostTools;
import org.ibtwin.diag.LocalDevice;
import org.ibtwin.diag.SysfsDevice;
import org.ibtwin.transport.UmadSysfs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code ibtwin ibstatus}: infiniband-diags' ibstatus script for the local HCA: on umad its sysfs files read as the
 * script reads them, elsewhere made up from SMPs to the local node. A
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
        if (onUmad()) {
            return fromSysfs();
        }
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
                SysfsDevice s = d.sysfs();
                out().print(HostTools.ibstatus(s, arg != null && !portPart.equals(dev)
                        ? List.of(portPart.trim().split("\\s+")) : HostTools.ibstatusPorts(s)));
            }
        }
        return 0;
    }

    /**
     * On umad: the script's reading of the host's sysfs. No argument: every device sysfs lists ("Fatal error:  No
     * devices" without the directory); a device without a ports directory ends the run with the script's line.
     */
    private int fromSysfs() {
        UmadSysfs s = sysfs();
        List<String> devs = new ArrayList<>(args);
        TransportOptions.Target t = transport.target();
        if (devs.isEmpty() && !t.umadCa().isEmpty()) {   // --umad CA[:PORT] names them as an argument does
            devs.add(t.umadCa() + (t.umadPort() == null ? "" : ":" + t.umadPort()));
        }
        if (devs.isEmpty()) {
            List<String> cas = sysfsCas(s);
            if (cas == null) {
                out().println("Fatal error:  No devices");
                return FAILED;
            }
            devs.addAll(cas.isEmpty() ? List.of("*") : cas);
        }
        for (String arg : devs) {
            String dev = arg.replaceFirst(":.*$", "");
            String portPart = arg.replaceFirst("^.*:", "");
            String ports = s.caDir(dev) + "/ports";
            SysfsDevice d = sysfsDevice(s, dev);
            if (d == null || sysfsCas(s) == null || !hasDir(s, ports)) {
                out().println("Fatal error:  device '" + dev + "': sys files not found (" + ports + ")");
                return FAILED;
            }
            if (json) {
                out().print(toJson(HostTools.json(d)));
                continue;
            }
            out().print(HostTools.ibstatus(d, portPart.equals(dev) ? HostTools.ibstatusPorts(d)
                    : List.of(portPart.trim().split("\\s+"))));
        }
        return 0;
    }

    private static boolean hasDir(UmadSysfs s, String dir) {
        try {
            return s.list(dir) != null;
        } catch (org.ibtwin.transport.UmadLibc.CallFailed e) {
            return false;
        }
    }
}
