package org.ibtwin.sm;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.ibtwin.format.PartitionsConf;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.model.NodeType;
import org.ibtwin.sm.sa.SaSnapshot;
import org.ibtwin.sm.sa.SubnetAdministrator;
import org.ibtwin.sm.routing.Lfts;
import org.ibtwin.sm.routing.Reroute;
import org.ibtwin.sm.routing.RoutingCheck;
import org.ibtwin.sm.routing.RoutingEngines;
import org.ibtwin.sm.routing.SwitchGraph;
import org.ibtwin.transport.LocalPort;
import org.ibtwin.transport.MadTransport;
import org.ibtwin.transport.SmpPipe;

/**
 * ibtwin's subnet manager, over any {@link MadTransport}: the twin in process, the ibsim protocol (real ibsim or
 * {@code ibtwin sim}), one day umad. It knows the fabric only through the SMPs it sends.
 *
 * <p>A heavy sweep ({@link #sweep}) runs the SM's parts in turn, each a class with one job: {@link Discovery}, the
 * {@link LidManager}, routing ({@link RoutingStage} and the engines), the {@link LftWriter}, the
 * {@link PortActivator}; {@link SmInfoAgent} answers SMInfo queries meanwhile and {@link TrapHandler} represses
 * traps, a trap 128 or 144 asking for a heavy sweep. A light sweep
 * ({@link #needsHeavySweep}) reads every switch's SwitchInfo and asks for a heavy sweep when one reports a port
 * state change. {@link #run} sweeps until stopped.
 *
 * <p>The SA answers on a thread of its own, as OpenSM's SA has its own dispatcher: its queries (a PathRecord table
 * walks every pair of ports) are work for the SM's host, and must not hold up whatever delivered them (on the twin,
 * every SMA and PMA of the fabric waits while a sink runs). Requests beyond {@link #SA_QUEUE} waiting are dropped,
 * counted ({@link #saDropped}); the requester retries on its timeout, as with a busy SA.
 *
 * <p>Not thread-safe: one thread sweeps.
 */
public final class SubnetManager {
    private final MadTransport transport;
    private final SmConfig config;
    private final SmLog log;
    private final SmpPipe pipe;
    private final LidManager lidManager;
    private final RoutingStage routing;
    /** Root GUIDs already warned about: each is one line, once, not once a sweep. */
    private final Set<Long> rootGuidsWarned = new HashSet<>();
    private final LftWriter lftWriter = new LftWriter();
    private final Sl2VlWriter sl2vlWriter = new Sl2VlWriter();
    private final MulticastManager multicast = new MulticastManager();
    private final PortActivator activator;
    private final SmInfoAgent smInfo;
    private final TrapHandler traps;
    private final SubnetAdministrator sa;
    /** How many SA requests (and reports to send) may wait for the SA's thread. */
    public static final int SA_QUEUE = 256;
    /** The SA's thread (gone when idle for a second, back at the next request). */
    private final java.util.concurrent.ThreadPoolExecutor saThread;
    private final java.util.concurrent.atomic.AtomicLong saDropped = new java.util.concurrent.atomic.AtomicLong();
    /** Swapped whole by {@link #partitions} from another thread (a reread); the sweeping thread reads it. */
    private volatile PKeyManager pkeys = new PKeyManager(null);
    /** QoS (-Q), or null: off. */
    private volatile QosConfig qos;

    /** Tables the next heavy sweep keeps instead of routing ({@link #keepLfts}), by switch GUID. */
    private volatile Map<Long, byte[]> heldLfts;
    private Topology topology;
    /** The topology {@link #lids}, {@link #graph} and {@link #lfts} were made over (the last configuring sweep's). */
    private Topology routedTopology;
    private LidAssignment lids;
    private SwitchGraph graph;
    private Lfts lfts;
    /** What the last heavy sweep's routing did. */
    private RoutingEngines.Chain.Result routed;
    private int sweeps;
    private boolean lastSweepUp;
    private final AtomicBoolean sweepRequested = new AtomicBoolean();
    /** Switches (numbers of the last heavy sweep) a light sweep found with a port state change, and when. */
    private final Set<Integer> lightChanged = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private long lightChangedAt;
    /** When the last heavy sweep began: a trap from before it is already seen by its discovery. */
    private long sweepStart;
    /** The fast re-route since the last heavy sweep, for its report. */
    private SweepReport.FastReroute lastFast;
    private final AtomicBoolean multicastRequested = new AtomicBoolean();
    /** Alias GUIDs the SA changed wait to be written into their ports ({@link #programAliasGuids}). */
    private final AtomicBoolean aliasRequested = new AtomicBoolean();
    private long lastProgress;
    private String phase = "";
    private java.util.function.BiConsumer<SubnetManager, SweepReport> afterSweep;

