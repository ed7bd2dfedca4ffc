package org.ibtwin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.format.FabricFiles;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Link;
import org.ibtwin.model.PortState;
import org.ibtwin.sim.IbsimServer;
import org.ibtwin.sim.Twin;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code ibtwin up} and {@code ibtwin sm} as a user runs them. */
class SmCommandsTest extends CliTest {
    /** {@code ibtwin sm args}, with no IBSIM_* environment whatever this JVM's is; what it printed added to out, err. */
    private int sm(String... args) {
        SmCommand cmd = new SmCommand();
        CommandLine cl = new CommandLine(cmd);
        cmd.env = Map.of();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    /** {@code up --local}: the SM brings the twin up, then its endpoint serves ibsim's local mode. */
    @Test
    void upServesIbsimsLocalModeAndSaysWhere() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(
                org.ibtwin.sim.IbsimServer.socketImplementation().equals("libc"),
                "ibsim's local mode needs C-library sockets (a JDK 22+ on Linux)");
        Path s = dir.resolve("quit.sim");
        java.nio.file.Files.writeString(s, "clients\nQuit\n");
        String name = "ibtwin-up-" + ProcessHandle.current().pid();
        assertThat(runAppending("up", "--local=" + name, "--script", s.toString())).as(err.toString()).isZero();
        assertThat(out.toString()).contains("SUBNET UP", "ibsim endpoint on local sockets @" + name + ":ctl, @"
                + name + ":out0..9 (IBSIM_SOCKNAME=" + name + "); the SM sweeps every 10 s",
                "Network simulator ready.", "no clients");
    }

