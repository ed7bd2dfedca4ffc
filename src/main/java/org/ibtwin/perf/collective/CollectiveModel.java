package org.ibtwin.perf.collective;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.ibtwin.model.HostFacts;
import org.ibtwin.model.Link;
import org.ibtwin.model.Node;
import org.ibtwin.model.Port;
import org.ibtwin.perf.Endpoint;
import org.ibtwin.perf.FairShare;
import org.ibtwin.perf.Headers;
import org.ibtwin.perf.Hop;
import org.ibtwin.perf.Latency;
import org.ibtwin.perf.LinkRates;
import org.ibtwin.perf.Names;
import org.ibtwin.perf.Op;
import org.ibtwin.perf.Pcie;
import org.ibtwin.perf.PerfParams;
import org.ibtwin.perf.Route;
import org.ibtwin.perf.Routes;
import org.ibtwin.perf.Transport;

/**
 * What a collective takes on a fabric: NCCL's cost model for the latency ({@link NcclTuning}), the fabric for the
 * bandwidth.
 *
 * <p><b>Bandwidth.</b> An algorithm moves, over each of its edges, a fixed share of the buffer: a ring all_reduce
 * {@code 2(n-1)/n} of it over every ring edge, split evenly over the channels; a tree {@code 1/channels} per
 * channel up and down each tree edge; NVLS the whole buffer from every GPU into the NVSwitch and back. Every edge
 * is a flow ({@link FairShare}) whose rate is the collective's progress in bytes of the buffer per second; it uses
 * its resources in proportion to its share:
 * <ul>
 * <li>an inter-node edge runs from the channel's NIC on one node to the same rail's NIC on the other, over the
 * route {@link Routes} gives: every directed link (its data rate x {@code linkEfficiency}, the packet headers of
 * {@code chunkBytes} RDMA writes paid), the sender NIC's PCIe toward the device and the receiver's toward the host
 * (its slot x {@code pcieEfficiency}, the TLP headers paid); without GPUDirect RDMA (off, or GPUs on another NUMA
 * node than the NIC, where NCCL does not use it) the data also bounces through host memory, crossing the CPU-side
 * PCIe a second time, and with far GPUs the inter-socket link; all of it at {@code netEfficiency};</li>
 * <li>an intra-node edge runs over NVLink, out of one GPU and into another (each GPU's NVLink bandwidth per
 * direction, at {@code ringNvlinkEfficiency}, or {@code nvlsEfficiency} through NVLink SHARP); GPUs without
 * NVLink use PCIe. A ring leaves a node from its last GPU; when that GPU's NIC is not the channel's, the data goes
 * over NVLink to the GPU at the channel's NIC first (PXN), so the inter-node edge stays on its rail.</li>
 * </ul>
 * Flows share every resource max-min fairly; the collective moves at its slowest flow's pace, and that flow's
 * bottleneck is what limits it. Protocols scale the result (LL half of it, LL128 0.92 on rings) within NCCL's caps.
 *
 * <p><b>Time.</b> {@code time = latency + size / algbw}, the algorithm and protocol the fastest for the size
 * unless restricted, as NCCL picks them.
 */
public final class CollectiveModel {
    private final PerfParams perf;
    private final CollectiveParams params;
    private final Routes routes;
    private final Job job;
    private final Collective coll;
    private final Map<Algorithm, Capacity> capacities = new EnumMap<>(Algorithm.class);
    /** Routes asked once per NIC pair, whichever algorithms use them. */
    private final Map<Port, Map<Port, Route>> routeCache = new HashMap<>();

    /** What limits a figure. */
    public enum Limit { LATENCY, NVLINK, PCIE, NIC_PCIE, HOST_BOUNCE, INTER_SOCKET, LINK, PROTOCOL, NONE }

