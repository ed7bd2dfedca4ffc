package org.ibtwin.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.ibtwin.transport.IbsimClient;
import org.ibtwin.transport.IbsimWire;
import org.ibtwin.transport.LocalAddress;
import org.ibtwin.transport.MadAddress;
import org.ibtwin.transport.SlotSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What fuzzing found at the ibsim endpoint's slots: a CONNECT naming one of the server's own ports (a MAD that
 * circulates for ever), and clients that exit without DISCONNECT holding their slots for ever.
 */
@Timeout(60)
class IbsimServerSlotsTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private final FakeFabric fabric = new FakeFabric();
    private final IbsimServer server = new IbsimServer(fabric);
    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : toClose.reversed()) {
            c.close();
        }
        server.close();
        fabric.close();
    }

    /** Sends CONNECT from a fresh control socket naming {@code dataPort}; the reply's type. */
    private int rawConnect(int dataPort, boolean sm, String node) throws IOException {
        try (DatagramSocket ctl = new DatagramSocket(new InetSocketAddress(LOOPBACK, 0))) {
            ctl.setSoTimeout(2000);
            byte[] msg = IbsimWire.encodeCtl(0, IbsimWire.TYPE_CONNECT,
                    IbsimWire.encodeClientInfo(new IbsimWire.ClientInfo(dataPort, 0, sm, node)));
            ctl.send(new DatagramPacket(msg, msg.length, server.address()));
            DatagramPacket p = new DatagramPacket(new byte[512], 512);
            ctl.receive(p);
            return IbsimWire.decodeCtl(Arrays.copyOf(p.getData(), p.getLength()), p.getLength()).type();
        }
    }

    private IbsimClient attach(String node, boolean sm) {
        IbsimClient c = IbsimClient.connect("127.0.0.1", server.port(), node, sm, Duration.ofSeconds(2));
        toClose.add(c);
        return c;
    }

    /** The node GUID a NodeInfo by directed route from {@code c} answers with: its requests reach it, once. */
    private static long nodeGuidProbed(IbsimClient c) {
        byte[] probe = IbsimServerTest.drGet(c.nextTid(), 0x11, 0);
        return IbsimServerTest.nodeGuidOf(c.call(probe, MadAddress.directed(), Duration.ofSeconds(1), 0));
    }

    @Test
    void aConnectNamingOneOfTheServersOwnPortsIsRefused() throws Exception {
        server.start(LOOPBACK, 0);
        int ctl = server.port();
        for (int own : new int[] {ctl + 1, ctl, ctl + 5, ctl + 10}) {
            assertThat(rawConnect(own, true, IbsimServerTest.HOST1_ID)).as("data port %d", own)
                    .isEqualTo(IbsimWire.TYPE_ERROR);
        }
        assertThat(server.clients()).isEmpty();
        assertThat(fabric.attachments).as("nothing was attached").isEmpty();
        // a real SM client there goes on as before: its SA request to its own LID reaches it once
        IbsimClient sm = attach(IbsimServerTest.HOST1_ID, true);
        assertThat(sm.clientId()).isZero();
        assertThat(nodeGuidProbed(sm)).isEqualTo(FakeFabric.HOST1);
    }

    @Test
    void tenClientsThatVanishWithoutDisconnectLeaveTheirSlotsToAnEleventh() throws Exception {
        server.start(LOOPBACK, 0);
        for (int i = 0; i < 10; i++) {
            try (DatagramSocket data = new DatagramSocket(new InetSocketAddress(LOOPBACK, 0))) {
                assertThat(rawConnect(data.getLocalPort(), false, null)).isEqualTo(IbsimWire.TYPE_CONNECT);
            }   // its data socket closed, no DISCONNECT: the client is gone
        }
        IbsimClient eleventh = attach(IbsimServerTest.HOST2_ID, false);
        // With every slot held, the CONNECT itself frees the vanished ones. If the 2-second reaper ran during the
        // loop, a slot was free, the eleventh took it and the reaper frees the rest on its next round.
        IbsimServerTest.await(() -> server.clients().size() == 1, "the ten vanished clients are reclaimed");
        assertThat(server.clients()).singleElement().extracting(IbsimServer.Client::nodeName)
                .isEqualTo(IbsimServerTest.HOST2_ID);
        assertThat(fabric.attachments.subList(0, 10)).allSatisfy(a -> assertThat(a.detached).isTrue());
        assertThat(nodeGuidProbed(eleventh)).isEqualTo(FakeFabric.HOST2);
    }

    @Test
    void aVanishedClientIsReclaimedWithinSecondsAndASilentLiveOneIsKept() throws Exception {
        server.start(LOOPBACK, 0);
        DatagramSocket live = new DatagramSocket(new InetSocketAddress(LOOPBACK, 0));
        toClose.add(live);
        assertThat(rawConnect(live.getLocalPort(), false, null)).isEqualTo(IbsimWire.TYPE_CONNECT);
        try (DatagramSocket data = new DatagramSocket(new InetSocketAddress(LOOPBACK, 0))) {
            assertThat(rawConnect(data.getLocalPort(), true, IbsimServerTest.HOST1_ID))
                    .isEqualTo(IbsimWire.TYPE_CONNECT);
        }
        assertThat(server.clients()).hasSize(2);
        IbsimServerTest.await(() -> server.clients().size() == 1, "the vanished SM client is reclaimed");
        assertThat(server.clients()).singleElement().extracting(IbsimServer.Client::slot).isEqualTo(0);
        assertThat(server.reclaimVanishedClients()).as("the silent live client stays").isZero();
    }

    @Test
    void localModeClientsThatVanishLeaveTheirSlotsToAnEleventh() throws Exception {
        Assumptions.assumeTrue(SlotSocket.implementation().equals("libc"),
                "ibsim's local mode needs C-library sockets (a JDK 22+ on Linux)");
        String base = "ibtwin-slots-" + ProcessHandle.current().pid();
        server.startLocal(base);
        ByteBuffer reply = ByteBuffer.allocateDirect(512);
        for (int i = 0; i < 10; i++) {
            int pid = 4_000_000 + i;   // above any pid Linux hands out: the name is this test's alone
            try (SlotSocket ctl = SlotSocket.openLocal(); SlotSocket data = SlotSocket.openLocal()) {
                ctl.bind(new LocalAddress(base + ":ctl" + pid));
                data.bind(new LocalAddress(base + ":in" + pid));
                ctl.setReceiveTimeout(Duration.ofSeconds(2));
                byte[] msg = IbsimWire.encodeCtl(0, IbsimWire.TYPE_CONNECT,
                        IbsimWire.encodeClientInfo(new IbsimWire.ClientInfo(pid, 0, false, null)));
                ctl.send(ByteBuffer.wrap(msg), server.endpoint());
                reply.clear();
                ctl.receive(reply);
                byte[] got = new byte[reply.flip().remaining()];
                reply.get(got);
                assertThat(IbsimWire.decodeCtl(got, got.length).type())
                        .isEqualTo(IbsimWire.TYPE_CONNECT);
            }
        }
        IbsimClient eleventh = IbsimClient.connectLocal(base, null, false, Duration.ofSeconds(2));
        toClose.add(eleventh);
        IbsimServerTest.await(() -> server.clients().size() == 1, "the ten vanished clients are reclaimed");
        assertThat(eleventh.localPort().portGuid()).isEqualTo(FakeFabric.SW1);
    }

    /** A MAD on which the twin throws is counted as a fault, and the first is kept with its bytes in hex. */
    @Test
    void aMadTheTwinThrowsOnIsAFaultKeptWithItsBytes() throws Exception {
        AttachPoint throwing = node -> {
            Attachment real = fabric.attach(node);
            return (Attachment) java.lang.reflect.Proxy.newProxyInstance(Attachment.class.getClassLoader(),
                    new Class<?>[] {Attachment.class}, (proxy, m, args) -> {
                        if (m.getName().equals("send")) {
                            throw new IllegalStateException("boom");
                        }
                        try {
                            return m.invoke(real, args);
                        } catch (java.lang.reflect.InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
        };
        try (IbsimServer s = new IbsimServer(throwing)) {
            s.start(LOOPBACK, 0);
            IbsimClient c = IbsimClient.connect("127.0.0.1", s.port(), null, false, Duration.ofSeconds(2));
            toClose.add(c);
            byte[] mad = IbsimServerTest.drGet(0x1234, 0x11, 0);
            c.send(mad, MadAddress.directed());
            IbsimServerTest.await(() -> s.faults() == 1, "the fault is counted");
            assertThat(s.firstFault()).startsWith("the twin refused a MAD from client 0: java.lang.IllegalStateException: "
                    + "boom; input (256 bytes): 0181010100000000").contains("1234");
        }
    }
}
