package org.ibtwin.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import java.io.File;
import java.io.IOException;
import java.io.Writer;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.assertj.core.groups.Tuple;
import org.ibtwin.doctor.Doctor;
import org.ibtwin.doctor.FabricState;
import org.ibtwin.doctor.Finding;
import org.ibtwin.doctor.LiveSource;
import org.ibtwin.doctor.OfflineSource;
import org.ibtwin.doctor.Report;
import org.ibtwin.doctor.Severity;
import org.ibtwin.doctor.Snapshot;
import org.ibtwin.doctor.SnapshotDiff;
import org.ibtwin.doctor.Thresholds;
import org.ibtwin.format.FabricDescription;
import org.ibtwin.format.TopologyWriter;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.model.Cable;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.LinkWidth;
import org.ibtwin.model.Node;
import org.ibtwin.model.Port;
import org.ibtwin.transport.IbsimClient;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Doctor against the real thing: a fat tree with a 4xDDR inter-switch link and a 1xHDR host link, written by
 * ibtwin, run by real ibsim ({@code -r}, console on stdin) under real OpenSM, with counters set through ibsim's
 * {@code PerformanceSet}. The real infiniband-diags save their outputs into a directory; doctor --from reads them,
 * doctor also discovers the same fabric live over ibsim's client protocol, and both must name the same problems on
 * the same links and ports (and the model read from the net file the same links). A second perfquery reading after
 * the errors rose turns the counter finding into a rising one, and snapshot diff shows the rise.
 */
@Tag("interop")
class DoctorInteropTest {
    private static final Duration TOOL_TIMEOUT = Duration.ofSeconds(90);

