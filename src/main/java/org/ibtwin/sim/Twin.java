package org.ibtwin.sim;

import static org.ibtwin.sim.TwinState.ACTIVE;
import static org.ibtwin.sim.TwinState.CAP_IS_SM;
import static org.ibtwin.sim.TwinState.MULTICAST_BASE;
import static org.ibtwin.sim.TwinState.PCX_SLOTS;
import static org.ibtwin.sim.TwinState.PC_SLOTS;
import static org.ibtwin.sim.TwinState.PERMISSIVE;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.Methods;
import org.ibtwin.mad.MgmtClasses;
import org.ibtwin.mad.SmpAttributes;
import org.ibtwin.model.Cable;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.LinkLayer;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.LinkWidth;
import org.ibtwin.model.Node;
import org.ibtwin.model.NodeType;
import org.ibtwin.model.PhysState;
import org.ibtwin.model.Port;
import org.ibtwin.model.PortCounter;
import org.ibtwin.model.PortState;
import org.ibtwin.transport.MadAddress;

/**
 * The live twin of a {@link Fabric}: every node has an SMA and a PMA, every port a state machine, every switch
 * forwards by its linear forwarding table. Clients (an SM, tools, the ibsim endpoint) {@link #attach} at a port and
 * send MADs; the twin walks them through the fabric, answers them where they land and hands the answers back.
 *
 * <h2>The house</h2>
 * This class is the lock, the clients' entry (attach, submit, the queue of MADs sent from inside a sink) and the
 * public fault and inspection API. What it owns lives beside it, one job a class: {@link TwinState} holds the
 * fabric's runtime state in flat arrays and the helpers the agents share; {@link Sma} and {@link Pma} answer MADs,
 * {@link Forwarding} moves them, {@link Traps} sends and repeats traps, {@link Links} trains links and carries out
 * the link and cable faults. The agents know the state and each other, never this class.
 *
 * <h2>Source of truth</h2>
 * The model is the twin's starting point and its static facts (names, GUIDs, device ids, cables). {@link #of} copies
 * the runtime state (LIDs, LMC, SM LID, port states, widths and speeds, MTU and VL caps, P_Keys, counters) into
 * {@link TwinState}'s arrays, and from then on the twin alone changes it; the model's {@link Port} objects keep their
 * initial values until {@link #syncModel()} writes the twin's state back into them (for the writers and summaries
 * that read the model). Nothing in the twin reads the model's runtime fields again, except the cable of a link when
 * it trains.
 *
 * <h2>Threads</h2>
 * One lock: one MAD is processed at a time, from whichever thread sends it. Sinks are called from that thread while
 * the lock is held; a sink may send (its MAD is queued and processed once the current one is done) but must not
 * block. Every public method takes the lock.
 *
 * <h2>What it answers</h2>
 * The SMA ({@link Sma}): NodeInfo, NodeDescription, PortInfo, SwitchInfo, GUIDInfo, P_KeyTable, SLtoVLMappingTable,
 * VLArbitrationTable, LinearForwardingTable, MulticastForwardingTable and Mellanox ExtendedPortInfo, with M_Key
 * checks; SMInfo goes to the SM attached at the port (none: dropped, as ibsim drops it). The PMA ({@link Pma}):
 * ClassPortInfo, PortCounters, PortCountersExtended. SA and other GMP requests go to the SM attached at the
 * destination port. Forwarding: {@link Forwarding}. Where the specification and ibsim part, the twin follows the
 * specification: an attribute the node lacks is answered 0x0C (ibsim stays silent), a Set of a read-only attribute
 * 0x0C (ibsim: 0x08), LID-routed SMPs cross links in Init (ibsim wants Active), a directed route from a CA must
 * leave by the port the client sits at, and DrSLID/DrDLID LID-routed segments are walked (ibsim refuses them).
 * Where the model says nothing (capability masks, P_Key and GUID caps, switch port 0), it answers as ibsim does.
 *
 * <h2>Traps and faults</h2>
 * Switches trap 128 when a link goes down or up by itself, ports trap 144 when their CapabilityMask changes; traps
 * repeat until repressed ({@link Traps}). Faults, for tests and the {@link Console}: {@link #linkDown},
 * {@link #linkUp}, {@link #flap}, {@link #unplug}, {@link #replug(String, int, org.ibtwin.model.Cable)},
 * {@link #link}, {@link #setCounter}, {@link #setDropRate(String, int, int, double)}, {@link #rebootSwitch},
 * {@link #setLinkLayer}, {@link #kill}, {@link #setCapabilityMask}. Where ibsim and hardware part, the twin follows
 * hardware: pulling a live cable counts LinkDowned at both ends (ibsim's Unlink counts nothing), and a drop rate
 * applies to every MAD a port receives, not only those its SMA answers.
 */
public final class Twin {
    /**
     * PortXmitData / PortRcvData words per MAD crossing a link ({@link TwinState#WORDS_PER_MAD}: 290 bytes between
     * the delimiters counted as 72 words, as ibsim counts them).
     */
    public static final int WORDS_PER_MAD = TwinState.WORDS_PER_MAD;

    private static final Layout PI = SmpAttributes.PORT_INFO;

