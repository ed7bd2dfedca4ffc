package org.ibtwin.diag;

import java.time.Duration;
import java.util.Arrays;
import java.util.function.Consumer;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.PortId;
import org.ibtwin.mad.SmpAttributes;

/**
 * ibtracert's unicast trace: from where we are, a directed route to the source port (following the forwarding
 * tables from our own node), then from the source hop by hop along each switch's LinearForwardingTable entry for the
 * destination LID, each node read by directed route (NodeInfo, NodeDescription, PortInfo of the port entered), as
 * infiniband-diags' ibtracert prints it ("From ca {guid} portnum 1 lid 2-2 \"desc\"", "[1] -> switch port {guid}[3]
 * lid 1-1 \"desc\"", "To ...") and with its warnings when the route breaks.
 */
public final class Tracer {
    /** ibtracert's MAXHOPS. */
    public static final int MAX_HOPS = 63;
    private static final String[] TYPES = {"???", "ca", "switch", "router", "iwarp rnic"};

    private final MadQuery q;
    private final Duration timeout;
    private final boolean force;
    private final Consumer<String> warn;

    /**
     * @param timeout each query's timeout (-t), null for libibmad's default
     * @param force   -f: a port with the destination's LID counts as the destination
     * @param warn    IBWARN lines ("function: text")
     */
    public Tracer(MadQuery q, Duration timeout, boolean force, Consumer<String> warn) {
        this.q = q;
        this.timeout = timeout;
        this.force = force;
        this.warn = warn;
    }

    private java.util.function.BiFunction<Long, String, String> names = (guid, desc) -> desc;

    /** How a node is named, from its GUID and description (the node name map's name, else the description). */
    public Tracer names(java.util.function.BiFunction<Long, String, String> byGuid) {
        this.names = byGuid;
        return this;
    }

    /** A node as get_node reads it, with the port the query entered it by. */
    private static final class Hop {
        int type;
        int numPorts;
        long nodeGuid;
        String desc = "";
        long portGuid;
        int portnum;
        int lid;
        int lmc;
        int state;
    }

    /** get_node: null when a query fails. */
    private Hop node(PortId at) {
        Duration saved = q.timeout();
        if (timeout != null) {
            q.timeout(timeout);
        }
        try {
            byte[] ni = q.smpGet(at, AttributeIds.NODE_INFO, 0);
            byte[] nd = q.smpGet(at, AttributeIds.NODE_DESC, 0);
            byte[] pi = q.smpGet(at, AttributeIds.PORT_INFO, 0);
            Hop h = new Hop();
            h.nodeGuid = SmpAttributes.NODE_INFO.get(ni, 0, "Guid");
            h.desc = names.apply(h.nodeGuid, RouteDump.desc(nd));
            h.type = (int) SmpAttributes.NODE_INFO.get(ni, 0, "NodeType");
            h.numPorts = (int) SmpAttributes.NODE_INFO.get(ni, 0, "NumPorts");
            h.portGuid = SmpAttributes.NODE_INFO.get(ni, 0, "PortGuid");
            h.portnum = (int) SmpAttributes.NODE_INFO.get(ni, 0, "LocalPort");
            h.lid = (int) SmpAttributes.PORT_INFO.get(pi, 0, "Lid");
            h.lmc = (int) SmpAttributes.PORT_INFO.get(pi, 0, "LMC");
            h.state = (int) SmpAttributes.PORT_INFO.get(pi, 0, "LinkState");
            return h;
        } catch (QueryException e) {
            if (e.alwaysWarned()) {
                warn.accept(e.warning());
            }
            return null;
        } finally {
            q.timeout(saved);
        }
    }

    /** switch_lookup's result: the out port (-1: none) and what it read. */
    private static final class Lookup {
        int outport = -1;
        int top;
        boolean enhanced;
    }