    /**
     * The fabric's bandwidth for one algorithm with the Simple protocol.
     *
     * @param algbw       GB/s of the buffer (10^9 B/s), infinite for a single rank
     * @param limit       what stopped the slowest flow
     * @param why         a sentence naming it
     * @param channels    NCCL channels
     * @param flows       flows shared
     * @param pathMicros  the longest network path's own latency (switch hops, cables), us
     */
    public record Capacity(Algorithm algorithm, double algbw, Limit limit, String why, int channels, int flows,
                           double pathMicros) {
    }

    /**
     * One size's figure.
     *
     * @param bytes      the size as the test prints it
     * @param count      elements per rank as the test prints it
     * @param timeUs     the time of one operation, us
     * @param algbw      GB/s
     * @param busbw      GB/s
     * @param latencyUs  the latency term
     * @param limit      what the size is limited by: LATENCY when the latency term is the larger one
     * @param why        a sentence
     */
    public record Estimate(long bytes, long count, Algorithm algorithm, Protocol protocol, double timeUs,
                           double algbw, double busbw, double latencyUs, Limit limit, String why) {
    }

    public CollectiveModel(PerfParams perf, CollectiveParams params, Routes routes, Job job, Collective coll) {
        this.perf = perf;
        this.params = params;
        this.routes = routes;
        this.job = job;
        this.coll = coll;
    }

    public Job job() {
        return job;
    }

    public Collective collective() {
        return coll;
    }

    /** The algorithms NCCL has for this collective on this job, in NCCL's order. */
    public List<Algorithm> algorithms() {
        return switch (coll) {
            case ALL_REDUCE -> {
                List<Algorithm> a = new ArrayList<>(List.of(Algorithm.RING, Algorithm.TREE));
                if (job.nvls()) {
                    a.add(job.nodes().size() == 1 ? Algorithm.NVLS : Algorithm.NVLS_TREE);
                }
                yield a;
            }
            case ALL_GATHER, REDUCE_SCATTER, BROADCAST, REDUCE -> List.of(Algorithm.RING);
            case ALLTOALL, SENDRECV -> List.of(Algorithm.P2P);
        };
    }

    /** The protocols an algorithm runs with. */
    public static List<Protocol> protocols(Algorithm a) {
        return switch (a) {
            case RING, TREE -> List.of(Protocol.LL, Protocol.LL128, Protocol.SIMPLE);
            case NVLS, NVLS_TREE, P2P -> List.of(Protocol.SIMPLE);
        };
    }

    /** Channels: {@code channelsPerNic} per rail, at least 2. */
    public int channels() {
        return Math.max(2, params.channelsPerNic() * job.nics());
    }

    /** The fabric's bandwidth for {@code a}, computed once. */
    public Capacity capacity(Algorithm a) {
        return capacities.computeIfAbsent(a, this::solve);
    }

    /**
     * The fastest algorithm and protocol for a size among those allowed (null: all), and its figure.
     *
     * @param bytes    the -b/-e size step
     * @param typeSize bytes per element
     */
    public Estimate estimate(long bytes, int typeSize, Set<Algorithm> allowedAlgos, Set<Protocol> allowedProtos) {
        int n = job.ranks();
        long count = coll.count(bytes, typeSize, n);
        long size = coll.size(bytes, typeSize, n);
        Estimate best = null;
        for (Algorithm a : algorithms()) {
            if (allowedAlgos != null && !allowedAlgos.contains(a) && a != Algorithm.P2P) {
                continue;
            }
            for (Protocol p : protocols(a)) {
                if (allowedProtos != null && !allowedProtos.contains(p) && a != Algorithm.P2P) {
                    continue;
                }
                Estimate e = estimate(a, p, size, count);
                if (best == null || e.timeUs() < best.timeUs()) {
                    best = e;
                }
            }
        }
        if (best == null) {
            List<String> names = new ArrayList<>();
            for (Algorithm a : algorithms()) {
                names.add(a.label());
            }
            throw new IllegalArgumentException("no algorithm and protocol left for " + coll.label() + ": NCCL has "
                    + String.join(", ", names) + " here");
        }
        return best;
    }

