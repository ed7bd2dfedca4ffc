package org.ibtwin.sm;

import org.ibtwin.fixture.InterceptedTransport;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.MadHeaders;
import org.ibtwin.mad.SmpAttributes;
import org.ibtwin.transport.MadTransport;

/**
 * Tests only: a transport that makes one node answer NodeInfo with another node's GUIDs, as a node with a
 * duplicated GUID (a firmware or manufacturing fault) would. The model refuses duplicate GUIDs, so the fault is
 * planted on the wire.
 */
final class GuidRewritingTransport {
    private GuidRewritingTransport() {
    }

    /** {@code delegate}, with node {@code fromNodeGuid}'s NodeInfo answers carrying {@code toNodeGuid}'s GUIDs. */
    static MadTransport of(MadTransport delegate, long fromNodeGuid, long toNodeGuid) {
        return InterceptedTransport.of(delegate, true, (wire, mad, address, timeout, retries) ->
                wire.request(mad, address, timeout, retries).thenApply(r -> rewrite(r, fromNodeGuid, toNodeGuid)));
    }

    private static byte[] rewrite(byte[] resp, long from, long to) {
        if (MadHeaders.attributeId(resp) != AttributeIds.NODE_INFO) {
            return resp;
        }
        var ni = SmpAttributes.NODE_INFO;
        int d = MadHeaders.SMP_DATA_OFFSET;
        if (ni.get(resp, d, "Guid") == from) {
            long portOffset = ni.get(resp, d, "PortGuid") - from;
            ni.set(resp, d, "Guid", to);
            ni.set(resp, d, "PortGuid", to + portOffset);
        }
        return resp;
    }
}
