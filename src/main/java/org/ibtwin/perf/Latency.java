package org.ibtwin.perf;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The latency model: what one message costs from the requester's post to the poller seeing it.
 *
 * <p><b>One way</b> (SEND, WRITE), from host A to host B over path P:
 * <pre>
 *   post(A) + [DMA read(A) unless inline] + HCA send(A) + wire(P) + HCA receive(B) [+ UD extra]
 *   + delivery(B) + poll(B) + transfer
 *   wire(P)   = cable propagation (5 ns/m) + switches x switch hop latency
 *   transfer  = c/readRate(A) [unless inline] + wireBytes(c)/linkRate(P) + c/writeRate(B)
 *             + (s - c)/min(readRate(A), payloadRate(P), writeRate(B)),   c = min(s, chunk)
 * </pre>
 * The HCA moves a message in chunks: the first one is stored and forwarded through the three stages (PCIe read at
 * the sender, the slowest link, PCIe write at the receiver), the rest streams at the slowest stage. readRate is the
 * sender's usable PCIe rate x {@code singleMessageDmaFraction} x MPS/(MPS + completion overhead) (one message's reads
 * run with a bounded window); writeRate the receiver's usable rate x MPS/(MPS + write overhead); linkRate the slowest
 * link's data rate x {@code linkEfficiency}; payloadRate that x the packet efficiency at the path MTU. The HCA terms
 * scale with its generation; a process on the far NUMA node adds {@code numaFarNanos} to its post, DMA read and
 * delivery.
 *
 * <p><b>perftest's figure.</b> ib_send_lat and ib_write_lat ping-pong and report half the round trip: the mean of the
 * two one-way latencies. ib_read_lat and ib_atomic_lat report the whole round trip:
 * <pre>
 *   post(A) + HCA send(A) + wire(A to B) + HCA receive(B) + read responder(B) [+ atomic] + DMA read(B)
 *   + HCA send(B) + wire(B to A) + HCA receive(A) + delivery(A) + poll(A) + transfer(B to A)
 * </pre>
 *
 * <p><b>Distribution.</b> The model gives the median ({@code t_typical}); the other columns follow a fixed shape:
 * t_min = typical - max(0.02, 3%), t_avg = typical x 1.01 + 0.005, 99% = typical x 1.04 + 0.01, 99.9% = typical x
 * 1.25 + 0.10, t_max = typical x 1.5 + 1.6 (a descheduling outlier); t_stdev is computed as perftest computes it,
 * with each deviation truncated to whole microseconds, so only the outlier counts.
 */
public final class Latency {
    private Latency() {
    }

    /** One named contribution, ns. */
    public record Term(String name, double nanos) {
    }

    /** A latency figure in microseconds (what perftest reports), with its terms. */
    public record Result(long size, double typicalUs, List<Term> terms, Bottleneck why) {
        public double minUs() {
            return typicalUs - Math.max(0.02, 0.03 * typicalUs);
        }

        public double avgUs() {
            return typicalUs * 1.01 + 0.005;
        }

        public double maxUs() {
            return typicalUs * 1.5 + 1.6;
        }

        public double p99Us() {
            return typicalUs * 1.04 + 0.01;
        }

        public double p999Us() {
            return typicalUs * 1.25 + 0.10;
        }

        /**
         * perftest's t_stdev over {@code samples} measurements: deviations truncated to whole microseconds, so only
         * the single outlier at t_max contributes.
         */
        public double stdevUs(long samples) {
            long dev = (long) (avgUs() - maxUs());
            return samples <= 0 ? 0 : Math.sqrt((double) dev * dev / samples);
        }
    }

    /**
     * The figure perftest reports for {@code spec} between a requester (perftest's client) and a responder (its
     * server): half the ping-pong round trip for SEND and WRITE, the whole round trip for READ and ATOMIC.
     */
    public static Result of(PerfParams p, Spec spec, Endpoint requester, Endpoint responder, Route forward,
                            Route backward) {
        List<Term> terms = new ArrayList<>();
        double ns;
        if (spec.op().dataFromRequester() && spec.op() != Op.ATOMIC) {
            List<Term> there = oneWay(p, spec, requester, responder, forward);
            List<Term> back = oneWay(p, spec, responder, requester, backward);
            for (int i = 0; i < there.size(); i++) {
                terms.add(new Term(there.get(i).name(), (there.get(i).nanos() + back.get(i).nanos()) / 2));
            }
            ns = sum(terms);
        } else {
            terms = roundTrip(p, spec, requester, responder, forward, backward);
            ns = sum(terms);
        }
        return new Result(spec.size(), ns / 1000, List.copyOf(terms), new Bottleneck(Bottleneck.Kind.LATENCY,
                describe(spec, forward, terms, ns)));
    }

    /** One-way latency of a SEND or WRITE from {@code a} to {@code b}, ns, term by term. */
    public static List<Term> oneWay(PerfParams p, Spec s, Endpoint a, Endpoint b, Route path) {
        double sa = a.hca().latencyScale();
        double sb = b.hca().latencyScale();
        List<Term> t = new ArrayList<>();
        t.add(new Term("post", p.postNanos() * sa + far(p, a)));
        t.add(new Term("payload DMA read", s.inline() ? 0 : p.dmaReadNanos() * sa + far(p, a)));
        t.add(new Term("HCA send", p.hcaTxNanos() * sa));
        t.add(new Term("wire", wireNanos(p, path)));
        t.add(new Term("HCA receive", p.hcaRxNanos() * sb + (s.transport() == Transport.UD ? p.udNanos() : 0)));
        t.add(new Term("delivery", p.deliverNanos() * sb + far(p, b)));
        t.add(new Term("poll", p.pollNanos() * sb));
        t.add(new Term("transfer", transferNanos(p, s, a, b, path, !s.inline())));
        return t;
    }

