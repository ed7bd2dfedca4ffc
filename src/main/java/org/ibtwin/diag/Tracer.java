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
