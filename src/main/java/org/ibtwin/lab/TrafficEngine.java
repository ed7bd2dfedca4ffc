package org.ibtwin.lab;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Node;
import org.ibtwin.model.Port;
import org.ibtwin.perf.Bottleneck;
import org.ibtwin.perf.DataCounters;
import org.ibtwin.perf.Endpoint;
import org.ibtwin.perf.Hop;
import org.ibtwin.perf.LftRoutes;
import org.ibtwin.perf.Names;
import org.ibtwin.perf.Op;
import org.ibtwin.perf.PerfParams;
import org.ibtwin.perf.Route;
import org.ibtwin.perf.Spec;
import org.ibtwin.perf.Traffic;
import org.ibtwin.sim.Twin;

/**
 * The data plane of a running twin: flows between hosts over the routes in the twin's forwarding tables, at the
 * max-min fair rates of the performance model, moving the PMA counters of every port they cross as a simulated
 * clock advances.
 *
 * <p>Routes: {@link LftRoutes}, fed from the twin's own LFTs and port states ({@link Twin#egressPort}); data moves
 * only over Active ports. Rates: {@link Traffic#solve} (links, PCIe, message rates) of RDMA WRITE streams of
 * {@code size} bytes at each path's MTU. Counters: every message a flow sends adds its words and packets
 * ({@link DataCounters}) to PortXmitData/Pkts of each port it leaves and PortRcvData/Pkts of each port it enters,
 * and its RC ACK the same along the way back; ports where packets queue add PortXmitWait
 * ({@link DataCounters#waits}). Flows send whole messages: a flow's rate in messages a second is accumulated and
 * every whole message is counted when the clock passes it, so the counters equal the flows' messages times their
 * words exactly.
 *
 * <p>Changes: whenever the twin's {@link Twin#forwardingVersion} moves (a pulled cable, a port state, an SM writing
 * LFTs) the routes are resolved and the rates solved again at the next step, so flows move to their new paths at
 * once; flows left without a path stop (and start again when a path comes back) and are reported in the events.
 *
 *
 * <p>All-to-all runs as one collective, every host sending to every other ({@link TrafficAllToAll}).
 *
 * <p>Time: {@link #advance} moves the clock by a simulated span (a bounded run); {@link #run} ticks on a thread of
 * its own, {@code speed} simulated seconds per wall second. Thread-safe: every public method holds the engine's
 * monitor; the counters are added under the twin's lock ({@link Twin#addTraffic}).
 */
public final class TrafficEngine implements AutoCloseable {
    /** The message size flows send by default: 64 KiB RDMA WRITEs, as ib_write_bw's default for a stream. */
    public static final long DEFAULT_SIZE = 65536;
    /** The wall-clock period of the engine's thread. */
    public static final long TICK_MILLIS = 10;
    private static final int MAX_EVENTS = 200;

    private final Twin twin;
    private final PerfParams params;
    private final Fabric fabric;
    private final List<Port> hosts;
    private final LftRoutes routes;

    private TrafficPattern pattern;
    private long size = DEFAULT_SIZE;
    private List<Flow> flows = List.of();
    private TrafficAllToAll collective;
    private boolean running;
    private long planVersion = -1;
    private long nanos;
    private long startedAt;
    private final List<String> events = new ArrayList<>();

    // the plan: the ports the flows touch, in compact order, and their deltas for one step
    private int[] slots = new int[0];
    private Port[] slotPorts = new Port[0];
    private long[] deltas = new long[0];
    private double[] waitTicks = new double[0];
    private double[] waitCredit = new double[0];

    private Thread thread;
    private volatile boolean ticking;
    private double speed = 1;

    public TrafficEngine(Twin twin) {
        this(twin, PerfParams.DEFAULT);
    }

    public TrafficEngine(Twin twin, PerfParams params) {
        this.twin = twin;
        this.params = params;
        this.fabric = twin.fabric();
        this.hosts = TrafficPattern.hosts(fabric);
        this.routes = new LftRoutes(twin::egressPort);
    }

    /** One flow: its ends, its own cap, and what it has done. */
    static final class Flow {
        final Port src;
        final Port dst;
        final double cap;
        Route data;
        Route back;
        Spec spec;
        double gbps;
        double mps;
        Bottleneck why;
        double credit;
        long messages;
        long wordsPerMessage;
        long packetsPerMessage;
        long backWords;
        long backPackets;
        int[] dataOut = new int[0];
        int[] dataIn = new int[0];
        int[] backOut = new int[0];
        int[] backIn = new int[0];
        boolean routed;

