package org.ibtwin.gen;

import java.util.Arrays;
import java.util.Locale;
import org.ibtwin.model.Cable;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.HostFacts;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.Node;

/**
 * GPU clusters: nodes of 4 or 8 GPUs with one or more NICs each (one CA per NIC, described "node001 mlx5_3"),
 * every NIC's host facts saying GPUs, GPUDirect RDMA on, and the GPU board of the link generation (NDR and later:
 * H100, NVLink 4 at 450 GB/s per direction through an NVSwitch with NVLink SHARP; HDR: A100, NVLink 3 at 300; older:
 * V100, NVLink 2 at 150; no NVLS before H100).
 *
 * <p><b>Rail-optimised</b> (the DGX SuperPOD compute fabric): nodes come in scalable units of {@code radix/2} (32 on
 * 64-port NDR Quantum-2 switches, 20 on 40-port HDR Quantum). Each unit has one leaf per rail: NIC {@code r} of
 * every node of the unit goes to the unit's leaf of rail {@code r}, node {@code j} on port {@code j+1}; the leaf's
 * other {@code radix/2} ports go up. Up to {@code radix} leaves share one spine level, the uplinks dealt round-robin
 * over {@code leaves*radix/2 / radix} spines, so every leaf reaches every spine (2 SUs of 8 rails: 16 leaves, 8
 * spines; 8 SUs: 64 leaves, 32 spines). Beyond that each rail gets its own spine group, {@code units*radix/2 /
 * (radix/2)} spines of {@code radix/2} down and up ports, and spine {@code a} of every rail joins core group
 * {@code a} (16 SUs of 8 rails: 128 leaves, 128 spines, 64 cores), so traffic that stays on its rail never climbs
 * to the cores. Switch names: su01-rail1 (leaves), spine01 or rail1-spine01, core01.
 *
 * <p>The CAs are numbered rail by rail (all rail-1 NICs, then all rail-2 NICs), so that static routing, which
 * spreads destinations over the uplinks by their position among the CAs, spreads every rail's nodes alike.
 *
 * <p><b>Classic</b>: the {@link FatTree} of the same radix with every node's NICs on consecutive ports of the same
 * leaf.
 */
public final class GpuCluster {
    /**
     * What to build.
     *
     * @param nodes    GPU nodes, at least 1
     * @param gpus     GPUs per node: 4 or 8
     * @param nics     NICs per node, 1..gpus, dividing gpus
     * @param radix    switch ports, even, 4..254
     * @param speed    the lane speed of every link
     * @param rails    rail-optimised (else classic)
     * @param hostNamePattern host names from the node number: "node%03d"
     */
    public record Spec(int nodes, int gpus, int nics, int radix, LinkSpeed speed, boolean rails,
                       String hostNamePattern) {
        public Spec {
            if (gpus != 4 && gpus != 8) {
                throw new IllegalArgumentException("gpus must be 4 or 8 per node, got " + gpus);
            }
            if (nics < 1 || nics > gpus || gpus % nics != 0) {
                throw new IllegalArgumentException("nics must divide the " + gpus + " GPUs (1, 2, 4"
                        + (gpus == 8 ? " or 8" : "") + "), got " + nics);
            }
            if (radix < 4 || radix > FatTreeSpec.MAX_RADIX || radix % 2 != 0) {
                throw new IllegalArgumentException("radix must be an even number of ports from 4 to "
                        + FatTreeSpec.MAX_RADIX + ", got " + radix);
            }
            if (speed == null) {
                throw new IllegalArgumentException("speed is required");
            }
            FabricBuilder.checkSpeed(speed);
            if (nodes < 1) {
                throw new IllegalArgumentException("nodes must be at least 1, got " + nodes);
            }
            if (rails && nodes > maxRailNodes(radix)) {
                throw new IllegalArgumentException("nodes: " + nodes + " do not fit a rail-optimised tree of radix "
                        + radix + " (at most " + maxRailNodes(radix) + ": " + radix / 2 + " scalable units of "
                        + radix / 2 + ")");
            }
            if (hostNamePattern == null || String.format(Locale.ROOT, hostNamePattern, 1)
                    .equals(String.format(Locale.ROOT, hostNamePattern, 2))) {
                throw new IllegalArgumentException("hostNamePattern must contain the node number, like \"node%03d\"");
            }
        }

        /** Nodes per scalable unit: {@code radix/2}. */
        public int unitSize() {
            return radix / 2;
        }

        /** Scalable units the nodes fill. */
        public int units() {
            return (nodes + unitSize() - 1) / unitSize();
        }

        public String hostName(int number) {
            return String.format(Locale.ROOT, hostNamePattern, number);
        }
    }

    private GpuCluster() {
    }

    /** The most nodes a rail-optimised tree of a radix holds: radix/2 units of radix/2. */
    public static int maxRailNodes(int radix) {
        return (radix / 2) * (radix / 2);
    }