    /** A taken UDP range is one line and exit 2, as in {@code ibtwin sim}. */
    @Test
    void upOnATakenPortIsOneLineAndExitTwo() throws Exception {
        try (java.nio.channels.DatagramChannel taken = java.nio.channels.DatagramChannel.open(
                java.net.StandardProtocolFamily.INET)) {
            taken.bind(new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 17673));
            assertThat(runAppending("up", "--port", "17670", "--no-console")).isEqualTo(2);
            assertThat(err.toString()).isEqualTo("ibtwin up: --port: port 17673 of 127.0.0.1 is taken (an ibsim "
                    + "server needs 17670..17680)\n");
        }
    }

    @Test
    void upOnceBringsUpTheDefaultFabricAndSummarises() {
        assertThat(runAppending("up", "--once")).isZero();
        assertThat(out.toString()).matches("(?s)"
                + "ibtwin up: default fabric \\(built-in\\): 65 nodes \\(5 switches, 60 CAs\\), 120 links, 1 degraded\n"
                + "  degraded: leaf02/33 <-> spine01/17 4xDDR \\(could be 4xHDR\\)\n"
                + "  SM at node001/1 \\(port GUID 0x0002c90300000003\\), LID 6\n"
                + "  LIDs: 65 end ports: 65 kept, 0 restored, 0 assigned\n"
                + "  routing: minhop \\(shortest paths, balanced\\); 10 LFT blocks on 5 switches\n"
                + "  ports: 240 active \\(0 activated now\\)\n"
                + "SUBNET UP in [0-9.]+ m?s \\(776 SMPs; twin started in [0-9.]+ m?s\\)\n");
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void upOnceOnAFabricFileWithGuid2lidAndAnEngineChain() throws Exception {
        Path[] files = FabricFiles.write(FatTree.build(FatTreeSpec.of(3, 8, 64)), dir.resolve("lab"));
        Path g2l = dir.resolve("guid2lid");
        assertThat(runAppending("up", "--once", files[1].toString(), "-R", "ftree,updn", "--guid2lid", g2l.toString(),
                "--check-routes")).isZero();
        assertThat(out.toString()).contains(": 104 nodes (40 switches, 64 CAs), 192 links, 0 degraded\n")
                .contains("  LIDs: 104 end ports: 0 kept, 0 restored, 104 assigned\n")
                .contains("  routing: ftree (3 levels, 16 leaves, 8 switches at the top")
                .contains("  ports: 384 active (384 activated now)\n")
                .contains("\nSUBNET UP in ");
        assertThat(Files.readString(g2l)).hasLineCount(208);
        out.getBuffer().setLength(0);
        assertThat(runAppending("up", "--once", files[1].toString(), "--guid2lid", g2l.toString(), "--json")).isZero();
        JsonNode j = new ObjectMapper().readTree(out.toString());
        assertThat(j.get("lidsRestored").asInt()).isEqualTo(104);
        assertThat(j.get("lidsAssigned").asInt()).isZero();
        assertThat(j.get("subnetUp").asBoolean()).isTrue();
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void upAttachesTheSmWhereTold() {
        assertThat(runAppending("up", "--once", "-g", "0x0002c90380000001")).isZero();
        assertThat(out.toString()).contains("  SM at leaf02/0 (port GUID 0x0002c90380000001), LID 2\n");
        assertThat(err.toString()).isEmpty();
        out.getBuffer().setLength(0);
        assertThat(runAppending("up", "--once", "--sm-node", "spine02")).isZero();
        assertThat(out.toString()).contains("  SM at spine02/0 ");
    }

    @Test
    void badSmOptionsAreOneLineAndExit2() {
        assertThat(runAppending("up", "--once", "-R", "ftree,lash")).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin up: unknown routing engine \"lash\" (known: minhop, updn, "
                + "ftree, dor, dfsssp)\n");
        err.getBuffer().setLength(0);
        assertThat(runAppending("up", "--once", "-g", "0x1234")).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin up: -g 0x0000000000001234: no CA port or switch with that GUID "
                + "in the default fabric\n");
        err.getBuffer().setLength(0);
        assertThat(runAppending("up", "--once", "--lmc", "9")).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin up: LMC must be 0..7, not 9\n");
    }

    @Test
    void upServesTheIbsimEndpointAndAConsoleUntilQuit() throws Exception {
        java.io.PipedOutputStream keys = new java.io.PipedOutputStream();
        java.io.InputStream stdin = System.in;
        int port = 17800 + java.util.concurrent.ThreadLocalRandom.current().nextInt(80);
        System.setIn(new java.io.PipedInputStream(keys));
        try {
            int[] rc = {-1};
            Thread up = new Thread(() -> rc[0] = runAppending("up", "-p", Integer.toString(port), "-s", "1"));
            up.start();
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (!out.toString().contains("Network simulator ready.") && up.isAlive()
                    && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(out.toString()).as(err.toString()).contains("ibsim endpoint on 127.0.0.1 (UDP " + port);
            // a client of the endpoint sees the LIDs the SM gave out, and the SM answers SMInfo
            try (var client = org.ibtwin.transport.IbsimClient.connect("127.0.0.1", port, "node005 mlx5_0", false)) {
                var q = new org.ibtwin.diag.MadQuery(client);
                byte[] ni = q.smpGet(org.ibtwin.mad.PortId.lid(1), org.ibtwin.mad.AttributeIds.NODE_INFO, 0);
                assertThat(org.ibtwin.mad.SmpAttributes.NODE_INFO.get(ni, 0, "Guid")).isEqualTo(0x0002c90380000000L);
                byte[] sm = q.smpGet(org.ibtwin.mad.PortId.lid(6), org.ibtwin.mad.AttributeIds.SM_INFO, 0);
                assertThat(org.ibtwin.mad.SmpAttributes.SM_INFO.get(sm, 0, "SmState")).isEqualTo(3);
            }
            keys.write("sweep\nhelp\nquit\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            keys.flush();
            up.join(20_000);
            assertThat(up.isAlive()).isFalse();
            assertThat(rc[0]).isZero();
            assertThat(out.toString()).contains("sim> heavy sweep requested\nsim> ")
                    .contains("  sweep                               ibtwin up: a heavy sweep by the SM now");
        } finally {
            System.setIn(stdin);
        }
    }

    @Test
    void smOnceBringsUpATwinServedOverTheIbsimProtocol() throws Exception {
        Fabric fabric = FatTree.build(FatTreeSpec.of(2, 8, 16));
        Twin twin = Twin.of(fabric);
        try (IbsimServer server = new IbsimServer(name -> twin.attach(name, 0))) {
            server.start(InetAddress.getLoopbackAddress(), 0);
            int rc = sm("-o", "--ibsim", "127.0.0.1:" + server.port(), "-R", "updn", "--check-routes");
            assertThat(rc).as(out + "\n" + err).isZero();
            assertThat(out.toString()).contains("ibtwin sm: attached at 127.0.0.1:" + server.port() + " node \"")
                    .contains("Discovery: 22 nodes (6 switches, 16 CAs), 32 links, ")
                    .contains("Routing check: 64 CA routes, 0 unreached, no credit loop")
                    .contains("SUBNET UP (sweep 1: ");
            for (Link l : fabric.links()) {
                assertThat(twin.portState(l.a().node().name(), l.a().number())).isEqualTo(PortState.ACTIVE);
                assertThat(twin.portState(l.b().node().name(), l.b().number())).isEqualTo(PortState.ACTIVE);
            }
            assertThat(server.clients()).isEmpty();
        }
    }

    @Test
    void smOnceGoesStandbyWhereAMasterRunsAndWritesNoDumps() throws Exception {
        Fabric fabric = FatTree.build(FatTreeSpec.of(2, 8, 16));
        Twin twin = Twin.of(fabric);
        var at = twin.attach(fabric.cas().get(0).name(), 0);
        at.setIsSm(true);
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        try (org.ibtwin.sim.TwinTransport t = new org.ibtwin.sim.TwinTransport(at);
             IbsimServer server = new IbsimServer(name -> twin.attach(name, 0))) {
            org.ibtwin.sm.SubnetManager master = new org.ibtwin.sm.SubnetManager(t,
                    org.ibtwin.sm.SmConfig.defaults().withPriority(5), org.ibtwin.sm.SmLog.quiet());
            org.ibtwin.sm.SmStateMachine machine = new org.ibtwin.sm.SmStateMachine(master,
                    org.ibtwin.sm.SmStateMachine.Polling.defaults(), org.ibtwin.sm.SmLog.quiet());
            Thread th = new Thread(() -> machine.run(stop));
            th.setDaemon(true);
            th.start();
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (master.lids() == null) {
                assertThat(System.nanoTime()).isLessThan(deadline);
                Thread.sleep(20);
            }
            server.start(InetAddress.getLoopbackAddress(), 0);
            Path dumps = dir.resolve("dumps");
            int rc = sm("-o", "--ibsim", "127.0.0.1:" + server.port(), "--sim-host",
                    fabric.cas().get(4).name(), "-p", "3", "--dump-dir", dumps.toString());
            assertThat(rc).as(out + "\n" + err).isZero();
            assertThat(out.toString()).contains("Entering DISCOVERING state\n")
                    .containsPattern("Found SM 0x0002c90300000003 \\(priority 5, MASTER\\) at node001/1\n")
                    .contains("Entering STANDBY state (from DISCOVERING): found master SM 0x0002c90300000003 "
                            + "(priority 5, MASTER) at node001/1\n")
                    .doesNotContain("SUBNET UP");
            assertThat(dumps).doesNotExist();
            out.getBuffer().setLength(0);
            rc = sm("-o", "-q", "--ibsim", "127.0.0.1:" + server.port(), "--sim-host",
                    fabric.cas().get(4).name());
            assertThat(rc).isZero();
            assertThat(out.toString()).isEqualTo("STANDBY: master SM 0x0002c90300000003 (priority 5, MASTER) at "
                    + "node001/1\n");
        } finally {
            stop.set(true);
        }
    }

    @Test
    void badStateMachineOptionsAreOneLineAndExit2() {
        assertThat(runAppending("sm", "-o", "-p", "16", "--ibsim", "127.0.0.1:1")).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin sm: -p/--priority must be 0..15, not 16\n");
        err.getBuffer().setLength(0);
        assertThat(runAppending("sm", "-o", "--polling_retry_number", "0", "--ibsim", "127.0.0.1:1")).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin sm: --polling_retry_number must be at least 1\n");
        err.getBuffer().setLength(0);
        assertThat(runAppending("sm", "-o", "--sminfo_polling_timeout", "0", "--ibsim", "127.0.0.1:1")).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin sm: --sminfo_polling_timeout must be at least 1 ms\n");
    }
}