    public SubnetManager(MadTransport transport, SmConfig config, SmLog log) {
        this.transport = Objects.requireNonNull(transport, "transport");
        this.config = Objects.requireNonNull(config, "config");
        this.log = log == null ? SmLog.quiet() : log;
        this.pipe = new SmpPipe(transport, config.maxSmps(), config.timeout(), config.retries());
        this.lidManager = new LidManager(config.guid2lid(), config.lmc(), config.reassignLids());
        this.routing = new RoutingStage(config.routingEngines(), new RoutingEngines.Options(config.rootGuids()));
        this.activator = new PortActivator(config.maxOpVls(), config.subnetTimeout());
        LocalPort lp = transport.localPort();
        this.smInfo = new SmInfoAgent(transport, lp.portGuid(), config.priority());
        this.traps = new TrapHandler(transport, this::requestSweep);
        this.sa = new SubnetAdministrator(transport, smInfo::smInfo);
        sa.multicast().onChange(() -> multicastRequested.set(true));
        sa.onAliasChange(() -> aliasRequested.set(true));
        this.saThread = new java.util.concurrent.ThreadPoolExecutor(1, 1, 1, java.util.concurrent.TimeUnit.SECONDS,
                new java.util.concurrent.ArrayBlockingQueue<>(SA_QUEUE), r -> {
                    Thread t = new Thread(r, "ibtwin-sa");
                    t.setDaemon(true);
                    return t;
                }, (r, e) -> saDropped.incrementAndGet());
        saThread.allowCoreThreadTimeOut(true);
        transport.onUnsolicited(m -> {
            if (SubnetAdministrator.isSa(m.mad())) {
                saThread.execute(() -> sa.accept(m));
            } else if (m.mad().length == org.ibtwin.mad.MadHeaders.MAD_SIZE && TrapHandler.isTrap(m.mad())) {
                traps.accept(m);
                saThread.execute(() -> sa.report(m.mad()));
            } else {
                smInfo.accept(m);
            }
        });
        pipe.onTick(this::progress);
        for (String p : lidManager.load()) {
            this.log.warn(p);
        }
        if (config.guid2lid() != null) {
            this.log.info("guid2lid: " + config.guid2lid() + " (" + lidManager.entries() + " entries)");
        }
    }

    /**
     * The partitions to program from the next sweep on (OpenSM's partitions.conf, -P); null: every port a full
     * member of the Default partition.
     */
    public void partitions(PartitionsConf conf) {
        partitions(conf, false);
    }

    /**
     * The partitions to program from the next sweep on, after {@link #partitionsProblems} (each logged as a
     * warning); with {@code strict}, a file with problems is refused and the partitions stay as they were. Safe from
     * another thread (a reread on SIGHUP or from the console): the next heavy sweep applies it.
     *
     * @return the problems (when {@code strict} and not empty: not applied)
     */
    public List<String> partitions(PartitionsConf conf, boolean strict) {
        List<String> problems = partitionsProblems(conf);
        if (strict && !problems.isEmpty()) {
            return problems;
        }
        problems.forEach(log::warn);
        this.pkeys = new PKeyManager(conf, pkeys);
        return problems;
    }

    /**
     * The P_Key table each CA port would hold once a sweep has programmed {@code conf} on the fabric of the last
     * heavy sweep, by port GUID (null before the first): the P_Key manager's own rules, no MAD sent. Partitions
     * change neither LIDs nor routes, so this is the whole of what such a change does to the tables.
     */
    public Map<Long, int[]> partitionTables(PartitionsConf conf) {
        Topology t = topology;
        LidAssignment l = lids;
        return t == null || l == null ? null : new PKeyManager(conf).plan(t, l);
    }

    /**
     * The next heavy sweep programs these forwarding tables (by switch GUID, each the egress port by LID: the LFTs
     * a snapshot saved) instead of routing, so the fabric comes up with the routes it had; later sweeps route by the
     * chain. When a switch of the subnet has no table there, the chain routes that sweep (the report says why).
     */
    public void keepLfts(Map<Long, byte[]> tables) {
        this.heldLfts = tables == null ? null : Map.copyOf(tables);
    }

