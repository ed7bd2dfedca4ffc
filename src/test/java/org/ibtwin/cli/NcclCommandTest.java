package org.ibtwin.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.ibtwin.format.FabricFiles;
import org.ibtwin.gen.GpuCluster;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.LinkSpeed;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ibtwin nccl} and {@code ibtwin gen gpu-fat-tree} as a user runs them. */
class NcclCommandTest extends CliTest {
    @TempDir
    static Path dir;

    /** One 8 x H100 node, two of them, and a classic HDR tree of 8 nodes of 4 GPUs with one NIC each. */
    @BeforeAll
    static void fabrics() throws IOException {
        FabricFiles.write(GpuCluster.build(new GpuCluster.Spec(1, 8, 8, 64, LinkSpeed.NDR, true, "node%03d")),
                dir.resolve("one"));
        FabricFiles.write(GpuCluster.build(new GpuCluster.Spec(2, 8, 8, 64, LinkSpeed.NDR, true, "node%03d")),
                dir.resolve("two"));
        Fabric classic = GpuCluster.build(new GpuCluster.Spec(8, 4, 1, 40, LinkSpeed.HDR, false, "node%03d"));
        FabricFiles.write(classic, dir.resolve("classic"));
    }

    private List<String> lines() {
        return out.toString().lines().toList();
    }

    private String fabric(String name) {
        return dir.resolve(name + ".yaml").toString();
    }

    @Test
    void printsWhatNcclTestsPrintsLineForLine() {
        assertThat(run("nccl", "all_reduce_perf", "-b", "8", "-e", "128", "-f", "2", "--fabric", fabric("one")))
                .isZero();
        List<String> l = lines();
        assertThat(l.get(0)).isEqualTo("# nccl-tests version 2.19.6 nccl-headers=23007 nccl-library=23007");
        assertThat(l.get(1)).isEqualTo("# Collective test starting: all_reduce_perf");
        assertThat(l.get(2)).isEqualTo("# nThread 1 nGpus 8 minBytes 8 maxBytes 128 step: 2(factor) warmup iters: 1 "
                + "iters: 20 agg iters: 1 validation: 1 graph: 0 unalign: 0");
        assertThat(l.get(3)).isEqualTo("#");
        assertThat(l.get(4)).isEqualTo("# Using devices");
        assertThat(l.get(5)).isEqualTo("#  Rank  0 Group  0 Pid   4000 on    node001 device  0 [0000:18:00] "
                + "NVIDIA H100 80GB HBM3");
        assertThat(l.get(12)).startsWith("#  Rank  7 Group  0 Pid   4000 on    node001 device  7 [0000:db:00]");
        assertThat(l.get(13)).isEqualTo("#");
        assertThat(l.get(14)).isEqualTo("#                                                              out-of-place"
                + "                       in-place          ");
        assertThat(l.get(15)).isEqualTo("#       size         count      type   redop    root     time   algbw   busbw"
                + "  #wrong     time   algbw   busbw  #wrong ");
        assertThat(l.get(16)).isEqualTo("#        (B)    (elements)                               (us)  (GB/s)  (GB/s)"
                + "             (us)  (GB/s)  (GB/s)         ");
        List<String> rows = l.subList(17, 22);
        long size = 8;
        for (String row : rows) {
            assertThat(row).hasSize(118).matches(" *" + size + " +" + size / 4 + "     float     sum      -1"
                    + "(  [ 0-9.]{7}  [ 0-9.]{6}  [ 0-9.]{6}       0){2}");
            String[] f = row.trim().split("\\s+");
            assertThat(f[5]).isEqualTo(f[9]);
            double time = Double.parseDouble(f[5]);
            assertThat(Double.parseDouble(f[6])).isCloseTo(size / time / 1000, within(0.006));
            size *= 2;
        }
        assertThat(l.subList(22, l.size())).hasSize(6);
        assertThat(l.get(22)).isEqualTo("# Out of bounds values : 0 OK");
        assertThat(l.get(23)).matches("# Avg bus bandwidth    : [0-9.]+ ");
        assertThat(l.subList(24, 28)).containsExactly("#", "# Collective test concluded: all_reduce_perf", "#", "");
        // the in-process twin, as every tool on it says
        assertThat(err.toString()).isEqualTo("ibtwin: querying the simulated fabric " + fabric("one")
                + " (an in-process twin, not a real fabric)\n");
    }

