package org.ibtwin.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.NodeType;
import org.ibtwin.perf.AllToAll;
import org.ibtwin.perf.Endpoint;
import org.ibtwin.perf.Op;
import org.ibtwin.perf.PerfParams;
import org.ibtwin.perf.Spec;
import org.ibtwin.perf.Transport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/** {@code ibtwin perf}: the performance model beyond two hosts. */
@Command(name = "perf", mixinStandardHelpOptions = true,
        description = "Traffic patterns over the fabric, shared max-min fairly.",
        subcommands = {PerfCommand.AllToAllCommand.class})
public final class PerfCommand implements Runnable {
    @picocli.CommandLine.Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** {@code ibtwin perf all-to-all}: a shift pattern over N pairs, every pair's share and the aggregate. */
    @Command(name = "all-to-all", mixinStandardHelpOptions = true,
            description = "A shift pattern: N sources evenly spaced, each streaming to the host <shift> further on.")
    public static final class AllToAllCommand extends CliCommand {

        @picocli.CommandLine.Mixin
        TransportOptions transport;

        @Option(names = "--facts", paramLabel = "<file>",
                description = "Fabric description to take the host facts (PCIe, NUMA, IPoIB) from (default: the --fabric "
                        + "file, else the built-in default fabric), matched by node GUID, else host name.")
        String facts;

        @Option(names = "--pairs", paramLabel = "<n>", description = "Pairs (default: every host sends).")
        Integer pairs;

        @Option(names = "--shift", paramLabel = "<k>", description = "Hosts between source and destination "
                + "(default: half the hosts).")
        Integer shift;

        @Option(names = {"-s", "--size"}, paramLabel = "<size>", defaultValue = "65536",
                description = "Message size (default: ${DEFAULT-VALUE}; K and M suffixes).")
        String size;

        @Option(names = "--op", paramLabel = "write|read|send", defaultValue = "write",
                description = "Operation (default: ${DEFAULT-VALUE}).")
        String op;

        @Option(names = {"-q", "--qp"}, paramLabel = "<num>", defaultValue = "1",
                description = "QPs per pair (default: ${DEFAULT-VALUE}).")
        int qps;

        @Option(names = "--numa", paramLabel = "near|far", defaultValue = "near",
                description = "Where the processes run relative to the HCAs (default: ${DEFAULT-VALUE}).")
        String numa;

        @Option(names = "--json", description = "Print JSON instead of text.")
        boolean json;

        @Override
        public Integer call() throws Exception {
            PrintWriter out = out();
            Op o = switch (op.trim().toLowerCase(Locale.ROOT)) {
                case "write" -> Op.WRITE;
                case "read" -> Op.READ;
                case "send" -> Op.SEND;
                default -> throw new IllegalArgumentException("--op must be write, read or send, got '" + op + "'");
            };
            String mode = numa.trim().toLowerCase(Locale.ROOT);
            if (!mode.equals("near") && !mode.equals("far")) {
                throw new IllegalArgumentException("--numa must be near or far, got '" + numa + "'");
            }
            if (qps < 1 || qps > PerftestCommand.MAX_QP) {
                throw new IllegalArgumentException("-q must be 1.." + PerftestCommand.MAX_QP + ", got " + qps);
            }
            long s = PerftestCommand.parseSize(size);
            return PerfFabric.with(transport, facts, err(), "ibtwin perf", pf -> run(out, pf, o, mode, s));
        }

        private Integer run(PrintWriter out, PerfFabric pf, Op o, String mode, long s) throws Exception {
            Fabric f = pf.fabric();
            List<Endpoint> hosts = f.nodes().stream().filter(n -> n.type() == NodeType.CA)
                    .filter(n -> n.port(1).link() != null && n.port(1).link().isUp())
                    .map(n -> Endpoint.of(n.port(1), mode.equals("far"))).toList();
            int n = pairs == null ? hosts.size() : pairs;
            int k = shift == null ? hosts.size() / 2 : shift;
            List<AllToAll.Pair> pp = AllToAll.shift(hosts, n, k);
            transport.noticeIfSimulated();   // after what only the fabric can refuse: a bad --pairs stays one line
            Spec sp = new Spec(o, Transport.RC, s, qps, 128, 16, 0, 4096, false, false);
            AllToAll.Result r = AllToAll.run(PerfParams.DEFAULT, sp, pf.routes(), pp);
            String source = PerfFabric.name(transport);
            if (json) {
                ObjectNode j = JsonNodeFactory.instance.objectNode();
                j.put("fabric", source);
                j.put("hosts", hosts.size());
                j.put("pairs", n);
                j.put("shift", k);
                j.put("op", o.label());
                j.put("size", s);
                j.put("aggregate_Gb_per_sec", round(r.aggregateGbps()));
                j.put("min_Gb_per_sec", round(r.minGbps()));
                j.put("mean_Gb_per_sec", round(r.meanGbps()));
                j.put("max_Gb_per_sec", round(r.maxGbps()));
                j.put("unrouted", r.unrouted());
                ArrayNode a = j.putArray("per_pair");
                for (AllToAll.PairResult pr : r.pairs()) {
                    ObjectNode e = a.addObject();
                    e.put("source", pr.pair().src().name());
                    e.put("destination", pr.pair().dst().name());
                    e.put("switches", pr.switches());
                    e.put("Gb_per_sec", round(pr.gbps()));
                    e.put("limited_by", pr.why().text());
                }
                out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(j));
            } else {
                out.printf(Locale.ROOT, "shift all-to-all on %s: %d hosts, %d pairs, shift %d, %s %d B, %d QP%s,"
                        + " RC, MTU 4096%n", source, hosts.size(), n, k, o.label(), s, qps, qps == 1 ? "" : "s");
                out.printf(Locale.ROOT, " %-6s %-12s %-12s %-8s %-9s %s%n", "#pair", "source", "destination",
                        "switches", "Gb/s", "limited by");
                int i = 1;
                for (AllToAll.PairResult pr : r.pairs()) {
                    out.printf(Locale.ROOT, " %-6d %-12s %-12s %-8d %-9.2f %s%n", i++, pr.pair().src().name(),
                            pr.pair().dst().name(), pr.switches(), pr.gbps(),
                            pr.why().text().replaceFirst("^limited by ", ""));
                }
                out.printf(Locale.ROOT, "aggregate %.1f Gb/s over %d pairs: min %.2f, mean %.2f, max %.2f Gb/s"
                        + " per pair%s%n", r.aggregateGbps(), n, r.minGbps(), r.meanGbps(), r.maxGbps(),
                        r.unrouted() > 0 ? "; " + r.unrouted() + " without a route" : "");
            }
            out.flush();
            return 0;
        }

        private static double round(double v) {
            return Math.round(v * 100) / 100.0;
        }
    }
}
