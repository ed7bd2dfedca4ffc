package org.ibtwin.lab;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.ibtwin.model.Node;
import org.ibtwin.model.Port;
import org.ibtwin.perf.AllToAll;
import org.ibtwin.perf.Endpoint;
import org.ibtwin.perf.Hop;
import org.ibtwin.perf.LftRoutes;
import org.ibtwin.perf.Names;
import org.ibtwin.perf.Op;
import org.ibtwin.perf.PerfParams;
import org.ibtwin.perf.Spec;
import org.ibtwin.perf.Transport;
import org.ibtwin.sm.routing.Lfts;
import org.ibtwin.sm.routing.Reroute;
import org.ibtwin.sm.routing.RoutingEngines;
import org.ibtwin.sm.routing.SwitchGraph;

/**
 * {@code what-if --each-link} / {@code --each-switch}: every single inter-switch cable (or switch) failure of a
 * fabric brought up by ibtwin's SM, ranked by the host pairs it leaves without a route and the shift bandwidth it
 * costs. Each scenario is computed on the model: the SM's own switch graph without the failed link or switch,
 * re-routed as the SM re-routes it (the code that decides the routes on the twin): in part by the engine in use
 * ({@link Reroute}: only the destinations whose routes crossed the failure are routed again), or in full by the SM's
 * engine chain where the engine cannot keep its guarantees in part; its LFTs followed by {@link LftRoutes} from the
 * learnt hosts, again only for the destinations whose routes crossed the failure (the others keep their trees).
 * Scenarios share nothing they change, so they run in parallel over the cores.
 */
public final class FailureSweep {
    /** One failure's cost. */
    public record Scenario(String failure, long pairsLost, double shiftGbpsBefore, double shiftGbpsAfter,
                           String example, String engine, String reroute) {
        public double shiftGbpsLost() {
            return Math.max(0, shiftGbpsBefore - shiftGbpsAfter);
        }
    }

    /** Every scenario, worst first, and how long the sweep took. */
    public record Result(String fabric, String kind, int hosts, List<Scenario> scenarios, long wallNanos,
                         int threads, int destinationsFollowed, long destinationsTotal, long shiftPairsMadeAgain,
                         long shiftPairsTotal) {
        public int exitCode() {
            return scenarios.stream().anyMatch(s -> s.pairsLost() > 0) ? 1 : 0;
        }

        public String text(int top) {
            StringBuilder b = new StringBuilder();
            long losing = scenarios.stream().filter(s -> s.pairsLost() > 0).count();
            b.append(String.format(Locale.ROOT, "ibtwin what-if --each-%s: %s: %,d single %s failures, %,d lose host "
                    + "pairs (%,d hosts; %.2f s on %d threads, %.1f scenarios/s)%n", kind, fabric, scenarios.size(),
                    kind.equals("link") ? "inter-switch cable" : "switch", losing, hosts, wallNanos / 1e9, threads,
                    scenarios.size() / Math.max(1e-9, wallNanos / 1e9)));
            b.append(String.format(Locale.ROOT, "  %4s  %-44s %12s %14s  %s%n", "rank", "failure",
                    "pairs lost", "shift Gb/s", "e.g."));
            int n = 0;
            for (Scenario s : scenarios) {
                if (n++ >= top) {
                    b.append(String.format(Locale.ROOT, "  ... %,d more%n", scenarios.size() - top));
                    break;
                }
                b.append(String.format(Locale.ROOT, "  %4d  %-44s %,12d %,7.0f -> %,-6.0f %s%n", n, s.failure(),
                        s.pairsLost(), s.shiftGbpsBefore(), s.shiftGbpsAfter(), s.example() == null ? ""
                        : s.example()));
            }
            b.append("  pairs lost: host pairs (source -> destination) the SM's new routes do not carry; a host's own ")
                    .append("cable loses its pairs with every other host and is not listed\n");
            return b.toString();
        }

        public ObjectNode json() {
            ObjectNode j = JsonNodeFactory.instance.objectNode();
            j.put("fabric", fabric);
            j.put("each", kind);
            j.put("hosts", hosts);
            j.put("wall_seconds", wallNanos / 1e9);
            j.put("threads", threads);
            j.put("destinations_followed", destinationsFollowed);
            j.put("destinations_total", destinationsTotal);
            j.put("shift_pairs_made_again", shiftPairsMadeAgain);
            j.put("shift_pairs_total", shiftPairsTotal);
            j.put("exit", exitCode());
            ArrayNode a = j.putArray("scenarios");
            for (Scenario s : scenarios) {
                ObjectNode o = a.addObject();
                o.put("failure", s.failure());
                o.put("pairs_lost", s.pairsLost());
                o.put("shift_Gb_per_sec_before", Math.round(s.shiftGbpsBefore() * 100) / 100.0);
                o.put("shift_Gb_per_sec_after", Math.round(s.shiftGbpsAfter() * 100) / 100.0);
                o.put("example", s.example());
                o.put("engine", s.engine());
                o.put("reroute", s.reroute());
            }
            return j;
        }
    }

