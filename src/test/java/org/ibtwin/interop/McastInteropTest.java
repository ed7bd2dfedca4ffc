package org.ibtwin.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.ibtwin.fixture.GidBytes;
import org.ibtwin.diag.MadQuery;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.MadStatus;
import org.ibtwin.mad.Methods;
import org.ibtwin.mad.SaAttributes;
import org.ibtwin.sm.SmConfig;
import org.ibtwin.sm.SubnetManager;
import org.ibtwin.transport.IbsimClient;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Multicast against the referees, on two copies of real {@code ibsim -r} (UDP ports 18700..18799) with the same
 * fabric (a core switch over three leaves, two CAs each) and the same joins and leaves sent to the SA from the
 * same ports: one run by our SM (its sweeping loop, as {@code ibtwin sm} runs it), one by real OpenSM. Real
 * {@code saquery -g}, {@code -m} and {@code MCMR} (untrusted and with the SA key) print the same from both SAs, and
 * real {@code dump_mfts} and {@code ibroute -M} the same trees: the fabric is a tree, so a spanning tree that
 * reaches exactly the members' switches is one only. Real {@code ibtracert -m} follows the same multicast routes
 * on both, and ours prints what it prints.
 */
@Tag("interop")
class McastInteropTest {
    static final String NET = """
            Switch 8 "core"
            [1] "leaf1"[8]
            [2] "leaf2"[8]
            [3] "leaf3"[8]

            Switch 8 "leaf1"
            [1] "H-h1"[1]
            [2] "H-h2"[1]
            [8] "core"[1]

            Switch 8 "leaf2"
            [1] "H-h3"[1]
            [2] "H-h4"[1]
            [8] "core"[2]

            Switch 8 "leaf3"
            [1] "H-h5"[1]
            [2] "H-h6"[1]
            [8] "core"[3]

            Hca 1 "H-h1"
            [1] "leaf1"[1]
            Hca 1 "H-h2"
            [1] "leaf1"[2]
            Hca 1 "H-h3"
            [1] "leaf2"[1]
            Hca 1 "H-h4"
            [1] "leaf2"[2]
            Hca 1 "H-h5"
            [1] "leaf3"[1]
            Hca 1 "H-h6"
            [1] "leaf3"[2]
            """;

    static final byte[] BROADCAST = GidBytes.parse("ff12401bffff000000000000ffffffff");
    static final byte[] ALL_NODES_V6 = GidBytes.parse("ff12601bffff00000000000000000001");

    /** A join (Set) or leave (Delete) from {@code node}; the SA's status. */
    static int member(int port, String node, int method, byte[] mgid, int state, boolean create) {
        Layout mc = SaAttributes.MC_MEMBER_RECORD;
        try (IbsimClient c = IbsimClient.connect(RemoteIbsim.HOST, port, node, false)) {
            byte[] r = new byte[mc.size()];
            mc.setBytes(r, 0, "McastMemMGid", mgid);
            mc.setBytes(r, 0, "McastMemPortGid", GidBytes.linkLocal(c.localPort().portGuid()));
            mc.set(r, 0, "McastMemJoinState", state);
            long mask = 1 | 2 | (1L << 16);
            if (create) {     // as the IPoIB driver creates a group: the broadcast group's parameters
                mc.set(r, 0, "McastMemQkey", 0x0b1b);
                mc.set(r, 0, "McastMemPkey", 0xffff);
                mc.set(r, 0, "McastMemMtuSelector", 2);
                mc.set(r, 0, "McastMemMTU", 4);
                mc.set(r, 0, "McastMemRateSelector", 2);
                mc.set(r, 0, "McastMemRate", 3);
                mask |= (1 << 2) | (1 << 4) | (1 << 5) | (1 << 6) | (1 << 7) | (1 << 8) | (1 << 9) | (1 << 12)
                        | (1 << 13) | (1 << 14);
            }
            return new MadQuery(c).saQuery(c.localPort().smLid(), method, AttributeIds.MC_MEMBER_RECORD, 0, mask,
                    0, r).status();
        }
    }

