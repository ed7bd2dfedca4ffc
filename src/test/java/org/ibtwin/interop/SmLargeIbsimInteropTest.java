package org.ibtwin.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ibtwin.cli.Cli;
import org.ibtwin.format.FabricFiles;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.model.Fabric;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code ibtwin sm -o} on real {@code ibsim -r} with up to 256 CAs, checked by the real tools: ibnetdiscover shows a
 * LID on every CA port and switch, iblinkinfo shows every linked port Active, and ibtracert gets from every CA to
 * every other (all pairs, 65,280 at 256 CAs: three ibtracert processes at once, each given a third of the pairs by
 * --ports-file, each trace checked to end at its destination's LID). Ports 18200..18289. The 65,280 traces alone
 * take 100-160 s on two cores (real ibtracert against real ibsim): the limit leaves room for a loaded machine.
 */
@Tag("interop")
@Timeout(300)
class SmLargeIbsimInteropTest extends InteropTest {
    static final int FIRST_PORT = 18200;
    static final int LAST_PORT = 18289;
    private static final Pattern CA_PORT = Pattern.compile(
            "^\\[(\\d+)]\\(([0-9a-f]+)\\)\\s+\"[^\"]+\"\\[\\d+]\\s+#\\s+lid (\\d+) lmc \\d+ \"[^\"]*\" lid (\\d+)",
            Pattern.MULTILINE);
    private static final Pattern SWITCH = Pattern.compile("^Switch\\s+\\d+ \"[^\"]+\"\\s+# \"([^\"]*)\".* lid (\\d+) "
            + "lmc", Pattern.MULTILINE);
    /** iblinkinfo's port lines: "... 1[  ] ==( 4X 53.125 Gbps Active/  LinkUp)==> ...". */
    private static final Pattern LINK = Pattern.compile("==\\(\\s*\\S+\\s+[\\d.]+ Gbps\\s+(\\w+)/\\s*(\\w+)\\)==>");

    static Path ibtracert;
    private static final Pattern TO_CA = Pattern.compile("(?m)^To ca \\{0x[0-9a-f]+\\} portnum \\d+ lid (\\d+)-\\d+ ");
    static Path iblinkinfo;

    @BeforeAll
    static void findTools() {
        tools = RealTools.findOrSkip();
        ibtracert = RealTools.executable("ibtracert").orElse(null);
        iblinkinfo = RealTools.executable("iblinkinfo").orElse(null);
        if (ibtracert == null || iblinkinfo == null) {
            String notice = "INTEROP SKIPPED: ibtracert/iblinkinfo not found (install " + RealTools.PACKAGES + ")";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                org.junit.jupiter.api.Assertions.fail("CI=true but " + notice);
            }
            System.err.println(notice);
            org.junit.jupiter.api.Assumptions.assumeTrue(false, notice);
        }
    }

    @ParameterizedTest(name = "{0}-level radix {1}, {2} hosts, -R {3}")
    @CsvSource({"2, 8, 24, minhop", "2, 32, 256, 'ftree,minhop'"})
    void everyCaReachesEveryOther(int levels, int radix, int hosts, String engines) throws Exception {
        Fabric fabric = FatTree.build(FatTreeSpec.of(levels, radix, hosts));
        Path net = FabricFiles.write(fabric, dir.resolve("lab"))[0];
        try (RemoteIbsim sim = RemoteIbsim.start(tools.ibsim, net, FIRST_PORT, LAST_PORT, RealTools.limits(fabric),
                Duration.ofSeconds(30))) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int rc = Cli.execute(out, err, "sm", "-o", "-q", "--ibsim", "127.0.0.1:" + sim.port(), "-R", engines);
            assertThat(rc).as(out + "\n" + err).isZero();
            assertThat(out.toString()).isEqualTo("SUBNET UP\n");

            UmadClient c = new UmadClient(tools.umad2sim, sim.port(), dir, null, Duration.ofSeconds(30));
            UmadClient.Result disc = c.run(tools.ibnetdiscover);
            assertThat(disc.exit()).as(disc.err()).isZero();
            Map<String, Integer> caLids = new LinkedHashMap<>();
            Matcher m = CA_PORT.matcher(disc.out());
            while (m.find()) {
                caLids.put(m.group(2), Integer.parseInt(m.group(3)));
            }
            assertThat(caLids).hasSize(hosts);
            assertThat(caLids.values()).doesNotContain(0).doesNotHaveDuplicates();
            Matcher sw = SWITCH.matcher(disc.out());
            int switches = 0;
            while (sw.find()) {
                switches++;
                assertThat(Integer.parseInt(sw.group(2))).as(sw.group(1)).isPositive();
            }
            assertThat(switches).isEqualTo(fabric.switches().size());

            UmadClient.Result links = c.run(iblinkinfo);
            assertThat(links.exit()).as(links.err()).isZero();
            Matcher lm = LINK.matcher(links.out());
            int linked = 0;
            while (lm.find()) {
                linked++;
                assertThat(lm.group(1) + "/" + lm.group(2)).isEqualTo("Active/LinkUp");
            }
            // iblinkinfo prints every linked port (switches' and CAs'), each with its peer: each link twice
            assertThat(linked).isEqualTo(2 * fabric.links().size());

            List<int[]> pairs = new ArrayList<>();
            for (int a : caLids.values()) {
                for (int b : caLids.values()) {
                    if (a != b) {
                        pairs.add(new int[] {a, b});
                    }
                }
            }
            // three ibtracert processes at once (ibsim has ten client slots), a third of the pairs each
            int chunks = 3;
            ExecutorService pool = Executors.newFixedThreadPool(chunks);
            long t0 = System.nanoTime();
            try {
                List<Future<String>> checks = new ArrayList<>();
                for (int k = 0; k < chunks; k++) {
                    List<int[]> chunk = pairs.subList(k * pairs.size() / chunks, (k + 1) * pairs.size() / chunks);
                    Path file = dir.resolve("pairs-" + hosts + "-" + k);
                    StringBuilder sb = new StringBuilder();
                    for (int[] p : chunk) {
                        sb.append(p[0]).append(' ').append(p[1]).append('\n');
                    }
                    Files.writeString(file, sb);
                    checks.add(pool.submit(() -> {
                        UmadClient.Result tr = c.withTimeout(Duration.ofSeconds(300)).run(ibtracert, "--ports-file",
                                file.toString());
                        if (tr.exit() != 0) {
                            return "ibtracert --ports-file " + file + ": exit " + tr.exit() + "\n" + tr.err();
                        }
                        // one "To ca ... lid D-D ..." line per pair, in the file's order
                        Matcher to = TO_CA.matcher(tr.out());
                        int i = 0;
                        while (to.find()) {
                            if (i >= chunk.size() || Integer.parseInt(to.group(1)) != chunk.get(i)[1]) {
                                return "trace " + i + " of " + file + " (" + (i < chunk.size() ? chunk.get(i)[0] + " -> "
                                        + chunk.get(i)[1] : "extra") + ") ended at lid " + to.group(1);
                            }
                            i++;
                        }
                        return i == chunk.size() ? null : file + ": " + i + " of " + chunk.size() + " traces reached "
                                + "their CA\n" + tr.err();
                    }));
                }
                for (Future<String> f : checks) {
                    assertThat(f.get()).isNull();
                }
            } finally {
                pool.shutdownNow();
            }
            System.out.printf("%d hosts: %d ibtracert pairs in %.1f s%n", hosts, pairs.size(),
                    (System.nanoTime() - t0) / 1e9);
        }
    }
}
