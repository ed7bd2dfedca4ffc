package org.ibtwin.transport;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.PortUnreachableException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * A {@link MadTransport} that is a client of a running ibsim, attached at one simulated port the way libumad2sim
 * attaches OpenSM or infiniband-diags: in remote mode ({@code ibsim -r}, UDP; {@link #connect}) or in local mode
 * ({@code ibsim}'s default, unix sockets in the abstract namespace; {@link #connectLocal}, JDK 22+ on Linux). The
 * wire protocol is described in {@link IbsimWire}.
 *
 * <p>Threads: one receiver thread reads the data socket; a timer thread runs timeouts and retries; responses
 * complete their futures on virtual threads (so a dependent stage may block, even on this transport), those of
 * {@link #requestNonBlocking} on the receiver thread itself; the
 * unsolicited handler runs on one delivery thread, in arrival order.
 *
 * <p>TIDs: the server puts the client's slot number in the top 16 bits of every request's TID. {@link #nextTid()}
 * hands out TIDs already carrying it; a caller's own TID works too, the response is given back with the TID the
 * caller sent. Two requests in flight may not share the low 48 bits of their TIDs.
 *
 * <p>A MAD the server could not deliver comes back at once with status 110; that counts as one attempt that timed
 * out (the next attempt is sent at once), so a request to a missing port fails with {@link MadTimeoutException}
 * after {@code retries + 1} quick round trips, where a MAD the server drops silently takes the full timeouts.
 */
public final class IbsimClient implements MadTransport {
    private static final System.Logger LOG = System.getLogger(IbsimClient.class.getName());
    private static final Duration CTL_TIMEOUT = Duration.ofSeconds(1);
    private static final int CTL_ATTEMPTS = 3;
    /** How long {@link #connect(String, int, String, boolean)} keeps trying while nothing listens yet. */
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);

    private final Sockets sockets;
    private final Ctl ctl;
    private final int clientId;
    private final String attachedNode;
    private final byte[] nodeInfo;
    private final int[] pkeys;
    private volatile byte[] portInfo;
    private volatile LocalPort localPort;
    private volatile boolean isSm;

    private final ConcurrentHashMap<Long, Pending> pending = new ConcurrentHashMap<>();
    private final AtomicLong tidCounter = new AtomicLong();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final ScheduledThreadPoolExecutor timer;
    private final ExecutorService completer = Executors.newVirtualThreadPerTaskExecutor();
    private final ExecutorService delivery;
    private final Thread receiver;
    private volatile Consumer<ReceivedMad> unsolicited;

    /** One request in flight, under its key in {@link #pending}, sent as the datagram. */
    private static final class Pending extends PendingRequest {
        final long key;
        final byte[] datagram;
        /** Completed on the receiver thread itself ({@link #requestNonBlocking}). */
        final boolean inline;

        Pending(long key, long callerTid, byte[] datagram, Duration timeout, int retries, boolean inline) {
            super(callerTid, timeout, retries);
            this.key = key;
            this.datagram = datagram;
            this.inline = inline;
        }
    }

    private IbsimClient(Sockets sockets, int clientId, String attachedNode, byte[] nodeInfo, byte[] portInfo,
                        int[] pkeys) {
        this.sockets = sockets;
        this.ctl = sockets.ctl();
        this.clientId = clientId;
        this.attachedNode = attachedNode;
        this.nodeInfo = nodeInfo;
        this.portInfo = portInfo;
        this.pkeys = pkeys;
        this.isSm = false;
        this.localPort = buildLocalPort();
        this.timer = new ScheduledThreadPoolExecutor(1, daemon("ibsim-timer-" + clientId));
        this.timer.setRemoveOnCancelPolicy(true);
        this.delivery = Executors.newSingleThreadExecutor(daemon("ibsim-unsolicited-" + clientId));
        this.receiver = new Thread(this::receiveLoop, "ibsim-rx-" + clientId);
        this.receiver.setDaemon(true);
    }

    /**
     * Attaches at the ibsim listening at {@code host:port} (remote mode), at node {@code simHost} (a net file node id
     * or node description; {@code null} or empty: the server's default node), as the port's SM when {@code sm}.
     * Waits up to {@link #DEFAULT_CONNECT_TIMEOUT} for a server that is still starting.
     *
     * @throws MadTransportException when the server cannot be reached or refuses (unknown node, no free slot, an SM
     *                               already on that node)
     */
    public static IbsimClient connect(String host, int port, String simHost, boolean sm) {
        return connect(host, port, simHost, sm, DEFAULT_CONNECT_TIMEOUT);
    }

    /** {@link #connect(String, int, String, boolean)} with how long to keep trying while nothing listens yet. */
    public static IbsimClient connect(String host, int port, String simHost, boolean sm, Duration connectTimeout) {
        Objects.requireNonNull(host, "host");
        if (port < 1 || port > 0xffff - IbsimWire.MAX_CLIENTS) {
            throw new IllegalArgumentException("ibsim port out of range: " + port);
        }
        checkSimHost(simHost);
        InetAddress server;
        try {
            server = InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new MadTransportException("unknown ibsim host " + host, e);
        }
        Sockets s;
        try {
            s = Udp.open(host, server, port);
        } catch (IOException e) {
            throw new MadTransportException("cannot talk to ibsim at " + host + ":" + port + ": " + e.getMessage(), e);
        }
        return attach(s, simHost, sm, connectTimeout);
    }

    /**
     * Attaches at the ibsim in local mode ({@code ibsim} without {@code -r}, or {@code ibtwin sim --local}) whose
     * sockets are named {@code basename} ({@code IBSIM_SOCKNAME}, {@code sim} by default), through unix datagram
     * sockets in the abstract namespace, as libumad2sim does without {@code IBSIM_SERVER_NAME}. Needs a JDK 22 or
     * later on Linux (elsewhere {@link MadTransportException} says so); otherwise as
     * {@link #connect(String, int, String, boolean, Duration)}.
     */
    public static IbsimClient connectLocal(String basename, String simHost, boolean sm, Duration connectTimeout) {
        Objects.requireNonNull(basename, "basename");
        if (basename.isEmpty() || !LocalAddress.isName(basename + ":in" + Integer.MAX_VALUE)) {
            throw new IllegalArgumentException("not an ibsim socket name: \"" + basename + "\"");
        }
        checkSimHost(simHost);
        Sockets s;
        try {
            s = Local.open(basename);
        } catch (IOException | UnsupportedOperationException e) {
            throw new MadTransportException("cannot talk to ibsim at @" + basename + ": " + e.getMessage(), e);
        }
        return attach(s, simHost, sm, connectTimeout);
    }

    private static void checkSimHost(String simHost) {
        if (simHost != null && simHost.length() > IbsimWire.MAX_NODEID) {
            throw new IllegalArgumentException("SIM_HOST longer than " + IbsimWire.MAX_NODEID + " characters: "
                    + simHost);
        }
    }

    /** CONNECT through {@code s}, then what a client asks first: the node, its port, its P_Keys. */
    private static IbsimClient attach(Sockets s, String simHost, boolean sm, Duration connectTimeout) {
        try {
            byte[] info = IbsimWire.encodeClientInfo(new IbsimWire.ClientInfo(s.clientToken(), 0, sm,
                    simHost == null ? "" : simHost));
            Ctl ctl = s.ctl();
            IbsimWire.Ctl reply = connectCtl(ctl, info, s.where(), connectTimeout);
            if (reply.type() != IbsimWire.TYPE_CONNECT) {
                throw new MadTransportException("ibsim at " + s.where() + " refused the connection"
                        + (simHost == null || simHost.isEmpty() ? "" : " at node \"" + simHost + "\"")
                        + " (unknown node, no free client slot, or an SM already attached there)");
            }
            IbsimWire.ClientInfo granted = IbsimWire.decodeClientInfo(reply.data());
            int id = granted.id();
            if (id < 0 || id >= IbsimWire.MAX_CLIENTS) {
                throw new MadTransportException("ibsim granted an impossible client slot " + id);
            }
            s.connectData(id);
            IbsimClient c;
            try {
                byte[] ni = ctlExchange(ctl, id, IbsimWire.TYPE_GET_NODEINFO, new byte[0]);
                byte[] pi = ctlExchange(ctl, id, IbsimWire.TYPE_GET_PORTINFO, new byte[] {0});
                byte[] pk = ctlExchange(ctl, id, IbsimWire.TYPE_GET_PKEYS, new byte[0]);
                int[] pkeys = new int[IbsimWire.CTL_DATA_SIZE / 2];
                for (int i = 0; i < pkeys.length; i++) {
                    pkeys[i] = ((pk[2 * i] & 0xff) << 8) | (pk[2 * i + 1] & 0xff);
                }
                c = new IbsimClient(s, id, granted.nodeId(), ni, pi, pkeys);
            } catch (RuntimeException e) {
                bestEffortDisconnect(ctl, id);
                throw e;
            }
            c.receiver.start();
            if (sm) {
                try {
                    c.setIsSm(true);
                } catch (RuntimeException e) {
                    c.close();
                    throw e;
                }
            }
            LOG.log(Level.DEBUG, "attached as ibsim client {0} at node \"{1}\"", id, granted.nodeId());
            return c;
        } catch (IOException e) {
            s.close();
            throw new MadTransportException("cannot talk to ibsim at " + s.where() + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            s.close();
            throw e;
        }
    }

    /**
     * Attaches at the ibsim named by the environment, as libumad2sim does: {@code IBSIM_SERVER_NAME} (default
     * 127.0.0.1) and {@code IBSIM_SERVER_PORT} (default 7070); or, when neither is set and {@code IBSIM_SOCKNAME}
     * is, the ibsim in local mode of that name ({@link #connectLocal}). {@code simHost} {@code null} falls back to
     * {@code SIM_HOST}.
     */
    public static IbsimClient fromEnvironment(String simHost, boolean sm) {
        return fromEnvironment(System.getenv(), simHost, sm);
    }

    static IbsimClient fromEnvironment(Map<String, String> env, String simHost, boolean sm) {
        Target t = target(env, simHost);
        return t.sockname() != null ? connectLocal(t.sockname(), t.simHost(), sm, DEFAULT_CONNECT_TIMEOUT)
                : connect(t.host(), t.port(), t.simHost(), sm);
    }

    /** Where {@link #fromEnvironment} connects, given an environment: UDP host and port, or a local-mode name. */
    record Target(String host, int port, String simHost, String sockname) {
        Target(String host, int port, String simHost) {
            this(host, port, simHost, null);
        }
    }

    static Target target(Map<String, String> env, String simHost) {
        String host = env.get("IBSIM_SERVER_NAME");
        String p = env.get("IBSIM_SERVER_PORT");
        String sock = env.get("IBSIM_SOCKNAME");
        String node = simHost != null ? simHost : env.get("SIM_HOST");
        node = node == null || node.isEmpty() ? null : node;
        if (isBlank(host) && isBlank(p) && !isBlank(sock)) {
            return new Target(null, 0, node, sock.trim());
        }
        if (isBlank(host)) {
            host = "127.0.0.1";
        }
        int port = IbsimWire.DEFAULT_PORT;
        if (!isBlank(p)) {
            try {
                port = Integer.parseInt(p.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("IBSIM_SERVER_PORT is not a port number: " + p, e);
            }
        }
        return new Target(host.trim(), port, node);
    }

    private static boolean isBlank(String s) {
        return s == null || s.isBlank();
    }

    // ---- MadTransport ----

    @Override
    public LocalPort localPort() {
        return localPort;
    }

    @Override
    public long nextTid() {
        return IbsimWire.serverTid(tidCounter.incrementAndGet(), clientId);
    }

    @Override
    public CompletableFuture<byte[]> request(byte[] mad, MadAddress to, Duration timeout, int retries) {
        return request(mad, to, timeout, retries, false);
    }

    /** {@link #request}, its response completing the future on the receiver thread (no hand-off). */
    @Override
    public CompletableFuture<byte[]> requestNonBlocking(byte[] mad, MadAddress to, Duration timeout, int retries) {
        return request(mad, to, timeout, retries, true);
    }

    private CompletableFuture<byte[]> request(byte[] mad, MadAddress to, Duration timeout, int retries,
                                              boolean inline) {
        Objects.requireNonNull(to, "to");
        if (mad.length != IbsimWire.MAD_SIZE) {
            throw new IllegalArgumentException("MAD of " + mad.length + " bytes, expected " + IbsimWire.MAD_SIZE);
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive: " + timeout);
        }
        if (retries < 0) {
            throw new IllegalArgumentException("retries must be >= 0: " + retries);
        }
        if (closed.get()) {
            return CompletableFuture.failedFuture(new MadTransportException("ibsim client is closed"));
        }
        byte[] copy = mad.clone();
        long callerTid = IbsimWire.tid(copy);
        long key = IbsimWire.serverTid(callerTid, clientId);
        IbsimWire.setTid(copy, key);
        Pending p = new Pending(key, callerTid, IbsimWire.encodeRequest(header(to, copy), copy), timeout, retries,
                inline);
        if (pending.putIfAbsent(key, p) != null) {
            return CompletableFuture.failedFuture(new MadTransportException(
                    String.format("TID 0x%016x is already in flight", callerTid)));
        }
        synchronized (p) {
            attempt(p);
        }
        return p.future;
    }

    @Override
    public void send(byte[] mad, MadAddress to) {
        Objects.requireNonNull(to, "to");
        if (closed.get()) {
            throw new MadTransportException("ibsim client is closed");
        }
        byte[] datagram = IbsimWire.encodeRequest(header(to, mad), mad);
        try {
            sockets.write(datagram);
        } catch (IOException e) {
            throw new MadTransportException("cannot send to ibsim: " + e.getMessage(), e);
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
            if (isSm) {
                // DISCONNECT leaves IsSM in the capability mask: clear it first.
                ctlExchange(ctl, clientId, IbsimWire.TYPE_SET_ISSM, IbsimWire.hostIntBytes(0));
            }
        } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, "clearing IsSM on close failed: {0}", e.getMessage());
        }
        bestEffortDisconnect(ctl, clientId);
        sockets.close();
        receiver.interrupt();
        try {
            receiver.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        timer.shutdownNow();
        delivery.shutdown();
        PendingRequest.failAll(pending, new MadTransportException("ibsim client closed"));
        completer.shutdown();
    }

    // ---- what else a client of ibsim knows ----

    /** The client slot the server gave this client (0..9). */
    public int clientId() {
        return clientId;
    }

    /** The id of the node attached at, as the server names it. */
    public String attachedNode() {
        return attachedNode;
    }

    /** The attached node's NodeInfo as the control channel gives it (64 bytes, SMP layout). */
    public byte[] nodeInfo() {
        return nodeInfo.clone();
    }

    /** The attached port's PortInfo, as last fetched (64 bytes, SMP layout). */
    public byte[] portInfo() {
        return portInfo.clone();
    }

    /** The attached port's P_Key table as the server gave it at connect (32 entries, zeros unused). */
    public int[] pkeys() {
        return pkeys.clone();
    }

    /**
     * The server's control socket: a UDP address (MADs go to its port + 1 + {@link #clientId()}), or in local mode
     * its abstract name ({@code <basename>:ctl}, a {@link LocalAddress}).
     */
    public java.net.SocketAddress serverAddress() {
        return sockets.server();
    }

    /** Fetches the port's PortInfo again (the LID and SM LID change when an SM sweeps) and returns the new view. */
    public LocalPort refreshLocalPort() {
        checkOpen();
        portInfo = ctlExchange(ctl, clientId, IbsimWire.TYPE_GET_PORTINFO, new byte[] {0});
        localPort = buildLocalPort();
        return localPort;
    }

    /**
     * Whether the attached port's PortInfo, as the server last sent it ({@link #refreshLocalPort}), has the IsSM
     * capability bit: an SM (another client's, or the server's own) runs at this port.
     */
    public boolean portHasSm() {
        int capMask = ByteBuffer.wrap(portInfo).getInt(20);
        return (capMask & 0x2) != 0;
    }

    /** Sets or clears IsSM on the attached port; with it set, requests to QP0/QP1 of the port come to this client. */
    public void setIsSm(boolean on) {
        checkOpen();
        ctlExchange(ctl, clientId, IbsimWire.TYPE_SET_ISSM, IbsimWire.hostIntBytes(on ? 1 : 0));
        isSm = on;
        refreshLocalPort();
    }

    // ---- internals ----

    private LocalPort buildLocalPort() {
        byte[] pi = portInfo;
        long nodeGuid = ByteBuffer.wrap(nodeInfo).getLong(12);
        boolean isSwitch = (nodeInfo[2] & 0xff) == 2;
        int portNum = pi[28] & 0xff;
        // ibsim's rule, as its SMA reports it: a switch's ports share the node GUID, a CA's port N is node GUID + N.
        long portGuid = isSwitch ? nodeGuid : nodeGuid + portNum;
        int lid = ((pi[16] & 0xff) << 8) | (pi[17] & 0xff);
        int smLid = ((pi[18] & 0xff) << 8) | (pi[19] & 0xff);
        int state = pi[32] & 0x0f;
        int lmc = pi[34] & 0x07;
        return new LocalPort(attachedNode, portNum, nodeGuid, portGuid, lid, lmc, smLid, state, isSm);
    }

    private IbsimWire.Header header(MadAddress to, byte[] mad) {
        boolean directed = to.lid() == MadAddress.PERMISSIVE_LID;
        int cls = IbsimWire.mgmtClass(mad);
        int sqp = cls == 0x01 || cls == 0x81 ? 0 : 1;
        // slid 0 asks ibsim to fill in our LID; directed route keeps the permissive LID both ways.
        return new IbsimWire.Header(to.lid(), directed ? MadAddress.PERMISSIVE_LID : 0, to.qpn(), sqp, 0,
                IbsimWire.madLength(mad));
    }

    /** Sends one attempt of {@code p} and arms its timeout. Called holding {@code p}. */
    private void attempt(Pending p) {
        p.attemptsLeft--;
        p.attempt++;
        try {
            sockets.write(p.datagram);
        } catch (IOException e) {
            fail(p, new MadTransportException("cannot send to ibsim: " + e.getMessage(), e));
            return;
        }
        int sent = p.attempt;
        try {
            p.timeout = timer.schedule(() -> timedOut(p, sent), p.timeoutNanos, TimeUnit.NANOSECONDS);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            fail(p, new MadTransportException("ibsim client closed"));
        }
    }

    private void timedOut(Pending p, int attempt) {
        synchronized (p) {
            if (p.future.isDone() || p.attempt != attempt || pending.get(p.key) != p) {
                return;
            }
            retryOrFail(p, "no response within " + Duration.ofNanos(p.timeoutNanos).toMillis() + " ms");
        }
    }

    /** One attempt failed: send the next, or give up. Called holding {@code p}. */
    private void retryOrFail(Pending p, String why) {
        if (p.attemptsLeft > 0 && !closed.get()) {
            LOG.log(Level.DEBUG, "TID 0x{0}: {1}, retrying", Long.toHexString(p.callerTid), why);
            attempt(p);
        } else {
            fail(p, new MadTimeoutException(String.format("TID 0x%016x: %s, after %d attempt%s", p.callerTid, why,
                    p.attempt, p.attempt == 1 ? "" : "s")));
        }
    }

    private void fail(Pending p, MadTransportException e) {
        if (pending.remove(p.key, p)) {
            if (p.timeout != null) {
                p.timeout.cancel(false);
            }
            p.future.completeExceptionally(e);
        }
    }

    private void receiveLoop() {
        byte[] buf = new byte[2048];
        while (!closed.get()) {
            int n;
            try {
                n = sockets.receive(buf);
            } catch (ClosedChannelException e) {
                break;
            } catch (PortUnreachableException e) {
                LOG.log(Level.DEBUG, "ibsim data port unreachable (server gone?)");
                continue;
            } catch (IOException e) {
                if (closed.get()) {
                    break;
                }
                LOG.log(Level.DEBUG, "ibsim receive failed: {0}", e.toString());
                continue;
            }
            try {
                dispatch(buf, n);
            } catch (RuntimeException e) {
                LOG.log(Level.DEBUG, "dropped a datagram from ibsim: {0}", e.toString());
            }
        }
    }

    private void dispatch(byte[] buf, int length) {
        IbsimWire.Header h;
        try {
            h = IbsimWire.decodeHeader(buf, length);
        } catch (IllegalArgumentException e) {
            LOG.log(Level.DEBUG, "dropped a datagram from ibsim: {0}", e.getMessage());
            return;
        }
        byte[] whole = IbsimWire.mad(buf);
        // an SA response sent at its length (OpenSM through libumad2sim): its records are counted by it
        byte[] mad = IbsimWire.mgmtClass(whole) == 0x03 && h.length() >= 56 && h.length() < IbsimWire.MAD_SIZE
                ? Arrays.copyOf(whole, (int) h.length()) : whole;
        long tid = IbsimWire.tid(mad);
        if (h.status() != 0) {
            Pending p = pending.get(tid);
            if (p == null) {
                LOG.log(Level.DEBUG, "ibsim could not deliver TID 0x{0} (status {1}), nobody waits for it",
                        Long.toHexString(tid), h.status());
                return;
            }
            synchronized (p) {
                if (p.future.isDone()) {
                    return;
                }
                if (p.timeout != null) {
                    p.timeout.cancel(false);
                }
                retryOrFail(p, "ibsim could not deliver the MAD (status " + h.status()
                        + (h.status() == IbsimWire.STATUS_TIMEOUT ? ", ETIMEDOUT" : "") + ")");
            }
            return;
        }
        if (IbsimWire.isResponse(mad)) {
            Pending p = pending.remove(tid);
            if (p == null) {
                LOG.log(Level.DEBUG, "late or stray response TID 0x{0} dropped", Long.toHexString(tid));
                return;
            }
            synchronized (p) {
                if (p.timeout != null) {
                    p.timeout.cancel(false);
                }
            }
            IbsimWire.setTid(mad, p.callerTid);
            if (p.inline) {
                p.future.complete(mad);
                return;
            }
            try {
                completer.execute(() -> p.future.complete(mad));
            } catch (java.util.concurrent.RejectedExecutionException e) {
                p.future.complete(mad);
            }
            return;
        }
        Consumer<ReceivedMad> handler = unsolicited;
        if (handler == null) {
            LOG.log(Level.DEBUG, "unsolicited MAD (class 0x{0}) dropped: no handler",
                    Integer.toHexString(IbsimWire.mgmtClass(mad)));
            return;
        }
        int sqp = h.sqp() & 0xffffff;
        ReceivedMad r = new ReceivedMad(mad, new MadAddress(h.slid(), sqp, sqp == 0 ? 0 : MadAddress.GSI_QKEY, 0, 0));
        delivery.execute(() -> {
            try {
                handler.accept(r);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "unsolicited MAD handler failed", e);
            }
        });
    }

    private void checkOpen() {
        if (closed.get()) {
            throw new MadTransportException("ibsim client is closed");
        }
    }

    /** CONNECT: retried while nothing listens (the server is starting), never after a silent timeout. */
    private static IbsimWire.Ctl connectCtl(Ctl ctl, byte[] info, String where, Duration connectTimeout)
            throws IOException {
        long deadline = System.nanoTime() + connectTimeout.toNanos();
        byte[] msg = IbsimWire.encodeCtl(0, IbsimWire.TYPE_CONNECT, info);
        while (true) {
            try {
                return exchange(ctl, msg, IbsimWire.TYPE_CONNECT, CTL_TIMEOUT.multipliedBy(2));
            } catch (PortUnreachableException e) {
                if (System.nanoTime() > deadline) {
                    throw new MadTransportException("no ibsim listening at " + where);
                }
                try {
                    Thread.sleep(50);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new MadTransportException("interrupted while connecting to ibsim");
                }
            } catch (SocketTimeoutException e) {
                throw new MadTransportException("ibsim at " + where + " did not answer the connect");
            }
        }
    }

    /** A control request after connect: its reply data, or {@link MadTransportException}. */
    private static byte[] ctlExchange(Ctl ctl, int clientId, int type, byte[] data) {
        byte[] msg = IbsimWire.encodeCtl(clientId, type, data);
        synchronized (ctl) {
            for (int i = 1; ; i++) {
                try {
                    IbsimWire.Ctl reply = exchange(ctl, msg, type, CTL_TIMEOUT);
                    if (reply.type() != type) {
                        throw new MadTransportException("ibsim refused control request " + type);
                    }
                    return reply.data();
                } catch (SocketTimeoutException e) {
                    if (i >= CTL_ATTEMPTS) {
                        throw new MadTransportException("ibsim did not answer control request " + type);
                    }
                } catch (IOException e) {
                    throw new MadTransportException("ibsim control request " + type + " failed: " + e.getMessage(),
                            e);
                }
            }
        }
    }

    /** Sends one control message and reads replies until one of {@code type} (or ERROR) comes. */
    private static IbsimWire.Ctl exchange(Ctl ctl, byte[] msg, int type, Duration timeout) throws IOException {
        synchronized (ctl) {
            ctl.send(msg);
            long deadline = System.nanoTime() + timeout.toNanos();
            byte[] buf = new byte[512];
            while (true) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new SocketTimeoutException("control reply timeout");
                }
                int n = ctl.receive(buf, Duration.ofNanos(left));
                IbsimWire.Ctl reply;
                try {
                    reply = IbsimWire.decodeCtl(buf, n);
                } catch (IllegalArgumentException e) {
                    LOG.log(Level.DEBUG, "dropped a control datagram: {0}", e.getMessage());
                    continue;
                }
                if (reply.type() == type || reply.type() == IbsimWire.TYPE_ERROR) {
                    return reply;
                }
                LOG.log(Level.DEBUG, "dropped a stale control reply of type {0}", reply.type());
            }
        }
    }

    private static void bestEffortDisconnect(Ctl ctl, int clientId) {
        try {
            exchange(ctl, IbsimWire.encodeCtl(clientId, IbsimWire.TYPE_DISCONNECT, new byte[0]),
                    IbsimWire.TYPE_DISCONNECT, Duration.ofMillis(500));
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.DEBUG, "disconnect from ibsim: {0}", e.toString());
        }
    }

    // ---- the sockets of either mode ----

    /** The control socket: sends to the server's, and receives its replies. */
    private interface Ctl {
        void send(byte[] msg) throws IOException;

        /** One datagram into {@code buf}: its length; {@link SocketTimeoutException} when none comes in time. */
        int receive(byte[] buf, Duration timeout) throws IOException;
    }

    /** A client's two sockets, in remote (UDP) or local (unix) mode. */
    private interface Sockets {
        /** What CONNECT names: the data socket's UDP port, or in local mode the number in its name. */
        int clientToken();

        Ctl ctl();

        /** Points the data socket at the server's socket of slot {@code id}. */
        void connectData(int id) throws IOException;

        /** Sends one MAD datagram; any thread. */
        void write(byte[] datagram) throws IOException;

        /** One datagram from the server into {@code buf}: its length. The receiver thread only; blocks. */
        int receive(byte[] buf) throws IOException;

        /** Where the server is, for messages: {@code host:port} or {@code @basename}. */
        String where();

        java.net.SocketAddress server();

        /** Closes both sockets (waking the receiver); never throws. */
        void close();
    }

    /** Remote mode: a UDP control socket connected to the server's, and a data channel. */
    private static final class Udp implements Sockets, Ctl {
        private final String host;
        private final InetAddress server;
        private final int port;
        private final DatagramSocket ctl;
        private final DatagramChannel data;

        private Udp(String host, InetAddress server, int port, DatagramSocket ctl, DatagramChannel data) {
            this.host = host;
            this.server = server;
            this.port = port;
            this.ctl = ctl;
            this.data = data;
        }

        /** Sockets towards {@code server}'s port, which the user named {@code host} (for messages). */
        static Udp open(String host, InetAddress server, int port) throws IOException {
            // Bind where the server can reach us: loopback for a local server, every interface otherwise.
            InetAddress local = server.isLoopbackAddress() ? server : null;
            DatagramSocket ctl = new DatagramSocket(new InetSocketAddress(local, 0));
            DatagramChannel data = null;
            try {
                ctl.connect(server, port);
                data = DatagramChannel.open();
                data.bind(new InetSocketAddress(local, 0));
                return new Udp(host, server, port, ctl, data);
            } catch (IOException | RuntimeException e) {
                ctl.close();
                if (data != null) {
                    data.close();
                }
                throw e;
            }
        }

        @Override
        public int clientToken() {
            try {
                return ((InetSocketAddress) data.getLocalAddress()).getPort();
            } catch (IOException e) {
                throw new MadTransportException("the data socket has no port: " + e.getMessage(), e);
            }
        }

        @Override
        public Ctl ctl() {
            return this;
        }

        @Override
        public void send(byte[] msg) throws IOException {
            ctl.send(new DatagramPacket(msg, msg.length));
        }

        @Override
        public int receive(byte[] buf, Duration timeout) throws IOException {
            ctl.setSoTimeout((int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis())));
            DatagramPacket p = new DatagramPacket(buf, buf.length);
            ctl.receive(p);
            return p.getLength();
        }

        @Override
        public void connectData(int id) throws IOException {
            data.connect(new InetSocketAddress(server, port + 1 + id));
        }

        @Override
        public void write(byte[] datagram) throws IOException {
            data.write(ByteBuffer.wrap(datagram));
        }

        @Override
        public int receive(byte[] buf) throws IOException {
            ByteBuffer b = ByteBuffer.wrap(buf);
            data.receive(b);
            return b.position();
        }

        @Override
        public String where() {
            return host + ":" + port;
        }

        @Override
        public java.net.SocketAddress server() {
            return new InetSocketAddress(server, port);
        }

        @Override
        public void close() {
            ctl.close();
            try {
                data.close();
            } catch (IOException e) {
                LOG.log(Level.DEBUG, "closing the data socket: {0}", e.toString());
            }
        }
    }

    /**
     * Local mode: unix datagram sockets in the abstract namespace, {@code <basename>:ctl<n>} and
     * {@code <basename>:in<n>}, talking to the server's {@code <basename>:ctl} and {@code <basename>:out<slot>}.
     * libumad2sim takes its pid for n; a JVM may hold several clients, so n is the pid with a count of this JVM's
     * clients above the 22 bits a Linux pid takes.
     */
    private static final class Local implements Sockets, Ctl {
        private static final java.util.concurrent.atomic.AtomicInteger CLIENTS =
                new java.util.concurrent.atomic.AtomicInteger();
        private static final int PID_BITS = 22;
        private static final Duration FULL_WAIT = Duration.ofSeconds(2);

        private final String basename;
        private final int token;
        private final SlotSocket ctl;
        private final SlotSocket data;
        private final ByteBuffer ctlIn = ByteBuffer.allocateDirect(512);
        private final ByteBuffer ctlOut = ByteBuffer.allocateDirect(IbsimWire.CTL_SIZE);
        private final ByteBuffer in = ByteBuffer.allocateDirect(2048);
        private final ByteBuffer out = ByteBuffer.allocateDirect(IbsimWire.REQUEST_SIZE);

        private Local(String basename, int token, SlotSocket ctl, SlotSocket data) {
            this.basename = basename;
            this.token = token;
            this.ctl = ctl;
            this.data = data;
        }

        static Local open(String basename) throws IOException {
            long pid = ProcessHandle.current().pid() & ((1 << PID_BITS) - 1);
            while (true) {
                int n = CLIENTS.getAndIncrement() & 0x1ff;
                int token = (int) ((long) n << PID_BITS | pid);
                if (token <= 0) {
                    continue;   // pid 0 with count 0: no client names itself 0
                }
                SlotSocket ctl = SlotSocket.openLocal();
                SlotSocket data = null;
                try {
                    ctl.bind(new LocalAddress(basename + ":ctl" + token));
                    data = SlotSocket.openLocal();
                    data.bind(new LocalAddress(basename + ":in" + token));
                    return new Local(basename, token, ctl, data);
                } catch (java.net.BindException e) {
                    // the name is held (another client of this process, or a process with that pid): the next
                    closeQuietly(ctl);
                    closeQuietly(data);
                } catch (IOException | RuntimeException e) {
                    closeQuietly(ctl);
                    closeQuietly(data);
                    throw e;
                }
            }
        }

        @Override
        public int clientToken() {
            return token;
        }

        @Override
        public Ctl ctl() {
            return this;
        }

        @Override
        public void send(byte[] msg) throws IOException {
            ctlOut.clear();
            ctlOut.put(msg).flip();
            ctl.send(ctlOut, new LocalAddress(basename + ":ctl"));
        }

        @Override
        public int receive(byte[] buf, Duration timeout) throws IOException {
            ctl.setReceiveTimeout(timeout.isZero() ? Duration.ofNanos(1) : timeout);
            ctlIn.clear();
            ctl.receive(ctlIn);
            ctlIn.flip();
            int n = Math.min(ctlIn.remaining(), buf.length);
            ctlIn.get(buf, 0, n);
            return n;
        }

        @Override
        public void connectData(int id) throws IOException {
            data.connect(new LocalAddress(basename + ":out" + id));
        }

        /**
         * A unix datagram socket queues a few datagrams only (net.unix.max_dgram_qlen, 10 by default): while the
         * server's is full, the write is tried again, as a blocking send would wait, for up to {@link #FULL_WAIT}.
         */
        @Override
        public void write(byte[] datagram) throws IOException {
            synchronized (out) {
                out.clear();
                out.put(datagram).flip();
                long deadline = 0;
                while (data.write(out) == 0) {
                    long now = System.nanoTime();
                    if (deadline == 0) {
                        deadline = now + FULL_WAIT.toNanos();
                    } else if (now > deadline) {
                        throw new IOException("the simulator's socket has stayed full for "
                                + FULL_WAIT.toMillis() + " ms");
                    }
                    java.util.concurrent.locks.LockSupport.parkNanos(20_000);
                }
            }
        }

        @Override
        public int receive(byte[] buf) throws IOException {
            in.clear();
            data.read(in);
            in.flip();
            int n = Math.min(in.remaining(), buf.length);
            in.get(buf, 0, n);
            return n;
        }

        @Override
        public String where() {
            return "@" + basename;
        }

        @Override
        public java.net.SocketAddress server() {
            return new LocalAddress(basename + ":ctl");
        }

        @Override
        public void close() {
            closeQuietly(ctl);
            closeQuietly(data);
        }

        private static void closeQuietly(SlotSocket s) {
            if (s == null) {
                return;
            }
            try {
                s.close();
            } catch (IOException e) {
                LOG.log(Level.DEBUG, "closing a socket: {0}", e.toString());
            }
        }
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }
}
