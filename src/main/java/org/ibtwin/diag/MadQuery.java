package org.ibtwin.diag;

import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.MadHeaders;
import org.ibtwin.mad.MadStatus;
import org.ibtwin.mad.Methods;
import org.ibtwin.mad.MgmtClasses;
import org.ibtwin.mad.PortId;
import org.ibtwin.transport.LocalPort;
import org.ibtwin.transport.MadAddress;
import org.ibtwin.transport.MadTimeoutException;
import org.ibtwin.transport.MadTransport;
import org.ibtwin.transport.MadTransportException;

/**
 * Queries over a {@link MadTransport}, as libibmad makes them for the diagnostic tools: subnet management Get/Set
 * (LID routed, directed route or combined, chosen by the {@link PortId}), performance management Get/Set to a
 * port's PMA, and subnet administration Get to the SA. Each call builds one request with a fresh TID, waits for the
 * response (every attempt {@link #timeout()} long, {@link #attempts()} of them, libibmad's 1000 ms and 3 by
 * default), checks it is a GetResp with status 0 and returns the attribute data.
 *
 * <p>Addressing follows libibmad: a {@link PortId} without a path is LID routed (class 0x01); one with a path is a
 * directed-route SMP (class 0x81) whose hop count is the path's length less one, with DrSLID and DrDLID from the
 * PortId; when it also has a LID and a DrSLID other than the permissive LID it is a combined route, sent LID routed
 * to that LID where the directed part starts.
 *
 * <p>Not thread-safe in its settings; the transport may be shared.
 */
public final class MadQuery {
    /** libibmad's MAD_DEF_TIMEOUT_MS. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMillis(1000);
    /** libibmad's MAD_DEF_RETRIES: the number of sends, the first included. */
    public static final int DEFAULT_ATTEMPTS = 3;
    /** The longest directed path: 63 hops (IB_SUBNET_PATH_HOPS_MAX less the unused entry 0). */
    public static final int MAX_HOPS = 63;

    private static final int SMP_CLASS_VERSION = 1;
    private static final int PERF_CLASS_VERSION = 1;
    private static final int SA_CLASS_VERSION = 2;

    private final MadTransport transport;
    private Duration timeout = DEFAULT_TIMEOUT;
    private int attempts = DEFAULT_ATTEMPTS;
    private long mkey;

    public MadQuery(MadTransport transport) {
        this.transport = Objects.requireNonNull(transport, "transport");
    }

    /** The transport's local port: the LID and SM LID the tools resolve "self" and the SA with. */
    public LocalPort localPort() {
        return transport.localPort();
    }

    public Duration timeout() {
        return timeout;
    }

    /** Each attempt's timeout (the tools' -t). */
    public MadQuery timeout(Duration t) {
        if (t.isNegative() || t.isZero()) {
            throw new IllegalArgumentException("timeout must be positive: " + t);
        }
        this.timeout = t;
        return this;
    }

    public int attempts() {
        return attempts;
    }

