package org.ibtwin.transport;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.lang.ref.Reference;
import java.net.BindException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.PortUnreachableException;
import java.net.SocketAddress;
import java.net.SocketException;
import java.net.StandardProtocolFamily;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link SlotSocket} that calls Linux's C library through the Foreign Function API (JDK 22 and later): socket,
 * bind, connect, recv, recvfrom, send, sendto, shutdown and close, on a file descriptor of its own, with datagrams
 * read into and sent from direct buffers where they lie. UDP over IPv4 or IPv6, or unix datagram sockets named in the
 * abstract namespace ({@link LocalAddress}).
 *
 * <p>Closing is a handshake, since a descriptor closed under a thread blocked in {@code recv} would not wake it and
 * its number could be reused by the next socket: {@link #close} marks the socket closed and, while a thread is inside
 * a call, shuts it down (which wakes a blocked {@code recv}); the last thread to leave closes the descriptor.
 */
@SuppressWarnings("restricted")   // linking to the C library is this class's job
final class LibcSlotSocket implements SlotSocket {
    private static final int AF_UNIX = 1;
    private static final int AF_INET = 2;
    private static final int AF_INET6 = 10;
    private static final int SOCK_DGRAM = 2;
    private static final int SOCK_CLOEXEC = 0x80000;
    private static final int SHUT_RDWR = 2;
    private static final int MSG_DONTWAIT = 0x40;
    private static final int EINTR = 4;
    private static final int EAGAIN = 11;
    private static final int SOL_SOCKET = 1;
    private static final int SO_RCVTIMEO = 20;
    private static final int EADDRINUSE = 98;
    private static final int ECONNREFUSED = 111;
    private static final int SOCKADDR_IN = 16;
    private static final int SOCKADDR_IN6 = 28;
    /** sockaddr_un: the family, then 108 bytes of sun_path. */
    private static final int SOCKADDR_UN = 110;

    private static final int READING = 1;
    private static final int WRITING = 2;
    private static final int CLOSED = 4;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final SymbolLookup LIBC = LINKER.defaultLookup();
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final Linker.Option ERRNO_OPTION = Linker.Option.captureCallState("errno");

    private static final MethodHandle SOCKET = handle("socket",
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                    ValueLayout.JAVA_INT));
    private static final MethodHandle BIND = handle("bind",
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
                    ValueLayout.JAVA_INT));
    private static final MethodHandle CONNECT = handle("connect",
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
                    ValueLayout.JAVA_INT));
    /** recv(fd, buf, len, flags), the buffer's address passed as a 64-bit integer. */
    private static final MethodHandle RECV = handle("recv",
            FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG,
                    ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));
    private static final MethodHandle RECVFROM = handle("recvfrom",
            FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG,
                    ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS));
    private static final MethodHandle SEND = handle("send",
            FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG,
                    ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));
    private static final MethodHandle SENDTO = handle("sendto",
            FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
                    ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
    private static final MethodHandle SETSOCKOPT = handle("setsockopt",
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                    ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
    private static final MethodHandle SHUTDOWN = handle("shutdown",
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
    private static final MethodHandle CLOSE = handle("close",
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
    private static final MethodHandle STRERROR = LINKER.downcallHandle(LIBC.find("strerror").orElseThrow(),
            FunctionDescriptor.of(ValueLayout.ADDRESS.withTargetLayout(MemoryLayout.sequenceLayout(256,
                    ValueLayout.JAVA_BYTE)), ValueLayout.JAVA_INT));

    private final int fd;
    private final int family;
    private final AtomicInteger state = new AtomicInteger();
    private boolean released;
    private volatile boolean connected;
    /** Per-direction scratch: errno after a call, and recvfrom's source address (the reader's) . */
    private final MemorySegment readErrno;
    private final MemorySegment writeErrno;
    private final MemorySegment from;
    private final MemorySegment fromLength;
    /** The last buffer each direction used, and its base address. */
    private ByteBuffer readBuffer;
    private long readBase;
    private ByteBuffer writeBuffer;
    private long writeBase;

    private LibcSlotSocket(int fd, int family) {
        this.fd = fd;
        this.family = family;
        Arena arena = Arena.ofAuto();
        readErrno = arena.allocate(CALL_STATE);
        writeErrno = arena.allocate(CALL_STATE);
        from = arena.allocate(SOCKADDR_UN, 8);
        fromLength = arena.allocate(ValueLayout.JAVA_INT);
    }

    private static MethodHandle handle(String name, FunctionDescriptor d) {
        return LINKER.downcallHandle(LIBC.find(name).orElseThrow(() -> new UnsatisfiedLinkError(name)), d,
                ERRNO_OPTION);
    }

    /**
     * Throws unless this system can run these sockets: Linux, whose constants they use (the C library's calls were
     * linked when the class was, or its loading failed).
     */
    static void check() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        if (!os.startsWith("linux")) {
            throw new UnsupportedOperationException("not Linux: " + os);
        }
    }

    /** A new unbound datagram socket: UDP over IPv4 or IPv6, or unix. */
    static SlotSocket open(StandardProtocolFamily pf) throws IOException {
        int family = switch (pf) {
            case INET -> AF_INET;
            case INET6 -> AF_INET6;
            case UNIX -> AF_UNIX;
        };
        try (Arena a = Arena.ofConfined()) {
            MemorySegment errno = a.allocate(CALL_STATE);
            int fd = (int) SOCKET.invokeExact(errno, family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
            if (fd < 0) {
                throw new SocketException("socket: " + strerror(errno(errno)));
            }
            return new LibcSlotSocket(fd, family);
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    @Override
    public void bind(SocketAddress at) throws IOException {
        int e = withAddress(BIND, at);
        if (e != 0) {
            String msg = "bind " + at + ": " + strerror(e);
            throw e == EADDRINUSE ? new BindException(msg) : new SocketException(msg);
        }
    }

    @Override
    public void connect(SocketAddress peer) throws IOException {
        int e = withAddress(CONNECT, peer);
        if (e != 0) {
            throw failure("connect " + peer, e);
        }
        connected = true;
    }

    /** {@code call(fd, at, its length)}, bind or connect: 0, or the errno it failed with. */
    private int withAddress(MethodHandle call, SocketAddress at) throws IOException {
        return setUp((a, errno) -> {
            MemorySegment sa = sockaddr(a, at);
            return (int) call.invokeExact(errno, fd, sa, (int) sa.byteSize());
        });
    }

    /** A call that sets the socket up, given a scratch arena and its errno slot: the C call's int result. */
    @FunctionalInterface
    private interface SetUpCall {
        int call(Arena a, MemorySegment errno) throws Throwable;
    }

    /** Runs {@code c} as a writer (bind, connect, setsockopt): 0, or the errno it failed with. */
    private int setUp(SetUpCall c) throws IOException {
        enter(WRITING);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment errno = a.allocate(CALL_STATE);
            int r = c.call(a, errno);
            return r == 0 ? 0 : errno(errno);
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        } finally {
            leave(WRITING);
        }
    }

    @Override
    public boolean isConnected() {
        return connected;
    }

    /** SO_RCVTIMEO: a struct timeval of the timeout; recv then fails with EAGAIN when nothing came in time. */
    @Override
    public void setReceiveTimeout(java.time.Duration timeout) throws IOException {
        long micros = timeout.isZero() ? 0 : Math.max(1, timeout.toNanos() / 1000);
        int e = setUp((a, errno) -> {
            MemorySegment tv = a.allocate(16, 8);
            tv.set(ValueLayout.JAVA_LONG, 0, micros / 1_000_000);
            tv.set(ValueLayout.JAVA_LONG, 8, micros % 1_000_000);
            return (int) SETSOCKOPT.invokeExact(errno, fd, SOL_SOCKET, SO_RCVTIMEO, tv, 16);
        });
        if (e != 0) {
            throw new SocketException("setsockopt SO_RCVTIMEO: " + strerror(e));
        }
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        int pos = dst.position();
        return received(dst, pos, recv(dst, pos, false));
    }

    @Override
    public SocketAddress receive(ByteBuffer dst) throws IOException {
        int pos = dst.position();
        received(dst, pos, recv(dst, pos, true));
        return address(from, fromLength.get(ValueLayout.JAVA_INT, 0));
    }

    /** One datagram into {@code dst} from {@code pos}, its source in {@link #from} when asked: recv's result. */
    private long recv(ByteBuffer dst, int pos, boolean withSource) throws ClosedChannelException {
        long base = readBase(dst);
        long len = dst.limit() - pos;
        enter(READING);
        long n;
        try {
            do {
                if (withSource) {
                    fromLength.set(ValueLayout.JAVA_INT, 0, SOCKADDR_UN);
                    n = (long) RECVFROM.invokeExact(readErrno, fd, base + pos, len, 0, from, fromLength);
                } else {
                    n = (long) RECV.invokeExact(readErrno, fd, base + pos, len, 0);
                }
            } while (n < 0 && errno(readErrno) == EINTR && (state.get() & CLOSED) == 0);
        } catch (Throwable t) {
            throw unexpected(t);
        } finally {
            Reference.reachabilityFence(dst);
            leave(READING);
        }
        return n;
    }

    /** What recv's result {@code n} means: the datagram's length, its end now {@code dst}'s position. */
    private int received(ByteBuffer dst, int pos, long n) throws IOException {
        if ((state.get() & CLOSED) != 0) {
            throw new ClosedChannelException();
        }
        if (n < 0) {
            int e = errno(readErrno);
            if (e == EAGAIN) {
                throw new java.net.SocketTimeoutException("recv: no datagram within the receive timeout");
            }
            throw failure("recv", e);
        }
        dst.position(pos + (int) n);
        return (int) n;
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        if (!src.isDirect()) {
            throw new IllegalArgumentException("not a direct buffer");
        }
        if (src != writeBuffer) {
            writeBase = MemorySegment.ofBuffer(src).address() - src.position();
            writeBuffer = src;
        }
        int pos = src.position();
        enter(WRITING);
        long n;
        try {
            do {
                n = (long) SEND.invokeExact(writeErrno, fd, writeBase + pos, (long) (src.limit() - pos),
                        MSG_DONTWAIT);
            } while (n < 0 && errno(writeErrno) == EINTR);
        } catch (Throwable t) {
            throw unexpected(t);
        } finally {
            Reference.reachabilityFence(src);
            leave(WRITING);
        }
        if (n < 0) {
            int e = errno(writeErrno);
            if (e == EAGAIN) {
                return 0;
            }
            if ((state.get() & CLOSED) != 0) {
                throw new ClosedChannelException();
            }
            throw failure("send", e);
        }
        src.position(pos + (int) n);
        return (int) n;
    }

    @Override
    public int send(ByteBuffer src, SocketAddress to) throws IOException {
        int len = src.remaining();
        enter(WRITING);
        long n;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment errno = a.allocate(CALL_STATE);
            MemorySegment sa = sockaddr(a, to);
            MemorySegment data = a.allocate(Math.max(1, len));
            MemorySegment.copy(MemorySegment.ofBuffer(src), 0, data, 0, len);
            do {
                n = (long) SENDTO.invokeExact(errno, fd, data, (long) len, MSG_DONTWAIT, sa, (int) sa.byteSize());
            } while (n < 0 && errno(errno) == EINTR);
            if (n < 0) {
                int e = errno(errno);
                if (e == EAGAIN) {
                    return 0;
                }
                throw failure("sendto " + to, e);
            }
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        } finally {
            leave(WRITING);
        }
        src.position(src.position() + (int) n);
        return (int) n;
    }

    /**
     * Marks the socket closed; the descriptor is closed now, or, while a thread is inside a call, shut down (waking a
     * blocked receive) and closed by the last thread to leave.
     */
    @Override
    public void close() {
        synchronized (this) {
            int before = state.getAndUpdate(s -> s | CLOSED);
            if ((before & CLOSED) != 0) {
                return;
            }
            if ((before & (READING | WRITING)) == 0) {
                release();
            } else {
                try (Arena a = Arena.ofConfined()) {
                    int ignored = (int) SHUTDOWN.invokeExact(a.allocate(CALL_STATE), fd, SHUT_RDWR);
                } catch (Throwable t) {
                    throw unexpected(t);
                }
            }
        }
    }

    private void enter(int what) throws ClosedChannelException {
        while (true) {
            int s = state.get();
            if ((s & CLOSED) != 0) {
                throw new ClosedChannelException();
            }
            if ((s & what) != 0) {
                throw new IllegalStateException("two threads " + (what == READING ? "reading" : "writing")
                        + " at once");
            }
            if (state.compareAndSet(s, s | what)) {
                return;
            }
        }
    }

    private void leave(int what) {
        int after = state.updateAndGet(s -> s & ~what);
        if (after == CLOSED) {
            synchronized (this) {   // after close's shutdown
                release();
            }
        }
    }

    /** Closes the descriptor, once. Holding this. */
    private void release() {
        if (released) {
            return;
        }
        released = true;
        try (Arena a = Arena.ofConfined()) {
            int ignored = (int) CLOSE.invokeExact(a.allocate(CALL_STATE), fd);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    private long readBase(ByteBuffer dst) {
        if (dst != readBuffer) {
            if (!dst.isDirect()) {
                throw new IllegalArgumentException("not a direct buffer");
            }
            readBase = MemorySegment.ofBuffer(dst).address() - dst.position();
            readBuffer = dst;
        }
        return readBase;
    }

    private MemorySegment sockaddr(Arena a, SocketAddress to) throws IOException {
        if (to instanceof LocalAddress local) {
            if (family != AF_UNIX) {
                throw new SocketException("local address " + local + " for an IP socket");
            }
            byte[] name = local.name().getBytes(StandardCharsets.US_ASCII);
            // the family, NUL, the name and its terminating NUL, counted in the length as ibsim counts it
            MemorySegment sa = a.allocate(4 + name.length, 2);
            sa.set(ValueLayout.JAVA_SHORT, 0, (short) AF_UNIX);
            MemorySegment.copy(name, 0, sa, ValueLayout.JAVA_BYTE, 3, name.length);
            return sa;
        }
        if (!(to instanceof InetSocketAddress at)) {
            throw new SocketException("unsupported address " + to);
        }
        InetAddress ip = at.getAddress();
        if (ip == null) {
            throw new UnknownHostException(at.getHostString());
        }
        byte[] raw = ip.getAddress();
        int port = at.getPort();
        if (family == AF_UNIX) {
            throw new SocketException("IP address " + at + " for a unix socket");
        }
        if (family == AF_INET) {
            if (!(ip instanceof Inet4Address)) {
                throw new SocketException("IPv6 address " + ip.getHostAddress() + " for an IPv4 socket");
            }
            MemorySegment sa = a.allocate(SOCKADDR_IN, 4);
            sa.set(ValueLayout.JAVA_SHORT, 0, (short) AF_INET);
            sa.set(ValueLayout.JAVA_BYTE, 2, (byte) (port >> 8));
            sa.set(ValueLayout.JAVA_BYTE, 3, (byte) port);
            MemorySegment.copy(raw, 0, sa, ValueLayout.JAVA_BYTE, 4, 4);
            return sa;
        }
        if (raw.length == 4) {   // an IPv4 address on an IPv6 socket: its v4-mapped form
            byte[] mapped = new byte[16];
            mapped[10] = (byte) 0xff;
            mapped[11] = (byte) 0xff;
            System.arraycopy(raw, 0, mapped, 12, 4);
            raw = mapped;
        }
        MemorySegment sa = a.allocate(SOCKADDR_IN6, 4);
        sa.set(ValueLayout.JAVA_SHORT, 0, (short) AF_INET6);
        sa.set(ValueLayout.JAVA_BYTE, 2, (byte) (port >> 8));
        sa.set(ValueLayout.JAVA_BYTE, 3, (byte) port);
        MemorySegment.copy(raw, 0, sa, ValueLayout.JAVA_BYTE, 8, 16);
        if (ip instanceof java.net.Inet6Address v6 && v6.getScopeId() != 0) {
            sa.set(ValueLayout.JAVA_INT_UNALIGNED, 24, v6.getScopeId());
        }
        return sa;
    }

    /** The address recvfrom filled ({@code length} bytes of it); null for an unnamed unix socket. */
    private static SocketAddress address(MemorySegment sa, int length) throws UnknownHostException {
        int family = sa.get(ValueLayout.JAVA_SHORT, 0);
        if (family == AF_UNIX) {
            if (length <= 3 || sa.get(ValueLayout.JAVA_BYTE, 2) != 0) {
                return null;   // unnamed (or a file name, which ibsim's clients never bind)
            }
            int end = Math.min(length, SOCKADDR_UN);
            while (end > 3 && sa.get(ValueLayout.JAVA_BYTE, end - 1) == 0) {
                end--;   // the terminating NUL
            }
            if (end == 3) {
                return null;
            }
            byte[] name = sa.asSlice(3, end - 3).toArray(ValueLayout.JAVA_BYTE);
            return new LocalAddress(new String(name, StandardCharsets.US_ASCII));
        }
        int port = ((sa.get(ValueLayout.JAVA_BYTE, 2) & 0xff) << 8) | (sa.get(ValueLayout.JAVA_BYTE, 3) & 0xff);
        byte[] raw = family == AF_INET ? sa.asSlice(4, 4).toArray(ValueLayout.JAVA_BYTE)
                : sa.asSlice(8, 16).toArray(ValueLayout.JAVA_BYTE);
        return new InetSocketAddress(InetAddress.getByAddress(raw), port);
    }

    /** A failed call's exception: the peer's port refused (ECONNREFUSED: it has gone), or any other error. */
    private static SocketException failure(String call, int errno) {
        String msg = call + ": " + strerror(errno);
        return errno == ECONNREFUSED ? new PortUnreachableException(msg) : new SocketException(msg);
    }

    private static int errno(MemorySegment callState) {
        return (int) ERRNO.get(callState, 0L);
    }

    private static String strerror(int errno) {
        try {
            MemorySegment s = (MemorySegment) STRERROR.invokeExact(errno);
            return s.getString(0) + " (errno " + errno + ")";
        } catch (Throwable t) {
            return "errno " + errno;
        }
    }

    private static RuntimeException unexpected(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException(t);
    }

    @Override
    public String toString() {
        return "LibcSlotSocket[fd " + fd + (connected ? ", connected" : "") + "]";
    }
}