    /** The partitions file in force (null: none, every port a full Default member). */
    public PartitionsConf partitionsFile() {
        return pkeys.conf();
    }

    /**
     * What applying {@code conf} would do that must not pass in silence, one line each: the SM's own port left
     * without full membership of the Default partition (no port would reach the SA); ports leaving partitions they
     * are in now (after a sweep: the tables the SA answers from), as a summary.
     */
    public List<String> partitionsProblems(PartitionsConf conf) {
        List<String> out = new ArrayList<>();
        LocalPort lp = transport.localPort();
        org.ibtwin.model.NodeType type = lp.portNumber() == 0 ? org.ibtwin.model.NodeType.SWITCH
                : org.ibtwin.model.NodeType.CA;
        if (conf != null) {
            List<PartitionsConf.Member> lock = conf.lockout(lp.portGuid(), type);
            if (!lock.isEmpty()) {
                PartitionsConf.Member m = lock.get(lock.size() - 1);
                out.add(conf.file() + ":" + m.line() + ": Default partition member " + m.label() + " leaves the SM's "
                        + "own port a limited member of the Default partition (0x7fff): no port can reach the SA "
                        + "(add SELF=full)");
            }
        }
        SaSnapshot s = sa.snapshot();
        if (s == null) {
            return out;
        }
        Topology t = s.topology();
        Map<String, Integer> keys = conf == null ? null : conf.pkeys();
        int left = 0;
        String example = null;
        for (int g : t.endPorts()) {
            int n = t.portNode(g);
            if (t.isSwitch(n)) {
                continue;
            }
            int[] now = s.pkeys(g);
            int[] next = conf == null ? org.ibtwin.model.Partitions.defaultTable()
                    : PartitionsConf.table(conf.memberships(t.portGuid(g), t.nodeType(n), lp.portGuid()), keys);
            for (int k : now) {
                if ((k & org.ibtwin.model.Partitions.DEFAULT) != 0
                        && org.ibtwin.model.Partitions.entry(next, k) == 0) {
                    left++;
                    if (example == null) {
                        example = String.format(Locale.ROOT, "%s leaves 0x%04x", t.portName(g),
                                k & org.ibtwin.model.Partitions.DEFAULT);
                    }
                    break;
                }
            }
        }
        if (left > 0) {
            out.add(String.format(Locale.ROOT, "%s: %,d ports leave partitions they are in now (%s%s)",
                    conf == null ? "no partitions file" : conf.file(), left, example, left > 1 ? ", ..." : ""));
        }
        return out;
    }

    /**
     * The M_Key to manage the ports with (OpenSM's m_key, m_key_protection_level, m_key_lease_period): every SMP
     * carries it from now on, and the next heavy sweep sets it on every end port. Call before sweeping.
     */
    public void mkeys(MKeys k) {
        pipe.mkey(k.key());
        activator.keys(k);
    }

    /**
     * QoS from the next heavy sweep on (OpenSM's -Q with its qos_* options): SL2VL tables, VL arbitration and
     * VLHighLimit per port class ({@link Sl2VlWriter#writeQos}); null: off.
     */
    public void qos(QosConfig q) {
        this.qos = q;
    }

    /** QoS in force, or null: off. */
    public QosConfig qos() {
        return qos;
    }

    /** The SM_Key this SM's SMInfo answers carry (OpenSM's sm_key; the state machine sets it too). */
    public void smKey(long key) {
        smInfo.smKey(key);
    }

    /** The SA at the SM's port. */
    public SubnetAdministrator sa() {
        return sa;
    }

    /** The routing chain, as names ("ftree", "updn", "minhop"). */
    public List<String> routingChain() {
        return routing.chain().names();
    }

    /** One heavy sweep: discover, assign LIDs, route, program LFTs, bring ports up. */
    public SweepReport sweep() {
        return sweep(null);
    }

