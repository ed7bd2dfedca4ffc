package org.ibtwin.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ibtwin.cli.Main;
import org.ibtwin.format.TopologyReader;
import org.ibtwin.format.TopologyWriter;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Node;
import org.ibtwin.model.Port;
import org.ibtwin.perf.DataCounters;
import org.ibtwin.perf.Op;
import org.ibtwin.perf.Spec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The traffic engine against the real tools: {@code ibtwin up} (ibtwin's SM) serves a 2-level fat tree over its ibsim
 * endpoint, in a process of its own with its console on our pipe; real {@code ibnetdiscover} learns the LIDs, real
 * {@code perfquery} reads every port's counters before and after the console ran {@code traffic start ...
 * --seconds 10}.
 *
 * <p>Shift: on every CA port PortXmitData (extended) rose by the words of its flow's data and of the ACKs of the
 * flow it receives, as the engine's status counts them, plus whole MADs (72 words each: the perfquery reads
 * themselves); on every switch, the words that came in left. Incast 8 to 1: PortXmitWait rose on the sink's leaf
 * port and on no other port, and {@code ibtwin doctor --ibsim} names that port under T22.
 */
@Tag("interop")
@Timeout(300)
class TrafficInteropTest {
    /** Control ports tried in turn, each with the ten after it: this test's band is 18400..18499. */
    static final int[] PORTS = {18400, 18411, 18422, 18433};
    static final Duration TOOL = Duration.ofSeconds(30);
    static final Pattern FIELD = Pattern.compile("^(\\w+):\\.*(\\d+)$", Pattern.MULTILINE);
    /** "  node001          node009    98.31    3  4096      1,875,056 ..." from traffic status. */
    static final Pattern FLOW = Pattern.compile("^  (\\S+)\\s+(\\S+)\\s+([\\d.]+)\\s+(\\d+)\\s+(\\d+)\\s+([\\d,]+)\\s+"
            + "([\\d,]+)  ", Pattern.MULTILINE);

    @TempDir
    Path dir;
    Process up;
    Path upOut;
    Writer console;
    int port;
    UmadClient client;
    Path perfquery;
    Fabric seen;
    /** The host the tools and the SM sit at (the twin's default: the first CA). */
    String toolHost;

