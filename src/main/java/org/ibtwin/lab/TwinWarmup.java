package org.ibtwin.lab;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.Field;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.SmpAttributes;
import org.ibtwin.model.Node;
import org.ibtwin.model.NodeType;
import org.ibtwin.sim.AttachPoint;
import org.ibtwin.sim.IbsimServer;
import org.ibtwin.sim.Twin;
import org.ibtwin.sm.SmConfig;
import org.ibtwin.sm.SmLog;
import org.ibtwin.sm.SubnetManager;
import org.ibtwin.sm.Topology;
import org.ibtwin.transport.IbsimClient;
import org.ibtwin.transport.IbsimWire;
import org.ibtwin.transport.LocalPort;
import org.ibtwin.transport.MadAddress;
import org.ibtwin.transport.MadTransport;
import org.ibtwin.transport.ReceivedMad;
import org.ibtwin.transport.SmpPipe;

/**
 * Warms the JVM's JIT for serving a twin, through the very ibsim endpoint that will serve it: a scratch twin of a
 * 120-host 3-level fat tree (radix 8, so some switch ports are left unlinked, as in most real trees) is attached
 * behind the endpoint under a node name no fabric has ({@link #NODE}). ibtwin's SM, attached there as a real client
 * would be, brings it up once (discovery, LIDs, every LFT block, every port activated), and the tables other SMs set
 * are read and written back, PortInfo as OpenSM sets it; every SMP of that is recorded and then replayed, again and
 * again, to fresh scratch twins. The endpoint's own threads and code paths are the ones compiled, so a real SM's
 * first sweep meets compiled code; the twin that is served is never touched. Without it a freshly started JVM answers
 * the first few thousand MADs in its interpreter, many times slower than later ones, and compiles the rest while the
 * real SM waits. What it costs is part of the simulator's start, before it says it is ready, as ibsim's own start is.
 */
public final class TwinWarmup {
    /** The node name the warm-up client attaches at: the scratch twin's first CA. */
    public static final String NODE = "(ibtwin warm-up)";
    /**
     * The scratch fabric. Its GUIDs (OUI 0x02 00 00, a locally administered one) are none a generated or real fabric
     * has: the endpoint refuses a second SM on a node GUID, and a real SM that attaches to the served twin while the
     * warm-up runs must not meet the warm-up's SM there.
     */
    private static final FatTreeSpec SCRATCH = FatTreeSpec.of(3, 8, 120).withSpeed(LinkSpeed.HDR)
            .withGuidBase(0x0200_00ff_fe00_0000L);

    private static final Layout PI = SmpAttributes.PORT_INFO;
    private static final Field PI_STATE = PI.field("LinkState");
    private static final Field PI_PHYS = PI.field("PhysLinkState");
    private static final Field PI_LWE = PI.field("LinkWidthEnabled");
    private static final Field PI_LWS = PI.field("LinkWidthSupported");
    private static final Field PI_LSE = PI.field("LinkSpeedEnabled");
    private static final Field PI_LSS = PI.field("LinkSpeedSupported");
    private static final Field PI_LSEE = PI.field("LinkSpeedExtEnabled");
    private static final Field PI_LSES = PI.field("LinkSpeedExtSupported");
    private static final Field PI_LDDS = PI.field("LinkDownDefState");

    private static final int WINDOW = 4;
    private static final Duration TIMEOUT = Duration.ofMillis(200);

    private final AttachPoint served;
    private volatile Twin scratch;

    private TwinWarmup(AttachPoint served) {
        this.served = served;
    }

    /** Where the endpoint attaches its clients: {@code served}, but {@link #NODE} to the scratch twin meanwhile. */
    public static TwinWarmup around(AttachPoint served) {
        return new TwinWarmup(served);
    }

    /** The attach point to give the endpoint. */
    public AttachPoint attachPoint() {
        return name -> {
            Twin s = scratch;
            return s != null && NODE.equals(name) ? s.attach(null, 0) : served.attach(name);
        };
    }

    /**
     * What a warm-up did: how long it took, its passes (the SM's sweep, then the replays), whether the SM's sweep
     * brought the scratch twin up, and how many replayed SMPs were answered.
     */
    public record Result(Duration took, int passes, boolean up, long answered) {
    }