    /** How many times a request is sent before giving up (at least 1). */
    public MadQuery attempts(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("attempts must be at least 1: " + n);
        }
        this.attempts = n;
        return this;
    }

    /** The M_Key put in every SMP (the tools' -y); 0 by default. */
    public MadQuery mkey(long key) {
        this.mkey = key;
        return this;
    }

    // ---- subnet management

    /** SubnGet(attribute, modifier) to {@code dest}: the 64 bytes of attribute data. */
    public byte[] smpGet(PortId dest, int attrId, long modifier) {
        return smp(dest, Methods.GET, attrId, modifier, new byte[MadHeaders.SMP_DATA_SIZE]);
    }

    /** SubnSet(attribute, modifier) to {@code dest} with {@code data} (up to 64 bytes): the response's data. */
    public byte[] smpSet(PortId dest, int attrId, long modifier, byte[] data) {
        return smp(dest, Methods.SET, attrId, modifier, data);
    }

    private byte[] smp(PortId dest, int method, int attrId, long modifier, byte[] data) {
        Objects.requireNonNull(dest, "dest");
        checkData(data, MadHeaders.SMP_DATA_SIZE);
        byte[] mad = new byte[MadHeaders.MAD_SIZE];
        int[] path = dest.path();
        MadAddress to;
        if (path.length == 0) {
            header(mad, MgmtClasses.SUBN_LID, SMP_CLASS_VERSION, method, attrId, modifier);
            MadHeaders.SMP_LID.set(mad, 0, "MadMkey", mkey);
            to = MadAddress.smp(dest.lid());
        } else {
            int hops = path.length - 1;
            if (hops > MAX_HOPS) {
                throw new QueryException(QueryException.Kind.INVALID, 0, "directed path of " + hops + " hops",
                        "mad_encode: dr path with hop count " + hops);
            }
            header(mad, MgmtClasses.SUBN_DIRECTED, SMP_CLASS_VERSION, method, attrId, modifier);
            Layout dr = MadHeaders.SMP_DR;
            dr.set(mad, 0, "DrSmpHopPtr", 0);
            dr.set(mad, 0, "DrSmpHopCnt", hops);
            dr.set(mad, 0, "MadMkey", mkey);
            dr.set(mad, 0, "DrSmpSLID", dest.drSlid() == 0 ? PortId.PERMISSIVE_LID : dest.drSlid());
            dr.set(mad, 0, "DrSmpDLID", dest.drDlid() == 0 ? PortId.PERMISSIVE_LID : dest.drDlid());
            byte[] initial = new byte[MadHeaders.DR_PATH_SIZE];
            for (int i = 0; i < path.length; i++) {
                initial[i] = (byte) path[i];    // entry 0 unused; the tools send what was typed
            }
            dr.setBytes(mad, 0, "DrSmpPath", initial);
            boolean combined = dest.lid() > 0 && dest.drSlid() != PortId.PERMISSIVE_LID && dest.drSlid() != 0;
            to = combined ? MadAddress.smp(dest.lid()) : MadAddress.directed();
        }
        System.arraycopy(data, 0, mad, MadHeaders.SMP_DATA_OFFSET, data.length);
        byte[] resp = rpc(mad, to, dest.toString(), "mad_rpc");
        return Arrays.copyOfRange(resp, MadHeaders.SMP_DATA_OFFSET,
                MadHeaders.SMP_DATA_OFFSET + MadHeaders.SMP_DATA_SIZE);
    }

    // ---- performance management

    /**
     * PerfMgt Get of {@code attrId} at the PMA of {@code lid}, the request's data zero but for PortSelect (byte 1)
     * = {@code portSelect}, as libibmad sends every PMA query (ClassPortInfo included): the 192 bytes of data.
     */
    public byte[] pmaGet(int lid, int attrId, int portSelect) {
        byte[] data = new byte[MadHeaders.PERF_DATA_SIZE];
        data[1] = (byte) portSelect;
        return pma(lid, Methods.GET, attrId, data);
    }

    /** PerfMgt Set of {@code attrId} at the PMA of {@code lid} with {@code data} (up to 192 bytes). */
    public byte[] pmaSet(int lid, int attrId, byte[] data) {
        return pma(lid, Methods.SET, attrId, data);
    }

    /** The PMA's ClassPortInfo (PortSelect {@code portSelect}, as perfquery sends it). */
    public byte[] pmaClassPortInfo(int lid, int portSelect) {
        return pmaGet(lid, AttributeIds.CLASS_PORT_INFO, portSelect);
    }

    private byte[] pma(int lid, int method, int attrId, byte[] data) {
        checkData(data, MadHeaders.PERF_DATA_SIZE);
        byte[] mad = new byte[MadHeaders.MAD_SIZE];
        header(mad, MgmtClasses.PERF, PERF_CLASS_VERSION, method, attrId, 0);
        System.arraycopy(data, 0, mad, MadHeaders.PERF_DATA_OFFSET, data.length);
        byte[] resp = rpc(mad, MadAddress.gsi(lid), PortId.lid(lid).toString(), "mad_rpc");
        return Arrays.copyOfRange(resp, MadHeaders.PERF_DATA_OFFSET,
                MadHeaders.PERF_DATA_OFFSET + MadHeaders.PERF_DATA_SIZE);
    }

    // ---- subnet administration

    /**
     * SubnAdmGet of {@code attrId} from the SA at {@code smLid}, with {@code compMask} and the template
     * {@code record} (up to 200 bytes): the 200 bytes of the response's record.
     */
    public byte[] saGet(int smLid, int attrId, long compMask, byte[] record) {
        checkData(record, MadHeaders.SA_DATA_SIZE);
        byte[] mad = new byte[MadHeaders.MAD_SIZE];
        header(mad, MgmtClasses.SUBN_ADM, SA_CLASS_VERSION, Methods.GET, attrId, 0);
        MadHeaders.SA.set(mad, 0, "SaCompMask", compMask);
        System.arraycopy(record, 0, mad, MadHeaders.SA_DATA_OFFSET, record.length);
        byte[] resp = Arrays.copyOf(rpc(mad, MadAddress.gsi(smLid), PortId.lid(smLid).toString(), "mad_rpc_rmpp"),
                MadHeaders.MAD_SIZE);
        return Arrays.copyOfRange(resp, MadHeaders.SA_DATA_OFFSET, MadHeaders.SA_DATA_OFFSET
                + MadHeaders.SA_DATA_SIZE);
    }

    /**
     * What an SA query answered: the MAD status (0: success; the SA's codes are in bits 8..15), the records' spacing
     * in bytes (AttributeOffset × 8; 0 for a single record) and the records' bytes, reassembled from every RMPP
     * segment.
     */
    public record SaResult(int status, int stride, byte[] data) {
        /** The records, each {@code size} bytes (a record cut short at the end is left out). */
        public java.util.List<byte[]> records(int size) {
            java.util.List<byte[]> out = new java.util.ArrayList<>();
            int step = stride > 0 ? stride : size;
            for (int off = 0; step > 0 && off + size <= data.length; off += step) {
                out.add(Arrays.copyOfRange(data, off, off + size));
            }
            return out;
        }
    }

    /**
     * An SA query ({@code method} SubnAdmGet or SubnAdmGetTable) of {@code attrId} with {@code compMask}, the
     * template {@code record} and {@code smKey}, to the SA at {@code smLid}. A response sent by RMPP is reassembled:
     * each DATA segment is ACKed with a window of one, the ACK asking for the next segment, and the last one is
     * ACKed as IBA 13.6 wants. ACKs go out with the request's method (R bit clear): through ibsim a MAD with the R
     * bit set reaches only the client whose TID it carries, never the SA. A response that is not a proper RMPP
     * segment (OpenSM through libumad2sim sends its whole answer's first 256 bytes, the rest lost) is taken as it
     * came, as far as the transport says it reaches.
     */
    public SaResult saQuery(int smLid, int method, int attrId, long attrMod, long compMask, long smKey,
                            byte[] record) {
        checkData(record, MadHeaders.SA_DATA_SIZE);
        byte[] mad = new byte[MadHeaders.MAD_SIZE];
        header(mad, MgmtClasses.SUBN_ADM, SA_CLASS_VERSION, method, attrId, attrMod);
        Layout sa = MadHeaders.SA;
        sa.set(mad, 0, "SaSMkey", smKey);
        sa.set(mad, 0, "SaCompMask", compMask);
        System.arraycopy(record, 0, mad, MadHeaders.SA_DATA_OFFSET, record.length);
        long tid = transport.nextTid();
        MadHeaders.MAD.set(mad, 0, "MadTRID", tid);
        String dport = PortId.lid(smLid).toString();
        MadAddress to = MadAddress.gsi(smLid);
        byte[] got = saCall(mad, to, tid, dport, "no response");
        int length = got.length;
        byte[] resp = Arrays.copyOf(got, MadHeaders.MAD_SIZE);
        int status = (int) MadHeaders.MAD.get(resp, 0, "MadStatus");
        int stride = (int) sa.get(resp, 0, "SaAttrOffs") * 8;
        boolean active = (sa.get(resp, 0, "RmppFlags") & MadHeaders.RMPP_FLAG_ACTIVE) != 0;
        long seg = sa.get(resp, 0, "RmppSegNum");
        if (status != MadStatus.OK || !active || sa.get(resp, 0, "RmppType") != MadHeaders.RMPP_TYPE_DATA
                || seg != 1) {
            return new SaResult(status, stride, Arrays.copyOfRange(resp, MadHeaders.SA_DATA_OFFSET, length));
        }
        java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
        long total = sa.get(resp, 0, "RmppPayload") - 20;
        int next = 1;
        while (true) {
            long flags = sa.get(resp, 0, "RmppFlags");
            int bytes = Math.min(MadHeaders.SA_DATA_SIZE, length - MadHeaders.SA_DATA_OFFSET);
            if ((flags & MadHeaders.RMPP_FLAG_LAST) != 0) {
                long lastBytes = sa.get(resp, 0, "RmppPayload") - 20;
                if (lastBytes >= 0 && lastBytes <= bytes) {
                    bytes = (int) lastBytes;
                }
            }
            all.write(resp, MadHeaders.SA_DATA_OFFSET, Math.max(0, bytes));
            byte[] ack = ack(resp, next, next + 1);
            if ((flags & MadHeaders.RMPP_FLAG_LAST) != 0) {
                try {
                    transport.send(ack(resp, next, next), to);
                } catch (MadTransportException e) {
                    // the SA forgets the transfer on its own
                }
                break;
            }
            next++;
            got = saCall(ack, to, tid, dport, "RMPP segment " + next + " not received");
            length = got.length;
            resp = Arrays.copyOf(got, MadHeaders.MAD_SIZE);
            if (sa.get(resp, 0, "RmppSegNum") != next
                    || sa.get(resp, 0, "RmppType") != MadHeaders.RMPP_TYPE_DATA) {
                throw new QueryException(QueryException.Kind.INVALID, 0, "RMPP: segment "
                        + sa.get(resp, 0, "RmppSegNum") + " where " + next + " was due, from " + dport,
                        "mad_rpc_rmpp: bad segment; dport (" + dport + ")");
            }
        }
        byte[] data = all.toByteArray();
        if (total >= 0 && total < data.length) {
            data = Arrays.copyOf(data, (int) total);
        }
        return new SaResult(MadStatus.OK, stride, data);
    }

    /** An RMPP ACK of segment {@code seg}, window up to {@code newWindowLast}, for the transfer {@code data} is of. */
    private static byte[] ack(byte[] data, int seg, int newWindowLast) {
        byte[] a = new byte[MadHeaders.MAD_SIZE];
        System.arraycopy(data, 0, a, 0, MadHeaders.SA_DATA_OFFSET);
        Layout sa = MadHeaders.SA;
        sa.set(a, 0, "MadIsResponse", 0);
        sa.set(a, 0, "MadStatus", 0);
        sa.set(a, 0, "RmppVers", 1);
        sa.set(a, 0, "RmppType", MadHeaders.RMPP_TYPE_ACK);
        sa.set(a, 0, "RmppResp", 0);
        sa.set(a, 0, "RmppFlags", MadHeaders.RMPP_FLAG_ACTIVE);
        sa.set(a, 0, "RmppStatus", 0);
        sa.set(a, 0, "RmppSegNum", seg);
        sa.set(a, 0, "RmppPayload", newWindowLast);
        return a;
    }

    private byte[] saCall(byte[] mad, MadAddress to, long tid, String dport, String what) {
        byte[] resp;
        try {
            resp = transport.call(mad, to, timeout, attempts - 1);
        } catch (MadTimeoutException e) {
            throw new QueryException(QueryException.Kind.TIMEOUT, 0, what + " from " + dport + ": "
                    + e.getMessage(), "mad_rpc_rmpp: _do_madrpc failed; dport (" + dport + ")");
        } catch (MadTransportException e) {
            throw new QueryException(QueryException.Kind.INVALID, 0, "cannot query " + dport + ": "
                    + e.getMessage(), "mad_rpc_rmpp: _do_madrpc failed; dport (" + dport + ")");
        }
        if (resp.length < MadHeaders.SA_DATA_OFFSET || MadHeaders.tid(resp) != tid
                || !Methods.isResponse(MadHeaders.method(resp))) {
            throw new QueryException(QueryException.Kind.INVALID, 0, "bad response from " + dport,
                    "mad_rpc_rmpp: bad response; dport (" + dport + ")");
        }
        return resp;
    }

    // ---- the round trip

    private byte[] rpc(byte[] mad, MadAddress to, String dport, String fn) {
        long tid = transport.nextTid();
        MadHeaders.MAD.set(mad, 0, "MadTRID", tid);
        byte[] resp;
        try {
            resp = transport.call(mad, to, timeout, attempts - 1);
        } catch (MadTimeoutException e) {
            throw new QueryException(QueryException.Kind.TIMEOUT, 0, "no response from " + dport + ": "
                    + e.getMessage(), fn + ": _do_madrpc failed; dport (" + dport + ")");
        } catch (MadTransportException e) {
            throw new QueryException(QueryException.Kind.INVALID, 0, "cannot query " + dport + ": "
                    + e.getMessage(), fn + ": _do_madrpc failed; dport (" + dport + ")");
        }
        int least = MadHeaders.mgmtClass(mad) == MgmtClasses.SUBN_ADM ? MadHeaders.SA_DATA_OFFSET : MadHeaders.MAD_SIZE;
        if (resp.length < least || MadHeaders.tid(resp) != tid
                || MadHeaders.method(resp) != Methods.GET_RESP) {
            throw new QueryException(QueryException.Kind.INVALID, 0, "bad response from " + dport
                    + (resp.length < least ? "" : " (method " + Methods.name(MadHeaders.method(resp))
                    + ")"), fn + ": bad response; dport (" + dport + ")");
        }
        int status = (int) MadHeaders.MAD.get(resp, 0, "MadStatus") & ~MadStatus.DR_DIRECTION;
        if (status != MadStatus.OK) {
            throw new QueryException(QueryException.Kind.STATUS, status, "status " + MadStatus.describe(status)
                    + " from " + dport, String.format("%s: MAD completed with error status 0x%x; dport (%s)", fn,
                    status, dport));
        }
        return resp;
    }

    private static void header(byte[] mad, int mgmtClass, int classVersion, int method, int attrId,
            long modifier) {
        Layout h = MadHeaders.MAD;
        h.set(mad, 0, "MadBaseVersion", 1);
        h.set(mad, 0, "MadMgmtClass", mgmtClass);
        h.set(mad, 0, "MadClassVersion", classVersion);
        h.set(mad, 0, "MadIsResponse", 0);
        h.set(mad, 0, "MadMethod", method & 0x7f);
        h.set(mad, 0, "MadAttr", attrId);
        h.set(mad, 0, "MadModifier", modifier & 0xffffffffL);
    }

    private static void checkData(byte[] data, int max) {
        Objects.requireNonNull(data, "data");
        if (data.length > max) {
            throw new IllegalArgumentException("attribute data of " + data.length + " bytes, at most " + max);
        }
    }

}
