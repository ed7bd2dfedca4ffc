package org.ibtwin.perf;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.ibtwin.model.Link;
import org.ibtwin.model.Node;

/**
 * The bandwidth model: streams of messages between requesters and responders, sharing links and PCIe slots.
 *
 * <p>Each stream is one flow carrying the payload in its data direction (requester to responder for SEND, WRITE,
 * ATOMIC; back for READ). A flow of {@code x} payload Gb/s with messages of {@code s} bytes uses:
 * <ul>
 * <li>every directed link of its data path: {@code x * dataBytes(s)/s} of the link's capacity, where capacity =
 * data rate x {@code linkEfficiency} and dataBytes counts the headers of every packet at the path MTU
 * ({@link Headers});</li>
 * <li>every directed link of the way back: {@code x * reverseBytes(s)/s} (RC ACKs, READ requests, ATOMIC
 * responses);</li>
 * <li>the data source's PCIe toward the device: the payload in read completions of at most MPS bytes with
 * {@code tlpCompletionOverhead} each, plus the work request ({@code wqeBytes} + a write TLP) when the source is the
 * requester; inline payloads come with the doorbell in 64-byte write TLPs instead;</li>
 * <li>the data source's PCIe toward the host: its read requests, one {@code tlpWriteOverhead} per
 * {@code maxReadRequest} bytes;</li>
 * <li>the data sink's PCIe toward the host: the payload in posted writes of at most MPS bytes with
 * {@code tlpWriteOverhead} each, plus a completion entry for SEND and READ (and the 40-byte GRH a UD receive
 * scatters);</li>
 * <li>the sink's PCIe toward the device: the receive work request a SEND consumes, or the READ requester's work
 * request.</li>
 * </ul>
 * PCIe capacity per direction is raw rate x {@code pcieEfficiency} (x {@code numaFarBandwidth}, at most
 * {@code interSocketGbps}, when the buffers sit on the far NUMA node). Each flow also has its own cap: the message
 * rate of its QPs, {@code min(qps x perQpMpps, hca maxMpps)} (x {@code numaFarMessageRate} on the far node), and
 * its window, {@code qps x window / completion time} ({@link Latency#completionNanos}). Rates are then shared
 * max-min fairly ({@link FairShare}); the resource or cap that stops a flow is its bottleneck.
 */
public final class Traffic {
    private Traffic() {
    }

    /** One stream: a spec between a requester and a responder, over the routed paths both ways. */
    public record Demand(Spec spec, Endpoint requester, Endpoint responder, Route forward, Route backward) {
        /** Where the data comes from. */
        public Endpoint source() {
            return spec.op().dataFromRequester() ? requester : responder;
        }

        /** Where the data goes. */
        public Endpoint sink() {
            return spec.op().dataFromRequester() ? responder : requester;
        }

        /** The path the data takes. */
        public Route dataPath() {
            return spec.op().dataFromRequester() ? forward : backward;
        }

        /** The path against the data: ACKs, READ requests, ATOMIC responses. */
        public Route reversePath() {
            return spec.op().dataFromRequester() ? backward : forward;
        }
    }

    /** A stream's share: payload Gb/s, messages per second (millions), and its bottleneck. */
    public record Outcome(double gbps, double mpps, Bottleneck why) {
    }

    private record LinkDir(Link link, boolean aToB) {
    }

    private record PcieDir(Node host, boolean toDevice) {
    }

    /**
     * The resources flows share, registered as they are first used; over a {@code parent} (read only: shared by
     * variants solved at once), whose resources keep their numbers and new ones come after them.
     */
    private static final class Resources {
        final Resources parent;
        final int first;
        final Map<Object, Integer> ids = new HashMap<>();
        final List<Double> capacity = new ArrayList<>();
        final List<Object> keys = new ArrayList<>();
        final List<Endpoint> endpoints = new ArrayList<>();
        final List<Integer> users = new ArrayList<>();
        final List<Integer> allUsers = new ArrayList<>();

        Resources() {
            this(null);
        }

        Resources(Resources parent) {
            this.parent = parent;
            this.first = parent == null ? 0 : parent.size();
        }

        int size() {
            return first + capacity.size();
        }

        int link(Hop h, PerfParams p) {
            LinkDir k = new LinkDir(h.link(), h.aToB());
            Integer had = parent == null ? null : parent.ids.get(k);
            return had != null ? had : ids.computeIfAbsent(k, key -> add(key, LinkRates.dataGbps(h.link())
                    * p.linkEfficiency(), null));
        }

        int pcie(Endpoint e, boolean toDevice, PerfParams p) {
            PcieDir k = new PcieDir(e.node(), toDevice);
            Integer had = parent == null ? null : parent.ids.get(k);
            return had != null ? had : ids.computeIfAbsent(k, key -> add(key, e.pcieGbps(p), e));
        }

