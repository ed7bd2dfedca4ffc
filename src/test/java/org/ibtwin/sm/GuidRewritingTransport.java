package org.ibtwin.sm;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.MadHeaders;
import org.ibtwin.mad.SmpAttributes;
import org.ibtwin.transport.LocalPort;
import org.ibtwin.transport.MadAddress;
import org.ibtwin.transport.MadTransport;
import org.ibtwin.transport.ReceivedMad;

/**
 * Tests only: a transport that makes one node answer NodeInfo with another node's GUIDs, as a node with a
 * duplicated GUID (a firmware or manufacturing fault) would. The model refuses duplicate GUIDs, so the fault is
 * planted on the wire.
 */
final class GuidRewritingTransport implements MadTransport {
    private final MadTransport delegate;
    private final long from;
    private final long to;

    GuidRewritingTransport(MadTransport delegate, long fromNodeGuid, long toNodeGuid) {
        this.delegate = delegate;
        this.from = fromNodeGuid;
        this.to = toNodeGuid;
    }

    @Override
    public LocalPort localPort() {
        return delegate.localPort();
    }

    @Override
    public long nextTid() {
        return delegate.nextTid();
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

    @Override
    public void send(byte[] mad, MadAddress address) {
        delegate.send(mad, address);
    }

    @Override
    public void onUnsolicited(Consumer<ReceivedMad> handler) {
        delegate.onUnsolicited(handler);
    }

    @Override
    public void close() {
        delegate.close();
    }
}