    private Lookup lookup(PortId at, int lid, Lookup sw) {
        Duration saved = q.timeout();
        if (timeout != null) {
            q.timeout(timeout);
        }
        try {
            byte[] si = q.smpGet(at, AttributeIds.SWITCH_INFO, 0);
            int cap = (int) SmpAttributes.SWITCH_INFO.get(si, 0, "LinearFdbCap");
            sw.top = (int) SmpAttributes.SWITCH_INFO.get(si, 0, "LinearFdbTop");
            sw.enhanced = SmpAttributes.SWITCH_INFO.get(si, 0, "EnhancedPort0") == 1;
            if (lid >= cap && lid > sw.top) {
                sw.outport = -1;
                return sw;
            }
            byte[] lft = q.smpGet(at, AttributeIds.LINEAR_FWD_TABLE, lid / 64);
            sw.outport = lft[lid % 64] & 0xff;
        } catch (QueryException e) {
            if (e.alwaysWarned()) {
                warn.accept(e.warning());
            }
            sw.outport = -1;
        } finally {
            q.timeout(saved);
        }
        return sw;
    }

    private boolean samePort(Hop a, Hop b) {
        return a.portGuid == b.portGuid || (force && a.lid == b.lid);
    }

    private static boolean inactive(Hop node, Lookup sw) {
        return node.state != 4 && (node.type != 2 || sw.enhanced);
    }

    private static String type(int t) {
        return t >= 0 && t < TYPES.length ? TYPES[t] : "???";
    }

    /**
     * The route from {@code from} (a directed route, extended in place as find_route does: on success it leads to
     * where the walk ended) to LID {@code toLid}. {@code dump}: 0 prints nothing, 1 the simple format (-n), 2 the
     * full one. Returns false after the warning when the route breaks.
     */
    public boolean route(int[][] from, int toLid, int dump, StringBuilder out) {
        int[] path = from[0];
        Hop fromNode = node(PortId.directed(path));
        Hop to = node(PortId.lid(toLid));
        if (fromNode == null || to == null) {
            warn.accept("find_route: can't reach to/from ports");
            if (!force) {
                return false;
            }
            if (to == null) {
                to = new Hop();
            }
            if (toLid > 0) {
                to.lid = toLid;
            }
            warn.accept("find_route: Force: look for lid " + toLid);
            if (fromNode == null) {
                fromNode = new Hop();
            }
        }
        Hop node = fromNode;
        Hop port = fromNode;
        int portnum = port.portnum;
        endNode(dump, "From", node, port, out);
        Lookup sw = new Lookup();
        int outport = 255;
        int nextOut = 255;
        if (node.type == 2) {
            nextOut = lookup(PortId.directed(path), toLid, sw).outport;
            if (nextOut < 0 || nextOut > node.numPorts) {
                return badTable(node, toLid, nextOut, sw);
            }
        }
        int maxhops = MAX_HOPS;
        while (maxhops-- > 0) {
            if (inactive(port, sw)) {
                warn.accept("find_route: Bad port state found: node \"" + node.desc + "\" port " + portnum
                        + " state " + port.state);
                return false;
            }
            if (samePort(port, to)) {
                break;
            }
            Hop next;
            if (node.type == 2) {
                outport = nextOut;
                if (path.length - 1 + 2 >= 64) {
                    warn.accept("find_route: Direct path too long!");
                    return false;
                }
                path = extend(path, outport);
                next = node(PortId.directed(path));
                if (next == null) {
                    warn.accept("find_route: can't reach port at " + PortId.directed(path));
                    return false;
                }
                if (outport == 0) {
                    if (!samePort(next, to)) {
                        return badTable(node, toLid, outport, sw);
                    }
                    break;
                }
            } else {
                outport = portnum;
                if (!samePort(port, fromNode)) {
                    warn.accept(String.format("find_route: can't continue: reached CA or router port %x, lid %d",
                            port.portGuid, port.lid));
                    return false;
                }
                boolean caSrc = false;
                int backPort = 0;
                if (path.length > 1) {
                    backPort = path[path.length - 1];
                    path = Arrays.copyOf(path, path.length - 1);
                } else {
                    caSrc = true;
                    if (portnum != 0) {
                        path = extend(path, portnum);
                    }
                }
                next = node(PortId.directed(path));
                if (next == null) {
                    warn.accept("find_route: can't reach port at " + PortId.directed(path));
                    return false;
                }
                if (!caSrc) {
                    next.portnum = backPort;
                }
            }
            if (next.type == 2) {
                nextOut = lookup(PortId.directed(path), toLid, sw).outport;
                if (nextOut < 0 || nextOut > next.numPorts) {
                    return badTable(next, toLid, nextOut, sw);
                }
            }
            port = next;
            if (inactive(port, sw)) {
                warn.accept("find_route: Bad out port state found: node \"" + next.desc + "\" outport " + outport
                        + " state " + port.state);
                return false;
            }
            node = next;
            portnum = port.portnum;
            if (dump == 1) {
                out.append(String.format("[%d] -> {0x%016x}[%d]%n", outport, port.portGuid, port.portnum));
            } else if (dump == 2) {
                out.append(String.format("[%d] -> %s port {0x%016x}[%d] lid %d-%d \"%s\"%n", outport,
                        type(node.type), port.portGuid, port.portnum, port.lid, port.lid + (1 << port.lmc) - 1,
                        node.desc));
            }
        }
        if (maxhops <= 0) {
            warn.accept("find_route: no route found after " + MAX_HOPS + " hops");
            return false;
        }
        endNode(dump, "To", node, port, out);
        from[0] = path;
        return true;
    }

