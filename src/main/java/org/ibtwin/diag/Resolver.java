package org.ibtwin.diag;

import java.nio.ByteBuffer;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.PortId;
import org.ibtwin.mad.SaAttributes;
import org.ibtwin.mad.SmpAttributes;
import org.ibtwin.transport.LocalPort;

/**
 * Destinations the tools look up rather than read: a port GUID resolved to its LID by a PathRecord query to the SA
 * (libibmad's resolve_guid: SGID our port, DGID the subnet prefix and the GUID, component mask SGID|DGID), and
 * "self", the local port.
 */
public final class Resolver {
    /** The default subnet prefix, used when the local port has none. */
    public static final long DEFAULT_SUBNET_PREFIX = 0xfe80_0000_0000_0000L;
    private static final long PR_COMPMASK_DGID = 1L << 2;
    private static final long PR_COMPMASK_SGID = 1L << 3;

    private Resolver() {
    }

    /**
     * The LID of the port with GUID {@code guid}, asked of the SA at {@code smLid} (0: the SM LID the local port
     * knows). Throws {@link QueryException} when the SA does not answer or has no path.
     */
    public static PortId guid(MadQuery q, long guid, int smLid) {
        LocalPort self = q.localPort();
        int sa = smLid > 0 ? smLid : self.smLid();
        long prefix = localPrefix(q);
        byte[] rec = new byte[SaAttributes.PATH_RECORD.size()];
        SaAttributes.PATH_RECORD.setBytes(rec, 0, "PathRecDGid", gid(prefix, guid));
        SaAttributes.PATH_RECORD.setBytes(rec, 0, "PathRecSGid", gid(prefix, self.portGuid()));
        byte[] resp = q.saGet(sa, AttributeIds.PATH_RECORD, PR_COMPMASK_DGID | PR_COMPMASK_SGID, rec);
        int lid = (int) SaAttributes.PATH_RECORD.get(resp, 0, "PathRecDLid");
        if (!Addresses.validLid(lid)) {
            throw new QueryException(QueryException.Kind.INVALID, 0, "the SA gave LID " + lid + " for GUID 0x"
                    + Long.toHexString(guid), "ib_path_query_via: sa call path_query failed");
        }
        return PortId.lid(lid);
    }

    /** The local port's subnet prefix (a directed-route PortInfo of the port itself), or the default. */
    private static long localPrefix(MadQuery q) {
        try {
            byte[] pi = q.smpGet(PortId.directed(0), AttributeIds.PORT_INFO, 0);
            long p = SmpAttributes.PORT_INFO.get(pi, 0, "GidPrefix");
            return p == 0 ? DEFAULT_SUBNET_PREFIX : p;
        } catch (QueryException e) {
            return DEFAULT_SUBNET_PREFIX;
        }
    }

    private static byte[] gid(long prefix, long guid) {
        return ByteBuffer.allocate(16).putLong(prefix).putLong(guid).array();
    }
}