    /**
     * Warms through {@code endpoint} (which must have been made with {@link #attachPoint}) until {@code budget} is
     * spent, then on until the JIT settles: until a whole pass goes by with the compiler threads (almost) idle, or
     * another {@code budget} is spent; whatever the budget, the SM's sweep and one replay of it. The first pass is
     * ibtwin's SM sweeping a fresh scratch twin, every SMP it and {@link #echoOthers} send recorded; each later pass
     * replays those SMPs, four in flight, to a fresh scratch twin, so that the compilers work on the twin's code, not
     * on the SM's. Each pass is a client of its own, connected and disconnected as a real SM is, so that the endpoint's
     * connect and disconnect paths (a slot's socket replaced under its blocked thread) are compiled with the rest: were
     * only the last disconnect to take them, the code it deoptimises would be recompiled during the next real SM's
     * sweep.
     */
    public Result run(IbsimServer endpoint, Duration budget) {
        long t0 = System.nanoTime();
        int passes = 0;
        boolean up = false;
        AtomicLong answered = new AtomicLong();
        if (budget.isZero() || budget.isNegative()) {
            return new Result(Duration.ZERO, 0, false, 0);
        }
        Fabric f = FatTree.build(SCRATCH);
        try {
            scratch = Twin.of(f);
            List<Recorder.Request> script;
            try (IbsimClient c = connect(endpoint)) {
                Recorder rec = new Recorder(c);
                SubnetManager sm = new SubnetManager(rec, SmConfig.defaults(), SmLog.quiet());
                up = sm.sweep().subnetUp();
                echoOthers(new SmpPipe(rec, WINDOW, TIMEOUT, 1), sm.topology());
                sm.detach();
                script = rec.requests();
            }
            passes++;
            long compiling = JitActivity.compilerCpuNanos();
            while (true) {
                scratch = Twin.of(f);
                try (IbsimClient c = connect(endpoint)) {
                    answered.addAndGet(replay(c, script));
                }
                passes++;
                long now = JitActivity.compilerCpuNanos();
                boolean settled = now - compiling <= JitActivity.IDLE_NANOS;
                compiling = now;
                long spent = System.nanoTime() - t0;
                if (spent >= 2 * budget.toNanos() || settled && spent >= budget.toNanos()) {
                    break;
                }
            }
        } catch (RuntimeException e) {
            // a warm-up that cannot run only leaves the JVM cold
            System.getLogger(TwinWarmup.class.getName()).log(System.Logger.Level.DEBUG, "warm-up stopped", e);
        } finally {
            scratch = null;
        }
        return new Result(Duration.ofNanos(System.nanoTime() - t0), passes, up, answered.get());
    }

    /** A client of {@code endpoint} at {@link #NODE}, in the endpoint's mode: UDP, or ibsim's local mode. */
    private static IbsimClient connect(IbsimServer endpoint) {
        String local = endpoint.basename();
        if (local != null) {
            return IbsimClient.connectLocal(local, NODE, true, Duration.ofSeconds(2));
        }
        return IbsimClient.connect(endpoint.address().getAddress().getHostAddress(), endpoint.port(), NODE, true,
                Duration.ofSeconds(2));
    }

    /**
     * Sends {@code script}'s requests in order, {@link #WINDOW} in flight, and waits for the last answer; how many
     * were answered.
     */
    private static long replay(IbsimClient c, List<Recorder.Request> script) {
        Semaphore window = new Semaphore(WINDOW);
        AtomicLong answered = new AtomicLong();
        for (Recorder.Request r : script) {
            window.acquireUninterruptibly();
            byte[] mad = r.mad().clone();
            IbsimWire.setTid(mad, c.nextTid());
            c.request(mad, r.to(), TIMEOUT, 0).whenComplete((m, e) -> {
                if (e == null) {
                    answered.incrementAndGet();
                }
                window.release();
            });
        }
        window.acquireUninterruptibly(WINDOW);
        return answered.get();
    }

    /** A transport that hands everything to another and keeps a copy of each request sent. */
    private static final class Recorder implements MadTransport {
        record Request(byte[] mad, MadAddress to) {
        }

        private final MadTransport inner;
        private final List<Request> requests = Collections.synchronizedList(new ArrayList<>());