    private final ReentrantLock lock = new ReentrantLock();
    /** The fabric's runtime state; read and written under {@link #lock} only (its attachments read its names). */
    final TwinState st;
    private final Sma sma;
    private final Pma pma;
    private final Forwarding fwd;
    private final Traps traps;
    private final Links links;
    private final ArrayDeque<Queued> queue = new ArrayDeque<>();
    private boolean draining;

    private record Queued(TwinAttachment from, byte[] mad, MadAddress to) {
    }

    private Twin(Fabric fabric) {
        st = new TwinState(fabric);
        traps = new Traps(st);
        links = new Links(st, traps, this::settle);
        sma = new Sma(st, traps, links);
        pma = new Pma(st);
        fwd = new Forwarding(st, sma, pma);
        traps.routeBy(fwd);
    }

    /** The twin of {@code fabric}, in the state the model describes (links trained as the model trained them). */
    public static Twin of(Fabric fabric) {
        return new Twin(Objects.requireNonNull(fabric, "fabric"));
    }

    // =====================================================================================================
    // attachments

    /**
     * Attaches a client at a port, as a umad client opens its HCA port.
     *
     * @param nodeName the node's topology id ("S-0002c9…", "Hca1") or, failing that, its node description or host
     *                 name (the description's first word); null for the default: the first CA (its port 1) or, in
     *                 a fabric without CAs, the first switch
     * @param port     the port; 0 for the default: port 0 of a switch, port 1 of a CA or router
     * @throws IllegalArgumentException for an unknown node ("unknown node ...") or a port it does not have
     */
    public Attachment attach(String nodeName, int port) {
        lock.lock();
        try {
            int node = nodeName == null ? defaultNode() : st.nodeIndex(nodeName);
            boolean sw = st.isSwitch(node);
            int number = port == 0 ? (sw ? 0 : 1) : port;
            if (sw && number != 0) {
                throw new IllegalArgumentException("node \"" + st.nodes[node].name()
                        + "\" is a switch: clients attach at its port 0, not " + number);
            }
            if (number < 0 || number > st.numPorts[node]) {
                throw new IllegalArgumentException("node \"" + st.nodes[node].name() + "\" has no port " + number);
            }
            int g = st.portBase[node] + number;
            TwinAttachment a = new TwinAttachment(this, g);
            TwinAttachment[] at = st.attached[g];
            st.attached[g] = at == null ? new TwinAttachment[] {a} : append(at, a);
            return a;
        } finally {
            lock.unlock();
        }
    }

    /** {@link #attach(String, int) attach(nodeName, 0)}: what the ibsim endpoint's AttachPoint does. */
    public Attachment attach(String nodeName) {
        return attach(nodeName, 0);
    }

    private int defaultNode() {
        for (int i = 0; i < st.nodeCount; i++) {
            if (st.nodeType[i] != NodeType.SWITCH.code()) {
                return i;
            }
        }
        if (st.nodeCount == 0) {
            throw new IllegalArgumentException("unknown node: the fabric is empty");
        }
        return 0;
    }

    /**
     * The model node named so: by its topology id, or failing that its node description or host name (the
     * description's first word), as {@link #attach} and the fault methods take it.
     *
     * @throws IllegalArgumentException for an unknown node
     */
    public Node node(String name) {
        return locked(() -> st.nodes[st.nodeIndex(Objects.requireNonNull(name, "name"))]);
    }

    private static TwinAttachment[] append(TwinAttachment[] a, TwinAttachment x) {
        TwinAttachment[] b = Arrays.copyOf(a, a.length + 1);
        b[a.length] = x;
        return b;
    }

    void detach(TwinAttachment a) {
        lock.lock();
        try {
            if (a.detached) {
                return;
            }
            a.detached = true;
            remove(a);
            if (a.isSm) {
                a.isSm = false;
                updateIsSm(a.gp);
                settle();
            }
        } finally {
            lock.unlock();
        }
    }

    private void remove(TwinAttachment a) {
        TwinAttachment[] at = st.attached[a.gp];
        int k = 0;
        TwinAttachment[] rest = new TwinAttachment[at.length - 1];
        for (TwinAttachment x : at) {
            if (x != a) {
                rest[k++] = x;
            }
        }
        st.attached[a.gp] = rest.length == 0 ? null : rest;
    }

    void setIsSm(TwinAttachment a, boolean sm) {
        lock.lock();
        try {
            if (!a.detached) {
                a.isSm = sm;
                updateIsSm(a.gp);
                settle();
            }
        } finally {
            lock.unlock();
        }
    }

    private void updateIsSm(int g) {
        boolean any = false;
        TwinAttachment[] at = st.attached[g];
        if (at != null) {
            for (TwinAttachment x : at) {
                any |= x.isSm;
            }
        }
        long cap = PI.get(st.portInfo, g * 64, "CapMask");
        long now = any ? cap | CAP_IS_SM : cap & ~CAP_IS_SM;
        if (now != cap) {
            PI.set(st.portInfo, g * 64, "CapMask", now);
            traps.capabilityChanged(g);   // trap 144: IsSM set or cleared
        }
    }

    // =====================================================================================================
    // processing

    /** A MAD an attachment sends: processed now, or queued when sent from inside a sink. */
    void submit(TwinAttachment a, byte[] mad, MadAddress to) {
        Objects.requireNonNull(mad, "mad");
        Objects.requireNonNull(to, "to");
        lock.lock();
        try {
            if (draining) {
                queue.add(new Queued(a, mad.clone(), to));
                return;
            }
            draining = true;
            try {
                process(a, mad, to);
                drain();
            } finally {
                draining = false;
            }
        } finally {
            lock.unlock();
        }
    }

