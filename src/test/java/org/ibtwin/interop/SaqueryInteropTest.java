package org.ibtwin.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.ibtwin.cli.Cli;
import org.ibtwin.diag.MadQuery;
import org.ibtwin.format.PartitionsConf;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.Methods;
import org.ibtwin.sm.SmConfig;
import org.ibtwin.sm.SubnetManager;
import org.ibtwin.sm.SweepReport;
import org.ibtwin.transport.IbsimClient;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SA and saquery against the referees, on a real {@code ibsim -r} (UDP ports 18110..18170) and on the twin's
 * ibsim endpoint (18175..18199):
 * <ol>
 * <li>our SM (with a partitions file) on real ibsim: real {@code smpquery pkeys} shows the partitions' P_Keys, and
 *     real {@code saquery} gets from our SA what our {@code ibtwin saquery} gets, byte for byte, wherever the answer
 *     fits one MAD; where it does not (libumad2sim does no RMPP) real saquery gets the records of the first segment,
 *     as it does from OpenSM, and ours all of them.</li>
 * <li>real OpenSM on real ibsim: our {@code ibtwin saquery} prints what real saquery prints, errors and exit codes
 *     included.</li>
 * </ol>
 */
@Tag("interop")
class SaqueryInteropTest {
    private static final Duration TOOL_TIMEOUT = Duration.ofSeconds(20);
    /**
     * h2 and h3 in partition blue (0x0010, IPoIB), h4 alone in red (0x0020), by the port GUIDs ibsim gives
     * RemoteIbsim's four-CA net (CA n: node GUID 0x1000..., port GUID +1).
     */
    private static final String PARTITIONS = """
            Default=0x7fff, ipoib : ALL=limited, SELF=full ;
            blue=0x0010, ipoib : 0x0000000000100003=full, 0x0000000000100005 ;
            red=0x0020 : 0x0000000000100007=full ;
            """;
    /** The LIDs the SM gave: the CAs', the switch's. */
    record Lids(int h1, int sw, int h2, int h3, int h4) {
        static Lids read(int port) {
            return new Lids(RemoteIbsim.lid(port, "H-h1"), RemoteIbsim.lid(port, "sw1"), RemoteIbsim.lid(port, "H-h2"),
                    RemoteIbsim.lid(port, "H-h3"), RemoteIbsim.lid(port, "H-h4"));
        }

        /** Queries whose answers fit one MAD: real and ours must print the same, byte for byte. */
        List<List<String>> oneMad() {
            String h2s = Integer.toString(h2);
            return List.of(List.of("-x"), List.of("-s"), List.of("-g"), List.of("-m"), List.of("-m", "0xc001"),
                    List.of("SMIR"), List.of("SWIR"), List.of("NR", h2s), List.of("-c"), List.of("NR", "foo"),
                    List.of("NR", "0x"), List.of("NR", "99"), List.of("LR", Integer.toString(sw)), List.of("PIR", sw + "/3"), List.of("PIR", h2 + "/1"),
                    List.of("--src-to-dst", h2 + ":" + h3), List.of("-p", "--slid", h2s, "--dlid",
                            Integer.toString(h3)), List.of("LFTR", sw + "/0"), List.of("MCMR"),
                    List.of("SMIR", Integer.toString(h1)), List.of("-p", "--sgid-to-dgid", "fe80::10:3-fe80::10:5"));
        }

        /** Queries that look through every NodeRecord (names): one MAD or more, as the LIDs fall. */
        List<List<String>> byName() {
            return List.of(List.of("-L", "H-h1"), List.of("-G", "H-h1"), List.of("-l", "H-h1"),
                    List.of("-O", Integer.toString(h1)), List.of("-U", "0x0000000000100001"), List.of("-N", "H-h3"));
        }
    }

    private static RealTools tools;
    private static Path saquery;
    private static Path smpquery;

    @BeforeAll
    static void findTools() {
        tools = RealTools.findOrSkip();
        Optional<Path> s = RealTools.executable("saquery");
        Optional<Path> q = RealTools.executable("smpquery");
        if (s.isEmpty() || q.isEmpty()) {
            String notice = "INTEROP SKIPPED: saquery or smpquery not found (install infiniband-diags)";
            RealTools.skip(notice);
        }
        saquery = s.orElseThrow();
        smpquery = q.orElseThrow();
    }