    /** What the real tools print, in steps: before any join, after the joins, after two leaves. */
    private static List<String> run(Path dir, RealTools tools, boolean opensm) throws Exception {
        Path net = dir.resolve("m.net");
        Files.writeString(net, NET);
        List<String> shown = new ArrayList<>();
        try (RemoteIbsim ibsim = RemoteIbsim.start(tools.ibsim, net, 18700, 18799, List.of(),
                Duration.ofSeconds(10))) {
            int port = ibsim.port();
            UmadClient c = new UmadClient(tools.umad2sim, port, dir, "H-h2", Duration.ofSeconds(20));
            Process osm = null;
            Thread sweeper = null;
            AtomicBoolean stop = new AtomicBoolean();
            IbsimClient smPort = null;
            SubnetManager[] sm = new SubnetManager[1];
            try {
                if (opensm) {
                    osm = c.withSimHost("H-h1").start(tools.opensm, dir.resolve("opensm.out"), "-s", "0", "-f",
                            dir.resolve("opensm.log").toString());
                } else {
                    smPort = IbsimClient.connect(RemoteIbsim.HOST, port, "H-h1", true);
                    sm[0] = new SubnetManager(smPort, SmConfig.defaults().withSweepInterval(Duration.ZERO), null);
                    sweeper = new Thread(() -> sm[0].run(stop), "mcast-sm");
                    sweeper.start();
                }
                Path saquery = RealTools.executable("saquery").orElseThrow();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (c.run(saquery, "SMIR").exit() != 0) {
                    if (System.nanoTime() > deadline) {
                        fail((opensm ? "OpenSM's" : "our") + " SA did not answer");
                    }
                    Thread.sleep(100);
                }
                shown.add(show(c, "before any join"));
                assertThat(member(port, "H-h2", Methods.SET, BROADCAST, 1, false)).isZero();
                assertThat(member(port, "H-h3", Methods.SET, BROADCAST, 1, false)).isZero();
                assertThat(member(port, "H-h4", Methods.SET, BROADCAST, 4, false)).as("send-only").isZero();
                assertThat(member(port, "H-h2", Methods.SET, ALL_NODES_V6, 1, true)).isZero();
                assertThat(member(port, "H-h5", Methods.SET, ALL_NODES_V6, 1, true)).isZero();
                assertThat(member(port, "H-h6", Methods.SET, GidBytes.parse("ff12601bffff00000000000000000002"), 1, false))
                        .as("too few components to create a group").isEqualTo(MadStatus.SA_INSUFFICIENT_COMPONENTS);
                shown.add(settled(c, "after the joins"));
                if (!opensm) {
                    sameTraces(c, port);
                }
                assertThat(member(port, "H-h3", Methods.DELETE, BROADCAST, 1, false)).isZero();
                assertThat(member(port, "H-h5", Methods.DELETE, ALL_NODES_V6, 1, false)).isZero();
                shown.add(settled(c, "after h3 and h5 left"));
            } finally {
                stop.set(true);
                if (sweeper != null) {
                    sweeper.join(10_000);
                    sm[0].detach();
                }
                if (smPort != null) {
                    smPort.close();
                }
                if (osm != null) {
                    RealTools.stop(osm);
                }
            }
        }
        return shown;
    }

    /** The tools' output once two MFT dumps a little apart agree (the SM programs the MFTs after it answers). */
    private static String settled(UmadClient c, String step) throws Exception {
        Path dumpMfts = RealTools.executable("dump_mfts").orElseThrow();
        String last = c.run(dumpMfts).out();
        for (int i = 0; i < 20; i++) {
            Thread.sleep(200);
            String now = c.run(dumpMfts).out();
            if (now.equals(last)) {
                break;
            }
            last = now;
        }
        return show(c, step);
    }

    private static String show(UmadClient c, String step) throws Exception {
        StringBuilder sb = new StringBuilder("## " + step + "\n");
        Path saquery = RealTools.executable("saquery").orElseThrow();
        for (List<String> q : List.of(List.of("-g"), List.of("-m"), List.of("MCMR"), List.of("--smkey", "1", "-m"),
                List.of("--smkey", "1", "MCMR"), List.of("--smkey", "1", "-g"))) {
            UmadClient.Result r = c.run(saquery, q.toArray(String[]::new));
            sb.append("$ saquery ").append(String.join(" ", q)).append(" (exit ").append(r.exit()).append(")\n")
                    .append(r.out()).append(r.err());
        }
        Path dumpMfts = RealTools.executable("dump_mfts").orElseThrow();
        UmadClient.Result d = c.run(dumpMfts);
        sb.append("$ dump_mfts (exit ").append(d.exit()).append(")\n").append(d.out()).append(d.err());
        Path ibroute = RealTools.executable("ibroute").orElseThrow();
        for (String guid : new String[] {"0x0000000000200000", "0x0000000000200001", "0x0000000000200002",
            "0x0000000000200003"}) {
            UmadClient.Result r = c.run(ibroute, "-M", "-G", guid);
            // the LIDs differ by SM: the header line names the switch by GUID and name
            sb.append("$ ibroute -M -G ").append(guid).append('\n')
                    .append(r.out().replaceAll("switch Lid \\d+ ", "switch Lid ? ")).append(r.err());
        }
        // the multicast routes between port GUIDs (ibsim's: CA n's port is 0x10000(2n-1)), LIDs blanked
        Path ibtracert = RealTools.executable("ibtracert").orElseThrow();
        for (String[] pair : new String[][] {{"0x100003", "0x100009"}, {"0x100001", "0x100005"},
            {"0x100009", "0x100003"}, {"0x100003", "0x100007"}, {"0x200000", "0x100009"}}) {
            UmadClient.Result r = c.run(ibtracert, "-m", "0xc000", "-G", pair[0], pair[1]);
            sb.append("$ ibtracert -m 0xc000 -G ").append(pair[0]).append(' ').append(pair[1]).append(" (exit ")
                    .append(r.exit()).append(")\n").append(r.out().replaceAll("lid \\d+(-\\d+)? ", "lid ? "));
        }
        return sb.toString().replaceAll("ibwarn: \\[\\d+]", "ibwarn: [pid]");
    }

