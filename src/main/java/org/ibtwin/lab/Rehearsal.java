package org.ibtwin.lab;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.ibtwin.diag.LiveModel;
import org.ibtwin.diag.NetDiscovery;
import org.ibtwin.format.PartitionsConf;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Node;
import org.ibtwin.model.NodeType;
import org.ibtwin.model.Port;
import org.ibtwin.model.PortState;
import org.ibtwin.perf.Hop;
import org.ibtwin.perf.LftRoutes;
import org.ibtwin.perf.Names;
import org.ibtwin.perf.Op;
import org.ibtwin.perf.PerfParams;
import org.ibtwin.perf.Spec;
import org.ibtwin.perf.Transport;
import org.ibtwin.sim.Attachment;
import org.ibtwin.sim.Twin;
import org.ibtwin.sim.TwinTransport;
import org.ibtwin.sm.SmConfig;
import org.ibtwin.sm.SmLog;
import org.ibtwin.sm.SmStateMachine;
import org.ibtwin.sm.SubnetManager;
import org.ibtwin.sm.routing.RoutingCheck;
import org.ibtwin.whatif.Change;
import org.ibtwin.whatif.Compare;
import org.ibtwin.whatif.KnownPartitions;
import org.ibtwin.whatif.NodeRef;
import org.ibtwin.whatif.Report;
import org.ibtwin.whatif.Side;

/**
 * {@code ibtwin what-if}'s engine: two twins of one fabric, each brought up by ibtwin's SM (at the same port, with
 * the same options and partitions: the fabric as it is); the changes applied to the second (cables, ports and
 * switches at the twin, partitions and options at its SM, an SM killed), the SM left to react as it would (a heavy
 * sweep; a standby taking over when the master is gone); then both learnt through MADs ({@link LiveModel}, from a
 * port the change leaves alone, and from inside any part the change cut off) and compared ({@link Compare}).
 */
public final class Rehearsal {
    /**
     * How to run the SMs of both copies.
     *
     * @param opensm real OpenSM as the SM of both copies (null: ibtwin's SM)
     */
    public record Settings(SmConfig config, PartitionsConf partitions, String smNode, String standbyNode,
                           OpensmRunner opensm) {
        public Settings(SmConfig config, PartitionsConf partitions, String smNode, String standbyNode) {
            this(config, partitions, smNode, standbyNode, null);
        }
    }

    private static final Duration TAKEOVER = Duration.ofSeconds(20);
    /** P_Key entries in a P_KeyTable block, the first of which {@link LiveModel#pkeys} reads. */
    private static final int PKEY_BLOCK = 32;
    /** How the standby polls the master in a rehearsal: fast, so a failover takes a fraction of a second. */
    private static final SmStateMachine.Polling POLLING = new SmStateMachine.Polling(Duration.ofMillis(20), 2);

    private final Fabric model;
    private final Settings settings;
    private final List<String> notes = new ArrayList<>();
    /** The partitions.conf text of the P_Keys the fabric holds, when no file was given (for OpenSM's -P). */
    private String knownPartitions;
    /** Copies made so far: each OpenSM endpoint's UDP range its own. */
    private int copies;

    private Rehearsal(Fabric model, Settings settings) {
        this.model = model;
        this.settings = settings;
    }

    /**
     * Rehearses {@code changes} on the fabric {@code load} gives (called twice: one model per copy).
     *
     * @throws IllegalArgumentException (one line) for a node or port no node of the fabric has, before any twin starts
     */
    public static Report run(Supplier<Fabric> load, String name, Settings settings, List<Change> changes) {
        return run(load, name, settings, changes, false);
    }