    record Run(int exit, String out, String err) {
        String all() {
            return "exit " + exit + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    private static RemoteIbsim sim(Path dir) throws IOException, InterruptedException {
        Path net = dir.resolve("four.net");
        Files.writeString(net, RemoteIbsim.FOUR_CAS);
        return RemoteIbsim.start(tools.ibsim, net, 18110, 18160, List.of(), Duration.ofSeconds(10));
    }

    private static Run real(UmadClient c, Path exe, List<String> args) throws IOException, InterruptedException {
        UmadClient.Result r = c.run(exe, args.toArray(String[]::new));
        if (r.timedOut()) {
            fail(r.command() + " still running after " + TOOL_TIMEOUT.toSeconds() + " s");
        }
        return new Run(r.exit(), r.out(), r.err());
    }

    private static Run ours(int port, String node, List<String> args) {
        List<String> a = new ArrayList<>(List.of("saquery", "--ibsim", "127.0.0.1:" + port, "--sim-host", node));
        a.addAll(args);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int rc = Cli.execute(out, err, a.toArray(String[]::new));
        return new Run(rc, out.toString(), err.toString());
    }

    /** Real saquery's stderr shows its pid in ibwarn lines; they are the same lines otherwise. */
    private static String scrub(String err) {
        return err.replaceAll("ibwarn: \\[\\d+]", "ibwarn: [pid]");
    }

    private static void same(UmadClient c, int port, List<String> args) throws Exception {
        Run r = real(c, saquery, args);
        Run o = ours(port, c.simHost(), args);
        assertThat(o.out()).as("saquery " + args + "\nreal: " + r.all() + "\nours: " + o.all()).isEqualTo(r.out());
        assertThat(scrub(o.err())).as("saquery " + args + " stderr").isEqualTo(scrub(r.err()));
        assertThat(o.exit()).as("saquery " + args + " exit").isEqualTo(r.exit());
    }

    private static int count(String text, String what) {
        int n = 0;
        for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) {
            n++;
        }
        return n;
    }

