package org.ibtwin.perf;

import java.util.ArrayList;
import java.util.List;
import org.ibtwin.model.Port;

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

    /** Routes every pair and shares the fabric among them. */
    public static Result run(PerfParams p, Spec spec, Routes routes, List<Pair> pairs) {
        List<Traffic.Demand> demands = new ArrayList<>(pairs.size());
        List<Integer> index = new ArrayList<>(pairs.size());
        PairResult[] results = new PairResult[pairs.size()];
        int unrouted = 0;
        for (int i = 0; i < pairs.size(); i++) {
            Pair pr = pairs.get(i);
            Port a = pr.src().port();
            Port b = pr.dst().port();
            Route there = routes.route(a, b);
            Route back = routes.route(b, a);
            if (there == null || back == null) {
                unrouted++;
                results[i] = new PairResult(pr, 0, 0, new Bottleneck(Bottleneck.Kind.NO_ROUTE,
                        "no route from " + pr.src().name() + " to " + pr.dst().name()));
                continue;
            }
            Endpoint rq = spec.op().dataFromRequester() ? pr.src() : pr.dst();
            Endpoint rs = spec.op().dataFromRequester() ? pr.dst() : pr.src();
            Route fwd = spec.op().dataFromRequester() ? there : back;
            Route bwd = spec.op().dataFromRequester() ? back : there;
            demands.add(new Traffic.Demand(spec, rq, rs, fwd, bwd));
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
