package org.ibtwin.transport;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Objects;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import org.ibtwin.mad.MadStatus;
import org.ibtwin.mad.Methods;

/**
 * Directed-route SMPs with several in flight, as OpenSM keeps {@code max_wire_smps} (4 by default) outstanding: a
 * sweep is bounded by round trips, not by waiting for each answer in turn.
 *
 * <p>Requests are queued by {@link #get}/{@link #set} and sent by {@link #drain}, which keeps at most
 * {@link #window()} of them on the wire and runs each callback on the draining thread as its answer (or its final
 * timeout) comes back; a callback may queue more requests, and {@code drain} returns once nothing is queued or in
 * flight. The callbacks run on that one thread, so callers need no locks. Retries and timeouts are the
 * transport's: each request is sent up to {@code retries + 1} times, {@code timeout} each.
 *
 * <p>The next queued request goes out as soon as an answer frees its place on the wire, from the thread the answer
 * arrived on ({@link MadTransport#requestNonBlocking}: the transport's receiver), not once the draining thread has
 * woken to run the callback: the round trip is the fabric's and the receiver's, and the callbacks run beside it.
 */
public final class SmpPipe {

    /** What came back for one request. */
    public record Reply(byte[] mad, int status, String failure) {
        /** A GetResp with status 0. */
        public boolean ok() {
            return mad != null && status == MadStatus.OK;
        }

        /** The 64 bytes of attribute data (a copy). */
        public byte[] data() {
            return Arrays.copyOfRange(mad, Smp.DATA, Smp.DATA + Smp.DATA_SIZE);
        }

        /** Why it failed, for a log line: "timeout", "status 0x1c (...)". */
        public String why() {
            if (failure != null) {
                return failure;
            }
            return "status " + MadStatus.describe(status);
        }
    }

    /** Runs on the draining thread with the answer to one request. */
    @FunctionalInterface
    public interface Callback {
        void done(Reply reply);
    }

    private record Request(byte[] path, int method, int attr, long modifier, byte[] data, Callback callback,
                           boolean counted) {
    }

    private record Done(Request request, long seq, byte[] mad, Throwable failure) {
    }

    private final MadTransport transport;
    private final int window;
    private final Duration timeout;
    private final int retries;
    private final LinkedBlockingQueue<Done> done = new LinkedBlockingQueue<>();
    private volatile long mkey;
    private boolean inOrder;
    private long nextSeq;
    private final HashMap<Long, Done> early = new HashMap<>();

    // guarded by lock: the draining thread and the threads answers arrive on both send
    private final Object lock = new Object();
    private final ArrayDeque<Request> queued = new ArrayDeque<>();
    /** Requests on the wire: sent, their answer not yet in. */
    private int inFlight;
    /** Answers in that the draining thread has not yet run the callback of. */
    private int unfinished;
    /** A thread is sending: the others leave the queue to it. */
    private boolean sending;
    private long sendSeq;
    private long sent;
    private final long[] setsByAttr = new long[0x40];

    // counters, touched on the draining thread only
    private long failed;
    private long answered;
    private Runnable tick = () -> { };

    public SmpPipe(MadTransport transport, int window, Duration timeout, int retries) {
        this.transport = Objects.requireNonNull(transport, "transport");
        if (window < 1) {
            throw new IllegalArgumentException("at least one SMP must be allowed in flight, not " + window);
        }
        this.window = window;
        this.timeout = timeout;
        this.retries = retries;
    }

    public int window() {
        return window;
    }

    /** The M_Key put in every SMP (0 by default). */
    public void mkey(long key) {
        this.mkey = key;
    }

    /**
     * Whether callbacks run in the order the requests were sent, whatever order their answers complete in (a
     * transport may complete futures on other threads): what a tool sees of a simulator that answers one request
     * after the other, so that what it finds comes out in the same order every time. Off by default.
     */
    public void answerInOrder(boolean on) {
        this.inOrder = on;
    }

    /** Runs every 1024 answers (progress lines). */
    public void onTick(Runnable r) {
        this.tick = r == null ? () -> { } : r;
    }

    public void get(byte[] path, int attr, long modifier, Callback cb) {
        queue(new Request(path, Methods.GET, attr, modifier, null, cb, true));
    }