    /**
     * {@link #run}; {@code byMads}: a change of partitions alone rehearsed on two twins too (as every other change
     * is), which the one-twin answer for it must match.
     */
    static Report run(Supplier<Fabric> load, String name, Settings settings, List<Change> changes, boolean byMads) {
        Fabric before = load.get();
        boolean partitionsOnly = !byMads && settings.opensm() == null && !changes.isEmpty()
                && changes.stream().allMatch(c -> c instanceof Change.Partitions);
        Fabric after = partitionsOnly ? null : load.get();
        Rehearsal r = new Rehearsal(before, settings);
        List<Change> resolved = r.resolve(changes);
        PartitionsConf parts = settings.partitions();
        if (parts == null) {
            parts = KnownPartitions.of(before, "the P_Keys the fabric holds");
            r.knownPartitions = parts == null ? null : KnownPartitions.text(before);
            if (parts != null) {
                r.notes.add("no partitions.conf given: the SM programs the P_Keys the fabric holds");
            }
        }
        if (Lab.heldLfts(before) != null && settings.opensm() == null) {
            r.notes.add("the routes before the change are the forwarding tables the fabric holds (not the SM's "
                    + "own); after it the SM routes by its chain");
        }
        for (Change c : resolved) {
            if (c instanceof Change.MtuCap m) {
                for (Node n : after.nodes()) {
                    for (int i = 1; i <= n.numPorts(); i++) {
                        Port p = n.port(i);
                        if (p != null) {
                            p.setMtuCap(org.ibtwin.model.Mtu.min(p.mtuCap(), m.mtu()));
                        }
                    }
                }
            }
        }
        List<String> what = new ArrayList<>();
        for (Change c : changes) {
            what.add(c.describe());
        }
        if (partitionsOnly) {
            // partitions change neither LIDs nor routes: one twin, and the tables its SM's rules give for the file
            try (Copy x = r.new Copy(before, settings, parts)) {
                x.bringUp();
                Side a = x.learn(Set.of());
                return Compare.run(name, what, a, x.repartitioned(a, resolved), r.notes);
            }
        }
        // both copies stay up until the comparison is done: LFT blocks and P_Key tables are read as it needs them
        try (Copy x = r.new Copy(before, settings, parts); Copy y = r.new Copy(after, settings, parts)) {
            x.bringUp();
            Side a = x.learn(Set.of());
            y.bringUp();
            Set<String> touched = y.apply(resolved);
            Side b = y.learn(touched);
            return Compare.run(name, what, a, b, r.notes);
        }
    }

    /**
     * Every single inter-switch cable failure ({@code switches}: every switch failure) of the fabric as it is,
     * ranked: the twin brought up once by ibtwin's SM and learnt through MADs, then each failure on the SM's graph
     * and routing chain ({@link FailureSweep}), {@code threads} at a time.
     */
    public static FailureSweep.Result eachFailure(Supplier<Fabric> load, String name, Settings settings,
                                                  boolean switches, int threads) {
        return eachFailure(load, name, settings, switches, threads, 0);
    }

    /** {@link #eachFailure}, a sample of {@code limit} failures spread evenly (0: all): for benchmarks of big fabrics. */
    public static FailureSweep.Result eachFailure(Supplier<Fabric> load, String name, Settings settings,
                                                  boolean switches, int threads, int limit) {
        return eachFailure(load, name, settings, switches, threads, limit, false);
    }

    /** {@link #eachFailure}; {@code fullShift}: each scenario's shift bandwidth made in full (a check, for tests). */
    static FailureSweep.Result eachFailure(Supplier<Fabric> load, String name, Settings settings, boolean switches,
                                           int threads, int limit, boolean fullShift) {
        Fabric f = load.get();
        Rehearsal r = new Rehearsal(f, settings);
        PartitionsConf parts = settings.partitions() != null ? settings.partitions()
                : KnownPartitions.of(f, "the P_Keys the fabric holds");
        try (Copy x = r.new Copy(f, settings, parts)) {
            x.bringUp();
            Side a = x.learn(Set.of());
            SubnetManager sm = x.master.sm;
            if (sm.switchGraph() == null || sm.lfts() == null) {
                throw new IllegalArgumentException("the fabric has no switch to fail");
            }
            FailureSweep sweep = new FailureSweep(sm.switchGraph(), sm.lfts(), sm.routedBy(), sm.reroute(),
                    settings.config().routingEngines(),
                    new org.ibtwin.sm.routing.RoutingEngines.Options(settings.config().rootGuids()),
                    new ArrayList<>(a.hosts().values()));
            return (fullShift ? sweep.fullShift() : sweep).run(name, switches, Math.max(1, threads), limit);
        }
    }