        /** Every resource's capacity, the parent's ({@code parentCapacity}, null: none) first. */
        double[] capacities(double[] parentCapacity) {
            double[] c = new double[size()];
            if (parent != null) {
                System.arraycopy(parentCapacity, 0, c, 0, first);
            }
            for (int i = 0; i < capacity.size(); i++) {
                c[first + i] = capacity.get(i);
            }
            return c;
        }

        private int add(Object key, double cap, Endpoint e) {
            capacity.add(cap);
            keys.add(key);
            endpoints.add(e);
            users.add(0);
            allUsers.add(0);
            return first + capacity.size() - 1;
        }
    }

    /** Shares the links and slots among the demands, max-min fairly. */
    public static List<Outcome> solve(PerfParams p, List<Demand> demands) {
        return solve(p, demands, null);
    }

    /**
     * As {@link #solve(PerfParams, List)}, with a rate of its own for each demand: {@code rateGbps[i]} caps demand
     * {@code i}'s payload Gb/s (a traffic file's rate; infinite or NaN: none). Null: no such caps.
     */
    public static List<Outcome> solve(PerfParams p, List<Demand> demands, double[] rateGbps) {
        if (rateGbps != null && rateGbps.length != demands.size()) {
            throw new IllegalArgumentException("one rate per demand");
        }
        Resources res = new Resources();
        List<FairShare.Flow> flows = new ArrayList<>(demands.size());
        List<Cap> caps = new ArrayList<>(demands.size());
        List<Map<Integer, Double>> uses = new ArrayList<>(demands.size());
        for (Demand d : demands) {
            Map<Integer, Double> use = new LinkedHashMap<>();
            Cap own = rateGbps == null ? null : new Cap(rateGbps[caps.size()], new Bottleneck(
                    Bottleneck.Kind.MESSAGE_RATE, String.format(Locale.ROOT, "limited by its own rate (%.1f Gb/s)",
                    rateGbps[caps.size()])));
            Cap[] cap = new Cap[1];
            FairShare.Flow flow = flow(p, d, res, use, own, cap);
            for (Hop h : d.dataPath().hops()) {
                int r = res.link(h, p);
                res.users.set(r, res.users.get(r) + 1);
            }
            for (int r : flow.resources()) {
                res.allUsers.set(r, res.allUsers.get(r) + 1);
            }
            uses.add(use);
            caps.add(cap[0]);
            flows.add(flow);
        }
        double[] capacity = res.capacities(null);
        FairShare.Result fs = FairShare.solve(capacity, flows);
        List<Outcome> out = new ArrayList<>(demands.size());
        for (int f = 0; f < demands.size(); f++) {
            Demand d = demands.get(f);
            double gbps = fs.rates()[f];
            double mpps = gbps * 1000 / (8.0 * d.spec().payload());
            int b = fs.bottleneck()[f];
            Bottleneck why = b == FairShare.CAP ? caps.get(f).why
                    : describe(d, res, b, gbps, capacity[b] / uses.get(f).get(b));
            out.add(new Outcome(gbps, mpps, why));
        }
        return out;
    }

    /**
     * A demand as a flow of the fair share: the resources one payload Gb/s of it uses ({@code use} filled in their
     * order) and its own cap, at most {@code own} (null: none), which {@code cap[0]} receives.
     */
    private static FairShare.Flow flow(PerfParams p, Demand d, Resources res, Map<Integer, Double> use, Cap own,
                                       Cap[] cap) {
        addUses(p, d, res, use);
        int[] r = new int[use.size()];
        double[] w = new double[use.size()];
        int i = 0;
        for (Map.Entry<Integer, Double> e : use.entrySet()) {
            r[i] = e.getKey();
            w[i] = e.getValue();
            i++;
        }
        Cap c = cap(p, d);
        cap[0] = own != null && own.gbps < c.gbps ? own : c;
        return new FairShare.Flow(cap[0].gbps, r, w);
    }

    /**
     * Demands made into flows once, so that variants of them (some demands routed anew, or gone) are shared out
     * again with only the changed demands made into flows: the same flows, resources and fair share as
     * {@link #solve(PerfParams, List)} of the variant's demands, so the same rates, not an estimate of them.
     * Safe to use from several threads at once.
     */
    public static final class Prepared {
        private final PerfParams p;
        private final Resources res = new Resources();
        private final FairShare.Flow[] flows;
        private final double[] capacity;

        /** {@code demands}: null where a pair has none (no route), its rate 0. */
        public Prepared(PerfParams p, List<Demand> demands) {
            this.p = p;
            this.flows = new FairShare.Flow[demands.size()];
            for (int i = 0; i < flows.length; i++) {
                Demand d = demands.get(i);
                flows[i] = d == null ? null : flow(p, d, res, new LinkedHashMap<>(), null, new Cap[1]);
            }
            this.capacity = res.capacities(null);
        }

