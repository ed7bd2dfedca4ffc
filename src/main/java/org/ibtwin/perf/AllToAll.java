package org.ibtwin.perf;

import java.util.ArrayList;
import java.util.List;

/**
 * Many pairs at once: a shift pattern over the hosts, each pair a bandwidth stream, all of them sharing links and
 * slots max-min fairly ({@link Traffic}).
 *
 * <p>Shift pattern: of the {@code H} hosts (CA ports with a live link, in fabric order), {@code N} sources are taken
 * evenly spaced, source {@code i} being host {@code floor(i*H/N)}; each sends to the host {@code shift} places
 * further on, modulo {@code H} ({@code shift} defaults to {@code H/2}, so every stream crosses the middle of the
 * fabric).
 */
public final class AllToAll {
    private AllToAll() {
    }

    /** A source and its destination. */
    public record Pair(Endpoint src, Endpoint dst) {
    }

    /** One pair's figure: its path's switch count, payload Gb/s and bottleneck (no route: 0 Gb/s). */
    public record PairResult(Pair pair, int switches, double gbps, Bottleneck why) {
    }

    /** Every pair's share and the totals. */
    public record Result(List<PairResult> pairs, double aggregateGbps, double minGbps, double maxGbps, int unrouted) {
        public double meanGbps() {
            return pairs.isEmpty() ? 0 : aggregateGbps / pairs.size();
        }
    }

    /** The shift pattern's pairs over {@code hosts}. */
    public static List<Pair> shift(List<Endpoint> hosts, int pairs, int shift) {
        int h = hosts.size();
        if (h < 2) {
            throw new IllegalArgumentException("a shift pattern needs at least 2 hosts, the fabric has " + h);
        }
        if (pairs < 1 || pairs > h) {
            throw new IllegalArgumentException("pairs must be 1.." + h + ", got " + pairs);
        }
        int s = Math.floorMod(shift, h);
        if (s == 0) {
            throw new IllegalArgumentException("shift " + shift + " sends every host to itself");
        }
        List<Pair> out = new ArrayList<>(pairs);
        for (int i = 0; i < pairs; i++) {
            int src = (int) ((long) i * h / pairs);
            out.add(new Pair(hosts.get(src), hosts.get((src + s) % h)));
        }
        return out;
    }

    /**
     * The pairs' streams on {@code routes} made ready for variants: a variant in which only some pairs' routes
     * changed (a cable pulled: the pairs whose routes crossed it) makes only those pairs' streams again and shares
     * the fabric out anew ({@link Traffic.Prepared}), and its aggregate is the one {@link #run} gives on the new
     * routes, exactly, as long as every pair whose route differs is among those said to have changed.
     */
    public static final class Prepared {
        private final Spec spec;
        private final List<Pair> pairs;
        private final Traffic.Prepared streams;
        private final double aggregate;

        public Prepared(PerfParams p, Spec spec, Routes routes, List<Pair> pairs) {
            this.spec = spec;
            this.pairs = List.copyOf(pairs);
            List<Traffic.Demand> demands = new ArrayList<>(pairs.size());
            for (Pair pr : pairs) {
                demands.add(demand(spec, routes, pr));
            }
            this.streams = new Traffic.Prepared(p, demands);
            this.aggregate = sum(streams.rates());
        }

        public List<Pair> pairs() {
            return pairs;
        }

        /** The aggregate payload Gb/s on the routes prepared ({@link Result#aggregateGbps}). */
        public double aggregateGbps() {
            return aggregate;
        }

        /**
         * The aggregate payload Gb/s with pair {@code i} routed by {@code after} where {@code changed[i]}, the others
         * on the routes prepared.
         */
        public double aggregateGbps(Routes after, boolean[] changed) {
            List<Traffic.Demand> anew = new ArrayList<>();
            for (int i = 0; i < changed.length; i++) {
                if (changed[i]) {
                    anew.add(demand(spec, after, pairs.get(i)));
                }
            }
            return sum(streams.rates(changed, anew));
        }

        private static double sum(double[] rates) {
            double total = 0;
            for (double r : rates) {
                total += r;
            }
            return total;
        }
    }

    /** A pair's stream on {@code routes}: its demand, null when either way has no route. */
    private static Traffic.Demand demand(Spec spec, Routes routes, Pair pr) {
        Route there = routes.route(pr.src().port(), pr.dst().port());
        Route back = there == null ? null : routes.route(pr.dst().port(), pr.src().port());
        if (there == null || back == null) {
            return null;
        }
        boolean fromRq = spec.op().dataFromRequester();
        return new Traffic.Demand(spec, fromRq ? pr.src() : pr.dst(), fromRq ? pr.dst() : pr.src(),
                fromRq ? there : back, fromRq ? back : there);
    }

    /** Routes every pair and shares the fabric among them. */
    public static Result run(PerfParams p, Spec spec, Routes routes, List<Pair> pairs) {
        List<Traffic.Demand> demands = new ArrayList<>(pairs.size());
        List<Integer> index = new ArrayList<>(pairs.size());
        PairResult[] results = new PairResult[pairs.size()];
        int unrouted = 0;
        for (int i = 0; i < pairs.size(); i++) {
            Pair pr = pairs.get(i);
            Traffic.Demand d = demand(spec, routes, pr);
            if (d == null) {
                unrouted++;
                results[i] = new PairResult(pr, 0, 0, new Bottleneck(Bottleneck.Kind.NO_ROUTE,
                        "no route from " + pr.src().name() + " to " + pr.dst().name()));
                continue;
            }
            demands.add(d);
            index.add(i);
        }
        List<Traffic.Outcome> out = Traffic.solve(p, demands);
        double total = 0;
        double min = Double.POSITIVE_INFINITY;
        double max = 0;
        for (int k = 0; k < out.size(); k++) {
            int i = index.get(k);
            Traffic.Outcome o = out.get(k);
            results[i] = new PairResult(pairs.get(i), demands.get(k).dataPath().switches(), o.gbps(), o.why());
        }
        for (PairResult r : results) {
            total += r.gbps();
            min = Math.min(min, r.gbps());
            max = Math.max(max, r.gbps());
        }
        return new Result(List.of(results), total, results.length == 0 ? 0 : min, max, unrouted);
    }
}
