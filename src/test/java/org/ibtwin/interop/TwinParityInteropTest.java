package org.ibtwin.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BiPredicate;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.ibtwin.format.FabricFiles;
import org.ibtwin.format.FormatException;
import org.ibtwin.format.TopologyReader;
import org.ibtwin.format.TopologyWriter;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Node;
import org.ibtwin.model.Port;
import org.ibtwin.sim.IbsimServer;
import org.ibtwin.sim.Twin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The twin against real ibsim, through the real programs: for each fabric and each routing engine, real {@code opensm
 * -o -R <engine>} brings the subnet up on the twin (in-process {@link IbsimServer}) and on a real {@code ibsim -r}
 * loaded with the same file (written by our TopologyWriter, so the GUIDs are the same); then real ibnetdiscover,
 * iblinkinfo, ibswitches, ibhosts, ibroute, ibtracert, perfquery and smpquery run against both, attached at the same
 * CA, and their outputs must be the same (same GUIDs, LIDs, links, widths, speeds, LFTs, paths).
 *
 * <p>Fabrics: ibsim's shipped examples (read in place from {@value #EXAMPLES}; one our reader rejects is skipped with
 * the reason), a 2-level and a 3-level generated fat tree, and the built-in default fabric. Engines: minhop and updn
 * everywhere, ftree on the fat-tree shapes (elsewhere OpenSM's ftree refuses the topology and falls back to minhop).
 * updn auto-detects its roots on the fat trees; on the examples it cannot (it falls back to minhop, silently) and is
 * given the first switch as root ({@code -a}). Every engine must say "{@code <engine> tables configured on all
 * switches}" in both logs, with SUBNET UP and no {@code ERR} line.
 *
 * <p>The engine-independent tools (ibnetdiscover, iblinkinfo, ibswitches, ibhosts, perfquery, smpquery) run once
 * a fabric, in its minhop case; ibroute and ibtracert run for every engine. Bigger fabrics are sampled (switches for
 * ibroute, CA pairs for ibtracert, ports for smpquery and perfquery), with a fixed seed.
 *
 * <h2>Known differences</h2>
 * Outputs must be byte-identical except for these, each allowed only in the lines named ({@link Known}):
 * <ul>
 * <li>ibnetdiscover's "generated on" timestamp;</li>
 * <li>where the twin answers the model's facts and ibsim its templates: NodeInfo Revision, PortInfo widths and
 *     speeds supported and enabled, MtuCap, SwitchInfo LinearFdbCap (ibsim 0.10 was built with 30720; the twin's
 *     49152 holds a whole unicast LID space) — and iblinkinfo's "Could be ..." hints, which come from those
 *     supported/enabled values;</li>
 * <li>PortInfo fields OpenSM sets and ibsim's Set(PortInfo) ignores (ibsim 0.10 {@code sim_mad.c do_portinfo} keeps
 *     only LID, SMLID, LMC, HOQLife, PhysState, State, OperVLs, GidPrefix and the enabled width/speeds): the twin
 *     keeps them, as the specification says;</li>
 * <li>a CA port without a link, which no SM configures: ibsim shows GidPrefix 0 and its {@code hcaport_down}
 *     template's CapMask (no IsCapabilityMaskNoticeSupported); the twin fe80::/64 and the CapMask of its other
 *     ports;</li>
 * <li>PMA: ibsim never counts PortUnicastXmit/RcvPkts, and its reset of PortCountersExtended clears PortXmitPkts
 *     twice and PortRcvPkts never ({@code sim_mad.c pc_ext_reset}).</li>
 * </ul>
 */
@Tag("interop")
class TwinParityInteropTest extends InteropTest {
    static final String EXAMPLES = "/usr/share/doc/ibsim-utils/net-examples";
    private static final List<String> EXAMPLE_FILES = List.of("net", "net.1", "net.2sw2path", "net.2sw2path4hca",
            "net.2sw2path4hca2port");
    /** The port band of this test: real ibsim's and the twin's ranges P..P+10 with P in here. */
    static final int FIRST_PORT = 17700;
    static final int LAST_PORT = 17780;
    private static final Duration TOOL_TIMEOUT = Duration.ofSeconds(60);
    private static final Pattern DUMP_LINE = Pattern.compile("^([A-Za-z0-9_]+):\\.+(.*)$", Pattern.DOTALL);
    private static final Pattern COULD_BE = Pattern.compile("\\( ?(Could be [^()]*)?\\)\\s*$");
    /** Most switches whose LFT ibroute dumps; most CA pairs ibtracert walks; most nodes smpquery reads. */
    private static final int MAX_ROUTES = 24;
    private static final int MAX_TRACES = 8;
    private static final int MAX_NODES = 8;

