package org.ibtwin.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ibtwin.format.QosPolicyFile;
import org.ibtwin.sm.QosConfig;
import org.ibtwin.sm.SmConfig;
import org.ibtwin.sm.SubnetManager;
import org.ibtwin.sm.sa.QosPolicy;
import org.ibtwin.transport.IbsimClient;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * qos-policy.conf's PathRecord SLs: real {@code saquery -p} from h2, for paths with and without service IDs and
 * P_Keys, answered by real OpenSM ({@code -Q -Y policy}) and by ibtwin's SM (QoS on, the same
 * policy), each on a fresh real ibsim (UDP 26340..26399) of the same four CAs: the SL each query shows is the one the
 * policy asks for, from both.
 */
@Tag("interop")
class QosPolicyInteropTest {
    private static final Duration TOOL_TIMEOUT = Duration.ofSeconds(20);
    private static final Pattern SL = Pattern.compile("(?m)^\\s*sl\\.+(\\S+)$");
    private static RealTools tools;

    @BeforeAll
    static void findTools() {
        tools = RealTools.findOrSkip();
        RealTools.diagOrSkip("saquery");
    }

    /** The ULPs, then the DEFAULT level alone: each query's SL under OpenSM equals ours and the policy's. */
    @Test
    void saqueryShowsThePolicysSlsFromOpensmAndFromOurs(@TempDir Path dir) throws Exception {
        Path net = dir.resolve("four.net");
        Files.writeString(net, RemoteIbsim.FOUR_CAS);
        long h4;
        try (RemoteIbsim sim = RemoteIbsim.start(tools.ibsim, net, 26340, 26389, List.of(), Duration.ofSeconds(20));
             IbsimClient c = IbsimClient.connect(RemoteIbsim.HOST, sim.port(), "H-h4", false)) {
            h4 = c.localPort().portGuid();
        }
        Path ulps = dir.resolve("ulps.conf");
        Files.writeString(ulps, String.format("""
                qos-ulps
                    default                          : 1
                    sdp, port-num 5000               : 2
                    sdp                              : 3
                    iser                             : 5
                    rds                              : 4
                    any, service-id 0x1000000000000abc : 6
                    ipoib                            : 8
                    srp, target-port-guid 0x%016x : 9
                end-qos-ulps
                """, h4));
        Map<String, Integer> want = new LinkedHashMap<>();
        want.put("h3", 1);
        want.put("h3 --service_id 0x11388", 2);
        want.put("h3 --service_id 0x10001", 3);
        want.put("h3 --service_id 0x1060cbc", 5);
        want.put("h3 --service_id 0x10648ca", 4);
        want.put("h3 --service_id 0x1060001", 1);   // another RDMA CM port: neither iser nor rds
        want.put("h3 --service_id 0x1000000000000abc", 6);
        want.put("h3 --pkey 0xffff", 8);
        want.put("h4", 9);
        check(dir.resolve("ulps"), net, ulps, want);

        Path levels = dir.resolve("levels.conf");
        Files.writeString(levels, """
                qos-levels
                    qos-level
                        name: DEFAULT
                        use: everything
                        sl: 3
                    end-qos-level
                end-qos-levels
                """);
        check(dir.resolve("levels"), net, levels, Map.of("h3", 3, "h4 --service_id 0x10001", 3));
    }

    private static void check(Path dir, Path net, Path policy, Map<String, Integer> want) throws Exception {
        Files.createDirectories(dir);
        Map<String, Integer> expected = new LinkedHashMap<>(want);
        Map<String, Integer> opensm = opensm(dir.resolve("opensm"), net, policy, want);
        Map<String, Integer> ours = ours(dir.resolve("ours"), net, policy, want);
        assertThat(opensm).as("OpenSM's SLs").isEqualTo(expected);
        assertThat(ours).as("our SLs").isEqualTo(expected);
    }

