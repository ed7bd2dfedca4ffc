package org.ibtwin.perf.collective;

/**
 * The calibrated constants of the collectives model, each with the reference figure it is calibrated against
 * (collectives.md, C01..C06; the README section on {@code ibtwin nccl} carries the same table).
 *
 * @param ringNvlinkEfficiency share of a GPU's NVLink bandwidth a ring (or a chain, or a peer copy) moves data at:
 *                             0.82 (C04: 8 x H100 ring all_reduce about 370 GB/s busbw on a 450 GB/s NVLink)
 * @param nvlsEfficiency       share of a GPU's NVLink bandwidth NVLink SHARP moves data at, each GPU sending its
 *                             buffer to the switch once and receiving the result once: 0.61 (C04: NVLS about 480
 *                             GB/s busbw, 450 x 0.61 x 2(n-1)/n)
 * @param netEfficiency        share of what the wire and the PCIe carry that NCCL's IB transport gets through, its
 *                             chunks waiting on clear-to-send credits and on completion polling: 0.955 (C01: about
 *                             24 GB/s busbw per HDR NIC; C03: 46-48 per NDR NIC)
 * @param chunkBytes           the RDMA write size of NCCL's IB transport (Simple), for its packet headers: 128 KiB
 * @param channelsPerNic       NCCL's channels per NIC on a multi-node ring or tree (and at least 2): 2
 * @param hostBounceMicros     per network step without GPUDirect RDMA: the GPU copies to and from host memory and
 *                             the proxy flushes: 1.0 us
 */
public record CollectiveParams(double ringNvlinkEfficiency, double nvlsEfficiency, double netEfficiency,
                               int chunkBytes, int channelsPerNic, double hostBounceMicros) {

    public static final CollectiveParams DEFAULT = new CollectiveParams(0.82, 0.61, 0.955, 131072, 2, 1.0);

    public CollectiveParams {
        if (!(ringNvlinkEfficiency > 0 && ringNvlinkEfficiency <= 1 && nvlsEfficiency > 0 && nvlsEfficiency <= 1
                && netEfficiency > 0 && netEfficiency <= 1)) {
            throw new IllegalArgumentException("efficiencies must lie in (0, 1]");
        }
        if (chunkBytes < 1 || channelsPerNic < 1 || hostBounceMicros < 0) {
            throw new IllegalArgumentException("chunk, channels per NIC >= 1, bounce latency >= 0");
        }
    }
}