    /** The figure of one algorithm and protocol for a printed size and count. */
    public Estimate estimate(Algorithm a, Protocol p, long size, long count) {
        Capacity cap = capacity(a);
        int n = job.ranks();
        double lat = latency(a, p, size, cap);
        double bw = cap.algbw();
        Limit limit = cap.limit();
        String why = cap.why();
        double protoBw = bw * protocolFactor(a, p);
        double ceiling = protocolCeiling(a, p);
        if (ceiling < protoBw) {
            protoBw = ceiling;
            limit = Limit.PROTOCOL;
            why = String.format(Locale.ROOT, "the %s protocol's ceiling in NCCL's model (%.1f GB/s of algbw)",
                    p.label(), ceiling);
        } else if (p != Protocol.SIMPLE) {
            why = why + String.format(Locale.ROOT, ", at %s's share (x%.2f)", p.label(), protocolFactor(a, p));
        }
        double transfer = Double.isInfinite(protoBw) || size == 0 ? 0 : size / (1000 * protoBw);
        double time = lat + transfer;
        double algbw = time > 0 ? size / (time * 1000) : 0;
        double busbw = algbw * coll.busFactor(n);
        if (lat >= transfer) {
            limit = Limit.LATENCY;
            why = String.format(Locale.ROOT, "%.1f us of the %.1f us are %s/%s's latency", lat, time, a.label(),
                    p.label());
        }
        return new Estimate(size, count, a, p, time, algbw, busbw, lat, limit, why);
    }

    /** How much of the Simple bandwidth a protocol gets. */
    private double protocolFactor(Algorithm a, Protocol p) {
        int nodes = job.nodes().size();
        return switch (a) {
            case RING -> switch (p) {
                case LL -> NcclTuning.LL_FACTOR;
                case LL128 -> NcclTuning.RING_LL128_FACTOR;
                case SIMPLE -> 1;
            };
            case TREE -> NcclTuning.TREE_FACTOR * switch (p) {
                case LL -> NcclTuning.TREE_LL_FACTOR;
                case LL128 -> nodes == 1 ? NcclTuning.TREE_LL128_FACTOR_ONE_NODE : NcclTuning.TREE_LL128_FACTOR;
                case SIMPLE -> 1;
            };
            default -> 1;
        };
    }

    /** NCCL's caps on a protocol, as algbw GB/s (infinite where there is none). */
    private double protocolCeiling(Algorithm a, Protocol p) {
        int nodes = job.nodes().size();
        int n = job.ranks();
        double ringToAlg = n <= 1 ? Double.POSITIVE_INFINITY : (double) n / coll.ringSteps(n);
        if (a == Algorithm.RING && p == Protocol.LL) {
            return NcclTuning.llMaxBusBw(nodes) * ringToAlg;
        }
        if (a == Algorithm.RING && p == Protocol.LL128) {
            return channels() * NcclTuning.RING_LL128_PER_CHANNEL * ringToAlg;
        }
        if (a == Algorithm.TREE && p == Protocol.LL) {
            return NcclTuning.llMaxBusBw(nodes) * 0.5;
        }
        if (a == Algorithm.TREE && p == Protocol.LL128) {
            return channels() * NcclTuning.treeLl128PerChannel(nodes) * 0.5;
        }
        return Double.POSITIVE_INFINITY;
    }

