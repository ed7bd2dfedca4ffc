package org.ibtwin.transport;

import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * A {@link MadTransport} over Linux's user_mad interface: {@code /dev/infiniband/umadN} of one HCA port, found in
 * sysfs ({@link UmadSysfs}), through the C library ({@link UmadLibc}); so under {@code LD_PRELOAD=libumad2sim.so}
 * the same calls reach an ibsim.
 *
 * <p>Agents: one per (QP, management class, class version) the MADs sent use, registered with
 * {@code IB_USER_MAD_REGISTER_AGENT} when first needed (SMI 0x01 and directed-route SMI 0x81 on QP0; SA 0x03,
 * PerfMgt 0x04 and the rest on QP1), and unregistered on close. As an SM ({@link #open} with {@code sm}) the SMI, DR
 * SMI and SA agents are registered at once with the request methods an SM and SA answer, and the port's
 * {@code /dev/infiniband/issmN} is held open (which sets IsSM) from {@link #setIsSm}. RMPP is left to user space
 * (rmpp_version 0): segments arrive as they come, as through ibsim.
 *
 * <p>Requests: each attempt is written with the kernel's {@code timeout_ms} set to the attempt's timeout and no
 * kernel retries; retries are made here, as libibmad makes them: on the kernel's ETIMEDOUT status for the MAD, or
 * when nothing at all came a little after the timeout (a simulator may drop a MAD silently). The kernel puts its
 * agent's id in the top 32 bits of a request's TID, so responses are matched by the low 32 bits and handed back
 * with the TID the caller sent.
 *
 * <p>Threads: one receiver polls the device (100 ms at a time, so that close stops it) and reads; a timer runs
 * timeouts; responses complete on virtual threads; unsolicited MADs are delivered on one thread in arrival order.
 */
public final class UmadTransport implements MadTransport {
    private static final System.Logger LOG = System.getLogger(UmadTransport.class.getName());
    private static final int POLL_MILLIS = 100;
    /** How long after the kernel's timeout a silent attempt counts as lost here. */
    private static final long GRACE_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    private static final int BUF_SIZE = UmadAbi.PKEY_HDR_SIZE + 2048;

    /** The methods an SM's SMI agents take unsolicited: Get, Set, Trap, TrapRepress (SMInfo from other SMs). */
    private static final int[] SM_SMI_METHODS = {0x01, 0x02, 0x05, 0x07};
    /** The methods an SA takes: Get, Set, Report, GetTable, GetTraceTable, GetMulti, Delete. */
    private static final int[] SA_METHODS = {0x01, 0x02, 0x06, 0x12, 0x13, 0x14, 0x15};

    private final UmadLibc libc;
    private final UmadSysfs sysfs;
    private final UmadSysfs.Port port;
    private final int fd;
    private final boolean sm;
    private final Map<Integer, Integer> agents = new ConcurrentHashMap<>();
    private final Object writeLock = new Object();
    private final ConcurrentHashMap<Long, Pending> pending = new ConcurrentHashMap<>();
    private final AtomicLong tidCounter = new AtomicLong(System.nanoTime() & 0xffff_0000L);
    private final AtomicBoolean closed = new AtomicBoolean();
    private final ScheduledThreadPoolExecutor timer;
    private final ExecutorService completer = Executors.newVirtualThreadPerTaskExecutor();
    private final ExecutorService delivery;
    private final Thread receiver;
    private volatile Consumer<ReceivedMad> unsolicited;
    private volatile int issmFd = -1;
    /** The header layout this file speaks: {@link UmadAbi#HDR_SIZE}, or {@link UmadAbi#PKEY_HDR_SIZE}. */
    private volatile int hdrSize = UmadAbi.HDR_SIZE;
    /** The P_Key index GMPs (QP1) go out at, from {@link #usePkey}; -1: the address's own (0). */
    private volatile int gmpPkeyIndex = -1;

    /** One request in flight, sent as the message; sentAt is guarded by the object, as the rest. */
    private static final class Pending extends PendingRequest {
        final byte[] message;
        long sentAt;

        Pending(long callerTid, byte[] message, Duration timeout, int retries) {
            super(callerTid, timeout, retries);
            this.message = message;
        }
    }

    private UmadTransport(UmadLibc libc, UmadSysfs sysfs, UmadSysfs.Port port, int fd, boolean sm) {
        this.libc = libc;
        this.sysfs = sysfs;
        this.port = port;
        this.fd = fd;
        this.sm = sm;
        this.timer = new ScheduledThreadPoolExecutor(1, daemon("umad-timer-" + port.umad()));
        this.timer.setRemoveOnCancelPolicy(true);
        this.delivery = Executors.newSingleThreadExecutor(daemon("umad-unsolicited-" + port.umad()));
        this.receiver = new Thread(this::receiveLoop, "umad-rx-" + port.umad());
        this.receiver.setDaemon(true);
    }

    /**
     * Opens the umad device of {@code ca} port {@code port} (null: libibumad's choice, the first CA and its first
     * active port), as an SM and SA when {@code sm}.
     *
     * @throws IllegalArgumentException one line, when there is no such CA or port
     * @throws MadTransportException    one line, when the device cannot be opened or an agent registered
     */
    public static UmadTransport open(String ca, Integer port, boolean sm) {
        UmadLibc libc;
        try {
            libc = Umad.libc();
        } catch (MadTransportException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        return open(libc, ca, port, sm);
    }

    /** {@link #open(String, Integer, boolean)} through {@code libc}. */
    static UmadTransport open(UmadLibc libc, String ca, Integer port, boolean sm) {
        UmadSysfs sysfs = new UmadSysfs(libc);
        UmadSysfs.Port p;
        int fd;
        try {
            p = sysfs.find(ca, port);
            String abi = libc.readFile(sysfs.madClassDir() + "/abi_version");
            if (abi != null && UmadSysfs.number(abi.strip()) != UmadAbi.ABI_VERSION) {
                throw new IllegalArgumentException(sysfs.madClassDir() + "/abi_version: user_mad ABI version "
                        + abi.strip() + " (ibtwin speaks " + UmadAbi.ABI_VERSION + ")");
            }
            fd = libc.open(p.device(), UmadLibc.O_RDWR);
        } catch (UmadLibc.CallFailed e) {
            // a device that cannot be opened is the user's to fix: one line, as for a bad argument
            throw new IllegalArgumentException(e.getMessage()
                    + (e.errno() == UmadLibc.EACCES ? " (the umad devices need root or the rdma group)" : ""), e);
        }
        UmadTransport t = new UmadTransport(libc, sysfs, p, fd, sm);
        t.hdrSize = headerSize(libc, fd);
        try {
            if (sm) {
                t.register(0, 0x01, 1, SM_SMI_METHODS);
                t.register(0, 0x81, 1, SM_SMI_METHODS);
                t.register(1, 0x03, 2, SA_METHODS);
            }
        } catch (UmadLibc.CallFailed | RuntimeException e) {
            t.closeQuietly();
            throw e instanceof MadTransportException m ? m
                    : new MadTransportException(p.device() + ": " + e.getMessage(), e);
        }
        t.receiver.start();
        LOG.log(Level.DEBUG, "umad: {0} port {1} on {2}", p.ca(), p.port(), p.device());
        return t;
    }

    /**
     * The header layout of a freshly opened file: IB_USER_MAD_ENABLE_PKEY (before any agent is registered) asks for
     * the one with the P_Key index; where libibumad is loaded (libumad2sim, which answers the ioctl with success)
     * its umad_size() is the layout; a kernel that refuses the ioctl keeps the old one.
     */
    static int headerSize(UmadLibc libc, int fd) {
        try {
            libc.ioctl(fd, UmadAbi.ENABLE_PKEY);
        } catch (UmadLibc.CallFailed e) {
            return UmadAbi.HDR_SIZE;
        }
        Integer sim = libc.umadSize();
        return sim == null || sim == UmadAbi.PKEY_HDR_SIZE ? UmadAbi.PKEY_HDR_SIZE : UmadAbi.HDR_SIZE;
    }

    /** The header layout in use (56: no P_Key index; 64: with it). */
    public int headerSize() {
        return hdrSize;
    }

    /**
     * Sends GMPs (QP1: SA, PerfMgt, ...) at the index of {@code pkey} in this port's P_Key table (sysfs
     * {@code ports/N/pkeys/}, its 15 low bits matched, a full member preferred); SMPs stay on QP0, which takes none.
     *
     * @return the index
     * @throws IllegalArgumentException one line, when the table does not hold it, or the header cannot carry it
     */
    public int usePkey(int pkey) {
        int index;
        try {
            index = sysfs.pkeyIndex(port, pkey);
        } catch (UmadLibc.CallFailed e) {
            throw new IllegalArgumentException(sysfs.dir(port) + "/pkeys: " + e.getMessage(), e);
        }
        if (index < 0) {
            throw new IllegalArgumentException(String.format("P_Key 0x%04x is not in %s port %d's P_Key table (%s)",
                    pkey, port.ca(), port.port(), sysfs.dir(port) + "/pkeys"));
        }
        if (index != 0 && hdrSize != UmadAbi.PKEY_HDR_SIZE) {
            throw new IllegalArgumentException(String.format("P_Key 0x%04x is at index %d of %s port %d's table, but "
                    + "%s takes no P_Key index (its header is the %d-byte one)", pkey, index, port.ca(), port.port(),
                    port.device(), hdrSize));
        }
        gmpPkeyIndex = index;
        return index;
    }

    /** Where {@code mad} goes: {@code to}, at the P_Key index of {@link #usePkey} for a GMP. */
    private MadAddress address(byte[] mad, MadAddress to) {
        int cls = mad[1] & 0xff;
        int index = gmpPkeyIndex;
        return index < 0 || cls == 0x01 || cls == 0x81 ? to
                : new MadAddress(to.lid(), to.qpn(), to.qkey(), to.sl(), index);
    }

    /** The port this transport serves. */
    public UmadSysfs.Port port() {
        return port;
    }

    /** The sysfs it reads. */
    public UmadSysfs sysfs() {
        return sysfs;
    }

    @Override
    public LocalPort localPort() {
        try {
            return sysfs.localPort(port, issmFd >= 0);
        } catch (UmadLibc.CallFailed e) {
            throw new MadTransportException(port.dir() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public long nextTid() {
        return tidCounter.incrementAndGet() & 0xffff_ffffL;
    }

    /** Whether the port's capability mask (sysfs cap_mask) has IsSM: an SM runs at this port. */
    public boolean portHasSm() {
        try {
            return (UmadSysfs.number(sysfs.attribute(port, "cap_mask")) & 0x2) != 0;
        } catch (UmadLibc.CallFailed e) {
            throw new MadTransportException(port.dir() + ": " + e.getMessage(), e);
        }
    }

    /** Sets IsSM on the port (holding its issm device open), or clears it (closing it). */
    public void setIsSm(boolean on) {
        synchronized (writeLock) {
            if (on && issmFd < 0) {
                try {
                    issmFd = libc.open(port.issm(), UmadLibc.O_RDWR);
                } catch (UmadLibc.CallFailed e) {
                    throw new MadTransportException(e.getMessage(), e);
                }
            } else if (!on && issmFd >= 0) {
                libc.close(issmFd);
                issmFd = -1;
            }
        }
    }

    @Override
    public CompletableFuture<byte[]> request(byte[] mad, MadAddress to, Duration timeout, int retries) {
        Objects.requireNonNull(to, "to");
        if (mad.length != UmadAbi.MAD_SIZE) {
            throw new IllegalArgumentException("MAD of " + mad.length + " bytes, expected " + UmadAbi.MAD_SIZE);
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive: " + timeout);
        }
        if (retries < 0) {
            throw new IllegalArgumentException("retries must be >= 0: " + retries);
        }
        if (closed.get()) {
            return CompletableFuture.failedFuture(new MadTransportException("umad transport is closed"));
        }
        int agent;
        try {
            agent = agentFor(mad);
        } catch (MadTransportException e) {
            return CompletableFuture.failedFuture(e);
        }
        long callerTid = tid(mad);
        int millis = (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
        byte[] message = UmadAbi.encode(UmadAbi.Header.send(agent, address(mad, to), millis), mad, hdrSize);
        Pending p = new Pending(callerTid, message, timeout, retries);
        long key = callerTid & 0xffff_ffffL;
        if (pending.putIfAbsent(key, p) != null) {
            return CompletableFuture.failedFuture(new MadTransportException(
                    String.format("TID 0x%016x is already in flight", callerTid)));
        }
        synchronized (p) {
            attempt(key, p);
        }
        return p.future;
    }

    @Override
    public void send(byte[] mad, MadAddress to) {
        Objects.requireNonNull(to, "to");
        if (closed.get()) {
            throw new MadTransportException("umad transport is closed");
        }
        try {
            write(UmadAbi.encode(UmadAbi.Header.send(agentFor(mad), address(mad, to), 0), mad, hdrSize));
        } catch (UmadLibc.CallFailed e) {
            throw new MadTransportException(port.device() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void onUnsolicited(Consumer<ReceivedMad> handler) {
        this.unsolicited = handler;
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            receiver.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        timer.shutdownNow();
        delivery.shutdown();
        closeQuietly();
        PendingRequest.failAll(pending, new MadTransportException("umad transport closed"));
        completer.shutdown();
    }

    /** Unregisters the agents and closes the devices. */
    private void closeQuietly() {
        for (int id : agents.values()) {
            try {
                libc.ioctl(fd, UmadAbi.UNREGISTER_AGENT, UmadAbi.word(id));
            } catch (UmadLibc.CallFailed | RuntimeException e) {
                LOG.log(Level.DEBUG, "umad: unregistering agent {0}: {1}", id, e.getMessage());
            }
        }
        agents.clear();
        if (issmFd >= 0) {
            libc.close(issmFd);
            issmFd = -1;
        }
        libc.close(fd);
    }

    // ---- internals ----

    /** The agent for {@code mad}'s QP, class and class version, registered when first needed. */
    private int agentFor(byte[] mad) {
        int cls = mad[1] & 0xff;
        int version = mad[2] & 0xff;
        int qp = cls == 0x01 || cls == 0x81 ? 0 : 1;
        Integer id = agents.get(key(qp, cls, version));
        if (id != null) {
            return id;
        }
        synchronized (agents) {
            id = agents.get(key(qp, cls, version));
            if (id != null) {
                return id;
            }
            try {
                return register(qp, cls, version);
            } catch (UmadLibc.CallFailed e) {
                throw new MadTransportException(String.format("%s: registering an agent for class 0x%02x "
                        + "version %d: %s", port.device(), cls, version, e.getMessage()), e);
            }
        }
    }

    private int register(int qp, int cls, int version, int... methods) throws UmadLibc.CallFailed {
        byte[] req = UmadAbi.registerRequest(qp, cls, version, methods);
        libc.ioctl(fd, UmadAbi.REGISTER_AGENT, req);
        int id = UmadAbi.agentId(req);
        agents.put(key(qp, cls, version), id);
        LOG.log(Level.DEBUG, "umad: agent {0} for class 0x{1} version {2}", id, Integer.toHexString(cls), version);
        return id;
    }

    private static int key(int qp, int cls, int version) {
        return qp << 16 | cls << 8 | version;
    }

    private void write(byte[] message) throws UmadLibc.CallFailed {
        synchronized (writeLock) {
            int n = libc.write(fd, message, message.length);
            if (n != message.length) {
                throw new UmadLibc.CallFailed("write: " + n + " of " + message.length + " bytes", 0);
            }
        }
    }

    /** Sends one attempt of {@code p} and arms its timeout. Called holding {@code p}. */
    private void attempt(long key, Pending p) {
        p.attemptsLeft--;
        p.attempt++;
        p.sentAt = System.nanoTime();
        try {
            write(p.message);
        } catch (UmadLibc.CallFailed | RuntimeException e) {
            fail(key, p, new MadTransportException(port.device() + ": " + e.getMessage(), e));
            return;
        }
        int sent = p.attempt;
        try {
            p.timeout = timer.schedule(() -> timedOut(key, p, sent), p.timeoutNanos + GRACE_NANOS,
                    TimeUnit.NANOSECONDS);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            fail(key, p, new MadTransportException("umad transport closed"));
        }
    }

    private void timedOut(long key, Pending p, int attempt) {
        synchronized (p) {
            if (p.future.isDone() || p.attempt != attempt || pending.get(key) != p) {
                return;
            }
            retryOrFail(key, p, "no response within " + Duration.ofNanos(p.timeoutNanos).toMillis() + " ms");
        }
    }

    /** One attempt failed: send the next, or give up. Called holding {@code p}. */
    private void retryOrFail(long key, Pending p, String why) {
        if (p.timeout != null) {
            p.timeout.cancel(false);
        }
        if (p.attemptsLeft > 0 && !closed.get()) {
            attempt(key, p);
        } else {
            fail(key, p, new MadTimeoutException(String.format("TID 0x%016x: %s, after %d attempt%s", p.callerTid,
                    why, p.attempt, p.attempt == 1 ? "" : "s")));
        }
    }

    private void fail(long key, Pending p, MadTransportException e) {
        if (pending.remove(key, p)) {
            if (p.timeout != null) {
                p.timeout.cancel(false);
            }
            p.future.completeExceptionally(e);
        }
    }

    private void receiveLoop() {
        byte[] buf = new byte[BUF_SIZE];
        while (!closed.get()) {
            int n;
            try {
                n = libc.read(fd, buf, POLL_MILLIS);
            } catch (UmadLibc.CallFailed e) {
                if (closed.get()) {
                    break;
                }
                LOG.log(Level.DEBUG, "umad read: {0}", e.getMessage());
                try {
                    Thread.sleep(POLL_MILLIS);
                } catch (InterruptedException ie) {
                    break;
                }
                continue;
            }
            if (n <= 0) {
                continue;
            }
            try {
                dispatch(buf, n);
            } catch (RuntimeException e) {
                LOG.log(Level.DEBUG, "umad: dropped a MAD: {0}", e.toString());
            }
        }
    }

    private void dispatch(byte[] buf, int n) {
        int hdr = hdrSize;
        if (n < hdr + 24) {
            LOG.log(Level.DEBUG, "umad: short read of {0} bytes dropped", n);
            return;
        }
        UmadAbi.Header h = UmadAbi.decode(buf, hdr);
        int length = n - hdr;
        // the header's length counts the MAD as it came (and the header); past it the buffer holds nothing of it
        if (h.length() > hdr + 24 && h.length() < n) {
            length = h.length() - hdr;
            n = h.length();
        }
        int cls = buf[hdr + 1] & 0xff;
        // an SA response at its own length (OpenSM's, through libumad2sim) keeps it: its records are counted by it
        byte[] mad = cls == 0x03 && length >= 56 && length < UmadAbi.MAD_SIZE
                ? Arrays.copyOfRange(buf, hdr, n)
                : Arrays.copyOf(Arrays.copyOfRange(buf, hdr, n), Math.max(UmadAbi.MAD_SIZE, length));
        long key = tid(mad) & 0xffff_ffffL;
        if (h.status() != 0) {   // the kernel gives a send back with its status (ETIMEDOUT: no response came)
            Pending p = pending.get(key);
            if (p == null) {
                return;
            }
            synchronized (p) {
                if (p.future.isDone() || System.nanoTime() - p.sentAt < p.timeoutNanos / 2) {
                    if (h.status() != UmadLibc.ETIMEDOUT && !p.future.isDone()) {
                        retryOrFail(key, p, "send failed with status " + h.status());
                    }
                    return;   // a late ETIMEDOUT of an attempt already retried
                }
                retryOrFail(key, p, "no response within " + Duration.ofNanos(p.timeoutNanos).toMillis() + " ms"
                        + (h.status() == UmadLibc.ETIMEDOUT ? " (ETIMEDOUT)" : " (status " + h.status() + ")"));
            }
            return;
        }
        boolean response = (mad[3] & 0x80) != 0;
        if (response) {
            Pending p = pending.remove(key);
            if (p == null) {
                LOG.log(Level.DEBUG, "umad: late or stray response TID 0x{0} dropped", Long.toHexString(tid(mad)));
                return;
            }
            synchronized (p) {
                if (p.timeout != null) {
                    p.timeout.cancel(false);
                }
            }
            ByteBuffer.wrap(mad).putLong(8, p.callerTid);
            try {
                completer.execute(() -> p.future.complete(mad));
            } catch (java.util.concurrent.RejectedExecutionException e) {
                p.future.complete(mad);
            }
            return;
        }
        Consumer<ReceivedMad> handler = unsolicited;
        if (handler == null) {
            LOG.log(Level.DEBUG, "umad: unsolicited MAD (class 0x{0}) dropped: no handler",
                    Integer.toHexString(cls));
            return;
        }
        ReceivedMad r = new ReceivedMad(mad, h.from());
        try {
            delivery.execute(() -> {
                try {
                    handler.accept(r);
                } catch (RuntimeException e) {
                    LOG.log(Level.WARNING, "unsolicited MAD handler failed", e);
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // closing
        }
    }

    private static long tid(byte[] mad) {
        return ByteBuffer.wrap(mad).getLong(8);
    }

    /** Whether this transport was opened as an SM (its SMI and SA agents take requests). */
    public boolean isSm() {
        return sm;
    }

    private static ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    @Override
    public String toString() {
        return "umad " + port.ca() + " port " + port.port() + " (" + port.device() + ")";
    }
}
