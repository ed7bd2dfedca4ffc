package org.ibtwin.perf;

import org.ibtwin.model.HostFacts;
import org.ibtwin.model.PcieGen;

/**
 * PCIe arithmetic: the slot's raw data rate after line encoding, and the bytes a DMA transfer puts on it.
 *
 * <p>Raw rate: GT/s per lane x encoding efficiency x lanes: Gen3 8 x 128/130 = 7.88 Gb/s per lane, 63.0 Gb/s at
 * x8, 126.1 at x16; Gen4 twice that, Gen5 four times. Every TLP adds framing, sequence number, header and LCRC:
 * {@code PerfParams.tlpWriteOverhead} (24 B: 4 DW header) for posted writes and read requests,
 * {@code tlpCompletionOverhead} (20 B: 3 DW header) for read completions, each carrying at most the max payload
 * size. The HCA reads a message's payload with read requests of at most {@code maxReadRequest} bytes.
 */
public final class Pcie {
    private Pcie() {
    }

    /** Data rate of one lane after line encoding, Gb/s. */
    public static double laneGbps(PcieGen gen) {
        return gen.laneGbps();
    }

    /** Raw data rate of a link, Gb/s, before TLP and DLLP overheads. */
    public static double rawGbps(PcieGen gen, int lanes) {
        return gen.laneGbps() * lanes;
    }

    public static double rawGbps(HostFacts h) {
        return rawGbps(h.pcieGen(), h.pcieLanes());
    }

    /** TLPs needed to carry {@code bytes} at {@code maxPayload} per TLP (at least one). */
    public static long tlps(long bytes, int maxPayload) {
        return bytes <= 0 ? 1 : (bytes + maxPayload - 1) / maxPayload;
    }

    /** Bytes on the link for {@code bytes} of payload in TLPs of at most {@code maxPayload} with {@code overhead} each. */
    public static long wireBytes(long bytes, int maxPayload, int overhead) {
        return bytes + tlps(bytes, maxPayload) * overhead;
    }

    /** "Gen3 x8". */
    public static String label(HostFacts h) {
        return h.pcieLabel();
    }
}