    private void process(TwinAttachment a, byte[] mad, MadAddress to) {
        st.processed++;
        if (a.detached) {
            st.drops[DropReason.DETACHED.ordinal()]++;
            return;
        }
        boolean ok;
        if (mad.length != 256 || mad[0] != 1) {
            ok = st.drop(DropReason.MALFORMED);
        } else {
            byte[] w = st.work;
            System.arraycopy(mad, 0, w, 0, 256);
            a.noteSent(w);
            int cls = w[1] & 0xff;
            ok = cls == MgmtClasses.SUBN_DIRECTED ? fwd.directed(a, w, to) : fwd.lidRouted(a, w, to, cls);
        }
        if (!ok) {
            MadSink s = a.sink;
            try {
                s.undeliverable(mad.clone(), to);
            } catch (RuntimeException e) {
                st.sinkFailures++;
            }
        }
    }

    /**
     * After a fault, a capability change or a batch of MADs: sends the traps they raised (and those whose
     * timeout passed), then processes whatever the receivers sent back from their sinks. Inside a batch (a sink
     * calling in) the outer batch does it.
     */
    private void settle() {
        if (draining) {
            return;
        }
        draining = true;
        try {
            drain();
        } finally {
            draining = false;
        }
    }

    private void drain() {
        while (true) {
            Queued q;
            while ((q = queue.poll()) != null) {
                process(q.from, q.mad, q.to);
            }
            traps.flush();
            if (queue.isEmpty()) {
                return;
            }
        }
    }

    // =====================================================================================================
    // faults: links and cables (carried out by Links)

    /**
     * The port fails, or its cable does: both ends go Down/Polling, count LinkDowned (a link that was up), and the
     * switches on the link trap 128 to the SM. The port is held down until {@link #linkUp}: no PortInfo Set
     * brings it back.
     */
    public void linkDown(String nodeName, int port) {
        linkDown(nodeName, port, false);
    }

    /**
     * As {@link #linkDown(String, int)}; {@code disable}: this end goes Disabled instead of Polling, as
     * {@code ibportstate ... disable} leaves it (an SM's PortInfo Set of PortPhysicalState Polling enables it
     * again, but the fault's hold stays until {@link #linkUp}).
     */
    public void linkDown(String nodeName, int port, boolean disable) {
        lock.lock();
        try {
            links.linkDown(nodeName, port, disable);
        } finally {
            lock.unlock();
        }
    }

    /**
     * The link at a port trains again (a fault cleared, a port re-enabled): both ends come up LinkUp/Init if they
     * can (the switches trap 128), or stay Polling.
     */
    public void linkUp(String nodeName, int port) {
        lock.lock();
        try {
            links.linkUp(nodeName, port);
        } finally {
            lock.unlock();
        }
    }

    /**
     * The link at a port goes down and comes back {@code times} times, as a marginal cable makes it: LinkDowned
     * counts each at both ends, and the link ends up trained again (Init: the SM must bring it to Active). The
     * switches trap 128 (one trap each until the SM represses it).
     *
     * @throws IllegalStateException when the link is not up
     */
    public void flap(String nodeName, int port, int times) {
        if (times < 1) {
            throw new IllegalArgumentException("flap count must be at least 1: " + times);
        }
        lock.lock();
        try {
            links.flap(nodeName, port, times);
        } finally {
            lock.unlock();
        }
    }

    /**
     * The cable at a port is pulled out (ibsim's Unlink): both ends go Down/Polling with no neighbour, count
     * LinkDowned if the link was up, and the switches trap 128. The twin remembers the pair and the cable for
     * {@link #replug}.
     */
    public void unplug(String nodeName, int port) {
        lock.lock();
        try {
            links.unplug(nodeName, port);
        } finally {
            lock.unlock();
        }
    }

