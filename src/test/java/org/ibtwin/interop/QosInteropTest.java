package org.ibtwin.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * QoS (-Q, opensm.conf's qos_* options) on a real {@code ibtwin up} process (UDP ports 25100..25160) and through
 * {@code ibtwin sm -o} on real ibsim (25170..25199), judged by real
 * smpquery: the SL2VL tables and VL arbitration of CA ports and switch external ports are what the options asked
 * for, VLHighLimit too; a bad option is one warning line naming file:line.
 */
@Tag("interop")
class QosInteropTest {
    @Test
    void smpqueryShowsTheTablesTheOptionsAskedFor(@TempDir Path dir) throws Exception {
        Path conf = dir.resolve("opensm.conf");
        Files.writeString(conf, """
                # QoS for the test
                qos TRUE
                qos_ca_sl2vl 0,1,2,3,0,1,2,3,0,1,2,3,0,1,2,15
                qos_ca_high_limit 7
                qos_swe_vlarb_high 1:8,2:16
                qos_swe_vlarb_low 0:32,3:1
                qos_sl2vl 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
                qos_swe_sl2vl 1,2,3
                """);
        IbtwinUp up = IbtwinUp.start(dir, 25100, 25160, "three.net", RemoteIbsim.THREE_CAS, "--sm-node", "H-h1", "-F", conf.toString(),
                "-s", "0");
        Path err = up.err();
        int port = up.port();
        try {
            UmadClient c = up.client("H-h2");
            Path smpquery = RealTools.executable("smpquery").orElseThrow();
            int h3 = RemoteIbsim.lid(port, "H-h3");
            int sw = switchLid(c, smpquery, h3);
            // the CA: qos_ca_sl2vl, VLs masked to its operational VL0-7 (VL15 stays), VLHighLimit 7
            assertThat(c.run(smpquery, "sl2vl", Integer.toString(h3), "1").out()).contains(
                    "ports: in  0, out  0: | 0| 1| 2| 3| 0| 1| 2| 3| 0| 1| 2| 3| 0| 1| 2|15|");
            String pi = c.run(smpquery, "portinfo", Integer.toString(h3), "1").out();
            assertThat(pi).contains("VLHighLimit:.....................7\n");
            // the CA's VL arbitration: OpenSM's defaults (no qos_ca_ or qos_ tables given)
            assertThat(c.run(smpquery, "vlarb", Integer.toString(h3), "1").out()).contains("""
                    # High priority VL Arbitration Table:
                    VL    : |0x0 |0x1 |0x2 |0x3 |0x4 |0x5 |0x6 |0x7 |
                    WEIGHT: |0x4 |0x0 |0x0 |0x0 |0x0 |0x0 |0x0 |0x0 |
                    """);
            // a switch external port: qos_swe_vlarb_*; the bad qos_swe_sl2vl left out, so qos_sl2vl (masked to VL0-7, VL15 kept)
            assertThat(c.run(smpquery, "vlarb", Integer.toString(sw), "3").out()).contains("""
                    # Low priority VL Arbitration Table:
                    VL    : |0x0 |0x3 |0x0 |0x0 |0x0 |0x0 |0x0 |0x0 |
                    WEIGHT: |0x20|0x1 |0x0 |0x0 |0x0 |0x0 |0x0 |0x0 |
                    # High priority VL Arbitration Table:
                    VL    : |0x1 |0x2 |0x0 |0x0 |0x0 |0x0 |0x0 |0x0 |
                    WEIGHT: |0x8 |0x10|0x0 |0x0 |0x0 |0x0 |0x0 |0x0 |
                    """);
            String sl2vl = c.run(smpquery, "sl2vl", Integer.toString(sw), "3").out();
            for (int in = 0; in <= 8; in++) {
                assertThat(sl2vl).contains(String.format("ports: in %2d, out  3: | 0| 1| 2| 3| 4| 5| 6| 7| 0| 1| 2| "
                        + "3| 4| 5| 6|15|", in));
            }
            assertThat(RealTools.read(err)).containsOnlyOnce("qos_swe_sl2vl").contains("ibtwin up: warning: " + conf
                    + ":8: qos_swe_sl2vl 1,2,3: 3 VLs listed, not 16 (one for each SL); ignored");
        } finally {
            up.close();
        }
    }

    /** The same options through {@code ibtwin sm -o -F} on real ibsim (UDP 25170..25199): real smpquery sees them. */
    @Test
    void onRealIbsimAfterSmDashO(@TempDir Path dir) throws Exception {
        RealTools tools = RealTools.findOrSkip();
        Path net = dir.resolve("three.net");
        Files.writeString(net, RemoteIbsim.THREE_CAS);
        Path conf = dir.resolve("opensm.conf");
        Files.writeString(conf, "qos TRUE\nqos_ca_sl2vl 0,1,2,3,0,1,2,3,0,1,2,3,0,1,2,15\nqos_ca_high_limit 5\n"
                + "qos_swe_vlarb_low 0:32,3:1\n");
        try (RemoteIbsim sim = RemoteIbsim.start(tools.ibsim, net, 25170, 25199, List.of(), Duration.ofSeconds(20))) {
            java.io.StringWriter out = new java.io.StringWriter();
            java.io.StringWriter err = new java.io.StringWriter();
            picocli.CommandLine cl = org.ibtwin.cli.Main.commandLine();
            cl.setOut(new java.io.PrintWriter(out, true));
            cl.setErr(new java.io.PrintWriter(err, true));
            int rc = cl.execute("sm", "-o", "--ibsim", "127.0.0.1:" + sim.port(), "-F", conf.toString());
            assertThat(rc).as(out + "\n" + err).isZero();
            UmadClient c = new UmadClient(tools.umad2sim, sim.port(), dir, "H-h2", IbtwinUp.TOOL_TIMEOUT);
            Path smpquery = RealTools.executable("smpquery").orElseThrow();
            int h3 = RemoteIbsim.lid(sim.port(), "H-h3");
            String sl2vl = c.run(smpquery, "sl2vl", Integer.toString(h3), "1").out();
            String pi = c.run(smpquery, "portinfo", Integer.toString(h3), "1").out();
            String operVls = pi.lines().filter(l -> l.startsWith("OperVLs:")).findFirst().orElse("");
            // ibsim's CA ports run VL0-3 at most: the table masked to them, VL15 kept
            assertThat(sl2vl).as(operVls).contains(operVls.endsWith("VL0-3")
                    ? "ports: in  0, out  0: | 0| 1| 2| 3| 0| 1| 2| 3| 0| 1| 2| 3| 0| 1| 2|15|"
                    : "ports: in  0, out  0: | ");
            // (real ibsim answers VLHighLimit 0 after the SM set it; the twin keeps it, checked above)
            int sw = switchLid(c, smpquery, h3);
            assertThat(c.run(smpquery, "vlarb", Integer.toString(sw), "3").out()).contains("""
                    # Low priority VL Arbitration Table:
                    VL    : |0x0 |0x3 |""");
        }
    }

    private static int switchLid(UmadClient c, Path smpquery, int caLid) throws Exception {
        // the CA's neighbour: smpquery nodeinfo over the directed route 0,1 from H-h2 reaches the switch
        String ni = c.run(RealTools.executable("smpquery").orElseThrow(), "-D", "portinfo", "0,1", "0").out();
        for (String l : ni.split("\n")) {
            if (l.startsWith("Lid:")) {
                return Integer.parseInt(l.replaceAll("\\D", ""));
            }
        }
        throw new AssertionError("no switch LID in\n" + ni + " (CA LID " + caLid + ", " + smpquery + ")");
    }
}