    /** Checks every node and port the changes name, and names them as the twin does (topology ids). */
    private List<Change> resolve(List<Change> changes) {
        List<Change> out = new ArrayList<>();
        for (Change c : changes) {
            out.add(switch (c) {
                case Change.PullCable p -> {
                    Port a = NodeRef.port(NodeRef.find(model, p.node()), p.port(), true);
                    if (p.otherNode() != null) {
                        Port b = NodeRef.port(NodeRef.find(model, p.otherNode()), p.otherPort(), true);
                        if (a.remote() != b) {
                            throw new IllegalArgumentException("--pull-cable: " + Names.port(a) + " is cabled to "
                                    + (a.remote() == null ? "nothing" : Names.port(a.remote())) + ", not to "
                                    + Names.port(b));
                        }
                    }
                    yield new Change.PullCable(a.node().name(), a.number(), null, 0);
                }
                case Change.DrainSwitch d -> {
                    Node n = NodeRef.find(model, d.node());
                    if (!n.isSwitch()) {
                        throw new IllegalArgumentException("--drain-switch: " + Names.node(n) + " is not a switch "
                                + "(--drain-node drains any node)");
                    }
                    yield new Change.DrainSwitch(n.name());
                }
                case Change.DrainNode d -> new Change.DrainNode(NodeRef.find(model, d.node()).name());
                case Change.DisablePort d -> new Change.DisablePort(NodeRef.port(NodeRef.find(model, d.node()),
                        d.port(), false).node().name(), d.port());
                case Change.SetLink s -> new Change.SetLink(NodeRef.port(NodeRef.find(model, s.node()), s.port(),
                        true).node().name(), s.port(), s.width(), s.speed());
                case Change.KillSm k -> {
                    if (k.node() == null) {
                        yield k;
                    }
                    Node n = NodeRef.find(model, k.node());
                    if (!n.name().equals(smNode().name()) && (settings.standbyNode() == null
                            || !n.name().equals(NodeRef.find(model, settings.standbyNode()).name()))) {
                        throw new IllegalArgumentException("--kill-sm: no SM runs at " + Names.node(n) + " (the SM is "
                                + "at " + Names.node(smNode()) + (settings.standbyNode() == null ? ""
                                : ", the standby at " + settings.standbyNode()) + ")");
                    }
                    yield new Change.KillSm(n.name());
                }
                default -> c;
            });
        }
        if (settings.standbyNode() != null) {
            Node s = NodeRef.find(model, settings.standbyNode());
            if (s.name().equals(smNode().name())) {
                throw new IllegalArgumentException("--standby: " + Names.node(s) + " is where the master SM runs");
            }
        }
        return out;
    }

    /** The node the master SM runs at: --sm-at, else the first CA. */
    private Node smNode() {
        if (settings.smNode() != null) {
            return NodeRef.find(model, settings.smNode());
        }
        for (Node n : model.nodes()) {
            if (n.type() == NodeType.CA) {
                return n;
            }
        }
        return model.nodes().get(0);
    }

    /** One copy: its twin, its master SM and, when asked, a standby. */
    private final class Copy implements AutoCloseable {
        final Fabric fabric;
        final Lab lab;
        final Twin twin;
        SmConfig config;
        final PartitionsConf partitions;
        Sm master;
        Sm standby;
        final List<String> warnings = new ArrayList<>();
        /** Real OpenSM's runs on this copy (null: ibtwin's SM). */
        final Osm osm;

        Copy(Fabric fabric, Settings s, PartitionsConf partitions) {
            this.fabric = fabric;
            this.lab = Lab.of(fabric).noSm().start();
            this.twin = lab.twin();
            this.config = s.config();
            this.partitions = partitions;
            this.osm = s.opensm() == null ? null : new Osm(s.opensm(), copies++);
        }

