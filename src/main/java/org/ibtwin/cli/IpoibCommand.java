package org.ibtwin.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.util.Locale;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Node;
import org.ibtwin.perf.Endpoint;
import org.ibtwin.perf.Ipoib;
import org.ibtwin.perf.PerfParams;
import org.ibtwin.perf.Route;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code ibtwin ipoib <a> <b>}: the IPoIB model's figure for one TCP stream from a to b, and what limits it. */
@Command(name = "ipoib", mixinStandardHelpOptions = true,
        description = "IPoIB TCP stream throughput between two hosts.")
public final class IpoibCommand extends CliCommand {

    @Parameters(index = "0", paramLabel = "<from-host>", description = "The sending host.")
    String from;

    @Parameters(index = "1", paramLabel = "<to-host>", description = "The receiving host.")
    String to;

    @picocli.CommandLine.Mixin
    TransportOptions transport;

    @Option(names = "--facts", paramLabel = "<file>",
            description = "Fabric description to take the host facts (PCIe, NUMA, IPoIB) from (default: the --fabric "
                    + "file, else the built-in default fabric), matched by node GUID, else host name.")
    String facts;

    @Option(names = "--numa", paramLabel = "near|far", defaultValue = "near",
            description = "Where the processes run relative to the HCA (default: ${DEFAULT-VALUE}).")
    String numa;

    @Option(names = "--json", description = "Print JSON instead of text.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = out();
        String mode = numa.trim().toLowerCase(Locale.ROOT);
        if (!mode.equals("near") && !mode.equals("far")) {
            throw new IllegalArgumentException("--numa must be near or far, got '" + numa + "'");
        }
        return PerfFabric.with(transport, facts, err(), "ibtwin ipoib", pf -> run(out, pf, mode));
    }

    private Integer run(PrintWriter out, PerfFabric pf, String mode) throws Exception {
        Fabric f = pf.fabric();
        Node a = Hosts.find(f, from.trim());
        Node b = Hosts.find(f, to.trim());
        transport.noticeIfSimulated();   // after what only the fabric can refuse: a bad host stays one line
        Endpoint ea = Endpoint.of(a.port(1), mode.equals("far"));
        Endpoint eb = Endpoint.of(b.port(1), mode.equals("far"));
        var trace = pf.trace(a.port(1), b.port(1));
        Route path = trace.route();
        if (path == null) {
            spec.commandLine().getErr().println("ibtwin ipoib: no route from " + ea.name() + " to " + eb.name()
                    + ": it stops at " + org.ibtwin.perf.Names.port(trace.at()) + ", " + trace.problem());
            return 1;
        }
        Ipoib.Result r = Ipoib.stream(PerfParams.DEFAULT, ea, eb, path);
        if (json) {
            ObjectNode o = JsonNodeFactory.instance.objectNode();
            for (Endpoint e : new Endpoint[] {ea, eb}) {
                ObjectNode h = o.putObject(e == ea ? "from" : "to");
                h.put("host", e.name());
                h.put("mode", e.facts().ipoibMode().label());
                h.put("mtu", e.facts().ipoibMtu());
            }
            o.put("wire_mode", r.wireMode().label());
            o.put("mtu", r.mtu());
            o.put("path_mtu", path.mtu().bytes());
            o.put("switches", path.switches());
            o.put("mixed", r.mixed());
            o.put("GB_per_sec", Math.round(r.gbytesPerSecond() * 1000) / 1000.0);
            o.put("Gb_per_sec", Math.round(r.gbps() * 100) / 100.0);
            o.put("limited_by", r.why().text());
            ArrayNode notes = o.putArray("notes");
            r.notes().forEach(notes::add);
            out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(o));
        } else {
            out.printf(Locale.ROOT, "IPoIB TCP stream %s -> %s (one large copy, like scp)%n", ea.name(), eb.name());
            for (Endpoint e : new Endpoint[] {ea, eb}) {
                out.printf(Locale.ROOT, "  %-10s ib0 %-9s MTU %d%n", e.name(), e.facts().ipoibMode().label(),
                        e.facts().ipoibMtu());
            }
            out.printf(Locale.ROOT, "  on the wire: %s mode, IP MTU %d, IB path MTU %d, %d switch%s%n",
                    r.wireMode().label(), r.mtu(), path.mtu().bytes(), path.switches(),
                    path.switches() == 1 ? "" : "es");
            out.printf(Locale.ROOT, "  throughput:  %.2f GB/s (%.1f Gb/s)%n", r.gbytesPerSecond(), r.gbps());
            out.println("  " + r.why().text());
            for (String n : r.notes()) {
                out.println("  " + n);
            }
        }
        out.flush();
        return 0;
    }
}
