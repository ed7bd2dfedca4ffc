package org.ibtwin.transport;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;

/**
 * How the SM, the diagnostic tools and doctor reach a fabric: 256-byte MADs out, responses back. Implementations:
 * in-process (the twin), the ibsim client protocol over UDP, and one day umad on real HCAs.
 *
 * <p>Requests are matched to responses by their transaction id (the 64-bit TID at MAD offset 8): a caller takes a
 * fresh one from {@link #nextTid()}. Several requests may be in flight at once; each is retried on timeout.
 */
public interface MadTransport extends AutoCloseable {

    /** The port this transport is attached at. */
    LocalPort localPort();

    /** A transaction id no other request in flight on this transport uses. */
    long nextTid();

    /**
     * Sends a request and completes with the response carrying the same TID, or exceptionally with
     * {@link MadTimeoutException} once {@code retries + 1} attempts of {@code timeout} each went unanswered.
     */
    CompletableFuture<byte[]> request(byte[] mad, MadAddress to, Duration timeout, int retries);

    /**
     * {@link #request}, for a caller whose dependent stages never block (they only hand the answer on, as
     * {@link SmpPipe} does): the transport may complete the future on its own receiving thread rather than hand it
     * to another, one thread wake-up less on every round trip. By default, {@link #request}.
     */
    default CompletableFuture<byte[]> requestNonBlocking(byte[] mad, MadAddress to, Duration timeout, int retries) {
        return request(mad, to, timeout, retries);
    }

    /** {@link #request} and wait: the response, or a {@link MadTimeoutException}. */
    default byte[] call(byte[] mad, MadAddress to, Duration timeout, int retries) {
        try {
            return request(mad, to, timeout, retries).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MadTransportException("interrupted");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof MadTransportException m) {
                throw m;
            }
            throw new MadTransportException(String.valueOf(e.getCause().getMessage()), e.getCause());
        }
    }

    /** Sends without waiting for anything (a response to a request we received, a trap repress). */
    void send(byte[] mad, MadAddress to);

    /** Receives the MADs nobody asked for: traps, and requests when this port is an SM or SA. */
    void onUnsolicited(Consumer<ReceivedMad> handler);

    @Override
    void close();
}
