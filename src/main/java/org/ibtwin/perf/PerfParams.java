package org.ibtwin.perf;

/**
 * The calibrated constants of the performance model. Each is documented with what it stands for and which
 * reference figure (../shared/reference/perf-figures.md, P01..P15) it is calibrated against; the README section
 * "Performance model" carries the same table.
 *
 * @param linkEfficiency       share of a link's data rate left for packets once flow-control packets, start/end
 *                             delimiters, idles and skip ordered sets are paid: 0.99 (P02: 64 KiB writes on EDR give
 *                             11,7xx MiB/s; P04: NDR 393 Gb/s)
 * @param pcieEfficiency       share of the PCIe raw rate left for TLPs once DLLPs (Ack, UpdateFC), completion
 *                             splitting, credit stalls, doorbells and completions are paid: 0.88 (P06-P08: a Gen3 x8
 *                             slot gives about 51 Gb/s of RDMA payload, Gen2 x8 about 26)
 * @param tlpWriteOverhead     bytes around a posted-write or read-request TLP: framing/sequence 4 + 4 DW header 16 +
 *                             LCRC 4 = 24
 * @param tlpCompletionOverhead bytes around a read completion: framing/sequence 4 + 3 DW header 12 + LCRC 4 = 20
 * @param maxReadRequest       PCIe max read request size the HCA uses, bytes: 512
 * @param wqeBytes             the work request (descriptor) the HCA fetches or gets written per message: 64
 * @param cqeBytes             the completion entry the HCA writes per signalled message: 64
 * @param switchHopNanos       one switch's port-to-port (cut-through) latency: 130 ns, inside the vendors' 90-250 ns
 *                             and P14's 0.1-0.3 us per hop
 * @param postNanos            software builds a work request and rings the doorbell (BlueFlame MMIO write): 120 ns
 * @param hcaTxNanos           HCA send pipeline: WQE parsing, QP context, packet building: 160 ns
 * @param hcaRxNanos           HCA receive pipeline: QP lookup, PSN check, receive WQE: 160 ns
 * @param deliverNanos         the HCA's posted write of the data and completion reaching host memory: 300 ns
 * @param pollNanos            the polling loop seeing the completion (or the last byte) and returning: 120 ns
 * @param dmaReadNanos         one DMA read round trip over PCIe for a payload not sent inline: 420 ns
 *                             (P12: 2-byte write 0.93 us inline, 1.32 us not)
 * @param readResponderNanos   the responder's read engine: rkey check, translation, response scheduling: 250 ns
 *                             (P12: 2-byte read 1.91 us)
 * @param atomicNanos          the responder's PCIe read-modify-write beyond a read: 100 ns
 * @param udNanos              UD receive extras (GRH scatter, address handle): 30 ns (P10)
 * @param singleMessageDmaFraction share of the slot's usable rate one message's DMA read reaches with its bounded
 *                             read window: 0.87 (P09 32 KiB send latency; P11: with it, the single-message read is
 *                             slower than the wire even at MTU 256, so the MTU does not show)
 * @param chunkBytes           the HCA moves a message through its pipeline (PCIe read, wire, PCIe write) in chunks of
 *                             this size; the first chunk is stored and forwarded at each stage: 4096 (P09 1-4 KiB)
 * @param numaFarNanos         added per host-side crossing when the process runs on the NUMA node away from the
 *                             HCA (doorbell and completion traffic cross the inter-socket link): 100 ns
 * @param numaFarBandwidth     share of the PCIe path left when the buffers sit on the far NUMA node: 0.85
 * @param interSocketGbps      the inter-socket link's practical one-way payload rate, a cap on far-node DMA: 160
 * @param numaFarMessageRate   share of the per-QP message rate left on the far node: 0.85
 * @param ipoibPacketNanos     IPoIB TCP stream: per-packet cost in the stack (interrupt, protocol, socket): 1450 ns
 * @param ipoibByteNanos       IPoIB TCP stream: per-byte cost (copies, checksums): 0.12 ns (P15: 1.2 GB/s at MTU
 *                             2044, 7 GB/s at 65520)
 */
public record PerfParams(double linkEfficiency, double pcieEfficiency, int tlpWriteOverhead, int tlpCompletionOverhead,
                         int maxReadRequest, int wqeBytes, int cqeBytes, double switchHopNanos,
                         double postNanos, double hcaTxNanos, double hcaRxNanos, double deliverNanos,
                         double pollNanos, double dmaReadNanos, double readResponderNanos, double atomicNanos,
                         double udNanos, double singleMessageDmaFraction, int chunkBytes, double numaFarNanos,
                         double numaFarBandwidth, double interSocketGbps, double numaFarMessageRate,
                         double ipoibPacketNanos, double ipoibByteNanos) {

    /** The calibrated defaults. */
    public static final PerfParams DEFAULT = new PerfParams(0.99, 0.88, 24, 20, 512, 64, 64, 130,
            120, 160, 160, 300, 120, 420, 250, 100, 30, 0.87, 4096, 100, 0.85, 160, 0.85, 1450, 0.12);

    public PerfParams {
        if (linkEfficiency <= 0 || linkEfficiency > 1 || pcieEfficiency <= 0 || pcieEfficiency > 1
                || singleMessageDmaFraction <= 0 || singleMessageDmaFraction > 1 || numaFarBandwidth <= 0
                || numaFarBandwidth > 1 || numaFarMessageRate <= 0 || numaFarMessageRate > 1) {
            throw new IllegalArgumentException("efficiencies must lie in (0, 1]");
        }
        if (switchHopNanos < 0 || chunkBytes < 1 || maxReadRequest < 1 || interSocketGbps <= 0) {
            throw new IllegalArgumentException("switch latency >= 0, chunk, read request and inter-socket rate > 0");
        }
    }

    /** The same parameters with another per-hop switch latency. */
    public PerfParams withSwitchHopNanos(double nanos) {
        return new PerfParams(linkEfficiency, pcieEfficiency, tlpWriteOverhead, tlpCompletionOverhead, maxReadRequest,
                wqeBytes, cqeBytes, nanos, postNanos, hcaTxNanos, hcaRxNanos, deliverNanos, pollNanos, dmaReadNanos,
                readResponderNanos, atomicNanos, udNanos, singleMessageDmaFraction, chunkBytes, numaFarNanos,
                numaFarBandwidth, interSocketGbps, numaFarMessageRate, ipoibPacketNanos, ipoibByteNanos);
    }
}
