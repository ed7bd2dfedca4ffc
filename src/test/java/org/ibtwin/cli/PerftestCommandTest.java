package org.ibtwin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.awt.image.BufferedImage;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import javax.xml.parsers.DocumentBuilderFactory;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Mtu;
import org.ibtwin.model.Node;
import org.ibtwin.model.Port;
import org.ibtwin.perf.PerftestReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/** The perftest tools, ipoib, perf all-to-all and bench perf, as a user runs them. */
class PerftestCommandTest extends CliTest {
    private List<String> lines() {
        return out.toString().lines().toList();
    }

    private static final String RULE = "-".repeat(87);

    /** What every run on the built-in fabric says first on stderr. */
    private static final String NOTICE = "ibtwin: no HCA here: querying the simulated fabric default (built-in)\n";

    // ------------------------------------------------------------------------------------------ formats

    @Test
    void rowsUsePerftestsColumnFormats() {
        assertThat(PerftestReport.bwRow(65536, 5000, 11725.43, 11722.88, 0.187566, false))
                .isEqualTo(" 65536      5000             11725.43            11722.88\t\t   0.187566\n");
        assertThat(PerftestReport.bwRow(8388608, 5000, 196.79, 196.75, 0.002932, true))
                .isEqualTo(" 8388608    5000             196.79             196.75 \t\t   0.002932\n");
        // below 0.1 Gb/s perftest switches to six decimals and another layout
        assertThat(PerftestReport.bwRow(2, 5000, 0.0408, 0.04, 2.5, true))
                .isEqualTo(" 2          5000           0.040800            0.040000            2.500000\n");
        assertThat(PerftestReport.latRow(2, 1000, 0.98, 3.12, 1.01, 1.03, 0.06, 1.06, 1.36))
                .isEqualTo(" 2       1000          0.98           3.12         1.01     \t       1.03        \t0.06   "
                        + "\t\t1.06    \t\t1.36   \n");
        assertThat(PerftestReport.latDurationRow(2, 2999000, 1.03, 485436.89))
                .isEqualTo(" 2             2999000            1.03           485436.89\n");
        assertThat(PerftestReport.bwHeader(false)).isEqualTo(RULE + "\n"
                + " #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]\n");
        assertThat(PerftestReport.latHeader(false)).isEqualTo(RULE + "\n"
                + " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    "
                + "t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] \n");
        // C's %#04x and friends: a zero has no 0x
        assertThat(PerftestReport.altHex(3, 4)).isEqualTo("0x03");
        assertThat(PerftestReport.altHex(0, 4)).isEqualTo("0000");
        assertThat(PerftestReport.altHex(0x1234, 4)).isEqualTo("0x1234");
        assertThat(PerftestReport.altHex(0x107, 6)).isEqualTo("0x0107");
        assertThat(PerftestReport.altHex(0x7f1a2c5f9000L, 16)).isEqualTo("0x007f1a2c5f9000");
    }

    @Test
    void writeBwPrintsPerftestsLayout() {
        assertThat(run("ib_write_bw", "node001", "node002")).isZero();
        List<String> l = lines();
        assertThat(l.subList(0, 15)).containsExactly(
                RULE,
                "                    RDMA_Write BW Test",
                " Dual-port       : OFF\t\tDevice         : mlx5_0",
                " Number of qps   : 1\t\tTransport type : IB",
                " Connection type : RC\t\tUsing SRQ      : OFF",
                " PCIe relax order: ON",
                " ibv_wr* API     : ON",
                " TX depth        : 128",
                " CQ Moderation   : 1",
                " Mtu             : 4096[B]",
                " Link type       : IB",
                " Max inline data : 0[B]",
                " rdma_cm QPs\t : OFF",
                " Data ex. method : Ethernet",
                RULE);
        // node002 is the client (local): LIDs in sweep order, 5 switches first
        assertThat(l.get(15)).matches(" local address: LID 0x07 QPN 0x[0-9a-f]{4} PSN 0x[0-9a-f]{6} "
                + "RKey 0x[0-9a-f]{6} VAddr 0x007f[0-9a-f]{10}");
        assertThat(l.get(16)).matches(" remote address: LID 0x06 QPN 0x[0-9a-f]{4} PSN 0x[0-9a-f]{6} "
                + "RKey 0x[0-9a-f]{6} VAddr 0x007f[0-9a-f]{10}");
        assertThat(l.get(17)).isEqualTo(RULE);
        assertThat(l.get(18)).isEqualTo(PerftestReport.RESULT_FMT);
        assertThat(l.get(19)).matches(" 65536      5000             2345\\d\\.\\d\\d            2344\\d\\.\\d\\d\t\t   0\\.375\\d{3}");
        assertThat(l.get(20)).isEqualTo(RULE);
        assertThat(l).hasSize(21);
        assertThat(err.toString()).isEqualTo(NOTICE);
        String first = out.toString();
        run("ib_write_bw", "node001", "node002");
        assertThat(out.toString()).as("deterministic").isEqualTo(first);
    }

