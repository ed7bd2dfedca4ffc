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
 * @param gpuDirect      nvidia_peermem loaded (only meaningful with a GPU)
 */
public record HostFacts(PcieGen pcieGen, int pcieLanes, int maxPayload, int hcaNumaNode, int sockets,
                        int numaNodes, int coresPerNuma, IpoibMode ipoibMode, int ipoibMtu,
                        boolean driverLoaded, boolean gpu, boolean gpuDirect) {

    /** A well-built modern host: Gen4 x16, MPS 256, HCA on NUMA 0, connected-mode IPoIB. */
    public static final HostFacts DEFAULT = new HostFacts(PcieGen.GEN4, 16, 256, 0, 2, 2, 32,
            IpoibMode.CONNECTED, 65520, true, false, false);

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
    }

    /** Usable PCIe bandwidth in Gb/s before TLP header overheads. */
    public double pcieRawGbps() {
        return pcieGen.laneGbps() * pcieLanes;
    }

    public String pcieLabel() {
        return "Gen" + pcieGen.number() + " x" + pcieLanes;
    }

    public HostFacts withPcie(PcieGen gen, int lanes) {
        return new HostFacts(gen, lanes, maxPayload, hcaNumaNode, sockets, numaNodes, coresPerNuma, ipoibMode,
                ipoibMtu, driverLoaded, gpu, gpuDirect);
    }

    public HostFacts withIpoib(IpoibMode mode, int mtu) {
        return new HostFacts(pcieGen, pcieLanes, maxPayload, hcaNumaNode, sockets, numaNodes, coresPerNuma, mode,
                mtu, driverLoaded, gpu, gpuDirect);
    }
}
