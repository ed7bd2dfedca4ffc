package org.ibtwin.sim;

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
 * A datagram socket of {@link IbsimServer}: its control socket, or a client slot's, which every MAD a client sends or
 * receives crosses, so that its cost per datagram is the server's. Where the JVM allows it (JDK 22 and later, on
 * Linux) the socket calls the C library straight through the Foreign Function API, which saves the channel's locks,
 * its interruptible-I/O bookkeeping and a JNI transition on every datagram, and reaches unix sockets in the abstract
 * namespace (ibsim's local mode); elsewhere it is a blocking {@link DatagramChannel}, IP only.
 *
 * <p>Closing the socket wakes a thread blocked in {@link #read} or {@link #receive}, which then throws
 * {@link ClosedChannelException}; its port is free once that thread has left.
 */
interface SlotSocket extends Closeable {

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
                Class<?> c = Class.forName("org.ibtwin.sim.LibcSlotSocket");
                java.lang.reflect.Method open = c.getDeclaredMethod("open", StandardProtocolFamily.class);
                c.getDeclaredMethod("check").invoke(null);
                return open;
            } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
                Throwable why = e instanceof InvocationTargetException i && i.getCause() != null ? i.getCause() : e;
                System.getLogger(SlotSocket.class.getName()).log(Level.DEBUG,
                        "ibsim server: C-library sockets unavailable, using NIO: {0}", why.toString());
                return null;
            }
        }
    }

    /** A blocking {@link DatagramChannel}. */
    final class Nio implements SlotSocket {
        private final DatagramChannel channel;

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
        static DatagramChannel channel(InetAddress family) throws IOException {
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
        public int read(ByteBuffer dst) throws IOException {
            return channel.read(dst);
        }

        @Override
        public SocketAddress receive(ByteBuffer dst) throws IOException {
            return channel.receive(dst);
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
