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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * A {@link MadTransport} that is a client of a running ibsim in remote mode ({@code ibsim -r}), attached at one
 * simulated port the way libumad2sim attaches OpenSM or infiniband-diags. The wire protocol is described in
 * {@link IbsimWire}.
 *
 * <p>Threads: one receiver thread reads the data socket; a timer thread runs timeouts and retries; responses
 * complete their futures on virtual threads (so a dependent stage may block, even on this transport); the
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

    private final InetAddress server;
    private final int basePort;
    private final DatagramSocket ctl;
    private final DatagramChannel data;
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

    /** One request in flight. Its mutable state is guarded by the object itself. */
    private final class Pending {
        final long key;
        final long callerTid;
        final byte[] datagram;
        final long timeoutNanos;
        final CompletableFuture<byte[]> future = new CompletableFuture<>();
        int attemptsLeft;
        int attempt;
        ScheduledFuture<?> timeout;

        Pending(long key, long callerTid, byte[] datagram, Duration timeout, int retries) {
            this.key = key;
            this.callerTid = callerTid;
            this.datagram = datagram;
            this.timeoutNanos = timeout.toNanos();
            this.attemptsLeft = retries + 1;
        }
    }

    private IbsimClient(InetAddress server, int basePort, DatagramSocket ctl, DatagramChannel data, int clientId,
                        String attachedNode, byte[] nodeInfo, byte[] portInfo, int[] pkeys) {
        this.server = server;
        this.basePort = basePort;
        this.ctl = ctl;
        this.data = data;
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
        if (simHost != null && simHost.length() > IbsimWire.MAX_NODEID) {
            throw new IllegalArgumentException("SIM_HOST longer than " + IbsimWire.MAX_NODEID + " characters: "
                    + simHost);
        }
        InetAddress server;
        try {
            server = InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new MadTransportException("unknown ibsim host " + host, e);
        }
        // Bind where the server can reach us: loopback for a local server, every interface otherwise.
        InetAddress local = server.isLoopbackAddress() ? server : null;
        DatagramSocket ctl = null;
        DatagramChannel data = null;
        try {
            ctl = new DatagramSocket(new InetSocketAddress(local, 0));
            ctl.connect(server, port);
            data = DatagramChannel.open();
            data.bind(new InetSocketAddress(local, 0));
            int dataPort = ((InetSocketAddress) data.getLocalAddress()).getPort();

            byte[] info = IbsimWire.encodeClientInfo(new IbsimWire.ClientInfo(dataPort, 0, sm,
                    simHost == null ? "" : simHost));
            IbsimWire.Ctl reply = connectCtl(ctl, info, host, port, connectTimeout);
            if (reply.type() != IbsimWire.TYPE_CONNECT) {
                throw new MadTransportException("ibsim at " + host + ":" + port + " refused the connection"
                        + (simHost == null || simHost.isEmpty() ? "" : " at node \"" + simHost + "\"")
                        + " (unknown node, no free client slot, or an SM already attached there)");
            }
            IbsimWire.ClientInfo granted = IbsimWire.decodeClientInfo(reply.data());
            int id = granted.id();
            if (id < 0 || id >= IbsimWire.MAX_CLIENTS) {
                throw new MadTransportException("ibsim granted an impossible client slot " + id);
            }
            data.connect(new InetSocketAddress(server, port + 1 + id));
            IbsimClient c;
            try {
                byte[] ni = ctlExchange(ctl, id, IbsimWire.TYPE_GET_NODEINFO, new byte[0]);
                byte[] pi = ctlExchange(ctl, id, IbsimWire.TYPE_GET_PORTINFO, new byte[] {0});
                byte[] pk = ctlExchange(ctl, id, IbsimWire.TYPE_GET_PKEYS, new byte[0]);
                int[] pkeys = new int[IbsimWire.CTL_DATA_SIZE / 2];
                for (int i = 0; i < pkeys.length; i++) {
                    pkeys[i] = ((pk[2 * i] & 0xff) << 8) | (pk[2 * i + 1] & 0xff);
                }
                c = new IbsimClient(server, port, ctl, data, id, granted.nodeId(), ni, pi, pkeys);
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
            closeQuietly(ctl, data);
            throw new MadTransportException("cannot talk to ibsim at " + host + ":" + port + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            closeQuietly(ctl, data);
            throw e;
        }
    }

    /**
     * Attaches at the ibsim named by the environment, as libumad2sim does: {@code IBSIM_SERVER_NAME} (default
     * 127.0.0.1) and {@code IBSIM_SERVER_PORT} (default 7070); {@code simHost} {@code null} falls back to
     * {@code SIM_HOST}.
     */
    public static IbsimClient fromEnvironment(String simHost, boolean sm) {
        return fromEnvironment(System.getenv(), simHost, sm);
    }

    static IbsimClient fromEnvironment(Map<String, String> env, String simHost, boolean sm) {
        Target t = target(env, simHost);
        return connect(t.host(), t.port(), t.simHost(), sm);
    }

    /** Where {@link #fromEnvironment} connects, given an environment. */
    record Target(String host, int port, String simHost) {
    }

    static Target target(Map<String, String> env, String simHost) {
        String host = env.get("IBSIM_SERVER_NAME");
        if (host == null || host.isBlank()) {
            host = "127.0.0.1";
        }
        String p = env.get("IBSIM_SERVER_PORT");
        int port = IbsimWire.DEFAULT_PORT;
        if (p != null && !p.isBlank()) {
            try {
                port = Integer.parseInt(p.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("IBSIM_SERVER_PORT is not a port number: " + p, e);
            }
        }
        String node = simHost != null ? simHost : env.get("SIM_HOST");
        return new Target(host.trim(), port, node == null || node.isEmpty() ? null : node);
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
        Pending p = new Pending(key, callerTid, IbsimWire.encodeRequest(header(to, copy), copy), timeout, retries);
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
            data.write(ByteBuffer.wrap(datagram));
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
        closeQuietly(ctl, data);
        receiver.interrupt();
        try {
            receiver.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        timer.shutdownNow();
        delivery.shutdown();
        MadTransportException gone = new MadTransportException("ibsim client closed");
        List<Pending> left = new ArrayList<>(pending.values());
        pending.clear();
        for (Pending p : left) {
            synchronized (p) {
                if (p.timeout != null) {
                    p.timeout.cancel(false);
                }
            }
            p.future.completeExceptionally(gone);
        }
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

    /** The server's control address; MADs go to its port + 1 + {@link #clientId()}. */
    public InetSocketAddress serverAddress() {
        return new InetSocketAddress(server, basePort);
    }

    /** Fetches the port's PortInfo again (the LID and SM LID change when an SM sweeps) and returns the new view. */
    public LocalPort refreshLocalPort() {
        checkOpen();
        portInfo = ctlExchange(ctl, clientId, IbsimWire.TYPE_GET_PORTINFO, new byte[] {0});
        localPort = buildLocalPort();
        return localPort;
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
            data.write(ByteBuffer.wrap(p.datagram));
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
        ByteBuffer buf = ByteBuffer.allocate(2048);
        while (!closed.get()) {
            buf.clear();
            try {
                data.receive(buf);
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
            buf.flip();
            try {
                dispatch(buf.array(), buf.limit());
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
    private static IbsimWire.Ctl connectCtl(DatagramSocket ctl, byte[] info, String host, int port,
                                            Duration connectTimeout) throws IOException {
        long deadline = System.nanoTime() + connectTimeout.toNanos();
        byte[] msg = IbsimWire.encodeCtl(0, IbsimWire.TYPE_CONNECT, info);
        while (true) {
            try {
                return exchange(ctl, msg, IbsimWire.TYPE_CONNECT, CTL_TIMEOUT.multipliedBy(2));
            } catch (PortUnreachableException e) {
                if (System.nanoTime() > deadline) {
                    throw new MadTransportException("no ibsim listening at " + host + ":" + port);
                }
                try {
                    Thread.sleep(50);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new MadTransportException("interrupted while connecting to ibsim");
                }
            } catch (SocketTimeoutException e) {
                throw new MadTransportException("ibsim at " + host + ":" + port + " did not answer the connect");
            }
        }
    }

    /** A control request after connect: its reply data, or {@link MadTransportException}. */
    private static byte[] ctlExchange(DatagramSocket ctl, int clientId, int type, byte[] data) {
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
    private static IbsimWire.Ctl exchange(DatagramSocket ctl, byte[] msg, int type, Duration timeout)
            throws IOException {
        synchronized (ctl) {
            ctl.send(new DatagramPacket(msg, msg.length));
            long deadline = System.nanoTime() + timeout.toNanos();
            byte[] buf = new byte[512];
            while (true) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    throw new SocketTimeoutException("control reply timeout");
                }
                ctl.setSoTimeout((int) Math.min(Integer.MAX_VALUE, left));
                DatagramPacket p = new DatagramPacket(buf, buf.length);
                ctl.receive(p);
                IbsimWire.Ctl reply;
                try {
                    reply = IbsimWire.decodeCtl(buf, p.getLength());
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

    private static void bestEffortDisconnect(DatagramSocket ctl, int clientId) {
        try {
            exchange(ctl, IbsimWire.encodeCtl(clientId, IbsimWire.TYPE_DISCONNECT, new byte[0]),
                    IbsimWire.TYPE_DISCONNECT, Duration.ofMillis(500));
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.DEBUG, "disconnect from ibsim: {0}", e.toString());
        }
    }

    private static void closeQuietly(DatagramSocket ctl, DatagramChannel data) {
        if (ctl != null) {
            ctl.close();
        }
        if (data != null) {
            try {
                data.close();
            } catch (IOException e) {
                LOG.log(Level.DEBUG, "closing the data socket: {0}", e.toString());
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
