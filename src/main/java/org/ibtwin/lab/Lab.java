package org.ibtwin.lab;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.BindException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.ibtwin.format.PartitionsConf;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Node;
import org.ibtwin.model.Port;
import org.ibtwin.model.PortCounter;
import org.ibtwin.perf.Names;
import org.ibtwin.sim.Attachment;
import org.ibtwin.sim.Console;
import org.ibtwin.sim.ExtCounter;
import org.ibtwin.sim.IbsimServer;
import org.ibtwin.sim.TrapTimer;
import org.ibtwin.sim.Twin;
import org.ibtwin.sim.TwinTransport;
import org.ibtwin.sm.SmConfig;
import org.ibtwin.sm.SmLog;
import org.ibtwin.sm.SubnetManager;
import org.ibtwin.sm.SweepReport;

/**
 * A running fabric, put together in one place: the model, its twin, ibtwin's SM attached at one of its ports (or
 * none, when an outside SM such as real OpenSM manages it), and on top, when asked, the trap timer, the ibsim
 * endpoint (warmed before it says it is ready), the SM sweeping on a thread of its own and the console. Everything it
 * starts it stops, in the reverse order, when closed; what others start with it (the traffic engine, a tool's
 * transport) joins through {@link #add}, so that it is stopped with the rest.
 *
 * <p>Every command that needs a live fabric takes it from here ({@code up}, {@code sim}, the diag tools' in-process
 * twin, doctor's live mode, the perf tools, the benches); the SM and the tools still see only a
 * {@link org.ibtwin.transport.MadTransport}.
 */
public final class Lab implements AutoCloseable {
    private TrafficEngine traffic;
    private final Fabric fabric;
    private final Twin twin;
    private final SubnetManager sm;
    private final TwinTransport smTransport;
    private final List<AutoCloseable> parts = new ArrayList<>();
    private IbsimServer server;
    private TwinTransport tool;
    private TwinWarmup.Result warmup;
    private Thread sweeper;
    private final AtomicBoolean stop = new AtomicBoolean();
    private boolean closed;

    /** How to assemble a lab: which SM (ours, with its configuration, at a node or port; or none). */
    public static final class Builder {
        private final Fabric fabric;
        private boolean withSm = true;
        private SmConfig config = SmConfig.defaults();
        private SmLog log = SmLog.quiet();
        private PartitionsConf partitions;
        private String smNode;
        private int smPort;
        private String caName = "ibtwin0";
        private boolean withTool;
        private String toolNode;

        private Builder(Fabric fabric) {
            this.fabric = fabric;
        }

        /** ibtwin's SM with this configuration and log (the default: {@link SmConfig#defaults()}, quiet). */
        public Builder sm(SmConfig c, SmLog l) {
            this.withSm = true;
            this.config = c;
            this.log = l;
            return this;
        }

        /** No SM of ours: an outside SM (real OpenSM through the endpoint) manages the twin. */
        public Builder noSm() {
            this.withSm = false;
            return this;
        }

        /** The partitions our SM programs (null: the default partition only). */
        public Builder partitions(PartitionsConf p) {
            this.partitions = p;
            return this;
        }

        /** Where our SM sits: a node (null: the twin's default, the first CA's port 1; a switch: port 0). */
        public Builder smAt(String node) {
            return smAt(node, 0);
        }

        /** Where our SM sits: a node and a port (0: the node's default port). */
        public Builder smAt(String node, int port) {
            this.smNode = node;
            this.smPort = port;
            return this;
        }

        /** The CA name our SM's transport reports ("ibtwin0"). */
        public Builder caName(String name) {
            this.caName = name;
            return this;
        }

        /**
         * A tool's port at {@code node} (null: the first CA's port 1), attached before the SM (an unknown node fails
         * before the SM is there): {@link Lab#tool()}.
         */
        public Builder tool(String node) {
            this.withTool = true;
            this.toolNode = node;
            return this;
        }

