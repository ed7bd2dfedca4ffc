package org.ibtwin.diag;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@link NetDiscovery} found (or a cache file held), as libibnetdisc's fabric: nodes, their ports and links,
 * the node the scan started from, the hops it went, the SMPs it took.
 *
 * <p>Lists are in libibnetdisc's iteration order, which the real tools' output follows: newest node first (the
 * library prepends each node it creates to its lists).
 */
public final class NetFabric {
    private final List<NetNode> created = new ArrayList<>();
    private final Map<Long, NetNode> byGuid = new HashMap<>();
    private final Map<Long, NetPort> byPortGuid = new HashMap<>();
    private final Map<Integer, NetPort> byLid = new HashMap<>();
    private final List<Clash> clashes = new ArrayList<>();
    private final List<Rewire> rewires = new ArrayList<>();
    NetNode from;
    int fromPort;
    int maxHops;
    long smps;
    private long indexed;

    void add(NetNode n) {
        created.add(n);
        byGuid.put(n.guid(), n);
    }

    /** Records a port under its GUID and every LID of its range, first come first kept (as libibnetdisc's maps). */
    void index(NetPort p) {
        if (p.indexed < 0) {
            p.indexed = indexed++;
        }
        byPortGuid.putIfAbsent(p.guid, p);
        int base = p.baseLid;
        if (base > 0 && base <= 0xbfff) {
            for (int l = base; l <= base + (1 << p.lmc) - 1; l++) {
                byLid.putIfAbsent(l, p);
            }
        }
    }

    /** Every node, newest first. */
    public List<NetNode> nodes() {
        List<NetNode> l = new ArrayList<>(created);
        Collections.reverse(l);
        return l;
    }

    /** Every node in the order they were found (the starting node first). */
    public List<NetNode> nodesInDiscoveryOrder() {
        return Collections.unmodifiableList(created);
    }

    /** The nodes of one type (1 CA, 2 switch, 3 router), newest first. */
    public List<NetNode> nodes(int type) {
        List<NetNode> l = new ArrayList<>();
        for (int i = created.size() - 1; i >= 0; i--) {
            if (created.get(i).type() == type) {
                l.add(created.get(i));
            }
        }
        return l;
    }

    public List<NetNode> switches() {
        return nodes(NetNode.SWITCH);
    }

    public List<NetNode> cas() {
        return nodes(NetNode.CA);
    }

    public List<NetNode> routers() {
        return nodes(NetNode.ROUTER);
    }

    public int size() {
        return created.size();
    }

    public NetNode node(long guid) {
        return byGuid.get(guid);
    }

    public NetPort portByGuid(long guid) {
        return byPortGuid.get(guid);
    }

    public NetPort portByLid(int lid) {
        return byLid.get(lid);
    }

    /** The node the scan started from. */
    public NetNode from() {
        return from;
    }

    /** The port the scan started from (0 for a switch). */
    public int fromPort() {
        return fromPort;
    }

    /** The most hops the scan went from where it started (plus the hops to the start, for a partial scan). */
    public int maxHopsDiscovered() {
        return maxHops;
    }

    /** SMPs the scan sent. */
    public long smps() {
        return smps;
    }

    /** Links, each once, as (port, remote port): the end whose node GUID (then port number) is lower first. */
    public List<NetPort[]> links() {
        List<NetPort[]> out = new ArrayList<>();
        for (NetNode n : created) {
            for (NetPort p : n.ports) {
                if (p != null && p.remote != null && p.number() > 0 && first(p, p.remote)) {
                    out.add(new NetPort[] {p, p.remote});
                }
            }
        }
        return out;
    }

    private static boolean first(NetPort p, NetPort r) {
        int c = Long.compareUnsigned(p.node().guid(), r.node().guid());
        return c < 0 || (c == 0 && p.number() < r.number());
    }

    /**
     * A GUID that answered at {@code path}, reached out of {@code from}, as another device than the node first seen
     * with it (NodeInfo's type or port count differ): two devices share it. The walk linked them as one.
     */
    public record Clash(NetNode known, byte[] path, NetPort from) {
    }

    /**
     * Port {@code reached}, reached out of {@code from}, was cabled to {@code before} already: two devices share its
     * node's GUID. The walk keeps the newer link.
     */
    public record Rewire(NetPort reached, NetPort from, NetPort before) {
    }

    void clash(Clash c) {
        clashes.add(c);
    }

    void rewire(Rewire r) {
        rewires.add(r);
    }

    /** The GUIDs seen answering as two devices, in the order met. */
    public List<Clash> clashes() {
        return clashes;
    }

    /** The ports seen cabled to two neighbours, in the order met. */
    public List<Rewire> rewires() {
        return rewires;
    }
}