    /** Unplugs every linked port of a node (ibsim's Unlink of a whole node); returns how many. */
    public int unplugAll(String nodeName) {
        lock.lock();
        try {
            return links.unplugAll(nodeName);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Plugs back every cable pulled from a node's ports whose other end is still free (ibsim's ReLink of a whole
     * node); returns how many.
     */
    public int replugAll(String nodeName) {
        lock.lock();
        try {
            return links.replugAll(nodeName);
        } finally {
            lock.unlock();
        }
    }

    /** Plugs the cable pulled from a port back in (ibsim's ReLink): the link trains again, as it did before. */
    public LinkStatus replug(String nodeName, int port) {
        return replug(nodeName, port, null);
    }

    /**
     * Plugs a cable back between a port and the port it was linked to, {@code with} in place of the old one (null:
     * the old one); a port still linked has its cable pulled first (a cable swap). The link trains again: a cable
     * rated below what both ports could do brings it up degraded; one nothing fits leaves it down.
     *
     * @return how it trained
     */
    public LinkStatus replug(String nodeName, int port, Cable with) {
        lock.lock();
        try {
            return links.replug(nodeName, port, with);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Cables two free ports together (ibsim's Link); the link trains.
     *
     * @param with the cable; null: the cable last seen at the first port, else {@link Cable#UNRATED}
     */
    public LinkStatus link(String nodeA, int portA, String nodeB, int portB, Cable with) {
        lock.lock();
        try {
            return links.link(nodeA, portA, nodeB, portB, with);
        } finally {
            lock.unlock();
        }
    }

    /** How the link at a port trained, what it could do, its cable and the port at its other end. */
    public LinkStatus linkStatus(String nodeName, int port) {
        return locked(() -> links.status(st.physicalPort(nodeName, port)));
    }

    /** The cable at a port, or the one it had before it was unplugged; null if it never had one. */
    public Cable lastCable(String nodeName, int port) {
        return locked(() -> st.cable[st.physicalPort(nodeName, port)]);
    }

    /**
     * A port's link layer changes (mlxconfig LINK_TYPE): to Ethernet the link goes down (LinkDowned counted, the
     * switch traps 128) and stays down, both ends Polling, as an IB switch sees an Ethernet port; back to
     * InfiniBand it trains again.
     */
    public void setLinkLayer(String nodeName, int port, LinkLayer layer) {
        Objects.requireNonNull(layer, "layer");
        lock.lock();
        try {
            links.setLinkLayer(nodeName, port, layer);
        } finally {
            lock.unlock();
        }
    }

    public LinkLayer linkLayer(String nodeName, int port) {
        return locked(() -> st.ethernet[st.physicalPort(nodeName, port)] ? LinkLayer.ETHERNET
                : LinkLayer.INFINIBAND);
    }

    // =====================================================================================================
    // faults: nodes, SMs, MADs

    /**
     * A switch reboots (power cycle, firmware reset): everything the SM programmed is lost: LID and SM LID (0),
     * M_Key, LFT and LinearFDBTop, MFT, P_Keys, SL-to-VL and VL arbitration tables, enabled widths and speeds as
     * at power-up, PMA counters at 0, pending traps. Its links drop (the neighbours count LinkDowned and their
     * switches trap 128) and train again (Init); PortStateChange is set. Without a LID and an SM LID the rebooted
     * switch itself sends no trap: the SM finds it on its next sweep, or by the neighbours' traps.
     */
    public void rebootSwitch(String switchName) {
        lock.lock();
        try {
            int s = st.switchOf(switchName);
            int n = st.swNode[s];
            links.dropAll(n);
            traps.forget(n);
            st.resetSwitch(s);
            updateIsSm(st.portBase[n]);
            links.trainAll(n);
            settle();
        } finally {
            lock.unlock();
        }
    }

    /** The SM attachments (those that set IsSM), in port order. */
    public List<Attachment> smAttachments() {
        lock.lock();
        try {
            List<Attachment> out = new ArrayList<>();
            for (TwinAttachment[] at : st.attached) {
                if (at != null) {
                    for (TwinAttachment a : at) {
                        if (a.isSm) {
                            out.add(a);
                        }
                    }
                }
            }
            return out;
        } finally {
            lock.unlock();
        }
    }

    /**
     * An SM process is killed: its attachment goes away without clearing anything, as a dead process leaves the
     * HCA. The port stays up with its IsSM capability bit still set; SMInfo and SA requests to it are dropped
     * (nobody answers), and whatever the dead client still sends is dropped.
     */
    public void kill(Attachment a) {
        if (!(a instanceof TwinAttachment ta) || ta.twin != this) {
            throw new IllegalArgumentException("not an attachment of this twin: " + a);
        }
        lock.lock();
        try {
            if (!ta.detached) {
                ta.detached = true;
                remove(ta);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Kills every SM attachment ({@link #kill}); returns how many. */
    public int killSms() {
        List<Attachment> sms = smAttachments();
        for (Attachment a : sms) {
            kill(a);
        }
        return sms.size();
    }

    /**
     * The host changes a port's CapabilityMask (as ib_modify_port does; a PortInfo Set cannot, the field is
     * read-only to SMPs): the IsSM bit stays as the port's attachments set it. A change sends trap 144 from the
     * port to its SM.
     */
    public void setCapabilityMask(String nodeName, int port, int mask) {
        lock.lock();
        try {
            int node = st.nodeIndex(Objects.requireNonNull(nodeName, "nodeName"));
            int g = st.globalPort(nodeName, port);
            if (st.isSwitch(node) && port != 0) {
                throw new IllegalArgumentException("a switch's capability mask is its port 0's, not port " + port);
            }
            long before = PI.get(st.portInfo, g * 64, "CapMask");
            long now = Integer.toUnsignedLong(mask & ~CAP_IS_SM) | (before & CAP_IS_SM);
            if (now != before) {
                PI.set(st.portInfo, g * 64, "CapMask", now);
                traps.capabilityChanged(g);
                settle();
            }
        } finally {
            lock.unlock();
        }
    }

    /** The port's CapabilityMask as PortInfo reports it (a switch: its port 0's). */
    public int capabilityMask(String nodeName, int port) {
        lock.lock();
        try {
            int g = st.agentPort(st.globalPort(nodeName, port));
            return (int) PI.get(st.portInfo, g * 64, "CapMask");
        } finally {
            lock.unlock();
        }
    }

    /**
     * MADs arriving at a port are dropped with probability {@code rate} (0..1; 0 clears), by the twin's seeded
     * random source ({@link #setFaultSeed}): every MAD its link brings in, and at a switch's port 0 every MAD for
     * the switch's agents. A dropped request is bounced to its sender as undeliverable (status 110 through the ibsim
     * endpoint, as ibsim's Error does).
     */
    public void setDropRate(String nodeName, int port, double rate) {
        setDropRate(nodeName, port, 0, rate);
    }

    /** As {@link #setDropRate(String, int, double)}, for MADs of one attribute id only ({@code 0}: any). */
    public void setDropRate(String nodeName, int port, int attributeId, double rate) {
        lock.lock();
        try {
            st.dropRules.set(st.globalPort(nodeName, port), attributeId, rate);
        } finally {
            lock.unlock();
        }
    }

    /** MADs of one attribute id ({@code 0}: any) are dropped at every port with probability {@code rate}. */
    public void setDropRate(int attributeId, double rate) {
        lock.lock();
        try {
            st.dropRules.set(-1, attributeId, rate);
        } finally {
            lock.unlock();
        }
    }

    /** Clears the drop rates of a port (all its attributes). */
    public void clearDropRates(String nodeName, int port) {
        lock.lock();
        try {
            st.dropRules.clearPort(st.globalPort(nodeName, port));
        } finally {
            lock.unlock();
        }
    }

    /** Clears every drop rate. */
    public void clearDropRates() {
        lock.lock();
        try {
            st.dropRules.clear();
        } finally {
            lock.unlock();
        }
    }

    /** Restarts the random source of the drop rates: the same seed and the same MADs drop the same ones. */
    public void setFaultSeed(long seed) {
        lock.lock();
        try {
            st.dropRules.seed(seed);
        } finally {
            lock.unlock();
        }
    }

    /** The drop rules in force, as "port attribute rate" descriptions. */
    public List<String> dropRates() {
        return locked(() -> st.dropRules.describe(st));
    }

    // =====================================================================================================
    // traps

    /** The traps not yet repressed, oldest first. */
    public List<PendingTrap> pendingTraps() {
        return locked(() -> traps.list());
    }

    /** Sends every pending trap again now (same TID); returns how many. */
    public int resendTraps() {
        lock.lock();
        try {
            int n = traps.markAllDue();
            settle();
            return n;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Sends again the pending traps whose issuing port's SubnetTimeout (4.096 µs × 2^SubnetTimeout) has passed
     * since they were last sent, as an SMA does until its trap is repressed. The twin checks this itself after
     * every MAD and fault; a fabric with nothing happening needs a timer to call it ({@link TrapTimer}).
     */
    public void resendTrapsDue() {
        lock.lock();
        try {
            settle();
        } finally {
            lock.unlock();
        }
    }

    /** Traps sent so far, resends included. */
    public long trapsSent() {
        return lockedLong(() -> traps.sent);
    }

    /** The clock trap timeouts are measured by, in nanoseconds ({@link System#nanoTime} unless a test sets one). */
    public void setClock(LongSupplier nanos) {
        lock.lock();
        try {
            st.clock = Objects.requireNonNull(nanos, "nanos");
        } finally {
            lock.unlock();
        }
    }

    // =====================================================================================================
    // inspection and faults

    public Fabric fabric() {
        return st.fabric;
    }

    public int nodeCount() {
        return st.nodeCount;
    }

    public int switchCount() {
        return st.switchCount;
    }

    /** Port slots: every node's ports plus one (port 0). */
    public int portSlots() {
        return st.portCount;
    }

    /** The port's LID (a switch's LID is its port 0's). */
    public int lid(String nodeName, int port) {
        return lockedInt(() -> st.lid[st.globalPort(nodeName, port)]);
    }

    public int lmc(String nodeName, int port) {
        return lockedInt(() -> st.lmc[st.globalPort(nodeName, port)]);
    }

    public PortState portState(String nodeName, int port) {
        return locked(() -> PortState.ofCode(st.state[st.globalPort(nodeName, port)]));
    }

    public PhysState physState(String nodeName, int port) {
        return locked(() -> PhysState.ofCode(st.phys[st.globalPort(nodeName, port)]));
    }

    /** The trained width of a port's link, null when down. */
    public LinkWidth activeWidth(String nodeName, int port) {
        return locked(() -> PortCodes.width(st.widthAct[st.globalPort(nodeName, port)]));
    }

    /** The trained speed of a port's link, null when down. */
    public LinkSpeed activeSpeed(String nodeName, int port) {
        return locked(() -> PortCodes.speed(st.speedAct[st.globalPort(nodeName, port)]));
    }

    /** The model port whose LID range holds {@code lid}, or null. */
    public Port portAtLid(int lid) {
        lock.lock();
        try {
            if (lid <= 0 || lid >= MULTICAST_BASE || st.portByLid[lid] < 0) {
                return null;
            }
            int g = st.portByLid[lid];
            return st.nodes[st.portNode[g]].port(st.portNumber(g));
        } finally {
            lock.unlock();
        }
    }

    /** A switch's LFT entry for {@code lid}: the egress port, 0xFF when unprogrammed. */
    public int lftEntry(String switchName, int lid) {
        lock.lock();
        try {
            int s = st.switchOf(switchName);
            byte[] t = st.lft[s];
            return lid >= 0 && lid < t.length ? t[lid] & 0xff : 0xff;
        } finally {
            lock.unlock();
        }
    }

    /** Whether a switch's MFT sends multicast LID {@code mlid} out of {@code port}. */
    public boolean mftEntry(String switchName, int mlid, int port) {
        lock.lock();
        try {
            int node = st.nodeIndex(Objects.requireNonNull(switchName, "switchName"));
            if (!st.isSwitch(node)) {
                throw new IllegalArgumentException("node \"" + switchName + "\" is not a switch");
            }
            return port >= 0 && port <= st.numPorts[node] && mlid >= MULTICAST_BASE && mlid < PERMISSIVE
                    && fwd.mftHas(node, mlid, port);
        } finally {
            lock.unlock();
        }
    }

    /**
     * A multicast packet (a UD send, e.g. an IPoIB broadcast) from port {@code port} of {@code nodeName} to
     * multicast LID {@code mlid}, forwarded through the switches' MFTs: the ports it reached, as "node/port", in
     * the order reached. Counts the crossings (PortMulticastXmitPkts and PortMulticastRcvPkts on the way).
     */
    public List<String> multicast(String nodeName, int port, int mlid) {
        lock.lock();
        try {
            int g = st.globalPort(nodeName, port);
            List<String> out = new ArrayList<>();
            for (int q : fwd.multicast(g, mlid)) {
                out.add(st.nodes[st.portNode[q]].name() + "/" + st.portNumber(q));
            }
            return out;
        } finally {
            lock.unlock();
        }
    }

    public int linearFdbTop(String switchName) {
        return lockedInt(() -> st.lftTop[st.switchOf(switchName)]);
    }


    // ---- the console's views

    /** Every node as the twin holds it now, in the model's order, without the LFTs (ibsim's Dump). */
    public List<NodeDump> dump() {
        lock.lock();
        try {
            List<NodeDump> out = new ArrayList<>(st.nodeCount);
            for (int n = 0; n < st.nodeCount; n++) {
                out.add(dumpOf(n, false));
            }
            return out;
        } finally {
            lock.unlock();
        }
    }

    /** One node as the twin holds it now, a switch with its LFT up to LinearFDBTop (ibsim's Dump of a node). */
    public NodeDump dump(String nodeName) {
        return locked(() -> dumpOf(st.nodeIndex(Objects.requireNonNull(nodeName, "nodeName")), true));
    }

    private NodeDump dumpOf(int n, boolean withLft) {
        boolean sw = st.isSwitch(n);
        int s = st.swIndex[n];
        int top = sw ? st.lftTop[s] : 0;
        int[] lft = null;
        if (sw && withLft) {
            byte[] t = st.lft[s];
            lft = new int[top + 1];
            for (int j = 0; j <= top; j++) {
                lft[j] = j < t.length ? t[j] & 0xff : 0xff;
            }
        }
        List<NodeDump.PortDump> ports = new ArrayList<>();
        for (int p = sw ? 0 : 1; p <= st.numPorts[n]; p++) {
            int g = st.portBase[n] + p;
            int r = st.remote[g];
            ports.add(new NodeDump.PortDump(p, st.portGuid[g], r >= 0 ? st.nodes[st.portNode[r]].name() : null,
                    r >= 0 ? st.portNumber(r) : 0, PortCodes.width(st.widthAct[g]), PortCodes.speed(st.speedAct[g]),
                    PortState.ofCode(st.state[g]), PhysState.ofCode(st.phys[g]), st.lid[g], st.lmc[g],
                    (int) TwinState.PI_SM_LID.get(st.portInfo, g * 64), st.held[g], st.ethernet[g],
                    r < 0 && st.prevRemote[g] >= 0 ? st.portName(st.prevRemote[g]) : null));
        }
        return new NodeDump(st.nodes[n], sw, TwinState.LINEAR_FDB_CAP, top, sw && st.portStateChange[s], lft,
                ports);
    }

    /**
     * Follows the LFTs over Active ports from the port of {@code fromLid} to the port of {@code toLid}, as ibsim's
     * Route does; null when either LID is not a unicast LID some port has.
     */
    public RouteTrace routeTrace(int fromLid, int toLid) {
        lock.lock();
        try {
            if (fromLid <= 0 || toLid <= 0 || fromLid >= MULTICAST_BASE || toLid >= MULTICAST_BASE) {
                return null;
            }
            int fromPort = st.portByLid[fromLid];
            int toPort = st.portByLid[toLid];
            if (fromPort < 0 || toPort < 0) {
                return null;
            }
            List<RouteTrace.Hop> hops = new ArrayList<>();
            int port = fromPort;
            int node = st.portNode[port];
            String fromNode = st.nodes[node].name();
            int fromNumber = st.portNumber(port);
            for (int h = 0; ; h++) {
                String stop = null;
                if (h >= TwinState.MAX_HOPS) {
                    stop = "no route found after " + TwinState.MAX_HOPS + " hops";
                } else if (st.state[port] != ACTIVE) {
                    stop = String.format("Bad port state found: node \"%s\" port %d state %d",
                            st.nodes[node].name(), st.portNumber(port), st.state[port]);
                }
                if (stop != null) {
                    return new RouteTrace(fromNode, fromNumber, hops, null, 0, stop);
                }
                if (port == toPort) {
                    break;
                }
                int outPort = st.portNumber(port);
                if (st.isSwitch(node)) {
                    int s = st.swIndex[node];
                    byte[] t = st.lft[s];
                    outPort = toLid <= st.lftTop[s] && toLid < t.length ? t[toLid] & 0xff : 0xff;
                    if (outPort == 0xff || outPort > st.numPorts[node]) {
                        return new RouteTrace(fromNode, fromNumber, hops, null, 0, badTable(node, toLid, outPort));
                    }
                    port = st.portBase[node] + outPort;
                    if (outPort == 0) {
                        if (port != toPort) {
                            return new RouteTrace(fromNode, fromNumber, hops, null, 0,
                                    badTable(node, toLid, outPort));
                        }
                        break;
                    }
                    if (st.state[port] != ACTIVE) {
                        return new RouteTrace(fromNode, fromNumber, hops, null, 0, String.format(
                                "Bad out port state found: node \"%s\" outport %d state %d",
                                st.nodes[node].name(), outPort, st.state[port]));
                    }
                }
                int next = st.remote[port];
                if (next < 0) {
                    return new RouteTrace(fromNode, fromNumber, hops, null, 0, String.format(
                            "no link at node \"%s\" port %d", st.nodes[node].name(), st.portNumber(port)));
                }
                port = next;
                node = st.portNode[port];
                hops.add(new RouteTrace.Hop(outPort, st.nodes[node].name(), st.portNumber(port)));
            }
            return new RouteTrace(fromNode, fromNumber, hops, st.nodes[node].name(), st.portNumber(port), null);
        } finally {
            lock.unlock();
        }
    }

    private String badTable(int node, int dlid, int entry) {
        return String.format("Bad forwarding table entry found at: node \"%s\" lid entry %d is %d (top %d)",
                st.nodes[node].name(), dlid, entry, st.lftTop[st.swIndex[node]]);
    }

    // ---- the data plane: what traffic reads and adds

    /**
     * A count that moves whenever data could take another way (a port's state or LID, a link trained or lost, an
     * LFT entry written with a new value): a traffic engine re-resolves its routes when it sees it move.
     */
    public long forwardingVersion() {
        return lockedLong(() -> st.forwardingVersion);
    }

    /**
     * Where switch {@code sw} sends packets for CA port {@code dst}, as its LFT holds it now: the egress port number,
     * or -1 when {@code dst} has no LID, the entry is unprogrammed or names no port, or the egress port is not Active
     * (data moves only over Active ports). Read under the twin's lock.
     */
    public int egressPort(Node sw, Port dst) {
        lock.lock();
        try {
            Integer n = st.nodeIndexByNode.get(sw);
            Integer d = st.nodeIndexByNode.get(dst.node());
            if (n == null || d == null || !st.isSwitch(n)) {
                return -1;
            }
            int dlid = st.lid[st.portBase[d] + dst.number()];
            byte[] t = st.lft[st.swIndex[n]];
            if (dlid <= 0 || dlid >= t.length) {
                return -1;
            }
            int out = t[dlid] & 0xff;
            if (out < 1 || out > st.numPorts[n]) {
                return -1;
            }
            return st.state[st.portBase[n] + out] == ACTIVE ? out : -1;
        } finally {
            lock.unlock();
        }
    }

    /** Whether a model port's twin is Active (a CA port that can send data). */
    public boolean isActive(Port p) {
        lock.lock();
        try {
            Integer n = st.nodeIndexByNode.get(p.node());
            return n != null && p.number() <= st.numPorts[n] && st.state[st.portBase[n] + p.number()] == ACTIVE;
        } finally {
            lock.unlock();
        }
    }

    /** The twin's index of a model port (the slot {@link #addTraffic} takes), or -1 for a port of another fabric. */
    public int portSlot(Port p) {
        Integer n = st.nodeIndexByNode.get(p.node());
        return n == null || p.number() < 0 || p.number() > st.numPorts[n] ? -1 : st.portBase[n] + p.number();
    }

    /** Values per port in {@link #addTraffic}'s delta array: XmitData, RcvData, XmitPkts, RcvPkts, XmitWait. */
    public static final int TRAFFIC_FIELDS = 5;

    /**
     * Adds unicast data traffic to the PMA counters of {@code count} ports at once, under the lock: for port slot
     * {@code slots[i]}, {@code deltas[i*5 .. i*5+4]} are the 4-octet words sent and received, the packets sent and
     * received, and the PortXmitWait ticks. PortCounters saturate at their field's width, PortCountersExtended
     * (data, packets, unicast packets) at 2^64-1. Allocation-free.
     */
    public void addTraffic(int[] slots, int count, long[] deltas) {
        lock.lock();
        try {
            for (int i = 0; i < count; i++) {
                int g = slots[i];
                int o = i * TRAFFIC_FIELDS;
                long xd = deltas[o];
                long rd = deltas[o + 1];
                long xp = deltas[o + 2];
                long rp = deltas[o + 3];
                long xw = deltas[o + 4];
                if (xd != 0 || xp != 0) {
                    st.addPc(g, PortCounter.XMIT_DATA.ordinal(), xd);
                    st.addPc(g, PortCounter.XMIT_PKTS.ordinal(), xp);
                    st.addPcx(g, ExtCounter.XMIT_DATA.ordinal(), xd);
                    st.addPcx(g, ExtCounter.XMIT_PKTS.ordinal(), xp);
                    st.addPcx(g, ExtCounter.UNICAST_XMIT_PKTS.ordinal(), xp);
                }
                if (rd != 0 || rp != 0) {
                    st.addPc(g, PortCounter.RCV_DATA.ordinal(), rd);
                    st.addPc(g, PortCounter.RCV_PKTS.ordinal(), rp);
                    st.addPcx(g, ExtCounter.RCV_DATA.ordinal(), rd);
                    st.addPcx(g, ExtCounter.RCV_PKTS.ordinal(), rp);
                    st.addPcx(g, ExtCounter.UNICAST_RCV_PKTS.ordinal(), rp);
                }
                if (xw != 0) {
                    st.addPc(g, PortCounter.XMIT_WAIT.ordinal(), xw);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** A PortCounters counter of a port, as the PMA reports it. */
    public long counter(String nodeName, int port, PortCounter c) {
        return lockedLong(() -> st.pcValue(st.globalPort(nodeName, port), c.ordinal()));
    }

    /** Sets a PortCounters counter (a fault: symbol errors, link downed...), saturating at the field's width. */
    public void setCounter(String nodeName, int port, PortCounter c, long value) {
        lock.lock();
        try {
            int g = st.globalPort(nodeName, port);
            st.pc[g * PC_SLOTS + c.ordinal()] = (int) Math.min(Math.max(0, value), c.max());
        } finally {
            lock.unlock();
        }
    }

    /** Adds to a PortCounters counter, saturating. */
    public void addCounter(String nodeName, int port, PortCounter c, long delta) {
        lock.lock();
        try {
            st.addPc(st.globalPort(nodeName, port), c.ordinal(), Math.max(0, delta));
        } finally {
            lock.unlock();
        }
    }

    public long extendedCounter(String nodeName, int port, ExtCounter c) {
        return lockedLong(() -> st.pcx[st.globalPort(nodeName, port) * PCX_SLOTS + c.ordinal()]);
    }

    public void setExtendedCounter(String nodeName, int port, ExtCounter c, long value) {
        lock.lock();
        try {
            st.pcx[st.globalPort(nodeName, port) * PCX_SLOTS + c.ordinal()] = value;
        } finally {
            lock.unlock();
        }
    }

    /** MADs dropped for {@code reason}. */
    public long drops(DropReason reason) {
        return lockedLong(() -> st.drops[reason.ordinal()]);
    }

    /** MADs dropped, all reasons. */
    public long drops() {
        lock.lock();
        try {
            long t = 0;
            for (long d : st.drops) {
                t += d;
            }
            return t;
        } finally {
            lock.unlock();
        }
    }

    /** MADs the attachments sent. */
    public long processed() {
        return lockedLong(() -> st.processed);
    }

    /** MADs handed to sinks. */
    public long delivered() {
        return lockedLong(() -> st.delivered);
    }

    /**
     * Writes the twin's runtime state back into the model: its links (a cable unplugged, replugged or swapped, a
     * Link between other ports), and in its ports LIDs, LMC, SM LID, port and physical states, enabled widths and
     * speeds, the trained width and speed, link layers, neighbour MTU (as the active MTU), P_Keys and the
     * PortCounters counters.
     */
    public void syncModel() {
        lock.lock();
        try {
            st.syncModel();
        } finally {
            lock.unlock();
        }
    }

    // ---- attribute bytes for attachments

    byte[] nodeInfoOf(int g) {
        lock.lock();
        try {
            byte[] b = new byte[64];
            sma.renderNodeInfo(st.portNode[g], g, b, 0);
            return b;
        } finally {
            lock.unlock();
        }
    }

    byte[] portInfoOf(int g) {
        lock.lock();
        try {
            byte[] b = new byte[64];
            sma.renderPortInfo(g, b, 0, st.portNumber(g));
            return b;
        } finally {
            lock.unlock();
        }
    }

    int[] pkeysOf(int g) {
        lock.lock();
        try {
            int[] k = new int[st.pkeyCap(g)];
            for (int i = 0; i < k.length; i++) {
                k[i] = st.pkey(g, i);
            }
            return k;
        } finally {
            lock.unlock();
        }
    }

    /**
     * A port's PortCounters attribute as its PMA answers a Get: the 192 bytes of attribute data (what the console's
     * {@code counters} prints as perfquery does).
     */
    public byte[] portCounters(String nodeName, int port) {
        lock.lock();
        try {
            int g = st.globalPort(nodeName, port);
            byte[] w = new byte[256];
            w[0] = 1;
            w[1] = (byte) MgmtClasses.PERF;
            w[2] = 1;
            w[3] = (byte) Methods.GET;
            w[16] = (byte) (AttributeIds.PORT_COUNTERS >> 8);
            w[17] = (byte) AttributeIds.PORT_COUNTERS;
            w[64 + 1] = (byte) st.portNumber(g);
            pma.handle(st.portNode[g], g, w, Methods.GET);
            return Arrays.copyOfRange(w, 64, 256);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String toString() {
        return "Twin(" + st.nodeCount + " nodes, " + st.switchCount + " switches)";
    }

    /** Reads under the twin's lock: the inspection API sees one consistent state. */
    private <T> T locked(java.util.function.Supplier<T> read) {
        lock.lock();
        try {
            return read.get();
        } finally {
            lock.unlock();
        }
    }

    private int lockedInt(java.util.function.IntSupplier read) {
        lock.lock();
        try {
            return read.getAsInt();
        } finally {
            lock.unlock();
        }
    }

    private long lockedLong(java.util.function.LongSupplier read) {
        lock.lock();
        try {
            return read.getAsLong();
        } finally {
            lock.unlock();
        }
    }
}