    /**
     * A Get whose failure is not counted in {@link #failed()}: a question that may go unanswered without anything
     * being wrong with the subnet (SMInfo to a port whose SM may have died).
     */
    public void probe(byte[] path, int attr, long modifier, Callback cb) {
        queue(new Request(path, Methods.GET, attr, modifier, null, cb, false));
    }

    public void set(byte[] path, int attr, long modifier, byte[] data, Callback cb) {
        queue(new Request(path, Methods.SET, attr, modifier, data.clone(), cb, true));
    }

    private void queue(Request r) {
        synchronized (lock) {
            queued.add(r);
        }
    }

    /** Sends everything queued, and everything the callbacks queue, until nothing is left in flight. */
    public void drain() {
        while (true) {
            pump();
            synchronized (lock) {
                if (inFlight == 0 && unfinished == 0 && queued.isEmpty()) {
                    return;
                }
            }
            Done d;
            try {
                d = done.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new MadTransportException("interrupted while waiting for SMPs");
            }
            if (!inOrder) {
                finish(d);
                continue;
            }
            early.put(d.seq, d);
            while ((d = early.remove(nextSeq)) != null) {
                nextSeq++;
                finish(d);
            }
        }
    }

    /** Runs {@code d}'s callback (on the draining thread). */
    private void finish(Done d) {
        try {
            complete(d);
        } finally {
            synchronized (lock) {
                unfinished--;
            }
        }
    }

    /**
     * Sends queued requests while the window has room, unless another thread is at it (it sends them all; an answer
     * that completes within {@code request}, on the sending thread, lands here and returns at once).
     */
    private void pump() {
        while (true) {
            Request r;
            long seq;
            synchronized (lock) {
                if (sending || inFlight >= window || queued.isEmpty()) {
                    return;
                }
                r = queued.poll();
                seq = sendSeq++;
                inFlight++;
                sent++;
                if (r.method == Methods.SET && r.attr < setsByAttr.length) {
                    setsByAttr[r.attr]++;
                }
                sending = true;
            }
            try {
                send(r, seq);
            } finally {
                synchronized (lock) {
                    sending = false;
                }
            }
        }
    }

    private void send(Request r, long seq) {
        long tid = transport.nextTid();
        byte[] mad = Smp.request(tid, r.method, r.attr, r.modifier, r.path, r.data, mkey);
        try {
            transport.requestNonBlocking(mad, MadAddress.directed(), timeout, retries)
                    .whenComplete((resp, ex) -> answered(new Done(r, seq, resp, ex)));
        } catch (RuntimeException e) {
            answered(new Done(r, seq, null, e));
        }
    }

    /** An answer is in (on whatever thread it arrived): its place on the wire goes to the next queued request. */
    private void answered(Done d) {
        synchronized (lock) {
            inFlight--;
            unfinished++;
        }
        done.add(d);
        pump();
    }

    private void complete(Done d) {
        Reply reply;
        if (d.mad == null) {
            failed += d.request.counted ? 1 : 0;
            Throwable t = d.failure instanceof CompletionException && d.failure.getCause() != null
                    ? d.failure.getCause() : d.failure;
            String why = t instanceof MadTimeoutException ? "timeout (" + (retries + 1) + " attempts of "
                    + timeout.toMillis() + " ms)" : String.valueOf(t == null ? "no answer" : t.getMessage());
            reply = new Reply(null, -1, why);
        } else if (Smp.method(d.mad) != Methods.GET_RESP) {
            failed += d.request.counted ? 1 : 0;
            reply = new Reply(null, -1, "answer with method 0x" + Integer.toHexString(Smp.method(d.mad)));
        } else {
            int st = Smp.status(d.mad);
            if (st != MadStatus.OK && d.request.counted) {
                failed++;
            }
            reply = new Reply(d.mad, st, null);
        }
        if ((++answered & 1023) == 0) {
            tick.run();
        }
        d.request.callback.done(reply);
    }

    /** SMPs sent so far (each request once, whatever the transport's retries). */
    public long sent() {
        synchronized (lock) {
            return sent;
        }
    }

    /** Requests that failed: timed out, or answered with a non-zero status. */
    public long failed() {
        return failed;
    }

    /** SubnSets of attribute {@code attr} sent so far. */
    public long sets(int attr) {
        synchronized (lock) {
            return attr < setsByAttr.length ? setsByAttr[attr] : 0;
        }
    }
}
