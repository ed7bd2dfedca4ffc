package org.ibtwin.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Stack;
import java.util.concurrent.Callable;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Mtu;
import org.ibtwin.model.Node;
import org.ibtwin.model.Port;
import org.ibtwin.perf.Endpoint;
import org.ibtwin.perf.Headers;
import org.ibtwin.perf.Latency;
import org.ibtwin.perf.LftRoutes;
import org.ibtwin.perf.Names;
import org.ibtwin.perf.Op;
import org.ibtwin.perf.Route;
import org.ibtwin.perf.PerfParams;
import org.ibtwin.perf.Perftest;
import org.ibtwin.perf.PerftestReport;
import org.ibtwin.perf.PerftestReport.Kind;
import org.ibtwin.perf.QpIdentity;
import org.ibtwin.perf.Spec;
import org.ibtwin.perf.Transport;
import picocli.CommandLine.Command;
import picocli.CommandLine.IParameterConsumer;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec.Target;

/**
 * The perftest tools on the twin: {@code ibtwin ib_write_bw <server-host> <client-host>} and its seven siblings
 * print what perftest's client prints for that pair of hosts, with the figures of the performance model
 * ({@link Perftest}). perftest's options are read the way perftest reads them (-s 64K, -m, -q, -a, -D, ...); the
 * values it would take from the devices (LIDs, QPNs, PSNs, keys) are synthesized deterministically
 * ({@link QpIdentity}). ibtwin's own options: --fabric, --numa, --why, --plot.
 */
abstract class PerftestCommand implements Callable<Integer> {
    /** perftest's limits. */
    static final int MIN_ITER = 5;
    static final int MAX_ITER = 100_000_000;
    static final int MAX_QP = 16384;
    static final int MAX_TX = 15000;
    static final int MAX_INLINE = 912;
    static final int MAX_INLINE_UD = 884;
    static final long MAX_SIZE_ALL = 1L << 23;
    static final long MAX_SIZE = 0x7fffffffL;