    /** NCCL's latency for one operation, us. */
    double latency(Algorithm a, Protocol p, long size, Capacity cap) {
        int nodes = job.nodes().size();
        int n = job.ranks();
        int ppn = job.gpusPerNode();
        if (n <= 1) {
            return NcclTuning.base(a == Algorithm.P2P ? Algorithm.RING : a, p);
        }
        NcclTuning.Hw intraHw = job.nodes().get(0).facts().nvlinkGBps() > 0 ? NcclTuning.Hw.NVLINK
                : NcclTuning.Hw.PCI;
        boolean simple = p == Protocol.SIMPLE;
        double path = cap.pathMicros() * (simple ? 2 : 1) + (bounces() ? params.hostBounceMicros() : 0);
        switch (a) {
            case RING -> {
                int steps = coll.ringSteps(n);
                double base = NcclTuning.base(a, p);
                NcclTuning.Hw hw = nodes == 1 ? intraHw : NcclTuning.Hw.NET;
                if (coll == Collective.BROADCAST || coll == Collective.REDUCE) {
                    double step = NcclTuning.hw(hw, simple ? Algorithm.TREE : Algorithm.RING, p)
                            + (nodes > 1 ? path : 0);
                    return base + steps * step;
                }
                double intra = NcclTuning.hw(intraHw, a, p);
                double inter = NcclTuning.hw(NcclTuning.Hw.NET, ppn == 1 ? Algorithm.TREE : Algorithm.RING, p) + path;
                int interSteps = 0;
                if (nodes > 1) {
                    intra = Math.max(intra, NcclTuning.NET_OVERHEAD_US * (simple ? 3 : 1));
                    interSteps = coll == Collective.ALL_REDUCE ? 2 * (nodes - 1) : nodes - 1;
                }
                double lat = base + (steps - interSteps) * intra + interSteps * inter;
                if (coll == Collective.ALL_REDUCE && simple && nodes > 1 && size / ((long) cap.channels() * n) >= 64) {
                    lat *= NcclTuning.RING_PLATEAU;
                }
                return lat;
            }
            case TREE -> {
                double intra = NcclTuning.hw(intraHw, a, p);
                double inter = NcclTuning.hw(NcclTuning.Hw.NET, a, p) + path;
                return NcclTuning.base(a, p) + 2 * ((ppn - 1) * intra + NcclTuning.log2(nodes) * inter);
            }
            case NVLS -> {
                return NcclTuning.hw(NcclTuning.Hw.NVLINK, a, p);
            }
            case NVLS_TREE -> {
                return NcclTuning.hw(NcclTuning.Hw.NVLINK, a, p)
                        + 2 * NcclTuning.log2(nodes) * (NcclTuning.hw(NcclTuning.Hw.NET, a, p) + path);
            }
            case P2P -> {
                // NCCL's tuner leaves point-to-point out; a step of the Simple ring, and per peer node the post.
                double base = NcclTuning.base(Algorithm.RING, Protocol.SIMPLE);
                double intra = NcclTuning.hw(intraHw, Algorithm.RING, Protocol.SIMPLE);
                double inter = NcclTuning.hw(NcclTuning.Hw.NET, Algorithm.RING, Protocol.SIMPLE) + path;
                if (coll == Collective.SENDRECV) {
                    return base + (nodes > 1 ? inter : intra);
                }
                return base + (nodes > 1 ? inter + (nodes - 1) * NcclTuning.NET_OVERHEAD_US : (ppn - 1) * intra);
            }
            default -> throw new IllegalStateException();
        }
    }

    /** Some node of the job moves network data through host memory. */
    private boolean bounces() {
        if (job.nodes().size() < 2) {
            return false;
        }
        for (GpuNode g : job.nodes()) {
            if (bounce(g)) {
                return true;
            }
        }
        return false;
    }

    /** NCCL does not use GPUDirect RDMA on this node: it is off, or the GPUs sit across the CPU from the NIC. */
    static boolean bounce(GpuNode g) {
        return !g.facts().gpuDirect() || g.facts().gpuFar();
    }

    // ------------------------------------------------------------------------------------------------ flows