    /**
     * A heavy sweep that asks {@code proceed} (the {@link SmStateMachine}: are there other SMs, is this one to be
     * master?) once discovery is done; null when it says no, and nothing is configured.
     */
    SweepReport sweep(java.util.function.Predicate<Topology> proceed) {
        long t0 = System.nanoTime();
        long smps0 = pipe.sent();
        long failed0 = pipe.failed();
        List<String> problems = new ArrayList<>();
        SweepReport.FastReroute fast = lastFast;
        lastFast = null;
        lightChanged.clear();   // this sweep's discovery sees what the light sweep saw
        sweepStart = t0;
        sweeps++;
        lastProgress = t0;

        phase = "discovery";
        Discovery.Result d = new Discovery(pipe).run();
        Topology t = d.topology();
        for (String s : d.duplicates()) {
            warn(problems, s);
        }
        if (d.failedSmps() > 0) {
            warn(problems, String.format("discovery: %,d SMPs failed%s", d.failedSmps(),
                    d.failures().isEmpty() ? "" : "; first: " + String.join("; ", d.failures())));
        }
        if ((t.capabilityMask(t.smPort()) & Topology.CAP_IS_SM) == 0) {
            warn(problems, "the SM's port " + t.portName(t.smPort()) + " does not have IsSM in its capability mask "
                    + "(the transport did not register it as an SM)");
        }
        long t1 = System.nanoTime();
        log.info(String.format(Locale.ROOT, "Discovery: %,d nodes (%,d switches, %,d CAs), %,d links, %,d SMPs in %s",
                t.nodeCount(), t.switchCount(), t.caCount(), t.linkCount(), d.smps(), ms(t1 - t0)));
        if (proceed != null) {
            this.topology = t;   // before the decision: a standby's topology is there once it is STANDBY
            if (!proceed.test(t)) {
                phase = "";
                return null;
            }
        }

        phase = "LIDs";
        LidManager.Result lr = lidManager.assign(t);
        for (String s : lr.problems()) {
            warn(problems, s);
        }
        LidAssignment l = lr.lids();
        int smLid = l.lid(t.smPort());
        boolean saved = lidManager.persist();
        long t2 = System.nanoTime();
        int ends = t.endPorts().length;
        log.info(String.format(Locale.ROOT, "LIDs: %,d end ports: %,d kept, %,d restored from guid2lid, %,d assigned"
                        + "%s (LMC %d, top LID %d); SM LID %d%s", ends, l.kept(), l.restored(), l.assigned(),
                l.unassigned() > 0 ? String.format(", %,d without a LID", l.unassigned()) : "", config.lmc(),
                l.maxLid(), smLid, saved ? "; guid2lid saved" : ""));

        phase = "routing";
        checkRootGuids(t, problems);
        SwitchGraph g = RoutingStage.graph(t, l);
        Map<Long, byte[]> held = heldLfts;
        heldLfts = null;
        RoutingEngines.Chain.Result rr = held == null ? routing.route(g) : routing.route(g, held);
        for (String s : rr.declined()) {
            log.info("Routing: " + s + "; trying the next engine");
        }
        long t3 = System.nanoTime();
        log.info(String.format(Locale.ROOT, "Routing: %s (%s): %,d switches, LIDs 1..%d in %s", rr.engine(),
                rr.detail(), g.switches(), g.top(), ms(t3 - t2)));
        if (config.checkRoutes()) {
            RoutingCheck.Report c = RoutingCheck.check(g, rr.lfts(), rr.layers());
            String what = String.format(Locale.ROOT, "Routing check: %,d CA routes, %,d unreached, %s, longest %d "
                    + "switch hops", c.routes(), c.unreached(), c.creditLoop() ? "CREDIT LOOP in the channel "
                    + "dependency graph" : "no credit loop", c.maxHops());
            if (c.ok()) {
                log.info(what);
            } else {
                warn(problems, what + (c.failures().isEmpty() ? "" : "; " + String.join("; ", c.failures())));
            }
        }

        phase = "LFTs";
        LftWriter.Result wr = lftWriter.write(t, rr.lfts(), pipe);
        for (String s : wr.failures()) {
            warn(problems, "LFTs: " + s);
        }
        long t4 = System.nanoTime();
        log.info(String.format(Locale.ROOT, "LFTs: %,d blocks written, %,d unchanged, on %,d switches in %s",
                wr.blocksWritten(), wr.blocksUnchanged(), wr.switches(), ms(t4 - t3)));

        phase = "SL2VL";
        int lanes = rr.layers().count();
        QosConfig q = qos;
        Sl2VlWriter.Result vr = q != null ? new Sl2VlWriter.Result(0, List.of()) : sl2vlWriter.write(t, lanes, pipe);
        for (String s : vr.failures()) {
            warn(problems, "SL2VL: " + s);
        }
        if (lanes > 1 && q == null) {
            log.info(String.format(Locale.ROOT, "SL2VL: SL n on VL n for %d VLs: %,d tables written", lanes,
                    vr.tables()));
        }

        phase = "ports";
        PortActivator.Result ar = activator.activate(t, l, smLid, pipe, lanes, q == null ? null
                : port -> Sl2VlWriter.highLimit(t, q, port));
        for (String s : ar.failures()) {
            warn(problems, "Ports: " + s);
        }
        if (q != null) {
            phase = "QoS";
            Sl2VlWriter.QosResult qr = sl2vlWriter.writeQos(t, q, lanes, ar.portInfo(), pipe);
            for (String s : qr.failures()) {
                warn(problems, "QoS: " + s);
            }
            log.info(String.format(Locale.ROOT, "QoS: %,d SL2VL tables and %,d VLArbitration blocks written, %,d "
                    + "unchanged%s", qr.sl2vlWritten(), qr.vlArbWritten(), qr.unchanged(), lanes > 1
                    ? String.format(Locale.ROOT, "; SL 0..%d on VL 0..%d for %s's lanes", lanes - 1, lanes - 1,
                    rr.engine()) : ""));
        }
        long t5 = System.nanoTime();
        log.info(String.format(Locale.ROOT, "Ports: %,d configured, %,d armed, %,d activated, %,d already active%s, "
                + "in %s", ar.configured(), ar.armed(), ar.activated(), ar.active(), ar.unkept() == 0 ? ""
                : String.format(Locale.ROOT, ", %,d left as they are (they did not keep a value the last Set gave "
                + "them)", ar.unkept()), ms(t5 - t4)));

        phase = "P_Keys";
        PKeyManager.Result pk = pkeys.apply(t, l, ar.portInfo(), pipe);
        pk.warnings().forEach(log::warn);
        for (String s : pk.failures()) {
            warn(problems, "P_Keys: " + s);
        }
        log.info(String.format(Locale.ROOT, "P_Keys: %,d blocks written, %,d unchanged; partition enforcement set on "
                + "%,d switch ports; %,d IPoIB groups", pk.blocksWritten(), pk.blocksUnchanged(), pk.enforced(),
                pk.groups().size()));
        sa.snapshot(new SaSnapshot(t, l, rr.lfts(), rr.layers(), ar.portInfo(), pk.tables(), pk.groups(), smLid));

        phase = "multicast";
        multicastRequested.set(false);
        MulticastManager.Result mr = multicast.write(t, g, sa.multicast().views(), wr.fresh(), pipe);
        for (String s : mr.failures()) {
            warn(problems, "MFTs: " + s);
        }
        long t6 = System.nanoTime();   // the sweep's end: P_Keys and MFTs are part of bringing the subnet up
        log.info(String.format(Locale.ROOT, "MFTs: %,d groups, %,d blocks written, %,d unchanged, on %,d switches "
                + "in %s", mr.groups(), mr.blocksWritten(), mr.blocksUnchanged(), mr.switches(), ms(t6 - t5)));

        this.topology = t;
        phase = "alias GUIDs";
        programAliasGuids();
        this.routedTopology = t;
        this.lids = l;
        this.graph = g;
        this.lfts = rr.lfts();
        this.routed = rr;
        smInfo.state(SmInfoAgent.MASTER);
        smInfo.activity();
        long smps = pipe.sent() - smps0;
        long failed = pipe.failed() - failed0;
        // as OpenSM: a sweep with errors (SMPs lost or refused) does not bring the subnet up; the next one tries again
        boolean up = failed == 0 && wr.failures().isEmpty() && mr.failures().isEmpty();
        lastSweepUp = up;
        List<String> degraded = new ArrayList<>();
        for (Topology.DegradedLink dl : t.degradedLinks()) {
            String a = t.portName(dl.portA());
            String b = t.portName(dl.portB());
            degraded.add((a.compareTo(b) <= 0 ? a + " <-> " + b : b + " <-> " + a) + " " + dl.active() + " (could be "
                    + dl.capable() + ")");
        }
        Duration total = Duration.ofNanos(t6 - t0);
        String fastLine = fast == null ? "" : String.format(Locale.ROOT, "; fast re-route before it: %s from the trap "
                + "to the last LFT block", ms(fast.trapToLastLft().toNanos()));
        if (up) {
            log.info(String.format(Locale.ROOT, "SUBNET UP (sweep %d: %s, %,d SMPs%s)", sweeps, ms(t6 - t0), smps,
                    fastLine));
        } else {
            log.warn(String.format(Locale.ROOT, "SUBNET NOT UP: sweep %d finished in %s with %,d of %,d SMPs failed; "
                    + "the next sweep tries again%s", sweeps, ms(t6 - t0), failed, smps, fastLine));
        }
        phase = "";
        SweepReport report = new SweepReport(t.nodeCount(), t.switchCount(), t.caCount(), t.linkCount(), degraded,
                ends, l.kept(), l.restored(), l.assigned(), l.unassigned(), smLid, rr.engine(), rr.detail(),
                rr.declined(), wr.blocksWritten(), wr.blocksUnchanged(), ar.armed(), ar.activated(), ar.active(), smps,
                failed, Duration.ofNanos(t1 - t0), Duration.ofNanos(t2 - t1), Duration.ofNanos(t3 - t2),
                Duration.ofNanos(t4 - t3), Duration.ofNanos(t5 - t4), total, up, problems, fast);
        if (afterSweep != null) {
            afterSweep.accept(this, report);
        }
        return report;
    }

