package org.ibtwin.lab;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.ibtwin.model.Mtu;
import org.ibtwin.model.Node;
import org.ibtwin.model.Port;
import org.ibtwin.perf.DataCounters;
import org.ibtwin.perf.FairShare;
import org.ibtwin.perf.Headers;
import org.ibtwin.perf.Hop;
import org.ibtwin.perf.LftRoutes;
import org.ibtwin.perf.LinkRates;
import org.ibtwin.perf.Names;
import org.ibtwin.perf.PerfParams;
import org.ibtwin.perf.Spec;
import org.ibtwin.sim.Twin;

/**
 * All-to-all as one collective: every host sends to every other at once, {@code H(H-1)} streams, too many to route
 * one by one on a large fabric, so they are routed a destination at a time ({@link LftRoutes#fanIn}): for every
 * directed link, how many pairs' data cross it. The ACKs of pair (s, d) take the path of pair (d, s), so every link
 * carries as many ACKs as data streams.
 *
 * <p>A synchronous collective moves at the pace of its slowest pair, so every pair gets the same rate: the largest
 * no link allows less of, the max-min fair share of the one collective ({@link FairShare} with one flow whose weight
 * on a link is the pairs crossing it times a pair's wire bytes per payload byte). Messages are whole: each step every
 * routed pair sends the same number. The spec's MTU is the smallest MTU capability of the hosts' ports (one MTU for
 * every pair). Not modelled for the collective: host PCIe and message-rate caps (the per-stream patterns have them),
 * and PortXmitWait.
 */
final class TrafficAllToAll {
    private final java.util.function.Predicate<Port> active;
    private final List<Port> hosts;
    private final PerfParams params;
    private final LftRoutes routes;
    final Spec spec;
    private long pairs;
    private long unrouted;
    private double perPairGbps;
    private double mps;
    private double credit;
    private long messages;
    private String bottleneck = "";
    /** Pairs whose data (or ACKs: as many) leave / enter each compact port. */
    private long[] xmitPairs = new long[0];
    private long[] rcvPairs = new long[0];
    private Map<Port, Long> linkPairs = Map.of();
    private final long words;
    private final long packets;

    TrafficAllToAll(Twin twin, List<Port> hosts, PerfParams params, Spec base, LftRoutes routes) {
        this(twin::isActive, hosts, params, base, routes);
    }

    /** Over ports {@code active} tells Active (a fabric learnt through MADs knows its ports' states). */
    TrafficAllToAll(java.util.function.Predicate<Port> active, List<Port> hosts, PerfParams params, Spec base,
                    LftRoutes routes) {
        this.active = active;
        this.hosts = hosts;
        this.params = params;
        this.routes = routes;
        Mtu m = Mtu.MTU4096;
        for (Port p : hosts) {
            m = Mtu.min(m, p.mtuCap());
        }
        this.spec = base.withMtu(Math.min(base.mtu(), m.bytes()));
        this.words = DataCounters.dataWords(spec) + DataCounters.reverseWords(spec);
        this.packets = DataCounters.dataPackets(spec) + DataCounters.reversePackets(spec);
    }

    long pairs() {
        return (long) hosts.size() * (hosts.size() - 1);
    }

    long unrouted() {
        return unrouted;
    }