    @picocli.CommandLine.Spec(Target.SELF)
    CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", paramLabel = "<server-host>",
            description = "The host running the server side (by host name, node description or topology name).")
    String serverHost;

    @Parameters(index = "1", arity = "0..1", paramLabel = "<client-host>",
            description = "The host running the client side; its output is what is printed.")
    String clientHost;

    @picocli.CommandLine.Mixin
    TransportOptions transport;

    @Option(names = "--facts", paramLabel = "<file>",
            description = "Fabric description to take the host facts (PCIe, NUMA) from (default: the --fabric file, "
                    + "else the built-in default fabric), matched by node GUID, else host name.")
    String facts;

    @Option(names = {"-d", "--ib-dev"}, paramLabel = "<dev>", description = "Use IB device <dev> (default: the host's).")
    String device;

    @Option(names = {"-i", "--ib-port"}, paramLabel = "<port>", description = "Use port <port> of the device (default 1).")
    String ibPort;

    @Option(names = {"-s", "--size"}, paramLabel = "<size>",
            description = "Message size (default 65536 for BW, 2 for latency; K and M suffixes).")
    String size;

    @Option(names = {"-a", "--all"}, description = "Run sizes from 2 till 2^23.")
    boolean all;

    @Option(names = {"-n", "--iters"}, paramLabel = "<iters>",
            description = "Number of exchanges (at least 5; default 5000 for ib_write_bw, else 1000).")
    String iters;

    @Option(names = {"-D", "--duration"}, paramLabel = "<sec>", description = "Run for a period of seconds.")
    String duration;

    @Option(names = {"-f", "--margin"}, paramLabel = "<sec>",
            description = "Measure within margins of a duration run (default duration/4).")
    String margin;

    @Option(names = {"-q", "--qp"}, paramLabel = "<num>", description = "Number of QPs (default 1; BW tests).")
    String qps;

    @Option(names = {"-m", "--mtu"}, paramLabel = "<mtu>", description = "MTU: 256..4096 (default: the port's).")
    String mtu;

    @Option(names = {"-c", "--connection"}, paramLabel = "<RC/UC/UD>", description = "Connection type (default RC).")
    String connection;

    @Option(names = {"-I", "--inline_size"}, paramLabel = "<size>", description = "Max size of an inline message.")
    String inline;

    @Option(names = {"-b", "--bidirectional"}, description = "Measure bidirectional bandwidth (BW tests).")
    boolean bidirectional;

    @Option(names = {"-t", "--tx-depth"}, paramLabel = "<dep>", description = "Size of the TX queue (default 128; BW).")
    String txDepth;

    @Option(names = {"-Q", "--cq-mod"}, paramLabel = "<num>", description = "A completion every <num> sends (BW).")
    String cqMod;

    @Option(names = {"-o", "--outs"}, paramLabel = "<num>",
            description = "Outstanding reads/atomics per QP (default: the device's maximum).")
    String outs;

    @Option(names = {"-A", "--atomic_type"}, paramLabel = "<type>",
            description = "CMP_AND_SWAP or FETCH_AND_ADD (default FETCH_AND_ADD).")
    String atomicType;

    @Option(names = {"-x", "--gid-index"}, paramLabel = "<index>", description = "Use GID <index>: globally routed.")
    String gidIndex;

    @Option(names = {"-N", "--noPeak"}, description = "Cancel the peak-bw calculation.")
    boolean noPeak;

    @Option(names = {"-F", "--CPU-freq"}, description = "No CPU frequency warning (the twin never prints one).")
    boolean cpuFreq;

    @Option(names = "--report_gbits", description = "Report bandwidth in Gb/sec (10^9 bits) instead of MB/sec (2^20 bytes).")
    boolean reportGbits;

    @Option(names = "--out_json", arity = "0..1", paramLabel = "<file>", parameterConsumer = JsonFileConsumer.class,
            description = "Save the report as JSON: to <file> when one follows (a name ending in .json or a path), "
                    + "else to --out_json_file or perftest_out.json.")
    String outJson;

    @Option(names = "--out_json_file", paramLabel = "<file>", description = "Name of the JSON report file.")
    String outJsonFile;

    @Option(names = "--numa", paramLabel = "near|far", defaultValue = "near",
            description = "Run both processes on the HCA's NUMA node or the far one (default: ${DEFAULT-VALUE}).")
    String numa;

    @Option(names = "--why", description = "After the table, say what limits each figure (# ibtwin: ...).")
    boolean why;

    @Option(names = "--plot", paramLabel = "<file.svg|file.png>",
            description = "With -a: plot bandwidth (or latency) against message size.")
    String plot;

    /**
     * --out_json is perftest's flag, and ibtwin also takes a file after it: the next argument is the file when it
     * ends in .json or names a directory, so {@code --out_json node001 node002} still reads two hosts.
     */
    static final class JsonFileConsumer implements IParameterConsumer {
        @Override
        public void consumeParameters(Stack<String> args, ArgSpec argSpec, CommandSpec commandSpec) {
            String value = "";
            if (!args.isEmpty()) {
                String next = args.peek();
                if (!next.startsWith("-") && (next.toLowerCase(Locale.ROOT).endsWith(".json") || next.contains("/"))) {
                    value = args.pop();
                }
            }
            argSpec.setValue(value);
        }
    }

    /** The operation this tool measures. */
    abstract Op op();

    /** Bandwidth or latency. */
    abstract Kind kind();

    /** The tool's name: "ib_write_bw". */
    String tool() {
        return spec.name();
    }

    /** Everything the options settle, checked. */
    private record Run(Fabric fabric, Node server, Node client, Endpoint serverEnd, Endpoint clientEnd,
                       Route toServer, Route toClient, String failure, List<Long> sizes, int qps, int txDepth, int cqMod, int rxDepth,
                       int inlineSize, int outReads, int mtu, Transport transport, long iters, int durationSec,
                       int measuredSec, boolean peak, boolean gid, String device, String atomic) {
    }

    @Override
    public Integer call() throws IOException {
        checkUsage();
        try (PerfFabric f = PerfFabric.open(transport, facts, spec.commandLine().getErr(), tool())) {
            return execute(f);
        } catch (PerfFabric.Unreachable e) {
            spec.commandLine().getErr().println(tool() + ": " + e.getMessage());
            return 1;
        }
    }

    /** Runs the tool on the in-process twin of a fabric in memory (the parsed options apply). */
    Integer execute(Fabric fabric) throws IOException {
        checkUsage();
        try (PerfFabric f = PerfFabric.inProcess(fabric, spec.commandLine().getErr(), tool())) {
            return execute(f);
        }
    }

    /** What is wrong with the arguments alone, before the fabric is looked at. */
    private void checkUsage() {
        if (serverHost == null || clientHost == null) {
            throw new IllegalArgumentException("name the server host and the client host, as in: " + tool()
                    + " node001 node002");
        }
    }

    /** Runs the tool on the fabric as it is (the parsed options apply). */
    Integer execute(PerfFabric pf) throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Run r = settle(pf, out, err);
        if (r == null) {
            return 1;
        }
        PerfParams p = PerfParams.DEFAULT;
        StringBuilder text = new StringBuilder();
        text.append(PerftestReport.info(new PerftestReport.Info(op(), kind(), r.atomic(), bidirectional, r.device(),
                r.qps(), r.transport(), r.txDepth(), r.rxDepth(), r.cqMod(), r.mtu(),
                r.gid() ? Integer.parseInt(gidIndex.trim()) : -1, r.inlineSize(), r.outReads())));
        long salt = op().ordinal() * 2L + (kind() == Kind.BW ? 0 : 1);
        List<PerftestReport.Address> local = new ArrayList<>();
        List<PerftestReport.Address> remote = new ArrayList<>();
        for (int q = 0; q < r.qps(); q++) {
            local.add(QpIdentity.address(r.fabric(), r.clientEnd().port(), q, salt, r.outReads()));
            remote.add(QpIdentity.address(r.fabric(), r.serverEnd().port(), q, salt, r.outReads()));
        }
        text.append(PerftestReport.addresses(op(), local, remote, r.gid()));
        if (r.failure() != null) {
            return failRetryExceeded(out, err, text, r, r.failure());
        }
        Port drops = Perftest.dropsAt(spec(r, r.sizes().get(0)), r.toServer());
        if (drops == null) {
            drops = Perftest.dropsAt(spec(r, r.sizes().get(r.sizes().size() - 1)), r.toServer());
        }
        if (drops != null && r.transport() == Transport.RC) {
            int pathMtu = r.toServer().mtu().bytes();
            return failRetryExceeded(out, err, text, r, "packets over " + pathMtu + " B are dropped at "
                    + Names.port(drops) + " (path MTU " + pathMtu + " < the " + r.mtu()
                    + " the hosts use): the transport retries run out (T13)");
        }
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        json.set("test_info", testInfo(r));
        ArrayNode rows = JsonNodeFactory.instance.arrayNode();
        List<String> whys = new ArrayList<>();
        List<double[]> points = new ArrayList<>();
        if (kind() == Kind.BW) {
            text.append(PerftestReport.bwHeader(reportGbits));
            for (long s : r.sizes()) {
                Perftest.Bandwidth b = Perftest.bandwidth(p, spec(r, s), r.clientEnd(), r.serverEnd(), r.toServer(),
                        r.toClient());
                double scale = reportGbits ? 1 : Perftest.MIB_PER_GBPS;
                long count = r.durationSec() > 0 ? Math.round(b.mpps() * 1e6 * r.measuredSec()) : r.iters() * r.qps();
                double peak = r.peak() ? b.peakGbps() * scale : 0;
                text.append(PerftestReport.bwRow(b.size(), count, peak, b.gbps() * scale, b.mpps(), reportGbits));
                ObjectNode row = rows.addObject();
                row.put("MsgSize", b.size());
                row.put("n_iterations", count);
                row.put("BW_peak", round(peak, 2));
                row.put("BW_average", round(b.gbps() * scale, 2));
                row.put("MsgRate", round(b.mpps(), 6));
                row.put("limited_by", b.why().text());
                whys.add(prefix(r, s) + b.why().text());
                points.add(new double[] {b.size(), b.gbps() * scale});
            }
        } else {
            boolean dur = r.durationSec() > 0;
            text.append(PerftestReport.latHeader(dur));
            int rtt = op() == Op.READ || op() == Op.ATOMIC ? 1 : 2;
            for (long s : r.sizes()) {
                Latency.Result l = Perftest.latency(p, spec(r, s), r.clientEnd(), r.serverEnd(), r.toServer(),
                        r.toClient());
                ObjectNode row = rows.addObject();
                row.put("MsgSize", s);
                if (dur) {
                    long count = Math.round(r.measuredSec() * 1e6 / (rtt * l.avgUs()));
                    double tps = 1e6 / (rtt * l.avgUs());
                    text.append(PerftestReport.latDurationRow(s, count, l.avgUs(), tps));
                    row.put("n_iterations", count);
                    row.put("t_avg", round(l.avgUs(), 2));
                    row.put("tps_average", round(tps, 2));
                } else {
                    long samples = Math.max(1, r.iters() - 1 - 2);
                    text.append(PerftestReport.latRow(s, r.iters(), l.minUs(), l.maxUs(), l.typicalUs(), l.avgUs(),
                            l.stdevUs(samples), l.p99Us(), l.p999Us()));
                    row.put("n_iterations", r.iters());
                    row.put("t_min", round(l.minUs(), 2));
                    row.put("t_max", round(l.maxUs(), 2));
                    row.put("t_typical", round(l.typicalUs(), 2));
                    row.put("t_avg", round(l.avgUs(), 2));
                    row.put("t_stdev", round(l.stdevUs(samples), 2));
                    row.put("percentile_99", round(l.p99Us(), 2));
                    row.put("percentile_99.9", round(l.p999Us(), 2));
                }
                row.put("limited_by", l.why().text());
                whys.add(prefix(r, s) + l.why().text());
                points.add(new double[] {s, l.typicalUs()});
            }
        }
        text.append(PerftestReport.RESULT_LINE);
        if (why) {
            if (drops != null) {
                int pathMtu = r.toServer().mtu().bytes();
                whys.add(0, "packets over " + pathMtu + " B are dropped at " + Names.port(drops)
                        + " (path MTU " + pathMtu + " < " + r.mtu() + "): over " + r.transport()
                        + " the data never arrives");
            }
            whys.add(0, "route " + PerfFabric.hops(r.toServer()) + " (" + pf.routeSource() + ")");
            for (String w : whys) {
                text.append("# ibtwin: ").append(w).append('\n');
            }
        }
        out.print(text);
        out.flush();
        json.set("results", all ? rows : rows.get(0));
        ObjectNode ib = json.putObject("ibtwin");
        ib.put("fabric", transport.target().isInProcess() ? (transport.target().fabric() == null
                ? "default (built-in)" : transport.target().fabric()) : transport.target().address());
        ib.put("server", Names.node(r.server()));
        ib.put("client", Names.node(r.client()));
        ib.put("numa", numa.trim().toLowerCase(Locale.ROOT));
        ib.put("switches", r.toServer().switches());
        FileArgs.write(outJson != null && !outJson.isEmpty() ? "--out_json" : "--out_json_file",
                () -> writeJson(json));
        if (plot != null) {
            FileArgs.write("--plot", () -> Plot.write(java.nio.file.Path.of(plot), plotTitle(r),
                    "message size [bytes]", kind() == Kind.BW ? (reportGbits ? "BW average [Gb/sec]"
                            : "BW average [MB/sec]") : "t_typical [usec]", points, kind() == Kind.LAT));
        }
        return 0;
    }

    private String prefix(Run r, long s) {
        return r.sizes().size() > 1 ? s + ": " : "";
    }

    private String plotTitle(Run r) {
        return tool() + " " + Names.node(r.server()) + " " + Names.node(r.client())
                + (kind() == Kind.BW ? (bidirectional ? " -b" : "") + " -q " + r.qps() : "") + " (" + r.transport()
                + ", MTU " + r.mtu() + (numa.equalsIgnoreCase("far") ? ", far NUMA" : "") + ")";
    }

    /**
     * The packets never arrive (dropped mid-path, no route, no shared partition): RC retries until its retry count
     * runs out, as perftest reports it; {@code why} says the cause (with --why, on stderr).
     */
    private int failRetryExceeded(PrintWriter out, PrintWriter err, StringBuilder text, Run r, String cause) {
        text.append(kind() == Kind.BW ? PerftestReport.bwHeader(reportGbits)
                : PerftestReport.latHeader(r.durationSec() > 0));
        out.print(text);
        out.flush();
        err.println(" Completion with error at client");
        err.println(" Failed status 12: wr_id 0 syndrom 0x81");
        err.println("scnt=" + Math.min(r.txDepth(), r.iters()) + ", ccnt=0");
        err.println(kind() == Kind.BW ? " Failed to complete run_iter_bw function successfully"
                : "Test exited with Error");
        if (why) {
            err.println("# ibtwin: " + cause);
        }
        err.flush();
        return 1;
    }

    private Spec spec(Run r, long s) {
        return new Spec(op(), r.transport(), s, r.qps(), r.txDepth(), r.outReads(), r.inlineSize(), r.mtu(),
                bidirectional, r.gid());
    }

    private ObjectNode testInfo(Run r) {
        ObjectNode i = JsonNodeFactory.instance.objectNode();
        String test = op().label() + "_" + (op() == Op.ATOMIC ? r.atomic() + "_" : "")
                + (kind() == Kind.BW ? (bidirectional ? "Bidirectional_" : "") + "BW_" : "Latency_") + "Test";
        i.put("test", test);
        i.put("Dual_port", "OFF");
        i.put("Device", r.device());
        i.put("Number_of_qps", r.qps());
        i.put("Transport_type", "IB");
        i.put("Connection_type", r.transport().name());
        i.put("Using_SRQ", "OFF");
        i.put("PCIe_relax_order", "ON");
        i.put("ibv_wr_API", "ON");
        i.put("TX_depth", r.txDepth());
        if (op() == Op.SEND && r.rxDepth() > 0) {
            i.put("RX_depth", r.rxDepth());
        }
        if (kind() == Kind.BW) {
            i.put("CQ_Moderation", r.cqMod());
        }
        i.put("Mtu", r.mtu());
        i.put("Link_type", "IB");
        if (op() != Op.READ && op() != Op.ATOMIC) {
            i.put("Max_inline_data", r.inlineSize());
        } else {
            i.put("Outstand_reads", r.outReads());
        }
        i.put("rdma_cm_QPs", "OFF");
        i.put("Data_ex_method", "Ethernet");
        return i;
    }

    /** The JSON report's file, null when none is asked for. */
    private String jsonFile() {
        if (outJson == null && outJsonFile == null) {
            return null;
        }
        return outJson != null && !outJson.isEmpty() ? outJson
                : outJsonFile != null ? outJsonFile : "perftest_out.json";
    }

    private void writeJson(ObjectNode json) throws IOException {
        String name = jsonFile();
        if (name == null) {
            return;
        }
        ObjectMapper om = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        Files.writeString(java.nio.file.Path.of(name), om.writeValueAsString(json) + "\n");
    }

    private static double round(double v, int digits) {
        double f = Math.pow(10, digits);
        return Math.round(v * f) / f;
    }

    /** Reads and checks every option as perftest would; prints perftest's notices; null after a printed failure. */
    private Run settle(PerfFabric pf, PrintWriter out, PrintWriter err) {
        Fabric f = pf.fabric();
        boolean bw = kind() == Kind.BW;
        if (serverHost == null || clientHost == null) {
            throw new IllegalArgumentException("name the server host and the client host, as in: " + tool()
                    + " node001 node002");
        }
        if (!bw) {
            for (Object[] o : new Object[][] {{qps, "-q"}, {txDepth, "-t"}, {cqMod, "-Q"},
                {bidirectional ? "" : null, "-b"}, {reportGbits ? "" : null, "--report_gbits"}}) {
                if (o[0] != null) {
                    throw new IllegalArgumentException(o[1] + " is an option of the bandwidth tests");
                }
            }
        }
        if (op() == Op.ATOMIC && (size != null || all)) {
            throw new IllegalArgumentException("Message size cannot be changed for Atomic tests");
        }
        if ((op() == Op.READ || op() == Op.ATOMIC) && inline != null) {
            throw new IllegalArgumentException("Inline feature not available on READ/Atomic verbs");
        }
        if (op() != Op.READ && op() != Op.ATOMIC && outs != null) {
            throw new IllegalArgumentException("Setting Outstanding reads only available on READ verb");
        }
        if (op() != Op.ATOMIC && atomicType != null) {
            throw new IllegalArgumentException("-A is an option of the atomic tests");
        }
        String atomic = "FETCH_AND_ADD";
        if (atomicType != null) {
            atomic = atomicType.trim().toUpperCase(Locale.ROOT);
            if (!atomic.equals("FETCH_AND_ADD") && !atomic.equals("CMP_AND_SWAP")) {
                throw new IllegalArgumentException("Invalid Atomic type! please choose from {CMP_AND_SWAP,FETCH_AND_ADD}");
            }
        }
        if (all && duration != null) {
            throw new IllegalArgumentException("Duration mode currently doesn't support running on all sizes.");
        }
        if (plot != null && !all) {
            throw new IllegalArgumentException("--plot draws a curve over message sizes: add -a");
        }
        if (plot != null && !plot.toLowerCase(Locale.ROOT).matches(".*\\.(svg|png)")) {
            throw new IllegalArgumentException("--plot: name a .svg or .png file, got '" + plot + "'");
        }
        if (plot != null) {
            FileArgs.check("--plot", plot);
        }
        String jsonFile = jsonFile();
        if (jsonFile != null) {
            FileArgs.check(outJson != null && !outJson.isEmpty() ? "--out_json" : "--out_json_file", jsonFile);
        }
        String numaMode = numa.trim().toLowerCase(Locale.ROOT);
        if (!numaMode.equals("near") && !numaMode.equals("far")) {
            throw new IllegalArgumentException("--numa must be near or far, got '" + numa + "'");
        }
        Transport transport = Transport.RC;
        if (connection != null) {
            transport = Transport.parse(connection);
            if (transport == null) {
                throw new IllegalArgumentException("-c: connection type must be RC, UC or UD, got '" + connection
                        + "' (XRC, DC and SRD are not modelled)");
            }
            if (!transport.supports(op())) {
                throw new IllegalArgumentException("-c " + transport + ": " + op().label() + " does not run over "
                        + transport);
            }
        }
        int q = qps == null ? 1 : intIn("-q", qps, 1, MAX_QP);
        long n = iters == null ? (bw && op() == Op.WRITE ? 5000 : 1000) : intIn("-n", iters, MIN_ITER, MAX_ITER);
        int dur = duration == null ? 0 : intIn("-D", duration, 1, Integer.MAX_VALUE);
        int marg = margin == null ? dur / 4 : intIn("-f", margin, 0, Integer.MAX_VALUE);
        if (duration != null && !(dur > 2 * marg)) {
            throw new IllegalArgumentException("please check that DURATION > 2*MARGIN");
        }
        int port = ibPort == null ? 1 : intIn("-i", ibPort, 1, 254);
        int gid = gidIndex == null ? -1 : intIn("-x", gidIndex, 0, 64);
        int requestedMtu = 0;
        if (mtu != null) {
            requestedMtu = intIn("-m", mtu, 256, 4096);
            if (Mtu.ofBytes(requestedMtu) == null) {
                throw new IllegalArgumentException("-m: Invalid MTU - " + requestedMtu
                        + " (choose from {256,512,1024,2048,4096})");
            }
        }
        long firstSize = op() == Op.ATOMIC ? Headers.ATOMIC_SIZE : bw ? 65536 : 2;
        boolean sizeGiven = size != null;
        if (sizeGiven) {
            firstSize = parseSize(size);
        }
        int inl = inline == null ? -1 : intIn("-I", inline, 0, MAX_INLINE);
        int tx = txDepth == null ? (bw ? 128 : 1) : intIn("-t", txDepth, 1, MAX_TX);
        int cq = cqMod == null ? 100 : intIn("-Q", cqMod, 1, 1024);

        // perftest's parser warns about the inline size before it looks at the devices
        if (transport == Transport.UD && inl > MAX_INLINE_UD) {
            out.print(PerftestReport.RESULT_LINE);
            err.println("Setting inline size to " + MAX_INLINE_UD + " (Max inline size in UD)");
            inl = MAX_INLINE_UD;
        }
        Node server = Hosts.find(f, serverHost.trim());
        Node client = Hosts.find(f, clientHost.trim());
        Port sp = Hosts.port(server, port);
        Port cp = Hosts.port(client, port);
        Endpoint cEnd = Endpoint.of(cp, numaMode.equals("far"));
        Endpoint sEnd = Endpoint.of(sp, numaMode.equals("far"));
        if (numaMode.equals("far")) {
            for (Endpoint e : new Endpoint[] {cEnd, sEnd}) {
                if (e.facts().numaNodes() < 2) {
                    throw new IllegalArgumentException("--numa far: " + e.name() + " has a single NUMA node");
                }
            }
        }
        String dev = Hosts.device(client, cEnd.hca().verbsPrefix());
        for (Node h : new Node[] {client, server}) {
            String hd = Hosts.device(h, Endpoint.of(h.port(1), false).hca().verbsPrefix());
            if (device != null && !device.equals(hd)) {
                throw new IllegalArgumentException("-d: " + Names.node(h) + " has no device " + device + " (it has "
                        + hd + ")");
            }
        }
        for (Port pt : new Port[] {cp, sp}) {
            if (pt.link() == null || !pt.link().isUp()) {
                err.println(tool() + ": " + Names.port(pt) + " is down (physical state Polling): no link,"
                        + " perftest cannot connect");
                err.flush();
                return null;
            }
        }
        LftRoutes.Trace ts = pf.trace(cp, sp);
        LftRoutes.Trace tc = pf.trace(sp, cp);
        String failure = null;
        for (LftRoutes.Trace t : new LftRoutes.Trace[] {ts, tc}) {
            if (failure == null && !t.ok()) {
                boolean back = t == tc;
                failure = "no route from " + Names.port(back ? sp : cp) + " to " + Names.port(back ? cp : sp)
                        + ": it stops at " + Names.port(t.at()) + ", " + t.problem() + " (" + pf.routeSource()
                        + "): the packets never arrive and the transport retries run out";
            }
        }
        if (failure == null && pf.sharedPartition(cp, sp) == null) {
            failure = Names.port(cp) + " (P_Keys " + pf.pkeys(cp) + ") and " + Names.port(sp) + " (P_Keys "
                    + pf.pkeys(sp) + ") share no partition: the responder drops every packet (P_Key violation) "
                    + "and the transport retries run out";
        }
        Route toServer = ts.route();
        Route toClient = tc.route();
        // The MTU: each side's active MTU (or -m), the smaller of the two after perftest exchanges them.
        int active = Math.min(Perftest.activeMtu(cp).bytes(), Perftest.activeMtu(sp).bytes());
        int m = active;
        if (requestedMtu > 0) {
            m = requestedMtu;
            if (requestedMtu > active) {
                out.print("Requested mtu is higher than active mtu \n");
                out.print("Changing to active mtu - " + Mtu.ofBytes(active).code() + "\n");
                m = active;
            }
        }
        List<Long> sizes = new ArrayList<>();
        if (all) {
            long top = transport == Transport.UD ? m : MAX_SIZE_ALL;
            for (long s = 2; s <= top; s *= 2) {
                sizes.add(s);
            }
        } else {
            if (transport == Transport.UD && firstSize > m) {
                if (sizeGiven) {
                    throw new IllegalArgumentException("Max message size in UD cannot be greater than MTU ("
                            + m + ")");
                }
                err.println(" Max msg size in UD is MTU " + m);
                err.println(" Changing to this MTU");
                firstSize = m;
            }
            sizes.add(firstSize);
        }
        // perftest's dependencies between options
        if (duration == null && tx > n) {
            tx = (int) n;
        }
        if (bw && cqMod == null && firstSize > 8192 && transport != Transport.UD && !all) {
            cq = 1;
        }
        if (cq > tx) {
            cq = tx;
        }
        int rx = 0;
        if (op() == Op.SEND && bidirectional) {
            rx = 512;
            if (duration == null && rx > n) {
                rx = (int) n;
            }
            if (transport != Transport.RC && rx == 512) {
                rx = (int) Math.min(n, 16000);
            }
            if (rx % 2 == 1) {
                rx++;
            }
        }
        if (inl < 0) {
            inl = 0;
            if (!bw) {
                if (op() == Op.WRITE) {
                    inl = 220;
                } else if (op() == Op.SEND) {
                    inl = transport == Transport.UD ? 188 : 236;
                }
            }
        }
        int maxOut = cEnd.hca().maxOutReads();
        int outReads = maxOut;
        if (outs != null) {
            outReads = intIn("-o", outs, 1, Integer.MAX_VALUE);
            if (outReads > maxOut) {
                out.print(PerftestReport.RESULT_LINE);
                err.println(" Number of outstanding reads is above max = " + maxOut);
                err.println(" Changing to that max value");
                outReads = maxOut;
            }
        }
        boolean peak = !noPeak && duration == null && !(n > 20000 && bw);
        return new Run(f, server, client, sEnd, cEnd, toServer, toClient, failure, sizes, bw ? q : 1, tx, cq, rx, inl,
                outReads, m, transport, n, dur, dur - 2 * marg, peak, gid >= 0, dev, atomic);
    }

    /** A whole number in {@code [lo, hi]}: decimal, 0x hex or 0 octal, as strtol reads it. */
    private static int intIn(String option, String text, long lo, long hi) {
        long v;
        try {
            v = strtol(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " must be a whole number, got '" + text + "'");
        }
        if (v < lo || v > hi) {
            throw new IllegalArgumentException(option + " must be " + lo + ".." + hi + ", got " + text.trim());
        }
        return (int) v;
    }

    private static long strtol(String s) {
        if (s.matches("(?i)0x[0-9a-f]+")) {
            return Long.parseLong(s.substring(2), 16);
        }
        if (s.matches("0[0-7]+")) {
            return Long.parseLong(s.substring(1), 8);
        }
        if (s.matches("[+-]?\\d{1,18}")) {
            return Long.parseLong(s);
        }
        throw new NumberFormatException(s);
    }

    /** -s: a number with an optional K or M suffix, 1 .. 2^31-1 bytes. */
    static long parseSize(String text) {
        String t = text.trim();
        long factor = 1;
        if (t.endsWith("K")) {
            factor = 1024;
            t = t.substring(0, t.length() - 1);
        } else if (t.endsWith("M")) {
            factor = 1024 * 1024;
            t = t.substring(0, t.length() - 1);
        }
        long v;
        try {
            v = strtol(t) * factor;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("-s: Message Size should be between 1 and " + MAX_SIZE + ", got '"
                    + text + "'");
        }
        if (v < 1 || v > MAX_SIZE) {
            throw new IllegalArgumentException("-s: Message Size should be between 1 and " + MAX_SIZE + ", got '"
                    + text + "'");
        }
        return v;
    }

    // ---------------------------------------------------------------------------------------------- the tools

    @Command(name = "ib_write_bw", mixinStandardHelpOptions = true,
            description = "perftest's RDMA write bandwidth test between two hosts.")
    static final class WriteBw extends PerftestCommand {
        Op op() {
            return Op.WRITE;
        }

        Kind kind() {
            return Kind.BW;
        }
    }

    @Command(name = "ib_read_bw", mixinStandardHelpOptions = true,
            description = "perftest's RDMA read bandwidth test between two hosts.")
    static final class ReadBw extends PerftestCommand {
        Op op() {
            return Op.READ;
        }

        Kind kind() {
            return Kind.BW;
        }
    }

    @Command(name = "ib_send_bw", mixinStandardHelpOptions = true,
            description = "perftest's send bandwidth test between two hosts.")
    static final class SendBw extends PerftestCommand {
        Op op() {
            return Op.SEND;
        }

        Kind kind() {
            return Kind.BW;
        }
    }

    @Command(name = "ib_atomic_bw", mixinStandardHelpOptions = true,
            description = "perftest's atomic operation rate test between two hosts.")
    static final class AtomicBw extends PerftestCommand {
        Op op() {
            return Op.ATOMIC;
        }

        Kind kind() {
            return Kind.BW;
        }
    }

    @Command(name = "ib_write_lat", mixinStandardHelpOptions = true,
            description = "perftest's RDMA write latency test between two hosts.")
    static final class WriteLat extends PerftestCommand {
        Op op() {
            return Op.WRITE;
        }

        Kind kind() {
            return Kind.LAT;
        }
    }

    @Command(name = "ib_read_lat", mixinStandardHelpOptions = true,
            description = "perftest's RDMA read latency test between two hosts.")
    static final class ReadLat extends PerftestCommand {
        Op op() {
            return Op.READ;
        }

        Kind kind() {
            return Kind.LAT;
        }
    }

    @Command(name = "ib_send_lat", mixinStandardHelpOptions = true,
            description = "perftest's send latency test between two hosts.")
    static final class SendLat extends PerftestCommand {
        Op op() {
            return Op.SEND;
        }

        Kind kind() {
            return Kind.LAT;
        }
    }

    @Command(name = "ib_atomic_lat", mixinStandardHelpOptions = true,
            description = "perftest's atomic latency test between two hosts.")
    static final class AtomicLat extends PerftestCommand {
        Op op() {
            return Op.ATOMIC;
        }

        Kind kind() {
            return Kind.LAT;
        }
    }
}
