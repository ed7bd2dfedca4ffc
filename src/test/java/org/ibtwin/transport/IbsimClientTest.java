package org.ibtwin.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.DatagramSocket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link IbsimClient}'s handshake, matching, retries and robustness, against {@link FakeIbsimServer}. */
@Timeout(30)
class IbsimClientTest {
    FakeIbsimServer server;
    IbsimClient client;

    @BeforeEach
    void start() throws Exception {
        server = new FakeIbsimServer();
    }

    @AfterEach
    void stop() throws Exception {
        if (client != null) {
            client.close();
        }
        server.close();
    }

    IbsimClient connect(boolean sm) {
        client = IbsimClient.connect("127.0.0.1", server.port(), null, sm);
        return client;
    }

    static byte[] smp(long tid) {
        byte[] m = new byte[256];
        m[0] = 1;
        m[1] = 0x01;
        m[2] = 1;
        m[3] = 1;
        ByteBuffer.wrap(m).putLong(8, tid).putShort(16, (short) 0x11);
        return m;
    }

    @Test
    void handshakeFillsTheLocalPort() {
        IbsimClient c = connect(false);
        assertThat(c.clientId()).isEqualTo(FakeIbsimServer.SLOT);
        assertThat(c.attachedNode()).isEqualTo("Fake1");
        assertThat(c.localPort()).isEqualTo(new LocalPort("Fake1", 2, FakeIbsimServer.NODE_GUID,
                FakeIbsimServer.NODE_GUID + 2, 0x1234, 2, 0x42, 4, false));
        assertThat(c.pkeys()[0]).isEqualTo(0xffff);
        assertThat(c.pkeys()[1]).isEqualTo(0x8001);
        assertThat(server.ctlTypes).startsWith(IbsimWire.TYPE_CONNECT, IbsimWire.TYPE_GET_NODEINFO,
                IbsimWire.TYPE_GET_PORTINFO, IbsimWire.TYPE_GET_PKEYS);
        c.close();
        assertThat(server.ctlTypes).endsWith(IbsimWire.TYPE_DISCONNECT);
    }

    @Test
    void anSmSetsAndOnCloseClearsIsSm() {
        IbsimClient c = connect(true);
        assertThat(c.localPort().isSm()).isTrue();
        assertThat(server.issmValues).containsExactly(1);
        c.close();
        assertThat(server.issmValues).containsExactly(1, 0);
        assertThat(server.ctlTypes).endsWith(IbsimWire.TYPE_SET_ISSM, IbsimWire.TYPE_DISCONNECT);
    }

    @Test
    void requestsGoOutInIbsimsLayout() {
        IbsimClient c = connect(false);
        long tid = c.nextTid();
        assertThat(tid >>> 48).isEqualTo(FakeIbsimServer.SLOT);
        c.call(smp(tid), MadAddress.smp(0x1234), Duration.ofSeconds(1), 0);
        byte[] d = server.received.get(0);
        assertThat(d).hasSize(288);
        assertThat(java.util.Arrays.copyOfRange(d, 0, 32)).containsExactly(
                0x12, 0x34, 0, 0,        // dlid: network-order LID in the low half of a little-endian u32
                0, 0, 0, 0,              // slid 0: ibsim fills in ours
                0, 0, 0, 0,              // dqp 0, big-endian
                0, 0, 0, 0,              // sqp 0 (an SMP)
                0, 0, 0, 0,              // status
                0, 0, 0, 0,              // padding
                0, 0, 0, 0, 0, 0, 1, 0); // length 256, big-endian
        assertThat(ByteBuffer.wrap(d).getLong(32 + 8)).isEqualTo(tid);

        byte[] gmp = smp(c.nextTid());
        gmp[1] = 0x04;
        c.call(gmp, MadAddress.gsi(0x0102), Duration.ofSeconds(1), 0);
        ByteBuffer g = ByteBuffer.wrap(server.received.get(1));
        assertThat(g.getShort(0)).isEqualTo((short) 0x0102);
        assertThat(g.getInt(8)).as("dqp").isEqualTo(1);
        assertThat(g.getInt(12)).as("sqp").isEqualTo(1);

        c.call(smp(c.nextTid()), MadAddress.directed(), Duration.ofSeconds(1), 0);
        ByteBuffer dr = ByteBuffer.wrap(server.received.get(2));
        assertThat(dr.getInt(0)).isEqualTo(0xffff0000);
        assertThat(dr.getInt(4)).isEqualTo(0xffff0000);
    }