        /**
         * The twin of the fabric with our SM attached (not swept yet: {@link Lab#bringUp}), or without an SM.
         *
         * @throws IllegalArgumentException for an unknown SM node
         */
        public Lab start() {
            Twin twin = Twin.of(fabric);
            Attachment toolPort = withTool ? twin.attach(toolNode, 0) : null;
            Lab lab;
            if (!withSm) {
                lab = new Lab(fabric, twin, null, null);
            } else {
                Attachment at = twin.attach(smNode, smPort);
                at.setIsSm(true);
                TwinTransport t = new TwinTransport(at, caName);
                SubnetManager m = new SubnetManager(t, config, log);
                if (partitions != null) {
                    m.partitions(partitions);
                }
                m.keepLfts(heldLfts(fabric));
                lab = new Lab(fabric, twin, m, t);
            }
            if (toolPort != null) {
                lab.tool = lab.add(new TwinTransport(toolPort, lab.deviceName(toolPort.nodeName())));
            }
            return lab;
        }
    }

    /**
     * The forwarding tables the model's switches hold (a snapshot's), by switch GUID, when every switch holds one;
     * else null. Our SM's first sweep keeps them ({@link SubnetManager#keepLfts}): the fabric comes up as saved.
     */
    public static Map<Long, byte[]> heldLfts(Fabric f) {
        Map<Long, byte[]> out = new java.util.HashMap<>();
        for (Node n : f.switches()) {
            if (n.linearForwarding() == null) {
                return null;
            }
            out.put(n.guid(), n.linearForwarding());
        }
        return out.isEmpty() ? null : out;
    }

    private Lab(Fabric fabric, Twin twin, SubnetManager sm, TwinTransport smTransport) {
        this.fabric = fabric;
        this.twin = twin;
        this.sm = sm;
        this.smTransport = smTransport;
    }

    /** A lab of {@code fabric}: ibtwin's SM at the default port unless told otherwise. */
    public static Builder of(Fabric fabric) {
        return new Builder(fabric);
    }

    /**
     * The twin of {@code fabric} brought up by ibtwin's SM, as the in-process tools use it.
     *
     * @throws org.ibtwin.transport.MadTransportException when the SM does not bring the subnet up
     */
    public static Lab up(Fabric fabric, String what) {
        Lab lab = of(fabric).start();
        try {
            SweepReport r = lab.bringUp();
            if (!r.subnetUp()) {
                throw new org.ibtwin.transport.MadTransportException("ibtwin's SM did not bring " + what + " up: "
                        + String.join("; ", r.problems()));
            }
            return lab;
        } catch (RuntimeException e) {
            lab.close();
            throw e;
        }
    }

    public Fabric fabric() {
        return fabric;
    }

    /** The twin: what the traffic engine and the console drive. */
    public Twin twin() {
        return twin;
    }

    /** ibtwin's SM, null when the lab has none. */
    public SubnetManager sm() {
        return sm;
    }

    /** The tool's port {@link Builder#tool} asked for, null without one. */
    public TwinTransport tool() {
        return tool;
    }

    /** The ibsim endpoint, null until {@link #serve}. */
    public IbsimServer server() {
        return server;
    }

    /** What the endpoint's warm-up did, null until {@link #serve}. */
    public TwinWarmup.Result warmup() {
        return warmup;
    }

    /** Our SM's first sweep (the subnet brought up). */
    public SweepReport bringUp() {
        if (sm == null) {
            throw new IllegalStateException("this lab has no SM of ours");
        }
        return sm.sweep();
    }

    /**
     * Adds a part to stop with the lab (closed before the parts added earlier, before the endpoint and the SM):
     * the traffic engine, a tool's transport.
     */
    public synchronized <T extends AutoCloseable> T add(T part) {
        parts.add(part);
        return part;
    }

    /**
     * A tool's transport at {@code node} (null: the first CA's port 1; a switch: its port 0), its CA name the one a
     * host would show for the node; closed with the lab.
     *
     * @throws IllegalArgumentException for an unknown node
     */
    public TwinTransport attachTool(String node) {
        Attachment a = twin.attach(node, 0);
        return add(new TwinTransport(a, deviceName(a.nodeName())));
    }

    /** The verbs device name a host would show for the node. */
    private String deviceName(String nodeName) {
        for (Node n : fabric.nodes()) {
            if (n.name().equals(nodeName)) {
                return Names.device(n, "mlx5");
            }
        }
        return "mlx5_0";
    }

