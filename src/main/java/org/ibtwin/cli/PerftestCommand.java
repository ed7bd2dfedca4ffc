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
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Node;
import org.ibtwin.model.Port;
import org.ibtwin.perf.Endpoint;
import org.ibtwin.perf.Latency;
import org.ibtwin.perf.LftRoutes;
import org.ibtwin.perf.Names;
import org.ibtwin.perf.Op;
import org.ibtwin.perf.Route;
import org.ibtwin.perf.PerfParams;
import org.ibtwin.perf.PerftestOptions;
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

/**
 * The perftest tools on the twin: {@code ibtwin ib_write_bw <server-host> <client-host>} and its seven siblings
 * print what perftest's client prints for that pair of hosts, with the figures of the performance model
 * ({@link Perftest}). perftest's options are read the way perftest reads them (-s 64K, -m, -q, -a, -D, ...); the
 * values it would take from the devices (LIDs, QPNs, PSNs, keys) are synthesized deterministically
 * ({@link QpIdentity}). ibtwin's own options: --fabric, --numa, --why, --plot.
 */
abstract class PerftestCommand extends CliCommand {
    /** perftest's most QPs ({@link PerftestOptions#MAX_QP}). */
    static final int MAX_QP = PerftestOptions.MAX_QP;


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
        return PerfFabric.with(transport, facts, err(), tool(), this::run);
    }

    /** Runs the tool on the in-process twin of a fabric in memory (the parsed options apply). */
    Integer execute(Fabric fabric) throws IOException {
        checkUsage();
        transport.fabricGivenElsewhere();
        try (PerfFabric f = PerfFabric.inProcess(fabric, spec.commandLine().getErr(), tool())) {
            return run(f);
        }
    }

    /**
     * What is wrong with the arguments alone, before the fabric is looked at (so before any lab is brought up): the
     * hosts named, every option perftest checks while reading them ({@link PerftestOptions#settle}, pure), the
     * output files' directories. {@link #settle} settles them again with the fabric.
     */
    private void checkUsage() {
        if (serverHost == null || clientHost == null) {
            throw new IllegalArgumentException("name the server host and the client host, as in: " + tool()
                    + " node001 node002");
        }
        PerftestOptions.settle(op(), kind(), given());
        if (plot != null) {
            FileArgs.check("--plot", plot);
        }
        String jsonFile = jsonFile();
        if (jsonFile != null) {
            FileArgs.check(outJson != null && !outJson.isEmpty() ? "--out_json" : "--out_json_file", jsonFile);
        }
    }

    /** The options as given, for {@link PerftestOptions}. */
    private PerftestOptions.Given given() {
        return new PerftestOptions.Given(size, all, iters, duration, margin, qps, mtu, connection, inline,
                bidirectional, txDepth, cqMod, outs, atomicType, gidIndex, noPeak, reportGbits, numa, ibPort, device,
                plot);
    }

    /** Runs the tool on a fabric learnt already (the parsed options apply). */
    Integer execute(PerfFabric pf) throws IOException {
        transport.fabricGivenElsewhere();   // a fabric handed over, not the one the options name
        return run(pf);
    }

    /** Runs the tool on the fabric as it is, the options checked ({@link #checkUsage}). */
    private Integer run(PerfFabric pf) throws IOException {
        PrintWriter out = out();
        PrintWriter err = err();
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

    /**
     * Reads and checks every option as perftest would ({@link PerftestOptions}); prints perftest's notices; null
     * after a printed failure.
     */
    private Run settle(PerfFabric pf, PrintWriter out, PrintWriter err) {
        Fabric f = pf.fabric();
        if (serverHost == null || clientHost == null) {
            throw new IllegalArgumentException("name the server host and the client host, as in: " + tool()
                    + " node001 node002");
        }
        PerftestOptions.Given given = given();
        PerftestOptions.Settings settings = PerftestOptions.settle(op(), kind(), given);
        if (plot != null) {
            FileArgs.check("--plot", plot);
        }
        String jsonFile = jsonFile();
        if (jsonFile != null) {
            FileArgs.check(outJson != null && !outJson.isEmpty() ? "--out_json" : "--out_json_file", jsonFile);
        }
        print(settings.notices(), out, err);
        Node server = Hosts.find(f, serverHost.trim());
        Node client = Hosts.find(f, clientHost.trim());
        Port sp = Hosts.port(server, settings.port());
        Port cp = Hosts.port(client, settings.port());
        PerftestOptions.Resolved run;
        try {
            run = PerftestOptions.resolve(op(), kind(), given, settings, cp, sp);
        } catch (PerftestOptions.NoLink e) {
            transport.noticeIfSimulated();
            err.println(tool() + ": " + e.getMessage());
            err.flush();
            return null;
        }
        transport.noticeIfSimulated();   // after what only the fabric can refuse: a bad host stays one line
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
        print(run.notices(), out, err);
        return new Run(f, server, client, run.serverEnd(), run.clientEnd(), ts.route(), tc.route(), failure,
                run.sizes(), run.qps(), run.txDepth(), run.cqMod(), run.rxDepth(), run.inline(), run.outReads(),
                run.mtu(), run.transport(), run.iters(), run.durationSec(), run.measuredSec(), run.peak(), run.gid(),
                run.device(), run.atomic());
    }

    /** perftest's notices, each on its stream as perftest prints it. */
    private static void print(List<PerftestOptions.Notice> notices, PrintWriter out, PrintWriter err) {
        for (PerftestOptions.Notice n : notices) {
            out.print(n.out());
            err.print(n.err());
        }
    }

    /** -s: a number with an optional K or M suffix, 1 .. 2^31-1 bytes ({@link PerftestOptions#parseSize}). */
    static long parseSize(String text) {
        return PerftestOptions.parseSize(text);
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
