package org.ibtwin.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Node;
import org.ibtwin.model.Port;
import org.ibtwin.model.PortCounter;
import org.ibtwin.perf.DataCounters;
import org.ibtwin.perf.Op;
import org.ibtwin.perf.Spec;
import org.ibtwin.sim.Attachment;
import org.ibtwin.sim.ExtCounter;
import org.ibtwin.sim.Twin;
import org.ibtwin.sim.TwinTransport;
import org.ibtwin.sm.SmConfig;
import org.ibtwin.sm.SmLog;
import org.ibtwin.sm.SubnetManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The traffic engine on a 2-level fat tree brought up by ibtwin's SM in process: counters, waits, re-routes. */
class TrafficEngineTest {
    private Fabric fabric;
    private Twin twin;
    private TwinTransport smTransport;
    private SubnetManager sm;
    private TrafficEngine engine;

    @BeforeEach
    void up() {
        fabric = FatTree.build(FatTreeSpec.of(2, 8, 16));
        twin = Twin.of(fabric);
        Attachment a = twin.attach(null, 0);
        a.setIsSm(true);
        smTransport = new TwinTransport(a, "ibtwin0");
        sm = new SubnetManager(smTransport, SmConfig.defaults(), SmLog.quiet());
        assertThat(sm.sweep().subnetUp()).isTrue();
        engine = new TrafficEngine(twin);
    }

    @AfterEach
    void down() {
        engine.close();
        sm.detach();
        smTransport.close();
    }

    /** The port counters before and after a run of traffic. */
    private record Counters(Map<Port, long[]> before, Map<Port, long[]> after) {}

    /** Runs the traffic pattern (its words) for seconds of simulated time at 64 KiB messages. */
    private Counters run(int seconds, String... pattern) {
        Map<Port, long[]> before = read();
        engine.start(TrafficPattern.parse(List.of(pattern)), 65536);
        engine.advance(seconds);
        return new Counters(before, read());
    }

    private Map<Port, long[]> read() {
        Map<Port, long[]> m = new HashMap<>();
        for (Node n : fabric.nodes()) {
            for (int p = 1; p <= n.numPorts(); p++) {
                if (n.port(p).link() != null) {
                    m.put(n.port(p), new long[] {
                        twin.extendedCounter(n.name(), p, ExtCounter.XMIT_DATA),
                        twin.extendedCounter(n.name(), p, ExtCounter.RCV_DATA),
                        twin.extendedCounter(n.name(), p, ExtCounter.XMIT_PKTS),
                        twin.extendedCounter(n.name(), p, ExtCounter.RCV_PKTS),
                        twin.counter(n.name(), p, PortCounter.XMIT_WAIT),
                        twin.counter(n.name(), p, PortCounter.XMIT_DATA)});
                }
            }
        }
        return m;
    }

    @Test
    void wordsPerMessageFollowTheWire() {
        Spec s = Spec.of(Op.WRITE, 65536);
        // 16 packets of 4096 + LRH 8 + BTH 12 + ICRC 4 (+ VCRC, not counted), RETH 16 on the first
        assertThat(DataCounters.dataWords(s)).isEqualTo((65536 + 16 * 24 + 16) / 4);
        assertThat(DataCounters.dataPackets(s)).isEqualTo(16);
        assertThat(DataCounters.reverseWords(s)).isEqualTo(7);   // ACK: LRH, BTH, AETH, ICRC
        assertThat(DataCounters.reversePackets(s)).isEqualTo(1);
    }

    @Test
    void shiftMovesEveryCounterOnItsPathExactly() {
        Counters ran = run(10, "shift");
        TrafficStatus st = engine.status();
        assertThat(st.flows()).hasSize(16);
        assertThat(st.unrouted()).isZero();
        assertThat(st.runSeconds()).isEqualTo(10.0);
        Map<String, long[]> perHost = new HashMap<>();   // words out, words in
        for (TrafficStatus.FlowStatus f : st.flows()) {
            assertThat(f.gbps()).isGreaterThan(0);
            assertThat(f.messages()).isGreaterThan(0);
            perHost.computeIfAbsent(f.src(), k -> new long[2])[0] += (f.wireBytes()) / 4;
            perHost.computeIfAbsent(f.dst(), k -> new long[2])[0] += f.ackBytes() / 4;
            perHost.computeIfAbsent(f.dst(), k -> new long[2])[1] += f.wireBytes() / 4;
            perHost.computeIfAbsent(f.src(), k -> new long[2])[1] += f.ackBytes() / 4;
        }
        for (Node n : fabric.nodes()) {
            if (n.isSwitch()) {
                long in = 0;
                long out = 0;
                for (int p = 1; p <= n.numPorts(); p++) {
                    if (n.port(p).link() != null) {
                        in += ran.after().get(n.port(p))[1] - ran.before().get(n.port(p))[1];
                        out += ran.after().get(n.port(p))[0] - ran.before().get(n.port(p))[0];
                    }
                }
                assertThat(out).as("what came into %s left", n.name()).isEqualTo(in).isPositive();
            } else {
                Port p = n.port(1);
                long[] want = perHost.get(n.description().split(" ")[0]);
                assertThat(ran.after().get(p)[0] - ran.before().get(p)[0]).as("%s PortXmitData", n.name())
                        .isEqualTo(want[0]);
                assertThat(ran.after().get(p)[1] - ran.before().get(p)[1]).as("%s PortRcvData", n.name())
                        .isEqualTo(want[1]);
                // the 32-bit counter saturates: 10 s at HDR is far beyond 2^32 words
                assertThat(ran.after().get(p)[5]).isEqualTo(0xffffffffL);
            }
        }
    }