    /**
     * The fast re-route, before the heavy sweep a failure asks for: around the links found down at the switches that
     * sent a trap 128 or that the light sweep found with a port state change, only the destinations whose routes
     * crossed them, only the LFT blocks that change ({@link FastRerouter}). Null when there was nothing to do (no
     * heavy sweep yet, no signal, no link down). Logged, and reported by the next heavy sweep.
     */
    SweepReport.FastReroute fastReroute() {
        List<long[]> trapped = traps.takeLinkTraps();
        Set<Integer> signalled = new java.util.TreeSet<>(lightChanged);
        long since = signalled.isEmpty() ? Long.MAX_VALUE : lightChangedAt;
        lightChanged.clear();
        Topology t = routedTopology;
        if (t == null || lids == null || graph == null || lfts == null || !lastSweepUp) {
            return null;
        }
        if (!trapped.isEmpty()) {
            Map<Integer, Integer> byLid = new java.util.HashMap<>();
            for (int s = 0; s < t.switchCount(); s++) {
                byLid.put(lids.lid(t.port(t.switchNode(s), 0)), s);
            }
            for (long[] trap : trapped) {
                Integer s = byLid.get((int) trap[0]);
                if (s != null && trap[1] - sweepStart > 0) {
                    signalled.add(s);
                    since = Math.min(since, trap[1]);
                }
            }
        }
        if (signalled.isEmpty()) {
            return null;
        }
        phase = "fast re-route";
        FastRerouter.Outcome o = FastRerouter.run(t, graph, lfts, routedBy(), reroute(), routing, lftWriter, pipe,
                signalled, since);
        phase = "";
        if (o == null) {
            return null;
        }
        FastRerouter.Result r = o.result();
        graph = o.graph();
        lfts = o.lfts();
        log.info(r.line());
        r.failures().forEach(f -> log.warn("Fast re-route: " + f));
        lastFast = new SweepReport.FastReroute(r.lostLinks(), r.engine(), r.partial(), r.why(), r.destinations(),
                r.blocksWritten(), r.switches(), Duration.ofNanos(r.nanos()));
        return lastFast;
    }

