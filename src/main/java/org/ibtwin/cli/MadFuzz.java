package org.ibtwin.cli;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.DatagramChannel;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Node;
import org.ibtwin.model.Port;
import org.ibtwin.model.PortState;
import org.ibtwin.sim.Attachment;
import org.ibtwin.sim.IbsimServer;
import org.ibtwin.sim.TrapTimer;
import org.ibtwin.sim.Twin;
import org.ibtwin.sim.TwinTransport;
import org.ibtwin.sm.SmConfig;
import org.ibtwin.sm.SubnetManager;
import org.ibtwin.transport.IbsimClient;
import org.ibtwin.transport.IbsimWire;
import org.ibtwin.transport.MadAddress;
import org.ibtwin.transport.MadTransportException;

/**
 * The MAD fuzzer: a fabric's twin brought up by ibtwin's SM (which goes on running, its SA answering), served over
 * its ibsim endpoint on loopback as {@code ibtwin up} serves it; clients speaking the protocol by hand flood it with
 * random and mutated datagrams (SMPs LID-routed and directed-route with bad hop pointers and counts, PMA, SA with bad
 * attributes, methods, modifiers and RMPP headers, random classes and versions, truncated and oversized datagrams)
 * and with control messages (CONNECTs naming bad ports and nodes, the server's own ports among them, requests for
 * slots not theirs, bad magic and sizes), while a well-behaved client ({@link IbsimClient}) interleaves valid queries
 * whose answers are checked against the twin's own state. At the end the fuzzing clients vanish without DISCONNECT:
 * their slots must come free, the process's CPU must fall back to idle, every LID must still answer right, and no
 * forwarding table or port state may have changed.
 *
 * <p>Everything is drawn from one {@link SplittableRandom} per client, seeded from the run's seed: a run is repeated
 * by its seed (the timing of the probes and the SM is not). A datagram on which the server or the twin threw is
 * reported by the server with its bytes in hex ({@link IbsimServer#firstFault()}).
 *
 * <p>SMP Sets of the attributes the twin implements (0x0001..0x0030, and the vendor range) go out as Gets: they
 * would change the fabric legitimately (a port disabled, a LID moved) and leave the probes nothing to check against.
 * Every other Set (PMA, SA, unsupported SMP attributes) goes as generated.
 */
final class MadFuzz {
    /** What one run found. */
    record Result(String fabric, long mads, long controls, double seconds, long faults, String firstFault,
                  long hangs, long probes, long wrong, double p50Millis, double p99Millis, double agentP99Millis,
                  double quietP50Millis, double quietP99Millis, double cpuAfter,
                  int slotsHeld, List<String> problems) {
        double madsPerSecond() {
            return seconds > 0 ? mads / seconds : 0;
        }

        boolean clean() {
            return faults == 0 && hangs == 0 && wrong == 0 && slotsHeld == 0 && cpuAfter < IDLE_CPU
                    && problems.isEmpty();
        }
    }

    /** CPU seconds per wall second the process may use once the flood has stopped (the SM's sweeps, timers). */
    static final double IDLE_CPU = 0.5;
    private static final int FLOODERS = 2;
    private static final int WINDOW = 64;
    private static final int POOL = 3;
    /** Probes before the flood begins: the same queries' latency with nothing else asking (the machine's floor). */
    private static final int QUIET_PROBES = 200;
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(1);
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    private final Fabric fabric;
    private final String name;
    private final long seed;
    private final Twin twin;
    private IbsimServer server;
    private final List<Integer> lids = new ArrayList<>();
    private final Map<Integer, Port> portOfLid = new HashMap<>();
    private final List<Port> caPorts = new ArrayList<>();
    private final List<String> nodeNames = new ArrayList<>();
    private final List<String> problems = new CopyOnWriteArrayList<>();
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong controls = new AtomicLong();
    final AtomicLong stalls = new AtomicLong();
    private final AtomicBoolean stop = new AtomicBoolean();
    private int smLid;
    private int maxLid;
    /** {@link #taken()} when the flood began. */
    private volatile long base;

