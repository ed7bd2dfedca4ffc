package org.ibtwin.perf;

import org.ibtwin.model.HostFacts;
import org.ibtwin.model.PcieGen;

/**
 * PCIe arithmetic: the slot's raw and usable data rates, and the bytes a DMA transfer puts on it. Every command
 * that prints a slot's rate prints {@link #usableGbps} (and, where it shows the raw rate too, says "raw"), in the
 * words of {@link #rates}.
 *
 * <p>Raw rate: GT/s per lane x encoding efficiency x lanes: Gen3 8 x 128/130 = 7.88 Gb/s per lane, 63.0 Gb/s at
 * x8, 126.1 at x16; Gen4 twice that, Gen5 four times. Usable rate: raw x {@code PerfParams.pcieEfficiency} (0.88),
 * what is left for TLPs once DLLPs, credits and doorbells are paid: 55.5 Gb/s at Gen3 x8. Every TLP adds framing, sequence number, header and LCRC:
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

    /** Usable rate of a slot in one direction, Gb/s: raw x {@code p.pcieEfficiency()}, TLP headers not yet paid. */
    public static double usableGbps(PcieGen gen, int lanes, PerfParams p) {
        return rawGbps(gen, lanes) * p.pcieEfficiency();
    }

    /** {@link #usableGbps(PcieGen, int, PerfParams)} with the default parameters: 55.5 Gb/s at Gen3 x8. */
    public static double usableGbps(PcieGen gen, int lanes) {
        return usableGbps(gen, lanes, PerfParams.DEFAULT);
    }

    public static double usableGbps(HostFacts h) {
        return usableGbps(h.pcieGen(), h.pcieLanes());
    }

    /** A rate as the commands print it: "55.5" (Gb/s, one decimal). */
    public static String gbps(double g) {
        return String.format(java.util.Locale.ROOT, "%.1f", g);
    }

    /** A slot's figures in the commands' words: "55.5 Gb/s usable (63.0 Gb/s raw)". */
    public static String rates(PcieGen gen, int lanes) {
        return gbps(usableGbps(gen, lanes)) + " Gb/s usable (" + gbps(rawGbps(gen, lanes)) + " Gb/s raw)";
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