    @Test
    void allToAllIsOneCollectiveEveryPairAtOneRate() {
        Counters ran = run(2, "all-to-all");
        TrafficStatus.Collective c = engine.status().collective();
        assertThat(c.pairs()).isEqualTo(16 * 15);
        assertThat(c.unroutedPairs()).isZero();
        assertThat(c.messagesPerPair()).isPositive();
        // 15 streams out of each host, 15 in: data one way, ACKs the other
        Spec s = Spec.of(Op.WRITE, 65536);
        long words = c.messagesPerPair() * 15 * (DataCounters.dataWords(s) + DataCounters.reverseWords(s));
        long switchIn = 0;
        long switchOut = 0;
        for (Map.Entry<Port, long[]> e : ran.after().entrySet()) {
            long x = e.getValue()[0] - ran.before().get(e.getKey())[0];
            long r = e.getValue()[1] - ran.before().get(e.getKey())[1];
            if (e.getKey().node().isSwitch()) {
                switchIn += r;
                switchOut += x;
            } else {
                assertThat(x).as("%s PortXmitData", e.getKey()).isEqualTo(words);
                assertThat(r).as("%s PortRcvData", e.getKey()).isEqualTo(words);
            }
        }
        assertThat(switchOut).isEqualTo(switchIn).isPositive();
        // a host link carries 15 pairs each way; the busiest link, whichever it is, bounds every pair
        assertThat(c.perPairGbps() * 15).isPositive().isLessThan(200.0);
        assertThat(c.bottleneck()).startsWith("limited by link ").contains("pairs");
    }

    @Test
    void incastWaitsAtTheSinksLeafPortAlone() {
        Counters ran = run(10, "incast", "8");
        Port sink = TrafficPattern.hosts(fabric).getFirst();
        Port leafPort = sink.remote();
        for (Map.Entry<Port, long[]> e : ran.after().entrySet()) {
            long rise = e.getValue()[4] - ran.before().get(e.getKey())[4];
            if (e.getKey() == leafPort) {
                // 8 line rates offered, one carried: 7/8 of 10 s of 1 us ticks
                assertThat(rise).isBetween(8_700_000L, 8_760_000L);
            } else {
                assertThat(rise).as("PortXmitWait at %s", e.getKey()).isZero();
            }
        }
        assertThat(engine.status().waits()).hasSize(1);
    }

    @Test
    void aPulledCableStopsItsFlowsUntilTheSmRoutesAround() {
        Port src = TrafficPattern.hosts(fabric).get(0);
        Port dst = TrafficPattern.hosts(fabric).get(15);
        engine.start(TrafficPattern.parse(List.of("pair", src.node().name(), dst.node().name())), 65536);
        engine.advance(1);
        long sent = engine.status().flows().getFirst().messages();
        assertThat(sent).isPositive();
        Port up = src.remote().node().port(5);   // the leaf's first uplink: which one the flow uses does not matter
        for (int p = 5; p <= 8; p++) {
            Node leaf = src.remote().node();
            if (leaf.port(p).link() != null) {
                twin.unplug(leaf.name(), p);
            }
        }
        engine.advance(1);
        TrafficStatus st = engine.status();
        assertThat(st.unrouted()).isEqualTo(1);
        assertThat(st.flows().getFirst().messages()).isEqualTo(sent);
        assertThat(st.events()).anyMatch(e -> e.contains("without a path"));
        twin.replug(up.node().name(), 5);
        sm.sweep();
        engine.advance(1);
        st = engine.status();
        assertThat(st.unrouted()).isZero();
        assertThat(st.flows().getFirst().messages()).isGreaterThan(sent);
    }

    @Test
    void theConsoleRunsTrafficThroughItsCommandHook() {
        java.io.StringWriter text = new java.io.StringWriter();
        org.ibtwin.sim.Console console = new org.ibtwin.sim.Console(twin, null, new java.io.PrintWriter(text, true));
        console.register("traffic", new TrafficConsole(engine));
        console.execute("help");
        assertThat(text.toString()).contains("traffic start PATTERN");
        text.getBuffer().setLength(0);
        console.execute("Traffic start permutation 7 --seconds 2");
        assertThat(text.toString()).startsWith("traffic: permutation 7 stopped, 16 flows (0 without a path)")
                .contains("t=2.000 s simulated");
        assertThatThrownBy(() -> console.execute("traffic start shift --speed fast"))
                .isInstanceOf(org.ibtwin.sim.Console.CommandException.class).hasMessageContaining("--speed");
        assertThatThrownBy(() -> console.execute("traffic sideways"))
                .hasMessageContaining("unknown traffic command \"sideways\"");
        assertThatThrownBy(() -> console.register("TRAFFIC", new TrafficConsole(engine)))
                .hasMessageContaining("registered already");
    }

    @Test
    void aTrafficFileNamesItsBadLine(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("flows.txt");
        Files.writeString(f, "# flows\nnode001 node002 25\nnode003 nobody\n");
        Node n1 = fabric.cas().get(0);
        assertThat(n1.description()).startsWith("node001");
        assertThatThrownBy(() -> engine.start(TrafficPattern.parse(List.of("file", f.toString())), 65536))
                .hasMessage(f + ":3: unknown node \"nobody\"");
        Files.writeString(f, "node001 node002 fast\n");
        assertThatThrownBy(() -> engine.start(TrafficPattern.parse(List.of("file", f.toString())), 65536))
                .hasMessageStartingWith(f + ":1: rate \"fast\"");
        Files.writeString(f, "node001 node002 25\n");
        engine.start(TrafficPattern.parse(List.of("file", f.toString())), 65536);
        assertThat(engine.status().flows().getFirst().gbps()).isEqualTo(25.0);
    }
}