    /**
     * Re-programs the MFTs for the groups as they are now (after joins and leaves), over the last heavy sweep's
     * topology: only the blocks that changed. Null before the first heavy sweep.
     */
    MulticastManager.Result programMulticast() {
        multicastRequested.set(false);
        if (topology == null || graph == null) {
            return null;
        }
        long t0 = System.nanoTime();
        MulticastManager.Result r = multicast.write(topology, graph, sa.multicast().views(), java.util.Set.of(),
                pipe);
        r.failures().forEach(f -> log.warn("MFTs: " + f));
        log.info(String.format(Locale.ROOT, "MFTs (groups changed): %,d groups, %,d blocks written, %,d unchanged in "
                + "%s", r.groups(), r.blocksWritten(), r.blocksUnchanged(), ms(System.nanoTime() - t0)));
        smInfo.activity();
        return r;
    }

    /**
     * Writes the GUIDInfo blocks whose alias GUIDs the SA changed (SubnAdmSet/Delete GUIDInfoRecord) into their
     * ports, as OpenSM's SM does after its SA answered: SubnSet(GUIDInfo) by directed route to the port, the block
     * number the modifier, its eight GUIDs (GUID 0 of block 0 the port GUID), each changed block once. A heavy
     * sweep writes what is still waiting and nothing else: a port's table is not read back, so one that lost it
     * (rebooted) keeps none until its aliases change again, as with OpenSM; a port that left the subnet takes its
     * aliases with it. A port that refuses the Set (real ibsim answers 0x08: it has no GUIDInfo Set) is one warning
     * line, and the SA still shows the aliases, as OpenSM's does. Over the last heavy sweep's topology.
     *
     * @return the blocks the ports took
     */
    int programAliasGuids() {
        aliasRequested.set(false);
        Topology t = topology;
        if (t == null) {
            return 0;
        }
        List<SubnetAdministrator.GuidBlock> blocks = sa.takeAliasBlocks();
        if (blocks.isEmpty()) {
            return 0;
        }
        Map<Long, Integer> byGuid = new java.util.HashMap<>();
        for (int g : t.endPorts()) {
            byGuid.put(t.portGuid(g), g);
        }
        int[] written = {0};
        List<String> failures = new ArrayList<>();
        for (SubnetAdministrator.GuidBlock b : blocks) {
            Integer g = byGuid.get(b.portGuid());
            if (g == null) {
                continue;
            }
            byte[] data = new byte[org.ibtwin.transport.Smp.DATA_SIZE];
            for (int i = 0; i < 8; i++) {
                SMP_GUID_INFO.set(data, 0, "GUID" + i, b.guids()[i]);
            }
            String name = t.portName(g);
            pipe.set(PKeyManager.caPath(t, g), AttributeIds.GUID_INFO, b.block(), data, r -> {
                if (r.ok()) {
                    written[0]++;
                } else {
                    failures.add("GUIDInfo block " + b.block() + " on " + name + ": " + r.why());
                }
            });
        }
        pipe.drain();
        failures.forEach(f -> log.warn("Alias GUIDs: " + f));
        log.info(String.format(Locale.ROOT, "Alias GUIDs: %,d GUIDInfo blocks written, %,d refused", written[0],
                failures.size()));
        smInfo.activity();
        return written[0];
    }