    @Test
    void latencyAndReadHeaders() {
        assertThat(run("ib_read_lat", "node001 mlx5_0", "H-0002c90300000004")).isZero();
        List<String> l = lines();
        assertThat(l.get(1)).isEqualTo("                    RDMA_Read Latency Test");
        assertThat(l).contains(" TX depth        : 1", " Outstand reads  : 16").doesNotContain(" CQ Moderation   : 1");
        // no CQ Moderation line in latency tests: the addresses come one line earlier
        assertThat(l.get(14)).matches(" local address: LID 0x07 QPN 0x[0-9a-f]{4} PSN 0x[0-9a-f]{6} OUT 0x10 "
                + "RKey 0x[0-9a-f]{6} VAddr 0x007f[0-9a-f]{10}");
        assertThat(l.get(17)).isEqualTo(PerftestReport.RESULT_FMT_LAT);
        assertThat(l.get(18)).startsWith(" 2       1000          ");
        assertThat(run("ib_send_lat", "node001", "node002", "-c", "UD")).isZero();
        assertThat(lines()).contains(" Connection type : UD\t\tUsing SRQ      : OFF", " Max inline data : 188[B]");
        assertThat(lines().get(14)).matches(" local address: LID 0x07 QPN 0x[0-9a-f]{4} PSN 0x[0-9a-f]{6}");
        assertThat(run("ib_atomic_bw", "node001", "node002", "-A", "CMP_AND_SWAP")).isZero();
        assertThat(lines().get(1)).isEqualTo("                    Atomic CMP_AND_SWAP BW Test");
        assertThat(lines().get(19)).startsWith(" 8          1000      ");
        assertThat(run("ib_send_bw", "node001", "node002", "-b", "--report_gbits")).isZero();
        assertThat(lines()).contains("                    Send Bidirectional BW Test", " RX depth        : 512",
                PerftestReport.RESULT_FMT_G);
    }

    @Test
    void allSizesTheWhyAndThePlots(@TempDir Path dir) throws Exception {
        Path png = dir.resolve("bw.png");
        assertThat(run("ib_write_bw", "node001", "node002", "-a", "--report_gbits", "--why", "--plot",
                png.toString())).isZero();
        List<String> l = lines();
        int header = l.indexOf(PerftestReport.RESULT_FMT_G);
        assertThat(l.subList(header + 1, header + 24)).extracting(s -> s.trim().split("\\s+")[0])
                .containsExactly("2", "4", "8", "16", "32", "64", "128", "256", "512", "1024", "2048", "4096",
                        "8192", "16384", "32768", "65536", "131072", "262144", "524288", "1048576", "2097152",
                        "4194304", "8388608");
        assertThat(l.get(header + 24)).isEqualTo(RULE);
        assertThat(l).contains("# ibtwin: 2: limited by message rate: 1 QP (≈ 2.50 Mpps per QP on ConnectX-6)");
        assertThat(l.get(l.size() - 1)).startsWith("# ibtwin: 8388608: limited by link ");
        BufferedImage img = ImageIO.read(png.toFile());
        assertThat(img.getWidth()).isEqualTo(Plot.WIDTH);
        assertThat(img.getHeight()).isEqualTo(Plot.HEIGHT);
        Path svg = dir.resolve("lat.svg");
        assertThat(run("ib_send_lat", "node001", "node002", "-a", "--plot", svg.toString())).isZero();
        var doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(svg.toFile());
        assertThat(doc.getDocumentElement().getTagName()).isEqualTo("svg");
        assertThat(doc.getElementsByTagName("circle").getLength()).isEqualTo(23);
    }

