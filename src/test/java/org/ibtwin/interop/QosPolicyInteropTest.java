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
import org.ibtwin.mad.Methods;
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
 * policy), each on a fresh real ibsim (UDP 26800..26849) of the same four CAs: the SL each query shows is the one the
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
        try (RemoteIbsim sim = RemoteIbsim.start(tools.ibsim, net, 26800, 26849, List.of(), Duration.ofSeconds(20));
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

    /**
     * Port groups (port-name, port-guid, node-type SWITCH and SELF, partition), match rules (before the ULPs,
     * first match) and the qos-level keywords: each query's SL, MTU, rate, packet lifetime and P_Key (or no path)
     * under OpenSM equal ours and what the policy asks for; and the SL of the multicast groups, the IPoIB broadcast
     * group and one a join created, as {@code saquery -g} shows them from both.
     */
    @Test
    void matchRulesAndQosLevelsShapeThePathsFromOpensmAndFromOurs(@TempDir Path dir) throws Exception {
        Path net = dir.resolve("four.net");
        Files.writeString(net, RemoteIbsim.FOUR_CAS);
        long h4;
        try (RemoteIbsim sim = RemoteIbsim.start(tools.ibsim, net, 26850, 26899, List.of(), Duration.ofSeconds(20));
             IbsimClient c = IbsimClient.connect(RemoteIbsim.HOST, sim.port(), "H-h4", false)) {
            h4 = c.localPort().portGuid();
        }
        Path policy = dir.resolve("full.conf");
        Files.writeString(policy, String.format("""
                port-groups
                    port-group
                        name: Storage
                        use: the SRP target
                        port-name: H-h3/P1
                    end-port-group
                    port-group
                        name: Last
                        port-guid: 0x%016x
                    end-port-group
                    port-group
                        name: Switches
                        node-type: SWITCH
                    end-port-group
                    port-group
                        name: The SM
                        node-type: SELF
                    end-port-group
                    port-group
                        name: Everyone
                        partition: Default
                    end-port-group
                end-port-groups
                qos-setup
                end-qos-setup
                qos-levels
                    qos-level
                        name: DEFAULT
                        sl: 3
                    end-qos-level
                    qos-level
                        name: Slow
                        sl: 5
                        mtu-limit: 2
                        rate-limit: 2
                        packet-life: 9
                    end-qos-level
                    qos-level
                        name: ByClass
                        sl: 6
                    end-qos-level
                    qos-level
                        name: ToSwitch
                        sl: 9
                    end-qos-level
                    qos-level
                        name: ToSm
                        sl: 10
                        mtu-limit: 1
                    end-qos-level
                    qos-level
                        name: Nowhere
                        sl: 11
                        pkey: 0x0001
                    end-qos-level
                    qos-level
                        name: InDefault
                        sl: 12
                        pkey: 0x7fff
                    end-qos-level
                end-qos-levels
                qos-match-rules
                    qos-match-rule
                        qos-class: 4
                        qos-level-name: ByClass
                    end-qos-match-rule
                    qos-match-rule
                        destination: Storage
                        qos-level-name: Slow
                    end-qos-match-rule
                    qos-match-rule
                        destination: Switches
                        qos-level-name: ToSwitch
                    end-qos-match-rule
                    qos-match-rule
                        destination: The SM
                        qos-level-name: ToSm
                    end-qos-match-rule
                    qos-match-rule
                        service-id: 0x600
                        qos-level-name: Nowhere
                    end-qos-match-rule
                    qos-match-rule
                        source: Everyone
                        destination: Last
                        service-id: 0x700
                        qos-level-name: InDefault
                    end-qos-match-rule
                    qos-match-rule
                        pkey: 0x7fff
                        service-id: 0x800
                        qos-level-name: Slow
                    end-qos-match-rule
                end-qos-match-rules
                qos-ulps
                    default : 1
                    any, target-port-guid 0x%016x : 7
                    ipoib : 8
                end-qos-ulps
                """, h4, h4));
        Map<String, String> want = new LinkedHashMap<>();
        want.put("h2 h3", "sl 5 mtu 2 rate 2 life 9 pkey 0xFFFF");
        want.put("h2 h3 -Q 4", "sl 6 mtu 4 rate 3 life 18 pkey 0xFFFF");
        want.put("h2 sw1", "sl 9 mtu 3 rate 3 life 18 pkey 0xFFFF");
        want.put("h2 h1", "sl 10 mtu 1 rate 3 life 18 pkey 0xFFFF");
        want.put("h2 h4", "sl 7 mtu 4 rate 3 life 18 pkey 0xFFFF");
        want.put("h2 h4 --service_id 0x600", "none");
        want.put("h2 h4 --service_id 0x700", "sl 12 mtu 4 rate 3 life 18 pkey 0x7FFF");
        want.put("h2 h4 --service_id 0x800", "sl 7 mtu 4 rate 3 life 18 pkey 0xFFFF");
        want.put("h2 h4 --service_id 0x800 --pkey 0x7fff", "sl 5 mtu 2 rate 2 life 9 pkey 0x7FFF");
        want.put("h4 h2", "sl 3 mtu 4 rate 3 life 18 pkey 0xFFFF");
        want.put("h4 h2 --pkey 0xffff", "sl 8 mtu 4 rate 3 life 18 pkey 0xFFFF");
        Path d = dir.resolve("full");
        Files.createDirectories(d);
        Map<String, String> opensm = new LinkedHashMap<>();
        Map<String, String> ours = new LinkedHashMap<>();
        String opensmGroups = run(d.resolve("opensm"), net, policy, true, want, opensm);
        String ourGroups = run(d.resolve("ours"), net, policy, false, want, ours);
        assertThat(opensm).as("OpenSM's paths").isEqualTo(want);
        assertThat(ours).as("our paths").isEqualTo(want);
        // as OpenSM 3.3.23 shows: the policy (ipoib : 8) leaves the groups' SLs alone; the broadcast group keeps
        // its partition's (0), a created group the SL its join asked for (0)
        assertThat(opensmGroups).as("OpenSM's groups").isEqualTo("""
                MGID ff12:401b:ffff::ffff:ffff
                Mtu 0x84
                Rate 0x83
                SL 0x0
                MGID ff12:601b:ffff::1
                Mtu 0x84
                Rate 0x83
                SL 0x0
                """);
        assertThat(ourGroups).as("saquery -g: the groups' SLs (OpenSM's:%n%s)", opensmGroups).isEqualTo(opensmGroups);
    }

    private static final Pattern FIELD = Pattern.compile("(?m)^\\s*(sl|mtu|rate|pkt_life|pkey)\\.+(\\S+)$");
    private static final Pattern GROUP = Pattern.compile("(?m)^\\s*(MGID|SL|Mtu|Rate)\\.+(\\S+)$");

    /**
     * Under OpenSM or ours on a fresh ibsim of {@code net}: each query's path ({@code from to [saquery options]})
     * into {@code paths}; then a join from h3 that creates a group, and what {@code saquery -g} shows of each group.
     */
    private static String run(Path dir, Path net, Path policy, boolean opensm, Map<String, String> queries,
                              Map<String, String> paths) throws Exception {
        try (RemoteIbsim sim = sim(dir, net)) {
            Process osm = null;
            SubnetManager sm = null;
            IbsimClient smPort = null;
            Path log = dir.resolve("opensm.log");
            try {
                if (opensm) {
                    UmadClient smClient = new UmadClient(tools.umad2sim, sim.port(), dir, "H-h1", TOOL_TIMEOUT);
                    osm = smClient.start(tools.opensm, dir.resolve("opensm.out"), "-s", "0", "-f", log.toString(),
                            "-Q", "-Y", policy.toString());
                } else {
                    smPort = IbsimClient.connect(RemoteIbsim.HOST, sim.port(), "H-h1", true);
                    sm = new SubnetManager(smPort, SmConfig.defaults(), null);
                    sm.qos(QosConfig.defaults());
                    sm.sa().qosPolicy(QosPolicy.of(QosPolicyFile.read(policy)));
                    assertThat(sm.sweep().subnetUp()).isTrue();
                }
                waitForSa(sim.port(), dir, osm, opensm ? log : null);
                Map<String, Integer> lids = new LinkedHashMap<>();
                for (String q : queries.keySet()) {
                    String[] w = q.split(" ");
                    int slid = lids.computeIfAbsent(w[0], h -> lid(sim.port(), h.startsWith("sw") ? h : "H-" + h));
                    int dlid = lids.computeIfAbsent(w[1], h -> lid(sim.port(), h.startsWith("sw") ? h : "H-" + h));
                    List<String> args = new ArrayList<>(List.of("-p", "--slid", Integer.toString(slid), "--dlid",
                            Integer.toString(dlid)));
                    args.addAll(List.of(w).subList(2, w.length));
                    UmadClient.Result r = new UmadClient(tools.umad2sim, sim.port(), dir, "H-h2", TOOL_TIMEOUT)
                            .run(RealTools.diagOrSkip("saquery"), args.toArray(String[]::new));
                    Matcher m = FIELD.matcher(r.out());
                    Map<String, Integer> f = new LinkedHashMap<>();
                    while (m.find()) {
                        f.putIfAbsent(m.group(1), Integer.decode(m.group(2)));
                    }
                    paths.put(q, f.isEmpty() ? "none" : String.format("sl %d mtu %d rate %d life %d pkey 0x%04X",
                            f.get("sl"), f.get("mtu") & 0x3f, f.get("rate") & 0x3f, f.get("pkt_life") & 0x3f,
                            f.get("pkey")));
                }
                assertThat(McastInteropTest.member(sim.port(), "H-h3", Methods.SET, McastInteropTest.ALL_NODES_V6, 1,
                        true)).as("a join that creates a group").isZero();
                UmadClient.Result g = new UmadClient(tools.umad2sim, sim.port(), dir, "H-h2", TOOL_TIMEOUT)
                        .run(RealTools.diagOrSkip("saquery"), "-g");
                StringBuilder groups = new StringBuilder();
                Matcher m = GROUP.matcher(g.out());
                while (m.find()) {
                    groups.append(m.group(1)).append(' ').append(m.group(2)).append('\n');
                }
                return groups.toString();
            } finally {
                if (osm != null) {
                    RealTools.stop(osm);
                }
                if (sm != null) {
                    sm.detach();
                }
                if (smPort != null) {
                    smPort.close();
                }
            }
        }
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
        return RemoteIbsim.start(tools.ibsim, dir.resolve(net.getFileName()), 26800, 26849, List.of(),
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
