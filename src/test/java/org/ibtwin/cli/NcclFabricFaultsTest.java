package org.ibtwin.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.ibtwin.format.FabricFiles;
import org.ibtwin.gen.GpuCluster;
import org.ibtwin.interop.RemoteIbsim;
import org.ibtwin.lab.Lab;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.LinkWidth;
import org.ibtwin.model.Node;
import org.ibtwin.model.PcieGen;
import org.ibtwin.perf.Headers;
import org.ibtwin.perf.Op;
import org.ibtwin.perf.Pcie;
import org.ibtwin.perf.PerfParams;
import org.ibtwin.perf.Transport;
import org.ibtwin.perf.collective.CollectiveParams;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The acceptance's faults, end to end: the twin of a GPU fabric brought up by ibtwin's SM and served on its ibsim
 * endpoint, {@code ibtwin nccl --ibsim ...} reading it through MADs (every ring edge on the routes the LFTs hold),
 * the fault made where it is made on a real cluster (a host's slot or its GPUDirect setting in the description of
 * the hosts, a spine pulled in the console and the SM sweeping again). The expected figures are derived here from
 * the model's documented constants, not taken from its output. Ports 24100..24140.
 *
 * <p>The fabric: 8 nodes of 4 GPUs with one 4xHDR NIC (Gen4 x16) on a classic 2-level tree of radix-4 switches:
 * 4 leaves of 2 hosts, each leaf with one uplink to each of 2 spines.
 */
public class NcclFabricFaultsTest {
    private static final int FIRST_PORT = 24100;
    private static final int LAST_PORT = 24140;
    /** Every ring edge leaves its leaf: host j of leaf L sends to host j of leaf L+1. */
    private static final String CROSS = "node001,node003,node005,node007,node002,node004,node006,node008";

    @TempDir
    static Path dir;
    static String yaml;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @BeforeAll
    static void fabric() throws Exception {
        FabricFiles.write(GpuCluster.build(new GpuCluster.Spec(8, 4, 1, 4, LinkSpeed.HDR, false, "node%03d")),
                dir.resolve("tree"));
        yaml = dir.resolve("tree.yaml").toString();
    }

    /**
     * What one ring flow moves when a 4xHDR link is all it has: the link's data rate at the link efficiency, less
     * the packet headers of NCCL's 128 KiB RDMA writes at a 4096 B MTU, at NCCL's network efficiency. A ring
     * all_reduce's busbw is its edges' rate (each edge carries 2(n-1)/n of the buffer).
     */
    public static double hdrLinkBusbw() {
        PerfParams p = PerfParams.DEFAULT;
        CollectiveParams c = CollectiveParams.DEFAULT;
        return org.ibtwin.model.Link.dataGbps(LinkWidth.X4, LinkSpeed.HDR) * p.linkEfficiency() / 8
                * Headers.efficiency(Op.WRITE, Transport.RC, c.chunkBytes(), 4096, false) * c.netEfficiency();
    }

    /**
     * What a NIC's PCIe slot lets a ring flow move, GB/s: the slot's usable rate, less the TLP headers of the
     * posted writes the receiving NIC makes into memory ({@code max_payload} 256 B), at NCCL's network efficiency;
     * {@code crossings} 2 without GPUDirect RDMA (GPU to host memory, host memory to NIC: every byte twice).
     */
    static double slotBusbw(PcieGen gen, int lanes, int crossings) {
        PerfParams p = PerfParams.DEFAULT;
        CollectiveParams c = CollectiveParams.DEFAULT;
        double tlp = Pcie.wireBytes(c.chunkBytes(), 256, p.tlpWriteOverhead()) / (double) c.chunkBytes();
        return Pcie.usableGbps(gen, lanes, p) / 8 * c.netEfficiency() / (tlp * crossings);
    }

    /** all_reduce_perf at 8 GiB, ring. */
    private int nccl(int port, String facts, String... more) {
        return ncclAt("8G", port, facts, more);
    }

