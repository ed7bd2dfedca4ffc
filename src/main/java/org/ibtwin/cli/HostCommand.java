package org.ibtwin.cli;

import java.io.PrintWriter;
import java.util.List;
import org.ibtwin.diag.LocalDevice;
import org.ibtwin.diag.MadQuery;
import org.ibtwin.diag.QueryException;
import org.ibtwin.diag.SysfsDevice;
import org.ibtwin.transport.IbsimClient;
import org.ibtwin.transport.MadTransport;
import org.ibtwin.transport.MadTransportException;
import org.ibtwin.transport.Umad;
import org.ibtwin.transport.UmadLibc;
import org.ibtwin.transport.UmadSysfs;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * What ibstat, ibstatus and ibv_devinfo share: they show the local HCA as the host sees it ({@link LocalDevice}),
 * read here by SMPs to the node the transport is attached at. On an ibsim the device is what libumad2sim shows the
 * real tools ("ibsim0"); elsewhere the transport's CA name. A node name given where the tool takes a device name
 * ({@code ibtwin ibstat node017}) attaches at that node, as {@code --sim-host} does, unless --sim-host names one.
 * On umad there is a sysfs: ibstat and ibstatus read it ({@link SysfsDevice}) as the real ones do, and nothing is
 * sent.
 */
abstract class HostCommand extends CliCommand {
    /** C's exit(-1). */
    static final int FAILED = 255;


    @Mixin
    TransportOptions transport;

    @Option(names = "--json", description = "Print the device and its ports as JSON.")
    boolean json;

    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    PrintWriter err() {
        return spec.commandLine().getErr();
    }

    /** The device name the host would show for what {@code t} is attached at. */
    static String deviceName(MadTransport t) {
        return t instanceof IbsimClient ? "ibsim0" : t.localPort().caName();
    }

    static LocalDevice.View view(MadTransport t) {
        return t instanceof IbsimClient ? LocalDevice.View.UMAD2SIM : LocalDevice.View.KERNEL;
    }

    /** The open transport and the device read through it. */
    record Attached(MadTransport transport, LocalDevice device) implements AutoCloseable {
        @Override
        public void close() {
            transport.close();
        }
    }

    /**
     * Attaches and reads the device. {@code wanted} (a device name or a node, null for none): when it is not the
     * device's name and --sim-host was not given, the tool attaches again at the node it names; null is returned
     * when there is no such node either.
     */
    Attached attach(String wanted) {
        MadTransport t = DiagCommand.opener.apply(transport);
        String name = deviceName(t);
        if (wanted != null && !wanted.equals(name)) {
            t.close();
            if (transport.simHost != null) {
                return null;
            }
            transport.simHost = wanted;
            try {
                t = DiagCommand.opener.apply(transport);
            } catch (MadTransportException e) {
                return null;
            }
            name = deviceName(t);
        }
        try {
            return new Attached(t, LocalDevice.read(new MadQuery(t), name, view(t)));
        } catch (QueryException e) {
            t.close();
            throw new MadTransportException("the local node does not answer: " + e.getMessage(), e);
        }
    }

    /**
     * Whether this run reads the host's sysfs, as the real tools do: on umad (--umad, -C/-P, or this host's HCA as
     * the default), where there is a sysfs to read; elsewhere the device is made up from SMP answers.
     */
    boolean onUmad() {
        return transport.target().isUmad();
    }

    /** The host's sysfs (under {@link UmadSysfs#root()}), read through the C library as the umad transport reads it. */
    static UmadSysfs sysfs() {
        try {
            return new UmadSysfs(Umad.libc());
        } catch (MadTransportException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /** The HCAs sysfs lists, sorted; null when there is no {@code class/infiniband} directory at all. */
    static List<String> sysfsCas(UmadSysfs s) {
        try {
            return s.list(s.classDir());
        } catch (UmadLibc.CallFailed e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /** The device {@code ca} as sysfs shows it; null when it has no directory there. */
    static SysfsDevice sysfsDevice(UmadSysfs s, String ca) {
        try {
            return SysfsDevice.read(s, ca);
        } catch (UmadLibc.CallFailed e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /** libibumad's panic line on stderr: "ibpanic: [pid] main: text". */
    void panic(String text) {
        err().println("ibpanic: [" + ProcessHandle.current().pid() + "] main: " + text);
    }

    void warn(String fn, String text) {
        err().println("ibwarn: [" + ProcessHandle.current().pid() + "] " + fn + ": " + text);
    }

    String toJson(Object o) {
        return Json.write(o);
    }

    @Override
    public final Integer call() {
        int rc;
        try {
            rc = execute();
        } catch (MadTransportException e) {
            err().println(spec.qualifiedName() + ": cannot attach to " + transport.target() + ": "
                    + e.getMessage());
            rc = FAILED;
        }
        out().flush();
        err().flush();
        return rc;
    }

    abstract int execute();
}
