package org.ibtwin.perf.collective;

/**
 * The figures of NCCL's own cost model (its tuning tables for Hopper GPUs and x86 hosts), as numbers: every
 * (collective, algorithm, protocol) costs a latency, in microseconds, plus the bytes over a bandwidth. The model
 * takes the latencies and the protocol factors from here and the bandwidth from the fabric.
 *
 * <p>Latency of one operation: a base latency per algorithm and protocol, plus per step a hardware latency by what
 * the step crosses (NVLink, PCIe, or the network). A ring of {@code n} ranks on {@code N} nodes takes its ring steps
 * ({@link Collective#ringSteps}), {@code 2(N-1)} (all_reduce) or {@code N-1} of them across the network; the
 * tree all_reduce takes {@code 2((n/N - 1) x intra + log2(N) x inter)}; NVLS one NVLink SHARP step plus, on several
 * nodes, one network step; NVLS-tree the NVLS step plus {@code 2 log2(N)} network steps. A network step also pays
 * the path's own latency (twice with Simple, which flushes), and a network ring step is at least the proxy's post
 * overhead (1 us on Intel x86, three times with Simple).
 */
public final class NcclTuning {
    private NcclTuning() {
    }

    /** Where a step goes. */
    public enum Hw { NVLINK, PCI, NET }

    /** Base latency, us, [algorithm][protocol LL, LL128, Simple]. */
    private static final double[][] BASE = {
        {6.6, 14.0, 8.4},   // ring
        {6.8, 14.0, 8.4},   // tree
        {0, 0, 0},          // NVLS
        {0, 0, 0},          // NVLS tree
    };

    /** Hardware latency per step, us, [hw][algorithm][protocol]. */
    private static final double[][][] HW = {
        {{0.6, 1.9, 3.4}, {0.6, 1.25, 4.0}, {0, 0, 25}, {0, 0, 25}},      // NVLink
        {{1.0, 2.5, 5.7}, {1.0, 1.9, 4.0}, {0, 0, 0}, {0, 0, 0}},         // PCIe
        {{2.7, 4.0, 14.0}, {5.0, 8.5, 14.0}, {0, 0, 18}, {0, 0, 20.9}},   // network
    };

    /** The network proxy's post overhead on Intel x86, us (AMD: 2). */
    public static final double NET_OVERHEAD_US = 1.0;

    /** A multi-node Simple ring all_reduce past 64 bytes per channel and rank: its latency x 1.4 (Hopper on). */
    public static final double RING_PLATEAU = 1.4;

    /** LL's bandwidth: half the line (a 4-byte flag per 4 bytes of data). */
    public static final double LL_FACTOR = 0.5;
    /** The tree's LL bandwidth share. */
    public static final double TREE_LL_FACTOR = 1.0 / 3.8;
    /** LL128's share on a ring: 120 data bytes of every 128 (0.92 in NCCL's ring model). */
    public static final double RING_LL128_FACTOR = 0.92;
    /** LL128's share on a multi-node tree. */
    public static final double TREE_LL128_FACTOR = 120.0 / 128;
    /** LL128's share on a one-node tree. */
    public static final double TREE_LL128_FACTOR_ONE_NODE = 7.0 / 9;
    /** The tree all_reduce's share of its bandwidth (0.92). */
    public static final double TREE_FACTOR = 0.92;

    /** LL128 per ring channel, GB/s of busbw (Hopper). */
    public static final double RING_LL128_PER_CHANNEL = 36.7;

    /** The most LL carries, GB/s of NCCL's busbw: on one node (Hopper) 141; across nodes (x86 Intel) 39 on 2, 20.4 on more. */
    public static double llMaxBusBw(int nodes) {
        return nodes == 1 ? 141.0 : nodes == 2 ? 39.0 : 20.4;
    }

    /** LL128 per tree channel, GB/s (Hopper): 36.7 up to 2 nodes, 29 beyond. */
    public static double treeLl128PerChannel(int nodes) {
        return nodes <= 2 ? 36.7 : 29.0;
    }

    public static double base(Algorithm a, Protocol p) {
        return BASE[a.ordinal()][p.ordinal()];
    }

    public static double hw(Hw hw, Algorithm a, Protocol p) {
        return HW[hw.ordinal()][a.ordinal()][p.ordinal()];
    }

    /** floor(log2(n)), 0 for n <= 1. */
    public static int log2(int n) {
        return n <= 1 ? 0 : 31 - Integer.numberOfLeadingZeros(n);
    }
}
