package org.ibtwin.sm;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.MadHeaders;
import org.ibtwin.mad.MadStatus;
import org.ibtwin.mad.Methods;
import org.ibtwin.mad.MgmtClasses;
import org.ibtwin.mad.SmpAttributes;
import org.ibtwin.transport.MadAddress;
import org.ibtwin.transport.MadTransport;
import org.ibtwin.transport.SmpPipe;

/**
 * The SM's state (IBA 14.4): DISCOVERING, STANDBY, MASTER, NOTACTIVE, and what moves it from one to another. It
 * drives the {@link SubnetManager}'s sweeps and decides, after each discovery, whether this SM is to configure the
 * subnet.
 *
 * <ul>
 * <li>It starts DISCOVERING: discovery, then SubnGet(SMInfo) to every other port whose CapabilityMask has IsSM. A
 * MASTER found, or a DISCOVERING/STANDBY SM higher than this one (higher priority, then the lower GUID): STANDBY,
 * polling that SM. Otherwise MASTER, and the sweep goes on to configure the subnet.</li>
 * <li>STANDBY polls the master's SMInfo every polling interval (OpenSM's {@code sminfo_polling_timeout}); after
 * {@code polling_retry_number} polls in a row unanswered (or answered by an SM that is no longer master) it goes
 * DISCOVERING, and, finding no other master, becomes MASTER. The LIDs the ports have are kept (the
 * {@link LidManager} keeps valid existing LIDs), so a takeover changes none.</li>
 * <li>A MASTER that finds, after a heavy sweep's discovery, a STANDBY (or another MASTER) higher than itself hands
 * over (a DISCOVERING one is left to find this master and go STANDBY first): SubnSet(SMInfo)
 * with attribute modifier HANDOVER, then STANDBY, polling the new master. The SM that receives HANDOVER answers,
 * becomes MASTER, sends SubnSet(SMInfo) ACKNOWLEDGE back and sweeps.</li>
 * <li>SubnSet(SMInfo) from a master: DISABLE takes a STANDBY to NOTACTIVE, STANDBY takes a NOTACTIVE SM back to
 * STANDBY (polling the sender), DISCOVER takes a STANDBY or MASTER to DISCOVERING. A Set that is not legal in the
 * current state (or whose sender is not in the state the modifier needs: MASTER, or STANDBY for ACKNOWLEDGE) is
 * answered with status "invalid field" and changes nothing.</li>
 * </ul>
 *
 * <p>Every state change is a log line, {@code Entering MASTER state (from DISCOVERING): why}. The sweeping thread
 * runs {@link #run}/{@link #once}; SMInfo Sets arrive on the transport's thread and only change the state and queue
 * work for the sweeping thread.
 */
public final class SmStateMachine {

    /** An SM's state, as SMInfo SmState encodes it (the code is the ordinal). */
    public enum State {
        NOTACTIVE, DISCOVERING, STANDBY, MASTER;

        static State of(int code) {
            return code >= 0 && code < 4 ? values()[code] : NOTACTIVE;
        }
    }

    /**
     * How a standby polls the master.
     *
     * @param interval time between SMInfo polls (OpenSM's sminfo_polling_timeout, 10 s)
     * @param retries  polls in a row that may go unanswered before the standby takes over (OpenSM's
     *                 polling_retry_number, 4)
     */
    public record Polling(Duration interval, int retries) {
        public Polling {
            Objects.requireNonNull(interval, "interval");
            if (interval.isNegative() || interval.isZero()) {
                throw new IllegalArgumentException("the SMInfo polling interval must be positive");
            }
            if (retries < 1) {
                throw new IllegalArgumentException("the polling retry number must be at least 1, not " + retries);
            }
        }

        /** OpenSM's defaults. */
        public static Polling defaults() {
            return new Polling(Duration.ofSeconds(10), 4);
        }
    }

