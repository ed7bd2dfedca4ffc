package org.ibtwin.sim;

import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.ibtwin.mad.MadHeaders;
import org.ibtwin.mad.SmpAttributes;
import org.ibtwin.transport.LocalPort;
import org.ibtwin.transport.MadAddress;
import org.ibtwin.transport.MadTimeoutException;
import org.ibtwin.transport.MadTransport;
import org.ibtwin.transport.MadTransportException;
import org.ibtwin.transport.ReceivedMad;

/**
 * A {@link MadTransport} over an {@link Attachment} of the twin, in the same JVM.
 *
 * <p>The twin answers synchronously: by the time {@link Attachment#send} returns, an SMA's or PMA's answer has come
 * back through the sink, or the twin has said the MAD was lost ({@link MadSink#undeliverable}). So a request the
 * agents answer completes before {@link #request} returns, on the caller's thread, and a lost one is retried at
 * once and fails with {@link MadTimeoutException} after {@code retries + 1} attempts, without waiting for any
 * timeout: time here is the fabric's, not the wall clock's. Only a request handed to another client (an SM's
 * SMInfo, the SA) waits for real, {@code timeout} an attempt.
 *
 * <p>Responses matching no request in flight are dropped; everything else nobody asked for (traps, requests to this
 * port's SM or SA) goes to the {@link #onUnsolicited} handler, on the twin's thread: it must not block.
 */
public final class TwinTransport implements MadTransport {
    private static final Executor ASYNC = ForkJoinPool.commonPool();

    private final Attachment attachment;
    private final String caName;
    private final AtomicLong tids = new AtomicLong(1);
    private final Map<Long, Pending> pending = new ConcurrentHashMap<>();
    private volatile Consumer<ReceivedMad> unsolicited = m -> { };
    private volatile boolean closed;

    /** One request in flight; its fields are guarded by its monitor. */
    private static final class Pending {
        final long tid;
        final byte[] mad;
        final MadAddress to;
        final Duration timeout;
        final int retries;
        final CompletableFuture<byte[]> future = new CompletableFuture<>();
        int attempts;
        boolean inSend;
        boolean lost;
        byte[] response;

        Pending(long tid, byte[] mad, MadAddress to, Duration timeout, int retries) {
            this.tid = tid;
            this.mad = mad;
            this.to = to;
            this.timeout = timeout;
            this.retries = Math.max(0, retries);
        }
    }

    /** A transport at {@code attachment}, which it owns: its sink is set here and it is detached on close. */
    public TwinTransport(Attachment attachment) {
        this(attachment, "ibtwin0");
    }

    /** As {@link #TwinTransport(Attachment)}, naming the CA as umad would ("mlx5_0"). */
    public TwinTransport(Attachment attachment, String caName) {
        this.attachment = attachment;
        this.caName = caName;
        attachment.onReceive(new MadSink() {
            @Override
            public void receive(byte[] mad, MadAddress from) {
                received(mad, from);
            }

            @Override
            public void undeliverable(byte[] mad, MadAddress to) {
                lost(mad);
            }
        });
    }

    /** Attaches at {@code nodeName}'s default port and makes a transport there. */
    public static TwinTransport attach(Twin twin, String nodeName) {
        return new TwinTransport(twin.attach(nodeName, 0));
    }

    public Attachment attachment() {
        return attachment;
    }

    @Override
    public LocalPort localPort() {
        byte[] pi = attachment.portInfo();
        var l = SmpAttributes.PORT_INFO;
        boolean sm = (l.get(pi, 0, "CapMask") & TwinState.CAP_IS_SM) != 0;
        return new LocalPort(caName, attachment.portNumber(), attachment.nodeGuid(), attachment.portGuid(),
                (int) l.get(pi, 0, "Lid"), (int) l.get(pi, 0, "LMC"), (int) l.get(pi, 0, "SMLid"),
                (int) l.get(pi, 0, "LinkState"), sm);
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
        if (mad.length != MadHeaders.MAD_SIZE) {
            return CompletableFuture.failedFuture(new MadTransportException("a MAD is 256 bytes, not " + mad.length));
        }
        long tid = MadHeaders.tid(mad);
        Pending p = new Pending(tid, mad.clone(), to, timeout, retries);
        if (pending.putIfAbsent(tid, p) != null) {
            return CompletableFuture.failedFuture(new MadTransportException("TID 0x" + Long.toHexString(tid)
                    + " is already in flight"));
        }
        attempt(p);
        return p.future;
    }

