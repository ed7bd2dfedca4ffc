package org.ibtwin.sim;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.PortUnreachableException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import org.ibtwin.transport.IbsimWire;
import org.ibtwin.transport.LocalAddress;
import org.ibtwin.transport.MadAddress;
import org.ibtwin.transport.SlotSocket;

/**
 * The server side of ibsim's client protocol in remote (UDP) mode: real programs started with
 * {@code LD_PRELOAD=libumad2sim.so IBSIM_SERVER_NAME=<host> IBSIM_SERVER_PORT=<port>} (and ibtwin's own
 * {@code IbsimClient}) attach to whatever {@link AttachPoint} serves, as they would to {@code ibsim -r -l <port>};
 * or in local mode ({@link #startLocal}), where plain {@code LD_PRELOAD=libumad2sim.so} attaches, as to {@code ibsim}.
 * The datagrams are those of {@link IbsimWire}, whose notes this class follows; what the server itself decides:
 *
 * <h2>Sockets</h2>
 * A control socket at {@code port} and one data socket per client slot at {@code port + 1 .. port + 10}, all bound to
 * the one address given to {@link #start}. CONNECT takes the lowest free slot and connects its data socket to (the
 * connect message's source address, the data port it names); the client then sends its MADs to and receives them
 * from that socket only. Datagrams reaching a slot from anyone else (or a free slot) are dropped.
 *
 * <h2>Control requests</h2>
 * Exactly 80 bytes with the magic, or dropped without a reply; a client id of 10 or more (unless CONNECT) is dropped
 * too, as ibsim does. Every other request gets its 80 bytes back, the data filled as ibsim fills it (the bytes it does
 * not fill stay as sent) and the type echoed, or 0 (ERROR) when refused:
 * <ul>
 * <li>CONNECT: refused when all 10 slots are taken, when {@code SIM_HOST} names no node (ibsim refuses an unknown
 *     node too: it does not fall back to the default node; libumad2sim then exits with "connect failed"), or when the
 *     client asks to be an SM and an SM client already sits on that node. Otherwise the reply carries the slot and
 *     the node's id (at most 31 bytes). Asking for IsSM at connect makes the client an SM client of the slot (a
 *     second SM at the node is refused) but, as in ibsim, sets no capability bit: SET_ISSM does that (libumad2sim
 *     sends it right after connecting when {@code SIM_SET_ISSM} is set, and when OpenSM opens the issm device).
 *     A CONNECT from the very address and data port of a connected client replaces that client, which must have
 *     died (a live one holds its port); unless it is the very request that connected it, from the same control
 *     socket: then the client resent it, having given up waiting for the answer, and is answered again, the same
 *     slot (replacing it would leave the client using a slot the server had freed, and its new one taken).</li>
 * <li>DISCONNECT frees the slot and detaches the attachment, which clears the port's IsSM bit if the client set it
 *     (ibsim's DISCONNECT leaves the bit set; the twin's {@link Attachment#detach} does not). An unknown slot is
 *     answered all the same.</li>
 * <li>GET_PORT, GET_VENDOR, GET_GID, GET_GUID, GET_NODEINFO, GET_PORTINFO, SET_ISSM, GET_PKEYS: as in
 *     {@link IbsimWire}; a request for a slot without a client is refused (ibsim would read freed memory).
 *     GET_PORTINFO always answers for the attach port ({@link Attachment} shows no other port; libumad2sim only
 *     ever asks for port 0, the attach port).</li>
 * <li>Any other type: answered unchanged, with a warning, as ibsim does.</li>
 * </ul>
 *
 * <h2>MADs</h2>
 * From a client: exactly 288 bytes or dropped. A request (R bit clear) gets the client's slot in the top 16 bits of
 * its TID (libumad2sim keeps its agent id in bits 32..47 and matches responses by them; the slot bits come back
 * unchanged in the response), then goes to {@link Attachment#send} addressed to (DLID, DQP, the GSI Q_Key for QPs
 * above 0); the source LID (0 in libumad2sim's requests: "fill it in") is the twin's to know. Checking the MAD
 * (versions, the directed-route header) and dropping trap represses are the twin's business, not the server's.
 * <p>To a client, what the attachment's {@link MadSink} receives: DLID = the client's port LID (0xffff for a
 * directed-route MAD, whose source is the permissive LID), SLID = the sender's LID, DQP = 0 for an SMP class
 * (0x01, 0x81) and 1 otherwise (the QP libumad2sim's agents send from), SQP = the sender's QP, status 0, length 256.
 * libumad2sim reads only SLID (as the umad address LID), SQP, status and the MAD. A MAD the twin could not deliver
 * ({@link MadSink#undeliverable}) goes back to its sender with status 110, as ibsim bounces it.
 *
 * <h2>Clients that vanish</h2>
 * A client that exits without DISCONNECT is noticed, as ibsim notices it, when its data port refuses a datagram
 * (ICMP port unreachable; in local mode, a send to its socket refused): its slot is freed and its attachment detached;
 * the others are not disturbed. A client that is sent nothing would hold its slot for ever that way, so every 2 s,
 * and whenever a CONNECT finds every slot taken, the server also asks the system whether each client's data socket
 * is still there, without sending it anything ({@link PeerLiveness}: a loopback client's UDP port still bound, a
 * local-mode client's socket name still taken); one that is gone is released the same way. A CONNECT from the
 * address of a connected client replaces it (below).
 *
 * <h2>Loops</h2>
 * A CONNECT naming one of the server's own ports (its control port or a slot's, at its address) as the client's data
 * port is refused: the server would send that client's MADs to itself and take each one in again as the client's
 * next request, so a request to the client's own port (an SM client's SA query to its own LID) would circulate for
 * ever. In local mode a client's socket ({@code <basename>:in<pid>}) can never be one of the server's
 * ({@code :ctl}, {@code :out<slot>}). Within the twin, directed routes are bounded by their hop count and LID routes by
 * the twin's hop limit. Malformed
 * datagrams are counted ({@link #droppedDatagrams()}) and logged (at most one warning a second), never answered.
 *
 * <h2>Local mode</h2>
 * ibsim's default (local) mode carries the same datagrams over unix <i>datagram</i> sockets in Linux's <i>abstract</i>
 * namespace: the control socket {@code "\0sim:ctl"}, the slots' {@code "\0sim:out<slot>"}, each client's own
 * {@code "\0sim:ctl<pid>"} and {@code "\0sim:in<pid>"} ({@code sim} is {@code IBSIM_SOCKNAME}'s default). The JDK's
 * channels reach neither (unix domain channels are stream only, and {@link java.net.UnixDomainSocketAddress} names
 * files), so {@link #startLocal} serves it over C-library sockets ({@link SlotSocket}, a JDK 22+ on Linux): CONNECT
 * names the client's pid instead of a data port, and the slot's socket is connected to {@code <basename>:in<pid>};
 * the rest is as in remote mode. A client that exits without DISCONNECT is noticed when its socket refuses a
 * datagram, as in remote mode.
 *
 * <h2>Threads</h2>
 * One thread per socket, each blocked in its socket's receive: the control thread answers control requests (and calls
 * {@link AttachPoint#attach}), each slot's thread hands its client's MADs to the attachment. That costs one system
 * call per datagram each way, where a selector costs four (wait, receive, send, the receive that finds nothing),
 * and MAD round trips are what an SM's sweep waits on. MADs for a client are written from whichever thread calls its
 * sink (the twin's). A slot's socket is connected to its client while it has one; CONNECT and DISCONNECT replace the
 * socket by a fresh one at the same port (a socket cannot be connected while a thread waits in its receive), which
 * also discards whatever strangers left in it. All the sockets, the control socket's too, are {@link SlotSocket}s: on
 * a JDK 22+ on Linux they call the C library straight (a datagram costs the system call and little else), elsewhere
 * they are blocking {@link DatagramChannel}s.
 */
