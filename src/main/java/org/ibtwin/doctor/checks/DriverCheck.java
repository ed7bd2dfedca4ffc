package org.ibtwin.doctor.checks;

import java.util.ArrayList;
import java.util.List;
import org.ibtwin.doctor.Check;
import org.ibtwin.doctor.FabricState;
import org.ibtwin.doctor.Finding;
import org.ibtwin.doctor.HostInfo;
import org.ibtwin.doctor.Severity;
import org.ibtwin.doctor.Thresholds;

/** T02: the host does not see its HCA: driver not loaded (lsmod, the description's driver: missing), or no device. */
public final class DriverCheck implements Check {
    static final String FIX = "load the drivers (modprobe mlx5_core mlx5_ib; add them to /etc/modules-load.d), check "
            + "dmesg for mlx5 firmware errors and install or update the firmware";

    @Override
    public String id() {
        return "T02";
    }

    @Override
    public String name() {
        return "HCA not seen by the host";
    }

    @Override
    public String skipReason(FabricState s) {
        for (HostInfo h : s.hosts().values()) {
            if (h.driverLoaded() != null || h.noDevice()) {
                return null;
            }
        }
        return "no driver facts (fabric description, or lsmod / ibv_devinfo outputs)";
    }

    @Override
    public List<Finding> run(FabricState s, Thresholds t) {
        List<Finding> out = new ArrayList<>();
        for (HostInfo h : s.hosts().values()) {
            List<String> ev = new ArrayList<>();
            if (Boolean.FALSE.equals(h.driverLoaded())) {
                ev.add(h.host() + ": mlx5_core/mlx5_ib not loaded" + Words.from(h.source(HostInfo.Key.DRIVER_LOADED)));
            }
            if (h.noDevice()) {
                ev.add(h.host() + ": ibv_devinfo found no IB device" + Words.from(h.source(HostInfo.Key.NO_DEVICE)));
            }
            if (!ev.isEmpty()) {
                out.add(new Finding(id(), Severity.ERROR, h.host(), "the host does not see its HCA", ev, FIX));
            }
        }
        return out;
    }
}
