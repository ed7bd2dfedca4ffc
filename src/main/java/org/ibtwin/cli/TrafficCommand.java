package org.ibtwin.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.ibtwin.format.FabricFiles;
import org.ibtwin.lab.Lab;
import org.ibtwin.lab.TrafficEngine;
import org.ibtwin.lab.TrafficPattern;
import org.ibtwin.lab.TrafficStatus;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Port;
import org.ibtwin.model.PortCounter;
import org.ibtwin.perf.Names;
import org.ibtwin.sim.ExtCounter;
import org.ibtwin.sim.Twin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ibtwin traffic PATTERN}: the twin of a fabric, brought up by ibtwin's SM in process, runs a traffic pattern
 * for {@code --seconds} simulated seconds ({@code --speed} of them a wall second) and prints what it did: every
 * flow's rate and bottleneck, the aggregate, and the busiest ports with their counters as the PMA reports them.
 */
@Command(name = "traffic", mixinStandardHelpOptions = true,
        description = "Run traffic over the routes ibtwin's SM programs on an in-process twin; print the flows and the "
                + "busiest ports' counters.",
        footer = {"", "PATTERN: " + TrafficPattern.USAGE + ".",
            "Flows are RDMA WRITE streams at the max-min fair rates of the performance model, over the routes in the",
            "switches' LFTs; every message moves PortXmitData/RcvData (4-octet words), packets and PortXmitWait.",
            "The console of ibtwin sim and up runs the same engine: traffic start|stop|status."})
public final class TrafficCommand extends CliCommand {

    @Parameters(arity = "1..*", paramLabel = "PATTERN", description = "The pattern and its arguments.")
    List<String> pattern;

    @Option(names = "--fabric", paramLabel = "<file>", description = "Fabric file (default: the built-in fabric).")
    String fabric;

    @Option(names = "--seconds", defaultValue = "10", description = "Simulated seconds to run (default: "
            + "${DEFAULT-VALUE}).")
    double seconds;

    @Option(names = "--speed", defaultValue = "1",
            description = "Simulated seconds per wall second (default: ${DEFAULT-VALUE}); 0: as fast as it goes.")
    double speed;

    @Option(names = "--size", defaultValue = "65536", description = "Message size in bytes (default: "
            + "${DEFAULT-VALUE}).")
    long size;

    @Option(names = "--top", defaultValue = "10", description = "Busiest ports to show (default: ${DEFAULT-VALUE}).")
    int top;

    @Option(names = "--json", description = "Print the summary as JSON.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = out();
        if (!(seconds > 0) || seconds > 1e9) {
            throw new IllegalArgumentException("--seconds must be > 0 (simulated seconds)");
        }
        if (!(speed >= 0) || speed > 1e6) {
            throw new IllegalArgumentException("--speed must be 0..1e6 simulated seconds per wall second");
        }
        if (top < 0) {
            throw new IllegalArgumentException("--top must be 0 or more");
        }
        TrafficPattern p = TrafficPattern.parse(pattern);
        Fabric f = FabricFiles.load(fabric);
        try (Lab lab = Lab.up(f, fabric == null ? "the default fabric" : fabric)) {
            Twin twin = lab.twin();
            TrafficEngine engine = lab.traffic();
            engine.start(p, size);
            long t0 = System.nanoTime();
            if (speed == 0) {
                engine.advance(seconds);
            } else {
                engine.run(speed);
                while (engine.seconds() < seconds) {
                    Thread.sleep(TrafficEngine.TICK_MILLIS);
                }
                engine.halt();
            }
            long wall = System.nanoTime() - t0;
            engine.stop();
            TrafficStatus s = engine.status();
            List<PortRow> busiest = busiest(twin, engine.ports(), top);
            if (json) {
                out.print(Json.write(json(s, busiest, wall)));
            } else {
                out.print(s.text(Integer.MAX_VALUE));
                out.printf(Locale.ROOT, "  %.3f simulated s in %.3f wall s%n", s.runSeconds(), wall / 1e9);
                if (!busiest.isEmpty()) {
                    out.printf(Locale.ROOT, "busiest ports (PortCountersExtended, PortXmitWait):%n");
                    out.printf(Locale.ROOT, "  %-28s %18s %18s %14s %14s %12s%n", "port", "PortXmitData",
                            "PortRcvData", "PortXmitPkts", "PortRcvPkts", "PortXmitWait");
                    for (PortRow b : busiest) {
                        out.printf(Locale.ROOT, "  %-28s %,18d %,18d %,14d %,14d %,12d%n", b.port, b.xmitData,
                                b.rcvData, b.xmitPkts, b.rcvPkts, b.xmitWait);
                    }
                }
            }
            out.flush();
            return s.unrouted() == 0 ? 0 : 1;
        }
    }

    /** A port's counters, as its PMA reports them. */
    record PortRow(String port, long xmitData, long rcvData, long xmitPkts, long rcvPkts, long xmitWait) {
    }

    /** The {@code n} ports the flows crossed with the most PortXmitData, then PortXmitWait. */
    static List<PortRow> busiest(Twin twin, List<Port> ports, int n) {
        List<PortRow> rows = new ArrayList<>();
        for (Port p : ports) {
            String node = p.node().name();
            int num = p.number();
            rows.add(new PortRow(Names.port(p), twin.extendedCounter(node, num, ExtCounter.XMIT_DATA),
                    twin.extendedCounter(node, num, ExtCounter.RCV_DATA),
                    twin.extendedCounter(node, num, ExtCounter.XMIT_PKTS),
                    twin.extendedCounter(node, num, ExtCounter.RCV_PKTS),
                    twin.counter(node, num, PortCounter.XMIT_WAIT)));
        }
        rows.sort(Comparator.comparingLong(PortRow::xmitData).reversed()
                .thenComparing(Comparator.comparingLong(PortRow::xmitWait).reversed()));
        List<PortRow> waiting = rows.stream().filter(r -> r.xmitWait > 0).toList();
        List<PortRow> out = new ArrayList<>(rows.subList(0, Math.min(n, rows.size())));
        for (PortRow w : waiting) {
            if (!out.contains(w)) {
                out.add(w);
            }
        }
        return out;
    }

    private static Map<String, Object> json(TrafficStatus s, List<PortRow> busiest, long wallNanos) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("pattern", s.pattern());
        m.put("simulatedSeconds", s.runSeconds());
        m.put("wallSeconds", wallNanos / 1e9);
        m.put("messageSize", s.messageSize());
        m.put("aggregateGbps", s.aggregateGbps());
        m.put("unrouted", s.unrouted());
        m.put("flows", s.flows());
        m.put("waits", s.waits());
        m.put("busiestPorts", busiest);
        m.put("events", s.events());
        return m;
    }
}