    private final SwitchGraph graph;
    private final String engines;
    private final RoutingEngines.Options options;
    private final List<Port> hosts;
    private final Map<Node, Integer> index = new IdentityHashMap<>();
    /** How many hosts enter each switch (their first link taken). */
    private final Map<Node, Long> entering = new IdentityHashMap<>();
    /** For each host (destination), the channels (switch, egress port) its tree uses before any failure. */
    private final BitSet[] used;
    private final int[] channelBase;
    /** The shift pattern's streams on the SM's routes, made once: a scenario makes again only those it changes. */
    private final AllToAll.Prepared shift;
    /** Each shift pair's source and destination host (indices into {@link #hosts}). */
    private final int[] shiftSrc;
    private final int[] shiftDst;
    /** Every scenario's shift made in full, as a check of the streams made again ({@link #run}). */
    private boolean fullShift;
    /** The SM's tables, ready to be re-routed in part. */
    private final Reroute.Base base;
    /** The engine that made them. */
    private final String baseEngine;

    /**
     * Over the SM's graph and LFTs ({@code lfts}: what it programmed), its routing chain, and the hosts as learnt
     * through MADs (in fabric order).
     */
    FailureSweep(SwitchGraph graph, Lfts lfts, String engine, Reroute reroute, String engines,
                 RoutingEngines.Options options, List<Port> hosts) {
        this.graph = graph;
        this.engines = engines;
        this.options = options;
        this.hosts = hosts;
        Map<Long, Integer> byGuid = new HashMap<>();
        for (int s = 0; s < graph.switches(); s++) {
            byGuid.put(graph.guid(s), s);
        }
        java.util.Set<Node> seen = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        for (Port h : hosts) {
            if (!seen.contains(h.node())) {
                collect(h.node(), byGuid, seen);
            }
        }
        channelBase = new int[graph.switches() + 1];
        for (int s = 0; s < graph.switches(); s++) {
            channelBase[s + 1] = channelBase[s] + graph.numPorts(s) + 1;
        }
        for (Port h : hosts) {
            if (h.remote() != null && h.remote().node().isSwitch()) {
                entering.merge(h.remote().node(), 1L, Long::sum);
            }
        }
        used = new BitSet[hosts.size()];
        this.base = reroute.overMany(graph, lfts);
        this.baseEngine = engine;
        LftRoutes before = new LftRoutes(forwarding(lfts::port, -1, -1, -1, -1, -1), true);
        for (int d = 0; d < hosts.size(); d++) {
            BitSet u = new BitSet();
            before.fanIn(arriving(hosts.get(d), -1), hosts.get(d), new LftRoutes.FanIn() {
                @Override
                public void add(Hop hop, long paths) {
                    Integer s = index.get(hop.from().node());
                    if (s != null) {
                        u.set(channelBase[s] + hop.from().number());
                    }
                }

                @Override
                public void lost(Node sw, long paths) {
                }
            });
            used[d] = u;
        }
        Map<Port, Integer> host = new IdentityHashMap<>();
        List<Endpoint> eps = new ArrayList<>();
        for (Port h : hosts) {
            host.put(h, host.size());
            eps.add(Endpoint.of(h, false));
        }
        if (hosts.size() < 2) {
            shift = null;
            shiftSrc = shiftDst = new int[0];
        } else {
            shift = new AllToAll.Prepared(PerfParams.DEFAULT, SHIFT, before, AllToAll.shift(eps, eps.size(),
                    eps.size() / 2));
            shiftSrc = new int[shift.pairs().size()];
            shiftDst = new int[shiftSrc.length];
            for (int i = 0; i < shiftSrc.length; i++) {
                shiftSrc[i] = host.get(shift.pairs().get(i).src().port());
                shiftDst[i] = host.get(shift.pairs().get(i).dst().port());
            }
        }
    }

    /** The shift pattern's streams: RDMA WRITEs of 64 KiB on one RC QP each (the perf model's defaults). */
    private static final Spec SHIFT = new Spec(Op.WRITE, Transport.RC, 65536, 1, 128, 16, 0, 4096, false, false);

    /** The sweep with every scenario's shift bandwidth made in full, not only its changed streams (a check). */
    FailureSweep fullShift() {
        fullShift = true;
        return this;
    }