    /** The first multicast LID. */
    public static final int MLID_BASE = 0xc000;

    /** One node the multicast walk reached: how, and from where. */
    private record Reached(Hop hop, int[] path, int parent, int outport) {
    }

    /**
     * ibtracert -m: the multicast route of {@code mlid} from the port at the end of directed route {@code from[0]}
     * (found by {@link #route} with dump 0) to LID {@code toLid}. From the source (a CA steps to the switch it is
     * linked to), breadth first through every switch's MulticastForwardingTable entry for the MLID (each switch
     * once; the port a walk came in by is not left out, as ibtracert does not), until the destination's port is reached; printed as ibtracert prints it
     * ("From ca 0x... port 1 lid 6-6 \"desc\"", "[1] -> switch 0x...[2] lid 1 \"desc\"", "To ..."; -n: the hops as
     * "[1] -> switch {0x...}[2]"). False after the warnings when there is none.
     */
    public boolean multicast(int[][] from, int mlid, int toLid, int dump, StringBuilder out) {
        if (mlid < MLID_BASE) {
            warn.accept("get_route: invalid MLID; must be 0xc000 or larger");
            return false;
        }
        Hop to = node(PortId.lid(toLid));
        if (to == null) {
            warn.accept("find_target_portguid: can't find to port\n");
            return false;
        }
        int[] path = from[0];
        Hop src = node(PortId.directed(path));
        if (src == null) {
            warn.accept("find_mcpath: can't reach node " + PortId.directed(path));
            return false;
        }
        java.util.List<Reached> seen = new java.util.ArrayList<>();
        java.util.Set<Long> switches = new java.util.HashSet<>();
        seen.add(new Reached(src, path, -1, 0));
        java.util.ArrayDeque<Integer> queue = new java.util.ArrayDeque<>();
        int found = -1;
        if (src.type == 2) {
            switches.add(src.nodeGuid);
            queue.add(0);
            if (reachedTo(src, to)) {
                found = 0;
            }
        } else {
            if (src.portGuid == to.portGuid) {
                warn.accept("find_mcpath: ibtracert from CA to CA is unsupported");
                return false;
            }
            int back = 0;
            int[] sw;
            if (path.length > 1) {
                back = path[path.length - 1];
                sw = Arrays.copyOf(path, path.length - 1);
            } else {
                sw = extend(path, src.portnum);
            }
            Hop s = node(PortId.directed(sw));
            if (s == null || s.type != 2) {
                warn.accept(s == null ? "find_mcpath: can't reach port at " + PortId.directed(sw)
                        : "find_mcpath: ibtracert from CA to CA is unsupported");
                return false;
            }
            if (path.length > 1) {
                s.portnum = back;
            }
            seen.add(new Reached(s, sw, 0, src.portnum));
            switches.add(s.nodeGuid);
            queue.add(1);
            if (reachedTo(s, to)) {
                found = 1;
            }
        }
        while (found < 0 && !queue.isEmpty()) {
            int at = queue.poll();
            Reached r = seen.get(at);
            boolean[] ports = mftPorts(r.path(), r.hop().numPorts, mlid);
            for (int p = 1; p < ports.length && found < 0; p++) {
                if (!ports[p]) {
                    continue;
                }
                if (r.path().length - 1 + 2 >= 64) {
                    warn.accept("find_mcpath: Direct path too long!");
                    return false;
                }
                int[] next = extend(r.path(), p);
                Hop h = node(PortId.directed(next));
                if (h == null || (h.type == 2 && !switches.add(h.nodeGuid))) {
                    continue;
                }
                seen.add(new Reached(h, next, at, p));
                if (reachedTo(h, to)) {
                    found = seen.size() - 1;
                } else if (h.type == 2) {
                    queue.add(seen.size() - 1);
                }
            }
        }
        if (found < 0) {
            return false;
        }
        java.util.ArrayList<Reached> chain = new java.util.ArrayList<>();
        for (int k = found; k >= 0; k = seen.get(k).parent()) {
            chain.add(0, seen.get(k));
        }
        Hop first = chain.get(0).hop();
        out.append(String.format("From %s 0x%x port %d lid %d-%d \"%s\"%n", type(first.type), first.nodeGuid,
                first.portnum, first.lid, first.lid + (1 << first.lmc) - 1, first.desc));
        for (int k = 1; k < chain.size(); k++) {
            Hop h = chain.get(k).hop();
            int outport = chain.get(k).outport();
            if (dump == 1) {
                out.append(String.format("[%d] -> %s {0x%016x}[%d]%n", outport, type(h.type), h.nodeGuid,
                        h.portnum));
            } else {
                out.append(String.format("[%d] -> %s 0x%x[%d] lid %d \"%s\"%n", outport, type(h.type), h.nodeGuid,
                        h.portnum, h.lid, h.desc));
            }
        }
        Hop last = chain.get(chain.size() - 1).hop();
        out.append(String.format("To %s 0x%x port %d lid %d-%d \"%s\"%n", type(last.type), last.nodeGuid,
                last.portnum, last.lid, last.lid + (1 << last.lmc) - 1, last.desc));
        from[0] = chain.get(chain.size() - 1).path();
        return true;
    }

