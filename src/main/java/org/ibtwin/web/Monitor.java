package org.ibtwin.web;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.ibtwin.doctor.Doctor;
import org.ibtwin.doctor.FabricState;
import org.ibtwin.doctor.Finding;
import org.ibtwin.doctor.Report;
import org.ibtwin.doctor.Thresholds;
import org.ibtwin.lab.TrafficStatus;
import org.ibtwin.model.Link;
import org.ibtwin.model.Node;
import org.ibtwin.model.Port;

/**
 * Watches a source: reads its state (on a thread of its own, every {@code period}, for a live source; once for a
 * fixed one), keeps the latest {@link FabricView}, the counters' rates and the traffic's tier shares, and turns what
 * changed into {@link Events} (a link going down, coming up, degrading). The one thread that reads the source.
 */
public final class Monitor implements AutoCloseable {
    /** The tiers the traffic bars show, in order: tier of the sending port, tier of its peer. */
    static final List<String> TIERS = List.of("host→leaf", "leaf→spine", "spine→core", "core→spine", "spine→leaf",
            "leaf→host");
    private static final int HISTORY = 240;
    private static final int PORT_SERIES = 12;

    private final WebSource source;
    private final Events events;
    private final long periodMillis;
    private final Object lock = new Object();
    private volatile FabricView view;
    private volatile Map<String, Object> traffic = Map.of("running", false);
    private FabricState state;
    private Map<String, long[]> lastCounters;
    private double lastSeconds;
    private final ArrayDeque<double[]> tierHistory = new ArrayDeque<>();
    private final Map<String, ArrayDeque<double[]>> portHistory = new LinkedHashMap<>();
    private long version;
    /** The doctor's last report, the state and view version it was made of, the examination under way. */
    private Report doctor;
    private FabricState examined;
    private long examinedVersion = -1;
    private CompletableFuture<Report> pending;
    private FabricState pendingState;
    private volatile Map<String, Object> lastExamination = Map.of();
    private final Doctor.Cache doctorCache = new Doctor.Cache(new Thresholds());
    private final Function<FabricState, Report> examine;
    private final ExecutorService doctorThread = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "ibtwin-web-doctor");
        t.setDaemon(true);
        return t;
    });
    private Thread thread;
    private volatile boolean stop;
    private volatile long lastBuildMillis;

    public Monitor(WebSource source, Events events, long periodMillis) {
        this(source, events, periodMillis, null);
    }

    /**
     * A monitor whose doctor is {@code examine} (null: the doctor's, with a {@link Doctor.Cache}): a test holds it
     * back to see that the pages do not wait for it.
     */
    Monitor(WebSource source, Events events, long periodMillis, Function<FabricState, Report> examine) {
        this.source = source;
        this.events = events;
        this.periodMillis = periodMillis;
        this.examine = examine != null ? examine : s -> Doctor.examine(s, doctorCache);
        refresh();
    }

    /** Starts watching a live source on a thread of its own (a fixed source is read once, at construction). */
    public Monitor start() {
        if (source.live() && thread == null) {
            thread = new Thread(this::loop, "ibtwin-web-monitor");
            thread.setDaemon(true);
            thread.start();
        }
        return this;
    }

    private void loop() {
        while (!stop) {
            try {
                // a big fabric takes longer to read: never spend more than a quarter of the time reading it
                Thread.sleep(Math.max(periodMillis, 3 * lastBuildMillis));
            } catch (InterruptedException e) {
                return;
            }
            try {
                refresh();
            } catch (RuntimeException e) {
                events.add("source", "reading " + source.name() + " failed: " + e);
            }
        }
    }

    public WebSource source() {
        return source;
    }

    public FabricView view() {
        return view;
    }

    /** The traffic page's data: running, the engine's status, tier shares (now and their history), top ports. */
    public Map<String, Object> traffic() {
        return traffic;
    }

    /** Reads the source again, builds the view and emits what changed. */
    public void refresh() {
        synchronized (lock) {
            long t0 = System.nanoTime();
            FabricState s = source.state();
            Map<Port, double[]> rates = rates(s);
            FabricView before = view;
            FabricView v = FabricView.of(source.name(), source.live(), s, before, version + 1, rates);
            if (before != null) {
                for (FabricView.LinkRow l : v.links()) {
                    FabricView.LinkRow o = before.link(l.id());
                    String was = o == null ? "new" : o.health();
                    if (!was.equals(l.health()) && !(isRate(was) && isRate(l.health()))) {
                        Map<String, Object> d = new LinkedHashMap<>();
                        d.put("health", l.health());
                        d.put("was", was);
                        d.put("why", l.why());
                        events.add("link", String.format(Locale.ROOT, "%s: %s (was %s)", l.name(),
                                l.why().getFirst(), was), l.id(), d);
                    }
                }
            }
            state = s;
            version = v.version();
            view = v;
            traffic = trafficView(s, rates, v);
            lastBuildMillis = (System.nanoTime() - t0) / 1_000_000;
        }
    }

    private static boolean isRate(String health) {
        return health.equals(Health.OK) || health.equals(Health.CONGESTED);
    }

    /** Per port {txGbps, share of the link's data rate, PortXmitWait a second} since the last read. */
    private Map<Port, double[]> rates(FabricState s) {
        Map<Port, long[]> read = source.xmitCounters();
        if (read == null) {
            return null;
        }
        // by node and port number: a live source's every state is a fabric of its own (Lab.synced), the
        // counters' ports are the source's; the rates are of the state's ports
        Map<String, long[]> now = new HashMap<>();
        for (Map.Entry<Port, long[]> e : read.entrySet()) {
            now.put(key(e.getKey()), e.getValue());
        }
        double t = source.seconds();
        Map<Port, double[]> out = new IdentityHashMap<>();
        double dt = t - lastSeconds;
        if (lastCounters != null && dt > 0) {
            for (Node n : s.fabric().nodes()) {
                for (int i = 1; i <= n.numPorts(); i++) {
                    Port port = n.port(i);
                    long[] c = now.get(key(port));
                    long[] was = lastCounters.get(key(port));
                    if (c == null || was == null) {
                        continue;
                    }
                    double gbps = Math.max(0, c[0] - was[0]) * 32.0 / dt / 1e9;
                    double wait = Math.max(0, c[1] - was[1]) / dt;
                    Link l = port.link();
                    double cap = l == null ? 0 : l.dataGbps();
                    if (gbps > 0 || wait > 0) {
                        out.put(port, new double[] {gbps, cap > 0 ? gbps / cap : 0, wait});
                    }
                }
            }
        }
        if (lastCounters == null || dt > 0) {
            lastCounters = now;
            lastSeconds = t;
        }
        return out;
    }

    private static String key(Port p) {
        return p.node().name() + "/" + p.number();
    }

    /** The tier of a port's direction: "leaf→spine" ({@link #TIERS}), null for a port without a link. */
    static String direction(FabricState s, Port p) {
        Port r = p.remote();
        if (r == null) {
            return null;
        }
        return FabricView.tierName(s.rank(p.node())) + "→" + FabricView.tierName(s.rank(r.node()));
    }

    private Map<String, Object> trafficView(FabricState s, Map<Port, double[]> rates, FabricView v) {
        Map<String, Object> m = new LinkedHashMap<>();
        TrafficStatus ts = source.traffic();
        m.put("available", rates != null);
        m.put("running", ts != null && ts.running());
        m.put("seconds", source.live() ? source.seconds() : 0);
        if (rates == null) {
            return m;
        }
        Map<String, double[]> tiers = new LinkedHashMap<>();
        for (String t : TIERS) {
            tiers.put(t, new double[3]);
        }
        for (Node n : s.fabric().nodes()) {
            for (int p = 1; p <= n.numPorts(); p++) {
                Port port = n.port(p);
                Link l = port.link();
                String d = direction(s, port);
                if (d == null || l == null || !l.isUp()) {
                    continue;
                }
                double[] t = tiers.computeIfAbsent(d, k -> new double[3]);
                double[] r = rates.get(port);
                t[0] += l.dataGbps();
                if (r != null) {
                    t[1] += r[0];
                    if (r[2] > 0) {
                        t[2] += r[0];
                    }
                }
            }
        }
        List<Map<String, Object>> bars = new ArrayList<>();
        double[] sample = new double[1 + 2 * TIERS.size()];
        sample[0] = source.seconds();
        int i = 0;
        for (Map.Entry<String, double[]> e : tiers.entrySet()) {
            double[] t = e.getValue();
            if (t[0] == 0) {
                i++;
                continue;
            }
            Map<String, Object> b = new LinkedHashMap<>();
            b.put("tier", e.getKey());
            b.put("capacityGbps", t[0]);
            b.put("txGbps", t[1]);
            b.put("congestedGbps", t[2]);
            b.put("txShare", t[1] / t[0]);
            b.put("congestedShare", t[2] / t[0]);
            bars.add(b);
            if (i < TIERS.size()) {
                sample[1 + 2 * i] = t[1] / t[0];
                sample[2 + 2 * i] = t[2] / t[0];
            }
            i++;
        }
        m.put("tiers", bars);
        boolean moving = rates.values().stream().anyMatch(r -> r[0] > 0);
        if (moving) {
            tierHistory.addLast(sample);
            if (tierHistory.size() > HISTORY) {
                tierHistory.removeFirst();
            }
        }
        List<FabricView.PortRow> busiest = new ArrayList<>();
        for (FabricView.PortRow r : v.ports()) {
            if (r.txGbps() > 0 || r.waitPerSecond() > 0) {
                busiest.add(r);
            }
        }
        busiest.sort((a, b) -> a.waitPerSecond() != b.waitPerSecond() ? Double.compare(b.waitPerSecond(),
                a.waitPerSecond()) : Double.compare(b.txGbps(), a.txGbps()));
        List<Map<String, Object>> top = new ArrayList<>();
        for (FabricView.PortRow r : busiest.subList(0, Math.min(10, busiest.size()))) {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("port", r.node() + "/" + r.port());
            o.put("id", r.id());
            o.put("linkId", r.linkId());
            o.put("txGbps", r.txGbps());
            o.put("txShare", r.txShare());
            o.put("waitPerSecond", r.waitPerSecond());
            top.add(o);
            String key = r.node() + "/" + r.port();
            if (moving && (portHistory.containsKey(key) || portHistory.size() < PORT_SERIES)) {
                portHistory.computeIfAbsent(key, k -> new ArrayDeque<>());
            }
        }
        m.put("top", top);
        if (moving) {
            Map<String, FabricView.PortRow> byName = new HashMap<>();
            for (FabricView.PortRow r : v.ports()) {
                if (portHistory.containsKey(r.node() + "/" + r.port())) {
                    byName.put(r.node() + "/" + r.port(), r);
                }
            }
            for (Map.Entry<String, ArrayDeque<double[]>> e : portHistory.entrySet()) {
                FabricView.PortRow r = byName.get(e.getKey());
                e.getValue().addLast(new double[] {sample[0], r == null ? 0 : r.txGbps()});
                if (e.getValue().size() > HISTORY) {
                    e.getValue().removeFirst();
                }
            }
        }
        m.put("history", List.copyOf(tierHistory));
        Map<String, Object> ph = new LinkedHashMap<>();
        portHistory.forEach((k, q) -> ph.put(k, List.copyOf(q)));
        m.put("portHistory", ph);
        m.put("historyColumns", TIERS);
        if (ts != null) {
            m.put("pattern", ts.pattern());
            m.put("aggregateGbps", ts.aggregateGbps());
            m.put("flows", ts.collective() != null ? ts.collective().pairs() : ts.flows().size());
            m.put("unrouted", ts.unrouted());
            m.put("events", ts.events());
        }
        return m;
    }

    /**
     * The doctor's report on the state the view now shows (its findings and the map agree), waiting for it to be
     * made. It is made on a thread of its own, and only once per state read: a check whose inputs did not change
     * since the last examination (traffic moves the data counters, not the links) is answered from the
     * {@link Doctor.Cache}.
     */
    public Report doctor() {
        try {
            return examination().join();
        } catch (java.util.concurrent.CompletionException e) {
            throw new IllegalStateException("the doctor failed: " + e.getCause(), e.getCause());
        }
    }

    /**
     * The doctor's report on the state now if it is made within {@code waitMillis}, else the last one made (null:
     * none yet): a node's or link's details never wait long for the doctor of a big fabric.
     */
    public Report doctor(long waitMillis) {
        CompletableFuture<Report> f = examination();
        try {
            return waitMillis <= 0 && !f.isDone() ? lastReport() : f.get(waitMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return lastReport();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return lastReport();
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("the doctor failed: " + e.getCause(), e.getCause());
        }
    }

    private Report lastReport() {
        synchronized (lock) {
            return doctor;
        }
    }

    /**
     * Where the doctor is, for a page that shows its progress: {@code ready} (a report of the state the view now
     * shows is made), {@code examining}, {@code version} (the view's), {@code reportVersion} (the view version the
     * last report was made of, -1: none), the examination's {@link Doctor.Cache#progress} (under way, or the last),
     * and {@code last}: the last finished one's figures ({@code checks}, {@code done}, {@code reused}, {@code ran},
     * {@code version}, {@code millis}). Asking starts an examination of the state now when there is none.
     */
    public Map<String, Object> doctorStatus() {
        CompletableFuture<Report> f = examination();
        Map<String, Object> m = new LinkedHashMap<>();
        synchronized (lock) {
            m.put("ready", f.isDone() && !f.isCompletedExceptionally());
            m.put("examining", pending != null);
            m.put("version", version);
            m.put("reportVersion", examinedVersion);
        }
        m.putAll(doctorCache.progress());
        m.put("last", lastExamination);
        return m;
    }

    /** The examination of the state now: made, under way, or started here. */
    private CompletableFuture<Report> examination() {
        synchronized (lock) {
            FabricState s = state;
            if (doctor != null && examined == s) {
                return CompletableFuture.completedFuture(doctor);
            }
            if (pending != null && pendingState == s) {
                return pending;
            }
            CompletableFuture<Report> f = new CompletableFuture<>();
            long v = version;
            pending = f;
            pendingState = s;
            doctorThread.execute(() -> examine(f, s, v));
            return f;
        }
    }

    private void examine(CompletableFuture<Report> f, FabricState s, long v) {
        CompletableFuture<Report> newer;
        synchronized (lock) {
            newer = pending == f ? null : pending;
        }
        if (newer != null) {   // a later state was asked for meanwhile: its report answers this one too
            newer.whenComplete((r, e) -> {
                if (e != null) {
                    f.completeExceptionally(e);
                } else {
                    f.complete(r);
                }
            });
            return;
        }
        long t0 = System.nanoTime();
        try {
            Report r = examine.apply(s);
            Map<String, Object> last = new LinkedHashMap<>(doctorCache.progress());
            last.remove("check");
            last.put("version", v);
            last.put("millis", (System.nanoTime() - t0) / 1_000_000);
            lastExamination = last;
            synchronized (lock) {
                doctor = r;
                examined = s;
                examinedVersion = v;
                if (pending == f) {
                    pending = null;
                }
            }
            f.complete(r);
        } catch (RuntimeException | Error e) {
            synchronized (lock) {
                if (pending == f) {
                    pending = null;
                }
            }
            f.completeExceptionally(e);
            if (e instanceof Error err) {
                throw err;
            }
        }
    }

    /** The map elements a finding is about: the links and nodes its place names ({@link Targets}). */
    public static List<String> targets(FabricView v, Finding f) {
        return v.targets(f.where());
    }

    @Override
    public void close() {
        stop = true;
        doctorThread.shutdownNow();
        if (thread != null) {
            thread.interrupt();
            try {
                thread.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
