package org.ibtwin.model;

/**
 * What the host around a CA adds to the fabric: the PCIe slot the HCA sits in, NUMA placement, the link layer of
 * each port, IPoIB settings and the drivers loaded.
 *
 * @param pcieGen        negotiated PCIe generation
 * @param pcieLanes      negotiated lanes, 1..16
 * @param maxPayload     PCIe max payload size in bytes (128..4096)
 * @param hcaNumaNode    the NUMA node the HCA hangs off
 * @param sockets        CPU sockets
 * @param numaNodes      NUMA nodes in the host
 * @param coresPerNuma   cores per NUMA node
 * @param ipoibMode      IPoIB mode of ib0
 * @param ipoibMtu       IPoIB interface MTU
 * @param driverLoaded   mlx5_core / mlx5_ib loaded
 * @param gpu            the host has GPUs
 * @param gpuDirect      nvidia_peermem loaded (only meaningful with a GPU): GPUDirect RDMA, the HCA reads and writes
 *                       GPU memory over PCIe; without it every transfer bounces through host memory
 * @param gpus           GPUs in the host, 1..16 (only meaningful with {@code gpu}): 8 in a DGX/HGX H100
 * @param nvlinkGBps     each GPU's NVLink bandwidth in one direction, GB/s (0: no NVLink, the GPUs talk over PCIe):
 *                       450 for NVLink 4 (18 links x 25 GB/s, H100 SXM)
 * @param nvls           the NVLink domain is an NVSwitch with multicast and in-switch reduction (NVLink SHARP,
 *                       third-generation NVSwitch and later), so NCCL's NVLS algorithms can run
 * @param gpuNumaNode    the NUMA node the GPUs hang off; when it is not the HCA's, the GPU-to-NIC path crosses the
 *                       inter-socket link and NCCL does not use GPUDirect RDMA over it
 */
public record HostFacts(PcieGen pcieGen, int pcieLanes, int maxPayload, int hcaNumaNode, int sockets,
                        int numaNodes, int coresPerNuma, IpoibMode ipoibMode, int ipoibMtu,
                        boolean driverLoaded, boolean gpu, boolean gpuDirect, int gpus, int nvlinkGBps,
                        boolean nvls, int gpuNumaNode) {

    /** GPUs in a GPU host unless told otherwise (an HGX board). */
    public static final int DEFAULT_GPUS = 8;
    /** NVLink 4 per GPU and direction, GB/s (H100 SXM). */
    public static final int DEFAULT_NVLINK_GBPS = 450;
    /** Most GPUs one host may have. */
    public static final int MAX_GPUS = 16;

    /** A well-built modern host: Gen4 x16, MPS 256, HCA on NUMA 0, connected-mode IPoIB. */
    public static final HostFacts DEFAULT = new HostFacts(PcieGen.GEN4, 16, 256, 0, 2, 2, 32,
            IpoibMode.CONNECTED, 65520, true, false, false);

    /** Host facts with the default GPU board (8 GPUs, NVLink 4 through NVSwitch, on NUMA node 0). */
    public HostFacts(PcieGen pcieGen, int pcieLanes, int maxPayload, int hcaNumaNode, int sockets, int numaNodes,
                     int coresPerNuma, IpoibMode ipoibMode, int ipoibMtu, boolean driverLoaded, boolean gpu,
                     boolean gpuDirect) {
        this(pcieGen, pcieLanes, maxPayload, hcaNumaNode, sockets, numaNodes, coresPerNuma, ipoibMode, ipoibMtu,
                driverLoaded, gpu, gpuDirect, DEFAULT_GPUS, DEFAULT_NVLINK_GBPS, true, 0);
    }

    public HostFacts {
        if (pcieGen == null) {
            throw new IllegalArgumentException("pcie generation is required");
        }
        if (pcieLanes != 1 && pcieLanes != 2 && pcieLanes != 4 && pcieLanes != 8 && pcieLanes != 16) {
            throw new IllegalArgumentException("pcie lanes must be 1, 2, 4, 8 or 16: " + pcieLanes);
        }
        if (maxPayload < 128 || maxPayload > 4096 || Integer.bitCount(maxPayload) != 1) {
            throw new IllegalArgumentException("pcie max payload must be a power of two in 128..4096: " + maxPayload);
        }
        if (numaNodes < 1 || hcaNumaNode < 0 || hcaNumaNode >= numaNodes) {
            throw new IllegalArgumentException("numa node " + hcaNumaNode + " outside 0.." + (numaNodes - 1));
        }
        if (sockets < 1 || coresPerNuma < 1) {
            throw new IllegalArgumentException("sockets and cores per numa node must be >= 1");
        }
        if (ipoibMode == null) {
            throw new IllegalArgumentException("ipoib mode is required");
        }
        int maxMtu = ipoibMode == IpoibMode.CONNECTED ? 65520 : 4092;
        if (ipoibMtu < 256 || ipoibMtu > maxMtu) {
            throw new IllegalArgumentException("ipoib mtu " + ipoibMtu + " outside 256.." + maxMtu + " in "
                    + ipoibMode.label() + " mode");
        }
        if (gpus < 1 || gpus > MAX_GPUS) {
            throw new IllegalArgumentException("gpus must be 1.." + MAX_GPUS + ": " + gpus);
        }
        if (nvlinkGBps < 0) {
            throw new IllegalArgumentException("nvlink bandwidth must be >= 0 GB/s: " + nvlinkGBps);
        }
        if (gpuNumaNode < 0 || gpuNumaNode >= numaNodes) {
            throw new IllegalArgumentException("gpu numa node " + gpuNumaNode + " outside 0.." + (numaNodes - 1));
        }
    }

    /** The GPUs sit on another NUMA node than the HCA: GPU-to-NIC traffic crosses the inter-socket link. */
    public boolean gpuFar() {
        return gpuNumaNode != hcaNumaNode;
    }

    /** The same host with another GPU board. */
    public HostFacts withGpus(boolean hasGpu, boolean direct, int count, int nvlink, boolean multicast, int numa) {
        return new HostFacts(pcieGen, pcieLanes, maxPayload, hcaNumaNode, sockets, numaNodes, coresPerNuma,
                ipoibMode, ipoibMtu, driverLoaded, hasGpu, direct, count, nvlink, multicast, numa);
    }

    /** Raw PCIe data rate in Gb/s (after line encoding; what is usable is {@code perf.Pcie.usableGbps}). */
    public double pcieRawGbps() {
        return pcieGen.laneGbps() * pcieLanes;
    }

    public String pcieLabel() {
        return "Gen" + pcieGen.number() + " x" + pcieLanes;
    }

    public HostFacts withPcie(PcieGen gen, int lanes) {
        return new HostFacts(gen, lanes, maxPayload, hcaNumaNode, sockets, numaNodes, coresPerNuma, ipoibMode,
                ipoibMtu, driverLoaded, gpu, gpuDirect, gpus, nvlinkGBps, nvls, gpuNumaNode);
    }

    public HostFacts withIpoib(IpoibMode mode, int mtu) {
        return new HostFacts(pcieGen, pcieLanes, maxPayload, hcaNumaNode, sockets, numaNodes, coresPerNuma, mode,
                mtu, driverLoaded, gpu, gpuDirect, gpus, nvlinkGBps, nvls, gpuNumaNode);
    }
}