    @Test
    void ourSmAndSaOnRealIbsimAnswerRealSaqueryAndSmpquery(@TempDir Path dir) throws Exception {
        try (RemoteIbsim ibsim = sim(dir)) {
            int port = ibsim.port();
            SubnetManager sm;
            try (IbsimClient smPort = IbsimClient.connect(RemoteIbsim.HOST, port, "H-h1", true)) {
                sm = new SubnetManager(smPort, SmConfig.defaults(), null);
                sm.partitions(PartitionsConf.parse(PARTITIONS, "partitions.conf"));
                SweepReport r = sm.sweep();
                assertThat(r.subnetUp()).as(String.join("\n", r.problems())).isTrue();
                UmadClient c = new UmadClient(tools.umad2sim, port, dir, "H-h2", TOOL_TIMEOUT);

                // P_Keys as the partitions say, read by the real smpquery
                Lids l = Lids.read(port);
                Run h2 = real(c, smpquery, List.of("pkeys", Integer.toString(l.h2()), "1"));
                assertThat(h2.out()).as(h2.all()).startsWith("   0: 0x7fff 0x8010 0x0000");
                Run h4 = real(c, smpquery, List.of("pkeys", Integer.toString(l.h4()), "1"));
                assertThat(h4.out()).as(h4.all()).startsWith("   0: 0x7fff 0x8020 0x0000");
                Run self = real(c, smpquery, List.of("pkeys", Integer.toString(l.h1()), "1"));
                assertThat(self.out()).as(self.all()).startsWith("   0: 0xffff 0x0000");
                Run swPort = real(c, smpquery, List.of("pkeys", Integer.toString(l.sw()), "3"));
                assertThat(swPort.out()).as(swPort.all()).startsWith("   0: 0x7fff 0x0010 0x0000");
                // (ibsim keeps no partition enforcement bits in PortInfo: SubnetAdministratorTest checks them)

                // real saquery and ours, the same where the answer fits one MAD
                Lids lids = Lids.read(port);
                for (List<String> q : lids.oneMad()) {
                    same(c, port, q);
                }
                // names: our saquery finds them in every NodeRecord (real saquery sees only the first segment's)
                assertThat(ours(port, "H-h2", List.of("-L", "H-h1")).out()).isEqualTo(l.h1() + "\n");
                assertThat(ours(port, "H-h2", List.of("-G", "H-h3")).out()).isEqualTo("0x0000000000100005\n");
                // h2 and h4 share no partition (Default: both limited): as OpenSM's SA, ours hides h4 from h2
                assertThat(ours(port, "H-h2", List.of("-O", Integer.toString(l.h4()))).out()).isEmpty();
                assertThat(ours(port, "H-h4", List.of("-O", Integer.toString(l.h4()))).out()).isEqualTo("H-h4\n");
                assertThat(real(c, saquery, List.of("NR", Integer.toString(l.h4()))).out()).isEmpty();
                assertThat(real(c, saquery, List.of("NR", Integer.toString(l.h3()))).out()).contains("H-h3");
                assertThat(ours(port, "H-h2", List.of("--src-to-dst", "H-h2:H-h3")).out())
                        .contains("pkey....................0x8010");
                // h3 and h4 share only Default, both limited: no path; h2 and h3 share blue
                String h3h4 = "--slid " + l.h3() + " --dlid " + l.h4();
                assertThat(real(c, saquery, List.of(("-p " + h3h4).split(" "))).out()).isEmpty();
                assertThat(real(c, saquery, List.of("-p", "--slid", "" + l.h2(), "--dlid", "" + l.h3())).out())
                        .contains("pkey....................0x8010");

                // more than one MAD: real saquery (no RMPP under libumad2sim) gets the first segment's records,
                // the same as OpenSM gives it; ours gets every record, the first ones the same
                Run realNr = real(c, saquery, List.of("NR"));
                Run ourNr = ours(port, "H-h2", List.of("NR"));
                assertThat(count(realNr.out(), "NodeRecord dump:")).isEqualTo(1);
                assertThat(count(ourNr.out(), "NodeRecord dump:")).as("all but h4").isEqualTo(4);
                assertThat(ourNr.out()).startsWith(realNr.out());
                Run realPir = real(c, saquery, List.of("PIR"));
                Run ourPir = ours(port, "H-h2", List.of("PIR"));
                assertThat(count(realPir.out(), "PortInfoRecord dump:")).isEqualTo(2);
                assertThat(count(ourPir.out(), "PortInfoRecord dump:")).isEqualTo(4 + 9);
                assertThat(ourPir.out()).startsWith(realPir.out());

                // our client through RMPP on real ibsim: every path, none between ports without a partition
                try (IbsimClient h3 = IbsimClient.connect(RemoteIbsim.HOST, port, "H-h3", false)) {
                    List<byte[]> paths = new MadQuery(h3).saQuery(r.smLid(), Methods.GET_TABLE,
                            AttributeIds.PATH_RECORD, 0, 0, 0, new byte[0]).records(64);
                    // 5 end ports; Default: h1 and the switch full, the rest limited; blue: h2 full, h3 limited.
                    // red: h4 full. h3 asks, and sees (as OpenSM's SA lets it) only the ports it shares a partition
                    // with: h1, sw, h2 and itself. Paths among those: h1 and sw to and from all (4 + 4 + 2 + 2 = 12),
                    // h2<->h3 (2), h2->h2 (a full member reaches itself); none h3->h3 (limited alone): 15
                    assertThat(paths).hasSize(15);
                }
                sm.detach();
            }
        }
    }

