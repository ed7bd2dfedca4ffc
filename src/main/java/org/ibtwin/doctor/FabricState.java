package org.ibtwin.doctor;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.ibtwin.format.PartitionsConf;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.HostFacts;
import org.ibtwin.model.Link;
import org.ibtwin.model.Node;
import org.ibtwin.model.NodeNames;
import org.ibtwin.model.NodeType;
import org.ibtwin.model.Port;
import org.ibtwin.model.PortCounter;

/**
 * Everything doctor knows about a fabric, from wherever it came: the model (topology, links, LIDs, port states,
 * host facts) and what only some sources carry — counter readings, the subnet managers, partitions.conf, the
 * switches' forwarding tables, the hosts' own files. Flags say which parts are real: a fabric file without LIDs
 * has no SM information to judge, a directory of ibstat files has no topology.
 */
public final class FabricState {
    private final String source;
    private final Fabric fabric;
    private boolean topologyKnown = true;
    private boolean lidsKnown;
    private boolean portStatesKnown;
    private boolean smLidsKnown;
    private boolean mtusKnown;
    private boolean pkeysKnown;
    private boolean firmwareKnown;
    private List<SmInfo> sms;
    private boolean smsComplete;
    private PartitionsConf partitions;
    private final Map<String, HostInfo> hosts = new TreeMap<>();
    private final Map<String, PortCounters> counters = new LinkedHashMap<>();
    private final Map<Node, int[]> routes = new IdentityHashMap<>();
    private final List<String> duplicateGuids = new ArrayList<>();
    private final List<String> read = new ArrayList<>();
    private final List<String> ignored = new ArrayList<>();
    private Instant time;
    private Map<Node, String> names;
    private Map<Node, Integer> ranks;

    public FabricState(Fabric fabric, String source) {
        this.fabric = fabric;
        this.source = source;
    }

    /**
     * The state of a model fabric (a fabric file, the default fabric, a generated one): its topology, its LIDs and
     * port states when it carries LIDs (a dump taken after an SM ran), host facts of every CA that has them, the
     * ports' MTU caps and P_Keys, and counters where any port has one set.
     *
     * @param descriptionSource what to name as the source of host facts ("default.yaml")
     */
    public static FabricState of(Fabric f, String source, String descriptionSource) {
        FabricState s = new FabricState(f, source);
        boolean lids = false;
        boolean smLids = false;
        for (Node n : f.nodes()) {
            for (int i = n.isSwitch() ? 0 : 1; i <= n.numPorts(); i++) {
                Port p = n.port(i);
                lids |= p.lid() > 0;
                smLids |= p.smLid() > 0;
            }
        }
        s.lidsKnown = lids;
        s.portStatesKnown = lids;
        s.smLidsKnown = smLids;
        s.mtusKnown = true;
        s.pkeysKnown = true;
        s.firmwareKnown = true;
        for (Node n : f.cas()) {
            HostFacts h = n.hostFacts();
            if (h != null) {
                String host = s.name(n);
                s.hosts.put(host, HostInfo.of(n, host, h, descriptionSource));
            }
        }
        for (Node n : f.nodes()) {
            for (int i = n.isSwitch() ? 0 : 1; i <= n.numPorts(); i++) {
                Port p = n.port(i);
                Map<PortCounter, Long> values = new java.util.EnumMap<>(PortCounter.class);
                boolean any = false;
                for (PortCounter c : PortCounter.values()) {
                    long v = p.counter(c);
                    values.put(c, v);
                    any |= v != 0;
                }
                if (any) {
                    s.counters(p).add(new CounterReading(null, values, "model"));
                }
            }
        }
        return s;
    }

    public String source() {
        return source;
    }

    public Fabric fabric() {
        return fabric;
    }

    /** Whether the nodes and links are known (false for a directory of host files only). */
    public boolean topologyKnown() {
        return topologyKnown;
    }

    public FabricState topologyKnown(boolean b) {
        topologyKnown = b;
        return this;
    }

    /** Whether port LIDs are real (live, or a dump taken after an SM ran). */
    public boolean lidsKnown() {
        return lidsKnown;
    }

    public FabricState lidsKnown(boolean b) {
        lidsKnown = b;
        return this;
    }

    /** Whether port states (Init/Active) are real. */
    public boolean portStatesKnown() {
        return portStatesKnown;
    }

    public FabricState portStatesKnown(boolean b) {
        portStatesKnown = b;
        return this;
    }

    /** Whether ports' SM LIDs are real (live PortInfo, ibstat). */
    public boolean smLidsKnown() {
        return smLidsKnown;
    }

    public FabricState smLidsKnown(boolean b) {
        smLidsKnown = b;
        return this;
    }

    /** Whether the ports' MTU caps in the model are real. */
    public boolean mtusKnown() {
        return mtusKnown;
    }

    public FabricState mtusKnown(boolean b) {
        mtusKnown = b;
        return this;
    }

    /** Whether the ports' P_Key tables in the model are real. */
    public boolean pkeysKnown() {
        return pkeysKnown;
    }

    public FabricState pkeysKnown(boolean b) {
        pkeysKnown = b;
        return this;
    }

    /** Whether the model's node firmware versions are real (a model), not filled in from the device catalog. */
    public boolean firmwareKnown() {
        return firmwareKnown;
    }

    public FabricState firmwareKnown(boolean b) {
        firmwareKnown = b;
        return this;
    }

    /** The subnet managers found, or null when nothing was said about SMs. */
    public List<SmInfo> sms() {
        return sms;
    }

    public FabricState sms(List<SmInfo> list) {
        sms = list == null ? null : new ArrayList<>(list);
        return this;
    }

