package org.ibtwin.transport;

import java.io.Closeable;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.lang.reflect.InvocationTargetException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;

/**
 * A datagram socket of ibsim's client protocol: the ibsim endpoint's ({@code org.ibtwin.sim.IbsimServer}) control
 * socket and client slots, which every MAD a client sends or receives crosses, so that its cost per datagram is the
 * server's; and {@link IbsimClient}'s sockets in ibsim's local mode. Where the JVM allows it (JDK 22 and later, on
 * Linux) the socket calls the C library straight through the Foreign Function API, which saves the channel's locks,
 * its interruptible-I/O bookkeeping and a JNI transition on every datagram, and reaches unix sockets in the abstract
 * namespace (ibsim's local mode); elsewhere it is a blocking {@link DatagramChannel}, IP only.
 *
 * <p>Closing the socket wakes a thread blocked in {@link #read} or {@link #receive}, which then throws
 * {@link ClosedChannelException}; its port is free once that thread has left.
 */
public interface SlotSocket extends Closeable {

    /** The system property that, set to {@code nio}, keeps the server on {@link DatagramChannel}s. */
    String IMPLEMENTATION = "ibtwin.ibsim.sockets";

    void bind(SocketAddress at) throws IOException;

    void connect(SocketAddress peer) throws IOException;

    boolean isConnected();

    /** One datagram from the connected peer into {@code dst} (from its position); blocks until one comes. */
    int read(ByteBuffer dst) throws IOException;

    /** One datagram from anyone into {@code dst}; its sender. Blocks until one comes. */
    SocketAddress receive(ByteBuffer dst) throws IOException;

    /** Sends {@code src}'s remaining bytes to the connected peer as one datagram; 0 when the socket had no room. */
    int write(ByteBuffer src) throws IOException;

    /** Sends {@code src}'s remaining bytes to {@code to} as one datagram (any buffer); 0 when there was no room. */
    int send(ByteBuffer src, SocketAddress to) throws IOException;

    /**
     * How long {@link #read} and {@link #receive} wait for a datagram before they throw
     * {@link java.net.SocketTimeoutException}; zero (the default): for ever.
     */
    void setReceiveTimeout(java.time.Duration timeout) throws IOException;

    /** Which implementation {@link #open} uses: {@code "libc"} or {@code "nio"}. */
    static String implementation() {
        return Factory.NATIVE != null ? "libc" : "nio";
    }

    /** An unbound socket of {@code family}'s address family (IPv4 for an IPv4 address, IPv6 otherwise). */
    static SlotSocket open(InetAddress family) throws IOException {
        return Factory.NATIVE != null ? openNative(family instanceof Inet4Address ? StandardProtocolFamily.INET
                : StandardProtocolFamily.INET6) : Nio.open(family);
    }

    /**
     * An unbound unix datagram socket, for names in the abstract namespace ({@link LocalAddress}): C-library sockets
     * only, {@link UnsupportedOperationException} elsewhere.
     */
    static SlotSocket openLocal() throws IOException {
        return openNative(StandardProtocolFamily.UNIX);
    }

    /** An unbound socket that can be bound where {@code at} names: IPv4, IPv6 or local. */
    static SlotSocket openFor(SocketAddress at) throws IOException {
        if (at instanceof InetSocketAddress i) {
            return open(i.getAddress());
        }
        if (at instanceof LocalAddress) {
            return openLocal();
        }
        throw new IllegalArgumentException("not an IP or local socket address: " + at);
    }

