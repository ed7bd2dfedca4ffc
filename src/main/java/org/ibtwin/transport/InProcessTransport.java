package org.ibtwin.transport;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * A transport whose fabric lives in the same JVM: each MAD is handed to a {@link Fabric} that answers at once (the
 * twin). A MAD the fabric drops (no answer) counts as a timed-out attempt without waiting for the timeout — time
 * here is the fabric's, not the wall clock's — and is retried like any other. Unsolicited MADs (traps, requests to
 * an SM) arrive through {@link #deliver}.
 */
public final class InProcessTransport implements MadTransport {

    /** What sits behind the transport: answers a request, or returns null when the MAD is lost. */
    @FunctionalInterface
    public interface Fabric {
        byte[] handle(byte[] mad, MadAddress to, LocalPort from);
    }

    private static final int TID_OFFSET = 8;

    private final LocalPort port;
    private final Fabric fabric;
    private final AtomicLong tids = new AtomicLong(1);
    private volatile Consumer<ReceivedMad> unsolicited = m -> { };
    private volatile boolean closed;

    public InProcessTransport(LocalPort port, Fabric fabric) {
        this.port = port;
        this.fabric = fabric;
    }

    @Override
    public LocalPort localPort() {
        return port;
    }

    @Override
    public long nextTid() {
        return tids.getAndIncrement();
    }

    @Override
    public CompletableFuture<byte[]> request(byte[] mad, MadAddress to, Duration timeout, int retries) {
        if (closed) {
            return CompletableFuture.failedFuture(new MadTransportException("transport closed"));
        }
        if (mad.length != 256) {
            return CompletableFuture.failedFuture(new MadTransportException("a MAD is 256 bytes, not " + mad.length));
        }
        long tid = tidOf(mad);
        for (int attempt = 0; attempt <= Math.max(0, retries); attempt++) {
            byte[] resp;
            try {
                resp = fabric.handle(mad.clone(), to, port);
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(new MadTransportException("fabric failed: " + e, e));
            }
            if (resp != null && resp.length == 256 && tidOf(resp) == tid) {
                return CompletableFuture.completedFuture(resp);
            }
        }
        return CompletableFuture.failedFuture(new MadTimeoutException("no response to TID 0x" + Long.toHexString(tid)
                + " after " + (Math.max(0, retries) + 1) + " attempts"));
    }

    @Override
    public void send(byte[] mad, MadAddress to) {
        if (!closed) {
            fabric.handle(mad.clone(), to, port);
        }
    }

    @Override
    public void onUnsolicited(Consumer<ReceivedMad> handler) {
        this.unsolicited = handler == null ? m -> { } : handler;
    }

    /** The fabric hands an unsolicited MAD (a trap, a request to this port's SM) to the attached client. */
    public void deliver(byte[] mad, MadAddress from) {
        if (!closed) {
            unsolicited.accept(new ReceivedMad(Arrays.copyOf(mad, mad.length), from));
        }
    }

    @Override
    public void close() {
        closed = true;
    }

    private static long tidOf(byte[] mad) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (mad[TID_OFFSET + i] & 0xff);
        }
        return v;
    }
}
