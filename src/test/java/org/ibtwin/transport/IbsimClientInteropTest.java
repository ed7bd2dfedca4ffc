package org.ibtwin.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.ibtwin.fixture.TestResources;
import org.ibtwin.interop.RemoteIbsim;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@link IbsimClient} against a real {@code ibsim -r}: attach, local port, directed-route SMPs, traps and SMs. */
@Tag("interop")
@Timeout(60)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class IbsimClientInteropTest {
    static final String NET_FILE = "transport.net";
    static final long SW1 = 0x0008f10400000100L;
    static final long SW2 = 0x0008f10400000110L;
    static final long HOST1 = 0x0002c90300000200L;
    static final long HOST2 = 0x0002c90300000210L;
    static final long HOST3 = 0x0002c90300000220L;
    static final long HOST4 = 0x0002c90300000230L;
    static final Duration TIMEOUT = Duration.ofMillis(300);
    /** This test's band of ibsim control ports (never the default 7070). */
    static final int FIRST_PORT = 17100;
    static final int LAST_PORT = 17180;

    /**
     * Two switches joined by two cables (7-7, 8-8), two CAs on each; host1's HCA has a second, unconnected port. LIDs
     * come from the comment tails, which ibsim reads: switches 1 and 2, hosts 11..14.
     */
    static final String NET = TestResources.text("/topo/transport-interop.net");

    /** The ibsim of this class's tests (one instance for them all), started by {@link #start}. */
    RemoteIbsim sim;
    final List<IbsimClient> clients = new ArrayList<>();

    @BeforeAll
    void startIbsim(@TempDir Path dir) throws Exception {
        Optional<Path> exe = RemoteIbsim.executable();
        if (exe.isEmpty()) {
            System.err.println("INTEROP SKIPPED: ibsim not installed (package ibsim-utils); "
                    + getClass().getSimpleName() + " not run");
            return;
        }
        Path net = dir.resolve(NET_FILE);
        Files.writeString(net, NET);
        sim = start(exe.get(), net);
    }

    /** Starts ibsim on {@code net}: in remote mode here; null when this JVM cannot run the tests (with a notice). */
    RemoteIbsim start(Path exe, Path net) throws Exception {
        return RemoteIbsim.start(exe, net, FIRST_PORT, LAST_PORT, List.of(), Duration.ofSeconds(10));
    }

    @BeforeEach
    void needIbsim() {
        Assumptions.assumeTrue(sim != null, "ibsim not installed, or not usable here");
    }

    @AfterAll
    void stopIbsim() {
        if (sim != null) {
            sim.close();
            sim = null;
        }
    }

    @AfterEach
    void closeClients() {
        clients.forEach(IbsimClient::close);
        clients.clear();
    }

    IbsimClient attach(String simHost, boolean sm) {
        IbsimClient c = connect(simHost, sm);
        clients.add(c);
        return c;
    }

    /** A client of {@link #sim} at {@code simHost}: over UDP here, through unix sockets in the local-mode test. */
    IbsimClient connect(String simHost, boolean sm) {
        return IbsimClient.connect(RemoteIbsim.HOST, sim.port(), simHost, sm);
    }

    // ---- MADs built by hand, per IBA 13.4 and 14.2.1.2 ----

    /** A directed-route SMP Get of {@code attrId} along {@code path} (path[0] = 0, hop count = length - 1). */
    static byte[] drGet(long tid, int attrId, int... path) {
        byte[] m = new byte[256];
        m[0] = 1;                       // BaseVersion
        m[1] = (byte) 0x81;             // MgmtClass: directed-route SMP
        m[2] = 1;                       // ClassVersion
        m[3] = 1;                       // R=0, Method Get
        m[4] = 0;                       // D=0, Status 0
        m[5] = 0;
        m[6] = 0;                       // HopPointer
        m[7] = (byte) (path.length - 1);  // HopCount
        for (int i = 0; i < 8; i++) {   // TID, big-endian
            m[8 + i] = (byte) (tid >>> (56 - 8 * i));
        }
        m[16] = (byte) (attrId >> 8);   // AttributeID
        m[17] = (byte) attrId;
        // 20..23 AttributeModifier 0, 24..31 M_Key 0
        m[32] = (byte) 0xff;            // DrSLID = permissive
        m[33] = (byte) 0xff;
        m[34] = (byte) 0xff;            // DrDLID = permissive
        m[35] = (byte) 0xff;
        for (int i = 0; i < path.length; i++) {
            m[128 + i] = (byte) path[i];  // InitialPath
        }
        return m;
    }

    static byte[] drNodeInfo(long tid, int... path) {
        return drGet(tid, 0x0011, path);
    }

    static long nodeGuidOf(byte[] resp) {
        return ByteBuffer.wrap(resp).getLong(64 + 12);
    }

    static long portGuidOf(byte[] resp) {
        return ByteBuffer.wrap(resp).getLong(64 + 20);
    }

    static void assertGoodDrResponse(byte[] resp, long tid) {
        assertThat(resp).hasSize(256);
        assertThat(resp[3] & 0xff).as("R bit + GetResp").isEqualTo(0x81);
        assertThat(resp[4] & 0x80).as("D bit").isEqualTo(0x80);
        assertThat(ByteBuffer.wrap(resp).getShort(4) & 0x7fff).as("status").isZero();
        assertThat(ByteBuffer.wrap(resp).getLong(8)).as("TID").isEqualTo(tid);
    }

    static byte[] bytes(long guid) {
        return ByteBuffer.allocate(8).putLong(guid).array();
    }

    // ---- tests ----

    @Test
    void attachesAtTheDefaultNodeAndReadsItsPort() {
        IbsimClient c = attach(null, false);
        assertThat(c.attachedNode()).isEqualTo("S-0008f10400000100");
        assertThat(c.clientId()).isBetween(0, 9);
        LocalPort p = c.localPort();
        assertThat(p.caName()).isEqualTo("S-0008f10400000100");
        assertThat(p.nodeGuid()).isEqualTo(SW1);
        assertThat(p.portGuid()).isEqualTo(SW1);
        assertThat(p.portNumber()).isZero();
        assertThat(p.lid()).isEqualTo(1);
        assertThat(p.lmc()).isZero();
        assertThat(p.state()).as("Active").isEqualTo(4);
        assertThat(p.isSm()).isFalse();
        assertThat(c.nodeInfo()[2]).as("node type switch").isEqualTo((byte) 2);
        assertThat(c.nodeInfo()[3]).as("ports").isEqualTo((byte) 8);
        assertThat(c.pkeys()[0]).isEqualTo(0xffff);
        long tid = c.nextTid();
        assertThat(tid >>> 48).as("our slot in the TID").isEqualTo(c.clientId());
    }

    @Test
    void directedRouteNodeInfoReachesEveryNode() {
        IbsimClient c = attach(null, false);
        record Hop(int[] path, long node, long port, int localPort) {
        }
        List<Hop> hops = List.of(
                new Hop(new int[] {0}, SW1, SW1, 0),
                new Hop(new int[] {0, 1}, HOST1, HOST1 + 1, 1),
                new Hop(new int[] {0, 2}, HOST2, HOST2 + 1, 1),
                new Hop(new int[] {0, 7}, SW2, SW2, 7),
                new Hop(new int[] {0, 8}, SW2, SW2, 8),
                new Hop(new int[] {0, 7, 1}, HOST3, HOST3 + 1, 1),
                new Hop(new int[] {0, 8, 3}, HOST4, HOST4 + 1, 1),
                new Hop(new int[] {0, 7, 8}, SW1, SW1, 8));
        for (Hop h : hops) {
            long tid = c.nextTid();
            byte[] r = c.call(drNodeInfo(tid, h.path()), MadAddress.directed(), TIMEOUT, 2);
            assertGoodDrResponse(r, tid);
            assertThat(java.util.Arrays.copyOfRange(r, 64 + 12, 64 + 20)).as("NodeGUID via %s",
                    java.util.Arrays.toString(h.path())).isEqualTo(bytes(h.node()));
            assertThat(portGuidOf(r)).isEqualTo(h.port());
            assertThat(r[64 + 36] & 0xff).as("LocalPortNum").isEqualTo(h.localPort());
            assertThat(r[7] & 0xff).as("hop count kept").isEqualTo(h.path().length - 1);
        }
    }

    @Test
    void fourRequestsInFlightAreMatchedByTid() throws Exception {
        IbsimClient c = attach(null, false);
        int[][] paths = {{0, 1}, {0, 7}, {0, 7, 1}, {0, 2}};
        long[] expect = {HOST1, SW2, HOST3, HOST2};
        for (int round = 0; round < 25; round++) {
            List<CompletableFuture<byte[]>> futures = new ArrayList<>();
            long[] tids = new long[4];
            for (int i = 0; i < 4; i++) {
                tids[i] = c.nextTid();
                futures.add(c.request(drNodeInfo(tids[i], paths[i]), MadAddress.directed(), TIMEOUT, 2));
            }
            CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).get(5, TimeUnit.SECONDS);
            for (int i = 0; i < 4; i++) {
                byte[] r = futures.get(i).get();
                assertGoodDrResponse(r, tids[i]);
                assertThat(nodeGuidOf(r)).isEqualTo(expect[i]);
            }
        }
    }

    @Test
    void aCallersOwnTidComesBackUnchanged() {
        IbsimClient c = attach(null, false);
        long mine = 0xabcd_0000_1234_5678L;  // top 16 bits are not our slot: ibsim rewrites them on the wire
        byte[] r = c.call(drNodeInfo(mine, 0, 7), MadAddress.directed(), TIMEOUT, 1);
        assertGoodDrResponse(r, mine);
        assertThat(nodeGuidOf(r)).isEqualTo(SW2);
    }

    @Test
    void aPathToAMissingPortComesBackAtOnceWithStatus110() {
        IbsimClient c = attach(null, false);
        // sw1 port 3 has no cable; sw1 has no port 9; a path may not go on through a CA.
        for (int[] path : new int[][] {{0, 3}, {0, 9}, {0, 1, 1}}) {
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> c.call(drNodeInfo(c.nextTid(), path), MadAddress.directed(),
                    Duration.ofSeconds(5), 2))
                    .isInstanceOf(MadTimeoutException.class)
                    .hasMessageContaining("status 110")
                    .hasMessageContaining("after 3 attempts");
            // ibsim answers each attempt at once: nowhere near one 5 s timeout
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(2));
        }
    }

    @Test
    void aMalformedSmpGetsNoAnswerAndTimesOut() {
        IbsimClient c = attach(null, false);
        byte[] bad = drNodeInfo(c.nextTid(), 0, 1);
        bad[6] = 1;  // hop pointer must be 0 in a request: ibsim drops it without a word
        long t0 = System.nanoTime();
        assertThatThrownBy(() -> c.call(bad, MadAddress.directed(), Duration.ofMillis(200), 1))
                .isInstanceOf(MadTimeoutException.class)
                .hasMessageContaining("no response within 200 ms")
                .hasMessageContaining("after 2 attempts");
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isGreaterThanOrEqualTo(Duration.ofMillis(400));
        // and the client still works
        long tid = c.nextTid();
        assertGoodDrResponse(c.call(drNodeInfo(tid, 0, 7), MadAddress.directed(), TIMEOUT, 1), tid);
    }

    @Test
    void attachesAtACaNamedBySimHost() {
        IbsimClient c = attach("H-0002c90300000230", false);
        assertThat(c.attachedNode()).isEqualTo("H-0002c90300000230");
        LocalPort p = c.localPort();
        assertThat(p.nodeGuid()).isEqualTo(HOST4);
        assertThat(p.portGuid()).isEqualTo(HOST4 + 1);
        assertThat(p.portNumber()).isEqualTo(1);
        assertThat(p.lid()).isEqualTo(14);
        assertThat(c.nodeInfo()[2]).as("node type CA").isEqualTo((byte) 1);

        // hop 0 is the CA itself: its SMA agrees with the control channel
        long tid = c.nextTid();
        byte[] self = c.call(drNodeInfo(tid, 0), MadAddress.directed(), TIMEOUT, 1);
        assertGoodDrResponse(self, tid);
        assertThat(nodeGuidOf(self)).isEqualTo(p.nodeGuid());
        assertThat(portGuidOf(self)).isEqualTo(p.portGuid());
        assertThat(self[64 + 36] & 0xff).isEqualTo(p.portNumber());

        // 0,1 is the neighbour switch, entered at its port 3; 0,1,7,1 crosses over to sw1 and on to host1
        tid = c.nextTid();
        byte[] sw = c.call(drNodeInfo(tid, 0, 1), MadAddress.directed(), TIMEOUT, 1);
        assertGoodDrResponse(sw, tid);
        assertThat(nodeGuidOf(sw)).isEqualTo(SW2);
        assertThat(sw[64 + 36] & 0xff).isEqualTo(3);
        tid = c.nextTid();
        byte[] far = c.call(drNodeInfo(tid, 0, 1, 7, 1), MadAddress.directed(), TIMEOUT, 1);
        assertThat(nodeGuidOf(far)).isEqualTo(HOST1);
    }

    @Test
    void aLidRoutedSmpToOurOwnLidIsAnswered() {
        // LID 14 = 0x000e: had the LID gone out in the wrong byte order, ibsim would see 0x0e00 and drop it.
        IbsimClient c = attach("H-0002c90300000230", false);
        long tid = c.nextTid();
        byte[] m = drNodeInfo(tid, 0);
        m[1] = 0x01;  // LID-routed SMP: same header, the DR fields unused
        m[7] = 0;
        byte[] r = c.call(m, MadAddress.smp(14), TIMEOUT, 1);
        assertThat(r[3] & 0xff).isEqualTo(0x81);
        assertThat(ByteBuffer.wrap(r).getShort(4)).as("status").isZero();
        assertThat(nodeGuidOf(r)).isEqualTo(HOST4);
        assertThat(portGuidOf(r)).isEqualTo(HOST4 + 1);
    }

    @Test
    void anUnknownSimHostIsRefused() {
        assertThatThrownBy(() -> attach("no-such-node", false))
                .isInstanceOf(MadTransportException.class)
                .hasMessageContaining("refused")
                .hasMessageContaining("no-such-node");
        // and the refusal used no slot: ten clients still fit
        for (int i = 0; i < IbsimWire.MAX_CLIENTS; i++) {
            attach(null, false);
        }
        Set<Integer> ids = new HashSet<>();
        clients.forEach(c -> ids.add(c.clientId()));
        assertThat(ids).hasSize(IbsimWire.MAX_CLIENTS);
        assertThatThrownBy(() -> attach(null, false)).hasMessageContaining("refused");
    }

    @Test
    void anSmClientReceivesRequestsForItsPortAndAnswersThem() throws Exception {
        IbsimClient sm = attach("H-0002c90300000200", true);
        assertThat(sm.localPort().isSm()).isTrue();
        int capMask = ByteBuffer.wrap(sm.portInfo()).getInt(20);
        assertThat(capMask & 0x2).as("IsSM in the capability mask").isEqualTo(0x2);
        assertThatThrownBy(() -> attach("H-0002c90300000200", true))
                .as("one SM per node").hasMessageContaining("refused");

        AtomicReference<ReceivedMad> got = new AtomicReference<>();
        CountDownLatch seen = new CountDownLatch(1);
        sm.onUnsolicited(r -> {
            got.set(r);
            // answer like an SM: GetResp with the D bit, SMInfo GUID = our port GUID
            byte[] resp = r.mad().clone();
            resp[3] = (byte) 0x81;
            resp[4] |= (byte) 0x80;
            ByteBuffer.wrap(resp).putLong(64, sm.localPort().portGuid());
            sm.send(resp, MadAddress.directed());
            seen.countDown();
        });

        // host2 asks for SMInfo along host2 -> sw1 -> host1; ibsim has no SMInfo agent, so the SM gets it
        IbsimClient asker = attach("H-0002c90300000210", false);
        long tid = asker.nextTid();
        byte[] r = asker.call(drGet(tid, 0x0020, 0, 1, 1), MadAddress.directed(), Duration.ofSeconds(2), 0);
        assertThat(seen.await(1, TimeUnit.SECONDS)).isTrue();
        assertGoodDrResponse(r, tid);
        assertThat(ByteBuffer.wrap(r).getLong(64)).isEqualTo(HOST1 + 1);

        ReceivedMad req = got.get();
        assertThat(req.mad()[3] & 0xff).as("a Get request").isEqualTo(0x01);
        assertThat(ByteBuffer.wrap(req.mad()).getShort(16)).isEqualTo((short) 0x0020);
        assertThat(req.from().lid()).isEqualTo(MadAddress.PERMISSIVE_LID);
        assertThat(req.from().qpn()).isZero();
        assertThat(req.mad()[192] & 0xff).as("return path filled by ibsim").isEqualTo(1);

        sm.close();
        // after close, IsSM is cleared again on host1's port
        IbsimClient after = attach("H-0002c90300000200", false);
        assertThat(ByteBuffer.wrap(after.portInfo()).getInt(20) & 0x2).isZero();
    }

    @Test
    void fromEnvironmentUsesTheServerVariables() {
        IbsimClient c = IbsimClient.fromEnvironment(java.util.Map.of("IBSIM_SERVER_NAME", RemoteIbsim.HOST,
                "IBSIM_SERVER_PORT", Integer.toString(sim.port()), "SIM_HOST", "H-0002c90300000220"), null, false);
        clients.add(c);
        assertThat(c.localPort().nodeGuid()).isEqualTo(HOST3);
        assertThat(((java.net.InetSocketAddress) c.serverAddress()).getPort()).isEqualTo(sim.port());
    }

    /** How {@code --ibsim} names {@link #sim}. */
    String ibsimOption() {
        return RemoteIbsim.HOST + ":" + sim.port();
    }

    @Test
    void benchIbsimMeasuresARunningIbsim() {
        java.io.StringWriter out = new java.io.StringWriter();
        java.io.StringWriter err = new java.io.StringWriter();
        picocli.CommandLine cl = org.ibtwin.cli.Main.commandLine();
        cl.setOut(new java.io.PrintWriter(out, true));
        cl.setErr(new java.io.PrintWriter(err, true));
        int rc = cl.execute("bench", "ibsim", "--ibsim", ibsimOption(), "--sim-host", "H-0002c90300000210",
                "--seconds", "1");
        assertThat(rc).as(out + "\n" + err).isZero();
        assertThat(out.toString()).contains("attached at H-0002c90300000210")
                .containsPattern("(?m)^  in flight 1: [\\d,]+ round trips .*failures 0$")
                .containsPattern("(?m)^  in flight 4: [\\d,]+ round trips .*failures 0$");
    }

    @Test
    void benchmarkMeasuresRoundTrips() {
        IbsimClient c = attach("H-0002c90300000200", false);
        IbsimRoundTripBench.Result one = IbsimRoundTripBench.run(c, 1, Duration.ofMillis(300));
        IbsimRoundTripBench.Result four = IbsimRoundTripBench.run(c, 4, Duration.ofMillis(300));
        System.err.println("ibsim round trips: " + one + " | " + four);
        assertThat(one.roundTrips()).isPositive();
        assertThat(one.failures()).isZero();
        assertThat(four.roundTrips()).isPositive();
        assertThat(four.failures()).isZero();
        assertThat(sim.isAlive()).isTrue();
    }
}