    /** A C-library socket; {@link UnsupportedOperationException} when this JVM cannot run one. */
    static SlotSocket openNative(StandardProtocolFamily family) throws IOException {
        if (Factory.NATIVE == null) {
            throw new UnsupportedOperationException((family == StandardProtocolFamily.UNIX
                    ? "ibsim's local mode (unix sockets in the abstract namespace)" : "C-library sockets")
                    + " needs a JDK 22 or later on Linux (this is " + Runtime.version().feature()
                    + (implementationProperty() ? ", and -D" + IMPLEMENTATION + "=nio is set" : "") + ")");
        }
        try {
            return (SlotSocket) Factory.NATIVE.invoke(null, family);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new IOException("cannot open a socket: " + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IOException("cannot open a socket: " + e, e);
        }
    }

    private static boolean implementationProperty() {
        return "nio".equals(System.getProperty(IMPLEMENTATION));
    }

    /** Finds the C-library socket, on a JVM that can run it. */
    final class Factory {
        static final java.lang.reflect.Method NATIVE = find();

        private Factory() {
        }

        private static java.lang.reflect.Method find() {
            if (Runtime.version().feature() < 22 || implementationProperty()) {
                return null;
            }
            try {
                Class<?> c = Class.forName("org.ibtwin.transport.LibcSlotSocket");
                java.lang.reflect.Method open = c.getDeclaredMethod("open", StandardProtocolFamily.class);
                c.getDeclaredMethod("check").invoke(null);
                return open;
            } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
                Throwable why = e instanceof InvocationTargetException i && i.getCause() != null ? i.getCause() : e;
                System.getLogger(SlotSocket.class.getName()).log(Level.DEBUG,
                        "ibsim sockets: C-library sockets unavailable, using NIO: {0}", why.toString());
                return null;
            }
        }
    }

    /** A blocking {@link DatagramChannel}. */
    final class Nio implements SlotSocket {
        private final DatagramChannel channel;
        private volatile int timeoutMillis;

        private Nio(DatagramChannel channel) {
            this.channel = channel;
        }

        static Nio open(InetAddress family) throws IOException {
            return new Nio(channel(family));
        }

        /**
         * A channel of the address's own family: an IPv4 one for an IPv4 address, where the JDK's default would be an
         * IPv6 socket carrying IPv4-mapped traffic, a longer way through the kernel for every datagram.
         */
        public static DatagramChannel channel(InetAddress family) throws IOException {
            return DatagramChannel.open(family instanceof Inet4Address ? StandardProtocolFamily.INET
                    : StandardProtocolFamily.INET6);
        }

        @Override
        public void bind(SocketAddress at) throws IOException {
            channel.bind(at);
        }

        @Override
        public void connect(SocketAddress peer) throws IOException {
            channel.connect(peer);
        }

        @Override
        public boolean isConnected() {
            return channel.isConnected();
        }

        @Override
        public void setReceiveTimeout(java.time.Duration timeout) throws IOException {
            long ms = timeout.toMillis();
            timeoutMillis = (int) Math.min(Integer.MAX_VALUE, timeout.isZero() ? 0 : Math.max(1, ms));
            channel.socket().setSoTimeout(timeoutMillis);
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            if (timeoutMillis > 0) {
                int before = dst.position();
                timedReceive(dst);
                return dst.position() - before;
            }
            return channel.read(dst);
        }

        @Override
        public SocketAddress receive(ByteBuffer dst) throws IOException {
            return timeoutMillis > 0 ? timedReceive(dst) : channel.receive(dst);
        }

        /** A receive through the channel's socket adaptor, the one way a channel's receive can time out. */
        private SocketAddress timedReceive(ByteBuffer dst) throws IOException {
            byte[] buf = new byte[dst.remaining()];
            java.net.DatagramPacket p = new java.net.DatagramPacket(buf, buf.length);
            try {
                channel.socket().receive(p);
            } catch (java.net.SocketException e) {
                if (!channel.isOpen()) {
                    throw new ClosedChannelException();
                }
                throw e;
            }
            dst.put(buf, 0, p.getLength());
            return p.getSocketAddress();
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            return channel.write(src);
        }

        @Override
        public int send(ByteBuffer src, SocketAddress to) throws IOException {
            return channel.send(src, to);
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }
}
