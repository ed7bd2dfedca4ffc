package org.ibtwin.transport;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The datagrams of ibsim's client protocol, encoded and decoded. What follows are the facts this codec relies on,
 * learnt from ibsim 0.10 ({@code include/ibsim.h}, {@code ibsim/ibsim.c}, {@code ibsim/sim_mad.c},
 * {@code umad2sim/sim_client.c}, {@code umad2sim/umad2sim.c}) and checked byte for byte against the running
 * {@code ibsim -r} of Debian's ibsim-utils 0.10.
 *
 * <h2>Sockets</h2>
 * <ul>
 * <li><b>Remote mode</b> ({@code ibsim -r [-l BASE]}, BASE 7070 unless {@code -l}): the server binds a UDP control
 *     socket at BASE and one data socket per client slot at BASE+1 .. BASE+10 (10 slots,
 *     {@code IBSIM_MAX_CLIENTS}). A client binds two UDP sockets of its own: a control socket, and a data socket whose
 *     port number it sends in the connect message. The server then <i>connects</i> the slot's socket to
 *     (source address of the connect message, that port), so the client must both send its MADs from and receive
 *     on that one data socket, towards BASE+1+slot. Control replies go back to wherever the control request came
 *     from.</li>
 * <li><b>Local mode</b> (the default): the same datagrams over unix datagram sockets in the abstract namespace:
 *     server {@code "\0<base>:ctl"} and {@code "\0<base>:out<slot>"}, client {@code "\0<base>:ctl<pid>"} and
 *     {@code "\0<base>:in<pid>"}, where base is {@code IBSIM_SOCKNAME} (default {@code sim}); the connect message
 *     carries the pid instead of a port (any positive number the client's {@code in} socket is named by). The JDK's
 *     channels cannot bind abstract unix datagram sockets: ibtwin reaches them through the C library
 *     ({@link SlotSocket}, JDK 22+ on Linux).</li>
 * </ul>
 *
 * <h2>Control message, {@code struct sim_ctl}: 80 bytes, every field in the server's host order</h2>
 * <pre>
 *   0  u32 magic     0xdeadbeef (anything else is ignored, no reply)
 *   4  u32 clientid  the slot number; ignored for CONNECT (a slot &ge; 10 gets no reply)
 *   8  u32 type      see the TYPE_ constants; the reply echoes it, or carries 0 (ERROR) on refusal
 *  12  u32 len       bytes of data meant (informational: the server neither checks nor sets it)
 *  16  u8[64] data   request arguments in, results out (the whole 80 bytes come back)
 * </pre>
 * The server accepts only datagrams of exactly 80 bytes. "Host order" is little-endian on every ibsim host this
 * codec supports (x86-64, little-endian arm64): this class assumes it.
 * <p>Data of each type (in and out):
 * <ul>
 * <li>CONNECT (1), {@code struct sim_client_info}, 44 bytes: u32 id (in: the client's data port in remote mode,
 *     its pid in local mode; out: the slot number, 0..9), u32 qp (a QP number &gt; 1 the client wants GMPs for,
 *     0 for none), u32 issm (1: requests to QP0/QP1 of the port are forwarded to this client), char[32] nodeid
 *     (in: the node to attach at, the quoted id of the net file or the node description, empty for the default
 *     node, which is the first port of the net file; out: the id of the node attached at, NUL-terminated, at most
 *     31 characters). Refused (type 0) when no slot is free, the node is unknown, or issm is asked and another SM
 *     client sits on the same node. A client attaches at port 0 of a switch or port 1 of a CA.</li>
 * <li>DISCONNECT (2): no data; frees the slot (without clearing IsSM in the port's capability mask).</li>
 * <li>GET_PORT (3), {@code struct sim_port}: u16 LID (host order) at 0, u8 PortState at 2.</li>
 * <li>GET_VENDOR (4), {@code struct sim_vendor}, 24 bytes: u32 VendorID, u32 DeviceID, u32 Revision, 4 bytes
 *     padding, u64 firmware version (always 1); host order.</li>
 * <li>GET_GID (5): 16 bytes: the port's GID prefix as in PortInfo (big-endian), then the <i>node</i> GUID in host
 *     order (not the port GUID, and not big-endian).</li>
 * <li>GET_GUID (6): the node GUID, u64 host order.</li>
 * <li>GET_NODEINFO (7): 64 bytes, the node's NodeInfo attribute exactly as in an SMP (big-endian); its PortGUID is
 *     the node GUID and its LocalPortNum is not per port.</li>
 * <li>GET_PORTINFO (8): in: u8 port number at 0 (0 or out of range: the attach port); out: 64 bytes, the PortInfo
 *     attribute as in an SMP (big-endian), freshly updated (LID, SM LID, LMC, states, LocalPortNum = 0 on a switch).</li>
 * <li>SET_ISSM (9): in: int issm (host order); sets or clears IsSM (bit 1) in the port's capability mask and
 *     whether requests to QP0/QP1 are forwarded to this client.</li>
 * <li>GET_PKEYS (10): the P_Key table, up to 32 u16 entries, big-endian as in an SMP, zero-filled.</li>
 * </ul>
 *
 * <h2>MAD message, {@code struct sim_request}: 288 bytes, both ways, on the data sockets</h2>
 * <pre>
 *   0  u32 dlid    destination LID: the low 16 bits of the u32 hold the LID in network order, so on a
 *                  little-endian server bytes 0-1 are the LID big-endian and bytes 2-3 are zero
 *   4  u32 slid    source LID, same encoding; 0 asks the server to fill in the sender's LID (LID-routed only);
 *                  0xffff with dlid 0xffff for directed route
 *   8  u32 dqp     destination QP, big-endian (0 SMI, 1 GSI, &gt;1 a client's registered qp)
 *  12  u32 sqp     source QP, big-endian
 *  16  u32 status  0, or 110 (ETIMEDOUT) big-endian when the server could not deliver the MAD
 *  20  4 bytes     padding (zero)
 *  24  u64 length  MAD bytes meant, big-endian (256); the server does not read it
 *  32  u8[256]     the MAD, big-endian as on the wire
 * </pre>
 * (The header is effectively network order although the struct is plain integers: the umad address fields that
 * fill it already are.) The server accepts only datagrams of exactly 288 bytes and otherwise logs and drops them.
 *
 * <h2>What the server does with a MAD</h2>
 * <ul>
 * <li>Checks base version 1 and class version &le; 2; for a directed-route SMP (class 0x81) also hop pointer 0, the
 *     D bit equal to the R bit, and DrSLID = DrDLID = 0xffff. A MAD failing these is dropped silently: no reply.</li>
 * <li>In a request it overwrites the top 16 bits of the TID with the sender's slot number, and uses them to return
 *     the response to that slot. A client choosing its TIDs with its slot in the top 16 bits sees them unchanged.</li>
 * <li>Routes it (LID-routed through the switches' forwarding tables, or along the DR initial path), and answers in
 *     place if an SMA/PMA attribute handler exists: R bit, method 0x81 GetResp, status (DR: D bit set, return path
 *     filled), dlid/slid and dqp/sqp swapped, status word 0. Otherwise it forwards the MAD unchanged to the client
 *     at the destination port whose qp matches (dqp &gt; 1), or for QP0/QP1 requests to the port's SM client; a
 *     response goes to the slot in its TID.</li>
 * <li>When routing fails (no link, an unknown or down port, a path through a CA, LID 0, no forwarding entry) or
 *     nobody takes a forwarded MAD, the datagram goes straight back to the sender, MAD unchanged (still a request),
 *     with status 110: the simulator's way of saying the MAD timed out.</li>
 * <li>Traps (e.g. 144 on a capability mask change) arrive unsolicited at the SM client of the port at the SM LID:
 *     dlid = SM LID, slid = issuer LID, QPs 0, status 0, a Notice MAD (class 1, method 5 Trap, attribute 2).
 *     Trap represses (method 7) sent to ibsim are dropped.</li>
 * </ul>
 */
public final class IbsimWire {
    /** Magic word of every control message. */
    public static final int MAGIC = 0xdeadbeef;
    /** Size of a control message. */
    public static final int CTL_SIZE = 80;
    /** Bytes of data in a control message. */
    public static final int CTL_DATA_SIZE = 64;
    /** Size of a MAD message. */
    public static final int REQUEST_SIZE = 288;
    /** Offset of the MAD in a MAD message. */
    public static final int MAD_OFFSET = 32;
    /** Size of a MAD. */
    public static final int MAD_SIZE = 256;
    /** Client slots of one server. */
    public static final int MAX_CLIENTS = 10;
    /** Default control port in remote mode. */
    public static final int DEFAULT_PORT = 7070;
    /** The status a server sets when it could not deliver a MAD (ETIMEDOUT). */
    public static final int STATUS_TIMEOUT = 110;
    /** Maximum length of a node id, without its NUL. */
    public static final int MAX_NODEID = 31;

    public static final int TYPE_ERROR = 0;
    public static final int TYPE_CONNECT = 1;
    public static final int TYPE_DISCONNECT = 2;
    public static final int TYPE_GET_PORT = 3;
    public static final int TYPE_GET_VENDOR = 4;
    public static final int TYPE_GET_GID = 5;
    public static final int TYPE_GET_GUID = 6;
    public static final int TYPE_GET_NODEINFO = 7;
    public static final int TYPE_GET_PORTINFO = 8;
    public static final int TYPE_SET_ISSM = 9;
    public static final int TYPE_GET_PKEYS = 10;

    private static final ByteOrder HOST = ByteOrder.LITTLE_ENDIAN;
    private static final java.lang.invoke.VarHandle BE_LONG =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final long LOW48 = 0xFFFF_FFFF_FFFFL;

    private IbsimWire() {
    }

    /** A control message. {@code data} is always 64 bytes. */
    public record Ctl(int clientId, int type, int len, byte[] data) {
        public Ctl {
            if (data.length != CTL_DATA_SIZE) {
                data = Arrays.copyOf(data, CTL_DATA_SIZE);
            }
        }
    }

    /** The data of CONNECT, {@code struct sim_client_info}. */
    public record ClientInfo(int id, int qp, boolean issm, String nodeId) {
    }

    /** The header of a MAD message; LIDs 0..0xffff, QPs and status as the integers they mean. */
    public record Header(int dlid, int slid, int dqp, int sqp, int status, long length) {
    }

    // ---- control messages ----

    /** A control message of {@code type} carrying {@code data} (at most 64 bytes). */
    public static byte[] encodeCtl(int clientId, int type, byte[] data) {
        if (data.length > CTL_DATA_SIZE) {
            throw new IllegalArgumentException("control data longer than 64 bytes: " + data.length);
        }
        ByteBuffer b = ByteBuffer.allocate(CTL_SIZE).order(HOST);
        b.putInt(MAGIC).putInt(clientId).putInt(type).putInt(data.length).put(data);
        return b.array();
    }

    /** Decodes a control message; {@link IllegalArgumentException} when its size or magic is wrong. */
    public static Ctl decodeCtl(byte[] buf, int length) {
        if (length != CTL_SIZE) {
            throw new IllegalArgumentException("control message of " + length + " bytes, expected " + CTL_SIZE);
        }
        ByteBuffer b = ByteBuffer.wrap(buf, 0, length).order(HOST);
        int magic = b.getInt();
        if (magic != MAGIC) {
            throw new IllegalArgumentException(String.format("control message with magic 0x%08x", magic));
        }
        int clientId = b.getInt();
        int type = b.getInt();
        int len = b.getInt();
        byte[] data = new byte[CTL_DATA_SIZE];
        b.get(data);
        return new Ctl(clientId, type, len, data);
    }

    /** The 44 bytes of {@code struct sim_client_info}. */
    public static byte[] encodeClientInfo(ClientInfo info) {
        byte[] id = info.nodeId() == null ? new byte[0] : info.nodeId().getBytes(StandardCharsets.US_ASCII);
        if (id.length > MAX_NODEID) {
            throw new IllegalArgumentException("node id longer than " + MAX_NODEID + " bytes: " + info.nodeId());
        }
        ByteBuffer b = ByteBuffer.allocate(44).order(HOST);
        b.putInt(info.id()).putInt(info.qp()).putInt(info.issm() ? 1 : 0).put(id);
        return b.array();
    }

    /** Reads {@code struct sim_client_info} from control data. */
    public static ClientInfo decodeClientInfo(byte[] data) {
        ByteBuffer b = ByteBuffer.wrap(data).order(HOST);
        int id = b.getInt();
        int qp = b.getInt();
        int issm = b.getInt();
        int end = 12;
        while (end < 12 + 32 && end < data.length && data[end] != 0) {
            end++;
        }
        return new ClientInfo(id, qp, issm != 0, new String(data, 12, end - 12, StandardCharsets.US_ASCII));
    }

    /** A u32 in host order at {@code offset} of control data. */
    public static int hostInt(byte[] data, int offset) {
        return ByteBuffer.wrap(data).order(HOST).getInt(offset);
    }

    /** A u16 in host order at {@code offset} of control data. */
    public static int hostShort(byte[] data, int offset) {
        return Short.toUnsignedInt(ByteBuffer.wrap(data).order(HOST).getShort(offset));
    }

    /** A u64 in host order at {@code offset} of control data. */
    public static long hostLong(byte[] data, int offset) {
        return ByteBuffer.wrap(data).order(HOST).getLong(offset);
    }

    /** A u32 in host order, as control data. */
    public static byte[] hostIntBytes(int v) {
        return ByteBuffer.allocate(4).order(HOST).putInt(v).array();
    }

    // ---- MAD messages ----

    /** A 288-byte MAD message. */
    public static byte[] encodeRequest(Header h, byte[] mad) {
        ByteBuffer b = ByteBuffer.allocate(REQUEST_SIZE);
        putRequest(b, h, mad);
        return b.array();
    }

    /**
     * {@link #encodeRequest} into {@code b} (big-endian, at least 288 bytes remaining), from its position on, which
     * it leaves after the message: for a caller that sends from a buffer of its own.
     */
    public static void putRequest(ByteBuffer b, Header h, byte[] mad) {
        putRequest(b, h.dlid(), h.slid(), h.dqp(), h.sqp(), h.status(), h.length(), mad);
    }

    /** {@link #putRequest(ByteBuffer, Header, byte[])} with the header's fields one by one. */
    public static void putRequest(ByteBuffer b, int dlid, int slid, int dqp, int sqp, int status, long length,
                                  byte[] mad) {
        if (mad.length != MAD_SIZE) {
            throw new IllegalArgumentException("MAD of " + mad.length + " bytes, expected " + MAD_SIZE);
        }
        putLid(b, dlid);
        putLid(b, slid);
        b.putInt(dqp).putInt(sqp).putInt(status).putInt(0).putLong(length).put(mad);
    }

    /**
     * The length field for {@code mad}: 256, except for an SA response sent whole in one RMPP segment (active, First
     * and Last set), whose length is its header and records (36 + PayloadLength, at least 56): libumad2sim hands
     * the length to the client as the MAD's, and saquery counts the records it got by it, as it does when OpenSM
     * answers through ibsim.
     */
    public static long madLength(byte[] mad) {
        if (mad.length < 36 || (mad[1] & 0xff) != 0x03 || (mad[3] & 0x80) == 0 || (mad[26] & 0x7) != 0x7) {
            return MAD_SIZE;
        }
        long paylen = ((mad[32] & 0xffL) << 24) | ((mad[33] & 0xff) << 16) | ((mad[34] & 0xff) << 8) | (mad[35] & 0xff);
        return Math.max(56, Math.min(MAD_SIZE, 36 + paylen));
    }

    /** The header of a MAD message; {@link IllegalArgumentException} when it is not 288 bytes. */
    public static Header decodeHeader(byte[] buf, int length) {
        if (length != REQUEST_SIZE) {
            throw new IllegalArgumentException("MAD message of " + length + " bytes, expected " + REQUEST_SIZE);
        }
        return decodeHeader(ByteBuffer.wrap(buf, 0, length));
    }

    /**
     * The header of the MAD message in {@code b} (big-endian), from its position, which it leaves alone;
     * {@link IllegalArgumentException} when the message, its remaining bytes, is not 288 bytes.
     */
    public static Header decodeHeader(ByteBuffer b) {
        if (b.remaining() != REQUEST_SIZE) {
            throw new IllegalArgumentException("MAD message of " + b.remaining() + " bytes, expected " + REQUEST_SIZE);
        }
        int at = b.position();
        return new Header(dlid(b), Short.toUnsignedInt(b.getShort(at + 4)), dqp(b), b.getInt(at + 12),
                b.getInt(at + 16), b.getLong(at + 24));
    }

    /** The destination LID of the MAD message at {@code b}'s position (big-endian buffer, as {@link #decodeHeader}). */
    public static int dlid(ByteBuffer b) {
        return Short.toUnsignedInt(b.getShort(b.position()));
    }

    /** The destination QP of the MAD message at {@code b}'s position (big-endian buffer, as {@link #decodeHeader}). */
    public static int dqp(ByteBuffer b) {
        return b.getInt(b.position() + 8);
    }

    /** The 256-byte MAD of a MAD message. */
    public static byte[] mad(byte[] buf) {
        return Arrays.copyOfRange(buf, MAD_OFFSET, MAD_OFFSET + MAD_SIZE);
    }

    /** The LID in the low 16 bits of a u32 whose value is its network-order form, on a little-endian host. */
    private static void putLid(ByteBuffer b, int lid) {
        if (lid < 0 || lid > 0xffff) {
            throw new IllegalArgumentException("LID out of range: " + lid);
        }
        b.putShort((short) lid).putShort((short) 0);
    }

    // ---- MAD header fields the transport needs ----

    /** The TID of a MAD (offset 8, big-endian). */
    public static long tid(byte[] mad) {
        return (long) BE_LONG.get(mad, 8);
    }

    /** Sets the TID of a MAD. */
    public static void setTid(byte[] mad, long tid) {
        BE_LONG.set(mad, 8, tid);
    }

    /** Whether the R bit (response) of the method byte is set. */
    public static boolean isResponse(byte[] mad) {
        return (mad[3] & 0x80) != 0;
    }

    /** The management class (offset 1). */
    public static int mgmtClass(byte[] mad) {
        return mad[1] & 0xff;
    }

    /** {@code tid} as the server carries it for slot {@code clientId}: the slot in the top 16 bits. */
    public static long serverTid(long tid, int clientId) {
        return (tid & LOW48) | ((long) clientId << 48);
    }
}