        void bringUp() {
            if (osm != null) {
                osm.bringUp();
                return;
            }
            SmConfig m = config.withPriority(Math.max(1, config.priority()));
            master = new Sm(node(smNode().name()).name(), m, "ibtwin0");
            // the fabric as it is: the routes a snapshot saved, not the SM's own (its later sweeps route)
            master.sm.keepLfts(Lab.heldLfts(fabric));
            if (partitions != null) {
                warnings.addAll(master.sm.partitions(partitions, false));
            }
            var r = master.sweep();
            if (r == null || !r.subnetUp()) {
                throw new org.ibtwin.transport.MadTransportException("ibtwin's SM did not bring the fabric up: "
                        + (r == null ? "it went STANDBY" : String.join("; ", r.problems())));
            }
            warnings.clear();
            if (settings.standbyNode() != null) {
                standby = new Sm(NodeRef.find(fabric, settings.standbyNode()).name(), config.withPriority(0),
                        "ibtwin1");
                if (partitions != null) {
                    standby.sm.partitions(partitions, false);
                }
                standby.startMachine();
                standby.await(SmStateMachine.State.STANDBY);
            }
        }

        private Node node(String name) {
            return NodeRef.find(fabric, name);
        }

        /** Applies the changes; returns the nodes they touch (not to learn the fabric from). */
        Set<String> apply(List<Change> changes) {
            Set<String> touched = new HashSet<>();
            if (osm != null) {
                for (Change c : changes) {
                    if (!osm.take(c)) {
                        hardware(c, touched);
                    }
                }
                osm.react();
                return touched;
            }
            SmConfig restart = null;
            String kill = null;
            boolean killAny = false;
            for (Change c : changes) {
                switch (c) {
                    case Change.Partitions p -> {
                        List<String> w = master.sm.partitions(p.conf(), false);
                        warnings.addAll(w);
                        if (standby != null) {
                            standby.sm.partitions(p.conf(), false);
                        }
                    }
                    case Change.PullCable p -> hardware(p, touched);
                    case Change.DrainSwitch d -> hardware(d, touched);
                    case Change.DrainNode d -> hardware(d, touched);
                    case Change.DisablePort d -> hardware(d, touched);
                    case Change.SetLink s -> hardware(s, touched);
                    case Change.Routing r -> restart = (restart == null ? config : restart)
                            .withRouting(r.engines(), config.rootGuids());
                    case Change.Lmc l -> restart = (restart == null ? config : restart).withLmc(l.lmc());
                    case Change.KillSm k -> {
                        killAny = true;
                        kill = k.node();
                    }
                    case Change.MtuCap m -> {
                        // applied to this copy's model before its twin started
                    }
                }
            }
            if (restart != null) {
                // the master restarted with other options: the same port, a new process
                master.kill();
                config = restart;
                master = new Sm(master.node, restart.withPriority(Math.max(1, restart.priority())), "ibtwin0");
            }
            if (killAny) {
                Sm victim = kill == null || kill.equals(master.node) ? master : standby;
                victim.kill();
                if (victim == master) {
                    master = null;
                    if (standby != null) {
                        standby.await(SmStateMachine.State.MASTER);
                        standby.stopMachine();
                        master = standby;
                        standby = null;
                    }
                } else {
                    standby.stopMachine();
                    standby = null;
                }
            }
            if (master != null) {
                if (restart != null) {
                    PartitionsConf p = lastPartitions(changes);
                    if (p != null) {
                        warnings.addAll(master.sm.partitions(p, false));
                    }
                }
                master.sweep();
            }
            return touched;
        }

        /**
         * The after side of a change of partitions alone, from this copy's learnt side {@code a}: the same hosts,
         * LIDs, routes and master; the P_Key tables the master's P_Key manager would program for the last file
         * ({@link SubnetManager#partitionTables}), as a port's first block reads back; what the SM warns of when
         * each file is applied. Ports the manager does not program (switch ports, ports without a LID) keep theirs.
         */
        Side repartitioned(Side a, List<Change> changes) {
            List<String> warned = new ArrayList<>();
            for (Change c : changes) {
                warned.addAll(master.sm.partitionsProblems(((Change.Partitions) c).conf()));
            }
            Map<Long, int[]> planned = master.sm.partitionTables(lastPartitions(changes));
            java.util.function.Function<Port, int[]> was = a.pkeys();
            java.util.function.Function<Port, int[]> now = p -> {
                int[] t = p.node().isSwitch() || planned == null ? null : planned.get(p.guid());
                return t == null ? was.apply(p) : firstBlock(t);
            };
            return new Side(a.hosts(), a.island(), a.routes(), now, a.lids(), a.tables(), a.master(), a.smPortGuid(),
                    a.creditLoop(), List.copyOf(warned), a.allToAll());
        }

