package org.ibtwin.sm;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.Field;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.SmpAttributes;
import org.ibtwin.model.NodeType;
import org.ibtwin.transport.Smp;
import org.ibtwin.transport.SmpPipe;

/**
 * Discovery: a breadth-first walk of the subnet by directed-route SMPs from the SM's port, several in flight.
 * Each node newly reached answers NodeInfo, NodeDescription, then PortInfo for its ports (every port of a switch,
 * the port it was reached by for a CA or router) and, for a switch, SwitchInfo; every switch port whose link is up
 * (and not yet known from the other side) is probed with a NodeInfo one hop further. The result is an immutable
 * {@link Topology}.
 *
 * <p>Duplicate GUIDs: a NodeInfo naming a node already found, arriving where that node cannot be (another type or
 * port count, or a port whose link is already known to lead elsewhere, or a switch port that is down), is a second
 * node with the same GUID. It is left out of the topology (the port leading to it stays unlinked, so nothing is
 * routed there), and each duplicated GUID is reported once, with every place it was seen.
 *
 * <p>SMPs that fail (timeouts after the retries, error statuses) leave their part of the subnet undiscovered and are
 * counted; the first few are reported.
 */
final class Discovery {
    private static final Layout NI = SmpAttributes.NODE_INFO;
    private static final Field NI_TYPE = NI.field("NodeType");
    private static final Field NI_PORTS = NI.field("NumPorts");
    private static final Field NI_GUID = NI.field("Guid");
    private static final Field NI_PORT_GUID = NI.field("PortGuid");
    private static final Field NI_LOCAL_PORT = NI.field("LocalPort");
    private static final int MAX_FAILURES_REPORTED = 5;

    /** What discovery found besides the topology: problems worth a log line, and the SMPs it took. */
    record Result(Topology topology, List<String> duplicates, List<String> failures, long failedSmps, long smps) {
    }

    /** A node as discovery builds it. */
    private static final class Found {
        final int index;
        final long guid;
        final int type;
        final int ports;
        final byte[] path;
        final long[] portGuid;
        final int[] remoteNode;
        final int[] remotePort;
        final byte[][] portInfo;
        byte[] switchInfo;
        String description = "";

        Found(int index, long guid, int type, int ports, byte[] path) {
            this.index = index;
            this.guid = guid;
            this.type = type;
            this.ports = ports;
            this.path = path;
            this.portGuid = new long[ports + 1];
            this.remoteNode = new int[ports + 1];
            this.remotePort = new int[ports + 1];
            this.portInfo = new byte[ports + 1][];
            Arrays.fill(remoteNode, -1);
        }

        boolean isSwitch() {
            return type == NodeType.SWITCH.code();
        }
    }

    private final SmpPipe pipe;
    private final List<Found> nodes = new ArrayList<>();
    private final Map<Long, Found> byGuid = new HashMap<>();
    private final Map<Long, List<Sighting>> duplicateSightings = new LinkedHashMap<>();

    /** A second node with a known GUID: where it was, and why it cannot be the first. */
    private record Sighting(byte[] path, Found from, int fromPort, String why) {
    }
    private final List<String> failures = new ArrayList<>();
    private long failed;
    private int smPortNumber = -1;

    Discovery(SmpPipe pipe) {
        this.pipe = pipe;
    }

    /** Walks the subnet from the SM's port and freezes what it found. */
    Result run() {
        long before = pipe.sent();
        byte[] root = new byte[0];
        pipe.get(root, AttributeIds.NODE_INFO, 0, r -> {
            if (!r.ok()) {
                fail("NodeInfo of the SM's own node", r);
                return;
            }
            reached(null, 0, root, r.data());
        });
        pipe.drain();
        if (nodes.isEmpty()) {
            throw new SmException("discovery failed: the SM's own port does not answer NodeInfo ("
                    + (failures.isEmpty() ? "no answer" : failures.get(0)) + ")");
        }
        return new Result(freeze(), duplicateReports(), List.copyOf(failures), failed, pipe.sent() - before);
    }