    /** The routes are the ones ibtwin's SM programmed into the twin, read back through MADs, and say so. */
    @Test
    void routesComeFromTheLftsTheSmProgrammed() throws IOException {
        assertThat(run("nccl", "all_reduce_perf", "-b", "1G", "-e", "1G", "--fabric", fabric("classic"), "--why"))
                .isZero();
        assertThat(out.toString()).containsPattern("# ibtwin: 8 nodes x 4 GPUs = 32 ranks, 1 NIC per node, 2 "
                + "channels; routes: from the live LFTs of the in-process twin of " + java.util.regex.Pattern.quote(
                fabric("classic")) + " \\([1-9][0-9]* LFT blocks read\\)\n").doesNotContain("min-hop");
        out.getBuffer().setLength(0);
        assertThat(run("nccl", "all_reduce_perf", "-b", "1G", "-e", "1G", "--fabric", fabric("classic"), "--json"))
                .isZero();
        JsonNode ib = new ObjectMapper().readTree(out.toString()).get("ibtwin");
        assertThat(ib.get("fabric").asText()).isEqualTo(fabric("classic"));
        assertThat(ib.get("routes").asText()).startsWith("from the live LFTs of the in-process twin of ");
    }

    /** Nothing listening where --ibsim points: one line, exit 1, as the perftest tools say it. */
    @Test
    void aFabricThatCannotBeReadIsOneLine() {
        assertThat(run("nccl", "all_reduce_perf", "--ibsim", "127.0.0.1:24199", "--facts", fabric("two")))
                .isEqualTo(1);
        assertThat(err.toString()).isEqualTo("ibtwin nccl: cannot read ibsim at 127.0.0.1:24199: no ibsim listening "
                + "at 127.0.0.1:24199\n");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void sizesCountsRootsAndBusFactorsAsEachTestCountsThem() {
        assertThat(run("nccl", "all_gather_perf", "-b", "1M", "-e", "1M", "--fabric", fabric("two"))).isZero();
        String[] ag = row(lines());
        // 16 ranks: 262144 floats / 16 per rank = 16384, the whole array printed
        assertThat(ag[0]).isEqualTo("1048576");
        assertThat(ag[1]).isEqualTo("16384");
        assertThat(ag[3]).isEqualTo("none");
        assertThat(ag[4]).isEqualTo("-1");
        assertThat(Double.parseDouble(ag[7])).isCloseTo(Double.parseDouble(ag[6]) * 15 / 16, within(0.02));

        out.getBuffer().setLength(0);
        assertThat(run("nccl", "broadcast_perf", "-b", "64M", "-e", "64M", "-d", "half", "--fabric", fabric("two")))
                .isZero();
        String[] bc = row(lines());
        assertThat(bc).startsWith("67108864", "33554432", "half", "none", "0");
        assertThat(bc[7]).isEqualTo(bc[6]);

        out.getBuffer().setLength(0);
        assertThat(run("nccl", "sendrecv_perf", "-b", "1G", "-e", "1G", "--fabric", fabric("two"), "--why")).isZero();
        String[] sr = row(lines());
        assertThat(sr[3]).isEqualTo("sum");
        // across the two nodes one NIC pair carries it: about one NDR NIC
        assertThat(Double.parseDouble(sr[7])).isCloseTo(46.9, within(1.5));
        assertThat(out.toString()).contains("# ibtwin:   1073741824  P2P/Simple  link:");
    }

    private static String[] row(List<String> lines) {
        return lines.stream().filter(s -> !s.startsWith("#") && !s.isBlank()).findFirst().orElseThrow().trim()
                .split("\\s+");
    }

    @Test
    void jsonWhyAndPlot() throws IOException {
        Path svg = dir.resolve("plots/busbw.svg");
        Files.createDirectories(svg.getParent());   // an output directory is not created for you
        assertThat(run("nccl", "all_reduce_perf", "-b", "8", "-e", "8G", "-f", "4", "--fabric", fabric("two"),
                "--json", "--plot", svg.toString())).isZero();
        JsonNode j = new ObjectMapper().readTree(out.toString());
        assertThat(j.get("results")).hasSize(16);
        JsonNode last = j.get("results").get(15);
        assertThat(last.get("size").asLong()).isEqualTo(8L << 30);
        assertThat(last.get("algorithm").asText()).isEqualTo("NVLSTree");
        assertThat(last.get("out_of_place").get("bus_bw").asDouble()).isBetween(424.0, 540.0);
        assertThat(j.get("ibtwin").get("ranks").asInt()).isEqualTo(16);
        assertThat(Files.readString(svg, StandardCharsets.UTF_8)).startsWith("<?xml").contains("busbw [GB/s]");

        out.getBuffer().setLength(0);
        assertThat(run("nccl", "all_reduce_perf", "-b", "8", "-e", "8G", "-f", "1024", "--fabric", fabric("one"),
                "--algo", "ring", "--why")).isZero();
        assertThat(out.toString())
                .contains("# ibtwin: 1 node x 8 GPUs = 8 ranks, 8 NICs per node, 16 channels")
                .contains("# ibtwin:            8  Ring/LL  latency:")
                .contains("# ibtwin:   8589934592  Ring/Simple  nvlink: NVLink of node001 GPU");
    }

    @Test
    void descriptionFaultsMoveTheCommandsNumbers() throws IOException {
        assertThat(run("nccl", "all_reduce_perf", "-b", "1G", "-e", "1G", "--algo", "ring", "--fabric",
                fabric("classic"))).isZero();
        double healthy = Double.parseDouble(row(lines())[7]);
        Path yaml = dir.resolve("classic.yaml");
        Path slow = dir.resolve("slow.yaml");
        Files.writeString(slow, Files.readString(yaml) + "hosts:\n  - match: node005\n    pcie: gen3 x8\n");
        out.getBuffer().setLength(0);
        assertThat(run("nccl", "all_reduce_perf", "-b", "1G", "-e", "1G", "--algo", "ring", "--fabric",
                slow.toString(), "--why")).isZero();
        assertThat(Double.parseDouble(row(lines())[7])).isLessThan(healthy * 0.3);
        assertThat(out.toString()).contains("nic-pcie: PCIe Gen3 x8 of node005 mlx5_0");

        Path off = dir.resolve("off.yaml");
        Files.writeString(off, Files.readString(yaml) + "hosts:\n  - match: \"node*\"\n    gpudirect: false\n");
        out.getBuffer().setLength(0);
        assertThat(run("nccl", "all_reduce_perf", "-b", "1G", "-e", "1G", "--algo", "ring", "--fabric",
                off.toString(), "--why")).isZero();
        assertThat(Double.parseDouble(row(lines())[7])).isLessThan(healthy);
        assertThat(out.toString()).contains("host-bounce: the host bounce at node");
    }

    @Test
    void badInputIsOneLineAndExitTwo() {
        String[][] bad = {
            {"nccl", "allreduce_perf", "--fabric", fabric("one")},
            {"nccl", "all_reduce_perf", "-b", "lots", "--fabric", fabric("one")},
            {"nccl", "all_reduce_perf", "-b", "1G", "-e", "1M", "--fabric", fabric("one")},
            {"nccl", "all_reduce_perf", "--nodes", "3", "--fabric", fabric("two")},
            {"nccl", "all_reduce_perf", "--hosts", "node009", "--fabric", fabric("two")},
            {"nccl", "all_reduce_perf", "-g", "9", "--fabric", fabric("two")},
            {"nccl", "all_gather_perf", "--algo", "tree", "--fabric", fabric("two")},
            {"nccl", "all_reduce_perf", "--algo", "butterfly", "--fabric", fabric("two")},
            {"nccl", "all_reduce_perf", "--proto", "ll64", "--fabric", fabric("two")},
            {"nccl", "all_reduce_perf", "-d", "float128", "--fabric", fabric("two")},
            {"nccl", "all_reduce_perf", "--plot", "x.pdf", "--fabric", fabric("two")},
            {"nccl", "all_reduce_perf", "--fabric", dir.resolve("missing.yaml").toString()},
            {"nccl", "all_reduce_perf"},
            {"nccl", "all_reduce_perf", "--bogus"},
            {"nccl", "all_reduce_perf", "--ibsim", "127.0.0.1:24199", "--fabric", fabric("two")},
            {"nccl", "all_reduce_perf", "--ibsim", "127.0.0.1:24199", "--facts", dir.resolve("none.yaml").toString()},
            {"gen", "gpu-fat-tree", "--nodes", "4", "--gpus", "6", "-o", dir.resolve("x").toString()},
            {"gen", "gpu-fat-tree", "--nodes", "4", "--layout", "ring", "-o", dir.resolve("x").toString()},
            {"gen", "gpu-fat-tree", "--speed", "NDR", "--nodes", "1025", "-o", dir.resolve("x").toString()},
        };
        for (String[] args : bad) {
            out.getBuffer().setLength(0);
            err.getBuffer().setLength(0);
            assertThat(run(args)).as(String.join(" ", args)).isEqualTo(2);
            assertThat(err.toString().lines().toList()).as(String.join(" ", args)).hasSize(1);
            assertThat(err.toString()).as(String.join(" ", args)).startsWith("ibtwin ").doesNotContain("Exception");
        }
    }

    @Test
    void genGpuFatTreeWritesARailOptimisedFabricTheCommandReads() throws IOException {
        Path prefix = Files.createDirectories(dir.resolve("rail")).resolve("su2");
        assertThat(run("gen", "gpu-fat-tree", "--speed", "NDR", "--nodes", "64", "-o", prefix.toString())).isZero();
        assertThat(out.toString()).startsWith("gpu-fat-tree: 64 nodes of 8 GPUs and 8 NICs, rail-optimised in 2 "
                + "scalable units of 32, radix 64, NDR: 512 hosts, 24 switches, 1024 links");
        out.getBuffer().setLength(0);
        assertThat(run("nccl", "all_reduce_perf", "-b", "8G", "-e", "8G", "--algo", "ring", "--nodes", "8",
                "--fabric", prefix + ".yaml")).isZero();
        assertThat(Double.parseDouble(row(lines())[7]) / 8).isBetween(43.0, 51.0);
    }
}