    /** Sends one attempt; loops on attempts the twin reports lost while sending. */
    private void attempt(Pending p) {
        while (true) {
            int n;
            synchronized (p) {
                if (p.future.isDone()) {
                    return;
                }
                n = ++p.attempts;
                p.inSend = true;
                p.lost = false;
                p.response = null;
            }
            try {
                attachment.send(p.mad, p.to);
            } catch (RuntimeException e) {
                synchronized (p) {
                    p.inSend = false;
                }
                finish(p, null, new MadTransportException("twin failed: " + e, e));
                return;
            }
            byte[] r;
            boolean lost;
            synchronized (p) {
                p.inSend = false;
                r = p.response;
                lost = p.lost;
            }
            if (r != null) {
                finish(p, r, null);
                return;
            }
            if (!lost) {
                scheduleTimeout(p, n);     // handed to another client, or queued behind the MAD being processed
                return;
            }
            if (n > p.retries) {
                finish(p, null, timeout(p));
                return;
            }
        }
    }

    private void scheduleTimeout(Pending p, int attempt) {
        long nanos = Math.max(1, p.timeout.toNanos());
        CompletableFuture.delayedExecutor(nanos, TimeUnit.NANOSECONDS).execute(() -> {
            synchronized (p) {
                if (p.future.isDone() || p.attempts != attempt) {
                    return;
                }
            }
            if (attempt > p.retries) {
                finish(p, null, timeout(p));
            } else {
                attempt(p);
            }
        });
    }

    private static MadTimeoutException timeout(Pending p) {
        return new MadTimeoutException("no response to TID 0x" + Long.toHexString(p.tid) + " after "
                + (p.retries + 1) + " attempts");
    }

    private void finish(Pending p, byte[] response, RuntimeException failure) {
        pending.remove(p.tid, p);
        if (failure != null) {
            p.future.completeExceptionally(failure);
        } else {
            p.future.complete(response);
        }
    }

    /** From the twin's thread: a response, or something unsolicited. */
    private void received(byte[] mad, MadAddress from) {
        if ((mad[3] & 0x80) == 0) {
            unsolicited.accept(new ReceivedMad(mad, from));
            return;
        }
        // the sender, while still in send, completes it once the twin lets go
        Pending p = afterSend(mad, q -> q.response = mad);
        if (p == null) {
            return;
        }
        // an answer from another client, arriving later: complete off the twin's thread
        ASYNC.execute(() -> finish(p, mad, null));
    }

    /**
     * The request of the MAD's TID when its sender has returned; null when there is none, or when the sender is
     * still in send (then tell, under the request's lock, leaves the news for the sender).
     */
    private Pending afterSend(byte[] mad, Consumer<Pending> tell) {
        Pending p = pending.get(MadHeaders.tid(mad));
        if (p == null) {
            return null;
        }
        synchronized (p) {
            if (p.inSend) {
                tell.accept(p);
                return null;
            }
        }
        return p;
    }

    /** From the twin's thread: a MAD this port sent was lost. */
    private void lost(byte[] mad) {
        if ((mad[3] & 0x80) != 0) {
            return;
        }
        Pending p = afterSend(mad, q -> q.lost = true);
        if (p == null) {
            return;
        }
        // a queued attempt, lost after its sender returned: retry or give up off the twin's thread
        ASYNC.execute(() -> {
            int n;
            synchronized (p) {
                if (p.future.isDone()) {
                    return;
                }
                n = p.attempts;
            }
            if (n > p.retries) {
                finish(p, null, timeout(p));
            } else {
                attempt(p);
            }
        });
    }

    @Override
    public void send(byte[] mad, MadAddress to) {
        if (!closed) {
            attachment.send(Arrays.copyOf(mad, mad.length), to);
        }
    }

    @Override
    public void onUnsolicited(Consumer<ReceivedMad> handler) {
        this.unsolicited = handler == null ? m -> { } : handler;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        attachment.detach();
        for (Pending p : pending.values()) {
            finish(p, null, new MadTransportException("transport closed"));
        }
    }
}