    /** saquery -p from h2 to each query's destination (its extra options after the node), the SL it shows. */
    private static Map<String, Integer> sls(int port, Path dir, Map<String, Integer> want) throws Exception {
        UmadClient c = new UmadClient(tools.umad2sim, port, dir, "H-h2", TOOL_TIMEOUT);
        Map<String, Integer> lids = new LinkedHashMap<>();
        Map<String, Integer> out = new LinkedHashMap<>();
        for (String q : want.keySet()) {
            String[] w = q.split(" ");
            int dlid = lids.computeIfAbsent(w[0], h -> lid(port, "H-" + h));
            List<String> args = new ArrayList<>(List.of("-p", "--slid", Integer.toString(lid(port, "H-h2")),
                    "--dlid", Integer.toString(dlid)));
            args.addAll(List.of(w).subList(1, w.length));
            UmadClient.Result r = c.run(RealTools.diagOrSkip("saquery"), args.toArray(String[]::new));
            Matcher m = SL.matcher(r.out());
            assertThat(m.find()).as(r.command() + "\n" + r.out() + r.err()).isTrue();
            out.put(q, Integer.decode(m.group(1)));
        }
        return out;
    }

    private static Map<String, Integer> opensm(Path dir, Path net, Path policy, Map<String, Integer> want)
            throws Exception {
        try (RemoteIbsim sim = sim(dir, net)) {
            UmadClient smClient = new UmadClient(tools.umad2sim, sim.port(), dir, "H-h1", TOOL_TIMEOUT);
            Path log = dir.resolve("opensm.log");
            Process osm = smClient.start(tools.opensm, dir.resolve("opensm.out"), "-s", "0", "-f", log.toString(),
                    "-Q", "-Y", policy.toString());
            try {
                waitForSa(sim.port(), dir, osm, log);
                return sls(sim.port(), dir, want);
            } finally {
                RealTools.stop(osm);
            }
        }
    }

    private static Map<String, Integer> ours(Path dir, Path net, Path policy, Map<String, Integer> want)
            throws Exception {
        try (RemoteIbsim sim = sim(dir, net)) {
            try (IbsimClient smPort = IbsimClient.connect(RemoteIbsim.HOST, sim.port(), "H-h1", true)) {
                SubnetManager sm = new SubnetManager(smPort, SmConfig.defaults(), null);
                sm.qos(QosConfig.defaults());
                sm.sa().qosPolicy(QosPolicy.of(QosPolicyFile.read(policy)));
                assertThat(sm.sweep().subnetUp()).isTrue();
                waitForSa(sim.port(), dir, null, null);
                Map<String, Integer> sls = sls(sim.port(), dir, want);
                sm.detach();
                return sls;
            }
        }
    }

    /** A fresh real ibsim of {@code net}, run in {@code dir} (created). */
    private static RemoteIbsim sim(Path dir, Path net) throws Exception {
        Files.createDirectories(dir);
        Files.copy(net, dir.resolve(net.getFileName()));
        return RemoteIbsim.start(tools.ibsim, dir.resolve(net.getFileName()), 26340, 26389, List.of(),
                Duration.ofSeconds(20));
    }

    private static void waitForSa(int port, Path dir, Process osm, Path log) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        UmadClient c = new UmadClient(tools.umad2sim, port, dir, "H-h2", TOOL_TIMEOUT);
        while (c.run(RealTools.diagOrSkip("saquery"), "SMIR").exit() != 0) {
            if ((osm != null && !osm.isAlive()) || System.nanoTime() > deadline) {
                fail("the SA did not answer" + (log == null ? "" : ":\n" + RealTools.tail(RealTools.read(log))));
            }
            Thread.sleep(100);
        }
    }

    private static int lid(int port, String node) {
        try (IbsimClient c = IbsimClient.connect(RemoteIbsim.HOST, port, node, false)) {
            return c.localPort().lid();
        }
    }
}