    @Test
    void offlineFromRealToolOutputsEqualsLive(@TempDir Path dir) throws Exception {
        RealTools tools = RealTools.findOrSkip();
        List<String> needed = List.of("iblinkinfo", "perfquery", "ibqueryerrors", "sminfo", "saquery");
        for (String t : needed) {
            if (RealTools.executable(t).isEmpty()) {
                org.junit.jupiter.api.Assumptions.assumeTrue(false, "INTEROP SKIPPED: " + t + " not found");
            }
        }
        Fabric f = FatTree.build(FatTreeSpec.of(2, 8, 12).withSpeed(LinkSpeed.HDR));
        int lid = 1;
        for (Node n : f.switches()) {
            n.port(0).setLid(lid++);
        }
        for (Node n : f.cas()) {
            n.port(1).setLid(lid++);
        }
        Port isl = node(f, "leaf02").port(5);
        isl.link().setCable(Cable.UNRATED.withMaxSpeed(LinkSpeed.DDR));
        Port host = node(f, "node003").port(1);
        host.link().setCable(Cable.UNRATED.withMaxWidth(LinkWidth.X1));
        Path net = dir.resolve("fabric.topo");
        TopologyWriter.write(f, net);
        Report model = Doctor.examine(FabricState.of(org.ibtwin.format.FabricFiles.load(net), "model", "-"),
                new Thresholds());
        List<Tuple> linkFindings = List.of(tuple("T04", "leaf02/5 <-> spine01/3"),
                tuple("T05", "node003/1 <-> leaf01/3"));
        assertThat(ids(model)).as(model.toText()).containsExactlyElementsOf(linkFindings);

        try (Ibsim sim = Ibsim.start(tools, net, dir)) {
            sim.opensm();
            String leaf02 = "S-" + String.format("%016x", node(f, "leaf02").guid());
            String spine02 = "S-" + String.format("%016x", node(f, "spine02").guid());
            String node005 = "H-" + String.format("%016x", node(f, "node005").guid());
            sim.console("PerformanceSet \"" + leaf02 + "\"[2] PortCounters.SymbolErrorCounter=1234");
            sim.console("PerformanceSet \"" + node005 + "\"[1] PortCounters.LinkDownedCounter=7");
            sim.console("PerformanceSet \"" + spine02 + "\"[1] PortCounters.PortXmitWait=99999");
            Path out = Files.createDirectories(dir.resolve("out"));
            sim.tool(out.resolve("ibnetdiscover.txt"), "ibnetdiscover");
            sim.tool(out.resolve("iblinkinfo.txt"), "iblinkinfo");
            sim.tool(out.resolve("ibqueryerrors.txt"), "ibqueryerrors");
            sim.tool(out.resolve("sminfo.txt"), "sminfo");
            sim.tool(out.resolve("saquery-smir.txt"), "saquery", "SMIR");
            StringBuilder pq = new StringBuilder();
            for (Node n : f.nodes()) {
                pq.append(sim.run("perfquery", n.isSwitch() ? List.of("-l", Integer.toString(n.port(0).lid()), "255")
                        : List.of(Integer.toString(n.port(1).lid()), "1")));
            }
            java.time.Instant t1 = java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
            Files.writeString(out.resolve("perfquery-1.txt"), t1 + "\n" + pq, StandardCharsets.UTF_8);

            FabricState offline = OfflineSource.load(out);
            Report fromFiles = Doctor.examine(offline, new Thresholds());
            FabricState liveState;
            try (IbsimClient c = IbsimClient.connect("127.0.0.1", sim.port, null, false, Duration.ofSeconds(5))) {
                liveState = LiveSource.discover(c, null, s -> { }, "live");
            }
            Report live = Doctor.examine(liveState, new Thresholds());
            List<Tuple> expected = new ArrayList<>(linkFindings);
            expected.add(tuple("T09", "leaf01/0"));
            expected.add(tuple("T16", "leaf02/2"));
            expected.add(tuple("T22", "spine02/1"));
            expected.add(tuple("T24", "node005/1"));
            assertThat(ids(fromFiles)).as(fromFiles.toText()).containsExactlyElementsOf(expected);
            assertThat(ids(live)).as(live.toText()).containsExactlyElementsOf(expected);
            assertThat(fromFiles.ignored()).isEmpty();

            // the errors keep coming: a second reading makes them a rising ERROR, with a rate
            sim.console("PerformanceSet \"" + leaf02 + "\"[2] PortCounters.SymbolErrorCounter=1834");
            pq.setLength(0);
            for (Node n : f.switches()) {
                pq.append(sim.run("perfquery", List.of("-l", Integer.toString(n.port(0).lid()), "255")));
            }
            Files.writeString(out.resolve("perfquery-2.txt"), t1.plusSeconds(600) + "\n" + pq, StandardCharsets.UTF_8);
            Report again = Doctor.examine(OfflineSource.load(out), new Thresholds());
            Finding t16 = again.findings().stream().filter(x -> x.id().equals("T16")).findFirst().orElseThrow();
            assertThat(t16.severity()).isEqualTo(Severity.ERROR);
            assertThat(t16.evidence().get(0)).startsWith("leaf02/2: SymbolErrorCounter rose by 600 in 10 min "
                    + "(3600/hour): 1234 -> 1834");
            SnapshotDiff d = SnapshotDiff.of(Snapshot.of(offline), Snapshot.of(OfflineSource.load(out)));
            assertThat(d.counterRises()).contains("leaf02/2: SymbolErrorCounter +600 (1234 -> 1834)");
        }
    }

    private static List<Tuple> ids(Report r) {
        return r.findings().stream().map(x -> tuple(x.id(), x.where())).toList();
    }

    private static Node node(Fabric f, String host) {
        return f.nodes().stream().filter(n -> FabricDescription.hostName(n).equals(host)).findFirst().orElseThrow();
    }

    /** A real {@code ibsim -r -l PORT -s} with its console on our pipe, and OpenSM; closing stops both. */
    static final class Ibsim implements AutoCloseable {
        final RealTools tools;
        final Process process;
        final int port;
        final Path dir;
        final Path log;
        final Writer console;
        Process opensm;

        private Ibsim(RealTools tools, Process process, int port, Path dir, Path log) {
            this.tools = tools;
            this.process = process;
            this.port = port;
            this.dir = dir;
            this.log = log;
            this.console = new java.io.OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        }