    private Capacity solve(Algorithm a) {
        Flows f = new Flows();
        int nodes = job.nodes().size();
        int g = job.gpusPerNode();
        int n = job.ranks();
        int k = job.nics();
        int ch = channels();
        if (n > 1) {
            switch (a) {
                case RING -> {
                    double share = coll.ringSteps(n) / (double) n / ch;
                    for (int c = 0; c < ch; c++) {
                        int rail = c % k;
                        for (int i = 0; i < nodes; i++) {
                            ringThroughNode(f, i, rail, share, nodes == 1);
                            if (nodes > 1) {
                                f.net(i, rail, (i + 1) % nodes, rail, share);
                            }
                        }
                    }
                }
                case TREE, NVLS_TREE -> {
                    double share = 1.0 / ch;
                    for (int c = 0; c < ch; c++) {
                        int tree = c % 2;
                        int rail = (c / 2) % k;
                        if (a == Algorithm.TREE) {
                            for (int i = 0; i < nodes; i++) {
                                chainThroughNode(f, i, rail, share);
                            }
                        }
                        for (int pos = 1; pos < nodes; pos++) {
                            int child = tree == 0 ? pos : nodes - 1 - pos;
                            int ppos = (pos - 1) / 2;
                            int parent = tree == 0 ? ppos : nodes - 1 - ppos;
                            f.net(child, rail, parent, rail, share);
                            f.net(parent, rail, child, rail, share);
                        }
                    }
                    if (a == Algorithm.NVLS_TREE) {
                        for (int i = 0; i < nodes; i++) {
                            for (int gpu = 0; gpu < g; gpu++) {
                                f.nvls(i, gpu, 1.0);
                            }
                        }
                    }
                }
                case NVLS -> {
                    for (int gpu = 0; gpu < g; gpu++) {
                        f.nvls(0, gpu, 1.0);
                    }
                }
                case P2P -> {
                    if (coll == Collective.SENDRECV) {
                        sendrecv(f);
                    } else {
                        alltoall(f);
                    }
                }
                default -> throw new IllegalStateException();
            }
        }
        return f.solve(a, ch);
    }

    /** Channel {@code rail}'s ring through node {@code i}: from the GPU at the rail's NIC through every GPU. */
    private void ringThroughNode(Flows f, int i, int rail, double share, boolean closed) {
        GpuNode node = job.nodes().get(i);
        int g = job.gpusPerNode();
        int entry = node.firstGpuOn(rail % node.nics().size(), g);
        for (int j = 0; j + 1 < g; j++) {
            f.nvl(i, (entry + j) % g, (entry + j + 1) % g, share, params.ringNvlinkEfficiency());
        }
        int exit = (entry + g - 1) % g;
        if (g > 1 && (closed || node.nicOf(exit, g) != rail % node.nics().size())) {
            f.nvl(i, exit, entry, share, params.ringNvlinkEfficiency());
        }
    }

    /** A tree channel's chain through node {@code i}: reduced up toward the GPU at the rail's NIC, then down. */
    private void chainThroughNode(Flows f, int i, int rail, double share) {
        GpuNode node = job.nodes().get(i);
        int g = job.gpusPerNode();
        int entry = node.firstGpuOn(rail % node.nics().size(), g);
        for (int j = 0; j + 1 < g; j++) {
            int a = (entry + j) % g;
            int b = (entry + j + 1) % g;
            f.nvl(i, b, a, share, params.ringNvlinkEfficiency());
            f.nvl(i, a, b, share, params.ringNvlinkEfficiency());
        }
    }

    /** Rank r sends its buffer to rank r+1: over NVLink inside a node, through PXN onto rail 0 across nodes. */
    private void sendrecv(Flows f) {
        int nodes = job.nodes().size();
        int g = job.gpusPerNode();
        for (int i = 0; i < nodes; i++) {
            GpuNode node = job.nodes().get(i);
            for (int j = 0; j + 1 < g; j++) {
                f.nvl(i, j, j + 1, 1.0, params.ringNvlinkEfficiency());
            }
            if (nodes == 1) {
                if (g > 1) {
                    f.nvl(i, g - 1, 0, 1.0, params.ringNvlinkEfficiency());
                }
                continue;
            }
            int next = (i + 1) % nodes;
            int rail = job.nodes().get(next).nicOf(0, g);
            int relay = node.firstGpuOn(rail % node.nics().size(), g);
            if (relay != g - 1) {
                f.nvl(i, g - 1, relay, 1.0, params.ringNvlinkEfficiency());
            }
            f.net(i, rail, next, rail, 1.0);
        }
    }