        Recorder(MadTransport inner) {
            this.inner = inner;
        }

        List<Request> requests() {
            synchronized (requests) {
                return List.copyOf(requests);
            }
        }

        @Override
        public LocalPort localPort() {
            return inner.localPort();
        }

        @Override
        public long nextTid() {
            return inner.nextTid();
        }

        @Override
        public CompletableFuture<byte[]> request(byte[] mad, MadAddress to, Duration timeout, int retries) {
            requests.add(new Request(mad.clone(), to));
            return inner.request(mad, to, timeout, retries);
        }

        @Override
        public void send(byte[] mad, MadAddress to) {
            inner.send(mad, to);
        }

        @Override
        public void onUnsolicited(Consumer<ReceivedMad> handler) {
            inner.onUnsolicited(handler);
        }

        @Override
        public void close() {
            inner.close();
        }
    }

    /**
     * What other SMs (OpenSM) read and set that ibtwin's SM leaves alone, so that it is compiled too, and in about
     * the proportions OpenSM's first sweep has: on every port, SL2VL, one VLArbitration block (the four in turn) and
     * the first P_Key block, each read and written back unchanged; the P_Key block and the node's NodeInfo read once
     * more, MlnxExtPortInfo read, PortInfo set as OpenSM sets it; on switches the first MFT block, on CAs GUIDInfo.
     */
    private static void echoOthers(SmpPipe pipe, Topology t) {
        for (int n = 0; n < t.nodeCount(); n++) {
            byte[] path = t.path(n);
            boolean sw = t.nodeType(n) == NodeType.SWITCH;
            echo(pipe, path, sw ? AttributeIds.MCAST_FWD_TABLE : AttributeIds.GUID_INFO, 0);
            for (int p = sw ? 0 : 1; p <= t.numPorts(n); p++) {
                echo(pipe, path, AttributeIds.SL_TO_VL_TABLE, sw ? (p << 8) | p : 0);
                echo(pipe, path, AttributeIds.VL_ARB_TABLE, ((p % 4 + 1) << 16) | p);
                echo(pipe, path, AttributeIds.P_KEY_TABLE, sw ? p << 16 : 0);
                // what OpenSM reads most: P_Key blocks and NodeInfo again (through every link), PortInfo
                pipe.get(path, AttributeIds.P_KEY_TABLE, sw ? p << 16 : 0, r -> { });
                pipe.get(path, AttributeIds.NODE_INFO, 0, r -> { });
                pipe.get(path, AttributeIds.MLNX_EXT_PORT_INFO, p, r -> { });
                enableAsSupported(pipe, path, p, sw && p == 0);
            }
        }
        pipe.drain();
    }

    /**
     * PortInfo read and set back as OpenSM's first sweep sets it (no state change, every supported width and speed
     * enabled, named by its supported codes; switch port 0 also by the "set to supported" codes 0xff and 0xf), so
     * that the twin's Set is compiled for those values and not only for ibtwin's SM's zeros ("no change").
     */
    private static void enableAsSupported(SmpPipe pipe, byte[] path, int port, boolean port0) {
        pipe.get(path, AttributeIds.PORT_INFO, port, r -> {
            if (!r.ok()) {
                return;
            }
            byte[] pi = r.data();
            PI.set(pi, 0, PI_STATE, 0);
            PI.set(pi, 0, PI_PHYS, 0);
            PI.set(pi, 0, PI_LWE, port0 ? 0xff : PI.get(pi, 0, PI_LWS));
            PI.set(pi, 0, PI_LSE, port0 ? 0xf : PI.get(pi, 0, PI_LSS));
            PI.set(pi, 0, PI_LSEE, PI.get(pi, 0, PI_LSES));
            if (port % 2 == 1) {
                PI.set(pi, 0, PI_LDDS, 0);
            }
            pipe.set(path, AttributeIds.PORT_INFO, port, pi, done -> { });
        });
    }

    private static void echo(SmpPipe pipe, byte[] path, int attr, long modifier) {
        pipe.get(path, attr, modifier, r -> {
            if (r.ok()) {
                pipe.set(path, attr, modifier, r.data(), done -> { });
            }
        });
    }
}