    private static final org.ibtwin.mad.Layout SMP_GUID_INFO = org.ibtwin.mad.SmpAttributes.GUID_INFO;

    /** Whether the SA changed alias GUIDs the ports do not hold yet. */
    boolean aliasRequested() {
        return aliasRequested.get();
    }

    /** Whether a join or leave changed a group since the MFTs were last programmed. */
    boolean multicastRequested() {
        return multicastRequested.get();
    }

    /**
     * A light sweep: SwitchInfo of every switch of the last heavy sweep. True when one reports a port state change
     * or does not answer (the subnet changed, a heavy sweep is due); also true before the first heavy sweep and
     * after one that did not bring the subnet up.
     */
    public boolean needsHeavySweep() {
        Topology t = topology;
        if (t == null || !lastSweepUp) {
            return true;
        }
        AtomicBoolean changed = new AtomicBoolean();
        for (int s = 0; s < t.switchCount(); s++) {
            final int sw = s;
            pipe.get(t.path(t.switchNode(s)), AttributeIds.SWITCH_INFO, 0, r -> {
                if (!r.ok() || Topology.SI_STATE_CHANGE.get(r.data(), 0) != 0) {
                    changed.set(true);
                }
                if (r.ok() && Topology.SI_STATE_CHANGE.get(r.data(), 0) != 0) {
                    lightChanged.add(sw);
                }
            });
        }
        if (!lightChanged.isEmpty()) {
            lightChangedAt = System.nanoTime();
        }
        if (t.switchCount() == 0) {
            pipe.get(new byte[0], AttributeIds.PORT_INFO, t.portNumber(t.smPort()), r -> {
                if (!r.ok() || Topology.PI_STATE.get(r.data(), 0) != Topology.ACTIVE) {
                    changed.set(true);
                }
            });
        }
        pipe.drain();
        smInfo.activity();
        return changed.get();
    }

    /**
     * Sweeps until {@code stop} is set: a heavy sweep, then every sweep interval a light one, and a heavy one when
     * the light one finds a change or {@link #requestSweep} asked for one. With a zero interval, one heavy sweep
     * and then only the heavy sweeps asked for. A sweep that fails (the SM's port stops answering) is logged and the
     * next one tried.
     */
    public void run(AtomicBoolean stop) {
        new SmStateMachine(this, SmStateMachine.Polling.defaults(), log).run(stop);
    }