    /**
     * Starts the trap timer and the ibsim endpoint: in ibsim's local mode as {@code local} names it (empty: the
     * {@code IBSIM_SOCKNAME} variable, else {@code sim}), else over UDP on loopback at {@code port}; after warming
     * the JIT through it for {@code warmup} (zero: not at all). A name or port that cannot be served is an
     * {@link IllegalArgumentException} of one line.
     */
    public IbsimServer serve(String local, int port, Duration warmupBudget) throws IOException {
        add(TrapTimer.start(twin, Duration.ofMillis(100)));
        TwinWarmup warm = TwinWarmup.around(name -> twin.attach(name, 0));
        IbsimServer s = add(new IbsimServer(warm.attachPoint()));
        startEndpoint(s, local, port);
        server = s;
        warmup = warm.run(s, warmupBudget);
        return s;
    }

    /**
     * Starts {@code server} as {@code --local} and {@code --port} ask: in ibsim's local mode when {@code local} is
     * given (its name, else {@code IBSIM_SOCKNAME}, else ibsim's default {@code sim}), else over UDP on loopback at
     * {@code port}. A name or port that cannot be served is one line for exit 2.
     */
    public static void startEndpoint(IbsimServer server, String local, int port) throws IOException {
        if (local != null) {
            String name = !local.isEmpty() ? local : System.getenv("IBSIM_SOCKNAME");
            try {
                server.startLocal(name == null || name.isEmpty() ? "sim" : name);
            } catch (UnsupportedOperationException | IllegalArgumentException | BindException e) {
                throw new IllegalArgumentException("--local: " + e.getMessage(), e);
            }
            return;
        }
        try {
            server.start(InetAddress.getLoopbackAddress(), port);
        } catch (BindException e) {
            throw new IllegalArgumentException("--port: " + e.getMessage(), e);
        }
    }

    /** Our SM sweeping on a thread of its own (light sweeps at its interval, heavy ones on traps) until closed. */
    public synchronized void runSm() {
        if (sm == null || sweeper != null) {
            return;
        }
        sweeper = new Thread(() -> sm.run(stop), "ibtwin-sm");
        sweeper.setDaemon(true);
        sweeper.start();
    }

    /** A console over the twin and the endpoint (which {@link #serve} must have started), printing to {@code out}. */
    public Console console(PrintWriter out) {
        Console console = new Console(twin, server, out);
        console.register("traffic", new TrafficConsole(traffic()));
        return console;
    }

    /** The lab's traffic engine over its twin, made on first use; it stops with the lab. */
    public synchronized TrafficEngine traffic() {
        if (traffic == null) {
            traffic = add(new TrafficEngine(twin));
        }
        return traffic;
    }

    /**
     * The fabric as the twin has it now (links, port states, widths and speeds, LIDs, P_Keys, counters:
     * {@link Twin#syncModel} writes them into the model), as a copy of its own: the web view reads one for a
     * minute (the doctor of a big fabric, a what-if's snapshot) while the next read writes the model again, so the
     * model itself is never handed out here.
     */
    public synchronized Fabric synced() {
        twin.syncModel();
        return fabric.copy();
    }

    /**
     * Every port's 64-bit PortXmitData (in 4-byte words, as the PMA counts it) and its PortXmitWait, read
     * now: {@code {xmitWords, xmitWait}} by port, for rates taken between two reads.
     */
    public Map<Port, long[]> xmitCounters() {
        Map<Port, long[]> m = new IdentityHashMap<>();
        for (Node n : fabric.nodes()) {
            for (int p = 1; p <= n.numPorts(); p++) {
                m.put(n.port(p), new long[] {twin.extendedCounter(n.name(), p, ExtCounter.XMIT_DATA),
                    twin.counter(n.name(), p, PortCounter.XMIT_WAIT)});
            }
        }
        return m;
    }

    /** Stops everything: the SM's thread, the parts (last added first), then the SM's port. */
    @Override
    public void close() {
        List<AutoCloseable> toClose;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            toClose = new ArrayList<>(parts);
        }
        stop.set(true);
        if (sweeper != null) {
            try {
                sweeper.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        RuntimeException failure = null;
        for (int i = toClose.size() - 1; i >= 0; i--) {
            try {
                toClose.get(i).close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = e instanceof RuntimeException re ? re : new IllegalStateException(e.getMessage(), e);
                }
            }
        }
        if (sm != null) {
            sm.detach();
            smTransport.close();
        }
        if (failure != null) {
            throw failure;
        }
    }
}
