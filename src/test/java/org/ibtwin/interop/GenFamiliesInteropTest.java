package org.ibtwin.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.ibtwin.cli.Cli;
import org.ibtwin.format.FabricFiles;
import org.ibtwin.model.Fabric;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every generator family through the public command line: {@code ibtwin gen <family>} writes its topology and
 * description; real ibsim loads the topology without a complaint and ibnetdiscover under it shows exactly the fabric
 * written; real OpenSM brings it up with its matching engine ({@code -R}, and it really used that engine) with no
 * ERR line in its log; and ibtwin's SM brings the description up ({@code ibtwin up --once}) with its own engine.
 * ibsim runs in local mode (no ports).
 */
@Tag("interop")
@Timeout(180)
class GenFamiliesInteropTest extends InteropTest {
    @ParameterizedTest(name = "gen {0} / opensm -R {1} / ibtwin -R {2} / OpenSM's routes {3}")
    @CsvSource(delimiter = '|', value = {
        "torus --dims 4x4x3                                    | dor    | dor    | loop",
        "torus --dims 2x5 --hosts-per-switch 2                 | dor    | dor    | loop",
        "mesh --dims 5x4 --hosts-per-switch 3                  | dor    | dor    | free",
        "hypercube --dim 4 --hosts-per-switch 2                | dor    | dor    | free",
        "dragonfly                                             | dfsssp | dfsssp | -",
        "dragonfly --arrangement palmtree -a 6 -p 2 -H 2       | dfsssp | dfsssp | -",
        "dragonfly -g 4 -a 4 -H 2                              | dfsssp | dfsssp | -",
        "hyperx --dims 4x3x2 --hosts-per-switch 2              | dor    | dor    | free",
        "fat-tree --hosts 96 --radix 12 --blocking 2:1         | ftree  | ftree  | free",
        "fat-tree --hosts 60 --radix 16                        | ftree  | ftree  | free",
        "fat-tree --hosts 32 --radix 16 --rails 2              | ftree  | ftree  | free",
        "fat-tree --hosts 64 --radix 16 --missing-links 3      | updn   | updn   | free",
        "fat-tree --hosts 56 --radix 16 --extra-links 2 --seed 7 | updn | updn   | free",
        "torus --dims 4x4 --fail-switch sw-1-2 --missing-links 2 | dor  | dor    | loop",
    })
    void realIbsimLoadsAndRealOpensmBringsUp(String gen, String theirEngine, String ourEngine, String theirDeadlock) throws Exception {
        List<String> args = new ArrayList<>(List.of("gen"));
        args.addAll(List.of(gen.strip().split("\\s+")));
        args.addAll(List.of("-o", dir.resolve("lab").toString()));
        assertThat(run(args)).startsWith("0\n");
        Path topo = dir.resolve("lab.topo");
        Path yaml = dir.resolve("lab.yaml");
        assertThat(topo).exists();
        assertThat(yaml).exists();
        Fabric expected = FabricFiles.load(topo);
        Duration timeout = Duration.ofSeconds(90);
        Path log = dir.resolve("opensm.log");
        try (RealTools.Sim sim = tools.start(topo, expected, dir, timeout)) {
            assertThat(IbsimInteropTest.complaints(sim.output())).as("ibsim's complaints").isEmpty();
            RealTools.Run sm = sim.client("opensm", timeout, tools.opensm.toString(), "-o", "-e", "-f",
                    log.toString(), "-D", "0x43", "-R", theirEngine);
            String logText = RealTools.read(log);
            assertThat(sm.exitCode()).as("opensm exit code\n" + RealTools.tail(logText)).isZero();
            assertThat(logText).contains("SUBNET UP")
                    .contains("osm_ucast_mgr_process: " + theirEngine + " tables configured on all switches");
            assertThat(RealTools.errorLines(logText)).as("OpenSM error lines").isEmpty();
            RealTools.Run disc = sim.client("ibnetdiscover", timeout, tools.ibnetdiscover.toString());
            assertThat(disc.exitCode()).isZero();
            Fabric seen = org.ibtwin.format.TopologyReader.read(disc.out(), "ibnetdiscover");
            // a failed switch and its hosts are cut off: no scan reaches them
            List<String> want = IbsimInteropTest.canonical(expected).stream()
                    .filter(l -> expected.nodes().stream().noneMatch(n -> isolated(n)
                            && l.startsWith(String.format("node %016x ", n.guid())))).toList();
            assertThat(IbsimInteropTest.canonical(seen)).containsExactlyInAnyOrderElementsOf(want);
        }
        // OpenSM's tables, from its own dump, through check-routing: every pair reached; credit loops where its
        // engine (one VL) leaves them; dfsssp's SLs are in no dump, so only reachability is judged there
        String check = run(List.of("check-routing", "--topology", topo.toString(), "--lfts",
                dir.resolve("opensm-lfts.dump").toString()));
        assertThat(check).contains(" 0 unreached, 0 loops");
        if (!theirDeadlock.equals("-")) {
            assertThat(check).startsWith(theirDeadlock.equals("loop") ? "1\n" : "0\n")
                    .contains(theirDeadlock.equals("loop") ? "deadlock: CREDIT LOOP" : "deadlock: free");
        }
        // ours: the engine's routes pass the check, and the SM brings the fabric up with them
        String ours = run(List.of("check-routing", "-R", ourEngine, "--fabric", yaml.toString()));
        assertThat(ours).startsWith("0\n").contains(": PASS").contains("deadlock: free");
        String up = run(List.of("up", "--once", "-R", ourEngine, yaml.toString()));
        assertThat(up).startsWith("0\n").contains("routing: " + ourEngine).contains("SUBNET UP");
    }

    private static boolean isolated(org.ibtwin.model.Node n) {
        for (int p = 1; p <= n.numPorts(); p++) {
            if (n.port(p).link() != null) {
                return false;
            }
        }
        return true;
    }

    private static String run(List<String> args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int rc = Cli.execute(out, err, args.toArray(String[]::new));
        return rc + "\n" + out + err;
    }
}