    @Test
    void outJsonIsValidJson(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("r.json");
        assertThat(run("ib_write_bw", "--out_json", file.toString(), "node001", "node017", "--report_gbits")).isZero();
        JsonNode j = new ObjectMapper().readTree(Files.readString(file));
        assertThat(j.get("test_info").get("test").asText()).isEqualTo("RDMA_Write_BW_Test");
        assertThat(j.get("test_info").get("Mtu").asInt()).isEqualTo(4096);
        assertThat(j.get("results").get("MsgSize").asLong()).isEqualTo(65536);
        assertThat(j.get("results").get("BW_average").asDouble()).isBetween(48.0, 52.0);
        assertThat(j.get("results").get("limited_by").asText()).startsWith("limited by PCIe Gen3 x8 at node017");
        Path lat = dir.resolve("lat.json");
        assertThat(run("ib_write_lat", "node001", "node002", "-a", "--out_json_file=" + lat, "--out_json")).isZero();
        JsonNode l = new ObjectMapper().readTree(Files.readString(lat));
        assertThat(l.get("results")).hasSize(23);
        assertThat(l.get("results").get(0).get("t_typical").asDouble()).isBetween(0.8, 1.2);
    }

    @Test
    void faultsShowInTheFigures() {
        assertThat(run("ib_write_bw", "node001", "node002", "--report_gbits")).isZero();
        double healthy = gbits();
        assertThat(run("ib_write_bw", "node001", "node002", "--report_gbits", "--numa", "far", "--why")).isZero();
        assertThat(gbits()).isLessThan(healthy * 0.9);
        assertThat(out.toString()).contains("far NUMA node");
        assertThat(run("ib_write_bw", "node001", "node002", "--report_gbits", "-m", "2048")).isZero();
        assertThat(gbits()).isLessThan(healthy).isGreaterThan(healthy * 0.98);
        assertThat(lines()).contains(" Mtu             : 2048[B]");
        // T04: the SM's LFTs send traffic into node027 down spine01/17, the uplink that trained at 4xDDR
        assertThat(run("ib_write_bw", "node027", "node001", "--report_gbits", "--why")).isZero();
        assertThat(gbits()).isLessThan(16);
        assertThat(lines().get(lines().size() - 1))
                .isEqualTo("# ibtwin: limited by link leaf02/33 <-> spine01/17 at 4xDDR (≈ 15.7 Gb/s of payload)");
        // T07: node017's Gen3 x8 slot
        assertThat(run("ib_write_bw", "node001", "node017", "--report_gbits", "--why")).isZero();
        assertThat(gbits()).isBetween(48.0, 52.0);
        assertThat(lines().get(lines().size() - 1)).startsWith("# ibtwin: limited by PCIe Gen3 x8 at node017 (55.5 Gb/s usable; ≈ 5");
        // T18: one QP cannot fill the link with small messages; more QPs can
        assertThat(run("ib_write_bw", "node001", "node002", "-s", "4096", "--report_gbits")).isZero();
        double one = gbits(" 4096 ");
        assertThat(run("ib_write_bw", "node001", "node002", "-s", "4096", "-q", "8", "--report_gbits")).isZero();
        assertThat(gbits(" 4096 ")).isGreaterThan(2 * one);
        assertThat(lines()).anyMatch(l -> l.startsWith(" 4096       40000 "));
    }

    private double gbits() {
        return gbits(" 65536 ");
    }

    private double gbits(String row) {
        for (String l : lines()) {
            if (l.startsWith(row)) {
                return Double.parseDouble(l.trim().split("\\s+")[3]);
            }
        }
        throw new AssertionError("no 65536 row in\n" + out);
    }

