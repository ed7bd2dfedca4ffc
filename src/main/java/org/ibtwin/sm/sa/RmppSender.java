package org.ibtwin.sm.sa;

import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.MadHeaders;
import org.ibtwin.transport.MadAddress;
import org.ibtwin.transport.MadTransport;

/**
 * The sending side of RMPP (IBA 13.6) for the SA's GetTable responses. The records are cut into segments of 200
 * bytes (the SA data area), each sent with the response's header, SegmentNumber 1.., the First flag on the first
 * (its PayloadLength: the SA header's 20 bytes plus all records) and the Last flag on the last (PayloadLength: 20
 * plus that segment's bytes). The sender starts with a window of one segment; each ACK (SegmentNumber = the last
 * segment received, NewWindowLast = the last it may send) sends the segments after it up to that window, a repeated
 * ACK resends them, and the ACK of the last segment ends the transfer. STOP and ABORT end it too; a transfer nobody
 * ACKs is forgotten after {@link #LINGER_NANOS} (a client that does no RMPP, as libumad2sim, reads the first
 * segment alone and never ACKs it).
 *
 * <p>ACKs are taken with the R bit set (as IBA sends them) or clear: through ibsim a MAD with the R bit set reaches
 * only the client whose TID it carries, so a client there sends its ACKs as requests (see
 * {@code org.ibtwin.diag.MadQuery}). A response that fits one MAD says its length in PayloadLength (the ibsim wire carries it, as libumad2sim's
 * clients count records by it).
 *
 * <p>Thread-safe: transfers are kept in a concurrent map, each handled under its own lock.
 */
final class RmppSender {
    static final int SEGMENT = MadHeaders.SA_DATA_SIZE;
    /** The bytes of the SA class header counted in PayloadLength (SM_Key, AttributeOffset, ComponentMask). */
    static final int SA_HEADER = 20;
    static final long LINGER_NANOS = 20_000_000_000L;
    private static final Layout SA = MadHeaders.SA;

    private record Key(int lid, long tid) {
    }

    private static final class Transfer {
        final byte[] header;
        final byte[] data;
        final int segments;
        final MadAddress to;
        final long started = System.nanoTime();

        Transfer(byte[] header, byte[] data, MadAddress to) {
            this.header = header;
            this.data = data;
            this.segments = Math.max(1, (data.length + SEGMENT - 1) / SEGMENT);
            this.to = to;
        }
    }

    private final MadTransport transport;
    private final Map<Key, Transfer> transfers = new ConcurrentHashMap<>();

    RmppSender(MadTransport transport) {
        this.transport = transport;
    }

    /** Transfers waiting for ACKs. */
    int inFlight() {
        return transfers.size();
    }

    /**
     * Starts sending {@code data} (whole records) as the response whose first 56 bytes are {@code header} (the
     * request's, R bit set), records {@code attrOffsetWords} × 8 bytes apart.
     */
    void start(byte[] header, int attrOffsetWords, byte[] data, MadAddress to) {
        expire();
        byte[] h = Arrays.copyOf(Arrays.copyOf(header, MadHeaders.SA_DATA_OFFSET), MadHeaders.MAD_SIZE);
        MadHeaders.MAD.set(h, 0, "MadStatus", 0);
        SA.set(h, 0, "SaAttrOffs", attrOffsetWords);
        Transfer t = new Transfer(h, data, to);
        if (t.segments > 1) {
            transfers.put(new Key(to.lid(), MadHeaders.tid(h)), t);
        }
        send(t, 1);
    }

    /** An RMPP ACK, STOP or ABORT from a receiver. */
    void control(byte[] mad, MadAddress from) {
        Key k = new Key(from.lid(), MadHeaders.tid(mad));
        Transfer t = transfers.get(k);
        if (t == null) {
            return;
        }
        int type = (int) SA.get(mad, 0, "RmppType");
        if (type != MadHeaders.RMPP_TYPE_ACK) {
            transfers.remove(k);
            return;
        }
        synchronized (t) {
            int acked = (int) SA.get(mad, 0, "RmppSegNum");
            int window = (int) SA.get(mad, 0, "RmppPayload");
            if (acked >= t.segments) {
                transfers.remove(k);
                return;
            }
            int last = Math.min(t.segments, Math.max(window, acked + 1));
            for (int s = acked + 1; s <= last; s++) {
                send(t, s);
            }
        }
    }

    private void send(Transfer t, int seg) {
        boolean first = seg == 1;
        boolean lastSeg = seg == t.segments;
        int from = (seg - 1) * SEGMENT;
        int bytes = Math.max(0, Math.min(SEGMENT, t.data.length - from));
        byte[] m = new byte[MadHeaders.MAD_SIZE];
        System.arraycopy(t.header, 0, m, 0, MadHeaders.SA_DATA_OFFSET);
        SA.set(m, 0, "RmppVers", 1);
        SA.set(m, 0, "RmppType", MadHeaders.RMPP_TYPE_DATA);
        SA.set(m, 0, "RmppResp", 0);
        SA.set(m, 0, "RmppFlags", MadHeaders.RMPP_FLAG_ACTIVE | (first ? MadHeaders.RMPP_FLAG_FIRST : 0)
                | (lastSeg ? MadHeaders.RMPP_FLAG_LAST : 0));
        SA.set(m, 0, "RmppStatus", 0);
        SA.set(m, 0, "RmppSegNum", seg);
        SA.set(m, 0, "RmppPayload", first ? SA_HEADER + t.data.length : lastSeg ? SA_HEADER + bytes : 0);
        System.arraycopy(t.data, from, m, MadHeaders.SA_DATA_OFFSET, bytes);
        try {
            transport.send(m, t.to);
        } catch (RuntimeException e) {
            // the receiver's ACK timeout asks again
        }
    }

    private void expire() {
        long now = System.nanoTime();
        for (Iterator<Transfer> it = transfers.values().iterator(); it.hasNext();) {
            if (now - it.next().started > LINGER_NANOS) {
                it.remove();
            }
        }
    }
}