    /** The GPU board of a link generation, on a host whose HCA sits in the generation's slot. */
    public static HostFacts gpuHost(LinkSpeed speed, int gpus) {
        int nvlink = speed.compareTo(LinkSpeed.NDR) >= 0 ? 450 : speed == LinkSpeed.HDR ? 300 : 150;
        return HostFacts.DEFAULT.withPcie(FabricBuilder.pcieFor(speed), 16)
                .withGpus(true, true, gpus, nvlink, speed.compareTo(LinkSpeed.NDR) >= 0, 0);
    }

    public static Fabric build(Spec spec) {
        HostFacts facts = gpuHost(spec.speed(), spec.gpus());
        if (!spec.rails()) {
            return classic(spec, facts);
        }
        FabricBuilder b = new FabricBuilder(spec.speed(), FatTreeSpec.DEFAULT_GUID_BASE, spec::hostName);
        int r = spec.radix();
        int half = r / 2;
        int units = spec.units();
        int k = spec.nics();
        Node[][] leaves = new Node[units][k];
        for (int u = 0; u < units; u++) {
            for (int rail = 0; rail < k; rail++) {
                leaves[u][rail] = b.addSwitch(FabricBuilder.numbered("su", u + 1, units) + "-rail" + (rail + 1), r);
            }
        }
        int leafCount = units * k;
        if (leafCount <= r) {
            int spines = (leafCount * half + r - 1) / r;
            Node[] top = new Node[spines];
            for (int s = 0; s < spines; s++) {
                top[s] = b.addSwitch(FabricBuilder.numbered("spine", s + 1, spines), r);
            }
            Node[] all = new Node[leafCount];
            for (int u = 0; u < units; u++) {
                System.arraycopy(leaves[u], 0, all, u * k, k);
            }
            deal(all, half + 1, half, top, 1, b, b.switchCable);
        } else {
            int perRail = (units * half + half - 1) / half;
            Node[][] spines = new Node[k][perRail];
            for (int rail = 0; rail < k; rail++) {
                for (int s = 0; s < perRail; s++) {
                    spines[rail][s] = b.addSwitch("rail" + (rail + 1) + "-"
                            + FabricBuilder.numbered("spine", s + 1, perRail), r);
                }
                Node[] group = new Node[units];
                for (int u = 0; u < units; u++) {
                    group[u] = leaves[u][rail];
                }
                deal(group, half + 1, half, spines[rail], 1, b, b.switchCable);
            }
            int perGroup = (k * half + r - 1) / r;
            int cores = perRail * perGroup;
            for (int a = 0; a < perRail; a++) {
                Node[] group = new Node[perGroup];
                for (int c = 0; c < perGroup; c++) {
                    group[c] = b.addSwitch(FabricBuilder.numbered("core", a * perGroup + c + 1, cores), r);
                }
                Node[] lower = new Node[k];
                for (int rail = 0; rail < k; rail++) {
                    lower[rail] = spines[rail][a];
                }
                deal(lower, half + 1, half, group, 1, b, b.coreCable);
            }
        }
        // rail by rail, so that a destination's position among the CAs (the d-mod-k index static routing spreads
        // by) is its node's number on every rail and routes to the nodes of a leaf leave over different uplinks
        for (int rail = 0; rail < k; rail++) {
            for (int i = 0; i < spec.nodes(); i++) {
                Node ca = b.addCa(spec.hostName(i + 1) + " " + b.caPortName(rail));
                ca.setHostFacts(facts);
                b.connect(ca.port(1), leaves[i / half][rail].port(i % half + 1), b.hostCable);
            }
        }
        return b.fabric();
    }

    /** The classic fat tree over every NIC, a node's NICs side by side, renamed and given the GPU board. */
    private static Fabric classic(Spec spec, HostFacts facts) {
        int endpoints = spec.nodes() * spec.nics();
        int levels = endpoints <= FatTreeSpec.maxHosts(2, spec.radix(), 1) ? 2 : 3;
        FatTreeSpec ft = new FatTreeSpec(levels, spec.radix(), endpoints, 1, spec.speed(),
                FatTreeSpec.DEFAULT_HOST_NAME, FatTreeSpec.DEFAULT_GUID_BASE);
        Fabric f = FatTree.build(ft);
        FabricBuilder names = new FabricBuilder(spec.speed(), FatTreeSpec.DEFAULT_GUID_BASE, spec::hostName);
        int i = 0;
        for (Node ca : f.cas()) {
            ca.setDescription(spec.hostName(i / spec.nics() + 1) + " " + names.caPortName(i % spec.nics()));
            ca.setHostFacts(facts);
            i++;
        }
        return f;
    }

    /** As {@link FatTree}'s dealing: each lower switch's uplinks round-robin over the upper ones. */
    private static void deal(Node[] lower, int firstUpPort, int ups, Node[] upper, int firstPort, FabricBuilder b,
                             Cable cable) {
        int[] next = new int[upper.length];
        Arrays.fill(next, firstPort);
        int turn = 0;
        for (Node low : lower) {
            for (int i = 0; i < ups; i++) {
                int s = turn++ % upper.length;
                b.connect(low.port(firstUpPort + i), upper[s].port(next[s]++), cable);
            }
        }
    }
}