    /** A NodeInfo came back from {@code path}, probed out of {@code from}'s port {@code fromPort}. */
    private void reached(Found from, int fromPort, byte[] path, byte[] ni) {
        long guid = NI_GUID.get(ni, 0);
        int type = (int) NI_TYPE.get(ni, 0);
        int ports = (int) NI_PORTS.get(ni, 0);
        int local = (int) NI_LOCAL_PORT.get(ni, 0);
        long portGuid = NI_PORT_GUID.get(ni, 0);
        boolean sw = type == NodeType.SWITCH.code();
        if (from == null) {
            smPortNumber = sw ? 0 : local;
        }
        if (local > ports || (!sw && local == 0)) {
            failures.add("node 0x" + Long.toHexString(guid) + " at " + Smp.pathString(path) + " answers from port "
                    + local + " of " + ports);
            return;
        }
        Found known = byGuid.get(guid);
        if (known != null) {
            String clash = clash(known, type, ports, local, portGuid, from, fromPort);
            if (clash != null) {
                duplicate(known, path, from, fromPort, clash);
                return;
            }
            link(from, fromPort, known, local);
            if (!known.isSwitch() && known.portInfo[local] == null && known.portGuid[local] == 0) {
                known.portGuid[local] = portGuid;
                getPortInfo(known, local, path);
            }
            return;
        }
        Found n = new Found(nodes.size(), guid, type, ports, path);
        nodes.add(n);
        byGuid.put(guid, n);
        link(from, fromPort, n, local);
        pipe.get(path, AttributeIds.NODE_DESC, 0, r -> {
            if (r.ok()) {
                n.description = Topology.text(r.data());
            } else {
                fail("NodeDescription at " + Smp.pathString(path), r);
            }
        });
        if (sw) {
            Arrays.fill(n.portGuid, portGuid);
            pipe.get(path, AttributeIds.SWITCH_INFO, 0, r -> {
                if (r.ok()) {
                    n.switchInfo = Arrays.copyOf(r.data(), 20);
                } else {
                    fail("SwitchInfo at " + Smp.pathString(path), r);
                }
            });
            for (int p = 0; p <= ports; p++) {
                getPortInfo(n, p, path);
            }
        } else {
            n.portGuid[local] = portGuid;
            getPortInfo(n, local, path);
        }
    }

    /** Why a NodeInfo for a known GUID cannot be the known node, or null when it can. */
    private static String clash(Found known, int type, int ports, int local, long portGuid, Found from, int fromPort) {
        if (known.type != type || known.ports != ports) {
            return "a " + NodeType.ofCode(type).description() + " with " + ports + " ports, where the first is a "
                    + NodeType.ofCode(known.type).description() + " with " + known.ports;
        }
        if (!known.isSwitch() && known.portGuid[local] != 0 && known.portGuid[local] != portGuid) {
            return "port " + local + " has GUID 0x" + Long.toHexString(portGuid) + ", the first's 0x"
                    + Long.toHexString(known.portGuid[local]);
        }
        if (known.remoteNode[local] >= 0 && from != null
                && (known.remoteNode[local] != from.index || known.remotePort[local] != fromPort)) {
            return "its port " + local + " is already known to be linked elsewhere";
        }
        byte[] pi = known.portInfo[local];
        if (known.isSwitch() && local > 0 && pi != null && Topology.PI_PHYS.get(pi, 0) != Topology.LINK_UP) {
            return "port " + local + " of the first is not linked";
        }
        return null;
    }

    private void duplicate(Found first, byte[] path, Found from, int fromPort, String why) {
        duplicateSightings.computeIfAbsent(first.guid, g -> new ArrayList<>()).add(new Sighting(path, from, fromPort,
                why));
    }

    /** One line per duplicated GUID, written once discovery is over (descriptions known by then). */
    private List<String> duplicateReports() {
        List<String> out = new ArrayList<>();
        for (Map.Entry<Long, List<Sighting>> e : duplicateSightings.entrySet()) {
            Found first = byGuid.get(e.getKey());
            List<String> others = new ArrayList<>();
            for (Sighting s : e.getValue()) {
                others.add("DR path " + Smp.pathString(s.path) + (s.from == null ? "" : " (port " + s.fromPort
                        + " of \"" + s.from.description + "\")") + ": " + s.why);
            }
            out.add(String.format("duplicate GUID 0x%016x: %d nodes answer with it; kept the first, \"%s\" at DR "
                    + "path %s; left out %s", e.getKey(), others.size() + 1, first.description,
                    Smp.pathString(first.path), String.join("; ", others)));
        }
        return out;
    }