    /** Routes every pair (a destination at a time) and solves the collective's rate; fills the compact ports. */
    void plan(Map<Port, Integer> compact, List<Port> ports) {
        // the paths crossing each directed link, keyed by the port it leaves (one link a port)
        Map<Port, long[]> load = new IdentityHashMap<>();
        // in the order the links are first crossed (Port is compared by identity): ties for the bottleneck resolve
        // the same way every run
        Map<Port, Hop> hopOf = new LinkedHashMap<>();
        List<Port> activeHosts = new ArrayList<>(hosts.size());
        Map<Node, Long> base = new IdentityHashMap<>();
        for (Port h : hosts) {
            if (active.test(h) && h.remote() != null && h.link().isUp() && h.remote().node().isSwitch()) {
                activeHosts.add(h);
                base.merge(h.remote().node(), 1L, Long::sum);
            }
        }
        Map<Node, long[]> dead = new IdentityHashMap<>();   // destinations a switch's hosts cannot reach
        Map<Port, Boolean> deadSelf = new IdentityHashMap<>();
        Port[] current = new Port[1];
        LftRoutes.FanIn sink = new LftRoutes.FanIn() {
            @Override
            public void add(Hop hop, long paths) {
                long[] l = load.get(hop.from());
                if (l == null) {
                    load.put(hop.from(), new long[] {paths});
                    hopOf.put(hop.from(), hop);
                } else {
                    l[0] += paths;
                }
            }

            @Override
            public void lost(Node sw, long paths) {
                if (base.containsKey(sw)) {
                    dead.computeIfAbsent(sw, k -> new long[1])[0]++;
                    if (sw == current[0].remote().node()) {
                        deadSelf.put(current[0], true);
                    }
                }
            }
        };
        for (Port dst : activeHosts) {
            Node leaf = dst.remote().node();
            long here = base.get(leaf);
            // the destination sends nothing to itself: one path fewer enters its own leaf
            if (here == 1) {
                base.remove(leaf);
            } else {
                base.put(leaf, here - 1);
            }
            current[0] = dst;
            routes.fanIn(base, dst, sink);
            base.put(leaf, here);
        }
        long routed = 0;
        for (Port h : activeHosts) {
            Node leaf = h.remote().node();
            long d = dead.containsKey(leaf) ? dead.get(leaf)[0] : 0;
            long from = activeHosts.size() - 1 - d + (deadSelf.containsKey(h) ? 1 : 0);
            if (from > 0) {
                sink.add(new Hop(h, h.remote()), from);
                routed += from;
            }
        }
        pairs = pairs();
        unrouted = pairs - routed;
        linkPairs = new LinkedHashMap<>();
        for (Port from : hopOf.keySet()) {
            linkPairs.put(from, load.get(from)[0]);
        }
        // one flow: the collective, its weight on each link the pairs crossing it x wire bytes per payload byte
        double perPayload = (double) (Headers.dataBytes(spec.op(), spec.transport(), spec.size(), spec.mtu(),
                spec.grh()) + Headers.reverseBytes(spec.op(), spec.transport(), spec.size(), spec.mtu(), spec.grh()))
                / spec.payload();
        List<Hop> hops = new ArrayList<>(hopOf.values());
        double[] capacity = new double[hops.size()];
        int[] res = new int[hops.size()];
        double[] weight = new double[hops.size()];
        Map<Port, long[]> out = new IdentityHashMap<>();
        Map<Port, long[]> in = new IdentityHashMap<>();
        for (int i = 0; i < hops.size(); i++) {
            Hop h = hops.get(i);
            long n = load.get(h.from())[0];
            capacity[i] = LinkRates.dataGbps(h.link()) * params.linkEfficiency();
            res[i] = i;
            weight[i] = n * perPayload;
            out.computeIfAbsent(h.from(), k -> new long[1])[0] += n;
            in.computeIfAbsent(h.to(), k -> new long[1])[0] += n;
        }
        if (hops.isEmpty() || unrouted == pairs) {
            perPairGbps = 0;
            bottleneck = "no pair has a path";
        } else {
            FairShare.Result r = FairShare.solve(capacity, List.of(new FairShare.Flow(Double.POSITIVE_INFINITY, res,
                    weight)));
            perPairGbps = r.rates()[0];
            Hop b = hops.get(r.bottleneck()[0]);
            bottleneck = String.format(Locale.ROOT, "limited by link %s at %s, crossed by %,d pairs (≈ %.2f Gb/s "
                    + "of payload a pair)", Names.link(b.link()), LinkRates.label(b.link()), load.get(b.from())[0],
                    perPairGbps);
        }
        mps = perPairGbps * 1e9 / 8 / spec.payload();
        for (Port p : out.keySet()) {
            TrafficEngine.index(compact, ports, p);
        }
        for (Port p : in.keySet()) {
            TrafficEngine.index(compact, ports, p);
        }
        xmitPairs = new long[ports.size()];
        rcvPairs = new long[ports.size()];
        for (Map.Entry<Port, long[]> e : out.entrySet()) {
            xmitPairs[compact.get(e.getKey())] = e.getValue()[0];
        }
        for (Map.Entry<Port, long[]> e : in.entrySet()) {
            rcvPairs[compact.get(e.getKey())] = e.getValue()[0];
        }
    }

    /** One step of {@code dt} simulated seconds: every routed pair's whole messages, into {@code deltas}. */
    void step(double dt, long[] deltas) {
        credit += mps * dt;
        long m = (long) credit;
        if (m == 0) {
            return;
        }
        credit -= m;
        messages += m;
        long w = m * words;
        long k = m * packets;
        for (int i = 0; i < xmitPairs.length; i++) {
            int o = i * Twin.TRAFFIC_FIELDS;
            long x = xmitPairs[i];
            long r = rcvPairs[i];
            deltas[o] += x * w;
            deltas[o + 1] += r * w;
            deltas[o + 2] += x * k;
            deltas[o + 3] += r * k;
        }
    }

    /** After {@link #plan}: the pairs whose data cross each directed link, by the port it leaves. */
    Map<Port, Long> linkPairs() {
        return linkPairs;
    }

    TrafficStatus.Collective status() {
        return new TrafficStatus.Collective(hosts.size(), pairs, unrouted, perPairGbps, perPairGbps * (pairs
                - unrouted), bottleneck, spec.mtu(), messages, messages * spec.payload());
    }
}