    /** Our ibtracert -m prints what the real one prints (stderr and exit code too), at the real LIDs. */
    private static void sameTraces(UmadClient c, int port) throws Exception {
        Path ibtracert = RealTools.executable("ibtracert").orElseThrow();
        java.util.Map<String, Integer> lid = new java.util.HashMap<>();
        for (String n : new String[] {"H-h1", "H-h2", "H-h3", "H-h4", "H-h5", "H-h6", "core", "leaf1"}) {
            try (IbsimClient x = IbsimClient.connect(RemoteIbsim.HOST, port, n, false)) {
                lid.put(n, x.localPort().lid());
            }
        }
        for (String[] q : new String[][] {{"H-h2", "H-h3"}, {"H-h1", "H-h3"}, {"H-h5", "H-h2"}, {"H-h2", "H-h4"},
            {"leaf1", "H-h2"}, {"core", "H-h5"}, {"H-h2", "core"}, {"H-h1", "H-h1"}, {"-n", "H-h2", "H-h5"},
            {"H-h2", "H-h6"}}) {
            List<String> a = new ArrayList<>(List.of("-m", "0xc000"));
            for (String w : q) {
                a.add(lid.containsKey(w) ? Integer.toString(lid.get(w)) : w);
            }
            UmadClient.Result r = c.run(ibtracert, a.toArray(String[]::new));
            List<String> cmd = new ArrayList<>(List.of("ibtracert", "--ibsim", RemoteIbsim.HOST + ":" + port,
                    "--sim-host", c.simHost()));
            cmd.addAll(a);
            java.io.StringWriter out = new java.io.StringWriter();
            java.io.StringWriter err = new java.io.StringWriter();
            picocli.CommandLine cl = org.ibtwin.cli.Main.commandLine();
            cl.setOut(new java.io.PrintWriter(out, true));
            cl.setErr(new java.io.PrintWriter(err, true));
            int rc = cl.execute(cmd.toArray(String[]::new));
            String what = "ibtracert " + String.join(" ", a) + "\nreal:\n" + r.out() + r.err() + "ours:\n" + out
                    + err;
            assertThat(out.toString()).as(what).isEqualTo(r.out());
            assertThat(err.toString().replaceAll("ibwarn: \\[\\d+]", "ibwarn: [pid]")).as(what)
                    .isEqualTo(r.err().replaceAll("ibwarn: \\[\\d+]", "ibwarn: [pid]"));
            assertThat(rc).as(what).isEqualTo(r.exit());
        }
    }

    @Test
    void realSaqueryAndMftDumpsShowTheSameGroupsAndTreesFromOurSmAsFromOpenSm(@TempDir Path dir) throws Exception {
        RealTools tools = RealTools.findOrSkip();
        Path ours = Files.createDirectories(dir.resolve("ours"));
        Path theirs = Files.createDirectories(dir.resolve("opensm"));
        List<String> o = run(ours, tools, false);
        List<String> r = run(theirs, tools, true);
        for (int i = 0; i < r.size(); i++) {
            assertThat(o.get(i)).isEqualTo(r.get(i));
        }
        // and the trees are what the joins ask for: leaf3 carries the IPv6 group only while h5 is in it
        assertThat(r.get(1)).contains("0xc001        x             x ");
        assertThat(o.get(2)).doesNotContain("0xc001        x             x ");
    }
}