    /** Whether the walk reached the destination: its switch, or its CA port. */
    private static boolean reachedTo(Hop h, Hop to) {
        return h.type == 2 ? h.nodeGuid == to.nodeGuid : h.portGuid == to.portGuid;
    }

    /** The ports the switch at {@code path} sends {@code mlid} out of, from its MFT (index = port). */
    private boolean[] mftPorts(int[] path, int numPorts, int mlid) {
        boolean[] ports = new boolean[numPorts + 1];
        int index = mlid - MLID_BASE;
        Duration saved = q.timeout();
        if (timeout != null) {
            q.timeout(timeout);
        }
        try {
            for (int position = 0; position <= numPorts / 16; position++) {
                byte[] b = q.smpGet(PortId.directed(path), AttributeIds.MCAST_FWD_TABLE,
                        ((long) position << 28) | (index / 32));
                int mask = ((b[2 * (index % 32)] & 0xff) << 8) | (b[2 * (index % 32) + 1] & 0xff);
                for (int bit = 0; bit < 16 && position * 16 + bit <= numPorts; bit++) {
                    ports[position * 16 + bit] = (mask & (1 << bit)) != 0;
                }
            }
        } catch (QueryException e) {
            if (e.alwaysWarned()) {
                warn.accept(e.warning());
            }
        } finally {
            q.timeout(saved);
        }
        return ports;
    }

    private boolean badTable(Hop node, int lid, int outport, Lookup sw) {
        warn.accept("find_route: Bad forwarding table entry found at: node \"" + node.desc + "\" lid entry " + lid
                + " is " + outport + " (top " + sw.top + ")");
        return false;
    }

    private static int[] extend(int[] path, int port) {
        int[] p = Arrays.copyOf(path, path.length + 1);
        p[path.length] = port & 0xff;
        return p;
    }

    private static void endNode(int dump, String prompt, Hop node, Hop port, StringBuilder out) {
        if (dump == 0) {
            return;
        }
        int pn = node.type == 2 ? 0 : port.portnum;
        if (dump == 1) {
            out.append(String.format("%s {0x%016x}[%d]%n", prompt, node.nodeGuid, pn));
            return;
        }
        out.append(String.format("%s %s {0x%016x} portnum %d lid %d-%d \"%s\"%n", prompt, type(node.type),
                node.nodeGuid, pn, port.lid, port.lid + (1 << port.lmc) - 1, node.desc));
    }
}
