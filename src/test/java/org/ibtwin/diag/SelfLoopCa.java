package org.ibtwin.diag;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.ibtwin.fixture.InMemoryTransport;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.MadHeaders;
import org.ibtwin.mad.MadStatus;
import org.ibtwin.mad.Methods;
import org.ibtwin.mad.SmpAttributes;
import org.ibtwin.transport.LocalPort;
import org.ibtwin.transport.MadAddress;
import org.ibtwin.transport.MadTimeoutException;

/**
 * Tests only: a fabric of one CA (GUID 0xec0d9a0300ec8480, one port, LID 1) whose port 1 leads back to itself: a
 * directed-route SMP out of it, along any path, arrives at the same port. It counts the SMPs it answers.
 */
final class SelfLoopCa extends InMemoryTransport {
    static final long GUID = 0xec0d9a0300ec8480L;
    final AtomicLong answered = new AtomicLong();

    SelfLoopCa() {
        super(1);
    }

    @Override
    public LocalPort localPort() {
        return new LocalPort("loop0", 1, GUID, GUID + 1, 1, 0, 1, 1, false);
    }

    @Override
    public CompletableFuture<byte[]> request(byte[] mad, MadAddress to, Duration timeout, int retries) {
        if (answered.incrementAndGet() > 100_000) {
            return CompletableFuture.failedFuture(new MadTimeoutException("the walk does not end"));
        }
        return super.request(mad, to, timeout, retries);
    }

    @Override
    protected byte[] answer(byte[] mad, MadAddress to) {
        byte[] r = mad.clone();
        r[3] = (byte) Methods.GET_RESP;
        r[4] |= (byte) 0x80;
        byte[] d = new byte[64];
        int status = 0;
        switch (MadHeaders.attributeId(mad)) {
            case AttributeIds.NODE_INFO -> SmpAttributes.NODE_INFO.encode(Map.of("BaseVers", 1, "ClassVers", 1,
                    "NodeType", 1, "NumPorts", 1, "SystemGuid", GUID, "Guid", GUID, "PortGuid", GUID + 1,
                    "PartCap", 64, "LocalPort", 1), d, 0);
            case AttributeIds.NODE_DESC -> SmpAttributes.NODE_DESCRIPTION.encode(Map.of("NodeDesc",
                    "loop mlx5_0"), d, 0);
            case AttributeIds.PORT_INFO -> SmpAttributes.PORT_INFO.encode(Map.of("Lid", 1, "SMLid", 1,
                    "LocalPort", 1, "LinkState", 4, "PhysLinkState", 5, "GuidCap", 8), d, 0);
            default -> status = MadStatus.METHOD_ATTR_NOT_SUPPORTED;
        }
        r[4] = (byte) ((r[4] & 0x80) | (status >> 8));
        r[5] = (byte) status;
        System.arraycopy(d, 0, r, 64, d.length);
        return r;
    }

}