    @Test
    void ourSaqueryPrintsWhatRealSaqueryPrintsAgainstRealOpenSm(@TempDir Path dir) throws Exception {
        try (RemoteIbsim ibsim = sim(dir)) {
            int port = ibsim.port();
            Process osm = RealTools.opensmWithSa(tools, port, dir, PARTITIONS, TOOL_TIMEOUT);
            try {
                UmadClient c = new UmadClient(tools.umad2sim, port, dir, "H-h2", TOOL_TIMEOUT);
                Lids lids = Lids.read(port);
                List<List<String>> queries = new ArrayList<>(lids.oneMad());
                queries.addAll(lids.byName());
                // more than one MAD: OpenSM through libumad2sim sends the first 256 bytes alone, both print those
                queries.addAll(List.of(List.of(), List.of("NR"), List.of("PIR"), List.of("LFTR"), List.of("-D"),
                        List.of("PKTR"), List.of("PKTR", "--smkey", "0")));
                for (List<String> q : queries) {
                    same(c, port, q);
                }
                // the referee for what a requester may see: OpenSM's SA hides h4 (no shared partition) from h2
                assertThat(real(c, saquery, List.of("NR", Integer.toString(lids.h4()))).out()).isEmpty();
                assertThat(real(c, saquery, List.of("NR", Integer.toString(lids.h3()))).out()).contains("H-h3");
                assertThat(real(c, saquery, List.of("-p", "--slid", "" + lids.h3(), "--dlid", "" + lids.h1())).out())
                        .contains("PathRecord dump");
                UmadClient c4 = new UmadClient(tools.umad2sim, port, dir, "H-h4", TOOL_TIMEOUT);
                assertThat(real(c4, saquery, List.of("-p", "--slid", "" + lids.h1(), "--dlid", "" + lids.h3())).out())
                        .as("h4 asks for a path between two ports it may see one of").isEmpty();
            } finally {
                RealTools.stop(osm);
            }
        }
    }

    @Test
    void realSaqueryReachesOurSaOnTheTwinThroughItsIbsimEndpoint(@TempDir Path dir) throws Exception {
        Path net = dir.resolve("four.net");
        Files.writeString(net, RemoteIbsim.FOUR_CAS);
        org.ibtwin.sim.Twin twin = org.ibtwin.sim.Twin.of(org.ibtwin.format.FabricFiles.load(net));
        org.ibtwin.sim.Attachment at = twin.attach("H-h1", 0);
        at.setIsSm(true);
        try (org.ibtwin.sim.TwinTransport smPort = new org.ibtwin.sim.TwinTransport(at);
             org.ibtwin.sim.IbsimServer server = new org.ibtwin.sim.IbsimServer(name -> twin.attach(name, 0))) {
            SubnetManager sm = new SubnetManager(smPort, SmConfig.defaults(), null);
            sm.partitions(PartitionsConf.parse(PARTITIONS, "partitions.conf"));
            assertThat(sm.sweep().subnetUp()).isTrue();
            IOException last = null;
            boolean started = false;
            for (int port = 18175; port <= 18189 && !started; port++) {
                try {
                    server.start(java.net.InetAddress.getLoopbackAddress(), port);
                    started = true;
                } catch (IOException e) {
                    last = e;
                }
            }
            if (!started) {
                throw last;
            }
            int port = server.port();
            UmadClient c = new UmadClient(tools.umad2sim, port, dir, "H-h2", TOOL_TIMEOUT);
            Lids lids = Lids.read(port);
            for (List<String> q : lids.oneMad()) {
                same(c, port, q);
            }
            Run realNr = real(c, saquery, List.of("NR"));
            Run ourNr = ours(port, "H-h2", List.of("NR"));
            assertThat(count(realNr.out(), "NodeRecord dump:")).isEqualTo(1);
            // the twin numbers GUIDs its own way, so the file's blue names no port here: h2 sees h1, sw1, itself
            assertThat(count(ourNr.out(), "NodeRecord dump:")).as(ourNr.all()).isEqualTo(3);
            assertThat(ourNr.out()).startsWith(realNr.out());
            // as OpenSM's SA (the referee in the test above): h2 does not see h4, nor h4 a path from h1 to h3
            assertThat(real(c, saquery, List.of("NR", Integer.toString(lids.h4()))).out()).isEmpty();
            UmadClient c4 = new UmadClient(tools.umad2sim, port, dir, "H-h4", TOOL_TIMEOUT);
            assertThat(real(c4, saquery, List.of("-p", "--slid", "" + lids.h1(), "--dlid", "" + lids.h3())).out())
                    .isEmpty();
            assertThat(real(c4, saquery, List.of("-p", "--slid", "" + lids.h1(), "--dlid", "" + lids.h4())).out())
                    .contains("PathRecord dump");
            sm.detach();
        }
    }
}