    private void link(Found a, int pa, Found b, int pb) {
        if (a == null) {
            return;
        }
        a.remoteNode[pa] = b.index;
        a.remotePort[pa] = pb;
        b.remoteNode[pb] = a.index;
        b.remotePort[pb] = pa;
    }

    private void getPortInfo(Found n, int port, byte[] path) {
        pipe.get(path, AttributeIds.PORT_INFO, port, r -> {
            if (!r.ok()) {
                fail("PortInfo of port " + port + " at " + Smp.pathString(path), r);
                return;
            }
            byte[] pi = r.data();
            n.portInfo[port] = pi;
            boolean up = Topology.PI_PHYS.get(pi, 0) == Topology.LINK_UP;
            boolean relays = n.isSwitch() ? port > 0 : n.index == 0 && path.length == 0;
            if (up && relays && n.remoteNode[port] < 0 && path.length < Smp.MAX_HOPS) {
                byte[] next = Smp.append(path, port);
                pipe.get(next, AttributeIds.NODE_INFO, 0, ni -> {
                    if (ni.ok()) {
                        reached(n, port, next, ni.data());
                    } else {
                        fail("NodeInfo at " + Smp.pathString(next), ni);
                    }
                });
            }
        });
    }

    private void fail(String what, SmpPipe.Reply r) {
        failed++;
        if (failures.size() < MAX_FAILURES_REPORTED) {
            failures.add(what + ": " + r.why());
        }
    }

    private static boolean linkUp(byte[] portInfo, int g) {
        return Topology.PI_PHYS.get(portInfo, g * 64) == Topology.LINK_UP;
    }

    /** The arrays of a {@link Topology}: nodes in discovery order. */
    private Topology freeze() {
        int n = nodes.size();
        long[] guid = new long[n];
        byte[] type = new byte[n];
        int[] ports = new int[n];
        String[] desc = new String[n];
        byte[][] paths = new byte[n][];
        int[] base = new int[n];
        int slots = 0;
        int switches = 0;
        for (Found f : nodes) {
            guid[f.index] = f.guid;
            type[f.index] = (byte) f.type;
            ports[f.index] = f.ports;
            desc[f.index] = f.description;
            paths[f.index] = f.path;
            base[f.index] = slots;
            slots += f.ports + 1;
            switches += f.isSwitch() ? 1 : 0;
        }
        long[] portGuid = new long[slots];
        int[] remote = new int[slots];
        byte[] portInfo = new byte[slots * 64];
        boolean[] has = new boolean[slots];
        byte[] switchInfo = new byte[switches * 20];
        Arrays.fill(remote, -1);
        int s = 0;
        for (Found f : nodes) {
            for (int p = 0; p <= f.ports; p++) {
                int g = base[f.index] + p;
                portGuid[g] = f.portGuid[p];
                if (f.portInfo[p] != null) {
                    System.arraycopy(f.portInfo[p], 0, portInfo, g * 64, 64);
                    has[g] = true;
                }
                if (f.remoteNode[p] >= 0) {
                    remote[g] = base[f.remoteNode[p]] + f.remotePort[p];
                }
            }
            if (f.isSwitch()) {
                if (f.switchInfo != null) {
                    System.arraycopy(f.switchInfo, 0, switchInfo, s * 20, 20);
                }
                s++;
            }
        }
        // a link counts only when both ends answered PortInfo and are up
        for (int g = 0; g < slots; g++) {
            int r = remote[g];
            if (r >= 0 && (!has[g] || !has[r] || remote[r] != g || !linkUp(portInfo, g) || !linkUp(portInfo, r))) {
                remote[g] = -1;
                if (remote[r] == g) {
                    remote[r] = -1;
                }
            }
        }
        return new Topology(guid, type, ports, desc, paths, portGuid, remote, portInfo, has, switchInfo,
                base[0] + Math.max(0, smPortNumber));
    }
}