    @Test
    void aForeignTidGoesOutWithOurSlotAndComesBackAsSent() {
        IbsimClient c = connect(false);
        long mine = 0x7777_0000_0000_0042L;
        byte[] r = c.call(smp(mine), MadAddress.smp(1), Duration.ofSeconds(1), 0);
        assertThat(ByteBuffer.wrap(r).getLong(8)).isEqualTo(mine);
        assertThat(ByteBuffer.wrap(server.received.get(0)).getLong(32 + 8))
                .isEqualTo(((long) FakeIbsimServer.SLOT << 48) | 0x42);
    }

    @Test
    void lostAnswersAreRetried() {
        AtomicInteger n = new AtomicInteger();
        server.onMad = (s, d) -> {
            if (n.incrementAndGet() >= 3) {
                s.sendToClient(FakeIbsimServer.answer(d));
            }
        };
        IbsimClient c = connect(false);
        long tid = c.nextTid();
        byte[] r = c.call(smp(tid), MadAddress.smp(1), Duration.ofMillis(100), 2);
        assertThat(ByteBuffer.wrap(r).getLong(8)).isEqualTo(tid);
        assertThat(server.received).hasSize(3);
        assertThat(server.received.get(2)).isEqualTo(server.received.get(0));

        n.set(-10);
        long t0 = System.nanoTime();
        assertThatThrownBy(() -> c.call(smp(c.nextTid()), MadAddress.smp(1), Duration.ofMillis(100), 1))
                .isInstanceOf(MadTimeoutException.class)
                .hasMessageContaining("no response within 100 ms, after 2 attempts");
        assertThat(System.nanoTime() - t0).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(200));
        assertThat(server.received).hasSize(5);
    }

    @Test
    void aBouncedMadCountsAsATimedOutAttempt() {
        server.onMad = (s, d) -> s.sendToClient(FakeIbsimServer.bounce(d));
        IbsimClient c = connect(false);
        long t0 = System.nanoTime();
        assertThatThrownBy(() -> c.call(smp(c.nextTid()), MadAddress.smp(1), Duration.ofSeconds(10), 3))
                .isInstanceOf(MadTimeoutException.class)
                .hasMessageContaining("status 110, ETIMEDOUT")
                .hasMessageContaining("after 4 attempts");
        assertThat(server.received).hasSize(4);
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void junkFromTheServerIsDroppedAndTheClientCarriesOn() {
        server.onMad = (s, d) -> {
            s.sendToClient(new byte[0]);
            s.sendToClient(new byte[10]);
            s.sendToClient(new byte[287]);
            s.sendToClient(new byte[289]);
            s.sendToClient(new byte[4000]);
            byte[] stray = FakeIbsimServer.answer(d);
            ByteBuffer.wrap(stray).putLong(32 + 8, 0x0003_dead_beef_0000L);
            s.sendToClient(stray);                       // a response nobody waits for
            s.sendToClient(FakeIbsimServer.bounce(stray)); // a bounce nobody waits for
            s.sendToClient(FakeIbsimServer.answer(d));
        };
        IbsimClient c = connect(false);
        for (int i = 0; i < 3; i++) {
            long tid = c.nextTid();
            byte[] r = c.call(smp(tid), MadAddress.smp(1), Duration.ofSeconds(1), 0);
            assertThat(ByteBuffer.wrap(r).getLong(8)).isEqualTo(tid);
            assertThat(ByteBuffer.wrap(r).getLong(64 + 12)).isEqualTo(FakeIbsimServer.NODE_GUID);
        }
    }

    @Test
    void manyInFlightAnsweredOutOfOrderAreAllMatched() throws Exception {
        int n = 64;
        List<byte[]> held = Collections.synchronizedList(new ArrayList<>());
        server.onMad = (s, d) -> {
            held.add(d);
            if (held.size() == n) {
                for (int i = n - 1; i >= 0; i--) {
                    s.sendToClient(FakeIbsimServer.answer(held.get(i)));
                }
            }
        };
        IbsimClient c = connect(false);
        List<CompletableFuture<byte[]>> fs = new ArrayList<>();
        long[] tids = new long[n];
        for (int i = 0; i < n; i++) {
            tids[i] = c.nextTid();
            fs.add(c.request(smp(tids[i]), MadAddress.smp(1), Duration.ofSeconds(5), 0));
        }
        for (int i = 0; i < n; i++) {
            assertThat(ByteBuffer.wrap(fs.get(i).get(5, TimeUnit.SECONDS)).getLong(8)).isEqualTo(tids[i]);
        }
        assertThat(server.received).hasSize(n);
    }

    @Test
    void aTidAlreadyInFlightIsRefused() {
        server.onMad = (s, d) -> {
        };
        IbsimClient c = connect(false);
        long tid = c.nextTid();
        CompletableFuture<byte[]> first = c.request(smp(tid), MadAddress.smp(1), Duration.ofSeconds(5), 0);
        CompletableFuture<byte[]> second = c.request(smp(tid), MadAddress.smp(1), Duration.ofSeconds(5), 0);
        assertThatThrownBy(second::get).hasCauseInstanceOf(MadTransportException.class)
                .hasMessageContaining("already in flight");
        assertThat(first).isNotDone();
    }

    @Test
    void closeFailsWhatIsInFlight() {
        server.onMad = (s, d) -> {
        };
        IbsimClient c = connect(false);
        CompletableFuture<byte[]> f = c.request(smp(c.nextTid()), MadAddress.smp(1), Duration.ofSeconds(30), 0);
        c.close();
        assertThatThrownBy(() -> f.get(2, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(MadTransportException.class).hasMessageContaining("closed");
        assertThatThrownBy(() -> c.call(smp(1), MadAddress.smp(1), Duration.ofSeconds(1), 0))
                .isInstanceOf(MadTransportException.class).hasMessageContaining("closed");
        c.close();  // twice is fine
    }

    @Test
    void unsolicitedMadsReachTheHandlerWithTheirSender() throws Exception {
        IbsimClient c = connect(true);
        AtomicReference<ReceivedMad> got = new AtomicReference<>();
        CountDownLatch latch = new CountDownLatch(2);
        c.onUnsolicited(r -> {
            got.compareAndSet(null, r);
            latch.countDown();
            // a handler may use the transport while the receiver thread is free
            c.call(smp(c.nextTid()), MadAddress.smp(1), Duration.ofSeconds(1), 0);
            latch.countDown();
        });
        byte[] trap = new byte[256];
        trap[0] = 1;
        trap[1] = 0x01;
        trap[2] = 1;
        trap[3] = 0x05;                               // Trap
        ByteBuffer.wrap(trap).putShort(16, (short) 0x0002);
        server.sendToClient(IbsimWire.encodeRequest(new IbsimWire.Header(0x42, 0x0107, 0, 0, 0, 256), trap));
        assertThat(latch.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(got.get().from().lid()).isEqualTo(0x0107);
        assertThat(got.get().from().qpn()).isZero();
        assertThat(got.get().mad()).isEqualTo(trap);
    }

    @Test
    void aRefusalOrNoServerIsAnException() throws Exception {
        assertThatThrownBy(() -> IbsimClient.connect("127.0.0.1", server.port(), "refuse", false))
                .isInstanceOf(MadTransportException.class).hasMessageContaining("refused");
        int dead;
        try (DatagramSocket s = new DatagramSocket(0)) {
            dead = s.getLocalPort();
        }
        long t0 = System.nanoTime();
        assertThatThrownBy(() -> IbsimClient.connect("127.0.0.1", dead, null, false, Duration.ofMillis(300)))
                .isInstanceOf(MadTransportException.class).hasMessageContaining("no ibsim listening");
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(3));
    }

    @Test
    void badArgumentsAreRejected() {
        IbsimClient c = connect(false);
        assertThatThrownBy(() -> c.request(new byte[100], MadAddress.smp(1), Duration.ofSeconds(1), 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> c.request(smp(1), MadAddress.smp(1), Duration.ZERO, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> c.request(smp(1), MadAddress.smp(1), Duration.ofSeconds(1), -1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> IbsimClient.connect("127.0.0.1", server.port(), "x".repeat(32), false))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theEnvironmentNamesTheServer() {
        assertThat(IbsimClient.target(Map.of(), null)).isEqualTo(new IbsimClient.Target("127.0.0.1", 7070, null));
        assertThat(IbsimClient.target(Map.of("IBSIM_SERVER_NAME", "sim.lab", "IBSIM_SERVER_PORT", "17123",
                "SIM_HOST", "Hca1"), null)).isEqualTo(new IbsimClient.Target("sim.lab", 17123, "Hca1"));
        assertThat(IbsimClient.target(Map.of("SIM_HOST", "Hca1"), "Hca2").simHost()).isEqualTo("Hca2");
        // local mode when IBSIM_SOCKNAME alone names the server, as libumad2sim chooses it
        assertThat(IbsimClient.target(Map.of("IBSIM_SOCKNAME", "lab"), null))
                .isEqualTo(new IbsimClient.Target(null, 0, null, "lab"));
        assertThat(IbsimClient.target(Map.of("IBSIM_SOCKNAME", "lab", "IBSIM_SERVER_NAME", "h"), null))
                .isEqualTo(new IbsimClient.Target("h", 7070, null));
        assertThatThrownBy(() -> IbsimClient.target(Map.of("IBSIM_SERVER_PORT", "x"), null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("IBSIM_SERVER_PORT");
    }
}