    private MadFuzz(String name, Fabric fabric, long seed) {
        this.name = name;
        this.fabric = fabric;
        this.seed = seed;
        this.twin = Twin.of(fabric);
    }

    /**
     * Fuzzes {@code fabric}'s twin with {@code mads} datagrams from a seed; the endpoint on loopback at
     * {@code port} (0: any free range).
     */
    static Result run(String name, Fabric fabric, long mads, long seed, int port) throws IOException {
        return new MadFuzz(name, fabric, seed).go(mads, port);
    }

    private Result go(long mads, int port) throws IOException {
        Attachment at = twin.attach(null, 0);
        at.setIsSm(true);
        AtomicBoolean smStop = new AtomicBoolean();
        java.util.logging.Logger quiet = java.util.logging.Logger.getLogger("org.ibtwin");
        java.util.logging.Level level = quiet.getLevel();
        quiet.setLevel(java.util.logging.Level.OFF);   // the server's warnings, a thousand a second under fuzz
        TrapTimer timer = TrapTimer.start(twin, Duration.ofMillis(100));
        try (timer; TwinTransport transport = new TwinTransport(at, "ibtwin0");
             IbsimServer srv = new IbsimServer(n -> twin.attach(n, 0))) {
            SubnetManager sm = new SubnetManager(transport, SmConfig.defaults(), null);
            if (!sm.sweep().subnetUp()) {
                throw new IllegalStateException(name + ": ibtwin's SM did not bring the fabric up");
            }
            Thread smThread = new Thread(() -> sm.run(smStop), "fuzz-sm");
            smThread.setDaemon(true);
            smThread.start();
            server = srv;
            srv.start(LOOPBACK, port);
            truth(at);
            int[] lftBefore = lfts();
            PortState[] statesBefore = states();
            String probeAt = caPorts.get(caPorts.size() - 1).node().name();
            try (IbsimClient probe = IbsimClient.connect("127.0.0.1", srv.port(), probeAt, false,
                    Duration.ofSeconds(2))) {
                Probes before = new Probes(probe, new SplittableRandom(seed ^ 0x9e1e));
                for (int i = 0; i < QUIET_PROBES; i++) {
                    before.one();
                    LockSupport.parkNanos(500_000);
                }
                Probes probes = new Probes(probe, new SplittableRandom(seed ^ 0x5eed));
                probes.hangs = before.hangs;
                probes.wrong = before.wrong;
                List<Flooder> flooders = new ArrayList<>();
                long each = mads / FLOODERS;
                for (int i = 0; i < FLOODERS; i++) {
                    flooders.add(new Flooder(i, each + (i == 0 ? mads % FLOODERS : 0)));
                }
                base = taken();
                long t0 = System.nanoTime();
                List<Thread> threads = new ArrayList<>();
                for (Flooder f : flooders) {
                    Thread t = new Thread(f, "fuzz-flood-" + f.index);
                    t.setDaemon(true);
                    threads.add(t);
                    t.start();
                }
                long lastSent = -1;
                long lastProgress = System.nanoTime();
                while (threads.stream().anyMatch(Thread::isAlive)) {
                    probes.one();
                    LockSupport.parkNanos(500_000);
                    long s = sent.get();
                    if (s != lastSent) {
                        lastSent = s;
                        lastProgress = System.nanoTime();
                    } else if (System.nanoTime() - lastProgress > 10_000_000_000L) {
                        problems.add("the flood made no progress for 10 s at datagram " + s + " (seed " + seed
                                + ")");
                        probes.hangs++;
                        break;
                    }
                }
                stop.set(true);
                for (Thread t : threads) {
                    join(t);
                }
                double seconds = (System.nanoTime() - t0) / 1e9;
                for (Flooder f : flooders) {
                    f.vanish();
                }
                // the fuzzing clients are gone without DISCONNECT: their slots come free within the reaper's period
                long deadline = System.nanoTime() + 6_000_000_000L;
                while (srv.clients().size() > 1 && System.nanoTime() < deadline) {
                    LockSupport.parkNanos(50_000_000);
                }
                int held = srv.clients().size() - 1;
                if (held > 0) {
                    problems.add(held + " slots still held after the fuzzing clients vanished: " + srv.clients());
                }
                double cpu = idleCpu();
                probes.all();
                if (!Arrays.equals(lftBefore, lfts())) {
                    problems.add("a switch's forwarding table changed under the fuzz (seed " + seed + ")");
                }
                if (!Arrays.equals(statesBefore, states())) {
                    problems.add("a port's state changed under the fuzz (seed " + seed + ")");
                }
                if (!smThread.isAlive()) {
                    problems.add("ibtwin's SM thread died");
                }
                smStop.set(true);
                join(smThread);
                sm.detach();
                return new Result(name, sent.get(), controls.get(), seconds, srv.faults(), srv.firstFault(),
                        probes.hangs, probes.count, probes.wrong, probes.percentile(0.50, false),
                        probes.percentile(0.99, false), probes.percentile(0.99, true), before.percentile(0.50, false),
                        before.percentile(0.99, false), cpu, Math.max(0, held), List.copyOf(problems));
            }
        } finally {
            smStop.set(true);
            stop.set(true);
            quiet.setLevel(level);
        }
    }