    private int ncclAt(String size, int port, String facts, String... more) {
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        List<String> args = new ArrayList<>(List.of("nccl", "all_reduce_perf", "-b", size, "-e", size, "--algo",
                "ring", "--why", "--ibsim", "127.0.0.1:" + port, "--facts", facts));
        args.addAll(List.of(more));
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args.toArray(String[]::new));
    }

    /** The 8 GiB row's out-of-place busbw. */
    private double busbw() {
        for (String l : out.toString().split("\n")) {
            if (!l.startsWith("#") && !l.isBlank()) {
                return Double.parseDouble(l.trim().split("\\s+")[7]);
            }
        }
        throw new AssertionError("no row in\n" + out);
    }

    private String row() {
        return out.toString().lines().filter(l -> !l.startsWith("#") && !l.isBlank()).findFirst().orElseThrow();
    }

    private String why() {
        return out.toString().lines().filter(l -> l.startsWith("# ibtwin:   8589934592")).findFirst().orElseThrow();
    }

    private static Lab served(Fabric f, int[] port) throws Exception {
        return served(Lab.of(f).start(), true, port);
    }

    private static Lab served(Lab lab, boolean bringUp, int[] port) throws Exception {
        try {
            if (bringUp) {
                assertThat(lab.bringUp().subnetUp()).isTrue();
            }
            for (int attempt = 0; ; attempt++) {
                try {
                    port[0] = RemoteIbsim.freeRange(FIRST_PORT, LAST_PORT);
                    lab.serve(null, port[0], Duration.ZERO);
                    return lab;
                } catch (IllegalArgumentException | java.io.IOException e) {
                    if (attempt >= 8) {
                        throw e;
                    }
                }
            }
        } catch (Exception | Error e) {
            lab.close();
            throw e;
        }
    }

    @Test
    void aFailedSpineHalvesTheRingThatCrossesItsLeavesAndSparesTheJobOnOneLeaf() throws Exception {
        Fabric f = FabricFiles.load(yaml);
        int[] port = new int[1];
        try (Lab lab = served(f, port)) {
            // healthy: the host links are the limit, for the ring in node order (4 of its 8 edges leave a leaf)
            // and for the one whose every edge leaves its leaf: the SM spread each leaf's two flows over its two
            // uplinks
            assertThat(nccl(port[0], yaml)).as(err.toString()).isZero();
            assertThat(out.toString()).contains("routes: from the live LFTs of ibsim at 127.0.0.1:" + port[0] + " (");
            assertThat(busbw()).isCloseTo(hdrLinkBusbw(), within(hdrLinkBusbw() * 0.003));
            assertThat(nccl(port[0], yaml, "--hosts", CROSS)).as(err.toString()).isZero();
            double healthy = busbw();
            assertThat(healthy).isCloseTo(hdrLinkBusbw(), within(hdrLinkBusbw() * 0.003));
            assertThat(nccl(port[0], yaml, "--hosts", "node001,node002")).isZero();
            String leafJob = row();

            // spine02 fails: every one of its cables pulled in the console
            String spine02 = f.switches().stream().filter(n -> "spine02".equals(n.description())).findFirst()
                    .map(Node::name).orElseThrow();
            StringWriter console = new StringWriter();
            assertThat(lab.console(new PrintWriter(console, true)).execute("Unlink \"" + spine02 + "\"")).isTrue();
            assertThat(console.toString()).contains("unlinked 4 ports of \"" + spine02 + "\"");

            // before the SM sweeps, the tables still send half the flows into the dead spine
            assertThat(nccl(port[0], yaml, "--hosts", CROSS)).isEqualTo(1);
            assertThat(err.toString()).matches("ibtwin nccl: no route from node00\\d/1 to node00\\d/1: it stops at "
                    + "leaf0\\d/\\d, its link is down \\(routes: from the live LFTs of ibsim at 127\\.0\\.0\\.1:"
                    + port[0] + " \\(\\d+ LFT blocks read\\)\\): NCCL cannot connect the ranks\n");

            // the SM re-routes over spine01: each leaf keeps 1 of its 2 uplinks for its 2 flows
            assertThat(lab.sm().sweep().subnetUp()).isTrue();
            assertThat(nccl(port[0], yaml, "--hosts", CROSS)).as(err.toString()).isZero();
            assertThat(busbw()).isCloseTo(healthy * 1 / 2, within(healthy * 0.005));
            assertThat(why()).contains("Ring/Simple  link: link ").contains("spine01").contains("shared by 2 flows");

            // the job on leaf01 never leaves it: the same row, figure for figure
            assertThat(nccl(port[0], yaml, "--hosts", "node001,node002")).isZero();
            assertThat(row()).isEqualTo(leafJob);
        }
    }

    @Test
    void oneHostsGen3X8SlotDragsTheWholeRingDownToItAndGpuDirectOffHalvesTheLargeSizes() throws Exception {
        Fabric f = FabricFiles.load(yaml);
        Path slow = dir.resolve("slow.yaml");
        Files.writeString(slow, Files.readString(Path.of(yaml)) + "hosts:\n  - match: node005\n    pcie: gen3 x8\n");
        Path off = dir.resolve("off.yaml");
        Files.writeString(off, Files.readString(Path.of(yaml)) + "hosts:\n  - match: \"node*\"\n"
                + "    gpudirect: false\n");
        int[] port = new int[1];
        Lab lab = served(f, port);
        try (lab) {
            assertThat(nccl(port[0], yaml)).isZero();
            double healthy = busbw();
            // Gen4 x16 slots carry more than the 4xHDR link: the link is the limit
            assertThat(slotBusbw(PcieGen.GEN4, 16, 1)).isGreaterThan(hdrLinkBusbw());
            assertThat(healthy).isCloseTo(hdrLinkBusbw(), within(hdrLinkBusbw() * 0.003));

            assertThat(nccl(port[0], slow.toString())).as(err.toString()).isZero();
            assertThat(busbw()).isCloseTo(slotBusbw(PcieGen.GEN3, 8, 1), within(slotBusbw(PcieGen.GEN3, 8, 1)
                    * 0.003));
            assertThat(why()).contains("nic-pcie: PCIe Gen3 x8 of node005 mlx5_0");

            assertThat(nccl(port[0], off.toString())).as(err.toString()).isZero();
            double bounce = slotBusbw(PcieGen.GEN4, 16, 2);
            assertThat(bounce).isLessThan(hdrLinkBusbw());
            assertThat(busbw()).isCloseTo(bounce, within(bounce * 0.003));
            assertThat(why()).contains("host-bounce: the host bounce at node").contains("GPUDirect RDMA off");
            // small sizes pay only the bounce's latency, not half the bandwidth
            assertThat(ncclAt("8", port[0], off.toString())).isZero();
            double smallOff = Double.parseDouble(row().trim().split("\\s+")[5]);
            assertThat(ncclAt("8", port[0], yaml)).isZero();
            double smallOn = Double.parseDouble(row().trim().split("\\s+")[5]);
            assertThat(smallOff).isGreaterThan(smallOn).isLessThan(smallOn * 1.5);
        }
    }

    /** No SM has routed the fabric: the model's own min-hop routes, said on stderr and in --why. */
    @Test
    void aFabricNoSmHasRoutedSaysItsRoutesAreTheModelsOwn() throws Exception {
        int[] port = new int[1];
        Lab lab = served(Lab.of(FabricFiles.load(yaml)).noSm().start(), false, port);
        try (lab) {
            assertThat(nccl(port[0], yaml)).as(err.toString()).isZero();
            assertThat(err.toString()).isEqualTo("ibtwin nccl: model min-hop: no SM has routed this fabric\n");
            assertThat(out.toString()).contains("; routes: model min-hop: no SM has routed this fabric\n");
            assertThat(busbw()).isCloseTo(hdrLinkBusbw(), within(hdrLinkBusbw() * 0.003));

            // without --facts the GPUs are nowhere: MADs do not carry them
            out.getBuffer().setLength(0);
            err.getBuffer().setLength(0);
            assertThat(Cli.executeAfresh(out, err, "nccl", "all_reduce_perf", "--ibsim", "127.0.0.1:" + port[0]))
                    .isEqualTo(2);
            assertThat(err.toString()).endsWith("no GPU hosts: MADs do not tell GPUs, so name the fabric's "
                    + "description with --facts (hosts with 'gpu: true', as ibtwin gen gpu-fat-tree writes)\n");
            assertThat(err.toString().lines()).hasSize(2);   // the min-hop line, then this one
        }
    }
}