        /** A table as a port's P_KeyTable block 0 reads back ({@link LiveModel#pkeys}): 32 entries, zero keys out. */
        private static int[] firstBlock(int[] table) {
            int[] out = new int[Math.min(table.length, PKEY_BLOCK)];
            int n = 0;
            for (int i = 0; i < out.length; i++) {
                if ((table[i] & 0x7fff) != 0) {
                    out[n++] = table[i];
                }
            }
            return java.util.Arrays.copyOf(out, n);
        }

        /** A change at the twin itself (cables, ports, switches): the same whichever SM reacts. */
        private void hardware(Change c, Set<String> touched) {
            switch (c) {
                case Change.PullCable p -> {
                    Port at = node(p.node()).port(p.port());
                    touched.add(p.node());
                    touched.add(at.remote().node().name());
                    twin.unplug(p.node(), p.port());
                }
                case Change.DrainSwitch d -> drain(d.node(), touched);
                case Change.DrainNode d -> drain(d.node(), touched);
                case Change.DisablePort d -> {
                    touched.add(d.node());
                    twin.linkDown(d.node(), d.port(), true);
                }
                case Change.SetLink s -> {
                    Port at = node(s.node()).port(s.port());
                    var cable = at.link().cable();
                    if (s.width() != null) {
                        cable = cable.withMaxWidth(s.width());
                    }
                    if (s.speed() != null) {
                        cable = cable.withMaxSpeed(s.speed());
                    }
                    twin.unplug(s.node(), s.port());
                    twin.replug(s.node(), s.port(), cable);
                }
                default -> {
                    // the SM's part of a change, or the MTU cap (applied to this copy's model before its twin started)
                }
            }
        }

        /**
         * Real OpenSM as this copy's SM: {@code opensm -o} (a heavy sweep, then exit) at the master's node brings the
         * copy up; after the changes it runs again there (its guid2lid kept: a restarted OpenSM), with the new
         * partitions file, engines or LMC. An SM killed does not run again: with a standby, OpenSM runs at the
         * standby's node instead (a fresh process with a cache of its own: a standby taking over), else nothing
         * sweeps.
         */
        final class Osm {
            final OpensmRunner real;
            final int index;
            final Path dir;
            String masterNode;
            String partitionsFile;
            SmConfig cfg = config;
            boolean killed;
            boolean standbyKilled;
            org.ibtwin.sim.IbsimServer server;