    @Test
    void durationAndMtuNotices() {
        assertThat(run("ib_write_bw", "node001", "node002", "-D", "4")).isZero();
        String row = lines().get(19);
        String[] f = row.trim().split("\\s+");
        assertThat(f[0]).isEqualTo("65536");
        assertThat(Long.parseLong(f[1])).isBetween(700_000L, 800_000L);
        assertThat(f[2]).isEqualTo("0.00");
        assertThat(run("ib_send_bw", "node001", "node002", "-c", "UD")).isZero();
        assertThat(err.toString()).isEqualTo(NOTICE + " Max msg size in UD is MTU 4096\n Changing to this MTU\n");
        assertThat(lines().get(19)).startsWith(" 4096 ");
        assertThat(run("ib_write_lat", "node001", "node002", "-D", "2")).isZero();
        assertThat(lines()).contains(PerftestReport.RESULT_FMT_LAT_DUR);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "ib_write_bw node001 node999|ibtwin ib_write_bw: unknown host \"node999\" (hosts are named like node001)",
        "ib_read_lat node999 node001|ibtwin ib_read_lat: unknown host \"node999\" (hosts are named like node001)",
        "ib_write_bw node001 node002 -d mlx5_1|ibtwin ib_write_bw: -d: node002 has no device mlx5_1 (it has mlx5_0)",
        "ipoib node001 nodeX|ibtwin ipoib: unknown host \"nodeX\" (hosts are named like node001)",
        "perf all-to-all --pairs 0|ibtwin perf all-to-all: pairs must be 1..60, got 0",
        "ib_write_bw node001 node002 -s abc|ibtwin ib_write_bw: -s: Message Size should be between 1 and 2147483647, got 'abc'",
        "ib_write_bw node001 node002 -s 0|ibtwin ib_write_bw: -s: Message Size should be between 1 and 2147483647, got '0'",
        "ib_write_bw node001 node002 -q 0|ibtwin ib_write_bw: -q must be 1..16384, got 0",
        "ib_write_bw node001 node002 -m 3000|ibtwin ib_write_bw: -m: Invalid MTU - 3000 (choose from {256,512,1024,2048,4096})",
        "ib_write_bw node001 node002 -c XRC|ibtwin ib_write_bw: -c: connection type must be RC, UC or UD, got 'XRC' (XRC, DC and SRD are not modelled)",
        "ib_write_bw node001 node002 -c UD|ibtwin ib_write_bw: -c UD: RDMA_Write does not run over UD",
        "ib_write_bw node001 node002 -n 4|ibtwin ib_write_bw: -n must be 5..100000000, got 4",
        "ib_write_bw node001|ibtwin ib_write_bw: name the server host and the client host, as in: ib_write_bw node001 node002",
        "ib_write_bw node001 node002 --plot x.svg|ibtwin ib_write_bw: --plot draws a curve over message sizes: add -a",
        "ib_write_bw node001 node002 -a -D 3|ibtwin ib_write_bw: Duration mode currently doesn't support running on all sizes.",
        "ib_write_bw node001 node002 --numa middle|ibtwin ib_write_bw: --numa must be near or far, got 'middle'",
        "ib_read_bw node001 node002 -I 64|ibtwin ib_read_bw: Inline feature not available on READ/Atomic verbs",
        "ib_atomic_bw node001 node002 -s 16|ibtwin ib_atomic_bw: Message size cannot be changed for Atomic tests",
        "ib_write_lat node001 node002 -q 2|ibtwin ib_write_lat: -q is an option of the bandwidth tests",
        "ib_send_lat node001 node002 -c UD -s 8192|ibtwin ib_send_lat: Max message size in UD cannot be greater than MTU (4096)",
        "ib_write_bw node001 node002 --fabric /nonexistent.topo|ibtwin ib_write_bw: /nonexistent.topo: no such file",
    })
    void badInputIsOneLineAndExitTwo(String args, String message) {
        assertThat(run(args.split(" "))).as(args).isEqualTo(2);
        // the message alone: the options are checked before any fabric is attached, and what only the fabric
        // can tell (a host, a device) before the simulated-fabric notice
        assertThat(err.toString()).isEqualTo(message + "\n");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void unknownOptionsAreOneLineToo() {
        assertThat(run("ib_write_bw", "node001", "node002", "--colour")).isEqualTo(2);
        assertThat(err.toString().lines().count()).isEqualTo(1);
        assertThat(err.toString()).startsWith("ibtwin ib_write_bw: Unknown option: '--colour'");
        assertThat(run("ib_write_bw", "-q")).isEqualTo(2);
        assertThat(err.toString().lines().count()).isEqualTo(1);
    }

    /** T13: a switch port capped at 2048 between hosts at 4096: RC retries run out, as on real hardware. */
    @Test
    void aPathMtuBelowTheHostsFailsLikeRealHardware() throws Exception {
        Fabric f = FatTree.build(FatTreeSpec.of(2, 8, 8));
        Node leaf = f.switches().get(0);
        Port up = leaf.port(5);
        up.setMtuCap(Mtu.MTU2048);
        assertThat(runOn(f, new PerftestCommand.WriteBw(), "node001", "node005", "--why")).isEqualTo(1);
        assertThat(out.toString()).endsWith(PerftestReport.RESULT_FMT + "\n");
        assertThat(err.toString()).startsWith(" Completion with error at client\n Failed status 12: wr_id 0 syndrom 0x81\n"
                + "scnt=128, ccnt=0\n Failed to complete run_iter_bw function successfully\n# ibtwin: packets over 2048 B"
                + " are dropped at ");
        // messages that fit in 2048-byte packets get through; so does the run at -m 2048
        assertThat(runOn(f, new PerftestCommand.WriteBw(), "node001", "node005", "-s", "2048")).isZero();
        assertThat(runOn(f, new PerftestCommand.WriteBw(), "node001", "node005", "-m", "2048")).isZero();
        assertThat(lines()).contains(" Mtu             : 2048[B]");
        // UC has no retries: the client reports, the data never arrives
        assertThat(runOn(f, new PerftestCommand.WriteBw(), "node001", "node005", "-c", "UC", "--why")).isZero();
        assertThat(lines().get(lines().size() - 2)).startsWith("# ibtwin: packets over 2048 B are dropped at ");
    }

    private int runOn(Fabric f, PerftestCommand cmd, String... args) throws Exception {
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        CommandLine cl = new CommandLine(cmd);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        cl.parseArgs(args);
        return cmd.execute(f);
    }

    @Test
    void ipoibTellsWhatMixedModesDo() throws Exception {
        assertThat(run("ipoib", "node033", "node001")).isZero();
        assertThat(lines()).contains("  node033    ib0 datagram  MTU 2044", "  node001    ib0 connected MTU 65520",
                "  throughput:  1.18 GB/s (9.4 Gb/s)");
        assertThat(out.toString()).contains("T14: mixed IPoIB modes").contains("hangs");
        assertThat(run("ipoib", "node002", "node001", "--json")).isZero();
        JsonNode j = new ObjectMapper().readTree(out.toString());
        assertThat(j.get("wire_mode").asText()).isEqualTo("connected");
        assertThat(j.get("GB_per_sec").asDouble()).isBetween(6.5, 7.5);
    }

    @Test
    void allToAllAndItsBench() throws Exception {
        assertThat(run("perf", "all-to-all")).isZero();
        List<String> l = lines();
        assertThat(l.get(0)).isEqualTo("shift all-to-all on default (built-in): 60 hosts, 60 pairs, shift 30, "
                + "RDMA_Write 65536 B, 1 QP, RC, MTU 4096");
        assertThat(l).hasSize(63);
        assertThat(l.get(l.size() - 1)).startsWith("aggregate ");
        assertThat(out.toString()).contains("leaf02/33 <-> spine01/17 at 4xDDR");
        assertThat(run("perf", "all-to-all", "--pairs", "8", "--json")).isZero();
        JsonNode j = new ObjectMapper().readTree(out.toString());
        assertThat(j.get("per_pair")).hasSize(8);
        assertThat(j.get("aggregate_Gb_per_sec").asDouble()).isPositive();
        assertThat(run("bench", "perf", "--hosts", "2048", "--pairs", "128", "--radix", "32", "--rounds", "1",
                "--warmup", "0")).isZero();
        assertThat(lines().get(0)).isEqualTo("fabric: 3-level fat tree, radix 32, NDR: 2048 hosts, 320 switches, "
                + "6144 links");
        assertThat(lines().get(2)).startsWith("resolved: best ");
    }
}