    /** Every rank sends 1/n of its buffer to every rank; across nodes rail to rail, through PXN. */
    private void alltoall(Flows f) {
        int nodes = job.nodes().size();
        int g = job.gpusPerNode();
        int n = job.ranks();
        int k = job.nics();
        long flows = (long) nodes * (nodes - 1) * k;
        if (flows > 2_000_000) {
            throw new IllegalArgumentException("alltoall over " + nodes + " nodes is " + flows
                    + " rail flows; the model takes at most 2,000,000");
        }
        int[] onRail = new int[k];
        for (int gpu = 0; gpu < g; gpu++) {
            onRail[gpu * k / g]++;
        }
        for (int i = 0; i < nodes; i++) {
            for (int gpu = 0; gpu < g; gpu++) {
                int own = gpu * k / g;
                double local = (g - 1) / (double) n;
                double relayed = (nodes - 1) * (double) (g - onRail[own]) / n;
                f.nvlSwitch(i, gpu, local + relayed, params.ringNvlinkEfficiency());
            }
            for (int j = 0; j < nodes; j++) {
                if (j != i) {
                    for (int r = 0; r < k; r++) {
                        f.net(i, r, j, r, (double) g * onRail[r] / n);
                    }
                }
            }
        }
    }

    private record LinkDir(Link link, boolean aToB) {
    }

    private record NicPcie(Node nic, boolean toDevice) {
    }

    private record Socket(int node, boolean out) {
    }

    private record Nvl(int node, int gpu, boolean out) {
    }

    private record NetKey(int src, int srcNic, int dst, int dstNic) {
    }

    private record NvlKey(int node, int from, int to, double efficiency) {
    }

    /** The flows of one algorithm: merged by what they join, their resources registered as first used. */
    private final class Flows {
        final Map<NetKey, Double> net = new LinkedHashMap<>();
        final Map<NvlKey, Double> nvl = new LinkedHashMap<>();
        final Map<Object, Integer> ids = new HashMap<>();
        final List<Object> keys = new ArrayList<>();
        final List<Double> capacity = new ArrayList<>();
        final List<Integer> users = new ArrayList<>();
        double pathMicros;

        void net(int src, int srcNic, int dst, int dstNic, double share) {
            GpuNode s = job.nodes().get(src);
            GpuNode d = job.nodes().get(dst);
            net.merge(new NetKey(src, srcNic % s.nics().size(), dst, dstNic % d.nics().size()), share, Double::sum);
        }

        void nvl(int node, int from, int to, double share, double eff) {
            nvl.merge(new NvlKey(node, from, to, eff), share, Double::sum);
        }

        /** Into the NVSwitch and out of it again: NVLS, or alltoall's traffic inside the node. */
        void nvls(int node, int gpu, double share) {
            nvl.merge(new NvlKey(node, gpu, -1, params.nvlsEfficiency()), share, Double::sum);
        }

        void nvlSwitch(int node, int gpu, double share, double eff) {
            nvl.merge(new NvlKey(node, gpu, -1, eff), share, Double::sum);
        }

        int resource(Object key, double cap) {
            Integer id = ids.get(key);
            if (id == null) {
                id = keys.size();
                ids.put(key, id);
                keys.add(key);
                capacity.add(cap);
                users.add(0);
            }
            users.set(id, users.get(id) + 1);
            return id;
        }

        Route route(Port a, Port b) {
            return routeCache.computeIfAbsent(a, x -> new HashMap<>()).computeIfAbsent(b, y -> routes.route(a, y));
        }