public final class IbsimServer implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(IbsimServer.class.getName());
    private static final int SLOTS = IbsimWire.MAX_CLIENTS;
    private static final int PERMISSIVE = MadAddress.PERMISSIVE_LID;
    private static final long WARN_INTERVAL = TimeUnit.SECONDS.toNanos(1);
    private static final int BIND_ATTEMPTS = 64;
    /** How often the clients are looked at for ones that are gone (see "Clients that vanish"). */
    private static final long REAP_INTERVAL_MS = 2000;
    /** The longest basename {@link #startLocal} takes: its clients' names ({@code <basename>:in<pid>}) must fit. */
    public static final int MAX_BASENAME = LocalAddress.MAX_NAME - (":in" + Integer.MAX_VALUE).length();

    /** A connected client, as a console lists it (ibsim's {@code list_connections}). */
    public record Client(int slot, SocketAddress address, String nodeName, int portNumber, long portGuid,
                         int lid, int qp, boolean sm) {
        @Override
        public String toString() {
            return String.format("Client %d: %s connected at \"%s\" port 0x%x, lid %d, qp %d%s", slot,
                    address instanceof InetSocketAddress i ? i.getAddress().getHostAddress() + ":" + i.getPort()
                            : String.valueOf(address), nodeName, portGuid, lid, qp, sm ? " SM" : "");
        }
    }

    private final AttachPoint fabric;
    private final Object lifecycle = new Object();
    private ScheduledExecutorService tasks;
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong faults = new AtomicLong();
    private volatile String firstFault;
    private final Object warnLock = new Object();
    private long lastWarn;
    private long suppressed;

    private SlotSocket ctl;
    private Slot[] slots;
    private final List<Thread> threads = new ArrayList<>();
    /** The control socket's address: an IP one (remote mode), or a {@link LocalAddress}. */
    private SocketAddress address;
    /** In local mode, the names' prefix ({@code IBSIM_SOCKNAME}); null in remote mode. */
    private String basename;
    private volatile boolean running;
    private boolean closed;

    /**
     * One client slot: its data socket, and the client connected there (both written holding the slot; a new
     * socket is announced with {@code notifyAll} to the slot's thread).
     */
    private static final class Slot {
        final int index;
        final SocketAddress bound;
        volatile SlotSocket channel;
        volatile Session session;
        /** The message being sent to the client (held with the slot's lock). */
        final ByteBuffer out = ByteBuffer.allocateDirect(IbsimWire.REQUEST_SIZE);
        /** The MAD just received from the client (the slot's thread's alone; an attachment keeps no MAD sent). */
        final byte[] in = new byte[IbsimWire.MAD_SIZE];

        Slot(int index, SlotSocket channel, SocketAddress bound) {
            this.index = index;
            this.channel = channel;
            this.bound = bound;
        }
    }

    /** A client between CONNECT and DISCONNECT; the sink of its attachment. */
    private final class Session implements MadSink {
        final Slot slot;
        final SocketAddress peer;
        /** Where its CONNECT came from, and that request's data: a retransmission of it is answered again. */
        final SocketAddress ctlPeer;
        final byte[] request;
        final Attachment attachment;
        final String nodeName;
        final long nodeGuid;
        final int qp;
        volatile boolean sm;
        volatile int lid;
        volatile boolean gone;
        /** The address of this client's last MAD (its slot's thread only). */
        MadAddress lastTo;

        Session(Slot slot, SocketAddress peer, SocketAddress ctlPeer, byte[] request, Attachment attachment,
                int qp, boolean sm) {
            this.slot = slot;
            this.peer = peer;
            this.ctlPeer = ctlPeer;
            this.request = request;
            this.attachment = attachment;
            this.nodeName = String.valueOf(attachment.nodeName());
            this.nodeGuid = attachment.nodeGuid();
            this.qp = qp;
            this.sm = sm;
        }

        /** The port's PortInfo, remembering its LID (the DLID of MADs to this client). */
        byte[] portInfo() {
            byte[] pi = attachment.portInfo();
            if (pi != null && pi.length >= 18) {
                lid = ((pi[16] & 0xff) << 8) | (pi[17] & 0xff);
            }
            return pi;
        }

        /** It writes the MAD to its client's socket before returning, keeping nothing of the array. */
        @Override
        public boolean borrows() {
            return true;
        }

        @Override
        public void receive(byte[] mad, MadAddress from) {
            if (gone) {
                return;
            }
            try {
                int dlid = from.lid() == PERMISSIVE ? PERMISSIVE : lid;
                toClient(this, dlid, from.lid(), gsiQp(mad), from.qpn(), 0, IbsimWire.madLength(mad), mad);
            } catch (RuntimeException e) {
                fault("MAD for client " + slot.index + " not sent", mad, e);
            }
        }

        @Override
        public void undeliverable(byte[] mad, MadAddress to) {
            if (gone) {
                return;
            }
            try {
                int slid = to.lid() == PERMISSIVE ? PERMISSIVE : lid;
                toClient(this, to.lid(), slid, to.qpn(), gsiQp(mad), IbsimWire.STATUS_TIMEOUT, IbsimWire.MAD_SIZE,
                        mad);
            } catch (RuntimeException e) {
                fault("bounce for client " + slot.index + " not sent", mad, e);
            }
        }

        Client describe() {
            return new Client(slot.index, peer, nodeName, attachment.portNumber(), attachment.portGuid(), lid, qp,
                    sm);
        }
    }

    /** A server that attaches its clients at {@code fabric}. */
    public IbsimServer(AttachPoint fabric) {
        this.fabric = Objects.requireNonNull(fabric, "fabric");
    }

    /**
     * Binds the control socket at {@code bind:port} and the 10 data sockets at {@code port + 1 .. port + 10}, and
     * starts serving. {@code port} 0 picks a free range.
     *
     * @throws BindException when a port of the range is taken
     */
    public void start(InetAddress bind, int port) throws IOException {
        Objects.requireNonNull(bind, "bind");
        if (port < 0 || port > 0xffff - SLOTS) {
            throw new IllegalArgumentException("control port out of range: " + port);
        }
        synchronized (lifecycle) {
            checkStartable();
            if (port != 0) {
                bindRange(bind, port);
            } else {
                IOException last = null;
                for (int i = 0; i < BIND_ATTEMPTS && ctl == null; i++) {
                    int p = ephemeralPort(bind);
                    if (p > 0xffff - SLOTS) {
                        continue;
                    }
                    try {
                        bindRange(bind, p);
                    } catch (BindException e) {
                        last = e;
                    }
                }
                if (ctl == null) {
                    throw last != null ? last : new BindException("no free range of " + (SLOTS + 1) + " ports");
                }
            }
            serve(String.valueOf(port()));
            LOG.log(Level.DEBUG, "ibsim server listening at {0} (data ports {1}..{2})", address, port() + 1,
                    port() + SLOTS);
        }
    }

    /**
     * Serves ibsim's local mode instead: unix datagram sockets in the abstract namespace, the control socket named
     * {@code <basename>:ctl} and the 10 data sockets {@code <basename>:out0 .. :out9} (ibsim's names;
     * {@code basename} is what clients have in {@code IBSIM_SOCKNAME}, {@code "sim"} by default). Clients are
     * libumad2sim without {@code IBSIM_SERVER_NAME}; each names its pid in CONNECT and receives at
     * {@code <basename>:in<pid>}. Needs C-library sockets (a JDK 22+ on Linux).
     *
     * @throws BindException when one of the names is taken (another ibsim or twin serves that basename)
     * @throws IllegalArgumentException when {@code basename} is no socket name (its clients' names must fit)
     * @throws UnsupportedOperationException on a JVM without C-library sockets
     */
    public void startLocal(String basename) throws IOException {
        Objects.requireNonNull(basename, "basename");
        if (basename.length() > MAX_BASENAME || !LocalAddress.isName(basename)) {
            throw new IllegalArgumentException("bad socket name \"" + basename + "\" (1 to " + MAX_BASENAME
                    + " ASCII characters, no NUL)");
        }
        synchronized (lifecycle) {
            checkStartable();
            List<SocketAddress> names = new ArrayList<>();
            names.add(new LocalAddress(basename + ":ctl"));
            for (int i = 0; i < SLOTS; i++) {
                names.add(new LocalAddress(basename + ":out" + i));
            }
            bindAll(names, at -> "local socket " + at + " is taken (another ibsim server uses the basename \""
                    + basename + "\")");
            address = names.getFirst();
            this.basename = basename;
            serve(basename);
            LOG.log(Level.DEBUG, "ibsim server listening at {0} (data sockets {1}:out0..{2})", address, basename,
                    SLOTS - 1);
        }
    }

    private void checkStartable() {
        if (closed) {
            throw new IllegalStateException("ibsim server closed");
        }
        if (!threads.isEmpty()) {
            throw new IllegalStateException("ibsim server already started at " + address);
        }
    }

    /** Starts the threads. Holding the lifecycle lock, the sockets bound. */
    private void serve(String tag) {
        running = true;
        tasks = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "ibsim-server-" + tag + "-tasks"));
        tasks.scheduleWithFixedDelay(this::reapQuietly, REAP_INTERVAL_MS, REAP_INTERVAL_MS, TimeUnit.MILLISECONDS);
        threads.add(daemon(this::serveControl, "ibsim-server-" + tag));
        for (Slot s : slots) {
            threads.add(daemon(() -> serveSlot(s), "ibsim-server-" + tag + "-slot-" + s.index));
        }
        for (Thread t : threads) {
            t.start();
        }
    }

    /** A port the system hands out now (free a moment ago). */
    private static int ephemeralPort(InetAddress bind) throws IOException {
        try (DatagramChannel probe = SlotSocket.Nio.channel(bind)) {
            probe.bind(new InetSocketAddress(bind, 0));
            return ((InetSocketAddress) probe.getLocalAddress()).getPort();
        }
    }

    /** Binds ctl and the slots at {@code port..port+10}, or leaves nothing bound and throws. */
    private void bindRange(InetAddress bind, int port) throws IOException {
        List<SocketAddress> at = new ArrayList<>();
        for (int i = 0; i <= SLOTS; i++) {
            at.add(new InetSocketAddress(bind, port + i));
        }
        bindAll(at, a -> "port " + ((InetSocketAddress) a).getPort() + " of " + bind.getHostAddress()
                + " is taken (an ibsim server needs " + port + ".." + (port + SLOTS) + ")");
        address = at.getFirst();
    }

    /**
     * Binds the control socket at {@code at[0]} and the slots' at the rest, or leaves nothing bound and throws (a
     * {@link BindException} worded by {@code taken} when an address is in use).
     */
    private void bindAll(List<SocketAddress> at, Function<SocketAddress, String> taken) throws IOException {
        SlotSocket[] all = new SlotSocket[at.size()];
        try {
            for (int i = 0; i < all.length; i++) {
                all[i] = SlotSocket.openFor(at.get(i));
                try {
                    all[i].bind(at.get(i));
                } catch (BindException e) {
                    BindException b = new BindException(taken.apply(at.get(i)));
                    b.initCause(e);
                    throw b;
                }
            }
        } catch (IOException | RuntimeException e) {
            for (SlotSocket c : all) {
                if (c != null) {
                    c.close();
                }
            }
            throw e;
        }
        ctl = all[0];
        slots = new Slot[SLOTS];
        for (int i = 0; i < SLOTS; i++) {
            slots[i] = new Slot(i, all[i + 1], at.get(i + 1));
        }
    }

    /**
     * How the data sockets reach the system: {@code "libc"} (the C library through the Foreign Function API, on a JDK
     * 22+ on Linux) or {@code "nio"} ({@link DatagramChannel}s; also with {@code -Dibtwin.ibsim.sockets=nio}).
     */
    public static String socketImplementation() {
        return SlotSocket.implementation();
    }

    /**
     * The control socket's address (clients' {@code IBSIM_SERVER_NAME}/{@code IBSIM_SERVER_PORT}); in local mode
     * {@link IllegalStateException}: see {@link #endpoint}.
     */
    public InetSocketAddress address() {
        synchronized (lifecycle) {
            if (address instanceof InetSocketAddress a) {
                return a;
            }
            throw new IllegalStateException(address == null ? "ibsim server not started"
                    : "ibsim server in local mode at " + address);
        }
    }

    /** The control port (remote mode). */
    public int port() {
        return address().getPort();
    }

    /** In local mode, the basename its sockets are named by (clients' {@code IBSIM_SOCKNAME}); null otherwise. */
    public String basename() {
        synchronized (lifecycle) {
            return basename;
        }
    }

    /** The control socket's address: an {@link InetSocketAddress}, or in local mode a {@link LocalAddress}. */
    public SocketAddress endpoint() {
        synchronized (lifecycle) {
            if (address == null) {
                throw new IllegalStateException("ibsim server not started");
            }
            return address;
        }
    }

    /** The connected clients, by slot. */
    public List<Client> clients() {
        List<Client> out = new ArrayList<>();
        Slot[] s;
        synchronized (lifecycle) {
            s = slots;
        }
        if (s == null) {
            return out;
        }
        for (Slot slot : s) {
            Session session = slot.session;
            if (session != null) {
                out.add(session.describe());
            }
        }
        return out;
    }

    /** Disconnects the client at {@code slot} as if it had sent DISCONNECT; false when there is none. */
    public boolean disconnect(int slot) {
        Slot[] s;
        synchronized (lifecycle) {
            s = slots;
        }
        if (s == null || slot < 0 || slot >= SLOTS) {
            return false;
        }
        Session session = s[slot].session;
        return session != null && release(session, "disconnected by the server", Level.INFO);
    }

    /** Datagrams dropped so far: malformed, from strangers, refused by the client's socket. */
    public long droppedDatagrams() {
        return dropped.get();
    }

    /** Stops serving, detaches every client and releases the sockets. The server cannot be started again. */
    @Override
    public void close() {
        List<Thread> ts;
        synchronized (lifecycle) {
            if (closed) {
                return;
            }
            closed = true;
            running = false;
            ts = List.copyOf(threads);
        }
        closeChannels();   // wakes every thread from its receive
        if (slots != null) {
            for (Slot s : slots) {
                synchronized (s) {
                    s.notifyAll();
                }
            }
        }
        for (Thread t : ts) {
            try {
                t.join(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        if (tasks != null) {
            tasks.shutdownNow();
        }
        synchronized (lifecycle) {
            if (slots != null) {
                for (Slot s : slots) {
                    Session session = s.session;
                    if (session != null) {
                        release(session, "server closed", Level.DEBUG);
                    }
                }
            }
            closeChannels();
        }
    }

    private void closeChannels() {
        List<java.io.Closeable> all = new ArrayList<>();
        if (ctl != null) {
            all.add(ctl);
        }
        if (slots != null) {
            for (Slot s : slots) {
                if (s.channel != null) {
                    all.add(s.channel);
                }
            }
        }
        for (java.io.Closeable c : all) {
            try {
                c.close();
            } catch (IOException e) {
                LOG.log(Level.DEBUG, "closing {0}: {1}", c, e.toString());
            }
        }
    }

    // ---- the server's threads ----

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    /** The control socket's thread: one request at a time, each answered before the next is read. */
    private void serveControl() {
        ByteBuffer buf = ByteBuffer.allocateDirect(2048);
        SlotSocket ctl = this.ctl;
        while (running) {
            buf.clear();
            SocketAddress from;
            try {
                from = ctl.receive(buf);
            } catch (ClosedChannelException e) {
                return;
            } catch (IOException e) {
                LOG.log(Level.DEBUG, "ibsim server: control receive: {0}", e.toString());
                continue;
            }
            buf.flip();
            if (from == null) {
                drop("control datagram of %d bytes from an unnamed socket: dropped", buf.remaining());
                continue;
            }
            try {
                control(ctl, buf, from);
            } catch (IOException e) {
                LOG.log(Level.DEBUG, "ibsim server: control reply to {0}: {1}", from, e.toString());
            } catch (RuntimeException e) {
                fault("control datagram from " + from + " dropped", bytes(buf), e);
            }
        }
    }

    /**
     * A slot's thread: its client's MADs to the twin; datagrams from anyone else (or to a free slot) dropped. The loop
     * only calls {@link #serveOne}: a thread that started before the JIT compiled the server's code (every slot's
     * thread does, and in local mode the warm-up runs on another server's threads) would otherwise run the loop's own
     * bytecode interpreted until an on-stack replacement, at each MAD of the first sweep it serves.
     */
    private void serveSlot(Slot slot) {
        ByteBuffer buf = ByteBuffer.allocateDirect(2048);
        SlotSocket ch = slot.channel;
        // a connected socket only takes its peer's datagrams: read them without their source address
        boolean connected = ch != null && ch.isConnected();
        while (running && ch != null) {
            SlotSocket next = serveOne(slot, ch, connected, buf);
            if (next != ch) {
                ch = next;
                connected = ch != null && ch.isConnected();
            }
        }
    }

    /** Receives one datagram at {@code ch} and hands it on; the socket to read next (null: the server stops). */
    private SlotSocket serveOne(Slot slot, SlotSocket ch, boolean connected, ByteBuffer buf) {
        buf.clear();
        SocketAddress from = null;
        try {
            if (connected) {
                ch.read(buf);
            } else {
                from = ch.receive(buf);
            }
        } catch (PortUnreachableException e) {
            Session s = slot.session;
            if (s != null && s.slot.channel == ch) {
                vanished(s);
            }
            return ch;
        } catch (ClosedChannelException e) {
            return nextChannel(slot, ch);
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "ibsim server: slot {0} receive: {1}", slot.index, e.toString());
            return ch;
        }
        buf.flip();
        Session s = slot.session;
        if (s == null || (connected ? slot.channel != ch : !s.peer.equals(from))) {
            drop("datagram of %d bytes at slot %d from %s, which is not its client: dropped", buf.remaining(),
                    slot.index, connected ? "its last client" : from);
            return ch;
        }
        try {
            fromClient(s, buf);
        } catch (RuntimeException e) {
            fault("MAD from client " + slot.index + " dropped", bytes(buf), e);
        }
        return ch;
    }

    /** Waits for the socket that replaces {@code closed} at this slot; null when the server stops. */
    private SlotSocket nextChannel(Slot slot, SlotSocket closed) {
        synchronized (slot) {
            while (running && slot.channel == closed) {
                try {
                    slot.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return null;
                }
            }
            return running ? slot.channel : null;
        }
    }

    /**
     * Replaces the slot's socket by a fresh one at the same port, connected to {@code peer} (null: unconnected).
     * Holding the slot. On failure the slot has no socket (and is never used again) and the exception says why.
     */
    private void rebind(Slot slot, SocketAddress peer) throws IOException {
        SlotSocket old = slot.channel;
        slot.channel = null;
        try {
            if (old != null) {
                old.close();
            }
            if (!running) {
                return;
            }
            SlotSocket c = SlotSocket.openFor(slot.bound);
            try {
                bindAgain(c, slot.bound);
                if (peer != null) {
                    c.connect(peer);
                }
            } catch (IOException e) {
                c.close();
                throw e;
            }
            slot.channel = c;
        } finally {
            slot.notifyAll();
        }
    }

    /**
     * Binds {@code c} where a socket just closed was bound. The JDK releases a socket's port only once the thread
     * blocked in its receive has left it, a moment after {@code close} returned: so a taken port is tried again for
     * up to a second.
     */
    private static void bindAgain(SlotSocket c, SocketAddress at) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
        while (true) {
            try {
                c.bind(at);
                return;
            } catch (BindException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                LockSupport.parkNanos(20_000);
            }
        }
    }

    // ---- control requests ----

    private void control(SlotSocket ctl, ByteBuffer in, SocketAddress from) throws IOException {
        int n = in.remaining();
        if (n != IbsimWire.CTL_SIZE) {
            drop("control datagram of %d bytes from %s (expected %d): dropped", n, from, IbsimWire.CTL_SIZE);
            return;
        }
        byte[] raw = new byte[IbsimWire.CTL_SIZE];
        in.get(raw);
        IbsimWire.Ctl m;
        try {
            m = IbsimWire.decodeCtl(raw, raw.length);
        } catch (IllegalArgumentException e) {
            drop("control datagram from %s dropped: %s", from, e.getMessage());
            return;
        }
        int id = m.clientId();
        int type = m.type();
        if (Integer.compareUnsigned(id, SLOTS) >= 0 && type != IbsimWire.TYPE_CONNECT) {
            drop("control request %d from %s for client id %s: dropped", type, from, Integer.toUnsignedString(id));
            return;
        }
        LOG.log(Level.TRACE, "ibsim server: control request {0} from {1} for client {2}, len {3}", type, from,
                id, m.len());
        byte[] data = m.data().clone();
        int replyType;
        try {
            replyType = answer(id, type, data, from);
        } catch (RuntimeException e) {
            fault("control request " + type + " of client " + id + " failed", raw, e);
            replyType = IbsimWire.TYPE_ERROR;
        }
        ByteBuffer reply = ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN);
        reply.putInt(8, replyType);
        reply.put(16, data);
        ctl.send(reply.clear(), from);
    }

    /** Fills {@code data} with the answer; the reply's type. */
    private int answer(int id, int type, byte[] data, SocketAddress from) {
        if (type == IbsimWire.TYPE_CONNECT) {
            return connect(data, from);
        }
        Session s = slots[id].session;
        if (type == IbsimWire.TYPE_DISCONNECT) {
            if (s != null) {
                release(s, "disconnected", Level.DEBUG);
            } else {
                LOG.log(Level.DEBUG, "ibsim server: DISCONNECT for client {0}, which is not connected", id);
            }
            return type;
        }
        if (type <= IbsimWire.TYPE_ERROR || type > IbsimWire.TYPE_GET_PKEYS) {
            warn("bad control request type %d from %s: answered unchanged", type, from);
            return type;
        }
        if (s == null) {
            warn("control request %d from %s for client %d, which is not connected: refused", type, from, id);
            return IbsimWire.TYPE_ERROR;
        }
        ByteBuffer d = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
        Attachment a = s.attachment;
        switch (type) {
            case IbsimWire.TYPE_GET_PORT -> {
                byte[] pi = s.portInfo();
                d.putShort(0, (short) s.lid).put(2, (byte) (pi[32] & 0x0f));
            }
            case IbsimWire.TYPE_GET_VENDOR -> {
                ByteBuffer ni = ByteBuffer.wrap(a.nodeInfo());
                d.putInt(0, ni.getInt(36) & 0xffffff)        // VendorID
                        .putInt(4, ni.getShort(30) & 0xffff)  // DeviceID
                        .putInt(8, ni.getInt(32))             // Revision
                        .putLong(16, 1);                      // firmware version, always 1
            }
            case IbsimWire.TYPE_GET_GID -> {
                System.arraycopy(s.portInfo(), 8, data, 0, 8);  // GidPrefix, big-endian
                d.putLong(8, a.nodeGuid());                     // node GUID, host order
            }
            case IbsimWire.TYPE_GET_GUID -> d.putLong(0, a.nodeGuid());
            case IbsimWire.TYPE_GET_NODEINFO -> copy64(a.nodeInfo(), data);
            case IbsimWire.TYPE_GET_PORTINFO -> {
                int asked = data[0] & 0xff;
                if (asked != 0 && asked != a.portNumber()) {
                    LOG.log(Level.DEBUG, "ibsim server: client {0} asked PortInfo of port {1}: answering for the "
                            + "attach port {2}", id, asked, a.portNumber());
                }
                copy64(s.portInfo(), data);
            }
            case IbsimWire.TYPE_SET_ISSM -> {
                boolean sm = d.getInt(0) != 0;
                LOG.log(Level.DEBUG, "ibsim server: client {0} sets IsSM {1}", id, sm);
                s.sm = sm;
                a.setIsSm(sm);
            }
            case IbsimWire.TYPE_GET_PKEYS -> {
                int[] pkeys = a.pkeys();
                Arrays.fill(data, (byte) 0);
                ByteBuffer be = ByteBuffer.wrap(data);
                for (int i = 0; i < Math.min(pkeys.length, IbsimWire.CTL_DATA_SIZE / 2); i++) {
                    be.putShort(2 * i, (short) pkeys[i]);
                }
            }
            default -> throw new IllegalStateException("unreachable: " + type);
        }
        return type;
    }

    private static void copy64(byte[] attr, byte[] data) {
        Arrays.fill(data, (byte) 0);
        System.arraycopy(attr, 0, data, 0, Math.min(attr.length, data.length));
    }

    private int connect(byte[] data, SocketAddress from) {
        IbsimWire.ClientInfo info = IbsimWire.decodeClientInfo(data);
        int id = info.id();
        SocketAddress peer;
        if (basename != null) {
            // local mode: the id is the client's pid, its data socket <basename>:in<pid>
            if (id <= 0) {
                warn("CONNECT from %s names pid %s: refused", from, Integer.toUnsignedString(id));
                return IbsimWire.TYPE_ERROR;
            }
            peer = new LocalAddress(basename + ":in" + id);
        } else {
            if (id <= 0 || id > 0xffff || !(from instanceof InetSocketAddress ip)) {
                warn("CONNECT from %s names data port %s: refused", from, Integer.toUnsignedString(id));
                return IbsimWire.TYPE_ERROR;
            }
            peer = new InetSocketAddress(ip.getAddress(), id);
            if (ownSocket((InetSocketAddress) peer)) {
                // the server would send the client's MADs to itself: a request to the client's own port (an SM's
                // SA query to its own LID) would come back in as the client's next request, for ever
                warn("CONNECT from %s names data port %d, one of this server's own ports (%d..%d): refused", from,
                        id, port(), port() + SLOTS);
                return IbsimWire.TYPE_ERROR;
            }
        }
        for (Slot s : slots) {
            Session old = s.session;
            if (old != null && old.peer.equals(peer)) {
                if (old.ctlPeer.equals(from) && Arrays.equals(old.request, data)) {
                    // the same request from the same sockets: a client that gave up waiting for our answer
                    return granted(old, data);
                }
                release(old, "replaced by a new client at the same address", Level.WARNING);
            }
        }
        Slot free = freeSlot();
        if (free == null && reapVanished() > 0) {
            free = freeSlot();
        }
        if (free == null) {
            warn("can't open new connection for client %s: all %d client slots are taken", peer, SLOTS);
            return IbsimWire.TYPE_ERROR;
        }
        String node = info.nodeId();
        Attachment a;
        try {
            a = fabric.attach(node.isEmpty() ? null : node);
        } catch (RuntimeException e) {
            warn("client %d attempt to attach to unknown host \"%s\": %s", free.index, node, e.getMessage());
            return IbsimWire.TYPE_ERROR;
        }
        if (a == null) {
            warn("client %d attempt to attach to unknown host \"%s\"", free.index, node);
            return IbsimWire.TYPE_ERROR;
        }
        if (info.issm()) {
            for (Slot s : slots) {
                Session other = s.session;
                if (other != null && other.sm && other.nodeGuid == a.nodeGuid()) {
                    warn("client %d (%s) connection attempt failed: SM already exists on \"%s\"", free.index, peer,
                            a.nodeName());
                    detachQuietly(a);
                    return IbsimWire.TYPE_ERROR;
                }
            }
        }
        Session session = new Session(free, peer, from, data.clone(), a, info.qp(), info.issm());
        try {
            session.portInfo();
            synchronized (free) {
                rebind(free, peer);
                free.session = session;
            }
        } catch (IOException | RuntimeException e) {
            warn("client %d (%s): cannot connect its data socket: %s", free.index, peer, e);
            detachQuietly(a);
            return IbsimWire.TYPE_ERROR;
        }
        a.onReceive(session);
        LOG.log(Level.DEBUG, "ibsim server: attached client {0} ({1}) at node \"{2}\" port {3}{4}", free.index, peer,
                session.nodeName, a.portNumber(), info.issm() ? " as SM" : "");
        return granted(session, data);
    }

    private Slot freeSlot() {
        for (Slot s : slots) {
            if (s.session == null) {
                return s;
            }
        }
        return null;
    }

    /**
     * Whether {@code peer} is one of this server's own sockets (the control socket or a slot's): where the server is
     * bound, or, bound to the wildcard address, at any address of this host.
     */
    private boolean ownSocket(InetSocketAddress peer) {
        InetSocketAddress at = address();
        int p = peer.getPort();
        if (p < at.getPort() || p > at.getPort() + SLOTS) {
            return false;
        }
        InetAddress bound = at.getAddress();
        InetAddress a = peer.getAddress();
        if (bound.equals(a)) {
            return true;
        }
        if (!bound.isAnyLocalAddress()) {
            return false;
        }
        try {
            return a.isLoopbackAddress() || a.isAnyLocalAddress() || java.net.NetworkInterface.getByInetAddress(a)
                    != null;
        } catch (java.net.SocketException e) {
            return true;   // cannot tell: refusing a client is better than a loop
        }
    }

    /**
     * Frees the slots whose client has gone without DISCONNECT, as far as the system can tell without disturbing
     * the live ones ({@link PeerLiveness}); the number freed. Any thread.
     */
    private int reapVanished() {
        Slot[] all = slots;
        if (all == null || !running) {
            return 0;
        }
        PeerLiveness liveness = new PeerLiveness();
        int freed = 0;
        for (Slot slot : all) {
            Session s = slot.session;
            if (s != null && liveness.check(s.peer) == PeerLiveness.Answer.GONE
                    && release(s, "is gone (no socket " + (basename != null ? "has its name" : "is bound to its "
                    + "port") + ") - disconnected", Level.WARNING)) {
                freed++;
            }
        }
        return freed;
    }

    private void reapQuietly() {
        try {
            reapVanished();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "ibsim server: looking for vanished clients failed", e);
        }
    }

    /** Frees the slots of clients that are gone now, at once (as every 2 s); the number freed. */
    public int reclaimVanishedClients() {
        return reapVanished();
    }

    /** Fills a CONNECT's answer for the session it made: the slot and the node's id. */
    private static int granted(Session session, byte[] data) {
        ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN).putInt(0, session.slot.index);
        byte[] name = session.nodeName.getBytes(StandardCharsets.US_ASCII);
        Arrays.fill(data, 12, 12 + IbsimWire.MAX_NODEID, (byte) 0);
        System.arraycopy(name, 0, data, 12, Math.min(name.length, IbsimWire.MAX_NODEID));
        return IbsimWire.TYPE_CONNECT;
    }

    /** Frees the session's slot and detaches it; false when it was already gone. Any thread. */
    private boolean release(Session s, String why, Level level) {
        Slot slot = s.slot;
        synchronized (slot) {
            if (slot.session != s) {
                return false;
            }
            slot.session = null;
            s.gone = true;
            try {
                rebind(slot, null);
            } catch (IOException e) {
                warn("slot %d cannot listen again (%s): it stays out of use", slot.index, e);
            }
        }
        detachQuietly(s.attachment);
        LOG.log(level, "ibsim server: client {0} ({1}) at \"{2}\": {3}", slot.index, s.peer, s.nodeName, why);
        return true;
    }

    private void vanished(Session s) {
        release(s, "seems to be dead (its data port refuses datagrams) - disconnected", Level.WARNING);
    }

    private static void detachQuietly(Attachment a) {
        try {
            a.detach();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "ibsim server: detach failed", e);
        }
    }

    // ---- MADs ----

    private void fromClient(Session s, ByteBuffer in) {
        int n = in.remaining();
        if (n != IbsimWire.REQUEST_SIZE) {
            drop("MAD datagram of %d bytes from client %d (expected %d): dropped", n, s.slot.index,
                    IbsimWire.REQUEST_SIZE);
            return;
        }
        byte[] mad = s.slot.in;
        in.get(in.position() + IbsimWire.MAD_OFFSET, mad);
        if (!IbsimWire.isResponse(mad)) {
            IbsimWire.setTid(mad, IbsimWire.serverTid(IbsimWire.tid(mad), s.slot.index));
        }
        int dqp = IbsimWire.dqp(in);
        if (dqp < 0 || dqp > 0xffffff) {
            drop("MAD from client %d to QP 0x%x: dropped", s.slot.index, dqp);
            return;
        }
        MadAddress to = s.lastTo;
        int dlid = IbsimWire.dlid(in);
        if (to == null || to.lid() != dlid || to.qpn() != dqp) {
            // a client sends to few addresses (every directed-route SMP to the permissive LID): keep the last one
            to = new MadAddress(dlid, dqp, dqp == 0 ? 0 : MadAddress.GSI_QKEY, 0, 0);
            s.lastTo = to;
        }
        try {
            s.attachment.send(mad, to);
        } catch (RuntimeException e) {
            fault("the twin refused a MAD from client " + s.slot.index, mad, e);
        }
    }

    /**
     * Writes a MAD message to the session's client, unless it has gone. Any thread; never blocks. The message is put
     * together in the slot's own direct buffer, which the socket sends from as it is.
     */
    private void toClient(Session s, int dlid, int slid, int dqp, int sqp, int status, long length, byte[] mad) {
        Slot slot = s.slot;
        synchronized (slot) {
            if (slot.session != s) {
                return;
            }
            ByteBuffer out = slot.out;
            out.clear();
            IbsimWire.putRequest(out, dlid, slid, dqp, sqp, status, length, mad);
            out.flip();
            try {
                if (slot.channel.write(out) == 0) {
                    drop("client %d's socket buffer is full: MAD dropped", slot.index);
                }
            } catch (PortUnreachableException e) {
                // not on this thread: it may be the twin's, delivering to the attachment being detached
                try {
                    tasks.execute(() -> vanished(s));
                } catch (java.util.concurrent.RejectedExecutionException closing) {
                    LOG.log(Level.DEBUG, "ibsim server closing: client {0} vanished", slot.index);
                }
            } catch (ClosedChannelException e) {
                LOG.log(Level.DEBUG, "ibsim server closed: MAD for client {0} dropped", slot.index);
            } catch (IOException e) {
                drop("MAD to client %d: %s", slot.index, e);
            }
        }
    }

    /** The QP libumad2sim's agents use for a MAD of this class: 0 for SMPs, 1 otherwise. */
    private static int gsiQp(byte[] mad) {
        int cls = IbsimWire.mgmtClass(mad);
        return cls == 0x01 || cls == 0x81 ? 0 : 1;
    }

    // ---- logging ----

    /**
     * An exception where none should be (the twin's or the server's own code failed on some input): counted
     * ({@link #faults()}), the first remembered with the input in hex ({@link #firstFault()}), logged with its trace.
     */
    private void fault(String what, byte[] input, RuntimeException e) {
        dropped.incrementAndGet();
        synchronized (faults) {
            if (firstFault == null) {
                firstFault = what + ": " + e + "; input (" + input.length + " bytes): " + java.util.HexFormat.of()
                        .formatHex(input);
            }
            faults.incrementAndGet();   // after: whoever sees the count sees the first one
        }
        LOG.log(Level.WARNING, "ibsim server: " + what, e);
    }

    private static byte[] bytes(ByteBuffer datagram) {
        ByteBuffer d = datagram.duplicate().rewind();
        byte[] b = new byte[d.remaining()];
        d.get(b);
        return b;
    }

    /** Exceptions caught where there should have been none: the twin or the server failed on some datagram. */
    public long faults() {
        return faults.get();
    }

    /** The first of {@link #faults()}: what failed, the exception, and the datagram or MAD in hex; null if none. */
    public String firstFault() {
        return firstFault;
    }

    private void drop(String format, Object... args) {
        dropped.incrementAndGet();
        warn(format, args);
    }

    /** A warning, at most one a second; the ones held back are counted in the next. */
    private void warn(String format, Object... args) {
        String msg;
        synchronized (warnLock) {
            long now = System.nanoTime();
            if (lastWarn != 0 && now - lastWarn < WARN_INTERVAL) {
                suppressed++;
                LOG.log(Level.DEBUG, () -> "ibsim server: " + String.format(format, args));
                return;
            }
            msg = String.format(format, args) + (suppressed > 0 ? " (" + suppressed + " more held back)" : "");
            lastWarn = now;
            suppressed = 0;
        }
        LOG.log(Level.WARNING, "ibsim server: " + msg);
    }
}