    @BeforeEach
    void start() throws Exception {
        RealTools tools = RealTools.findOrSkip();
        Optional<Path> pq = RealTools.executable("perfquery");
        if (pq.isEmpty()) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                fail("CI=true but perfquery not found (install infiniband-diags)");
            }
            org.junit.jupiter.api.Assumptions.assumeTrue(false, "INTEROP SKIPPED: perfquery not found");
        }
        perfquery = pq.orElseThrow();
        Fabric f = FatTree.build(FatTreeSpec.of(2, 8, 16));
        Path topo = dir.resolve("fat.topo");
        TopologyWriter.write(f, topo);
        toolHost = f.cas().getFirst().description().strip().split(" ")[0];
        String javaExe = ProcessHandle.current().info().command().orElse("java");
        for (int p : PORTS) {
            upOut = dir.resolve("up-" + p + ".out");
            ProcessBuilder pb = new ProcessBuilder(javaExe, "-cp", System.getProperty("java.class.path"),
                    Main.class.getName(), "up", topo.toString(), "--port", Integer.toString(p), "--sweep", "0")
                    .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(upOut.toFile());
            pb.environment().remove("LD_PRELOAD");
            up = pb.start();
            console = new OutputStreamWriter(up.getOutputStream(), StandardCharsets.UTF_8);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (up.isAlive() && !RealTools.read(upOut).contains(RealTools.READY) && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            if (up.isAlive() && RealTools.read(upOut).contains(RealTools.READY)) {
                port = p;
                break;
            }
            RealTools.stop(up);
            up = null;
        }
        assertThat(up).as("ibtwin up started on one of %s", Arrays.toString(PORTS)).isNotNull();
        client = new UmadClient(tools.umad2sim, port, dir, null, TOOL);
        UmadClient.Result d = client.run(tools.ibnetdiscover);
        assertThat(d.exit()).as(d.err()).isZero();
        seen = TopologyReader.read(d.out(), "ibnetdiscover");
    }

    @AfterEach
    void stop() {
        if (up != null) {
            RealTools.stop(up);
        }
    }

    /** Types a console line and waits until its output ends with the next prompt; returns that output. */
    private String type(String line) throws Exception {
        return IbtwinUp.type(console, upOut, line);
    }

    /** perfquery's fields for one port ({@code -x}: PortCountersExtended). */
    private Map<String, Long> perfquery(boolean extended, int lid, int portNum) throws Exception {
        List<String> args = new ArrayList<>();
        if (extended) {
            args.add("-x");
        }
        args.add(Integer.toString(lid));
        args.add(Integer.toString(portNum));
        UmadClient.Result r = client.run(perfquery, args.toArray(new String[0]));
        assertThat(r.exit()).as(r.command() + ": " + r.err()).isZero();
        Map<String, Long> m = new HashMap<>();
        Matcher x = FIELD.matcher(r.out());
        while (x.find()) {
            m.put(x.group(1), Long.parseLong(x.group(2)));
        }
        return m;
    }

    private static int lid(Port p) {
        return p.node().isSwitch() ? p.node().port(0).lid() : p.lid();
    }

    /**
     * The counters of every CA port and of every switch as a whole (PortSelect 255: the sum of its ports, so one
     * read a switch), keyed by the CA port or by the switch's port 0.
     */
    private Map<Port, Map<String, Long>> readAll(boolean extended) throws Exception {
        Map<Port, Map<String, Long>> m = new java.util.LinkedHashMap<>();
        for (Node n : seen.nodes()) {
            if (n.isSwitch()) {
                m.put(n.port(0), perfquery(extended, lid(n.port(0)), 255));
            } else {
                m.put(n.port(1), perfquery(extended, lid(n.port(1)), 1));
            }
        }
        return m;
    }

    private static String host(Node n) {
        return n.description().strip().split(" ")[0];
    }

    @Test
    void shiftForTenSimulatedSecondsShowsInPerfqueryExactly() throws Exception {
        Map<Port, Map<String, Long>> before = readAll(true);
        String status = type("traffic start shift --seconds 10");
        assertThat(status).contains("traffic: shift stopped, 16 flows (0 without a path)")
                .contains("t=10.000 s simulated");
        Map<Port, Map<String, Long>> after = readAll(true);
        Map<String, long[]> words = new HashMap<>();   // host -> {xmit words, rcv words}
        Matcher m = FLOW.matcher(status);
        int flows = 0;
        while (m.find()) {
            flows++;
            Spec s = Spec.of(Op.WRITE, 65536).withMtu(Integer.parseInt(m.group(5)));
            long messages = Long.parseLong(m.group(6).replace(",", ""));
            assertThat(Long.parseLong(m.group(7).replace(",", ""))).isEqualTo(messages * 65536);
            long data = messages * DataCounters.dataWords(s);
            long acks = messages * DataCounters.reverseWords(s);
            words.computeIfAbsent(m.group(1), k -> new long[2])[0] += data;
            words.computeIfAbsent(m.group(1), k -> new long[2])[1] += acks;
            words.computeIfAbsent(m.group(2), k -> new long[2])[1] += data;
            words.computeIfAbsent(m.group(2), k -> new long[2])[0] += acks;
        }
        assertThat(flows).isEqualTo(16);
        Long mads = null;
        for (Node n : seen.nodes()) {
            Port p = n.port(n.isSwitch() ? 0 : 1);
            long in = after.get(p).get("PortRcvData") - before.get(p).get("PortRcvData");
            long xmit = after.get(p).get("PortXmitData") - before.get(p).get("PortXmitData");
            if (n.isSwitch()) {
                assertThat(xmit).as("what came into %s left it", host(n)).isEqualTo(in).isGreaterThan(1L << 32);
                continue;
            }
            long[] want = words.get(host(n));
            assertThat(want).as("a flow from and to %s", host(n)).isNotNull();
            long extra = xmit - want[0];
            assertThat(extra).as("%s: PortXmitData rose by %d, its flows' words are %d: whole MADs beyond", host(n),
                    xmit, want[0]).isNotNegative();
            assertThat(extra % 72).as("%s: %d words beyond the flows' are whole MADs", host(n), extra).isZero();
            assertThat((in - want[1]) % 72).as("%s: PortRcvData beyond the flows' is whole MADs", host(n)).isZero();
            if (!host(n).equals(toolHost)) {
                // a host the tools do not sit at sends only the answers to the reads of its own counters
                if (mads == null) {
                    mads = extra / 72;
                }
                assertThat(extra / 72).as("%s: MADs it answered", host(n)).isEqualTo(mads).isLessThanOrEqualTo(4);
            }
        }
    }

    @Test
    void incastWaitsAtTheSinksLeafPortAndTheDoctorNamesIt() throws Exception {
        Map<Port, Map<String, Long>> before = readAll(false);
        String status = type("traffic start incast 8 --seconds 10");
        assertThat(status).contains("traffic: incast 8 stopped, 8 flows (0 without a path)");
        Map<Port, Map<String, Long>> after = readAll(false);
        Node sink = seen.cas().stream().filter(n -> host(n).equals("node001")).findFirst().orElseThrow();
        Port leafPort = sink.port(1).remote();
        String leafName = host(leafPort.node()) + "/" + leafPort.number();
        List<String> waited = new ArrayList<>();
        for (Map.Entry<Port, Map<String, Long>> e : after.entrySet()) {
            long rise = e.getValue().get("PortXmitWait") - before.get(e.getKey()).get("PortXmitWait");
            if (rise > 0) {
                waited.add(host(e.getKey().node()) + " +" + rise);
            }
        }
        // one node waited, the sink's leaf, and all of its wait is at the sink's port: 7/8 of 10 s of 1 us ticks
        assertThat(waited).hasSize(1);
        assertThat(waited.getFirst()).startsWith(host(leafPort.node()) + " +");
        Map<String, Long> a = perfquery(false, lid(leafPort.node().port(0)), leafPort.number());
        long rise = after.get(leafPort.node().port(0)).get("PortXmitWait") - before.get(leafPort.node().port(0))
                .get("PortXmitWait");
        assertThat(a.get("PortXmitWait")).isEqualTo(after.get(leafPort.node().port(0)).get("PortXmitWait"));
        assertThat(rise).isBetween(8_700_000L, 8_760_000L);

        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute("doctor", "--ibsim", "127.0.0.1:" + port);
        assertThat(code).as(err.toString()).isIn(0, 1);
        // finding lines only: an evidence line's ISO time stamp holds "T22" itself between 22:00 and 22:59
        assertThat(out.toString().lines().filter(l -> l.matches("\\S+ +T22 .*")).toList()).containsExactly(
                "WARNING  T22  " + leafName);
        assertThat(out.toString()).contains("congestion: the port waits to send")
                .containsPattern(Pattern.quote(leafName) + ": PortXmitWait \\d+");
    }
}
