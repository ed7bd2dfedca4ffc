package org.ibtwin.transport;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Linux's user_mad ABI (include/uapi/rdma/ib_user_mad.h, ABI version 5), written from its layout: the header that
 * precedes every MAD read from or written to {@code /dev/infiniband/umadN}, the 28-byte
 * {@code struct ib_user_mad_reg_req} of {@code IB_USER_MAD_REGISTER_AGENT}, and the ioctl numbers.
 *
 * <p>Two header layouts: the 56-byte {@code struct ib_user_mad_hdr_old} (no P_Key index), the one the kernel uses for
 * a file that did not ask for {@code IB_USER_MAD_ENABLE_PKEY}, and the 64-byte {@code struct ib_user_mad_hdr}, the
 * same followed by a host-order u16 {@code pkey_index} and 6 reserved bytes, once the file has (before any agent is
 * registered). libumad2sim answers ENABLE_PKEY with success but lays its headers out as libibumad's
 * {@code umad_size()} says in the process (56 unless libibumad itself opened a port there), so the transport asks
 * that where libibumad is loaded ({@link UmadLibc#umadSize()}); under the old layout MADs go out at P_Key index 0.
 *
 * <p>Byte order: id, status, timeout_ms, retries, length and pkey_index are the host's (little-endian on the machines
 * this runs on); qpn, qkey, lid and flow_label are big-endian, as their {@code __be} types say.
 */
public final class UmadAbi {
    /** sizeof(struct ib_user_mad_hdr_old). */
    public static final int HDR_SIZE = 56;
    /** sizeof(struct ib_user_mad_hdr): the old header, pkey_index (u16, host order) at 56, 6 reserved bytes. */
    public static final int PKEY_HDR_SIZE = 64;
    /** sizeof(struct ib_user_mad_reg_req): 4 + 16 + 7 bytes, padded to the 4-byte alignment of its words. */
    public static final int REG_REQ_SIZE = 28;
    public static final int MAD_SIZE = 256;
    public static final int ABI_VERSION = 5;

    private static final int IOC_MAGIC = 0x1b;
    /** _IOWR(0x1b, 1, struct ib_user_mad_reg_req). */
    public static final long REGISTER_AGENT = ioc(3, 1, REG_REQ_SIZE);
    /** _IOW(0x1b, 2, __u32). */
    public static final long UNREGISTER_AGENT = ioc(1, 2, 4);
    /** _IO(0x1b, 3): the 64-byte header, with the P_Key index, from then on. */
    public static final long ENABLE_PKEY = ioc(0, 3, 0);

    private UmadAbi() {
    }

    /** Linux's _IOC(dir, type, nr, size) on x86-64 and aarch64: dir in bits 30-31, size 16-29, type 8-15, nr 0-7. */
    private static long ioc(int dir, int nr, int size) {
        return ((long) dir << 30) | ((long) size << 16) | (IOC_MAGIC << 8) | nr;
    }

    /** The header of one MAD, as the kernel reads or writes it. */
    public record Header(int agentId, int status, int timeoutMillis, int retries, int length, int qpn, int qkey,
                         int lid, int sl, int pathBits, int pkeyIndex) {
        /** A send header for {@code to}, on agent {@code agentId}; {@code timeoutMillis} 0 for no response. */
        public static Header send(int agentId, MadAddress to, int timeoutMillis) {
            return new Header(agentId, 0, timeoutMillis, 0, 0, to.qpn(), to.qkey(), to.lid(), to.sl(), 0,
                    to.pkeyIndex());
        }

        /** Where the MAD came from (for a received one), as the transport's callers address it. */
        public MadAddress from() {
            return new MadAddress(lid, qpn, qkey, sl, pkeyIndex);
        }
    }

    /** The header (the old layout) followed by {@code mad}. */
    public static byte[] encode(Header h, byte[] mad) {
        return encode(h, mad, HDR_SIZE);
    }

    /** The header in the layout of {@code hdrSize} bytes ({@link #HDR_SIZE} or {@link #PKEY_HDR_SIZE}), then mad. */
    public static byte[] encode(Header h, byte[] mad, int hdrSize) {
        ByteBuffer b = ByteBuffer.allocate(hdrSize + mad.length);
        b.order(ByteOrder.nativeOrder());
        b.putInt(0, h.agentId());
        b.putInt(4, h.status());
        b.putInt(8, h.timeoutMillis());
        b.putInt(12, h.retries());
        b.putInt(16, h.length());
        b.order(ByteOrder.BIG_ENDIAN);
        b.putInt(20, h.qpn());
        b.putInt(24, h.qkey());
        b.putShort(28, (short) h.lid());
        b.put(30, (byte) h.sl());
        b.put(31, (byte) h.pathBits());
        // grh_present 32, gid_index 33, hop_limit 34, traffic_class 35, gid 36-51, flow_label 52-55: no GRH
        if (hdrSize == PKEY_HDR_SIZE) {
            b.order(ByteOrder.nativeOrder()).putShort(56, (short) h.pkeyIndex());
        }
        b.put(hdrSize, mad);
        return b.array();
    }

    /** The header (the old layout) at the start of {@code buf}. */
    public static Header decode(byte[] buf) {
        return decode(buf, HDR_SIZE);
    }

    /** The header in the layout of {@code hdrSize} bytes at the start of {@code buf}. */
    public static Header decode(byte[] buf, int hdrSize) {
        if (buf.length < hdrSize) {
            throw new IllegalArgumentException("umad header of " + buf.length + " bytes, expected " + hdrSize);
        }
        ByteBuffer b = ByteBuffer.wrap(buf).order(ByteOrder.nativeOrder());
        int id = b.getInt(0);
        int status = b.getInt(4);
        int timeout = b.getInt(8);
        int retries = b.getInt(12);
        int length = b.getInt(16);
        int pkeyIndex = hdrSize == PKEY_HDR_SIZE ? b.getShort(56) & 0xffff : 0;
        b.order(ByteOrder.BIG_ENDIAN);
        return new Header(id, status, timeout, retries, length, b.getInt(20) & 0xffffff, b.getInt(24),
                b.getShort(28) & 0xffff, b.get(30) & 0xff, b.get(31) & 0xff, pkeyIndex);
    }

    /**
     * An {@code ib_user_mad_reg_req}: receive {@code mgmtClass} version {@code version} on QP {@code qpn} (0 or 1),
     * unsolicited MADs of the methods {@code methods} (their numbers, 0-127) too; no OUI; RMPP left to user space.
     */
    public static byte[] registerRequest(int qpn, int mgmtClass, int version, int... methods) {
        ByteBuffer b = ByteBuffer.allocate(REG_REQ_SIZE).order(ByteOrder.nativeOrder());
        for (int m : methods) {
            if (m < 0 || m > 127) {
                throw new IllegalArgumentException("method out of range: " + m);
            }
            // method_mask is an array of longs in the host's order: on a little-endian host bit m of the 128-bit
            // mask is bit (m % 8) of byte (m / 8), whatever the word size
            int at = 4 + m / 8;
            b.put(at, (byte) (b.get(at) | (1 << (m % 8))));
        }
        b.put(20, (byte) qpn);
        b.put(21, (byte) mgmtClass);
        b.put(22, (byte) version);
        b.put(26, (byte) 0);   // rmpp_version 0: segments pass to user space as they come
        return b.array();
    }

    /** The agent id the kernel wrote into a register request. */
    public static int agentId(byte[] registerRequest) {
        return ByteBuffer.wrap(registerRequest).order(ByteOrder.nativeOrder()).getInt(0);
    }

    /** A 4-byte host-order word (UNREGISTER_AGENT's argument). */
    public static byte[] word(int v) {
        return ByteBuffer.allocate(4).order(ByteOrder.nativeOrder()).putInt(0, v).array();
    }
}
