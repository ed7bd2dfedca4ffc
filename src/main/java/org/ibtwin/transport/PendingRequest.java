package org.ibtwin.transport;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;

/**
 * One request in flight on a transport that retries on a timer (ibsim, umad). Its mutable state is guarded by the
 * object itself.
 */
class PendingRequest {
    final long callerTid;
    final long timeoutNanos;
    final CompletableFuture<byte[]> future = new CompletableFuture<>();
    int attemptsLeft;
    int attempt;
    ScheduledFuture<?> timeout;

    PendingRequest(long callerTid, Duration timeout, int retries) {
        this.callerTid = callerTid;
        this.timeoutNanos = timeout.toNanos();
        this.attemptsLeft = retries + 1;
    }

    /** On close: every request still in flight is taken out, its timer cancelled and its future failed with gone. */
    static void failAll(Map<Long, ? extends PendingRequest> pending, MadTransportException gone) {
        List<PendingRequest> left = new ArrayList<>(pending.values());
        pending.clear();
        for (PendingRequest p : left) {
            synchronized (p) {
                if (p.timeout != null) {
                    p.timeout.cancel(false);
                }
            }
            p.future.completeExceptionally(gone);
        }
    }
}
