package org.ibtwin.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.BindException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.DatagramChannel;
import java.nio.file.InvalidPathException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.ibtwin.transport.IbsimClient;
import org.ibtwin.transport.IbsimWire;
import org.ibtwin.transport.LocalPort;
import org.ibtwin.transport.MadAddress;
import org.ibtwin.transport.MadTimeoutException;
import org.ibtwin.transport.MadTransportException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link IbsimServer} over {@link FakeFabric}, driven by ibtwin's own {@link IbsimClient} and by raw datagrams. */
@Timeout(60)
class IbsimServerTest {
    static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    static final Duration TIMEOUT = Duration.ofMillis(500);
    static final String SW1_ID = "S-0008f10400000100";
    static final String HOST1_ID = "H-0002c90300000200";
    static final String HOST2_ID = "H-0002c90300000210";

    FakeFabric fabric;
    IbsimServer server;
    final List<AutoCloseable> toClose = new CopyOnWriteArrayList<>();

    @BeforeEach
    void startServer() throws IOException {
        fabric = new FakeFabric();
        server = new IbsimServer(fabric);
        server.start(LOOPBACK, 0);
    }

    @AfterEach
    void stopAll() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
        server.close();
        fabric.close();
    }

    IbsimClient attach(String simHost, boolean sm) {
        IbsimClient c = IbsimClient.connect("127.0.0.1", server.port(), simHost, sm, Duration.ofSeconds(2));
        toClose.add(c);
        return c;
    }

    // ---- MADs built by hand (IBA 13.4, 14.2.1.2) ----

    static byte[] smpGet(int cls, long tid, int attrId) {
        byte[] m = new byte[256];
        m[0] = 1;
        m[1] = (byte) cls;
        m[2] = 1;
        m[3] = 1;                     // Get
        ByteBuffer.wrap(m).putLong(8, tid).putShort(16, (short) attrId);
        return m;
    }

    /** A directed-route Get of {@code attrId} along {@code path} (path[0] = 0). */
    static byte[] drGet(long tid, int attrId, int... path) {
        byte[] m = smpGet(0x81, tid, attrId);
        m[7] = (byte) (path.length - 1);
        ByteBuffer.wrap(m).putShort(32, (short) 0xffff).putShort(34, (short) 0xffff);
        for (int i = 0; i < path.length; i++) {
            m[128 + i] = (byte) path[i];
        }
        return m;
    }

    static long nodeGuidOf(byte[] resp) {
        return ByteBuffer.wrap(resp).getLong(64 + 12);
    }

    static long portGuidOf(byte[] resp) {
        return ByteBuffer.wrap(resp).getLong(64 + 20);
    }

    static void await(BooleanSupplier cond, String what) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (!cond.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting until " + what);
            }
            Thread.sleep(10);
        }
    }

    // ---- attaching ----

    @Test
    void attachesAtTheDefaultNodeWithItsPortValues() {
        IbsimClient c = attach(null, false);
        assertThat(c.clientId()).isZero();
        assertThat(c.attachedNode()).isEqualTo(SW1_ID);
        assertThat(c.localPort()).isEqualTo(new LocalPort(SW1_ID, 0, FakeFabric.SW1, FakeFabric.SW1,
                FakeFabric.SW1_LID, 0, FakeFabric.SM_LID, 4, false));
        assertThat(c.nodeInfo()).isEqualTo(FakeFabric.nodeInfo(fabric.sw1, 0));
        assertThat(c.pkeys()[0]).isEqualTo(0xffff);
        assertThat(c.pkeys()[1]).isEqualTo(0x8001);
        assertThat(Arrays.stream(c.pkeys()).skip(2)).containsOnly(0);
        assertThat(fabric.asked).containsExactly("null");
        assertThat(server.clients()).singleElement().satisfies(cl -> {
            assertThat(cl.slot()).isZero();
            assertThat(cl.nodeName()).isEqualTo(SW1_ID);
            assertThat(cl.portGuid()).isEqualTo(FakeFabric.SW1);
            assertThat(cl.lid()).isEqualTo(1);
            assertThat(cl.sm()).isFalse();
            assertThat(cl.toString()).startsWith("Client 0: 127.0.0.1:")
                    .endsWith("connected at \"" + SW1_ID + "\" port 0x8f10400000100, lid 1, qp 0");
        });
    }

    @Test
    void attachesAtANodeNamedByIdOrByDescription() {
        IbsimClient byId = attach(HOST1_ID, false);
        assertThat(byId.localPort()).isEqualTo(new LocalPort(HOST1_ID, 1, FakeFabric.HOST1, FakeFabric.HOST1 + 1,
                FakeFabric.HOST1_LID, 0, FakeFabric.SM_LID, 4, false));
        IbsimClient byDesc = attach("host2 HCA-1", false);
        assertThat(byDesc.attachedNode()).as("the reply names the node by its id").isEqualTo(HOST2_ID);
        assertThat(byDesc.localPort().lid()).isEqualTo(FakeFabric.HOST2_LID);
        assertThat(byDesc.clientId()).isEqualTo(1);
    }

    @Test
    void anUnknownNodeIsRefusedAsIbsimRefusesIt() {
        assertThatThrownBy(() -> attach("no-such-node", false))
                .isInstanceOf(MadTransportException.class).hasMessageContaining("refused");
        assertThat(fabric.asked).containsExactly("no-such-node");
        assertThat(server.clients()).isEmpty();
        assertThat(attach(null, false).clientId()).as("the slot was not taken").isZero();
    }

    // ---- MADs ----

    @Test
    void directedRouteNodeInfoGoesThereAndBack() {
        IbsimClient c = attach(null, false);
        long tid = c.nextTid();
        byte[] self = c.call(drGet(tid, 0x11, 0), MadAddress.directed(), TIMEOUT, 0);
        assertThat(ByteBuffer.wrap(self).getLong(8)).isEqualTo(tid);
        assertThat(self[3] & 0xff).isEqualTo(0x81);
        assertThat(self[4] & 0x80).as("D bit").isEqualTo(0x80);
        assertThat(nodeGuidOf(self)).isEqualTo(FakeFabric.SW1);

        byte[] h1 = c.call(drGet(c.nextTid(), 0x11, 0, 1), MadAddress.directed(), TIMEOUT, 0);
        assertThat(nodeGuidOf(h1)).isEqualTo(FakeFabric.HOST1);
        assertThat(portGuidOf(h1)).isEqualTo(FakeFabric.HOST1 + 1);
        byte[] h2 = c.call(drGet(c.nextTid(), 0x11, 0, 2), MadAddress.directed(), TIMEOUT, 0);
        assertThat(nodeGuidOf(h2)).isEqualTo(FakeFabric.HOST2);

        IbsimClient fromHost = attach(HOST1_ID, false);
        byte[] across = fromHost.call(drGet(fromHost.nextTid(), 0x11, 0, 1, 2), MadAddress.directed(), TIMEOUT, 0);
        assertThat(nodeGuidOf(across)).isEqualTo(FakeFabric.HOST2);
    }

    @Test
    void requestsReachTheTwinWithTheSlotInTheTidAndTheirAddress() throws Exception {
        attach(null, false);
        IbsimClient c = attach(HOST2_ID, false);
        assertThat(c.clientId()).isEqualTo(1);
        long callerTid = 0x0000_1234_5678_9abcL;    // the caller's own TID, top bits clear
        byte[] r = c.call(smpGet(0x01, callerTid, 0x11), MadAddress.smp(FakeFabric.HOST1_LID), TIMEOUT, 0);
        assertThat(nodeGuidOf(r)).isEqualTo(FakeFabric.HOST1);
        FakeFabric.Sent sent = fabric.sent.getLast();
        assertThat(ByteBuffer.wrap(sent.mad()).getLong(8)).isEqualTo((1L << 48) | callerTid);
        assertThat(sent.to()).isEqualTo(MadAddress.smp(FakeFabric.HOST1_LID));
        assertThat(sent.from().node).isSameAs(fabric.host2);
    }

    @Test
    void whatTheTwinCannotDeliverComesBackAtOnceWithStatus110() {
        IbsimClient c = attach(null, false);
        long t0 = System.nanoTime();
        CompletableFuture<byte[]> f = c.request(drGet(c.nextTid(), 0x11, 0, 5), MadAddress.directed(),
                Duration.ofSeconds(3), 2);
        assertThat(f).failsWithin(Duration.ofSeconds(5)).withThrowableOfType(Exception.class)
                .havingCause().isInstanceOf(MadTimeoutException.class).withMessageContaining("status 110");
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).as("3 bounces, no 3 s timeouts")
                .isLessThan(Duration.ofSeconds(2));
    }

    @Test
    void aGmpReachesTheSmClientOfItsLidAndTheResponseComesBack() throws Exception {
        IbsimClient sm = attach(HOST1_ID, true);
        AtomicReference<MadAddress> seenFrom = new AtomicReference<>();
        AtomicReference<Long> seenTid = new AtomicReference<>();
        sm.onUnsolicited(r -> {
            seenFrom.set(r.from());
            byte[] resp = r.mad().clone();
            seenTid.set(ByteBuffer.wrap(resp).getLong(8));
            resp[3] = (byte) 0x81;
            resp[100] = 0x5a;
            sm.send(resp, MadAddress.gsi(r.from().lid()));
        });
        IbsimClient tool = attach(HOST2_ID, false);
        byte[] saGet = smpGet(0x03, 0x77, 0x11);
        saGet[2] = 2;
        byte[] resp = tool.call(saGet, MadAddress.gsi(FakeFabric.HOST1_LID), TIMEOUT, 0);
        assertThat(resp[3] & 0xff).isEqualTo(0x81);
        assertThat(resp[100]).isEqualTo((byte) 0x5a);
        assertThat(ByteBuffer.wrap(resp).getLong(8)).isEqualTo(0x77);
        assertThat(seenFrom.get().lid()).as("SLID").isEqualTo(FakeFabric.HOST2_LID);
        assertThat(seenFrom.get().qpn()).as("SQP").isEqualTo(1);
        assertThat(seenTid.get() >>> 48).as("the asker's slot in the TID").isEqualTo(tool.clientId());
    }

    // ---- many clients ----

    @Test
    void tenClientsAtOnceTheEleventhRefusedAndAFreedSlotReused() throws Exception {
        String[] at = {null, HOST1_ID, HOST2_ID};
        long[] self = {FakeFabric.SW1, FakeFabric.HOST1, FakeFabric.HOST2};
        List<IbsimClient> cs = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            cs.add(attach(at[i % 3], false));
        }
        assertThat(cs).extracting(IbsimClient::clientId).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
        assertThat(server.clients()).hasSize(10);

        List<CompletableFuture<Void>> all = new ArrayList<>();
        for (int i = 0; i < cs.size(); i++) {
            IbsimClient c = cs.get(i);
            long expect = self[i % 3];
            all.add(CompletableFuture.runAsync(() -> {
                List<CompletableFuture<byte[]>> fs = new ArrayList<>();
                for (int k = 0; k < 25; k++) {
                    fs.add(c.request(drGet(c.nextTid(), 0x11, 0), MadAddress.directed(), TIMEOUT, 2));
                }
                for (CompletableFuture<byte[]> f : fs) {
                    assertThat(nodeGuidOf(f.join())).isEqualTo(expect);
                }
            }));
        }
        CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get();

        assertThatThrownBy(() -> attach(null, false)).isInstanceOf(MadTransportException.class)
                .hasMessageContaining("refused");
        cs.get(4).close();
        await(() -> server.clients().size() == 9, "slot 4 is freed");
        IbsimClient again = attach(HOST1_ID, false);
        assertThat(again.clientId()).isEqualTo(4);
        assertThat(nodeGuidOf(again.call(drGet(again.nextTid(), 0x11, 0), MadAddress.directed(), TIMEOUT, 0)))
                .isEqualTo(FakeFabric.HOST1);
    }

    // ---- SMs ----

    @Test
    void anSmSetsIsSmAndASecondSmOnTheSameNodeIsRefused() throws Exception {
        IbsimClient sm = attach(HOST1_ID, true);
        assertThat(fabric.host1.capMask[1] & FakeFabric.CAP_IS_SM).isNotZero();
        assertThat(sm.localPort().isSm()).isTrue();
        assertThat(server.clients()).singleElement().extracting(IbsimServer.Client::sm).isEqualTo(true);

        assertThatThrownBy(() -> attach(HOST1_ID, true)).isInstanceOf(MadTransportException.class);
        assertThat(fabric.host1.capMask[1] & FakeFabric.CAP_IS_SM).as("the refused one left the bit alone")
                .isNotZero();
        IbsimClient tool = attach(HOST1_ID, false);
        IbsimClient otherSm = attach(HOST2_ID, true);
        assertThat(fabric.host2.capMask[1] & FakeFabric.CAP_IS_SM).isNotZero();
        assertThat(server.clients()).extracting(IbsimServer.Client::sm).containsExactly(true, false, true);

        tool.setIsSm(true);
        assertThat(server.clients()).extracting(IbsimServer.Client::sm).containsExactly(true, true, true);
        tool.setIsSm(false);
        sm.close();
        await(() -> server.clients().size() == 2, "the SM is gone");
        assertThat(fabric.host1.capMask[1] & FakeFabric.CAP_IS_SM).isZero();
        assertThat(attach(HOST1_ID, true).localPort().isSm()).as("a new SM may come").isTrue();
        otherSm.close();
    }

    @Test
    void disconnectDetachesAndTheClientMayComeBack() throws Exception {
        IbsimClient c = attach(HOST2_ID, false);
        c.close();
        await(() -> server.clients().isEmpty(), "the client is gone");
        assertThat(fabric.attachments).singleElement().satisfies(a -> assertThat(a.detached).isTrue());
        IbsimClient back = attach(HOST2_ID, false);
        assertThat(back.clientId()).isZero();
        assertThat(nodeGuidOf(back.call(drGet(back.nextTid(), 0x11, 0, 1), MadAddress.directed(), TIMEOUT, 0)))
                .isEqualTo(FakeFabric.SW1);
        assertThat(server.disconnect(0)).isTrue();
        assertThat(server.disconnect(0)).isFalse();
        assertThat(fabric.attachments.get(1).detached).isTrue();
    }

    // ---- raw datagrams: layouts and robustness ----

    /** A client speaking the protocol by hand: its control and data sockets. */
    final class Raw implements AutoCloseable {
        final DatagramSocket ctl;
        final DatagramSocket data;
        int slot = -1;

        Raw() throws SocketException {
            ctl = new DatagramSocket(new InetSocketAddress(LOOPBACK, 0));
            data = new DatagramSocket(new InetSocketAddress(LOOPBACK, 0));
            ctl.setSoTimeout(2000);
            data.setSoTimeout(2000);
            toClose.add(this);
        }

        byte[] ctl(int clientId, int type, byte[] payload) throws IOException {
            byte[] msg = IbsimWire.encodeCtl(clientId, type, payload);
            ctl.send(new DatagramPacket(msg, msg.length, server.address()));
            DatagramPacket p = new DatagramPacket(new byte[512], 512);
            ctl.receive(p);
            assertThat(p.getLength()).isEqualTo(IbsimWire.CTL_SIZE);
            return Arrays.copyOf(p.getData(), p.getLength());
        }

        IbsimWire.Ctl connect(String node, boolean sm) throws IOException {
            byte[] r = ctl(0, IbsimWire.TYPE_CONNECT, IbsimWire.encodeClientInfo(
                    new IbsimWire.ClientInfo(data.getLocalPort(), 0, sm, node)));
            IbsimWire.Ctl reply = IbsimWire.decodeCtl(r, r.length);
            if (reply.type() == IbsimWire.TYPE_CONNECT) {
                slot = IbsimWire.decodeClientInfo(reply.data()).id();
                data.connect(new InetSocketAddress(LOOPBACK, server.port() + 1 + slot));
            }
            return reply;
        }

        void sendData(byte[] d) throws IOException {
            data.send(new DatagramPacket(d, d.length));
        }

        byte[] receiveData() throws IOException {
            DatagramPacket p = new DatagramPacket(new byte[1024], 1024);
            data.receive(p);
            return Arrays.copyOf(p.getData(), p.getLength());
        }

        @Override
        public void close() {
            ctl.close();
            data.close();
        }
    }

    static ByteBuffer le(byte[] b) {
        return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    }

    @Test
    void controlRepliesHaveIbsimsByteLayouts() throws IOException {
        Raw raw = new Raw();
        IbsimWire.Ctl c = raw.connect(HOST1_ID, false);
        assertThat(c.type()).isEqualTo(IbsimWire.TYPE_CONNECT);
        assertThat(c.len()).as("len echoed as sent").isEqualTo(44);
        IbsimWire.ClientInfo info = IbsimWire.decodeClientInfo(c.data());
        assertThat(info).isEqualTo(new IbsimWire.ClientInfo(0, 0, false, HOST1_ID));
        int id = raw.slot;

        byte[] port = IbsimWire.decodeCtl(raw.ctl(id, IbsimWire.TYPE_GET_PORT, new byte[0]), 80).data();
        assertThat(le(port).getShort(0)).as("LID, host order").isEqualTo((short) FakeFabric.HOST1_LID);
        assertThat(port[2]).as("PortState").isEqualTo((byte) 4);

        byte[] vendor = IbsimWire.decodeCtl(raw.ctl(id, IbsimWire.TYPE_GET_VENDOR, new byte[0]), 80).data();
        assertThat(le(vendor).getInt(0)).isEqualTo(0x0002c9);
        assertThat(le(vendor).getInt(4)).isEqualTo(0x101b);
        assertThat(le(vendor).getInt(8)).isEqualTo(0xa0);
        assertThat(le(vendor).getLong(16)).as("firmware version").isEqualTo(1);

        byte[] gid = IbsimWire.decodeCtl(raw.ctl(id, IbsimWire.TYPE_GET_GID, new byte[0]), 80).data();
        assertThat(ByteBuffer.wrap(gid).getLong(0)).as("prefix, big-endian").isEqualTo(FakeFabric.GID_PREFIX);
        assertThat(le(gid).getLong(8)).as("node GUID, host order").isEqualTo(FakeFabric.HOST1);

        byte[] guid = IbsimWire.decodeCtl(raw.ctl(id, IbsimWire.TYPE_GET_GUID, new byte[0]), 80).data();
        assertThat(le(guid).getLong(0)).isEqualTo(FakeFabric.HOST1);

        byte[] ni = IbsimWire.decodeCtl(raw.ctl(id, IbsimWire.TYPE_GET_NODEINFO, new byte[0]), 80).data();
        assertThat(ni).isEqualTo(FakeFabric.nodeInfo(fabric.host1, 1));
        byte[] pi = IbsimWire.decodeCtl(raw.ctl(id, IbsimWire.TYPE_GET_PORTINFO, new byte[] {0}), 80).data();
        assertThat(pi).isEqualTo(FakeFabric.portInfo(fabric.host1, 1));

        byte[] pk = IbsimWire.decodeCtl(raw.ctl(id, IbsimWire.TYPE_GET_PKEYS, new byte[0]), 80).data();
        assertThat(Arrays.copyOf(pk, 4)).isEqualTo(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0x80, 0x01});
        assertThat(Arrays.copyOfRange(pk, 4, 64)).containsOnly(0);

        IbsimWire.Ctl issm = IbsimWire.decodeCtl(raw.ctl(id, IbsimWire.TYPE_SET_ISSM, IbsimWire.hostIntBytes(1)),
                80);
        assertThat(issm.type()).isEqualTo(IbsimWire.TYPE_SET_ISSM);
        assertThat(fabric.host1.capMask[1] & FakeFabric.CAP_IS_SM).isNotZero();

        IbsimWire.Ctl bye = IbsimWire.decodeCtl(raw.ctl(id, IbsimWire.TYPE_DISCONNECT, new byte[0]), 80);
        assertThat(bye.type()).isEqualTo(IbsimWire.TYPE_DISCONNECT);
        assertThat(server.clients()).isEmpty();
        assertThat(fabric.host1.capMask[1] & FakeFabric.CAP_IS_SM).as("the twin's detach clears IsSM").isZero();
        IbsimWire.Ctl again = IbsimWire.decodeCtl(raw.ctl(id, IbsimWire.TYPE_DISCONNECT, new byte[0]), 80);
        assertThat(again.type()).as("an unknown slot's DISCONNECT is answered").isEqualTo(IbsimWire.TYPE_DISCONNECT);
        IbsimWire.Ctl gone = IbsimWire.decodeCtl(raw.ctl(id, IbsimWire.TYPE_GET_GUID, new byte[0]), 80);
        assertThat(gone.type()).as("no client there").isEqualTo(IbsimWire.TYPE_ERROR);
    }

    @Test
    void madsToARawClientCarryIbsimsHeader() throws Exception {
        Raw raw = new Raw();
        raw.connect(HOST2_ID, false);
        byte[] req = IbsimWire.encodeRequest(new IbsimWire.Header(FakeFabric.SW1_LID, 0, 0, 0, 0, 256),
                smpGet(0x01, 0x0000_0007_0000_0042L, 0x11));
        raw.sendData(req);
        byte[] resp = raw.receiveData();
        IbsimWire.Header h = IbsimWire.decodeHeader(resp, resp.length);
        assertThat(h).isEqualTo(new IbsimWire.Header(FakeFabric.HOST2_LID, FakeFabric.SW1_LID, 0, 0, 0, 256));
        assertThat(ByteBuffer.wrap(resp).getLong(32 + 8)).as("slot 0 in the top bits, agent bits kept")
                .isEqualTo(0x0000_0007_0000_0042L);
        assertThat(nodeGuidOf(IbsimWire.mad(resp))).isEqualTo(FakeFabric.SW1);

        byte[] dr = IbsimWire.encodeRequest(new IbsimWire.Header(0xffff, 0xffff, 0, 0, 0, 256),
                drGet(0x55, 0x11, 0, 1));
        raw.sendData(dr);
        IbsimWire.Header drh = IbsimWire.decodeHeader(raw.receiveData(), 288);
        assertThat(drh).isEqualTo(new IbsimWire.Header(0xffff, 0xffff, 0, 0, 0, 256));

        byte[] lost = IbsimWire.encodeRequest(new IbsimWire.Header(0xffff, 0xffff, 0, 0, 0, 256),
                drGet(0x56, 0x11, 0, 1, 7));
        raw.sendData(lost);
        byte[] bounced = raw.receiveData();
        assertThat(IbsimWire.decodeHeader(bounced, 288).status()).isEqualTo(IbsimWire.STATUS_TIMEOUT);
        assertThat(IbsimWire.isResponse(IbsimWire.mad(bounced))).isFalse();

        FakeFabric.Att att = fabric.attachments.getFirst();
        byte[] trap = smpGet(0x01, 0, 0x02);
        trap[3] = 5;
        fabric.push(att, trap, new MadAddress(FakeFabric.SW1_LID, 0, 0, 0, 0));
        byte[] t = raw.receiveData();
        assertThat(IbsimWire.decodeHeader(t, t.length))
                .isEqualTo(new IbsimWire.Header(FakeFabric.HOST2_LID, FakeFabric.SW1_LID, 0, 0, 0, 256));
        assertThat(IbsimWire.mad(t)).isEqualTo(trap);
    }

    @Test
    void garbageIsDroppedAndServingGoesOn() throws Exception {
        IbsimClient c = attach(null, false);
        long before = server.droppedDatagrams();
        try (DatagramSocket junk = new DatagramSocket(new InetSocketAddress(LOOPBACK, 0))) {
            junk.setSoTimeout(300);
            InetSocketAddress ctl = server.address();
            ThreadLocalRandom rnd = ThreadLocalRandom.current();
            int[] sizes = {0, 1, 79, 81, 287, 288, 289, 1400};
            for (int size : sizes) {
                byte[] b = new byte[size];
                rnd.nextBytes(b);
                for (int port = ctl.getPort(); port <= ctl.getPort() + 10; port++) {
                    junk.send(new DatagramPacket(b, b.length, LOOPBACK, port));
                }
            }
            byte[] badMagic = IbsimWire.encodeCtl(0, IbsimWire.TYPE_GET_GUID, new byte[0]);
            badMagic[0] = 0;
            junk.send(new DatagramPacket(badMagic, 80, ctl));
            byte[] badSlot = IbsimWire.encodeCtl(99, IbsimWire.TYPE_GET_GUID, new byte[0]);
            junk.send(new DatagramPacket(badSlot, 80, ctl));
            byte[] negSlot = IbsimWire.encodeCtl(-1, IbsimWire.TYPE_GET_PORTINFO, new byte[0]);
            junk.send(new DatagramPacket(negSlot, 80, ctl));
            assertThatThrownBy(() -> junk.receive(new DatagramPacket(new byte[80], 80)))
                    .as("none of these is answered").isInstanceOf(java.net.SocketTimeoutException.class);

            byte[] odd = IbsimWire.encodeCtl(0, 42, new byte[] {1, 2, 3});
            junk.send(new DatagramPacket(odd, 80, ctl));
            DatagramPacket p = new DatagramPacket(new byte[80], 80);
            junk.receive(p);
            assertThat(p.getData()).as("an unknown type is echoed, as ibsim does").isEqualTo(odd);

            byte[] portless = IbsimWire.encodeCtl(0, IbsimWire.TYPE_CONNECT,
                    IbsimWire.encodeClientInfo(new IbsimWire.ClientInfo(0, 0, false, "")));
            junk.send(new DatagramPacket(portless, 80, ctl));
            junk.receive(p);
            assertThat(IbsimWire.decodeCtl(p.getData(), 80).type()).as("CONNECT without a data port")
                    .isEqualTo(IbsimWire.TYPE_ERROR);
        }
        // Malformed MADs from a client's own data socket.
        Raw raw = new Raw();
        raw.connect(HOST1_ID, false);
        raw.sendData(new byte[100]);
        raw.sendData(new byte[300]);
        raw.sendData(IbsimWire.encodeRequest(new IbsimWire.Header(1, 0, -1, 0, 0, 256), new byte[256]));
        raw.sendData(IbsimWire.encodeRequest(new IbsimWire.Header(0xffff, 0xffff, 0, 0, 0, 256),
                drGet(0x99, 0x11, 0)));
        byte[] ok = raw.receiveData();
        assertThat(nodeGuidOf(IbsimWire.mad(ok))).as("the good MAD after the bad ones").isEqualTo(FakeFabric.HOST1);

        assertThat(server.droppedDatagrams() - before).isGreaterThanOrEqualTo(8 * 10 + 3 + 3);
        assertThat(nodeGuidOf(c.call(drGet(c.nextTid(), 0x11, 0, 2), MadAddress.directed(), TIMEOUT, 0)))
                .isEqualTo(FakeFabric.HOST2);
        assertThat(server.clients()).hasSize(2);
    }

    @Test
    void aClientThatVanishesWithoutDisconnectIsDetachedAndOthersGoOn() throws Exception {
        IbsimClient other = attach(HOST2_ID, false);
        Raw raw = new Raw();
        raw.connect(HOST1_ID, false);
        assertThat(server.clients()).hasSize(2);
        FakeFabric.Att ghost = fabric.attachments.get(1);
        raw.data.close();                  // gone, without DISCONNECT
        byte[] trap = smpGet(0x01, 0, 0x02);
        trap[3] = 5;
        for (int i = 0; i < 3 && !ghost.detached; i++) {
            fabric.push(ghost, trap, new MadAddress(1, 0, 0, 0, 0));
            fabric.settle();
            Thread.sleep(50);
        }
        await(() -> ghost.detached, "the vanished client is detached");
        assertThat(server.clients()).extracting(IbsimServer.Client::nodeName).containsExactly(HOST2_ID);
        assertThat(nodeGuidOf(other.call(drGet(other.nextTid(), 0x11, 0, 1, 1), MadAddress.directed(), TIMEOUT,
                0))).isEqualTo(FakeFabric.HOST1);
    }

    @Test
    void aConnectFromAConnectedClientsAddressReplacesIt() throws Exception {
        Raw raw = new Raw();
        raw.connect(HOST1_ID, false);
        raw.data.disconnect();
        raw.connect(HOST2_ID, false);
        assertThat(raw.slot).isZero();
        assertThat(server.clients()).singleElement().extracting(IbsimServer.Client::nodeName).isEqualTo(HOST2_ID);
        assertThat(fabric.attachments.getFirst().detached).isTrue();
    }

    @Test
    void aConnectResentByAClientThatGaveUpWaitingIsAnsweredAgainWithItsSlot() throws Exception {
        Raw other = new Raw();
        other.connect(HOST2_ID, false);
        Raw raw = new Raw();
        IbsimWire.Ctl first = raw.connect(HOST1_ID, true);
        raw.data.disconnect();
        IbsimWire.Ctl again = raw.connect(HOST1_ID, true);
        assertThat(again.type()).as("the resent CONNECT of an SM").isEqualTo(IbsimWire.TYPE_CONNECT);
        assertThat(IbsimWire.decodeClientInfo(again.data()).id()).isEqualTo(IbsimWire.decodeClientInfo(first.data())
                .id()).isEqualTo(1);
        assertThat(server.clients()).hasSize(2);
        assertThat(fabric.attachments).as("no second attachment").hasSize(2);
        assertThat(fabric.attachments.get(1).detached).isFalse();
        // a different request from that address is a new client: it replaces the old one
        raw.data.disconnect();
        raw.connect(HOST2_ID, true);
        assertThat(server.clients()).extracting(IbsimServer.Client::nodeName).containsExactlyInAnyOrder(HOST2_ID,
                HOST2_ID);
        assertThat(fabric.attachments.get(1).detached).isTrue();
    }

    // ---- lifecycle ----

    @Test
    void closeDetachesEveryoneAndReleasesThePorts() throws Exception {
        attach(null, false);
        attach(HOST1_ID, true);
        int port = server.port();
        server.close();
        assertThat(fabric.attachments).hasSize(2).allSatisfy(a -> assertThat(a.detached).isTrue());
        assertThat(server.clients()).isEmpty();
        try (IbsimServer again = new IbsimServer(fabric)) {
            again.start(LOOPBACK, port);
            assertThat(again.port()).isEqualTo(port);
            IbsimClient c = IbsimClient.connect("127.0.0.1", port, HOST2_ID, false, Duration.ofSeconds(2));
            toClose.add(c);
            assertThat(c.clientId()).isZero();
            c.close();
        }
        assertThatThrownBy(() -> server.start(LOOPBACK, 0)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void startAtATakenRangeFailsAndLeavesNothingBound() throws Exception {
        for (int attempt = 0; ; attempt++) {
            int base = 17300 + ThreadLocalRandom.current().nextInt(80);
            DatagramSocket squatter;
            try {
                squatter = new DatagramSocket(new InetSocketAddress(LOOPBACK, base + 3));
            } catch (SocketException e) {
                if (attempt < 10) {
                    continue;
                }
                throw e;
            }
            try (squatter; IbsimServer s = new IbsimServer(fabric)) {
                assertThatThrownBy(() -> s.start(LOOPBACK, base)).isInstanceOf(BindException.class)
                        .hasMessageContaining(String.valueOf(base + 3));
                try (DatagramSocket free = new DatagramSocket(new InetSocketAddress(LOOPBACK, base))) {
                    assertThat(free.getLocalPort()).as("the control port was released").isEqualTo(base);
                }
            }
            return;
        }
    }

    @Test
    void localModeIsOutOfTheJdksReach() {
        // ibsim's local mode: unix datagram sockets in the abstract namespace. Neither half exists in the JDK; the
        // day this fails, IbsimServer can serve local mode too.
        assertThatThrownBy(() -> DatagramChannel.open(StandardProtocolFamily.UNIX))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> UnixDomainSocketAddress.of("\0sim:ctl")).isInstanceOf(InvalidPathException.class);
    }

    @Test
    void slotsAreDistinctUnderConcurrentConnects() throws Exception {
        List<CompletableFuture<IbsimClient>> fs = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            fs.add(CompletableFuture.supplyAsync(() -> attach(null, false)));
        }
        Set<Integer> ids = new HashSet<>();
        for (CompletableFuture<IbsimClient> f : fs) {
            ids.add(f.get().clientId());
        }
        assertThat(ids).containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
    }
}