    /** Every tool this test runs, found once. */
    private static final List<String> TOOLS = List.of("opensm", "ibnetdiscover", "iblinkinfo", "ibswitches",
            "ibhosts", "ibroute", "ibtracert", "perfquery", "smpquery");
    private static final Map<String, Path> exe = new LinkedHashMap<>();
    private static ExecutorService pool;
    /** fabric → engine → tool → "equal" or the known differences seen; printed at the end. */
    private static final Map<String, Map<String, Map<String, Set<String>>>> MATRIX = new TreeMap<>();

    /** The differences allowed, each in the dump lines (field names) of one kind of output. */
    enum Known {
        DEVICE_REVISION("smpquery nodeinfo", Set.of("Revision"),
                "NodeInfo Revision: the model's; ibsim's template says 0xa1"),
        PORT_CAPABILITIES("smpquery portinfo", Set.of("LinkWidthSupported", "LinkWidthEnabled", "LinkSpeedSupported",
                "LinkSpeedEnabled", "LinkSpeedExtSupported", "LinkSpeedExtEnabled", "MtuCap", "CapabilityMask2"),
                "PortInfo supported/enabled widths, speeds, MtuCap and CapabilityMask2's width/speed bits: the twin's"
                        + " device catalog; ibsim's templates (1x..12x, SDR..QDR, HDR, MtuCap 2048) and net-file"
                        + " masks (ext speeds zeroed below FDR)"),
        SETS_IBSIM_IGNORES("smpquery portinfo", Set.of("NeighborMTU", "MkeyLeasePeriod", "SubnetTimeout",
                "LocalPhysErr", "OverrunErr", "PartEnforceInb", "PartEnforceOutb"),
                "PortInfo fields OpenSM sets: ibsim's Set(PortInfo) drops them, the twin keeps them"),
        UNSET_GID_PREFIX("smpquery portinfo", Set.of("GidPrefix"), (t, i) -> t.startsWith("0xfe80000000000000")
                && i.startsWith("0x0000000000000000"),
                "PortInfo GidPrefix of a port no SM configured (a CA port without a link): ibsim 0, the twin (as"
                        + " hardware) the default fe80::/64"),
        UNLINKED_CA_PORT_CAPMASK("smpquery portinfo", Set.of("CapMask"), (t, i) -> t.startsWith("0x50c048")
                && i.startsWith("0x10c048"),
                "PortInfo CapMask of a CA port without a link: ibsim's template for it (sim_net.c hcaport_down) lacks"
                        + " IsCapabilityMaskNoticeSupported; the twin gives every CA port the same mask"),
        LINEAR_FDB_CAP("smpquery switchinfo", Set.of("LinearFdbCap"),
                "SwitchInfo LinearFdbCap: ibsim 0.10 built with 30720, the twin 49152 (a whole unicast LID space)"),
        COULD_BE_HINTS("iblinkinfo", Set.of(),
                "iblinkinfo's '(Could be ...)' hints, computed from the supported/enabled widths and speeds above"),
        UNICAST_COUNTERS("perfquery -x", Set.of("PortUnicastXmitPkts", "PortUnicastRcvPkts"),
                "ibsim never counts PortUnicastXmit/RcvPkts; the twin counts LID-routed MADs"),
        EXT_RCV_PKTS_NOT_RESET("perfquery -x", Set.of("PortRcvPkts"),
                "ibsim's extended-counter reset clears PortXmitPkts twice and PortRcvPkts never");

        final String output;
        final Set<String> fields;
        final BiPredicate<String, String> values;
        final String reason;

        Known(String output, Set<String> fields, String reason) {
            this(output, fields, (t, i) -> true, reason);
        }

