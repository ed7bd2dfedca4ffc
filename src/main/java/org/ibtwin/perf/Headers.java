package org.ibtwin.perf;

/**
 * Bytes on the wire per packet and per message, from the InfiniBand headers and trailers.
 *
 * <p>Every packet carries LRH 8, BTH 12, ICRC 4 and VCRC 2 bytes ({@link #base}), plus GRH 40 when globally routed.
 * A message of {@code s} bytes at path MTU {@code m} is {@code n = max(1, ceil(s/m))} packets: {@code n-1} full
 * ones and a last one holding the rest, each packet's payload padded to a multiple of 4. Per operation:
 * <ul>
 * <li>RDMA WRITE: RETH 16 on the first (or only) packet;</li>
 * <li>SEND: nothing more over RC/UC, DETH 8 over UD (one packet per message);</li>
 * <li>RDMA READ: the request is one packet with RETH 16 and no payload; the responses carry AETH 4 on the first
 * and last (or only) packet;</li>
 * <li>ATOMIC: the request carries AtomicETH 28 and no payload, the response AETH 4 + AtomicAckETH 8;</li>
 * <li>RC acknowledgements: one ACK packet (AETH 4) per message, requested on its last packet.</li>
 * </ul>
 * A 4096-byte RDMA WRITE packet with RETH is therefore 4096 + 8 + 12 + 16 + 4 + 2 = 4138 bytes; the middle and last
 * packets of a longer write are 4096 + 26.
 */
public final class Headers {
    public static final int LRH = 8;
    public static final int GRH = 40;
    public static final int BTH = 12;
    public static final int RETH = 16;
    public static final int AETH = 4;
    public static final int DETH = 8;
    public static final int ATOMIC_ETH = 28;
    public static final int ATOMIC_ACK_ETH = 8;
    public static final int IMM_DT = 4;
    public static final int ICRC = 4;
    public static final int VCRC = 2;
    /** The operand size of an atomic operation, what perftest counts as its message size. */
    public static final int ATOMIC_SIZE = 8;

    private Headers() {
    }

    /** LRH + BTH + ICRC + VCRC, plus GRH when globally routed: 26 or 66 bytes. */
    public static int base(boolean grh) {
        return LRH + BTH + ICRC + VCRC + (grh ? GRH : 0);
    }

    /** {@code n} rounded up to a multiple of 4. */
    public static long pad4(long n) {
        return (n + 3) & ~3L;
    }

    /** Packets a message of {@code size} bytes needs at path MTU {@code mtu}: at least one. */
    public static long packets(long size, int mtu) {
        return size <= 0 ? 1 : (size + mtu - 1) / mtu;
    }

    /** Payload bytes of {@code size} split at {@code mtu}, each packet's share padded to 4. */
    static long paddedPayload(long size, int mtu) {
        long n = packets(size, mtu);
        long full = size / mtu;
        long rest = size - full * mtu;
        if (rest == 0) {
            return size;
        }
        return (n - 1) * (long) mtu + pad4(rest);
    }

    /**
     * Wire bytes of one message in the data direction (requester to responder for SEND, WRITE, ATOMIC; responder to
     * requester for READ).
     */
    public static long dataBytes(Op op, Transport t, long size, int mtu, boolean grh) {
        int base = base(grh);
        return switch (op) {
            case WRITE -> paddedPayload(size, mtu) + packets(size, mtu) * base + RETH;
            case SEND -> paddedPayload(size, mtu) + packets(size, mtu) * (base + (t == Transport.UD ? DETH : 0));
            case READ -> paddedPayload(size, mtu) + packets(size, mtu) * base + (packets(size, mtu) == 1 ? 1 : 2) * AETH;
            case ATOMIC -> base + ATOMIC_ETH;
        };
    }

    /**
     * Wire bytes of one message flowing against the data: the RC acknowledgement of a SEND or WRITE, the request of
     * a READ, the response of an ATOMIC; nothing for UC and UD.
     */
    public static long reverseBytes(Op op, Transport t, long size, int mtu, boolean grh) {
        int base = base(grh);
        return switch (op) {
            case WRITE, SEND -> t == Transport.RC ? base + AETH : 0;
            case READ -> base + RETH;
            case ATOMIC -> base + AETH + ATOMIC_ACK_ETH;
        };
    }

    /** The fraction of the wire bytes that is payload for messages of {@code size} bytes. */
    public static double efficiency(Op op, Transport t, long size, int mtu, boolean grh) {
        long payload = op == Op.ATOMIC ? ATOMIC_SIZE : size;
        return (double) payload / dataBytes(op, t, size, mtu, grh);
    }
}