        static Ibsim start(RealTools tools, Path net, Path dir) throws IOException, InterruptedException {
            for (int tries = 0; tries < 8; tries++) {
                int port = RemoteIbsim.freeRange(17400, 17480);
                Path log = dir.resolve("ibsim-" + port + ".out");
                ProcessBuilder pb = new ProcessBuilder(tools.ibsim.toString(), "-r", "-l", Integer.toString(port), "-s",
                        net.toAbsolutePath().toString()).directory(dir.toFile()).redirectErrorStream(true)
                        .redirectOutput(log.toFile());
                pb.environment().put("IBSIM_SOCKNAME", "ibtdoc" + ProcessHandle.current().pid() + "p" + port);
                pb.environment().remove("LD_PRELOAD");
                Process p = pb.start();
                Ibsim sim = new Ibsim(tools, p, port, dir, log);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (p.isAlive() && !read(log).contains(RealTools.READY) && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
                if (p.isAlive() && read(log).contains(RealTools.READY)) {
                    return sim;
                }
                sim.close();
            }
            throw new IOException("ibsim did not start on any port range in 17400..17480");
        }

        private Map<String, String> clientEnv(Map<String, String> env) {
            for (String k : new String[] {"SIM_HOST", "SIM_SET_ISSM", "IBSIM_SOCKNAME"}) {
                env.remove(k);
            }
            env.put("LD_PRELOAD", tools.umad2sim.toString());
            env.put("IBSIM_SERVER_NAME", "127.0.0.1");
            env.put("IBSIM_SERVER_PORT", Integer.toString(port));
            env.put("OSM_CACHE_DIR", dir.toString());
            env.put("OSM_TMP_DIR", dir.toString());
            return env;
        }

        /** One {@code opensm -o} (LIDs for everyone), then OpenSM left running until sminfo sees it master. */
        void opensm() throws IOException, InterruptedException {
            run(tools.opensm.toString(), List.of("-o", "-f", dir.resolve("opensm-once.log").toString()));
            Path osmLog = dir.resolve("opensm.log");
            ProcessBuilder pb = new ProcessBuilder(tools.opensm.toString(), "-f", osmLog.toString())
                    .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(dir.resolve("opensm.out")
                            .toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            clientEnv(pb.environment());
            opensm = pb.start();
            long deadline = System.nanoTime() + TOOL_TIMEOUT.toNanos();
            // OpenSM writes its log late; ask the SM itself
            while (!run("sminfo", List.of()).contains("SMINFO_MASTER")) {
                if (!opensm.isAlive() || System.nanoTime() > deadline) {
                    throw new IOException("OpenSM did not become master:\n" + RealTools.tail(read(osmLog)));
                }
                Thread.sleep(200);
            }
        }

        void console(String command) throws IOException, InterruptedException {
            String before = read(log);
            console.write(command + "\n");
            console.flush();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!read(log).substring(Math.min(before.length(), read(log).length())).contains("has been set")) {
                if (System.nanoTime() > deadline) {
                    throw new IOException("ibsim did not take \"" + command + "\":\n" + RealTools.tail(read(log)));
                }
                Thread.sleep(20);
            }
        }

        String run(String tool, List<String> args) throws IOException, InterruptedException {
            List<String> cmd = new ArrayList<>();
            cmd.add(tool.startsWith("/") ? tool : RealTools.executable(tool).orElseThrow().toString());
            cmd.addAll(args);
            Path o = Files.createTempFile(dir, Path.of(tool).getFileName().toString(), ".out");
            ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectOutput(o.toFile())
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            clientEnv(pb.environment());
            Process p = pb.start();
            if (!p.waitFor(TOOL_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                RealTools.stop(p);
                throw new IOException(String.join(" ", cmd) + " did not finish");
            }
            return read(o);
        }

        void tool(Path into, String tool, String... args) throws IOException, InterruptedException {
            Files.writeString(into, run(tool, List.of(args)), StandardCharsets.UTF_8);
        }

        @Override
        public void close() {
            if (opensm != null) {
                RealTools.stop(opensm);
            }
            try {
                console.close();
            } catch (IOException e) {
                // ibsim may be gone already
            }
            RealTools.stop(process);
        }

        private static String read(Path p) {
            return RealTools.read(p);
        }
    }
}