        /** Only where the twin's value and ibsim's pass {@code values}. */
        Known(String output, Set<String> fields, BiPredicate<String, String> values, String reason) {
            this.output = output;
            this.fields = fields;
            this.values = values;
            this.reason = reason;
        }
    }

    @BeforeAll
    static void findTools() {
        tools = RealTools.findOrSkip();
        List<String> missing = new ArrayList<>();
        for (String t : TOOLS) {
            Optional<Path> p = RealTools.executable(t);
            if (p.isPresent()) {
                exe.put(t, p.get());
            } else {
                missing.add(t);
            }
        }
        if (!missing.isEmpty()) {
            String notice = "INTEROP SKIPPED: " + String.join(", ", missing) + " not found (install "
                    + RealTools.PACKAGES + ")";
            RealTools.skip(notice);
        }
        pool = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "parity-client");
            t.setDaemon(true);
            return t;
        });
    }

    @AfterAll
    static void report() {
        if (pool != null) {
            pool.shutdownNow();
        }
        if (MATRIX.isEmpty()) {
            return;
        }
        StringBuilder sb = new StringBuilder("PARITY MATRIX (fabric / engine / tool: equal, or the known differences"
                + " seen)\n");
        MATRIX.forEach((fabric, engines) -> engines.forEach((engine, byTool) -> {
            sb.append("  ").append(fabric).append(" / ").append(engine).append(':');
            byTool.forEach((tool, kinds) -> sb.append(' ').append(tool).append('=')
                    .append(kinds.isEmpty() ? "equal" : String.join("+", kinds)));
            sb.append('\n');
        }));
        for (Known k : Known.values()) {
            sb.append("  ").append(k).append(": ").append(k.reason).append('\n');
        }
        System.out.print(sb);
    }

    // ---------------------------------------------------------------- the cases

    record Source(String name, Supplier<Fabric> fabric, boolean fatTree, boolean example) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> cases() {
        List<Source> sources = new ArrayList<>();
        for (String f : EXAMPLE_FILES) {
            sources.add(new Source(f, () -> TopologyReader.read(Path.of(EXAMPLES, f)), false, true));
        }
        sources.add(new Source("fat-tree 2x8x16", () -> FatTree.build(FatTreeSpec.of(2, 8, 16)), true, false));
        sources.add(new Source("fat-tree 3x8x32", () -> FatTree.build(FatTreeSpec.of(3, 8, 32)), true, false));
        sources.add(new Source("default", FabricFiles::loadDefault, true, false));
        List<Arguments> out = new ArrayList<>();
        for (Source s : sources) {
            for (String engine : s.fatTree() ? List.of("minhop", "updn", "ftree") : List.of("minhop", "updn")) {
                out.add(Arguments.of(s, engine));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} / {1}")
    @MethodSource("cases")
    void realToolsSeeTheSameFabricOnTheTwinAsOnIbsim(Source source, String engine) throws Exception {
        Fabric original;
        if (source.example()) {
            Path file = Path.of(EXAMPLES, source.name());
            if (!Files.isRegularFile(file)) {
                String notice = "INTEROP SKIPPED: " + file + " not found (install ibsim-utils)";
                System.err.println(notice);
                Assumptions.abort(notice);
            }
            try {
                original = source.fabric().get();
            } catch (FormatException e) {
                String notice = "PARITY SKIPPED: " + file + ": TopologyReader rejects it: " + e.getMessage();
                System.err.println(notice);
                Assumptions.abort(notice);
                return;
            }
        } else {
            original = source.fabric().get();
        }
        Path topo = dir.resolve("fabric.topo");
        TopologyWriter.write(original, topo);
        Fabric fabric = TopologyReader.read(topo);
        Node smHost = fabric.cas().get(0);
        String simHost = TopologyWriter.id(smHost);
        Path twinDir = Files.createDirectories(dir.resolve("twin"));
        Path simDir = Files.createDirectories(dir.resolve("ibsim"));
        Twin twin = Twin.of(fabric);
        try (IbsimServer server = RemoteIbsim.serveTwin(twin, FIRST_PORT, LAST_PORT);
             RemoteIbsim sim = RemoteIbsim.start(tools.ibsim, topo, FIRST_PORT, LAST_PORT, RealTools.limits(fabric),
                     Duration.ofSeconds(30))) {
            Side t = new Side("twin", new UmadClient(tools.umad2sim, server.port(), twinDir, simHost, TOOL_TIMEOUT));
            Side s = new Side("ibsim", new UmadClient(tools.umad2sim, sim.port(), simDir, simHost, TOOL_TIMEOUT));
            Case c = new Case(source.name(), engine, t, s);
            c.subnetUp(fabric, source.example());
            Fabric seen = c.discovered();
            // the twin shows the fabric we wrote (ibnetdiscover equal on both sides shows it for ibsim too)
            assertThat(IbsimInteropTest.canonical(seen)).as("ibnetdiscover on the twin: the fabric written")
                    .containsExactlyElementsOf(IbsimInteropTest.canonical(fabric));
            IbsimInteropTest.assertEveryPortHasItsOwnLid(source.name() + " / " + engine, seen);
            Random random = new Random(source.name().hashCode() * 31L + 7);
            if (engine.equals("minhop")) {
                c.topologyTools();
                c.smpqueries(seen, smHost, random);
                c.counters(seen, smHost, random);
            }
            c.routes(seen, random);
            c.traces(seen, smHost, random);
            c.finish(sim);
        }
    }

    // ---------------------------------------------------------------- one case

    /** One simulator and the clients attached to it. */
    record Side(String name, UmadClient client) {
    }

    /** Both answers to one command. */
    record Pair(UmadClient.Result twin, UmadClient.Result ibsim) {
    }

    /** One fabric under one engine: what was compared, what differed. */
    final class Case {
        final String fabric;
        final String engine;
        final Side twin;
        final Side ibsim;
        final List<String> failures = new ArrayList<>();
        final Map<String, Set<String>> byTool = new LinkedHashMap<>();
        final Map<Known, Integer> known = new EnumMap<>(Known.class);
        int compared;
        int identical;
        long twinSmMillis;
        long ibsimSmMillis;
        final long started = System.nanoTime();

        Case(String fabric, String engine, Side twin, Side ibsim) {
            this.fabric = fabric;
            this.engine = engine;
            this.twin = twin;
            this.ibsim = ibsim;
        }

        /** {@code opensm -o -R engine} on both: exit 0, SUBNET UP, the engine's tables, no ERR line. */
        void subnetUp(Fabric f, boolean example) throws Exception {
            List<String> args = new ArrayList<>(List.of("-o", "-e", "-R", engine));
            if (engine.equals("updn") && example) {
                Path roots = twin.client().dir().getParent().resolve("roots.txt");
                Files.writeString(roots, String.format("0x%016x%n", f.switches().get(0).guid()));
                args.addAll(List.of("-a", roots.toString()));
            }
            Pair p = both(side -> {
                List<String> a = new ArrayList<>(args);
                a.addAll(List.of("-f", side.client().dir().resolve("opensm.log").toString()));
                return side.client().withTimeout(Duration.ofSeconds(120)).run(exe.get("opensm"),
                        a.toArray(String[]::new));
            });
            twinSmMillis = p.twin().millis();
            ibsimSmMillis = p.ibsim().millis();
            for (Side side : List.of(twin, ibsim)) {
                UmadClient.Result r = side == twin ? p.twin() : p.ibsim();
                String log = RealTools.read(side.client().dir().resolve("opensm.log"));
                String what = fabric + " / " + engine + " on " + side.name() + ": ";
                String info = "\n$ " + r.command() + "\nstdout:\n" + RealTools.tail(r.out()) + "\nstderr:\n"
                        + RealTools.tail(r.err()) + "\nlog:\n" + RealTools.tail(log);
                assertThat(r.exit()).as(what + "opensm exit code" + info).isZero();
                assertThat(log).as(what + "SUBNET UP" + info).contains("SUBNET UP");
                assertThat(log).as(what + "the engine ran (no fallback)" + info)
                        .contains(engine + " tables configured on all switches");
                assertThat(RealTools.errorLines(log)).as(what + "OpenSM ERR lines").isEmpty();
            }
            note("opensm", Set.of());
        }

        /** ibnetdiscover on both; the twin's, read back. */
        Fabric discovered() throws Exception {
            Pair p = compare("ibnetdiscover", "ibnetdiscover");
            return TopologyReader.read(p.twin().out(), "ibnetdiscover on the twin");
        }

        void topologyTools() throws Exception {
            compare("iblinkinfo", "iblinkinfo");
            compare("ibswitches", "ibswitches");
            compare("ibhosts", "ibhosts");
        }

        /** ibroute for every switch, or a sample of them. */
        void routes(Fabric seen, Random random) throws Exception {
            for (Node sw : sample(seen.switches(), MAX_ROUTES, random)) {
                compare("ibroute", "ibroute", Integer.toString(sw.port(0).lid()));
            }
        }

        /** ibtracert between CA pairs (the SM's host to the farthest, then random ones) and from a switch. */
        void traces(Fabric seen, Node smHost, Random random) throws Exception {
            List<Node> cas = seen.cas().stream().filter(n -> lidPort(n) != null).toList();
            Node from = seen.byGuid(smHost.guid());
            Set<List<Integer>> pairs = new LinkedHashSet<>();
            pairs.add(List.of(lid(from), lid(cas.get(cas.size() - 1))));
            for (int i = 0; i < 4 * MAX_TRACES && pairs.size() < MAX_TRACES - 1; i++) {
                Node a = cas.get(random.nextInt(cas.size()));
                Node b = cas.get(random.nextInt(cas.size()));
                if (a != b) {
                    pairs.add(List.of(lid(a), lid(b)));
                }
            }
            Node sw = seen.switches().get(random.nextInt(seen.switches().size()));
            pairs.add(List.of(sw.port(0).lid(), lid(cas.get(random.nextInt(cas.size())))));
            for (List<Integer> pr : pairs) {
                compare("ibtracert", "ibtracert", Integer.toString(pr.get(0)), Integer.toString(pr.get(1)));
            }
        }

        /** smpquery nodeinfo, switchinfo and portinfo on sampled nodes and ports, the SM's port included. */
        void smpqueries(Fabric seen, Node smHost, Random random) throws Exception {
            List<Node> nodes = new ArrayList<>(sample(seen.switches(), MAX_NODES / 2, random));
            nodes.add(seen.byGuid(smHost.guid()));
            for (Node ca : sample(seen.cas(), MAX_NODES / 2, random)) {
                if (!nodes.contains(ca) && lidPort(ca) != null) {
                    nodes.add(ca);
                }
            }
            for (Node n : nodes) {
                String lid = Integer.toString(lid(n));
                compare("smpquery nodeinfo", "smpquery", "nodeinfo", lid);
                compare("smpquery nodedesc", "smpquery", "nodedesc", lid);
                if (n.isSwitch()) {
                    compare("smpquery switchinfo", "smpquery", "switchinfo", lid);
                }
                for (int port : ports(n, random)) {
                    compare("smpquery portinfo", "smpquery", "portinfo", lid, Integer.toString(port));
                }
            }
        }

        /**
         * perfquery after a reset, on both sides the same sequence, so that the same MADs have crossed the same
         * ports since: the SM host's port, a switch's port 0, an inter-switch port, a host-facing port, a far CA.
         */
        void counters(Fabric seen, Node smHost, Random random) throws Exception {
            List<int[]> targets = new ArrayList<>();
            Node host = seen.byGuid(smHost.guid());
            targets.add(new int[] {lid(host), lidPort(host).number()});
            Node sw = seen.switches().get(random.nextInt(seen.switches().size()));
            targets.add(new int[] {lid(sw), 0});
            interSwitch:
            for (Node s : seen.switches()) {
                for (int i = 1; i <= s.numPorts(); i++) {
                    Port p = s.port(i);
                    if (p.link() != null && p.remote().node().isSwitch()) {
                        targets.add(new int[] {lid(s), i});
                        break interSwitch;
                    }
                }
            }
            Port toHost = lidPort(host).remote();
            targets.add(new int[] {lid(toHost.node()), toHost.number()});
            Node far = seen.cas().get(seen.cas().size() - 1);
            if (lidPort(far) != null) {
                targets.add(new int[] {lid(far), lidPort(far).number()});
            }
            for (int[] t : targets) {
                String l = Integer.toString(t[0]);
                String p = Integer.toString(t[1]);
                compare("perfquery -R", "perfquery", "-R", l, p);
                compare("perfquery -x -R", "perfquery", "-x", "-R", l, p);
                compare("perfquery", "perfquery", l, p);
                compare("perfquery -x", "perfquery", "-x", l, p);
            }
        }

        /** Fails with every unexplained difference; prints the case's line of figures. */
        void finish(RemoteIbsim sim) {
            Map<String, Map<String, Set<String>>> engines;
            synchronized (MATRIX) {
                engines = MATRIX.computeIfAbsent(fabric, k -> new TreeMap<>());
                engines.put(engine, byTool);
            }
            List<String> kinds = new ArrayList<>();
            known.forEach((k, n) -> kinds.add(k + " x" + n));
            System.out.printf(Locale.ROOT, "INTEROP parity %s / %s: opensm %d ms on the twin, %d ms on ibsim (ready "
                    + "%d ms); %d outputs compared, %d identical, %d unexplained differences; known: %s; %d ms in all%n",
                    fabric, engine, twinSmMillis, ibsimSmMillis, sim.readyMillis(), compared, identical,
                    failures.size(), kinds.isEmpty() ? "none" : String.join(", ", kinds),
                    (System.nanoTime() - started) / 1_000_000);
            if (!failures.isEmpty()) {
                fail(fabric + " / " + engine + ": " + failures.size() + " outputs differ between the twin and ibsim"
                        + " beyond the known differences:\n" + String.join("\n", failures));
            }
        }

        // ---- comparing

        /** Runs the command on both sides, in parallel, and compares (with {@code kind}'s known differences). */
        Pair compare(String kind, String tool, String... args) throws Exception {
            Pair p = both(side -> side.client().run(exe.get(tool), args));
            compared++;
            String cmd = p.twin().command();
            Set<String> seenKinds = byTool.computeIfAbsent(toolName(kind), k -> new TreeSet<>());
            if (p.twin().exit() != p.ibsim().exit()) {
                failures.add("$ " + cmd + ": exit " + p.twin().exit() + " on the twin, " + p.ibsim().exit()
                        + " on ibsim\n  twin stderr: " + RealTools.tail(p.twin().err()) + "\n  ibsim stderr: "
                        + RealTools.tail(p.ibsim().err()));
                return p;
            }
            if (p.twin().out().equals(p.ibsim().out())) {
                identical++;
                return p;
            }
            List<String> unexplained = new ArrayList<>();
            Set<Known> used = diff(kind, p.twin().out(), p.ibsim().out(), unexplained);
            for (Known k : used) {
                known.merge(k, 1, Integer::sum);
                seenKinds.add(k.name());
            }
            if (!unexplained.isEmpty()) {
                seenKinds.add("DIFFERENT");
                failures.add("$ " + cmd + " (twin < > ibsim):\n" + String.join("\n", unexplained.subList(0,
                        Math.min(unexplained.size(), 40))) + (unexplained.size() > 40 ? "\n  ..." : ""));
            }
            return p;
        }

        private static String toolName(String kind) {
            return kind.replace(" -R", "").replace(" -x", "").replace("smpquery ", "smpquery-");
        }

        private Pair both(SideCall call) throws Exception {
            Future<UmadClient.Result> ft = pool.submit(() -> call.run(twin));
            Future<UmadClient.Result> fs = pool.submit(() -> call.run(ibsim));
            try {
                Pair p = new Pair(ft.get(), fs.get());
                for (UmadClient.Result r : List.of(p.twin(), p.ibsim())) {
                    if (r.timedOut()) {
                        fail("$ " + r.command() + " still running after its timeout; killed\nstderr:\n"
                                + RealTools.tail(r.err()));
                    }
                }
                return p;
            } catch (ExecutionException e) {
                if (e.getCause() instanceof Exception x) {
                    throw x;
                }
                throw e;
            }
        }

        private void note(String tool, Set<String> kinds) {
            byTool.computeIfAbsent(tool, k -> new TreeSet<>()).addAll(kinds);
        }
    }

    @FunctionalInterface
    interface SideCall {
        UmadClient.Result run(Side side) throws Exception;
    }

    /**
     * Entry by entry: the same entries in the same order, and every differing pair explained by a {@link Known}
     * difference of this kind of output; the unexplained pairs go to {@code unexplained}. Returns the known
     * differences used. An entry is a line, with the lines indented by a tab after it (smpquery's decoded masks).
     */
    static Set<Known> diff(String kind, String twinOut, String ibsimOut, List<String> unexplained) {
        List<String> a = entries(twinOut);
        List<String> b = entries(ibsimOut);
        Set<Known> used = new LinkedHashSet<>();
        if (a.size() != b.size()) {
            unexplained.add("  " + a.size() + " entries on the twin, " + b.size() + " on ibsim");
        }
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            String x = a.get(i);
            String y = b.get(i);
            if (x.equals(y)) {
                continue;
            }
            Known k = explain(kind, x, y);
            if (k != null) {
                used.add(k);
            } else if (!(kind.equals("ibnetdiscover") && x.startsWith("# Topology file: generated on ")
                    && y.startsWith("# Topology file: generated on "))) {
                unexplained.add("  < " + x.replace("\n", "\n  < ") + "\n  > " + y.replace("\n", "\n  > "));
            }
        }
        return used;
    }

    /** Lines, each with the tab-indented continuation lines that follow it. */
    static List<String> entries(String out) {
        List<String> e = new ArrayList<>();
        for (String line : out.split("\n", -1)) {
            if (line.startsWith("\t") && !e.isEmpty()) {
                e.set(e.size() - 1, e.get(e.size() - 1) + "\n" + line);
            } else {
                e.add(line);
            }
        }
        return e;
    }

    private static Known explain(String kind, String twinLine, String ibsimLine) {
        if (kind.equals("iblinkinfo")) {
            String x = COULD_BE.matcher(twinLine).replaceFirst("()");
            String y = COULD_BE.matcher(ibsimLine).replaceFirst("()");
            return x.equals(y) ? Known.COULD_BE_HINTS : null;
        }
        Matcher x = DUMP_LINE.matcher(twinLine);
        Matcher y = DUMP_LINE.matcher(ibsimLine);
        if (!x.matches() || !y.matches() || !x.group(1).equals(y.group(1))) {
            return null;
        }
        String output = kind.replace(" -R", "");
        for (Known k : Known.values()) {
            if (k.output.equals(output) && k.fields.contains(x.group(1)) && k.values.test(x.group(2), y.group(2))) {
                return k;
            }
        }
        return null;
    }

    // ---------------------------------------------------------------- the fabric as ibnetdiscover showed it

    /** A CA's first connected port (its LID is the node's), or null. */
    static Port lidPort(Node n) {
        for (int i = 1; i <= n.numPorts(); i++) {
            if (n.port(i).link() != null) {
                return n.port(i);
            }
        }
        return null;
    }

    static int lid(Node n) {
        return n.isSwitch() ? n.port(0).lid() : lidPort(n).lid();
    }

    /** The ports smpquery portinfo reads: a switch's 0, two linked and one unlinked; each port of a CA. */
    static List<Integer> ports(Node n, Random random) {
        List<Integer> out = new ArrayList<>();
        if (!n.isSwitch()) {
            for (int i = 1; i <= n.numPorts(); i++) {
                out.add(i);
            }
            return out;
        }
        out.add(0);
        List<Integer> linked = new ArrayList<>();
        List<Integer> unlinked = new ArrayList<>();
        for (int i = 1; i <= n.numPorts(); i++) {
            (n.port(i).link() != null ? linked : unlinked).add(i);
        }
        Collections.shuffle(linked, random);
        out.addAll(linked.subList(0, Math.min(2, linked.size())));
        if (!unlinked.isEmpty()) {
            out.add(unlinked.get(random.nextInt(unlinked.size())));
        }
        return out;
    }

    /** All of {@code list} when it is short, else its first, its last and random others: {@code max} in all. */
    static <T> List<T> sample(List<T> list, int max, Random random) {
        if (list.size() <= max) {
            return list;
        }
        List<T> rest = new ArrayList<>(list.subList(1, list.size() - 1));
        Collections.shuffle(rest, random);
        List<T> out = new ArrayList<>();
        out.add(list.get(0));
        out.add(list.get(list.size() - 1));
        out.addAll(rest.subList(0, max - 2));
        return out;
    }
}
