package org.ibtwin.doctor.checks;

import java.util.ArrayList;
import java.util.List;
import org.ibtwin.doctor.Check;
import org.ibtwin.doctor.FabricState;
import org.ibtwin.doctor.Finding;
import org.ibtwin.doctor.HostInfo;
import org.ibtwin.doctor.Severity;
import org.ibtwin.doctor.Thresholds;

/** T19: a GPU host without GPUDirect RDMA (nvidia_peermem not loaded): NCCL stages every transfer through host memory. */
public final class GpuDirectCheck implements Check {
    static final String FIX = "load nvidia_peermem (modprobe nvidia_peermem; add it to /etc/modules-load.d) and "
            + "expose /dev/infiniband to the containers";

    @Override
    public String id() {
        return "T19";
    }

    @Override
    public String name() {
        return "GPUDirect RDMA not loaded on a GPU node";
    }

    @Override
    public String skipReason(FabricState s) {
        for (HostInfo h : s.hosts().values()) {
            if (Boolean.TRUE.equals(h.gpu())) {
                return null;
            }
        }
        return "no GPU hosts known (fabric description, or lsmod outputs)";
    }

    @Override
    public List<Finding> run(FabricState s, Thresholds t) {
        List<String> hosts = new ArrayList<>();
        List<String> ev = new ArrayList<>();
        for (HostInfo h : s.hosts().values()) {
            if (Boolean.TRUE.equals(h.gpu()) && Boolean.FALSE.equals(h.gpuDirect())) {
                hosts.add(h.host());
                ev.add(h.host() + ": GPU present, nvidia_peermem not loaded" + Words.from(h.source(
                        HostInfo.Key.GPUDIRECT)));
            }
        }
        if (hosts.isEmpty()) {
            return List.of();
        }
        return List.of(new Finding(id(), Severity.WARNING, Words.names(hosts), "GPUDirect RDMA not active on "
                + Words.plural(hosts.size(), "GPU host", "GPU hosts"), Words.cap(ev), FIX));
    }
}
