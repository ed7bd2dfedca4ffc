package org.ibtwin.doctor.checks;

import java.util.ArrayList;
import java.util.List;
import org.ibtwin.doctor.Check;
import org.ibtwin.doctor.FabricState;
import org.ibtwin.doctor.Finding;
import org.ibtwin.doctor.HostInfo;
import org.ibtwin.doctor.Severity;
import org.ibtwin.doctor.Thresholds;

/**
 * T17: the application (or benchmark) bound to NUMA nodes that do not include the HCA's: every DMA crosses the
 * socket link. Needs both the HCA's numa_node and the binding (numactl --show "nodebind:").
 */
public final class NumaCheck implements Check {
    static final String FIX = "bind the job to the HCA's NUMA node (numactl --cpunodebind=N --membind=N, or the MPI "
            + "launcher's binding), and keep the HCA's interrupts on cores of that node";

    @Override
    public String id() {
        return "T17";
    }

    @Override
    public String name() {
        return "application far from the HCA's NUMA node";
    }

    @Override
    public String skipReason(FabricState s) {
        for (HostInfo h : s.hosts().values()) {
            if (h.hcaNuma() != null && h.appNuma() != null) {
                return null;
            }
        }
        return "no application NUMA binding with the HCA's numa_node (numactl --show and numa_node files)";
    }

    private static String nodes(java.util.Set<Integer> s) {
        return String.join(",", s.stream().sorted().map(String::valueOf).toList());
    }

    @Override
    public List<Finding> run(FabricState s, Thresholds t) {
        List<Finding> out = new ArrayList<>();
        for (HostInfo h : s.hosts().values()) {
            Integer hca = h.hcaNuma();
            if (hca == null || hca < 0 || h.appNuma() == null || h.appNuma().isEmpty() || h.appNuma().contains(hca)) {
                continue;
            }
            out.add(new Finding(id(), Severity.WARNING, h.host(), "the application runs on NUMA node "
                    + nodes(h.appNuma()) + ", the HCA hangs off node " + hca,
                    List.of(h.host() + ": HCA numa_node " + hca + Words.from(h.source(HostInfo.Key.HCA_NUMA)),
                            h.host() + ": application bound to NUMA node " + nodes(h.appNuma())
                                    + Words.from(h.source(HostInfo.Key.APP_NUMA))), FIX));
        }
        return out;
    }
}