    /** Every single inter-switch link failure ({@code switches}: every switch failure), worst first. */
    Result run(String fabric, boolean switches, int threads) {
        return run(fabric, switches, threads, 0);
    }

    /**
     * {@link #run(String, boolean, int)}, only {@code limit} failures (0: all) spread evenly over them: a sample, for
     * benchmarks.
     */
    Result run(String fabric, boolean switches, int threads, int limit) {
        long t0 = System.nanoTime();
        List<int[]> failures = new ArrayList<>();
        if (switches) {
            for (int s = 0; s < graph.switches(); s++) {
                failures.add(new int[] {s});
            }
        } else {
            for (int s = 0; s < graph.switches(); s++) {
                for (int p = 1; p <= graph.numPorts(s); p++) {
                    int t = graph.neighbour(s, p);
                    int q = t < 0 ? -1 : graph.neighbourPort(s, p);
                    if (t > s || (t == s && q > p)) {
                        failures.add(new int[] {s, p, t, q});
                    }
                }
            }
        }
        if (limit > 0 && failures.size() > limit) {
            // a sample spread evenly over the fabric (the first few would all be one switch's cables)
            List<int[]> sample = new ArrayList<>(limit);
            for (int i = 0; i < limit; i++) {
                sample.add(failures.get((int) ((long) i * failures.size() / limit)));
            }
            failures = sample;
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread th = new Thread(r, "ibtwin-what-if-each");
            th.setDaemon(true);
            return th;
        });
        List<Future<Scenario>> futures = new ArrayList<>();
        long[] followed = new long[2];
        try {
            for (int[] f : failures) {
                futures.add(pool.submit(() -> scenario(f, followed)));
            }
            List<Scenario> out = new ArrayList<>();
            for (Future<Scenario> f : futures) {
                out.add(f.get());
            }
            out.sort((a, b) -> {
                int c = Long.compare(b.pairsLost(), a.pairsLost());
                return c != 0 ? c : Double.compare(b.shiftGbpsLost(), a.shiftGbpsLost());
            });
            long total = (long) failures.size() * hosts.size();
            synchronized (followed) {
                return new Result(fabric, switches ? "switch" : "link", hosts.size(), out, System.nanoTime() - t0,
                        threads, (int) followed[0], total, followed[1], (long) failures.size() * shiftSrc.length);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted");
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            throw c instanceof RuntimeException re ? re : new IllegalStateException(c.getMessage(), c);
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * One failure: the graph without it, re-routed in part where the engine can ({@link Reroute}: only the
     * destinations whose routes crossed it), else routed again in full by the SM's chain; then followed for the
     * destinations it touches.
     */
    private Scenario scenario(int[] f, long[] followed) {
        boolean sw = f.length == 1;
        int dead = sw ? f[0] : -1;
        SwitchGraph after = sw ? graph.without((s, p) -> s == dead, s -> s == dead)
                : graph.without((s, p) -> s == f[0] && p == f[1], s -> false);
        java.util.function.IntBinaryOperator port;
        String engine;
        String how;
        Reroute.Outcome o = base.after(after);
        if (o instanceof Reroute.Partial p) {
            port = p.delta()::port;
            engine = baseEngine;
            how = "partial";
        } else {
            RoutingEngines.Chain.Result r = RoutingEngines.chain(engines, options).route(after);
            port = r.lfts()::port;
            engine = r.engine();
            how = "full: " + ((Reroute.Full) o).why();
        }
        LftRoutes routes = sw ? new LftRoutes(forwarding(port, -1, -1, -1, -1, dead), true)
                : new LftRoutes(forwarding(port, f[0], f[1], f[2], f[3], -1), true);
        long lost = 0;
        String example = null;
        int n = 0;
        // the hosts whose trees the failure changes (or whose switch it takes): the routes toward them change
        boolean[] changed = new boolean[hosts.size()];
        boolean rerouted = !(o instanceof Reroute.Partial);
        for (int d = 0; d < hosts.size(); d++) {
            Port dst = hosts.get(d);
            Integer leaf = dst.remote() == null ? null : index.get(dst.remote().node());
            if (sw && leaf != null && leaf == dead) {
                lost += hosts.size() - 1;   // nothing reaches a host whose switch is gone
                changed[d] = true;
                continue;
            }
            boolean touched = sw ? usesSwitch(used[d], dead) : used[d].get(channelBase[f[0]] + f[1])
                    || used[d].get(channelBase[f[2]] + f[3]);
            changed[d] = touched || rerouted;
            if (!touched) {
                continue;
            }
            n++;
            long[] here = new long[1];
            Node[] at = new Node[1];
            routes.fanIn(arriving(dst, dead), dst, new LftRoutes.FanIn() {
                @Override
                public void add(Hop hop, long paths) {
                }

                @Override
                public void lost(Node s, long paths) {
                    here[0] += paths;
                    at[0] = s;
                }
            });
            // a host whose switch is gone sends nothing: its pairs toward dst are lost as well
            if (sw) {
                for (Port h : hosts) {
                    Integer l = h.remote() == null ? null : index.get(h.remote().node());
                    if (h != dst && l != null && l == dead) {
                        here[0]++;
                    }
                }
            }
            if (here[0] > 0 && example == null) {
                example = "toward " + Names.port(dst) + (at[0] != null ? ", lost at " + Names.node(at[0]) : "");
            }
            lost += here[0];
        }
        // a pair's stream changes when its route either way does: the routes toward its destination and source
        int[] made = new int[1];
        boolean[] pairs = new boolean[shiftSrc.length];
        for (int i = 0; i < pairs.length; i++) {
            pairs[i] = fullShift || changed[shiftSrc[i]] || changed[shiftDst[i]];
            made[0] += pairs[i] ? 1 : 0;
        }
        double shiftAfter = shift == null ? 0 : shift.aggregateGbps(routes, pairs);
        synchronized (followed) {
            followed[0] += n;
            followed[1] += made[0];
        }
        String name = sw ? Names.node(nodeOf(dead)) : Names.node(nodeOf(f[0])) + "/" + f[1] + " <-> "
                + Names.node(nodeOf(f[2])) + "/" + f[3];
        return new Scenario(name, lost, shift == null ? 0 : shift.aggregateGbps(), shiftAfter, example, engine, how);
    }

    private boolean usesSwitch(BitSet u, int s) {
        int from = channelBase[s];
        int to = channelBase[s + 1];
        int next = u.nextSetBit(from);
        if (next >= 0 && next < to) {
            return true;
        }
        // a tree that enters s leaves it by one of its ports: the channels of s cover it, except at its last hop
        for (int t = 0; t < graph.switches(); t++) {
            for (int p = 1; p <= graph.numPorts(t); p++) {
                if (graph.neighbour(t, p) == s && u.get(channelBase[t] + p)) {
                    return true;
                }
            }
        }
        return false;
    }

    private Node nodeOf(int s) {
        for (Map.Entry<Node, Integer> e : index.entrySet()) {
            if (e.getValue() == s) {
                return e.getKey();
            }
        }
        Node n = new Node(org.ibtwin.model.NodeType.SWITCH, graph.guid(s), graph.name(s), 1);
        return n;
    }

    /** Maps every learnt switch reachable from {@code start} to its index in the SM's graph. */
    private void collect(Node start, Map<Long, Integer> byGuid, java.util.Set<Node> seen) {
        java.util.ArrayDeque<Node> todo = new java.util.ArrayDeque<>();
        todo.add(start);
        seen.add(start);
        while (!todo.isEmpty()) {
            Node n = todo.poll();
            Integer s = byGuid.get(n.guid());
            if (n.isSwitch() && s != null) {
                index.put(n, s);
            }
            for (int p = 1; p <= n.numPorts(); p++) {
                Port q = n.port(p);
                if (q != null && q.remote() != null && seen.add(q.remote().node())) {
                    todo.add(q.remote().node());
                }
            }
        }
    }

    /** How many of the other hosts enter each switch (their first link taken) toward {@code dst}. */
    private Map<Node, Long> arriving(Port dst, int deadSwitch) {
        Map<Node, Long> a = new IdentityHashMap<>(entering);
        if (deadSwitch >= 0) {
            a.keySet().removeIf(n -> {
                Integer s = index.get(n);
                return s != null && s == deadSwitch;
            });
        }
        if (dst.remote() != null) {
            a.computeIfPresent(dst.remote().node(), (n, k) -> k == 1 ? null : k - 1);
        }
        return a;
    }

    /** The learnt switches forwarding as {@code lfts} say, the failed ports and switch leading nowhere. */
    private LftRoutes.Forwarding forwarding(java.util.function.IntBinaryOperator lfts, int s1, int p1, int s2, int p2,
                                            int deadSwitch) {
        return (sw, dst) -> {
            Integer s = index.get(sw);
            if (s == null || s == deadSwitch || lfts == null) {
                return -1;
            }
            int p = lfts.applyAsInt(s, dst.lid());
            if (p == Lfts.NO_ROUTE || (s == s1 && p == p1) || (s == s2 && p == p2)) {
                return -1;
            }
            if (deadSwitch >= 0 && p >= 1 && p <= graph.numPorts(s) && graph.neighbour(s, p) == deadSwitch) {
                return -1;
            }
            return p;
        };
    }
}
