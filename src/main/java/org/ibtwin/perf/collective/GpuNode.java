package org.ibtwin.perf.collective;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.HostFacts;
import org.ibtwin.model.NaturalOrder;
import org.ibtwin.model.Node;
import org.ibtwin.model.Port;
import org.ibtwin.perf.Names;

/**
 * A GPU host: its name, its NICs (the CA ports of the host with a live link, in device-name order: mlx5_0,
 * mlx5_1, ...) and the GPU board its host facts describe.
 *
 * <p><b>Rails.</b> GPU {@code i} of {@code g} uses NIC {@code floor(i * k / g)} of the host's {@code k}: one NIC per
 * GPU on a DGX H100 (GPU i on NIC i, rail i), two GPUs per NIC with 4 NICs, every GPU on the one NIC of a host that
 * has one. That is the PCIe affinity NCCL finds: the NIC under the same PCIe switch.
 */
public record GpuNode(String name, List<Port> nics, HostFacts facts) {
    public GpuNode {
        nics = List.copyOf(nics);
        if (nics.isEmpty()) {
            throw new IllegalArgumentException(name + ": no NIC with a live link");
        }
    }

    /** GPUs on the board. */
    public int gpus() {
        return facts.gpus();
    }

    /** The index of the NIC GPU {@code gpu} of {@code used} uses. */
    public int nicOf(int gpu, int used) {
        return (int) ((long) gpu * nics.size() / used);
    }

    /** The first GPU of {@code used} on NIC {@code nic}. */
    public int firstGpuOn(int nic, int used) {
        for (int gpu = 0; gpu < used; gpu++) {
            if (nicOf(gpu, used) == nic) {
                return gpu;
            }
        }
        return 0;
    }

    /** "node001 mlx5_3" (the NIC's node description) or the host name with the port. */
    public String nicName(int nic) {
        Port p = nics.get(nic);
        String d = p.node().description();
        String base = d == null || d.isBlank() ? name + " " + p.node().name() : d.trim();
        return p.node().numPorts() > 1 ? base + "/" + p.number() : base;
    }

    /**
     * The GPU hosts of a fabric in fabric order: every host whose host facts say it has GPUs ({@code gpu: true}),
     * with the CA ports it has, grouped by host name.
     */
    public static List<GpuNode> of(Fabric fabric) {
        Map<String, List<Port>> ports = new LinkedHashMap<>();
        Map<String, HostFacts> facts = new LinkedHashMap<>();
        for (Node n : fabric.cas()) {
            HostFacts h = n.hostFacts() == null ? HostFacts.DEFAULT : n.hostFacts();
            if (!h.gpu()) {
                continue;
            }
            String host = Names.node(n);
            facts.putIfAbsent(host, h);
            List<Port> list = ports.computeIfAbsent(host, k -> new ArrayList<>());
            for (int i = 1; i <= n.numPorts(); i++) {
                Port p = n.port(i);
                if (p.link() != null && p.link().isUp()) {
                    list.add(p);
                }
            }
        }
        List<GpuNode> out = new ArrayList<>(ports.size());
        Comparator<Port> byDevice = Comparator.comparing((Port p) -> device(p.node()), NaturalOrder::compare)
                .thenComparingInt(Port::number);
        ports.forEach((host, list) -> {
            if (!list.isEmpty()) {
                list.sort(byDevice);
                out.add(new GpuNode(host, list, facts.get(host)));
            }
        });
        return out;
    }

    /** The second word of a CA's description ("mlx5_3"), else its topology name. */
    private static String device(Node n) {
        String d = n.description() == null ? "" : n.description().trim();
        String[] w = d.split("\\s+", 2);
        return w.length > 1 ? w[1] : n.name();
    }
}