        Flow(Port src, Port dst, double cap) {
            this.src = src;
            this.dst = dst;
            this.cap = cap;
        }
    }

    // =====================================================================================================
    // control

    /**
     * Starts {@code p} (replacing what runs), RDMA WRITEs of {@code messageSize} bytes, and resolves its routes and
     * rates now.
     *
     * @throws IllegalArgumentException for an unknown host, a bad traffic file (file:line) or a pattern the fabric
     *                                  cannot hold
     */
    public synchronized TrafficStatus start(TrafficPattern p, long messageSize) {
        if (messageSize < 1 || messageSize > (1L << 31)) {
            throw new IllegalArgumentException("message size must be 1 B .. 2 GiB: " + messageSize);
        }
        List<TrafficPattern.Pair> pairs = p.pairs(hosts, this::host);
        pattern = p;
        size = messageSize;
        flows = new ArrayList<>(pairs.size());
        for (TrafficPattern.Pair pr : pairs) {
            flows.add(new Flow(pr.src(), pr.dst(), pr.gbps()));
        }
        collective = p.kind() == TrafficPattern.Kind.ALL_TO_ALL ? new TrafficAllToAll(twin, hosts, params,
                Spec.of(Op.WRITE, messageSize), routes) : null;
        running = true;
        startedAt = nanos;
        events.clear();
        event(String.format(Locale.ROOT, "started %s: %,d flows", p.label(),
                collective != null ? collective.pairs() : flows.size()));
        planVersion = -1;
        replan();
        return status();
    }

    /** Stops the flows (the clock and the counters stay where they are). */
    public synchronized void stop() {
        if (running) {
            event("stopped " + pattern.label());
        }
        running = false;
    }

    /** Moves the simulated clock by {@code seconds}, the flows sending as it goes. */
    public synchronized void advance(double seconds) {
        if (!(seconds >= 0) || seconds > 1e9) {
            throw new IllegalArgumentException("seconds must be 0..1e9: " + seconds);
        }
        advanceNanos(Math.round(seconds * 1e9));
    }

    /** Moves the simulated clock by {@code ns} nanoseconds in one step. */
    public synchronized void advanceNanos(long ns) {
        if (running && twin.forwardingVersion() != planVersion) {
            replan();
        }
        nanos += ns;
        if (!running || ns == 0) {
            return;
        }
        double dt = ns / 1e9;
        int n = slots.length;
        Arrays.fill(deltas, 0, n * Twin.TRAFFIC_FIELDS, 0);
        if (collective != null) {
            collective.step(dt, deltas);
        }
        for (Flow f : flows) {
            if (!f.routed || f.mps <= 0) {
                continue;
            }
            f.credit += f.mps * dt;
            long m = (long) f.credit;
            if (m == 0) {
                continue;
            }
            f.credit -= m;
            f.messages += m;
            long w = m * f.wordsPerMessage;
            long k = m * f.packetsPerMessage;
            for (int i = 0; i < f.dataOut.length; i++) {
                int o = f.dataOut[i] * Twin.TRAFFIC_FIELDS;
                int r = f.dataIn[i] * Twin.TRAFFIC_FIELDS;
                deltas[o] += w;
                deltas[o + 2] += k;
                deltas[r + 1] += w;
                deltas[r + 3] += k;
            }
            long bw = m * f.backWords;
            long bk = m * f.backPackets;
            if (bk > 0) {
                for (int i = 0; i < f.backOut.length; i++) {
                    int o = f.backOut[i] * Twin.TRAFFIC_FIELDS;
                    int r = f.backIn[i] * Twin.TRAFFIC_FIELDS;
                    deltas[o] += bw;
                    deltas[o + 2] += bk;
                    deltas[r + 1] += bw;
                    deltas[r + 3] += bk;
                }
            }
        }
        for (int i = 0; i < n; i++) {
            if (waitTicks[i] > 0) {
                waitCredit[i] += waitTicks[i] * dt;
                long t = (long) waitCredit[i];
                waitCredit[i] -= t;
                deltas[i * Twin.TRAFFIC_FIELDS + 4] += t;
            }
        }
        twin.addTraffic(slots, n, deltas);
    }

    /**
     * Ticks on a thread of its own, {@code speed} simulated seconds per wall second, every {@link #TICK_MILLIS}
     * ms, until {@link #halt}.
     */
    public synchronized void run(double simSpeed) {
        if (!(simSpeed > 0) || simSpeed > 1e6) {
            throw new IllegalArgumentException("--speed must be > 0 and at most 1e6: " + simSpeed);
        }
        speed = simSpeed;
        if (thread != null) {
            return;
        }
        ticking = true;
        Thread t = new Thread(this::tickLoop, "ibtwin-traffic");
        t.setDaemon(true);
        thread = t;
        t.start();
    }

