package org.ibtwin.perf;

/**
 * Why a result is what it is: the kind of limit and a sentence naming it ("limited by PCIe Gen3 x8 at node017
 * (55.5 Gb/s usable; ≈ 50.7 Gb/s of payload after TLP headers)").
 */
public record Bottleneck(Kind kind, String text) {
    /** What limits a figure. */
    public enum Kind {
        /** A link on the path, at its data rate (or shared with other flows). */
        LINK,
        /** A link on the path, where a smaller path MTU costs visibly more headers. */
        MTU,
        /** A host's PCIe slot (with the NUMA placement of the buffers). */
        PCIE,
        /** The message rate of the QPs or of the HCA. */
        MESSAGE_RATE,
        /** The work requests one QP keeps in flight (TX depth, outstanding reads). */
        WINDOW,
        /** A latency: its terms, not a limit. */
        LATENCY,
        /** The IPoIB stack's per-packet and per-byte costs. */
        CPU,
        /** Nothing gets through. */
        NO_ROUTE
    }
}