        Capacity solve(Algorithm a, int channels) {
            List<FairShare.Flow> flows = new ArrayList<>(net.size() + nvl.size());
            double netEff = params.netEfficiency();
            double wire = Headers.efficiency(Op.WRITE, Transport.RC, params.chunkBytes(), 4096, false);
            for (Map.Entry<NetKey, Double> e : net.entrySet()) {
                NetKey key = e.getKey();
                double share = e.getValue();
                GpuNode s = job.nodes().get(key.src());
                GpuNode d = job.nodes().get(key.dst());
                Port from = s.nics().get(key.srcNic());
                Port to = d.nics().get(key.dstNic());
                Route r = route(from, to);
                if (r == null) {
                    throw new IllegalArgumentException("no route from " + s.nicName(key.srcNic()) + " to "
                            + d.nicName(key.dstNic()) + ": NCCL cannot connect the ranks");
                }
                pathMicros = Math.max(pathMicros, Latency.wireNanos(perf, r) / 1000);
                List<Integer> res = new ArrayList<>();
                List<Double> w = new ArrayList<>();
                double mtuWire = Headers.efficiency(Op.WRITE, Transport.RC, params.chunkBytes(), r.mtu().bytes(),
                        false);
                for (Hop h : r.hops()) {
                    res.add(resource(new LinkDir(h.link(), h.aToB()),
                            LinkRates.dataGbps(h.link()) * perf.linkEfficiency() / 8));
                    w.add(share / (Math.min(wire, mtuWire) * netEff));
                }
                int bs = bounce(s) ? 2 : 1;
                int bd = bounce(d) ? 2 : 1;
                Endpoint es = Endpoint.of(from, false);
                Endpoint ed = Endpoint.of(to, false);
                double readTlp = Pcie.wireBytes(params.chunkBytes(), es.facts().maxPayload(),
                        perf.tlpCompletionOverhead()) / (double) params.chunkBytes();
                double writeTlp = Pcie.wireBytes(params.chunkBytes(), ed.facts().maxPayload(),
                        perf.tlpWriteOverhead()) / (double) params.chunkBytes();
                res.add(resource(new NicPcie(from.node(), true), es.pcieGbps(perf) / 8));
                w.add(share * readTlp * bs / netEff);
                res.add(resource(new NicPcie(to.node(), false), ed.pcieGbps(perf) / 8));
                w.add(share * writeTlp * bd / netEff);
                if (s.facts().gpuFar()) {
                    res.add(resource(new Socket(key.src(), true), perf.interSocketGbps() / 8));
                    w.add(share / netEff);
                }
                if (d.facts().gpuFar()) {
                    res.add(resource(new Socket(key.dst(), false), perf.interSocketGbps() / 8));
                    w.add(share / netEff);
                }
                flows.add(flow(res, w));
            }
            for (Map.Entry<NvlKey, Double> e : nvl.entrySet()) {
                NvlKey key = e.getKey();
                HostFacts h = job.nodes().get(key.node()).facts();
                double cap = h.nvlinkGBps() > 0 ? h.nvlinkGBps()
                        : Pcie.rawGbps(h) * perf.pcieEfficiency() / 8;
                double w = e.getValue() / (h.nvlinkGBps() > 0 ? key.efficiency() : 1);
                List<Integer> res = new ArrayList<>();
                List<Double> ws = new ArrayList<>();
                res.add(resource(new Nvl(key.node(), key.from(), true), cap));
                ws.add(w);
                res.add(resource(new Nvl(key.node(), key.to() < 0 ? key.from() : key.to(), false), cap));
                ws.add(w);
                flows.add(flow(res, ws));
            }
            int total = flows.size();
            if (total == 0) {
                return new Capacity(a, Double.POSITIVE_INFINITY, Limit.NONE, "a single rank: nothing to move",
                        channels, 0, 0);
            }
            double[] caps = new double[capacity.size()];
            for (int i = 0; i < caps.length; i++) {
                caps[i] = capacity.get(i);
            }
            FairShare.Result fs = FairShare.solve(caps, flows);
            int slowest = 0;
            for (int i = 1; i < total; i++) {
                if (fs.rates()[i] < fs.rates()[slowest]) {
                    slowest = i;
                }
            }
            double rate = fs.rates()[slowest];
            int b = fs.bottleneck()[slowest];
            return describe(a, rate, b, channels, total);
        }