    private void tickLoop() {
        long last = System.nanoTime();
        while (ticking) {
            try {
                Thread.sleep(TICK_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
            long now = System.nanoTime();
            double s;
            synchronized (this) {
                s = speed;
            }
            advanceNanos(Math.round((now - last) * s));
            last = now;
        }
    }

    /** Stops the engine's thread (the flows stay as they are). */
    public void halt() {
        Thread t;
        synchronized (this) {
            ticking = false;
            t = thread;
            thread = null;
        }
        if (t != null) {
            t.interrupt();
            try {
                t.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public void close() {
        halt();
    }

    /** Simulated seconds since the engine was made. */
    public synchronized double seconds() {
        return nanos / 1e9;
    }

    public synchronized boolean running() {
        return running;
    }

    // =====================================================================================================
    // planning

    private void replan() {
        long version = twin.forwardingVersion();
        boolean first = planVersion < 0;
        planVersion = version;
        Map<Port, Integer> compact = new HashMap<>();
        List<Port> ports = new ArrayList<>();
        if (collective != null) {
            collective.plan(compact, ports);
            event(String.format(Locale.ROOT, "%s all-to-all: %,d pairs routed, %,d without a path",
                    first ? "planned" : "routes changed: re-planned", collective.pairs() - collective.unrouted(),
                    collective.unrouted()));
        } else {
            planFlows(compact, ports, first);
        }
        int n = ports.size();
        slots = new int[n];
        slotPorts = ports.toArray(new Port[0]);
        for (int i = 0; i < n; i++) {
            slots[i] = twin.portSlot(ports.get(i));
        }
        deltas = new long[n * Twin.TRAFFIC_FIELDS];
        waitCredit = new double[n];
        waitTicks = new double[n];
        List<DataCounters.Flow> counted = new ArrayList<>();
        for (Flow f : flows) {
            if (f.routed && f.mps > 0) {
                counted.add(new DataCounters.Flow(f.data, f.back, f.spec, f.mps));
            }
        }
        for (DataCounters.Wait w : DataCounters.waits(params, counted)) {
            Integer i = compact.get(w.port());
            if (i != null) {
                waitTicks[i] = w.ticksPerSecond();
            }
        }
    }

    private void planFlows(Map<Port, Integer> compact, List<Port> ports, boolean first) {
        List<Traffic.Demand> demands = new ArrayList<>();
        List<Flow> routed = new ArrayList<>();
        int moved = 0;
        List<String> lost = new ArrayList<>();
        int back = 0;
        for (Flow f : flows) {
            Route there = twin.isActive(f.src) && twin.isActive(f.dst) ? routes.route(f.src, f.dst) : null;
            Route ret = there == null ? null : routes.route(f.dst, f.src);
            boolean was = f.routed;
            if (there == null || ret == null) {
                f.routed = false;
                f.gbps = 0;
                f.mps = 0;
                f.why = new Bottleneck(Bottleneck.Kind.NO_ROUTE, "no route from " + Names.port(f.src) + " to "
                        + Names.port(f.dst) + " in the forwarding tables");
                if (was || first) {
                    lost.add(Names.node(f.src.node()) + " -> " + Names.node(f.dst.node()));
                }
                continue;
            }
            if (was && !there.hops().equals(f.data.hops())) {
                moved++;
            }
            if (!was && !first) {
                back++;
            }
            f.routed = true;
            f.data = there;
            f.back = ret;
            f.spec = Spec.of(Op.WRITE, size).withMtu(Math.min(there.mtu().bytes(), ret.mtu().bytes()));
            demands.add(new Traffic.Demand(f.spec, Endpoint.of(f.src, false), Endpoint.of(f.dst, false), there,
                    ret));
            routed.add(f);
        }
        double[] caps = new double[routed.size()];
        for (int i = 0; i < caps.length; i++) {
            caps[i] = routed.get(i).cap;
        }
        List<Traffic.Outcome> out = Traffic.solve(params, demands, caps);
        for (int i = 0; i < routed.size(); i++) {
            Flow f = routed.get(i);
            Traffic.Outcome o = out.get(i);
            f.gbps = o.gbps();
            f.mps = o.mpps() * 1e6;
            f.why = o.why();
            f.wordsPerMessage = DataCounters.dataWords(f.spec);
            f.packetsPerMessage = DataCounters.dataPackets(f.spec);
            f.backWords = DataCounters.reverseWords(f.spec);
            f.backPackets = DataCounters.reversePackets(f.spec);
            f.dataOut = new int[f.data.hops().size()];
            f.dataIn = new int[f.data.hops().size()];
            for (int h = 0; h < f.data.hops().size(); h++) {
                Hop hop = f.data.hops().get(h);
                f.dataOut[h] = index(compact, ports, hop.from());
                f.dataIn[h] = index(compact, ports, hop.to());
            }
            f.backOut = new int[f.back.hops().size()];
            f.backIn = new int[f.back.hops().size()];
            for (int h = 0; h < f.back.hops().size(); h++) {
                Hop hop = f.back.hops().get(h);
                f.backOut[h] = index(compact, ports, hop.from());
                f.backIn[h] = index(compact, ports, hop.to());
            }
        }
        if (!first) {
            event(String.format(Locale.ROOT, "routes changed: %d flows on new paths%s", moved,
                    back > 0 ? ", " + back + " back on a path" : ""));
        }
        if (!lost.isEmpty()) {
            event(String.format(Locale.ROOT, "%d flow%s without a path, stopped: %s", lost.size(),
                    lost.size() == 1 ? "" : "s", String.join(", ", lost.subList(0, Math.min(8, lost.size())))
                            + (lost.size() > 8 ? ", ..." : "")));
        }
    }

    static int index(Map<Port, Integer> compact, List<Port> ports, Port p) {
        Integer i = compact.get(p);
        if (i == null) {
            i = ports.size();
            compact.put(p, i);
            ports.add(p);
        }
        return i;
    }

    private void event(String text) {
        if (events.size() == MAX_EVENTS) {
            events.remove(0);
        }
        events.add(String.format(Locale.ROOT, "t=%.3f s: %s", nanos / 1e9, text));
    }

    /** A host by its node's topology id, description or host name (its CA port with a link). */
    Port host(String name) {
        Node n = fabric.byName(name);
        if (n == null) {
            for (Node m : fabric.nodes()) {
                String d = m.description().strip();
                int sp = d.indexOf(' ');
                if (d.equals(name) || (sp > 0 && d.substring(0, sp).equals(name))) {
                    n = m;
                    break;
                }
            }
        }
        if (n == null) {
            throw new IllegalArgumentException("unknown node \"" + name + "\"");
        }
        if (n.isSwitch()) {
            throw new IllegalArgumentException("\"" + name + "\" is a switch, not a host");
        }
        for (Port p : hosts) {
            if (p.node() == n) {
                return p;
            }
        }
        throw new IllegalArgumentException("host \"" + name + "\" has no linked port");
    }

    // =====================================================================================================
    // status

    /** What runs now: the flows, their rates and counts, the ports that wait, the simulated time, the events. */
    public synchronized TrafficStatus status() {
        List<TrafficStatus.FlowStatus> fs = new ArrayList<>();
        double total = 0;
        int unrouted = 0;
        for (Flow f : flows) {
            long words = f.messages * f.wordsPerMessage;
            fs.add(new TrafficStatus.FlowStatus(Names.node(f.src.node()), Names.node(f.dst.node()), f.routed,
                    f.routed ? f.gbps : 0, f.why == null ? "" : f.why.text(), f.routed ? f.data.switches() : 0,
                    f.spec == null ? 0 : f.spec.mtu(), f.messages, f.messages * size, words * 4,
                    f.messages * f.backWords * 4));
            if (f.routed) {
                total += f.gbps;
            } else {
                unrouted++;
            }
        }
        TrafficStatus.Collective c = null;
        if (collective != null) {
            c = collective.status();
            total = c.aggregateGbps();
            unrouted = (int) Math.min(Integer.MAX_VALUE, c.unroutedPairs());
        }
        List<TrafficStatus.PortWait> waits = new ArrayList<>();
        for (int i = 0; i < waitTicks.length; i++) {
            if (waitTicks[i] > 0) {
                waits.add(new TrafficStatus.PortWait(Names.port(slotPorts[i]), waitTicks[i]));
            }
        }
        return new TrafficStatus(pattern == null ? "" : pattern.label(), running, nanos / 1e9,
                (nanos - startedAt) / 1e9, size, fs, c, total, unrouted, waits, List.copyOf(events));
    }

    /** The ports the current flows cross, for a summary's busiest ports. */
    public synchronized List<Port> ports() {
        return List.of(slotPorts);
    }

    /** The twin the engine drives. */
    public Twin twin() {
        return twin;
    }

    @Override
    public String toString() {
        return "TrafficEngine(" + (pattern == null ? "idle" : pattern.label()) + ")";
    }
}