        /** How many demands (with or without a route). */
        public int size() {
            return flows.length;
        }

        /** Each demand's payload Gb/s, as {@link #solve(PerfParams, List)} gives them (0 without a route). */
        public double[] rates() {
            return rates(new boolean[flows.length], List.of());
        }

        /**
         * Each demand's payload Gb/s with demand {@code i} replaced by {@code anew.get(k)} (null: none) where
         * {@code changed[i]} and {@code i} is the k-th changed demand, the others as prepared.
         */
        public double[] rates(boolean[] changed, List<Demand> anew) {
            Resources mine = new Resources(res);
            FairShare.Flows now = new FairShare.Flows(flows.length);
            int[] at = new int[flows.length];
            int k = 0;
            for (int i = 0; i < flows.length; i++) {
                FairShare.Flow f;
                if (changed[i]) {
                    Demand d = anew.get(k++);
                    f = d == null ? null : flow(p, d, mine, new LinkedHashMap<>(), null, new Cap[1]);
                } else {
                    f = flows[i];
                }
                at[i] = f == null ? -1 : now.add(f);
            }
            double[] cap = mine.size() == capacity.length ? capacity : mine.capacities(capacity);
            double[] fair = FairShare.solve(cap, now).rates();
            double[] out = new double[flows.length];
            for (int i = 0; i < out.length; i++) {
                out[i] = at[i] < 0 ? 0 : fair[at[i]];
            }
            return out;
        }
    }

    /** How much of each resource one payload Gb/s of the demand uses. */
    private static void addUses(PerfParams p, Demand d, Resources res, Map<Integer, Double> use) {
        Spec s = d.spec();
        double payload = s.payload();
        long size = s.size();
        double fwd = Headers.dataBytes(s.op(), s.transport(), size, s.mtu(), s.grh()) / payload;
        double rev = Headers.reverseBytes(s.op(), s.transport(), size, s.mtu(), s.grh()) / payload;
        for (Hop h : d.dataPath().hops()) {
            use.merge(res.link(h, p), fwd, Double::sum);
        }
        if (rev > 0) {
            for (Hop h : d.reversePath().hops()) {
                use.merge(res.link(h, p), rev, Double::sum);
            }
        }
        Endpoint src = d.source();
        Endpoint sink = d.sink();
        boolean srcIsRequester = s.op().dataFromRequester();
        int wtlp = p.tlpWriteOverhead();
        int ctlp = p.tlpCompletionOverhead();
        // Data source: payload toward the device, read requests toward the host.
        double srcToDevice;
        double srcToHost = 0;
        int smps = src.facts().maxPayload();
        if (s.op() == Op.ATOMIC) {
            srcToDevice = p.wqeBytes() + wtlp;
        } else if (s.inline()) {
            long bytes = p.wqeBytes() + size;
            srcToDevice = bytes + Pcie.tlps(bytes, 64) * wtlp;
        } else {
            srcToDevice = Pcie.wireBytes(size, smps, ctlp) + (srcIsRequester ? p.wqeBytes() + wtlp : 0);
            srcToHost = Pcie.tlps(size, p.maxReadRequest()) * (double) wtlp;
        }
        use.merge(res.pcie(src, true, p), srcToDevice / payload, Double::sum);
        if (srcToHost > 0) {
            use.merge(res.pcie(src, false, p), srcToHost / payload, Double::sum);
        }
        // Data sink: payload toward the host, work requests toward the device.
        int kmps = sink.facts().maxPayload();
        double sinkToHost;
        double sinkToDevice = 0;
        if (s.op() == Op.ATOMIC) {
            sinkToHost = 2.0 * wtlp + Headers.ATOMIC_SIZE;
            sinkToDevice = Headers.ATOMIC_SIZE + ctlp;
        } else {
            long landed = size + (s.transport() == Transport.UD ? Headers.GRH : 0);
            sinkToHost = Pcie.wireBytes(landed, kmps, wtlp);
            if (s.op() == Op.SEND || s.op() == Op.READ) {
                sinkToHost += p.cqeBytes() + wtlp;
            }
            if (s.op() == Op.SEND) {
                sinkToDevice = p.wqeBytes() + ctlp;
            } else if (s.op() == Op.READ) {
                sinkToDevice = p.wqeBytes() + wtlp;
            }
        }
        use.merge(res.pcie(sink, false, p), sinkToHost / payload, Double::sum);
        if (sinkToDevice > 0) {
            use.merge(res.pcie(sink, true, p), sinkToDevice / payload, Double::sum);
        }
    }