        private FairShare.Flow flow(List<Integer> res, List<Double> w) {
            int[] r = new int[res.size()];
            double[] ws = new double[w.size()];
            for (int i = 0; i < r.length; i++) {
                r[i] = res.get(i);
                ws[i] = w.get(i);
            }
            return new FairShare.Flow(Double.POSITIVE_INFINITY, r, ws);
        }

        private Capacity describe(Algorithm a, double rate, int b, int channels, int total) {
            Object key = b < 0 ? null : keys.get(b);
            double cap = b < 0 ? 0 : capacity.get(b);
            int u = b < 0 ? 0 : users.get(b);
            String shared = u > 1 ? ", shared by " + u + " flows" : "";
            Limit limit;
            String why;
            if (key instanceof LinkDir ld) {
                limit = Limit.LINK;
                why = String.format(Locale.ROOT, "link %s at %s%s (%.1f GB/s each way)", Names.link(ld.link()),
                        LinkRates.label(ld.link()), shared, cap);
            } else if (key instanceof NicPcie np) {
                GpuNode owner = owner(np.nic());
                HostFacts h = np.nic().hostFacts() == null ? HostFacts.DEFAULT : np.nic().hostFacts();
                String nic = np.nic().description() == null ? Names.node(np.nic()) : np.nic().description().trim();
                if (owner != null && bounce(owner)) {
                    limit = Limit.HOST_BOUNCE;
                    why = String.format(Locale.ROOT, "the host bounce at %s (%s): every byte crosses the PCIe %s "
                            + "of %s twice, GPU to host memory and host memory to NIC (%.1f GB/s usable%s)",
                            owner.name(), owner.facts().gpuDirect() ? "GPUs on NUMA node "
                                    + owner.facts().gpuNumaNode() + ", NIC on " + h.hcaNumaNode()
                                    : "GPUDirect RDMA off", h.pcieLabel(), nic, cap, shared);
                } else {
                    limit = Limit.NIC_PCIE;
                    why = String.format(Locale.ROOT, "PCIe %s of %s (%.1f GB/s usable toward the %s%s)",
                            h.pcieLabel(), nic, cap, np.toDevice() ? "NIC" : "host", shared);
                }
            } else if (key instanceof Socket so) {
                GpuNode node = job.nodes().get(so.node());
                limit = Limit.INTER_SOCKET;
                why = String.format(Locale.ROOT, "the inter-socket link of %s: its GPUs sit on NUMA node %d, its "
                        + "NICs on %d, and NCCL bounces through host memory (%.1f GB/s %s%s)", node.name(),
                        node.facts().gpuNumaNode(), node.facts().hcaNumaNode(), cap,
                        so.out() ? "toward the NICs" : "toward the GPUs", shared);
            } else if (key instanceof Nvl nv) {
                GpuNode node = job.nodes().get(nv.node());
                if (node.facts().nvlinkGBps() > 0) {
                    limit = Limit.NVLINK;
                    why = String.format(Locale.ROOT, "NVLink of %s GPU %d (%d GB/s each way, %s)", node.name(),
                            nv.gpu(), node.facts().nvlinkGBps(), a == Algorithm.NVLS || a == Algorithm.NVLS_TREE
                                    ? String.format(Locale.ROOT, "NVLink SHARP at %.0f%%",
                                            params.nvlsEfficiency() * 100)
                                    : String.format(Locale.ROOT, "rings at %.0f%%",
                                            params.ringNvlinkEfficiency() * 100));
                } else {
                    limit = Limit.PCIE;
                    why = String.format(Locale.ROOT, "PCIe between the GPUs of %s, no NVLink (%.1f GB/s)",
                            node.name(), cap);
                }
            } else {
                limit = Limit.NONE;
                why = "nothing";
            }
            return new Capacity(a, rate, limit, why, channels, total, pathMicros);
        }

        private GpuNode owner(Node nic) {
            for (GpuNode g : job.nodes()) {
                for (Port p : g.nics()) {
                    if (p.node() == nic) {
                        return g;
                    }
                }
            }
            return null;
        }
    }
}
