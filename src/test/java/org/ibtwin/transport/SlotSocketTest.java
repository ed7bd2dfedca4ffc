package org.ibtwin.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.BindException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.PortUnreachableException;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Both {@link SlotSocket}s, against plain JDK channels on loopback. */
@Timeout(30)
class SlotSocketTest {
    static final InetAddress V4 = InetAddress.getLoopbackAddress();

    final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : toClose) {
            c.close();
        }
    }

    @Test
    void aJdk22OnLinuxUsesTheCLibrary() {
        boolean can = Runtime.version().feature() >= 22
                && System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux")
                && !"nio".equals(System.getProperty(SlotSocket.IMPLEMENTATION));
        assertThat(SlotSocket.implementation()).isEqualTo(can ? "libc" : "nio");
    }

    SlotSocket open(String kind, InetAddress family) throws IOException {
        if (kind.equals("libc")) {
            Assumptions.assumeTrue(SlotSocket.implementation().equals("libc"),
                    "C-library sockets not available on this JVM (JDK 22+ on Linux)");
        }
        SlotSocket s = kind.equals("libc") ? SlotSocket.openNative(family instanceof Inet6Address
                ? StandardProtocolFamily.INET6 : StandardProtocolFamily.INET) : SlotSocket.Nio.open(family);
        toClose.add(s);
        return s;
    }

    DatagramChannel peer(InetAddress at) throws IOException {
        DatagramChannel c = DatagramChannel.open(at instanceof Inet6Address ? StandardProtocolFamily.INET6
                : StandardProtocolFamily.INET);
        toClose.add(c);
        c.bind(new InetSocketAddress(at, 0));
        return c;
    }

    static InetSocketAddress local(DatagramChannel c) throws IOException {
        return (InetSocketAddress) c.getLocalAddress();
    }

    /** Binds a fresh socket at an ephemeral port of {@code at}: the port the system chose. */
    static InetSocketAddress bindSomewhere(SlotSocket s, InetAddress at) throws IOException {
        InetSocketAddress where;
        try (DatagramChannel probe = DatagramChannel.open(at instanceof Inet6Address ? StandardProtocolFamily.INET6
                : StandardProtocolFamily.INET)) {
            probe.bind(new InetSocketAddress(at, 0));
            where = (InetSocketAddress) probe.getLocalAddress();
        }
        s.bind(where);
        return where;
    }

    static ByteBuffer direct(String text) {
        byte[] b = text.getBytes(StandardCharsets.US_ASCII);
        return ByteBuffer.allocateDirect(256).put(b).flip();
    }

    static String text(ByteBuffer b) {
        b.flip();
        byte[] raw = new byte[b.remaining()];
        b.get(raw);
        return new String(raw, StandardCharsets.US_ASCII);
    }

    @ParameterizedTest
    @ValueSource(strings = {"libc", "nio"})
    void connectedSocketReadsAndWritesWholeDatagrams(String kind) throws Exception {
        SlotSocket s = open(kind, V4);
        InetSocketAddress at = bindSomewhere(s, V4);
        DatagramChannel peer = peer(V4);
        assertThat(s.isConnected()).isFalse();
        s.connect(local(peer));
        assertThat(s.isConnected()).isTrue();

        peer.send(direct("hello twin"), at);
        ByteBuffer in = ByteBuffer.allocateDirect(2048);
        in.position(3);   // reads land at the buffer's position
        assertThat(s.read(in)).isEqualTo(10);
        assertThat(in.position()).isEqualTo(13);
        in.position(3).limit(13);
        assertThat(text(in.slice().position(10))).isEqualTo("hello twin");

        ByteBuffer out = direct("xxreply");
        out.position(2);
        assertThat(s.write(out)).isEqualTo(5);
        assertThat(out.hasRemaining()).isFalse();
        ByteBuffer got = ByteBuffer.allocate(64);
        assertThat(peer.receive(got)).isEqualTo(at);
        assertThat(text(got)).isEqualTo("reply");

        // the same buffers again, many times: the cached addresses stay right as positions move
        for (int i = 0; i < 100; i++) {
            peer.send(direct("m" + i), at);
            in.clear();
            assertThat(s.read(in)).isEqualTo(("m" + i).length());
            assertThat(text(in)).isEqualTo("m" + i);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"libc", "nio"})
    void unconnectedSocketReceivesFromAnyoneAndSaysWho(String kind) throws Exception {
        SlotSocket s = open(kind, V4);
        InetSocketAddress at = bindSomewhere(s, V4);
        DatagramChannel a = peer(V4);
        DatagramChannel b = peer(V4);
        a.send(direct("from a"), at);
        b.send(direct("from b"), at);
        ByteBuffer in = ByteBuffer.allocateDirect(2048);
        assertThat(s.receive(in)).isEqualTo(local(a));
        assertThat(text(in)).isEqualTo("from a");
        in.clear();
        assertThat(s.receive(in)).isEqualTo(local(b));
        assertThat(text(in)).isEqualTo("from b");
    }

    /** A thread blocks in {@code s.read}; closing {@code s} ends that read with ClosedChannelException. */
    @ParameterizedTest
    @ValueSource(strings = {"libc", "nio"})
    void aReceiveTimeoutEndsAWaitForNothing(String kind) throws Exception {
        SlotSocket s = open(kind, V4);
        InetSocketAddress at = bindSomewhere(s, V4);
        DatagramChannel peer = peer(V4);
        s.setReceiveTimeout(java.time.Duration.ofMillis(150));
        ByteBuffer in = ByteBuffer.allocateDirect(2048);
        long t0 = System.nanoTime();
        assertThatThrownBy(() -> s.receive(in)).isInstanceOf(java.net.SocketTimeoutException.class);
        assertThat(System.nanoTime() - t0).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(100));
        // a datagram that is there is read at once, from whom it came and where the buffer stands
        peer.send(direct("in time"), at);
        in.position(2);
        assertThat(s.receive(in)).isEqualTo(local(peer));
        assertThat(in.position()).isEqualTo(9);
        s.connect(local(peer));
        in.clear();
        assertThatThrownBy(() -> s.read(in)).isInstanceOf(java.net.SocketTimeoutException.class);
        peer.send(direct("again"), at);
        assertThat(s.read(in)).isEqualTo(5);
        assertThat(text(in)).isEqualTo("again");
        // zero: wait for ever again (until closed)
        s.setReceiveTimeout(java.time.Duration.ZERO);
        closeWakesABlockedRead(s);
    }

    static void closeWakesABlockedRead(SlotSocket s) throws Exception {
        CompletableFuture<Throwable> reader = CompletableFuture.supplyAsync(() -> {
            try {
                s.read(ByteBuffer.allocateDirect(2048));
                return null;
            } catch (Throwable t) {
                return t;
            }
        });
        assertThatThrownBy(() -> reader.get(200, TimeUnit.MILLISECONDS)).isInstanceOf(TimeoutException.class);
        s.close();
        assertThat(reader.get(5, TimeUnit.SECONDS)).isInstanceOf(ClosedChannelException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"libc", "nio"})
    void closingWakesABlockedReaderAndFreesThePort(String kind) throws Exception {
        SlotSocket s = open(kind, V4);
        InetSocketAddress at = bindSomewhere(s, V4);
        s.connect(local(peer(V4)));
        closeWakesABlockedRead(s);
        assertThatThrownBy(() -> s.read(ByteBuffer.allocateDirect(16))).isInstanceOf(ClosedChannelException.class);
        assertThatThrownBy(() -> s.write(direct("x"))).isInstanceOf(ClosedChannelException.class);
        s.close();   // twice: nothing

        SlotSocket again = open(kind, V4);
        again.bind(at);   // the reader has left: the port is free
    }

    @ParameterizedTest
    @ValueSource(strings = {"libc", "nio"})
    void aTakenPortIsABindException(String kind) throws Exception {
        DatagramChannel taken = peer(V4);
        SlotSocket s = open(kind, V4);
        assertThatThrownBy(() -> s.bind(local(taken))).isInstanceOf(BindException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"libc", "nio"})
    void aPeerThatIsGoneIsAPortUnreachable(String kind) throws Exception {
        SlotSocket s = open(kind, V4);
        bindSomewhere(s, V4);
        DatagramChannel gone = peer(V4);
        InetSocketAddress where = local(gone);
        gone.close();
        s.connect(where);
        s.write(direct("anyone?"));   // the ICMP port unreachable comes back to the socket...
        // ...and the next call reports it
        assertThatThrownBy(() -> {
            s.write(direct("anyone?"));
            s.read(ByteBuffer.allocateDirect(64));
        }).isInstanceOf(PortUnreachableException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"libc", "nio"})
    void ipv6Loopback(String kind) throws Exception {
        InetAddress v6 = InetAddress.getByName("::1");
        Assumptions.assumeTrue(NetworkInterface.getByInetAddress(v6) != null, "no IPv6 loopback here");
        SlotSocket s = open(kind, v6);
        InetSocketAddress at = bindSomewhere(s, v6);
        DatagramChannel peer = peer(v6);
        peer.send(direct("six"), at);
        ByteBuffer in = ByteBuffer.allocateDirect(64);
        assertThat(s.receive(in)).isEqualTo(local(peer));
        assertThat(text(in)).isEqualTo("six");
        s.connect(local(peer));
        s.write(direct("back"));
        ByteBuffer got = ByteBuffer.allocate(64);
        peer.receive(got);
        assertThat(text(got)).isEqualTo("back");
    }

    @Test
    void unixSocketsInTheAbstractNamespace() throws Exception {
        Assumptions.assumeTrue(SlotSocket.implementation().equals("libc"), "no C-library sockets on this JVM");
        String base = "ibtwin-test-" + ProcessHandle.current().pid();
        LocalAddress serverName = new LocalAddress(base + ":out0");
        LocalAddress clientName = new LocalAddress(base + ":in42");
        SlotSocket server = SlotSocket.openFor(serverName);
        toClose.add(server);
        server.bind(serverName);
        SlotSocket client = SlotSocket.openLocal();
        toClose.add(client);
        client.bind(clientName);

        assertThat(client.send(direct("connect me"), serverName)).isEqualTo(10);
        ByteBuffer in = ByteBuffer.allocateDirect(2048);
        assertThat(server.receive(in)).isEqualTo(clientName);
        assertThat(text(in)).isEqualTo("connect me");

        server.connect(clientName);
        assertThat(server.write(direct("a MAD"))).isEqualTo(5);
        in.clear();
        assertThat(client.read(in)).isEqualTo(5);
        assertThat(text(in)).isEqualTo("a MAD");

        SlotSocket again = SlotSocket.openLocal();
        toClose.add(again);
        assertThatThrownBy(() -> again.bind(serverName)).isInstanceOf(BindException.class)
                .hasMessageContaining("@" + base + ":out0");

        client.close();   // the client gone: what is sent to it is refused
        assertThatThrownBy(() -> server.write(direct("anyone?"))).isInstanceOf(PortUnreachableException.class);

        // closing wakes a reader blocked on a unix socket too, and frees its name
        closeWakesABlockedRead(server);
        again.bind(serverName);
        SlotSocket ip = SlotSocket.open(V4);
        toClose.add(ip);
        assertThatThrownBy(() -> ip.bind(serverName)).isInstanceOf(java.net.SocketException.class)
                .hasMessageContaining("for an IP socket");
    }

    @Test
    void localAddressesAreCheckedNames() {
        assertThat(new LocalAddress("sim:ctl")).hasToString("@sim:ctl").isEqualTo(new LocalAddress("sim:ctl"));
        assertThatThrownBy(() -> new LocalAddress("")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new LocalAddress("a\0b")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new LocalAddress("x".repeat(LocalAddress.MAX_NAME + 1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new LocalAddress("sim\u00e9")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void anIpv6AddressOnAnIpv4CLibrarySocketIsRefused() throws Exception {
        SlotSocket s = open("libc", V4);
        assertThatThrownBy(() -> s.bind(new InetSocketAddress(InetAddress.getByName("::1"), 0)))
                .isInstanceOf(java.net.SocketException.class).hasMessageContaining("IPv4 socket");
    }
}