    /** Another SM, as its SMInfo answered; {@code path} is the directed route to its node. */
    public record RemoteSm(long guid, int priority, State state, long actCount, String port, byte[] path) {
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "SM 0x%016x (priority %d, %s) at %s", guid, priority, state, port);
        }
    }

    /** SMInfo Set attribute modifiers (IBA 14.2.5.13). */
    static final int HANDOVER = 1;
    static final int ACKNOWLEDGE = 2;
    static final int DISABLE = 3;
    static final int STANDBY = 4;
    static final int DISCOVER = 5;

    private static final long STEP_NANOS = 20_000_000L;

    private final SubnetManager sm;
    private final SmInfoAgent agent;
    private final SmLog log;
    private final Polling polling;
    private final long guid;
    private final int priority;
    private final long smKey;
    private final ConcurrentLinkedQueue<Runnable> actions = new ConcurrentLinkedQueue<>();
    private final AtomicReference<List<String>> changes = new AtomicReference<>(List.of());

    // guarded by this
    private State state = State.DISCOVERING;
    private RemoteSm master;
    private RemoteSm handingOverTo;
    private long masterGuidFromSet;
    private int misses;
    private List<RemoteSm> others = List.of();

    /** OpenSM's default SM_Key (its {@code sm_key}): SMs with another key ignore each other. */
    public static final long DEFAULT_SM_KEY = 1;

    /** With OpenSM's default SM_Key. */
    public SmStateMachine(SubnetManager sm, Polling polling, SmLog log) {
        this(sm, polling, DEFAULT_SM_KEY, log);
    }

    /**
     * @param smKey this SM's SM_Key: its SMInfo answers carry it, and another SM whose SMInfo carries a different one
     *              is ignored, as OpenSM ignores it (unless the key is 0)
     */
    public SmStateMachine(SubnetManager sm, Polling polling, long smKey, SmLog log) {
        this.sm = Objects.requireNonNull(sm, "sm");
        this.agent = sm.smInfoAgent();
        this.log = log == null ? SmLog.quiet() : log;
        this.polling = Objects.requireNonNull(polling, "polling");
        this.guid = agent.guid();
        this.priority = agent.priority();
        this.smKey = smKey;
        agent.smKey(smKey);
        agent.state(State.DISCOVERING.ordinal());
        agent.onSet(this::onSet);
    }

    public synchronized State state() {
        return state;
    }

    /** The SM a standby polls (null when not standby). */
    public synchronized RemoteSm master() {
        return state == State.STANDBY ? master : null;
    }

    /** The other SMs the last discovery found, as their SMInfo answered. */
    public synchronized List<RemoteSm> others() {
        return others;
    }

    /** Every state change so far, as logged. */
    public List<String> changes() {
        return changes.get();
    }

    /**
     * One discovery and the decision: as MASTER the subnet is configured and the sweep's report returned; null
     * when this SM went STANDBY (another SM masters the subnet).
     */
    public SweepReport once() {
        log.info("Entering DISCOVERING state");
        return sm.sweep(this::decide);
    }

    /** Runs the SM until {@code stop} is set: discovering, then sweeping as master or polling as standby. */
    public void run(AtomicBoolean stop) {
        log.info("Entering DISCOVERING state");
        while (!stop.get()) {
            runActions();
            State s = state();
            try {
                switch (s) {
                    case DISCOVERING -> discovering(stop);
                    case MASTER -> masterStep(stop);
                    case STANDBY -> standbyStep(stop);
                    case NOTACTIVE -> waitUntil(Long.MAX_VALUE, stop, s, false);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                log.warn("SM (" + s + "): " + e.getMessage());
                try {
                    waitUntil(System.nanoTime() + polling.interval().toNanos(), stop, null, false);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // the sweeping thread

    private void discovering(AtomicBoolean stop) throws InterruptedException {
        SweepReport r = sm.sweep(this::decide);
        if (r != null && !r.subnetUp() && state() == State.MASTER) {
            // a master whose first sweep failed tries again at once, as OpenSM does
            sm.requestSweep();
        }
        if (r == null && state() == State.DISCOVERING) {
            waitUntil(System.nanoTime() + polling.interval().toNanos(), stop, State.DISCOVERING, false);
        }
    }

    /** After a sweep's discovery: find the other SMs and decide whether this one configures the subnet. */
    private boolean decide(Topology t) {
        List<RemoteSm> found = probe(t, true);
        synchronized (this) {
            others = found;
        }
        State s = state();
        if (s == State.DISCOVERING) {
            for (RemoteSm o : found) {
                if (o.state() == State.MASTER) {
                    toStandby(o, State.DISCOVERING, "found master " + o);
                    notifyMaster(t, o);
                    return false;
                }
            }
            RemoteSm h = highest(found, State.DISCOVERING, State.STANDBY);
            if (h != null) {
                toStandby(h, State.DISCOVERING, "found higher " + h);
                notifyMaster(t, h);
                return false;
            }
            return transition(State.DISCOVERING, State.MASTER, found.isEmpty() ? "no other SM found"
                    : "no master and no higher SM among " + found.size() + " found");
        }
        if (s == State.MASTER) {
            // not to a DISCOVERING SM: it decides by itself, finds this master and goes STANDBY; then the handover
            RemoteSm h = highest(found, State.STANDBY, State.MASTER);
            if (h != null) {
                return !handover(h);
            }
            for (RemoteSm o : found) {
                if (o.state() == State.MASTER) {
                    log.warn("another master: " + o + ", lower than this SM; it is to hand over to us");
                }
            }
            return true;
        }
        return false;
    }

    /**
     * A new standby tells the master it is there, as OpenSM's does: trap 144 (local changes) from this SM's port to
     * the master's LID, so that the master sweeps, finds this SM and, were it higher, hands over. (The IsSM bit,
     * whose change the port's SMA reports by itself, may have been set before this SM could answer SMInfo.) Sent
     * once; nothing when either port has no LID yet.
     */
    private void notifyMaster(Topology t, RemoteSm m) {
        int ours = t.lid(t.smPort());
        int theirs = 0;
        for (int g = 0; g < t.portSlots(); g++) {
            if (t.portGuid(g) == m.guid() && t.hasPortInfo(g)) {
                int n = t.portNode(g);
                theirs = t.lid(t.isSwitch(n) ? t.port(n, 0) : g);
                break;
            }
        }
        if (ours == 0 || theirs == 0) {
            return;
        }
        MadTransport tr = sm.transport();
        byte[] mad = new byte[MadHeaders.MAD_SIZE];
        Layout h = MadHeaders.SMP_LID;
        h.set(mad, 0, "MadBaseVersion", 1);
        h.set(mad, 0, "MadMgmtClass", MgmtClasses.SUBN_LID);
        h.set(mad, 0, "MadClassVersion", 1);
        h.set(mad, 0, "MadMethod", Methods.TRAP);
        h.set(mad, 0, "MadTRID", tr.nextTid() & 0xffffffffL);
        h.set(mad, 0, "MadAttr", AttributeIds.NOTICE);
        Layout n = SmpAttributes.NOTICE_TRAP_144;
        int d = MadHeaders.SMP_DATA_OFFSET;
        n.set(mad, d, "NoticeIsGeneric", 1);
        n.set(mad, d, "NoticeType", 4);   // informational
        n.set(mad, d, "NoticeProducerType", t.nodeType(t.smNode()).code());
        n.set(mad, d, "NoticeTrapNumber", 144);
        n.set(mad, d, "NoticeIssuerLID", ours);
        n.set(mad, d, "NoticeDataTrap144LID", ours);
        n.set(mad, d, "NoticeDataTrap144CapMask", t.capabilityMask(t.smPort()));
        try {
            tr.send(mad, MadAddress.smp(theirs));
            log.info("Trap 144 sent to the master at LID " + theirs);
        } catch (RuntimeException e) {
            log.warn("trap 144 to the master at LID " + theirs + ": " + e.getMessage());
        }
    }

    /** SubnGet(SMInfo) to every other port with IsSM: those that answer. */
    private List<RemoteSm> probe(Topology t, boolean verbose) {
        List<RemoteSm> found = new ArrayList<>();
        SmpPipe pipe = sm.pipe();
        for (int g = 0; g < t.portSlots(); g++) {
            if (g == t.smPort() || !t.hasPortInfo(g) || (t.capabilityMask(g) & Topology.CAP_IS_SM) == 0) {
                continue;
            }
            int n = t.portNode(g);
            if (t.isSwitch(n) && t.portNumber(g) != 0) {
                continue;
            }
            String where = t.portName(g);
            byte[] path = t.path(n);
            pipe.probe(path, AttributeIds.SM_INFO, 0, r -> {
                if (!r.ok()) {
                    if (verbose) {
                        log.info("SM port " + where + " (IsSM) did not answer SMInfo: " + r.why());
                    }
                    return;
                }
                SmInfoAgent.Info i = SmInfoAgent.Info.of(r.data());
                if (smKey != 0 && i.smKey() != smKey && i.guid() != guid) {
                    if (verbose) {
                        log.warn(String.format(Locale.ROOT, "SM 0x%016x at %s has SM_Key 0x%016x, not ours: ignored",
                                i.guid(), where, i.smKey()));
                    }
                    return;
                }
                if (i.guid() != guid) {
                    found.add(new RemoteSm(i.guid(), i.priority(), State.of(i.state()), i.actCount(), where, path));
                }
            });
        }
        pipe.drain();
        found.sort(Comparator.comparing(RemoteSm::port));
        if (verbose) {
            for (RemoteSm o : found) {
                log.info("Found " + o);
            }
        }
        return found;
    }

    /** The highest SM in one of {@code states} that is higher than this one, or null. */
    private RemoteSm highest(List<RemoteSm> found, State... states) {
        RemoteSm best = null;
        for (RemoteSm o : found) {
            if (List.of(states).contains(o.state()) && higher(o.priority(), o.guid(), priority, guid)
                    && (best == null || higher(o.priority(), o.guid(), best.priority(), best.guid()))) {
                best = o;
            }
        }
        return best;
    }

    /** IBA 14.4.1.1: a higher priority wins; between equal priorities, the lower GUID. */
    static boolean higher(int priorityA, long guidA, int priorityB, long guidB) {
        if (priorityA != priorityB) {
            return priorityA > priorityB;
        }
        return Long.compareUnsigned(guidA, guidB) < 0;
    }

    /** SubnSet(SMInfo) HANDOVER to {@code to}; true when it answered (this SM is then STANDBY). */
    private boolean handover(RemoteSm to) {
        log.info("Handing over to higher " + to);
        synchronized (this) {
            handingOverTo = to;
        }
        SmpPipe.Reply r = call(to.path(), HANDOVER, agent.smInfo(State.MASTER.ordinal()), true);
        if (!r.ok()) {
            synchronized (this) {
                handingOverTo = null;
            }
            log.warn("HANDOVER to " + to + " failed: " + r.why() + "; staying MASTER");
            return false;
        }
        toStandby(to, State.MASTER, "handed over to " + to);
        return true;
    }

    private void masterStep(AtomicBoolean stop) throws InterruptedException {
        Duration every = sm.config().sweepInterval();
        long deadline = every.isZero() ? Long.MAX_VALUE : System.nanoTime() + every.toNanos();
        if (!waitUntil(deadline, stop, State.MASTER, true)) {
            return;
        }
        if (sm.aliasRequested() && !sm.sweepRequested()) {
            sm.programAliasGuids();
        } else if (sm.multicastRequested() && !sm.sweepRequested()) {
            sm.programMulticast();
        } else if (sm.takeSweepRequest()) {
            log.info("Heavy sweep requested");
            fastReroute();
            heavySweep();
        } else if (sm.needsHeavySweep()) {
            log.info("Light sweep: the subnet changed; heavy sweep");
            fastReroute();
            heavySweep();
        } else if (otherSmToHandle()) {
            heavySweep();
        }
    }

    /**
     * A light sweep's SMInfo queries to the other SMs' ports (as OpenSM's light sweep polls the SMs it knows): a
     * higher SM, or another master, asks for a heavy sweep, after which this one hands over (or waits).
     */
    private boolean otherSmToHandle() {
        Topology t = sm.topology();
        if (t == null) {
            return false;
        }
        List<RemoteSm> found = probe(t, false);
        RemoteSm h = highest(found, State.STANDBY, State.MASTER);
        if (h != null) {
            log.info("Light sweep: found higher " + h + "; heavy sweep");
            return true;
        }
        for (RemoteSm o : found) {
            if (o.state() == State.MASTER) {
                log.info("Light sweep: found another master " + o + "; heavy sweep");
                return true;
            }
        }
        return false;
    }

    /** Routes around lost links at once (only what they touch), before the heavy sweep settles it. */
    private void fastReroute() {
        try {
            sm.fastReroute();
        } catch (RuntimeException e) {
            log.warn("fast re-route failed: " + e.getMessage());
        }
    }

    private void heavySweep() {
        try {
            sm.sweep(this::decide);
        } catch (RuntimeException e) {
            log.warn("sweep " + sm.sweeps() + " failed: " + e.getMessage());
        }
    }

    private void standbyStep(AtomicBoolean stop) throws InterruptedException {
        if (!waitUntil(System.nanoTime() + polling.interval().toNanos(), stop, State.STANDBY, false)) {
            return;
        }
        RemoteSm m;
        synchronized (this) {
            m = master;
        }
        if (m == null || m.path() == null) {
            m = locate(m == null ? masterGuidFromSet() : m.guid());
            if (m == null) {
                return;
            }
        }
        SmpPipe.Reply r = call(m.path(), 0, null, false);
        String miss;
        if (!r.ok()) {
            miss = "no answer (" + r.why() + ")";
        } else {
            SmInfoAgent.Info i = SmInfoAgent.Info.of(r.data());
            State st = State.of(i.state());
            if (i.guid() != m.guid()) {
                miss = String.format(Locale.ROOT, "answered by SM 0x%016x instead", i.guid());
            } else if (st == State.MASTER || (st == State.STANDBY || st == State.DISCOVERING)
                    && higher(i.priority(), i.guid(), priority, guid)) {
                synchronized (this) {
                    misses = 0;
                    if (state == State.STANDBY && master != null && master.guid() == m.guid()) {
                        master = new RemoteSm(m.guid(), i.priority(), st, i.actCount(), m.port(), m.path());
                    }
                }
                return;
            } else {
                miss = "it is " + st;
            }
        }
        int k;
        synchronized (this) {
            if (state != State.STANDBY) {
                return;
            }
            k = ++misses;
        }
        log.info(String.format(Locale.ROOT, "SMInfo poll of %s: %s (%d of %d)", m, miss, k, polling.retries()));
        if (k >= polling.retries()) {
            transition(State.STANDBY, State.DISCOVERING, m + " missed " + k + " polls in a row");
        }
    }

    private synchronized long masterGuidFromSet() {
        return masterGuidFromSet;
    }

    /** The SM with port GUID {@code g} in the last discovery (or a new one), for a standby to poll. */
    private RemoteSm locate(long g) {
        Topology t = sm.topology();
        RemoteSm m = find(t, g);
        if (m == null) {
            m = find(sm.discover(), g);
        }
        if (m == null) {
            log.warn(String.format(Locale.ROOT, "the master SM 0x%016x is not in the subnet; DISCOVERING", g));
            transition(State.STANDBY, State.DISCOVERING, "master not found");
            return null;
        }
        synchronized (this) {
            if (state == State.STANDBY) {
                master = m;
            }
        }
        return m;
    }

    private static RemoteSm find(Topology t, long g) {
        if (t == null) {
            return null;
        }
        for (int p = 0; p < t.portSlots(); p++) {
            if (t.portGuid(p) == g && t.hasPortInfo(p)) {
                return new RemoteSm(g, 0, State.MASTER, 0, t.portName(p), t.path(t.portNode(p)));
            }
        }
        return null;
    }

    /** SubnGet(SMInfo), or SubnSet with {@code modifier} and {@code data}, along {@code path}, and wait. */
    private SmpPipe.Reply call(byte[] path, int modifier, byte[] data, boolean set) {
        SmpPipe pipe = sm.pipe();
        AtomicReference<SmpPipe.Reply> out = new AtomicReference<>();
        if (set) {
            pipe.set(path, AttributeIds.SM_INFO, modifier, data, out::set);
        } else {
            pipe.probe(path, AttributeIds.SM_INFO, modifier, out::set);
        }
        pipe.drain();
        return out.get();
    }

    private void runActions() {
        Runnable a;
        while ((a = actions.poll()) != null) {
            try {
                a.run();
            } catch (RuntimeException e) {
                log.warn("SM: " + e.getMessage());
            }
        }
    }

    /**
     * Sleeps until {@code deadline}; false (at once) when stopped, when work was queued, when the state is no
     * longer {@code in} (null: any), or, with {@code sweepRequests}, when a heavy sweep was asked for.
     */
    private boolean waitUntil(long deadline, AtomicBoolean stop, State in, boolean sweepRequests)
            throws InterruptedException {
        while (true) {
            if (stop.get() || !actions.isEmpty() || (in != null && state() != in)) {
                return false;
            }
            if (sweepRequests && (sm.sweepRequested() || sm.multicastRequested() || sm.aliasRequested())) {
                return true;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return true;
            }
            Thread.sleep(Math.max(1, Math.min(left, STEP_NANOS) / 1_000_000L));
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // state changes (any thread)

    private void toStandby(RemoteSm m, State from, String why) {
        synchronized (this) {
            master = m;
            misses = 0;
            handingOverTo = null;
        }
        transition(from, State.STANDBY, why);
    }

    /** {@code from} → {@code to} if the state is still {@code from} (null: any); true when it changed. */
    private boolean transition(State from, State to, String why) {
        String line;
        State was;
        synchronized (this) {
            if (from != null && state != from) {
                return false;
            }
            was = state;
            line = "Entering " + to + " state (from " + state + "): " + why;
            state = to;
            agent.state(to.ordinal());
            if (to != State.STANDBY) {
                misses = 0;
            }
            List<String> c = new ArrayList<>(changes.get());
            c.add(line);
            changes.set(List.copyOf(c));
        }
        log.info(line);
        log.stateChange(was.name(), to.name(), why);
        return true;
    }

    /** A SubnSet(SMInfo) arrived (on the transport's thread): the answer's status. */
    private int onSet(int modifier, byte[] data) {
        SmInfoAgent.Info sender = SmInfoAgent.Info.of(data);
        State senderState = State.of(sender.state());
        String from = String.format(Locale.ROOT, "SM 0x%016x (priority %d, %s)", sender.guid(), sender.priority(),
                senderState);
        String what = switch (modifier) {
            case HANDOVER -> "HANDOVER";
            case ACKNOWLEDGE -> "ACKNOWLEDGE";
            case DISABLE -> "DISABLE";
            case STANDBY -> "STANDBY";
            case DISCOVER -> "DISCOVER";
            default -> "modifier " + modifier;
        };
        State needed = modifier == ACKNOWLEDGE ? State.STANDBY : State.MASTER;
        if (modifier < HANDOVER || modifier > DISCOVER || senderState != needed) {
            log.warn("SMInfo " + what + " from " + from + " refused: " + (modifier < HANDOVER || modifier > DISCOVER
                    ? "not an SMInfo Set modifier" : "the sender must be " + needed));
            return MadStatus.INVALID_FIELD;
        }
        State s = state();
        boolean legal = switch (modifier) {
            case HANDOVER -> {
                if (s == State.STANDBY) {
                    byte[] ack = agent.smInfo(State.STANDBY.ordinal());
                    transition(State.STANDBY, State.MASTER, "HANDOVER from " + from);
                    actions.add(() -> acknowledge(sender.guid(), ack));
                    sm.requestSweep();
                    yield true;
                }
                if (s == State.DISCOVERING || s == State.MASTER) {
                    sm.requestSweep();
                    yield true;
                }
                yield false;
            }
            case ACKNOWLEDGE -> {
                if (s == State.STANDBY) {
                    log.info("HANDOVER acknowledged by " + from);
                    yield true;
                }
                RemoteSm h;
                synchronized (this) {
                    h = handingOverTo;
                }
                if (s == State.MASTER && h != null && h.guid() == sender.guid()) {
                    log.info("HANDOVER acknowledged by " + from);
                    toStandby(h, State.MASTER, "handed over to " + h);
                    yield true;
                }
                yield false;
            }
            case DISABLE -> s == State.STANDBY && transition(State.STANDBY, State.NOTACTIVE, "DISABLE from " + from);
            case STANDBY -> {
                if (s != State.NOTACTIVE) {
                    yield false;
                }
                synchronized (this) {
                    master = null;
                    masterGuidFromSet = sender.guid();
                }
                yield transition(State.NOTACTIVE, State.STANDBY, "STANDBY from " + from);
            }
            case DISCOVER -> (s == State.STANDBY || s == State.MASTER)
                    && transition(s, State.DISCOVERING, "DISCOVER from " + from);
            default -> false;
        };
        if (!legal) {
            log.warn("SMInfo " + what + " from " + from + " refused: not legal in state " + s);
            return MadStatus.INVALID_FIELD;
        }
        return MadStatus.OK;
    }

    /** The new master acknowledges a handover: SubnSet(SMInfo) ACKNOWLEDGE to the SM that handed over. */
    private void acknowledge(long to, byte[] ours) {
        RemoteSm old = find(sm.topology(), to);
        if (old == null) {
            log.warn(String.format(Locale.ROOT, "cannot acknowledge the HANDOVER: SM 0x%016x not in the last "
                    + "discovery", to));
            return;
        }
        SmpPipe.Reply r = call(old.path(), ACKNOWLEDGE, ours, true);
        if (r.ok()) {
            log.info(String.format(Locale.ROOT, "HANDOVER acknowledged to SM 0x%016x at %s", to, old.port()));
        } else {
            log.warn(String.format(Locale.ROOT, "ACKNOWLEDGE to SM 0x%016x at %s: %s", to, old.port(), r.why()));
        }
    }
}