            Osm(OpensmRunner real, int index) {
                this.real = real;
                this.index = index;
                try {
                    this.dir = Files.createTempDirectory("ibtwin-what-if-opensm");
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }

            void bringUp() {
                try {
                    server = serve();
                    masterNode = smNode().name();
                    if (partitions != null) {
                        partitionsFile = file(partitions, knownPartitions);
                    }
                    OpensmRunner.Run r = run(masterNode, dir.resolve("master"));
                    if (!r.up()) {
                        throw new org.ibtwin.transport.MadTransportException("OpenSM did not bring the fabric up "
                                + "(at " + Names.node(node(masterNode)) + "): " + r.why() + " (log: "
                                + dir.resolve("master").resolve("opensm.log") + ")");
                    }
                } catch (IOException e) {
                    throw new org.ibtwin.transport.MadTransportException("--sm opensm: " + e.getMessage(), e);
                }
            }

            /** Takes the SM's part of a change; false for a change at the twin. */
            boolean take(Change c) {
                switch (c) {
                    case Change.Partitions p -> partitionsFile = file(p.conf(), null);
                    case Change.Routing r -> cfg = cfg.withRouting(r.engines(), config.rootGuids());
                    case Change.Lmc l -> cfg = cfg.withLmc(l.lmc());
                    case Change.KillSm k -> {
                        if (k.node() == null || k.node().equals(masterNode)) {
                            killed = true;
                        } else {
                            standbyKilled = true;
                        }
                    }
                    default -> {
                        return false;
                    }
                }
                return true;
            }

            void react() {
                try {
                    OpensmRunner.Run r = null;
                    if (!killed) {
                        r = run(masterNode, dir.resolve("master"));
                    } else if (settings.standbyNode() != null && !standbyKilled) {
                        masterNode = NodeRef.find(fabric, settings.standbyNode()).name();
                        r = run(masterNode, dir.resolve("standby"));
                    } else {
                        masterNode = null;
                    }
                    if (r != null && !r.up()) {
                        // what OpenSM does then is the answer: the report says it did not bring the subnet up
                        notes.add("OpenSM's sweep after the change (at " + Names.node(node(masterNode)) + ") did "
                                + "not bring the subnet up: " + r.why());
                    }
                } catch (IOException e) {
                    throw new org.ibtwin.transport.MadTransportException("--sm opensm: " + e.getMessage(), e);
                }
            }

            private OpensmRunner.Run run(String node, Path where) throws IOException {
                List<String> args = new ArrayList<>(List.of("-l", Integer.toString(cfg.lmc())));
                if (partitionsFile != null) {
                    args.addAll(List.of("-P", partitionsFile));
                }
                Files.createDirectories(where);
                return real.once(server, node, where, cfg.routingEngines(), args);
            }

            /**
             * Starts the copy's endpoint: ibsim's local mode under a name of this process's own where the JDK serves
             * it, else UDP on loopback at the copy's range from the runner's base port.
             */
            private org.ibtwin.sim.IbsimServer serve() throws IOException {
                if (org.ibtwin.sim.IbsimServer.socketImplementation().equals("libc")) {
                    return lab.serve("ibtwin-what-if-" + ProcessHandle.current().pid() + "-" + System.nanoTime(), 0,
                            Duration.ZERO);
                }
                return lab.serve(null, real.basePort() + 11 * index, Duration.ZERO);
            }

            /** A partitions.conf OpenSM can read: the file it came from, else {@code text} written out. */
            private String file(PartitionsConf conf, String text) {
                Path p = Path.of(conf.file());
                if (text == null && Files.isRegularFile(p)) {
                    return p.toAbsolutePath().toString();
                }
                try {
                    Path w = dir.resolve("partitions-" + System.nanoTime() + ".conf");
                    Files.writeString(w, text == null ? "" : text, StandardCharsets.UTF_8);
                    return w.toString();
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }

            void close() {
                try (var s = Files.walk(dir)) {
                    s.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
                } catch (IOException e) {
                    // a temporary directory left behind
                }
            }
        }

        private PartitionsConf lastPartitions(List<Change> changes) {
            PartitionsConf p = partitions;
            for (Change c : changes) {
                if (c instanceof Change.Partitions q) {
                    p = q.conf();
                }
            }
            return p;
        }

        private void drain(String node, Set<String> touched) {
            Node n = node(node);
            touched.add(node);
            for (int i = 1; i <= n.numPorts(); i++) {
                Port p = n.port(i);
                if (p != null && p.link() != null) {
                    touched.add(p.remote().node().name());
                    twin.linkDown(node, i, true);
                }
            }
        }

        /** Learns the copy through MADs: from a port the changes left alone, then from inside every part cut off. */
        Side learn(Set<String> touched) {
            List<LiveModel> islands = new ArrayList<>();
            Set<Long> seen = new HashSet<>();
            String from = null;
            for (Node n : fabric.switches()) {
                if (!touched.contains(n.name())) {
                    from = n.name();
                    break;
                }
            }
            if (from == null) {
                from = master != null ? master.node : osm != null && osm.masterNode != null ? osm.masterNode
                        : fabric.nodes().get(0).name();
            }
            List<Port> hosts = new ArrayList<>();
            for (Node n : fabric.cas()) {
                for (int i = 1; i <= n.numPorts(); i++) {
                    Port p = n.port(i);
                    if (p != null && p.link() != null) {
                        hosts.add(p);
                    }
                }
            }
            Map<Node, LiveModel> islandOf = new IdentityHashMap<>();
            Map<Long, Port> learnt = new HashMap<>();
            Map<Long, Integer> islandNo = new HashMap<>();
            String at = from;
            while (at != null) {
                TwinTransport t = lab.attachTool(at);
                LiveModel live;
                try {
                    live = LiveModel.discover(t, NetDiscovery.Config.defaults());
                    live.addFacts(fabric);
                } catch (NetDiscovery.Failed e) {
                    seen.add(node(at).guid());
                    at = nextUnseen(hosts, seen);
                    continue;
                }
                int k = islands.size();
                islands.add(live);
                for (Node n : live.fabric().nodes()) {
                    islandOf.put(n, live);
                    seen.add(n.guid());
                    for (int i = n.isSwitch() ? 0 : 1; i <= n.numPorts(); i++) {
                        Port p = n.port(i);
                        if (p != null && !n.isSwitch() && p.guid() != 0) {
                            learnt.putIfAbsent(p.guid(), p);
                            islandNo.putIfAbsent(p.guid(), k);
                        }
                    }
                }
                at = nextUnseen(hosts, seen);
            }
            if (islands.size() > 1) {
                notes.add(String.format(Locale.ROOT, "the fabric after the change is learnt in %d parts (from %s and "
                        + "from inside each part cut off)", islands.size(), Names.node(node(from))));
            }
            Map<Long, Port> hostMap = new LinkedHashMap<>();
            Map<Long, Integer> island = new HashMap<>();
            for (Port h : hosts) {
                Port p = learnt.get(h.guid());
                if (p != null && p.link() != null) {
                    hostMap.put(h.guid(), p);
                    island.put(h.guid(), islandNo.get(h.guid()));
                }
            }
            LftRoutes.Forwarding fwd = (sw, dst) -> {
                LiveModel a = islandOf.get(sw);
                return a == null || a != islandOf.get(dst.node()) ? -1 : a.forwarding().egressPort(sw, dst);
            };
            LftRoutes routes = new LftRoutes(fwd, true);
            Map<Long, Integer> lids = new HashMap<>();
            Map<Long, Side.Tables> tables = new HashMap<>();
            for (LiveModel live : islands) {
                for (Node n : live.fabric().nodes()) {
                    if (n.isSwitch()) {
                        lids.putIfAbsent(n.port(0).guid(), n.port(0).lid());
                        int top = live.linearFdbTop(n);
                        if (top > 0 && !tables.containsKey(n.guid())) {
                            String nm = Names.node(n);
                            tables.put(n.guid(), new Side.Tables() {
                                @Override
                                public int top() {
                                    return top;
                                }

                                @Override
                                public byte[] block(int b) {
                                    return live.lftBlock(n, b);
                                }

                                @Override
                                public String name() {
                                    return nm;
                                }
                            });
                        }
                    } else {
                        for (int i = 1; i <= n.numPorts(); i++) {
                            Port p = n.port(i);
                            if (p != null && p.guid() != 0 && p.lid() > 0) {
                                lids.putIfAbsent(p.guid(), p.lid());
                            }
                        }
                    }
                }
            }
            String masterName = null;
            long smGuid = 0;
            Boolean loop = null;
            if (master != null) {
                Node n = node(master.node);
                Port p = master.attachment.portNumber() == 0 ? n.port(0) : n.port(master.attachment.portNumber());
                smGuid = master.attachment.portGuid();
                masterName = Names.node(n) + "/" + master.attachment.portNumber() + String.format(Locale.ROOT,
                        " (port GUID 0x%016x)", smGuid);
                if (p == null) {
                    masterName = Names.node(n);
                }
                if (master.sm.switchGraph() != null && master.sm.lfts() != null) {
                    loop = RoutingCheck.check(master.sm.switchGraph(), master.sm.lfts()).creditLoop();
                }
            } else if (osm != null && osm.masterNode != null) {
                // where OpenSM ran; its routes' channel dependencies are not checked (null: not known)
                Node n = node(osm.masterNode);
                Port p = n.isSwitch() ? n.port(0) : n.port(1);
                smGuid = p.guid();
                masterName = Names.node(n) + "/" + p.number() + String.format(Locale.ROOT, " (port GUID 0x%016x)",
                        smGuid);
            }
            Side.AllToAllLoad a2a = allToAll(new ArrayList<>(hostMap.values()), routes);
            return new Side(hostMap, island, routes, p -> {
                LiveModel l = islandOf.get(p.node());
                return l == null ? null : l.pkeys(p);
            }, lids, tables, masterName, smGuid, loop, List.copyOf(warnings), a2a);
        }

        private static String nextUnseen(List<Port> hosts, Set<Long> seen) {
            for (Port h : hosts) {
                if (!seen.contains(h.node().guid())) {
                    return h.node().name();
                }
            }
            return null;
        }

        /** The all-to-all collective on the learnt routes: the lab's traffic engine's model of it. */
        private Side.AllToAllLoad allToAll(List<Port> hosts, LftRoutes routes) {
            if (hosts.size() < 2) {
                return null;
            }
            Spec spec = new Spec(Op.WRITE, Transport.RC, 65536, 1, 128, 16, 0, 4096, false, false);
            TrafficAllToAll c = new TrafficAllToAll(p -> p.state() == PortState.ACTIVE, hosts, PerfParams.DEFAULT,
                    spec, routes);
            c.plan(new HashMap<>(), new ArrayList<>());
            TrafficStatus.Collective s = c.status();
            Map<String, Long> load = new HashMap<>();
            Map<String, String> names = new HashMap<>();
            for (Map.Entry<Port, Long> e : c.linkPairs().entrySet()) {
                Port from = e.getKey();
                load.put(Side.linkKey(from), e.getValue());
                names.put(Side.linkKey(from), Names.port(from) + " -> " + (from.remote() == null ? "?"
                        : Names.port(from.remote())));
            }
            return new Side.AllToAllLoad(s.pairs(), s.unroutedPairs(), s.perPairGbps(), s.aggregateGbps(),
                    s.bottleneck(), load, names);
        }

        @Override
        public void close() {
            if (standby != null) {
                standby.stopMachine();
            }
            lab.close();
            if (osm != null) {
                osm.close();
            }
        }

        /** An SM of ours at a node of this copy's twin. */
        final class Sm {
            final String node;
            final Attachment attachment;
            final TwinTransport transport;
            final SubnetManager sm;
            SmStateMachine machine;
            Thread thread;
            final AtomicBoolean stop = new AtomicBoolean();

            Sm(String node, SmConfig c, String ca) {
                this.node = node;
                this.attachment = twin.attach(node, 0);
                attachment.setIsSm(true);
                this.transport = lab.add(new TwinTransport(attachment, ca));
                this.sm = new SubnetManager(transport, c.withSweepInterval(Duration.ZERO), SmLog.quiet());
            }

            /** A heavy sweep through the state machine, as the master (null: it went STANDBY). */
            org.ibtwin.sm.SweepReport sweep() {
                if (machine == null) {
                    machine = new SmStateMachine(sm, POLLING, SmLog.quiet());
                }
                return machine.once();
            }

            void startMachine() {
                machine = new SmStateMachine(sm, POLLING, SmLog.quiet());
                thread = new Thread(() -> machine.run(stop), "ibtwin-what-if-sm");
                thread.setDaemon(true);
                thread.start();
            }

            /** Waits until the state machine is in {@code s} (and, as MASTER, has swept). */
            void await(SmStateMachine.State s) {
                long end = System.nanoTime() + TAKEOVER.toNanos();
                int sweeps = sm.sweeps();
                while (System.nanoTime() < end) {
                    if (machine.state() == s && (s != SmStateMachine.State.MASTER || sm.sweeps() > sweeps)) {
                        return;
                    }
                    try {
                        Thread.sleep(10);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
                throw new IllegalStateException("the SM at " + node + " did not become " + s + " in "
                        + TAKEOVER.toSeconds() + " s");
            }

            void stopMachine() {
                stop.set(true);
                if (thread != null) {
                    try {
                        thread.join(5000);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }

            /** The SM's process dies: its attachment goes, the port keeps its IsSM bit. */
            void kill() {
                stopMachine();
                sm.detach();
                twin.kill(attachment);
            }
        }
    }
}