    public void addSm(SmInfo sm) {
        if (sms == null) {
            sms = new ArrayList<>();
        }
        for (int i = 0; i < sms.size(); i++) {
            SmInfo o = sms.get(i);
            if (o.guid() == sm.guid()) {
                // keep the richer record: a known state beats an unknown one
                if (o.state() < 0 || sm.state() >= 0) {
                    sms.set(i, sm);
                }
                return;
            }
        }
        sms.add(sm);
    }

    /** Whether {@link #sms()} lists every SM (live, saquery), not only the master (sminfo). */
    public boolean smsComplete() {
        return smsComplete;
    }

    public FabricState smsComplete(boolean b) {
        smsComplete = b;
        return this;
    }

    public PartitionsConf partitions() {
        return partitions;
    }

    public FabricState partitions(PartitionsConf p) {
        partitions = p;
        return this;
    }

    /** Host facts by host name. */
    public Map<String, HostInfo> hosts() {
        return hosts;
    }

    /** The host's facts, created when absent. */
    public HostInfo host(String name) {
        return hosts.computeIfAbsent(name, HostInfo::new);
    }

    /** Counter readings by port name, in the order ports were first seen. */
    public Map<String, PortCounters> counters() {
        return counters;
    }

    /** The readings of a model port, created when absent. */
    public PortCounters counters(Port p) {
        return counters.computeIfAbsent(portName(p), w -> new PortCounters(w, p));
    }

    /** The readings of a port the topology does not know ("lid 8/1"). */
    public PortCounters counters(String where) {
        return counters.computeIfAbsent(where, w -> new PortCounters(w, null));
    }

    /** Unicast forwarding tables by switch: index LID, value egress port (0..254), -1 where unrouted. */
    public Map<Node, int[]> routes() {
        return routes;
    }

    /** Evidence of GUIDs seen on more than one device (live discovery, host files). */
    public List<String> duplicateGuids() {
        return duplicateGuids;
    }

    /** Files read (offline). */
    public List<String> read() {
        return read;
    }

    /** Files not recognised, with the reason (offline). */
    public List<String> ignored() {
        return ignored;
    }

    public Instant time() {
        return time;
    }

    public FabricState time(Instant t) {
        time = t;
        return this;
    }

    // ------------------------------------------------------------------------------------------------ names

    /** The name findings use for a node: {@link NodeNames} (the host name, told apart where it is not unique). */
    public String name(Node n) {
        if (names == null || !names.containsKey(n)) {
            names = NodeNames.of(fabric);
        }
        String s = names.get(n);
        return s == null ? n.name() : s;
    }

    /** "leaf02/33". */
    public String portName(Port p) {
        return name(p.node()) + "/" + p.number();
    }

    /** "leaf02/33 <-> spine01/17": the end nearer the hosts first. */
    public String linkName(Link l) {
        Port a = l.a();
        Port b = l.b();
        int ra = rank(a.node());
        int rb = rank(b.node());
        if (rb < ra || (rb == ra && portName(b).compareTo(portName(a)) < 0)) {
            Port t = a;
            a = b;
            b = t;
        }
        return portName(a) + " <-> " + portName(b);
    }

    /**
     * A node's tier: CAs and routers -1, switches by their distance in switch hops from the nearest switch with a
     * CA on it (0 for leaves, 1 for spines, 2 for cores); switches no CA reaches get Integer.MAX_VALUE.
     */
    public int rank(Node n) {
        if (ranks == null) {
            ranks = computeRanks();
        }
        if (!n.isSwitch()) {
            return -1;
        }
        Integer r = ranks.get(n);
        return r == null ? Integer.MAX_VALUE : r;
    }

    private Map<Node, Integer> computeRanks() {
        Map<Node, Integer> r = new IdentityHashMap<>();
        ArrayDeque<Node> queue = new ArrayDeque<>();
        for (Node n : fabric.switches()) {
            for (int i = 1; i <= n.numPorts(); i++) {
                Port peer = n.port(i).remote();
                if (peer != null && peer.node().type() != NodeType.SWITCH) {
                    r.put(n, 0);
                    queue.add(n);
                    break;
                }
            }
        }
        while (!queue.isEmpty()) {
            Node n = queue.poll();
            int next = r.get(n) + 1;
            for (int i = 1; i <= n.numPorts(); i++) {
                Port peer = n.port(i).remote();
                if (peer != null && peer.node().isSwitch() && !r.containsKey(peer.node())) {
                    r.put(peer.node(), next);
                    queue.add(peer.node());
                }
            }
        }
        return r;
    }

    /** Forgets cached names and tiers (after the fabric changed). */
    public void refresh() {
        names = null;
        ranks = null;
    }

    /** A short description: "65 nodes (5 switches, 60 CAs), 80 links". */
    public String shape() {
        if (!topologyKnown) {
            return hosts.size() + " host" + (hosts.size() == 1 ? "" : "s") + " (no topology)";
        }
        int sw = 0;
        int ca = 0;
        for (Node n : fabric.nodes()) {
            if (n.isSwitch()) {
                sw++;
            } else if (n.type() == NodeType.CA) {
                ca++;
            }
        }
        return fabric.size() + " nodes (" + sw + " switch" + (sw == 1 ? "" : "es") + ", " + ca + " CA"
                + (ca == 1 ? "" : "s") + "), " + fabric.links().size() + " link" + (fabric.links().size() == 1 ? ""
                : "s");
    }

    /** Read-only view of the hosts in name order. */
    public List<HostInfo> hostList() {
        return Collections.unmodifiableList(new ArrayList<>(hosts.values()));
    }
}