    /** Round trip of a READ or ATOMIC issued by {@code a} to {@code b}, ns, term by term. */
    public static List<Term> roundTrip(PerfParams p, Spec s, Endpoint a, Endpoint b, Route ab, Route ba) {
        double sa = a.hca().latencyScale();
        double sb = b.hca().latencyScale();
        List<Term> t = new ArrayList<>();
        t.add(new Term("post", p.postNanos() * sa + far(p, a)));
        t.add(new Term("HCA send", p.hcaTxNanos() * (sa + sb)));
        t.add(new Term("wire", wireNanos(p, ab) + wireNanos(p, ba)));
        t.add(new Term("HCA receive", p.hcaRxNanos() * (sa + sb)));
        t.add(new Term(s.op() == Op.ATOMIC ? "atomic responder" : "read responder",
                (p.readResponderNanos() + (s.op() == Op.ATOMIC ? p.atomicNanos() : 0)) * sb));
        t.add(new Term("responder DMA read", p.dmaReadNanos() * sb + far(p, b)));
        t.add(new Term("delivery", p.deliverNanos() * sa + far(p, a)));
        t.add(new Term("poll", p.pollNanos() * sa));
        t.add(new Term("transfer", transferNanos(p, s, b, a, ba, true)));
        return t;
    }

    /** Cable propagation and switch hops along a path, ns. */
    public static double wireNanos(PerfParams p, Route path) {
        return path.propagationNanos() + path.switches() * p.switchHopNanos();
    }

    /**
     * Moving the payload from {@code src}'s memory to {@code dst}'s: the first chunk stored and forwarded through the
     * stages, the rest at the slowest stage, ns.
     */
    public static double transferNanos(PerfParams p, Spec s, Endpoint src, Endpoint dst, Route path, boolean dmaRead) {
        long size = s.payload();
        long chunk = Math.min(size, p.chunkBytes());
        int mps = src.facts().maxPayload();
        double readGbps = src.pcieGbps(p) * p.singleMessageDmaFraction() * mps / (mps + p.tlpCompletionOverhead());
        int wmps = dst.facts().maxPayload();
        double writeGbps = dst.pcieGbps(p) * wmps / (wmps + p.tlpWriteOverhead());
        double linkGbps = path.isLoopback() ? Double.POSITIVE_INFINITY : path.slowestGbps() * p.linkEfficiency();
        double ns = 0;
        double slowest = writeGbps;
        if (dmaRead) {
            ns += chunk * 8 / readGbps;
            slowest = Math.min(slowest, readGbps);
        }
        if (!path.isLoopback()) {
            long wire = Headers.dataBytes(s.op(), s.transport(), chunk, s.mtu(), s.grh());
            ns += wire * 8 / linkGbps;
            double payloadGbps = linkGbps * Headers.efficiency(s.op(), s.transport(), size, s.mtu(), s.grh());
            slowest = Math.min(slowest, payloadGbps);
        }
        ns += chunk * 8 / writeGbps;
        ns += (size - chunk) * 8 / slowest;
        return ns;
    }

    /**
     * Time from posting a message to its completion, ns: what bounds the messages one QP keeps in flight. RC waits
     * for the acknowledgement; UC and UD complete once sent; READ and ATOMIC once the response lands.
     */
    public static double completionNanos(PerfParams p, Spec s, Endpoint requester, Endpoint responder, Route forward,
                                         Route backward) {
        if (s.op().usesOutstandingReads()) {
            return sum(roundTrip(p, s, requester, responder, forward, backward));
        }
        double sa = requester.hca().latencyScale();
        double send = p.postNanos() * sa + (s.inline() ? 0 : p.dmaReadNanos() * sa) + p.hcaTxNanos() * sa
                + transferNanos(p, s, requester, responder, forward, !s.inline());
        if (s.transport() != Transport.RC) {
            return send + p.deliverNanos() * sa;
        }
        double sb = responder.hca().latencyScale();
        return send + wireNanos(p, forward) + p.hcaRxNanos() * sb + p.hcaTxNanos() * sb + wireNanos(p, backward)
                + p.hcaRxNanos() * sa + p.deliverNanos() * sa;
    }

    private static double far(PerfParams p, Endpoint e) {
        return e.farNuma() ? p.numaFarNanos() : 0;
    }

    private static double sum(List<Term> terms) {
        double s = 0;
        for (Term t : terms) {
            s += t.nanos();
        }
        return s;
    }

    private static String describe(Spec s, Route path, List<Term> terms, double ns) {
        StringBuilder sb = new StringBuilder();
        boolean rtt = !(s.op().dataFromRequester() && s.op() != Op.ATOMIC);
        sb.append(String.format(Locale.ROOT, "%s %.2f us =", rtt ? "round trip" : "one way", ns / 1000));
        boolean first = true;
        for (Term t : terms) {
            if (t.nanos() <= 0) {
                continue;
            }
            sb.append(first ? " " : " + ").append(t.name()).append(String.format(Locale.ROOT, " %.2f", t.nanos() / 1000));
            first = false;
        }
        sb.append(String.format(Locale.ROOT, " (%d switch%s, %.0f ns of cable%s)", path.switches(),
                path.switches() == 1 ? "" : "es", path.propagationNanos(), s.inline() ? ", inline" : ""));
        return sb.toString();
    }
}
