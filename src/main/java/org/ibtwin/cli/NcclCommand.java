package org.ibtwin.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.ibtwin.format.NamePattern;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Port;
import org.ibtwin.perf.LftRoutes;
import org.ibtwin.perf.Names;
import org.ibtwin.perf.PerfParams;
import org.ibtwin.perf.Routes;
import org.ibtwin.perf.collective.Algorithm;
import org.ibtwin.perf.collective.Collective;
import org.ibtwin.perf.collective.CollectiveModel;
import org.ibtwin.perf.collective.CollectiveParams;
import org.ibtwin.perf.collective.GpuNode;
import org.ibtwin.perf.collective.Job;
import org.ibtwin.perf.collective.Protocol;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ibtwin nccl <test>_perf}: what nccl-tests prints for a collective on the fabric's GPU nodes, row for row
 * (nccl-tests 2.19 against NCCL 2.30), from {@link CollectiveModel}. The fabric is the one the transport options
 * name, as the perftest tools see it ({@link PerfFabric}: learnt through MADs, every ring and tree edge on the
 * routes the switches' LFTs hold), its GPU facts from the description ({@code --facts}, else the --fabric file).
 * ibtwin's own options: --nodes, --hosts, --algo, --proto, --facts, --json, --why, --plot. Bad input is one line and
 * exit 2; a fabric that cannot be read, or ranks it cannot connect, one line and exit 1.
 */
@Command(name = "nccl", mixinStandardHelpOptions = true, sortOptions = false,
        modelTransformer = NcclCommand.CputimeOption.class,
        description = "nccl-tests on the fabric: all_reduce_perf, all_gather_perf, reduce_scatter_perf, "
                + "alltoall_perf, broadcast_perf, reduce_perf, sendrecv_perf.")
public final class NcclCommand extends CliCommand {
    /**
     * nccl-tests' {@code -C/--report_cputime} keeps its letter here: the transport options' {@code -C/--Ca} is taken
     * out (a collective spans many hosts, and {@code --umad CA} still names this host's CA).
     */
    public static final class CputimeOption implements CommandLine.IModelTransformer {
        @Override
        public CommandSpec transform(CommandSpec spec) {
            return DiagCommand.swapOption(spec, CommandLine.Model.OptionSpec.builder("-C", "--report_cputime")
                    .paramLabel("<0/1>").type(String.class)
                    .description("nccl-tests' report CPU time: only 0 (the model has no CPU time)."),
                    v -> ((NcclCommand) spec.userObject()).reportCputime = (String) v);
        }
    }

    /** nccl-tests' -C. */
    String reportCputime;

    /** The nccl-tests release whose output this mirrors, and the NCCL it reports. */
    static final String TESTS_VERSION = "2.19.6";
    static final int NCCL_CODE = 23007;

    private static final Map<String, Integer> TYPES = new LinkedHashMap<>();

    static {
        for (String t : new String[] {"int8", "uint8"}) {
            TYPES.put(t, 1);
        }
        for (String t : new String[] {"int32", "uint32", "float"}) {
            TYPES.put(t, 4);
        }
        for (String t : new String[] {"int64", "uint64", "double"}) {
            TYPES.put(t, 8);
        }
        TYPES.put("half", 2);
        TYPES.put("bfloat16", 2);
        TYPES.put("f8e4m3", 1);
        TYPES.put("f8e5m2", 1);
    }

    private static final List<String> OPS = List.of("sum", "prod", "max", "min", "avg", "mulsum");

    /** DGX H100 GPU PCI bus numbers, in device order. */
    private static final int[] BUS = {0x18, 0x2a, 0x3a, 0x5d, 0x9a, 0xab, 0xba, 0xdb, 0x19, 0x2b, 0x3b, 0x5e, 0x9b,
        0xac, 0xbb, 0xdc};

    @Parameters(index = "0", paramLabel = "<test>",
            description = "all_reduce_perf, all_gather_perf, reduce_scatter_perf, alltoall_perf, broadcast_perf, "
                    + "reduce_perf or sendrecv_perf.")
    String test;

    @Option(names = {"-b", "--minbytes"}, paramLabel = "<size>", defaultValue = "32M",
            description = "Smallest size, bytes, K/M/G binary suffixes (default: ${DEFAULT-VALUE}).")
    String minBytes;

    @Option(names = {"-e", "--maxbytes"}, paramLabel = "<size>", defaultValue = "32M",
            description = "Largest size (default: ${DEFAULT-VALUE}).")
    String maxBytes;

    @Option(names = {"-f", "--stepfactor"}, paramLabel = "<factor>", defaultValue = "1",
            description = "Multiply the size by this between rows (default: ${DEFAULT-VALUE}: add -i).")
    String stepFactor;

    @Option(names = {"-i", "--stepbytes"}, paramLabel = "<size>", defaultValue = "1M",
            description = "Add this to the size between rows when -f is 1 (default: ${DEFAULT-VALUE}).")
    String stepBytes;

    @Option(names = {"-g", "--ngpus"}, paramLabel = "<n>",
            description = "GPUs per node (default: every GPU of the node).")
    String gpus;

    @Option(names = {"-n", "--iters"}, paramLabel = "<n>", defaultValue = "20",
            description = "Iterations, as printed (default: ${DEFAULT-VALUE}).")
    String iters;

    @Option(names = {"-w", "--warmup_iters"}, paramLabel = "<n>", defaultValue = "1",
            description = "Warm-up iterations, as printed (default: ${DEFAULT-VALUE}).")
    String warmup;

    @Option(names = {"-d", "--datatype"}, paramLabel = "<type>", defaultValue = "float",
            description = "int8, uint8, int32, uint32, int64, uint64, half, float, double, bfloat16, f8e4m3, f8e5m2 "
                    + "(default: ${DEFAULT-VALUE}).")
    String datatype;

    @Option(names = {"-o", "--op"}, paramLabel = "<op>", defaultValue = "sum",
            description = "sum, prod, max, min, avg, mulsum (default: ${DEFAULT-VALUE}).")
    String op;

    @Option(names = {"-r", "--root"}, paramLabel = "<rank>", defaultValue = "0",
            description = "Root of broadcast and reduce (default: ${DEFAULT-VALUE}).")
    String root;

    @Option(names = "--nodes", paramLabel = "<n>", description = "Run on the first <n> GPU nodes (default: all).")
    String nodes;

    @Option(names = "--hosts", paramLabel = "<list>",
            description = "Run on these GPU nodes: names or patterns, comma-separated (node[001-016],node020).")
    String hosts;

    @Option(names = "--algo", paramLabel = "<algo>",
            description = "Restrict NCCL's algorithm, as NCCL_ALGO: ring, tree, nvls (NVLS on one node, NVLS-tree "
                    + "across nodes), comma-separated.")
    String algo;

    @Option(names = "--proto", paramLabel = "<proto>",
            description = "Restrict NCCL's protocol, as NCCL_PROTO: ll, ll128, simple, comma-separated.")
    String proto;

    @CommandLine.Mixin
    TransportOptions transport;

    @Option(names = "--facts", paramLabel = "<file>",
            description = "Fabric description to take the GPU hosts' facts (GPUs, NVLink, GPUDirect, PCIe, NUMA) "
                    + "from (default: the --fabric file, else the built-in default fabric), matched by node GUID, "
                    + "else host name.")
    String facts;

    @Option(names = "--json", description = "Print JSON instead of nccl-tests' text.")
    boolean json;

    @Option(names = "--why", description = "After the table, say what limits each size.")
    boolean why;

    @Option(names = "--plot", paramLabel = "<file.svg|file.png>", description = "Plot busbw against the size.")
    String plot;

    /** One row. */
    record Row(long bytes, CollectiveModel.Estimate estimate) {
    }

    @Override
    public Integer call() throws IOException {
        if (reportCputime != null && !reportCputime.equals("0")) {
            throw new IllegalArgumentException("-C " + reportCputime + ": the model has no CPU time to report "
                    + "(its times are the collective's modelled time; name a CA with --umad CA)");
        }
        Collective coll = Collective.ofProgram(test);
        if (coll == null) {
            throw new IllegalArgumentException("unknown test '" + test + "': all_reduce_perf, all_gather_perf, "
                    + "reduce_scatter_perf, alltoall_perf, broadcast_perf, reduce_perf or sendrecv_perf");
        }
        long min = size("-b", minBytes);
        long max = size("-e", maxBytes);
        if (min > max) {
            throw new IllegalArgumentException("invalid sizes for 'minbytes' and 'maxbytes': " + min + " > " + max);
        }
        long factor = whole("-f", stepFactor, 1);
        long step = factor > 1 ? 0 : size("-i", stepBytes);
        if (factor <= 1 && step < 1) {
            throw new IllegalArgumentException("-i must be at least 1 byte");
        }
        int nIters = (int) whole("-n", iters, 1);
        int nWarmup = (int) whole("-w", warmup, 0);
        Integer typeSize = TYPES.get(datatype.trim().toLowerCase(Locale.ROOT));
        if (typeSize == null) {
            throw new IllegalArgumentException("-d: unknown type '" + datatype + "' (" + String.join(", ",
                    TYPES.keySet()) + ")");
        }
        String opName = op.trim().toLowerCase(Locale.ROOT);
        if (!OPS.contains(opName)) {
            throw new IllegalArgumentException("-o: unknown op '" + op + "' (" + String.join(", ", OPS) + ")");
        }
        int rootRank = (int) whole("-r", root, 0);
        Set<Algorithm> algos = algorithms();
        Set<Protocol> protos = protocols();
        if (plot != null && !plot.toLowerCase(Locale.ROOT).matches(".*\\.(svg|png)")) {
            throw new IllegalArgumentException("--plot: name a .svg or .png file, got '" + plot + "'");
        }
        if (plot != null) {
            plotPath(plot);
            FileArgs.check("--plot", plot);   // its directory must exist: checked before the work
        }

        Settings set = new Settings(coll, min, max, factor, step, nIters, nWarmup, typeSize, opName, rootRank, algos,
                protos);
        PrintWriter err = err();
        try (PerfFabric pf = PerfFabric.open(transport, facts, err, "ibtwin nccl")) {
            return execute(pf, set);
        } catch (PerfFabric.Unreachable | NoRoute e) {
            err.println("ibtwin nccl: " + e.getMessage());
            return 1;
        }
    }

    /** The options settled before the fabric is looked at. */
    private record Settings(Collective coll, long min, long max, long factor, long step, int nIters, int nWarmup,
                            int typeSize, String opName, int rootRank, Set<Algorithm> algos, Set<Protocol> protos) {
    }

    /** Two ranks the live tables do not connect: where the route stops and why. */
    static final class NoRoute extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NoRoute(String message) {
            super(message);
        }
    }

    /**
     * The routes the collective's edges follow: the fabric's own ({@link PerfFabric#trace}); a pair the tables do
     * not connect stops the run, naming where the route stops.
     */
    static Routes routes(PerfFabric pf) {
        return (Port src, Port dst) -> {
            LftRoutes.Trace t = pf.trace(src, dst);
            if (t.route() == null) {
                throw new NoRoute("no route from " + Names.port(src) + " to " + Names.port(dst) + ": it stops at "
                        + Names.port(t.at()) + ", " + t.problem() + " (routes: " + pf.routeSource()
                        + "): NCCL cannot connect the ranks");
            }
            return t.route();
        };
    }

    private Integer execute(PerfFabric pf, Settings set) throws IOException {
        Collective coll = set.coll();
        long min = set.min();
        long max = set.max();
        long factor = set.factor();
        long step = set.step();
        int typeSize = set.typeSize();
        int rootRank = set.rootRank();
        Fabric f = pf.fabric();
        Job job = job(f);
        if (coll.defaultRoot() >= 0 && rootRank >= job.ranks()) {
            throw new IllegalArgumentException("-r " + rootRank + ": the job has " + job.ranks() + " ranks");
        }
        CollectiveModel model = new CollectiveModel(PerfParams.DEFAULT, CollectiveParams.DEFAULT, routes(pf), job,
                coll);
        checkAlgorithms(model, set.algos());
        transport.noticeIfSimulated();   // after what only the fabric can refuse: a bad argument stays one line
        List<Row> rows = new ArrayList<>();
        for (long s = min; s <= max; s = factor > 1 ? s * factor : s + step) {
            rows.add(new Row(s, model.estimate(s, typeSize, set.algos(), set.protos())));
            if (factor > 1 && s > Long.MAX_VALUE / factor) {
                break;
            }
        }
        String typeName = datatype.trim().toLowerCase(Locale.ROOT);
        String redop = coll.reduces() ? set.opName() : "none";
        int printedRoot = coll.defaultRoot() < 0 ? -1 : rootRank;
        double avg = 0;
        for (Row r : rows) {
            avg += r.estimate().busbw();
        }
        avg = rows.isEmpty() ? 0 : avg / rows.size();

        PrintWriter out = out();
        if (json) {
            out.print(Json.write(json(pf, coll, job, model, rows, min, max, factor, step, set.nIters(),
                    set.nWarmup(), typeName, redop, printedRoot, avg)));
        } else {
            StringBuilder t = new StringBuilder();
            header(t, coll, job, min, max, factor, step, set.nIters(), set.nWarmup());
            for (Row r : rows) {
                CollectiveModel.Estimate e = r.estimate();
                t.append(String.format(Locale.ROOT, "%12d  %12d  %8s  %6s  %6s", e.bytes(), e.count(), typeName,
                        redop, String.format(Locale.ROOT, "%6d", printedRoot)));
                for (int place = 0; place < 2; place++) {
                    t.append(String.format(Locale.ROOT, "  %7s  %6s  %6s  %6s", fixed(e.timeUs(), 7),
                            fixed(e.algbw(), 6), fixed(e.busbw(), 6), "0"));
                }
                t.append('\n');
            }
            t.append(String.format(Locale.ROOT, "# %-20s : %d %s%n", "Out of bounds values", 0, "OK"));
            t.append(String.format(Locale.ROOT, "# %-20s : %s %s%n", "Avg bus bandwidth", cg(avg), ""));
            t.append("#\n");
            t.append("# Collective test concluded: ").append(coll.program()).append('\n');
            t.append("#\n");
            t.append('\n');
            if (why) {
                appendWhy(t, pf, model, rows);
            }
            out.print(t);
        }
        out.flush();
        if (plot != null) {
            List<double[]> points = new ArrayList<>();
            for (Row r : rows) {
                if (r.estimate().bytes() > 0) {
                    points.add(new double[] {r.estimate().bytes(), r.estimate().busbw()});
                }
            }
            FileArgs.write("--plot", () -> Plot.write(plotPath(plot), coll.program() + " on " + job.nodes().size()
                    + " node" + (job.nodes().size() == 1 ? "" : "s") + " x " + job.gpusPerNode() + " GPUs ("
                    + PerfFabric.name(transport) + ")", "size [bytes]", "busbw [GB/s]", points,
                    false));
        }
        return 0;
    }

    private void header(StringBuilder t, Collective coll, Job job, long min, long max, long factor, long step,
                        int nIters, int nWarmup) {
        t.append("# nccl-tests version ").append(TESTS_VERSION).append(" nccl-headers=").append(NCCL_CODE)
                .append(" nccl-library=").append(NCCL_CODE).append('\n');
        t.append("# Collective test starting: ").append(coll.program()).append('\n');
        t.append(String.format(Locale.ROOT, "# nThread %d nGpus %d minBytes %d maxBytes %d step: %d(%s) warmup "
                + "iters: %d iters: %d agg iters: %d validation: %d graph: %d unalign: %d%n", 1,
                job.gpusPerNode(), min, max, factor > 1 ? factor : step, factor > 1 ? "factor" : "bytes", nWarmup,
                nIters, 1, 1, 0, 0));
        t.append("#\n");
        t.append("# Using devices\n");
        int rank = 0;
        for (int i = 0; i < job.nodes().size(); i++) {
            GpuNode n = job.nodes().get(i);
            for (int g = 0; g < job.gpusPerNode(); g++) {
                t.append(String.format(Locale.ROOT, "#  Rank %2d Group %2d Pid %6d on %10s device %2d "
                        + "[%04x:%02x:%02x] %s%n", rank++, 0, 4000 + i, n.name(), g, 0, BUS[g % BUS.length], 0,
                        gpuName(n)));
            }
        }
        t.append("#\n");
        t.append(String.format(Locale.ROOT, "# %10s  %12s  %8s  %6s  %6s           out-of-place                 "
                + "      in-place          %n", "", "", "", "", ""));
        t.append(String.format(Locale.ROOT, "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s "
                + "%n", "size", "count", "type", "redop", "root", "time", "algbw", "busbw", "#wrong", "time", "algbw",
                "busbw", "#wrong"));
        t.append(String.format(Locale.ROOT, "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s "
                + "%n", "(B)", "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(GB/s)", "(GB/s)",
                ""));
    }

    /** The GPU of the board's NVLink generation. */
    static String gpuName(GpuNode n) {
        int nvl = n.facts().nvlinkGBps();
        if (nvl >= 450) {
            return "NVIDIA H100 80GB HBM3";
        }
        if (nvl >= 300) {
            return "NVIDIA A100-SXM4-80GB";
        }
        return nvl > 0 ? "Tesla V100-SXM2-32GB" : "NVIDIA L40S";
    }

    private void appendWhy(StringBuilder t, PerfFabric pf, CollectiveModel model, List<Row> rows) {
        Job job = model.job();
        t.append(String.format(Locale.ROOT, "# ibtwin: %d node%s x %d GPU%s = %d ranks, %d NIC%s per node, %d "
                + "channels; routes: %s%n",
                job.nodes().size(), job.nodes().size() == 1 ? "" : "s", job.gpusPerNode(),
                job.gpusPerNode() == 1 ? "" : "s", job.ranks(), job.nics(), job.nics() == 1 ? "" : "s",
                model.channels(), pf.routeSource()));
        for (Row r : rows) {
            CollectiveModel.Estimate e = r.estimate();
            t.append(String.format(Locale.ROOT, "# ibtwin: %12d  %s/%s  %s: %s%n", e.bytes(), e.algorithm().label(),
                    e.protocol().label(), limitLabel(e.limit()), e.why()));
        }
    }

    static String limitLabel(CollectiveModel.Limit l) {
        return l.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    private ObjectNode json(PerfFabric pf, Collective coll, Job job, CollectiveModel model, List<Row> rows, long min, long max,
                            long factor, long step, int nIters, int nWarmup, String typeName, String redop,
                            int printedRoot, double avg) {
        ObjectNode j = JsonNodeFactory.instance.objectNode();
        ObjectNode cfg = j.putObject("config");
        cfg.put("test", coll.program());
        cfg.put("nthreads", 1);
        cfg.put("ngpus", job.gpusPerNode());
        cfg.put("minimum_bytes", min);
        cfg.put("maximum_bytes", max);
        if (factor > 1) {
            cfg.put("step_factor", factor);
        } else {
            cfg.put("step_bytes", step);
        }
        cfg.put("warmup_iters", nWarmup);
        cfg.put("iterations", nIters);
        ArrayNode res = j.putArray("results");
        for (Row r : rows) {
            CollectiveModel.Estimate e = r.estimate();
            ObjectNode o = res.addObject();
            o.put("size", e.bytes());
            o.put("count", e.count());
            o.put("type", typeName);
            o.put("redop", redop);
            o.put("root", printedRoot);
            for (String place : new String[] {"out_of_place", "in_place"}) {
                ObjectNode p = o.putObject(place);
                p.put("time", round(e.timeUs()));
                p.put("alg_bw", round(e.algbw()));
                p.put("bus_bw", round(e.busbw()));
                p.put("nwrong", 0);
            }
            o.put("algorithm", e.algorithm().label());
            o.put("protocol", e.protocol().label());
            o.put("latency_us", round(e.latencyUs()));
            o.put("limited_by", limitLabel(e.limit()));
            o.put("why", e.why());
        }
        j.putObject("average_bus_bandwidth").put("bandwidth", round(avg));
        ObjectNode ib = j.putObject("ibtwin");
        ib.put("fabric", PerfFabric.name(transport));
        ib.put("routes", pf.routeSource());
        ib.put("nodes", job.nodes().size());
        ib.put("ranks", job.ranks());
        ib.put("nics_per_node", job.nics());
        ib.put("channels", model.channels());
        ArrayNode names = ib.putArray("hosts");
        for (GpuNode n : job.nodes()) {
            names.add(n.name());
        }
        return j;
    }

    private static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }

    /** The job's nodes: --hosts, else the first --nodes, else all GPU nodes of the fabric. */
    private Job job(Fabric f) {
        List<GpuNode> all = GpuNode.of(f);
        if (all.isEmpty()) {
            if (facts == null && !transport.target().isInProcess()) {
                throw new IllegalArgumentException("no GPU hosts: MADs do not tell GPUs, so name the fabric's "
                        + "description with --facts (hosts with 'gpu: true', as ibtwin gen gpu-fat-tree writes)");
            }
            throw new IllegalArgumentException("the fabric has no GPU hosts: give them 'gpu: true' in its "
                    + "description (or build one with ibtwin gen gpu-fat-tree)");
        }
        if (nodes != null && hosts != null) {
            throw new IllegalArgumentException("--nodes and --hosts: give one of them");
        }
        List<GpuNode> chosen = all;
        if (nodes != null) {
            int n = (int) whole("--nodes", nodes, 1);
            if (n > all.size()) {
                throw new IllegalArgumentException("--nodes " + n + ": the fabric has " + all.size() + " GPU node"
                        + (all.size() == 1 ? "" : "s"));
            }
            chosen = all.subList(0, n);
        } else if (hosts != null) {
            chosen = new ArrayList<>();
            for (String item : hosts.split(",")) {
                String text = item.trim();
                NamePattern p;
                try {
                    p = NamePattern.parse(text);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("--hosts: " + e.getMessage());
                }
                boolean any = false;
                for (GpuNode g : all) {
                    if (p.matches(g.name())) {
                        if (!chosen.contains(g)) {
                            chosen.add(g);
                        }
                        any = true;
                    }
                }
                if (!any) {
                    throw new IllegalArgumentException("--hosts: no GPU node " + text + " in the fabric");
                }
            }
        }
        int g = Integer.MAX_VALUE;
        for (GpuNode n : chosen) {
            g = Math.min(g, n.gpus());
        }
        if (gpus != null) {
            g = (int) whole("-g", gpus, 1);
        }
        return new Job(chosen, g);
    }

    private Set<Algorithm> algorithms() {
        if (algo == null) {
            return null;
        }
        Set<Algorithm> s = EnumSet.noneOf(Algorithm.class);
        for (String item : algo.split(",")) {
            Algorithm a = Algorithm.parse(item);
            if (a == null || a == Algorithm.P2P) {
                throw new IllegalArgumentException("--algo: unknown algorithm '" + item.trim()
                        + "' (ring, tree, nvls, nvlstree)");
            }
            s.add(a);
            if (a == Algorithm.NVLS) {
                s.add(Algorithm.NVLS_TREE);
            }
        }
        return s;
    }

    private Set<Protocol> protocols() {
        if (proto == null) {
            return null;
        }
        Set<Protocol> s = EnumSet.noneOf(Protocol.class);
        for (String item : proto.split(",")) {
            Protocol p = Protocol.parse(item);
            if (p == null) {
                throw new IllegalArgumentException("--proto: unknown protocol '" + item.trim()
                        + "' (ll, ll128, simple)");
            }
            s.add(p);
        }
        return s;
    }

    /** An --algo that leaves the collective nothing is refused, as NCCL refuses it. */
    private static void checkAlgorithms(CollectiveModel model, Set<Algorithm> algos) {
        if (algos == null || model.algorithms().contains(Algorithm.P2P)) {
            return;
        }
        for (Algorithm a : model.algorithms()) {
            if (algos.contains(a)) {
                return;
            }
        }
        List<String> have = new ArrayList<>();
        for (Algorithm a : model.algorithms()) {
            have.add(a.label());
        }
        throw new IllegalArgumentException("--algo: NCCL has no such " + model.collective().label()
                + " on this job (it has " + String.join(", ", have) + ")");
    }

    /** A size as nccl-tests reads it: a number with an optional K, M or G (binary). */
    static long size(String option, String text) {
        String t = text.trim();
        long unit = 1;
        if (!t.isEmpty()) {
            char c = Character.toUpperCase(t.charAt(t.length() - 1));
            if (c == 'K' || c == 'M' || c == 'G') {
                unit = c == 'K' ? 1L << 10 : c == 'M' ? 1L << 20 : 1L << 30;
                t = t.substring(0, t.length() - 1).trim();
            }
        }
        try {
            double v = Double.parseDouble(t);
            if (v >= 0 && v * unit <= 1L << 50 && !t.isEmpty() && Character.isDigit(t.charAt(t.length() - 1))) {
                return (long) (v * unit);
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new IllegalArgumentException(option + ": invalid size '" + text + "' (bytes, K, M or G)");
    }

    private static long whole(String option, String text, long least) {
        try {
            long v = Long.parseLong(text.trim());
            if (v >= least) {
                return v;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new IllegalArgumentException(option + " must be a whole number of at least " + least + ", got '"
                + text + "'");
    }

    /** nccl-tests' column: two decimals, fewer when they do not fit the width, then an exponent. */
    static String fixed(double v, int width) {
        for (String f : new String[] {"%" + width + ".2f", "%" + width + ".1f", "%" + width + ".0f"}) {
            String s = String.format(Locale.ROOT, f, v);
            if (s.length() <= width) {
                return s;
            }
        }
        String s = String.format(Locale.ROOT, width >= 7 ? "%" + width + ".1e" : "%" + width + ".0e", v);
        return s.length() > width ? s.substring(0, width) : s;
    }

    /** C's %g: six significant digits, no trailing zeros, an exponent below 1e-4 and from 1e6. */
    static String cg(double v) {
        if (v == 0) {
            return "0";
        }
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return Double.isNaN(v) ? "nan" : v > 0 ? "inf" : "-inf";
        }
        String e = String.format(Locale.ROOT, "%.5e", v);
        int exp = Integer.parseInt(e.substring(e.indexOf('e') + 1));
        if (exp < -4 || exp >= 6) {
            String mant = e.substring(0, e.indexOf('e'));
            mant = mant.contains(".") ? mant.replaceFirst("0+$", "").replaceFirst("\\.$", "") : mant;
            return mant + "e" + (exp < 0 ? "-" : "+") + (Math.abs(exp) < 10 ? "0" : "") + Math.abs(exp);
        }
        String s = String.format(Locale.ROOT, "%." + Math.max(0, 5 - exp) + "f", v);
        return s.contains(".") ? s.replaceFirst("0+$", "").replaceFirst("\\.$", "") : s;
    }

    /** The --plot file, or one line naming what is wrong with it. */
    static Path plotPath(String p) {
        try {
            return Path.of(p);
        } catch (InvalidPathException e) {
            throw new IllegalArgumentException("--plot: " + e.getMessage());
        }
    }
}
