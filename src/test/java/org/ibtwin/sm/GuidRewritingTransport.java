package org.ibtwin.sm;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.ibtwin.fixture.WrappingTransport;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.MadHeaders;
import org.ibtwin.mad.SmpAttributes;
import org.ibtwin.transport.MadAddress;
import org.ibtwin.transport.MadTransport;

/**
 * Tests only: a transport that makes one node answer NodeInfo with another node's GUIDs, as a node with a
 * duplicated GUID (a firmware or manufacturing fault) would. The model refuses duplicate GUIDs, so the fault is
 * planted on the wire.
 */
final class GuidRewritingTransport extends WrappingTransport {
    private final long from;
    private final long to;

    GuidRewritingTransport(MadTransport delegate, long fromNodeGuid, long toNodeGuid) {
        super(delegate);
        this.from = fromNodeGuid;
        this.to = toNodeGuid;
    }

    @Override
    public CompletableFuture<byte[]> request(byte[] mad, MadAddress address, Duration timeout, int retries) {
        return delegate.request(mad, address, timeout, retries).thenApply(this::rewrite);
    }

    private byte[] rewrite(byte[] resp) {
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