    /** Runs after every heavy sweep that configured the subnet (the dumps: {@link SmDumps#writer}). */
    public void onSweep(java.util.function.BiConsumer<SubnetManager, SweepReport> hook) {
        this.afterSweep = hook;
    }

    /** Asks {@link #run} for a heavy sweep as soon as it can (from any thread). */
    public void requestSweep() {
        sweepRequested.set(true);
    }

    /** Whether a heavy sweep was asked for since the last call (which clears the request). */
    boolean takeSweepRequest() {
        return sweepRequested.getAndSet(false);
    }

    boolean sweepRequested() {
        return sweepRequested.get();
    }

    SmConfig config() {
        return config;
    }

    SmpPipe pipe() {
        return pipe;
    }

    MadTransport transport() {
        return transport;
    }

    SmInfoAgent smInfoAgent() {
        return smInfo;
    }

    /** The SM's log. */
    SmLog log() {
        return log;
    }

    /** Discovery alone: the subnet as the SM's port sees it, nothing set. */
    public Topology discover() {
        return new Discovery(pipe).run().topology();
    }

    /** The topology of the last heavy sweep (null before the first). */
    public Topology topology() {
        return topology;
    }

    public LidAssignment lids() {
        return lids;
    }

    public SwitchGraph switchGraph() {
        return graph;
    }

    public Lfts lfts() {
        return lfts;
    }

    /** The engine that made {@link #lfts} (null before the first heavy sweep). */
    public String routedBy() {
        return routed == null ? null : routed.engine();
    }

    /** How {@link #lfts} may be re-routed in part after a failure (null before the first heavy sweep). */
    public Reroute reroute() {
        return routed == null ? null : routed.reroute();
    }

    /** SMPs sent since the SM started. */
    public long smpsSent() {
        return pipe.sent();
    }

    /** SubnSets of {@code attributeId} sent since the SM started (LinearForwardingTable: 0x19). */
    public long setsSent(int attributeId) {
        return pipe.sets(attributeId);
    }

    /** Heavy sweeps so far. */
    public int sweeps() {
        return sweeps;
    }

    /** Traps received (and repressed). */
    public long trapsReceived() {
        return traps.traps();
    }

    /** SMInfo queries answered. */
    public long smInfoAnswered() {
        return smInfo.answered();
    }

    /** Forgets the LFTs written, so the next sweep writes every block again. */
    public void forgetLfts() {
        lftWriter.forget();
        multicast.forget();
        pkeys.forget();
        sl2vlWriter.forget();
    }

    /** Stops answering SMInfo and the SA (the transport is the caller's to close). */
    public void detach() {
        smInfo.state(SmInfoAgent.NOT_ACTIVE);
        transport.onUnsolicited(null);
        saThread.shutdown();
    }

    /** SA requests dropped because {@link #SA_QUEUE} were waiting already. */
    public long saDropped() {
        return saDropped.get();
    }

    /** A root GUID naming a CA or no node at all is left out by the engines: say so, one line each. */
    private void checkRootGuids(Topology t, List<String> problems) {
        for (long guid : config.rootGuids()) {
            if (rootGuidsWarned.contains(guid)) {
                continue;
            }
            int n = t.nodeByGuid(guid);
            if (n < 0) {
                for (int i = 0; i < t.nodeCount() && n < 0; i++) {
                    for (int p = 1; p <= t.numPorts(i); p++) {
                        if (t.portGuid(t.port(i, p)) == guid) {
                            n = i;
                            break;
                        }
                    }
                }
            }
            if (n >= 0 && t.isSwitch(n)) {
                continue;
            }
            rootGuidsWarned.add(guid);
            warn(problems, String.format(Locale.ROOT, "root GUID 0x%016x %s: ignored", guid, n < 0
                    ? "is no node of this fabric" : "is " + t.shortName(n) + ", a "
                    + (t.nodeType(n) == NodeType.ROUTER ? "router" : "CA") + ", not a switch"));
        }
    }

    private void warn(List<String> problems, String line) {
        problems.add(line);
        log.warn(line);
    }

    private void progress() {
        long now = System.nanoTime();
        if (now - lastProgress >= 1_000_000_000L) {
            lastProgress = now;
            log.progress(String.format(Locale.ROOT, "sweep %d: %s, %,d SMPs sent", sweeps, phase, pipe.sent()));
        }
    }

    static String ms(long nanos) {
        return String.format(Locale.ROOT, "%.1f ms", nanos / 1e6);
    }
}