    private record Cap(double gbps, Bottleneck why) {
    }

    /** A demand's own limits: the message rate of its QPs and HCA, and its window over the completion time. */
    private static Cap cap(PerfParams p, Demand d) {
        Spec s = d.spec();
        Endpoint rq = d.requester();
        double perQp = rq.perQpMpps(p);
        double qpMpps = s.qps() * perQp;
        double hcaMpps = rq.hca().maxMpps() * (rq.farNuma() ? p.numaFarMessageRate() : 1);
        double completion = Latency.completionNanos(p, s, rq, d.responder(), d.forward(), d.backward());
        double windowMpps = s.qps() * (double) s.window() * 1000 / completion;
        double bytesToGbps = 8.0 * s.payload() / 1000;
        double mpps;
        String text;
        Bottleneck.Kind kind;
        if (windowMpps < Math.min(qpMpps, hcaMpps)) {
            mpps = windowMpps;
            kind = Bottleneck.Kind.WINDOW;
            String what = s.op().usesOutstandingReads() ? "outstanding reads " + s.window() : "TX depth " + s.window();
            text = String.format(Locale.ROOT, "limited by %s: %d message%s in flight per QP over a %.2f us "
                    + "completion (≈ %.2f Mpps)", what, s.window(), s.window() == 1 ? "" : "s", completion / 1000,
                    mpps);
        } else if (hcaMpps < qpMpps) {
            mpps = hcaMpps;
            kind = Bottleneck.Kind.MESSAGE_RATE;
            text = String.format(Locale.ROOT, "limited by message rate: the %s's limit (≈ %.0f Mpps)%s",
                    rq.hca().name(), mpps, rq.farNuma() ? " on the far NUMA node" : "");
        } else {
            mpps = qpMpps;
            kind = Bottleneck.Kind.MESSAGE_RATE;
            text = String.format(Locale.ROOT, "limited by message rate: %d QP%s (≈ %.2f Mpps per QP on %s%s)",
                    s.qps(), s.qps() == 1 ? "" : "s", perQp, rq.hca().name(),
                    rq.farNuma() ? ", far NUMA node" : "");
        }
        return new Cap(mpps * bytesToGbps, new Bottleneck(kind, text));
    }

    /**
     * Names a resource that stopped a demand at {@code gbps}; {@code alone} is what the resource would give the
     * demand by itself.
     */
    private static Bottleneck describe(Demand d, Resources res, int r, double gbps, double alone) {
        Object key = res.keys.get(r);
        Spec s = d.spec();
        if (key instanceof PcieDir pd) {
            Endpoint e = res.endpoints.get(r);
            String where = e.farNuma() ? " with buffers on the far NUMA node" : "";
            int n = res.allUsers.get(r);
            if (n <= 1) {
                return new Bottleneck(Bottleneck.Kind.PCIE, String.format(Locale.ROOT,
                        "limited by PCIe %s at %s%s (%s Gb/s usable; ≈ %.1f Gb/s of payload after TLP headers)",
                        Pcie.label(e.facts()), Names.node(pd.host()), where,
                        Pcie.gbps(Pcie.usableGbps(e.facts())), alone));
            }
            return new Bottleneck(Bottleneck.Kind.PCIE, String.format(Locale.ROOT,
                    "limited by PCIe %s at %s%s, toward the %s, shared by %d streams (≈ %.1f Gb/s of TLPs)",
                    Pcie.label(e.facts()), Names.node(pd.host()), where, pd.toDevice() ? "device" : "host", n,
                    res.capacity.get(r)));
        }
        LinkDir ld = (LinkDir) key;
        Link l = ld.link();
        int users = res.users.get(r);
        String sharing = users > 1 ? ", shared by " + users + " flows" : "";
        long packets = Headers.packets(s.size(), s.mtu());
        if (s.mtu() < 4096 && packets > 1 && s.op() != Op.ATOMIC) {
            double at4096 = gbps * Headers.efficiency(s.op(), s.transport(), s.size(), 4096, s.grh())
                    / Headers.efficiency(s.op(), s.transport(), s.size(), s.mtu(), s.grh());
            return new Bottleneck(Bottleneck.Kind.MTU, String.format(Locale.ROOT,
                    "limited by MTU %d on link %s at %s%s (≈ %.1f Gb/s of payload; MTU 4096 would carry %.1f)",
                    s.mtu(), Names.link(l), LinkRates.label(l), sharing, gbps, at4096));
        }
        return new Bottleneck(Bottleneck.Kind.LINK, String.format(Locale.ROOT,
                "limited by link %s at %s%s (≈ %.1f Gb/s of payload)", Names.link(l), LinkRates.label(l), sharing,
                gbps));
    }
}
