package org.ibtwin.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.ibtwin.cli.Main;
import org.ibtwin.cli.NcclFabricFaultsTest;
import org.ibtwin.format.FabricFiles;
import org.ibtwin.gen.GpuCluster;
import org.ibtwin.lab.Lab;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.sim.IbsimServer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code ibtwin nccl} on a GPU fabric real OpenSM routed: the lab without an SM of ours serves the twin on its ibsim
 * endpoint (as {@code ibtwin sim} does), real {@code opensm -o} programs the LFTs, and {@code ibtwin nccl --ibsim}
 * follows them; the same fabric brought up by ibtwin's SM and served the same way is the other side. Each ring edge's
 * route is read from both fabrics ({@code ib_write_bw --why} names its switch ports); where the two SMs' routes are
 * the same, nccl-tests' row is the same figure for figure, and either way the busbw is what the routes say: a 4xHDR
 * link's rate shared by the most ring flows any one switch egress carries. Skipped, with a notice, when the real
 * tools are missing. Ports 24150..24189.
 *
 * <p>The fabric: 8 nodes of 4 GPUs with one 4xHDR NIC on a classic tree of radix-4 switches, 4 leaves of 2 hosts,
 * each leaf with one uplink to each of 2 spines.
 */
@Tag("interop")
@Timeout(240)
class NcclOpensmInteropTest {
    static final int FIRST_PORT = 24150;
    static final int LAST_PORT = 24189;
    /** Rings: in node order (each leaf has one flow out), and with every edge leaving its leaf. */
    static final List<String> RINGS = List.of(
            "node001,node002,node003,node004,node005,node006,node007,node008",
            "node001,node003,node005,node007,node002,node004,node006,node008");

    static RealTools tools;

    @TempDir
    static Path dir;
    static Path yaml;
    static Fabric fabric;

    @BeforeAll
    static void setUp() throws Exception {
        tools = RealTools.findOrSkip();
        fabric = GpuCluster.build(new GpuCluster.Spec(8, 4, 1, 4, LinkSpeed.HDR, false, "node%03d"));
        FabricFiles.write(fabric, dir.resolve("tree"));
        yaml = dir.resolve("tree.yaml");
    }

    /** What one side showed: per ring, its 8 GiB row, and the egress hops of each ring edge. */
    record Side(List<String> rows, List<List<String>> hops) {
    }

    @Test
    void busbwOnOpensmsRoutesMatchesOursWhereTheRoutesAgreeAndTheirSharingEverywhere() throws Exception {
        Side ours;
        Side theirs;
        try (Lab lab = Lab.of(FabricFiles.load(yaml.toString())).start()) {
            assertThat(lab.bringUp().subnetUp()).isTrue();
            ours = side("--ibsim", "127.0.0.1:" + serve(lab));
        }
        try (Lab lab = Lab.of(FabricFiles.load(yaml.toString())).noSm().start()) {
            int port = serve(lab);
            UmadClient c = new UmadClient(tools.umad2sim, port, dir, null, Duration.ofSeconds(60));
            UmadClient.Result osm = c.run(tools.opensm, "-o", "-f", dir.resolve("opensm.log").toString());
            assertThat(osm.exit()).as(osm.err()).isZero();
            theirs = side("--ibsim", "127.0.0.1:" + port);
        }
        double link = NcclFabricFaultsTest.hdrLinkBusbw();
        for (int i = 0; i < RINGS.size(); i++) {
            for (Side s : List.of(ours, theirs)) {
                double busbw = Double.parseDouble(s.rows().get(i).trim().split("\\s+")[7]);
                int share = mostFlowsOnOneEgress(s.hops().get(i));
                assertThat(busbw).as(RINGS.get(i) + " " + s.hops().get(i))
                        .isCloseTo(link / share, within(link / share * 0.003));
            }
            if (ours.hops().get(i).equals(theirs.hops().get(i))) {
                assertThat(theirs.rows().get(i)).as(RINGS.get(i)).isEqualTo(ours.rows().get(i));
            } else {
                System.err.println("NcclOpensmInteropTest: OpenSM routes ring " + RINGS.get(i) + " otherwise: "
                        + theirs.hops().get(i) + " (ours " + ours.hops().get(i) + ")");
            }
        }
        // in node order every leaf has one flow out: any shortest-path routing gives the same figures
        assertThat(theirs.rows().get(0)).isEqualTo(ours.rows().get(0));
    }

    /** Serves the lab's ibsim endpoint on a free range of the band: its port. */
    private static int serve(Lab lab) throws Exception {
        for (int attempt = 0; ; attempt++) {
            try {
                IbsimServer server = lab.serve(null, RemoteIbsim.freeRange(FIRST_PORT, LAST_PORT), Duration.ZERO);
                return server.port();
            } catch (IllegalArgumentException e) {
                if (attempt >= 8) {
                    throw e;
                }
            }
        }
    }

    /** nccl's 8 GiB ring row and every ring edge's route, on the fabric {@code where} names. */
    private static Side side(String... where) {
        List<String> rows = new ArrayList<>();
        List<List<String>> hops = new ArrayList<>();
        for (String ring : RINGS) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            List<String> args = new ArrayList<>(List.of("nccl", "all_reduce_perf", "-b", "8G", "-e", "8G", "--algo",
                    "ring", "--hosts", ring, "--facts", yaml.toString(), "--why"));
            args.addAll(List.of(where));
            assertThat(run(out, err, args)).as(err.toString()).isZero();
            assertThat(out.toString()).contains("; routes: from the live LFTs of ");
            rows.add(out.toString().lines().filter(l -> !l.startsWith("#") && !l.isBlank()).findFirst()
                    .orElseThrow());
            String[] nodes = ring.split(",");
            List<String> edges = new ArrayList<>();
            for (int k = 0; k < nodes.length; k++) {
                edges.add(route(nodes[k], nodes[(k + 1) % nodes.length], where));
            }
            hops.add(edges);
        }
        return new Side(rows, hops);
    }

    /** The switch hops from {@code from} to {@code to}, as ib_write_bw --why names them (client to server). */
    private static String route(String from, String to, String... where) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        List<String> args = new ArrayList<>(List.of("ib_write_bw", to, from, "--why"));
        args.addAll(List.of(where));
        assertThat(run(out, err, args)).as(err.toString()).isZero();
        for (String l : out.toString().split("\n")) {
            if (l.startsWith("# ibtwin: route ")) {
                String h = l.substring("# ibtwin: route ".length(), l.indexOf(" ("));
                List<String> parts = List.of(h.split(" -> "));
                return String.join(" -> ", parts.subList(1, parts.size() - 1));
            }
        }
        throw new AssertionError("no route line:\n" + out);
    }

    /** The most ring edges that leave one switch port ("leaf01 1/3": leaf01's port 3), at least 1. */
    static int mostFlowsOnOneEgress(List<String> edges) {
        Map<String, Integer> n = new HashMap<>();
        int most = 1;
        for (String e : edges) {
            for (String hop : e.split(" -> ")) {
                String[] w = hop.split(" ");
                String egress = w[0] + "/" + w[1].split("/")[1];
                most = Math.max(most, n.merge(egress, 1, Integer::sum));
            }
        }
        return most;
    }

    private static int run(StringWriter out, StringWriter err, List<String> args) {
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args.toArray(String[]::new));
    }
}
