package org.ibtwin.perf;

/**
 * What a perftest run asks for.
 *
 * @param op            the operation
 * @param transport     RC, UC or UD
 * @param size          message size in bytes (8 for atomics, whatever is given)
 * @param qps           queue pairs, each with its own message rate
 * @param txDepth       work requests one QP keeps in flight (perftest -t)
 * @param outReads      READ/ATOMIC requests one QP keeps outstanding (perftest -o, at most the HCA's)
 * @param inlineSize    messages up to this size go inline with the doorbell (perftest -I)
 * @param mtu           the path MTU the QPs use, bytes
 * @param bidirectional both sides send at once (perftest -b)
 * @param grh           packets carry a GRH (global routing, perftest -x)
 */
public record Spec(Op op, Transport transport, long size, int qps, int txDepth, int outReads, int inlineSize, int mtu,
                   boolean bidirectional, boolean grh) {
    public Spec {
        if (op == null || transport == null) {
            throw new IllegalArgumentException("op and transport are required");
        }
        if (!transport.supports(op)) {
            throw new IllegalArgumentException(op.label() + " does not run over " + transport);
        }
        if (size < 1 || qps < 1 || txDepth < 1 || outReads < 1 || inlineSize < 0) {
            throw new IllegalArgumentException("size, QPs, TX depth and outstanding reads must be >= 1");
        }
        if (mtu != 256 && mtu != 512 && mtu != 1024 && mtu != 2048 && mtu != 4096) {
            throw new IllegalArgumentException("MTU must be 256, 512, 1024, 2048 or 4096: " + mtu);
        }
        if (transport == Transport.UD && size > mtu) {
            throw new IllegalArgumentException("a UD message is one packet: size " + size + " > MTU " + mtu);
        }
    }

    /** perftest's defaults for a bandwidth test of {@code op}: 1 QP, TX depth 128, 16 reads, RC, MTU 4096. */
    public static Spec of(Op op, long size) {
        return new Spec(op, Transport.RC, op == Op.ATOMIC ? Headers.ATOMIC_SIZE : size, 1, 128, 16, 0, 4096, false,
                false);
    }

    /** The payload perftest counts per message: the size, or 8 for an atomic. */
    public long payload() {
        return op == Op.ATOMIC ? Headers.ATOMIC_SIZE : size;
    }

    /** Does the payload travel inline with the doorbell (SEND or WRITE no larger than the inline size). */
    public boolean inline() {
        return (op == Op.SEND || op == Op.WRITE) && size <= inlineSize;
    }

    /** Work requests one QP keeps in flight: the TX depth, or the outstanding reads for READ and ATOMIC. */
    public int window() {
        return op.usesOutstandingReads() ? Math.min(txDepth, outReads) : txDepth;
    }

    public Spec withSize(long s) {
        return new Spec(op, transport, s, qps, txDepth, outReads, inlineSize, mtu, bidirectional, grh);
    }

    public Spec withMtu(int m) {
        return new Spec(op, transport, size, qps, txDepth, outReads, inlineSize, m, bidirectional, grh);
    }

    public Spec withQps(int q) {
        return new Spec(op, transport, size, q, txDepth, outReads, inlineSize, mtu, bidirectional, grh);
    }

    public Spec withTransport(Transport t) {
        return new Spec(op, t, size, qps, txDepth, outReads, inlineSize, mtu, bidirectional, grh);
    }

    public Spec withInline(int bytes) {
        return new Spec(op, transport, size, qps, txDepth, outReads, bytes, mtu, bidirectional, grh);
    }

    public Spec withTxDepth(int t) {
        return new Spec(op, transport, size, qps, t, outReads, inlineSize, mtu, bidirectional, grh);
    }

    public Spec withBidirectional(boolean b) {
        return new Spec(op, transport, size, qps, txDepth, outReads, inlineSize, mtu, b, grh);
    }
}