    private static void join(Thread t) {
        try {
            t.join(15_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** CPU seconds per wall second over 2 s, after half a second for the flood's backlog to go. */
    private static double idleCpu() {
        LockSupport.parkNanos(500_000_000L);
        var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean();
        long c0 = os.getProcessCpuTime();
        long w0 = System.nanoTime();
        LockSupport.parkNanos(2_000_000_000L);
        return (os.getProcessCpuTime() - c0) / (double) (System.nanoTime() - w0);
    }

    /** The LIDs the SM gave out, and which port holds each. */
    private void truth(Attachment sm) {
        for (Node n : fabric.nodes()) {
            nodeNames.add(n.name());
            for (int p = n.isSwitch() ? 0 : 1; p <= (n.isSwitch() ? 0 : n.numPorts()); p++) {
                int lid = twin.lid(n.name(), p);
                if (lid > 0) {
                    lids.add(lid);
                    portOfLid.put(lid, n.port(p));
                    maxLid = Math.max(maxLid, lid);
                    if (!n.isSwitch()) {
                        caPorts.add(n.port(p));
                    }
                }
            }
        }
        byte[] pi = sm.portInfo();
        smLid = ((pi[16] & 0xff) << 8) | (pi[17] & 0xff);
    }

    private int[] lfts() {
        List<Node> sw = fabric.switches();
        int[] all = new int[sw.size() * (maxLid + 1)];
        for (int s = 0; s < sw.size(); s++) {
            for (int l = 0; l <= maxLid; l++) {
                all[s * (maxLid + 1) + l] = twin.lftEntry(sw.get(s).name(), l);
            }
        }
        return all;
    }

    private PortState[] states() {
        List<PortState> st = new ArrayList<>();
        for (Node n : fabric.nodes()) {
            for (int p = 1; p <= n.numPorts(); p++) {
                st.add(twin.portState(n.name(), p));
            }
        }
        return st.toArray(PortState[]::new);
    }

    // ---- the valid queries and their checks ----

    /** The well-behaved client's queries, each checked against the twin's state. */
    private final class Probes {
        final IbsimClient c;
        final SplittableRandom r;
        long count;
        long wrong;
        long hangs;
        long[] nanos = new long[1024];
        /** Whether each of {@link #nanos} was answered by the twin's own agents (SMA, PMA), not by the SM's SA. */
        boolean[] agent = new boolean[1024];

        Probes(IbsimClient c, SplittableRandom r) {
            this.c = c;
            this.r = r;
        }

        void one() {
            int lid = lids.get(r.nextInt(lids.size()));
            check(r.nextInt(4), lid, true);
        }

        /** Every LID, every kind of query: after the flood. */
        void all() {
            for (int lid : lids) {
                for (int kind = 0; kind < 4; kind++) {
                    check(kind, lid, false);
                }
            }
        }

        private void check(int kind, int lid, boolean timed) {
            Port want = portOfLid.get(lid);
            long t0 = System.nanoTime();
            byte[] resp;
            byte[] req;
            MadAddress to;
            switch (kind) {
                case 0 -> {                                  // SMP NodeInfo, LID-routed
                    req = mad(0x01, 0x01, 0x0011, 0);
                    to = MadAddress.smp(lid);
                }
                case 1 -> {                                  // SMP PortInfo of the LID's port
                    req = mad(0x01, 0x01, 0x0015, want.node().isSwitch() ? 0 : want.number());
                    to = MadAddress.smp(lid);
                }
                case 2 -> {                                  // PMA ClassPortInfo
                    req = mad(0x04, 0x01, 0x0001, 0);
                    to = MadAddress.gsi(lid);
                }
                default -> {                                 // SA NodeRecord by LID
                    req = mad(0x03, 0x01, 0x0011, 0);
                    req[2] = 2;
                    ByteBuffer.wrap(req).putLong(48, 1L).putShort(56, (short) lid);
                    to = MadAddress.gsi(smLid);
                }
            }
            try {
                resp = c.call(req, to, PROBE_TIMEOUT, 2);
            } catch (MadTransportException e) {
                hangs++;
                problems.add(String.format("probe %d to LID %d unanswered: %s (seed %d)", kind, lid, e.getMessage(),
                        seed));
                return;
            }
            long took = System.nanoTime() - t0;
            if (timed) {
                if (count == nanos.length) {
                    nanos = Arrays.copyOf(nanos, nanos.length * 2);
                    agent = Arrays.copyOf(agent, agent.length * 2);
                }
                agent[(int) count] = kind < 3;
                nanos[(int) count++] = took;
            }
            String bad = verify(kind, lid, want, resp);
            if (bad != null) {
                wrong++;
                problems.add(String.format("probe %d to LID %d answered wrong: %s (seed %d); answer: %s", kind, lid,
                        bad, seed, HexFormat.of().formatHex(resp)));
            }
        }

        private String verify(int kind, int lid, Port want, byte[] r) {
            ByteBuffer b = ByteBuffer.wrap(r);
            int status = b.getShort(4) & 0x7fff;
            if ((r[3] & 0xff) != 0x81 || status != 0) {
                return String.format("method 0x%x status 0x%x", r[3] & 0xff, status);
            }
            Node n = want.node();
            return switch (kind) {
                case 0 -> b.getLong(64 + 12) != n.guid() ? String.format("NodeGUID 0x%016x, not 0x%016x",
                        b.getLong(64 + 12), n.guid())
                        : b.getLong(64 + 20) != want.guid() ? String.format("PortGUID 0x%016x, not 0x%016x",
                        b.getLong(64 + 20), want.guid()) : null;
                case 1 -> {
                    int l = b.getShort(64 + 16) & 0xffff;
                    int state = r[64 + 32] & 0x0f;
                    PortState truth = twin.portState(n.name(), n.isSwitch() ? 1 : want.number());
                    yield l != lid ? "LID " + l : n.isSwitch() || state == truth.code() ? null
                            : "PortState " + state + ", the twin's is " + truth;
                }
                case 2 -> null;
                default -> b.getLong(56 + 4 + 12) != n.guid() ? String.format("NodeRecord NodeGUID 0x%016x, "
                        + "not 0x%016x", b.getLong(56 + 4 + 12), n.guid()) : null;
            };
        }

        private byte[] mad(int cls, int method, int attr, int mod) {
            byte[] m = new byte[256];
            m[0] = 1;
            m[1] = (byte) cls;
            m[2] = 1;
            m[3] = (byte) method;
            ByteBuffer.wrap(m).putLong(8, c.nextTid()).putShort(16, (short) attr).putInt(20, mod);
            return m;
        }

        /** The q-quantile of the probes' latency in ms: all of them, or those the twin's agents answered. */
        double percentile(double q, boolean agentsOnly) {
            long[] s = new long[(int) count];
            int n = 0;
            for (int i = 0; i < count; i++) {
                if (!agentsOnly || agent[i]) {
                    s[n++] = nanos[i];
                }
            }
            if (n == 0) {
                return 0;
            }
            Arrays.sort(s, 0, n);
            return s[(int) Math.min(n - 1, Math.floor(q * n))] / 1e6;
        }
    }

    // ---- the fuzzing clients ----

    /** One fuzzing client: its own sockets, its own random stream; it floods until its share is sent. */
    private final class Flooder implements Runnable {
        final int index;
        final long quota;
        final SplittableRandom r;
        DatagramChannel ctl;
        DatagramChannel data;
        final DatagramChannel[] pool = new DatagramChannel[POOL];
        final ByteBuffer in = ByteBuffer.allocateDirect(4096);
        /** The slots this client's control fuzzing got by CONNECT (its own to DISCONNECT or ask about). */
        final ArrayDeque<Integer> owned = new ArrayDeque<>();

        Flooder(int index, long quota) {
            this.index = index;
            this.quota = quota;
            this.r = new SplittableRandom(seed * 1_000_003L + index);
        }

        @Override
        public void run() {
            try {
                open();
                for (long i = 0; i < quota && !stop.get(); i++) {
                    pace();
                    if (r.nextInt(64) == 0) {
                        control();
                    }
                    ByteBuffer d = ByteBuffer.wrap(datagram());
                    data.write(d);
                    sent.incrementAndGet();
                    drain();
                }
            } catch (IOException | RuntimeException e) {
                problems.add("fuzzing client " + index + " failed: " + e + " (seed " + seed + ")");
            }
        }

        private void open() throws IOException {
            ctl = channel();
            data = channel();
            for (int i = 0; i < POOL; i++) {
                pool[i] = channel();
            }
            // the first client sits at a CA as its SM (requests to that port come to it); the other at a switch
            Port at = caPorts.get(index % caPorts.size());
            String node = index == 0 ? at.node().name() : fabric.switches().isEmpty() ? at.node().name()
                    : fabric.switches().get(0).name();
            ctl.configureBlocking(true);
            ctl.socket().setSoTimeout(2000);
            byte[] req = IbsimWire.encodeCtl(0, IbsimWire.TYPE_CONNECT, IbsimWire.encodeClientInfo(
                    new IbsimWire.ClientInfo(localPort(data), 0, index == 0, node)));
            ctl.send(ByteBuffer.wrap(req), server.address());
            byte[] got = new byte[IbsimWire.CTL_SIZE];
            java.net.DatagramPacket p = new java.net.DatagramPacket(got, got.length);
            ctl.socket().receive(p);
            IbsimWire.Ctl reply = IbsimWire.decodeCtl(got, p.getLength());
            if (reply.type() != IbsimWire.TYPE_CONNECT) {
                throw new IOException("the endpoint refused fuzzing client " + index + " at " + node);
            }
            int slot = IbsimWire.decodeClientInfo(reply.data()).id();
            data.connect(new InetSocketAddress(LOOPBACK, server.port() + 1 + slot));
            ctl.configureBlocking(false);
        }

        private static DatagramChannel channel() throws IOException {
            DatagramChannel c = DatagramChannel.open(StandardProtocolFamily.INET);
            c.bind(new InetSocketAddress(LOOPBACK, 0));
            c.configureBlocking(false);
            return c;
        }

        private static int localPort(DatagramChannel c) throws IOException {
            return ((InetSocketAddress) c.getLocalAddress()).getPort();
        }

        /** At most {@link #WINDOW} datagrams in flight between all the clients and the twin. */
        private void pace() throws IOException {
            long waited = System.nanoTime();
            while (sent.get() - (taken() - base) > WINDOW) {
                drain();
                if (System.nanoTime() - waited > 50_000_000L) {
                    stalls.incrementAndGet();
                    return;   // some were lost in a socket buffer: go on
                }
                LockSupport.parkNanos(20_000);   // not a spin: the endpoint's threads need the cores
            }
        }

        private void drain() throws IOException {
            for (int k = 0; k < 64; k++) {
                in.clear();
                SocketAddress from = data.receive(in);
                if (from == null) {
                    break;
                }
            }
            for (DatagramChannel c : pool) {
                in.clear();
                c.receive(in);
            }
            for (int k = 0; k < 4; k++) {
                in.clear();
                if (ctl.receive(in) == null) {
                    break;
                }
                in.flip();
                if (in.remaining() == IbsimWire.CTL_SIZE) {
                    byte[] b = new byte[IbsimWire.CTL_SIZE];
                    in.get(b);
                    IbsimWire.Ctl m = IbsimWire.decodeCtl(b, b.length);
                    if (m.type() == IbsimWire.TYPE_CONNECT) {
                        int slot = IbsimWire.decodeClientInfo(m.data()).id();
                        if (!owned.contains(slot)) {
                            owned.add(slot);
                        }
                    }
                }
            }
        }

        /** Closes every socket without DISCONNECT: the client is gone. */
        void vanish() {
            for (DatagramChannel c : new DatagramChannel[] {ctl, data, pool[0], pool[1], pool[2]}) {
                try {
                    if (c != null) {
                        c.close();
                    }
                } catch (IOException e) {
                    // gone anyway
                }
            }
        }

        // ---- control messages ----

        private void control() throws IOException {
            controls.incrementAndGet();
            byte[] m;
            int kind = r.nextInt(10);
            if (kind < 4) {
                int dataPort = switch (r.nextInt(6)) {
                    case 0 -> server.port() + r.nextInt(IbsimWire.MAX_CLIENTS + 1);   // the server's own: refused
                    case 1 -> r.nextBoolean() ? 0 : 0x10000 + r.nextInt(1 << 20);    // no port at all
                    default -> localPort(pool[r.nextInt(POOL)]);
                };
                String node = switch (r.nextInt(5)) {
                    case 0 -> "";
                    case 1 -> randomText(r.nextInt(40));
                    case 2 -> fabric.nodes().get(r.nextInt(fabric.size())).description();
                    default -> nodeNames.get(r.nextInt(nodeNames.size()));
                };
                m = IbsimWire.encodeCtl(r.nextInt(16), IbsimWire.TYPE_CONNECT, IbsimWire.encodeClientInfo(
                        new IbsimWire.ClientInfo(dataPort, r.nextInt(4), r.nextInt(4) == 0, node.length() > 31
                                ? node.substring(0, 31) : node)));
            } else if (kind < 8) {
                // a request for a slot of its own, or for one that cannot be (10 and more)
                int id = !owned.isEmpty() && r.nextInt(4) != 0 ? owned.toArray(Integer[]::new)[r.nextInt(owned.size())]
                        : IbsimWire.MAX_CLIENTS + r.nextInt(Integer.MAX_VALUE - IbsimWire.MAX_CLIENTS);
                int type = r.nextInt(16);
                if (type == IbsimWire.TYPE_DISCONNECT) {
                    owned.remove(id);
                }
                byte[] payload = new byte[IbsimWire.CTL_DATA_SIZE];
                r.nextBytes(payload);
                m = IbsimWire.encodeCtl(id, type, payload);
            } else {
                m = new byte[r.nextInt(4) == 0 ? IbsimWire.CTL_SIZE : r.nextInt(200)];
                r.nextBytes(m);
                if (m.length >= 4 && r.nextBoolean()) {
                    ByteBuffer.wrap(m).order(ByteOrder.LITTLE_ENDIAN).putInt(0, IbsimWire.MAGIC);
                    if (m.length >= 8) {
                        // never a DISCONNECT or SET_ISSM for another client's slot: the protocol lets anyone do it
                        ByteBuffer.wrap(m).order(ByteOrder.LITTLE_ENDIAN).putInt(4, IbsimWire.MAX_CLIENTS
                                + r.nextInt(1 << 20));
                    }
                }
            }
            ctl.send(ByteBuffer.wrap(m), server.address());
        }

        private String randomText(int n) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < n; i++) {
                sb.append((char) (r.nextInt(3) == 0 ? r.nextInt(1, 256) : r.nextInt(0x20, 0x7f)));
            }
            return sb.toString();
        }

        // ---- MAD datagrams ----

        private static final int[] SMP_ATTRS = {0x0002, 0x0010, 0x0011, 0x0012, 0x0014, 0x0015, 0x0016, 0x0017,
            0x0018, 0x0019, 0x001a, 0x001b, 0x001c, 0x0020, 0x0030, 0xff90};
        private static final int[] PMA_ATTRS = {0x0001, 0x0010, 0x0011, 0x0012, 0x0013, 0x0016, 0x001b, 0x001d,
            0x001e, 0x001f, 0x0036};
        private static final int[] SA_ATTRS = {0x0001, 0x0003, 0x0011, 0x0012, 0x0013, 0x0014, 0x0015, 0x0018,
            0x0019, 0x001a, 0x0020, 0x0030, 0x0031, 0x0033, 0x0035, 0x0038, 0x0039, 0x00f3};
        private static final int[] SA_METHODS = {0x01, 0x02, 0x06, 0x12, 0x13, 0x14, 0x15, 0x86, 0x92};
        private static final int[] METHODS = {0x01, 0x02, 0x03, 0x05, 0x06, 0x07, 0x81, 0x00, 0x7f, 0xff};

        /** One datagram for the data socket: usually 288 bytes, sometimes truncated or oversized. */
        byte[] datagram() {
            int size = IbsimWire.REQUEST_SIZE;
            if (r.nextInt(32) == 0) {
                size = switch (r.nextInt(6)) {
                    case 0 -> 0;
                    case 1 -> r.nextInt(IbsimWire.MAD_OFFSET);
                    case 2 -> IbsimWire.REQUEST_SIZE - 1 - r.nextInt(8);
                    case 3 -> IbsimWire.REQUEST_SIZE + 1 + r.nextInt(8);
                    case 4 -> 256;
                    default -> r.nextInt(2048);
                };
            }
            byte[] mad = mad();
            ByteBuffer b = ByteBuffer.allocate(Math.max(size, IbsimWire.REQUEST_SIZE));
            int cls = mad[1] & 0xff;
            boolean smp = cls == 0x01 || cls == 0x81;
            int dlid = cls == 0x81 && r.nextInt(4) != 0 ? 0xffff : cls == 0x03 && r.nextInt(4) != 0 ? smLid : lid();
            int dqp = r.nextInt(20) == 0 ? r.nextInt() : smp ? 0 : 1;
            IbsimWire.putRequest(b, dlid, r.nextInt(8) == 0 ? r.nextInt(0x10000) : 0, dqp,
                    r.nextInt(10) == 0 ? r.nextInt() : 0, r.nextInt(20) == 0 ? r.nextInt() : 0,
                    r.nextInt(10) == 0 ? r.nextLong() : 256, mad);
            byte[] out = b.array();
            return size == out.length ? out : Arrays.copyOf(out, size);
        }

        private int lid() {
            return switch (r.nextInt(10)) {
                case 0 -> 0;
                case 1 -> 0xc000 + r.nextInt(0x4000);
                case 2 -> r.nextInt(0x10000);
                case 3 -> maxLid + 1 + r.nextInt(64);
                default -> lids.get(r.nextInt(lids.size()));
            };
        }

        private byte[] mad() {
            byte[] m = new byte[256];
            int kind = r.nextInt(16);
            ByteBuffer b = ByteBuffer.wrap(m);
            if (kind == 15) {
                r.nextBytes(m);                                 // anything at all
            } else {
                if (r.nextInt(3) == 0) {
                    r.nextBytes(m);                             // a random payload under a real header
                }
                int cls = kind < 5 ? 0x01 : kind < 9 ? 0x81 : kind < 11 ? 0x04 : kind < 14 ? 0x03
                        : r.nextInt(256);
                m[0] = (byte) (r.nextInt(20) == 0 ? r.nextInt(256) : 1);
                m[1] = (byte) cls;
                m[2] = (byte) (r.nextInt(20) == 0 ? r.nextInt(256) : cls == 0x03 ? 2 : 1);
                int method = cls == 0x03 ? pick(SA_METHODS) : pick(METHODS);
                int attr = r.nextInt(10) == 0 ? r.nextInt(0x10000) : switch (cls) {
                    case 0x01, 0x81 -> pick(SMP_ATTRS);
                    case 0x04 -> pick(PMA_ATTRS);
                    default -> pick(SA_ATTRS);
                };
                m[3] = (byte) method;
                b.putShort(4, (short) (r.nextInt(8) == 0 ? r.nextInt(0x10000) : 0));   // status
                b.putLong(8, r.nextLong());
                b.putShort(16, (short) attr);
                b.putShort(18, (short) 0);
                b.putInt(20, r.nextInt(4) == 0 ? r.nextInt() : r.nextInt(64));
                if (cls == 0x81) {
                    directed(m);
                } else if (cls == 0x03) {
                    rmpp(m);
                } else if (cls == 0x04 && r.nextBoolean()) {
                    m[64 + 1] = (byte) r.nextInt(64);               // PortSelect
                }
            }
            // a Set the twin would carry out goes as a Get: see the class notes
            int cls = m[1] & 0xff;
            int attr = b.getShort(16) & 0xffff;
            if ((cls == 0x01 || cls == 0x81) && (m[3] & 0x7f) == 0x02 && (attr <= 0x0030 || attr >= 0xff00)) {
                m[3] = (byte) ((m[3] & 0x80) | 0x01);
            }
            return m;
        }

        /** Hop pointer and count, good or bad; a route of real and unreal ports; the DR LIDs. */
        private void directed(byte[] m) {
            int hops = switch (r.nextInt(6)) {
                case 0 -> 0;
                case 1 -> r.nextInt(256);
                case 2 -> 63 + r.nextInt(4);
                default -> r.nextInt(1, 6);
            };
            m[7] = (byte) hops;
            m[6] = (byte) switch (r.nextInt(5)) {
                case 0 -> r.nextInt(256);
                case 1 -> hops + 1;
                case 2 -> hops;
                default -> 0;
            };
            if (r.nextInt(8) == 0) {
                m[4] |= (byte) 0x80;                            // the D bit, on a request
            }
            ByteBuffer b = ByteBuffer.wrap(m);
            b.putShort(32, (short) (r.nextInt(6) == 0 ? lid() : 0xffff));
            b.putShort(34, (short) (r.nextInt(6) == 0 ? lid() : 0xffff));
            for (int i = 0; i < 64; i++) {
                m[128 + i] = (byte) (r.nextInt(8) == 0 ? r.nextInt(256) : r.nextInt(0, 41));
                m[192 + i] = (byte) (r.nextInt(8) == 0 ? r.nextInt(256) : 0);
            }
        }

        /** An RMPP header (IBA 13.6.2), right or wrong; a component mask; records as they come. */
        private void rmpp(byte[] m) {
            ByteBuffer b = ByteBuffer.wrap(m);
            m[24] = (byte) (r.nextInt(6) == 0 ? r.nextInt(256) : r.nextInt(3) == 0 ? 0 : 1);   // RMPPVersion
            m[25] = (byte) (r.nextInt(6) == 0 ? r.nextInt(256) : r.nextInt(5));                // RMPPType
            m[26] = (byte) r.nextInt(256);                                                     // time, flags
            m[27] = (byte) (r.nextInt(3) == 0 ? r.nextInt(256) : 0);                           // RMPPStatus
            b.putInt(28, r.nextInt(3) == 0 ? r.nextInt() : r.nextInt(4));                    // SegmentNumber
            b.putInt(32, r.nextInt(3) == 0 ? r.nextInt() : r.nextInt(256));                  // PayloadLength
            b.putShort(44, (short) r.nextInt(0x10000));                                      // AttributeOffset
            b.putLong(48, r.nextInt(3) == 0 ? r.nextLong() : r.nextLong() & 0xff);           // ComponentMask
            if (r.nextBoolean()) {
                b.putShort(56, (short) lid());
            }
        }

        private int pick(int[] a) {
            return a[r.nextInt(a.length)];
        }
    }

    /** The datagrams the endpoint has taken in: those the twin processed and those the server dropped. */
    private long taken() {
        return twin.processed() + server.droppedDatagrams();
    }
}
