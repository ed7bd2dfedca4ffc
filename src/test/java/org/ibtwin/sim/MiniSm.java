package org.ibtwin.sim;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.MadStatus;
import org.ibtwin.mad.Methods;
import org.ibtwin.mad.SmpAttributes;
import org.ibtwin.transport.MadAddress;
import org.ibtwin.transport.MadTransport;
import org.ibtwin.transport.MadTransportException;

/**
 * A subnet manager in miniature, for tests: it knows the fabric only through SMPs over a {@link MadTransport} (it
 * uses nothing of {@code sim}, so it runs as well over ibsim). It discovers by a directed-route BFS, gives every CA
 * port and every switch a LID, programs min-hop LFTs and moves every linked port to Active.
 */
final class MiniSm {
    static final Layout NI = SmpAttributes.NODE_INFO;
    static final Layout PI = SmpAttributes.PORT_INFO;
    static final Layout SI = SmpAttributes.SWITCH_INFO;
    private static final Duration TIMEOUT = Duration.ofMillis(200);

    /** A node as discovery found it: reached by {@code path} (egress ports), entered at {@code entryPort}. */
    static final class Found {
        final long guid;
        final int type;
        final int ports;
        final int[] path;
        final int entryPort;
        int lid;

        Found(long guid, int type, int ports, int[] path, int entryPort) {
            this.guid = guid;
            this.type = type;
            this.ports = ports;
            this.path = path;
            this.entryPort = entryPort;
        }

        boolean isSwitch() {
            return type == 2;
        }

        /** The port that carries the node's LID: port 0 of a switch, the entry port of a CA. */
        int lidPort() {
            return isSwitch() ? 0 : entryPort;
        }
    }

    /** One link, each end a node GUID and port. */
    record FoundLink(long guidA, int portA, long guidB, int portB) {
    }

    private final MadTransport t;
    final Map<Long, Found> nodes = new LinkedHashMap<>();
    final List<FoundLink> links = new ArrayList<>();
    /** Per switch GUID: port -> neighbour GUID. */
    private final Map<Long, Map<Integer, Long>> neighbours = new HashMap<>();
    private int smLid;
    long mads;

    MiniSm(MadTransport t) {
        this.t = t;
    }

    byte[] call(byte[] mad) {
        mads++;
        return t.call(mad, MadAddress.directed(), TIMEOUT, 1);
    }

    /** A DR Get; the response, or null when it timed out. */
    byte[] get(int attr, long mod, int... path) {
        try {
            byte[] r = call(Smps.drGet(t.nextTid(), attr, mod, path));
            return Smps.status(r) == MadStatus.OK ? r : null;
        } catch (MadTransportException e) {
            return null;
        }
    }

    byte[] set(int attr, long mod, byte[] data, int... path) {
        byte[] r = call(Smps.drSet(t.nextTid(), attr, mod, data, path));
        if (Smps.status(r) != MadStatus.OK) {
            throw new IllegalStateException("Set 0x" + Integer.toHexString(attr) + " mod " + mod + " at "
                    + Arrays.toString(path) + ": " + MadStatus.describe(Smps.status(r)));
        }
        return r;
    }

    static int[] append(int[] path, int port) {
        int[] p = Arrays.copyOf(path, path.length + 1);
        p[path.length] = port;
        return p;
    }

    /** Directed-route BFS from the local port. */
    MiniSm discover() {
        byte[] r = get(AttributeIds.NODE_INFO, 0);
        Found local = found(r, new int[0]);
        nodes.put(local.guid, local);
        ArrayDeque<Found> queue = new ArrayDeque<>();
        queue.add(local);
        while (!queue.isEmpty()) {
            Found n = queue.poll();
            int from = n.isSwitch() ? 1 : n.entryPort;
            int to = n.isSwitch() ? n.ports : n.entryPort;
            if (!n.isSwitch() && n != local) {
                continue;   // CAs do not relay
            }
            for (int port = from; port <= to; port++) {
                byte[] pi = get(AttributeIds.PORT_INFO, n.isSwitch() ? port : 0, n.path);
                if (pi == null || PI.get(pi, Smps.DATA, "PhysLinkState") != 5) {
                    continue;
                }
                int[] path = append(n.path, port);
                byte[] ni = get(AttributeIds.NODE_INFO, 0, path);
                if (ni == null) {
                    continue;
                }
                Found m = found(ni, path);
                if (n.isSwitch()) {
                    neighbours.computeIfAbsent(n.guid, k -> new HashMap<>()).put(port, m.guid);
                }
                Found known = nodes.get(m.guid);
                if (known == null) {
                    nodes.put(m.guid, m);
                    queue.add(m);
                    known = m;
                }
                if (known.isSwitch()) {
                    neighbours.computeIfAbsent(known.guid, k -> new HashMap<>()).put(m.entryPort, n.guid);
                }
                FoundLink l = n.guid < m.guid || (n.guid == m.guid && port < m.entryPort)
                        ? new FoundLink(n.guid, port, m.guid, m.entryPort)
                        : new FoundLink(m.guid, m.entryPort, n.guid, port);
                if (!links.contains(l)) {
                    links.add(l);
                }
            }
        }
        return this;
    }

    private static Found found(byte[] r, int[] path) {
        int d = Smps.DATA;
        return new Found(NI.get(r, d, "Guid"), (int) NI.get(r, d, "NodeType"), (int) NI.get(r, d, "NumPorts"),
                path, (int) NI.get(r, d, "LocalPort"));
    }

    /** LIDs 1.. in discovery order; the local node is the SM, its LID the SM LID. */
    MiniSm assignLids() {
        int next = 1;
        for (Found n : nodes.values()) {
            n.lid = next++;
        }
        smLid = nodes.values().iterator().next().lid;
        for (Found n : nodes.values()) {
            setPortInfo(n, n.lidPort(), pi -> {
                PI.set(pi, 0, "Lid", n.lid);
                PI.set(pi, 0, "SMLid", smLid);
            });
        }
        return this;
    }

    interface Edit {
        void apply(byte[] portInfo);
    }

    /** Get PortInfo, edit it, Set it back with no state change asked for. */
    void setPortInfo(Found n, int port, Edit edit) {
        long mod = n.isSwitch() ? port : 0;
        byte[] r = get(AttributeIds.PORT_INFO, mod, n.path);
        if (r == null) {
            throw new IllegalStateException("no PortInfo from " + Long.toHexString(n.guid));
        }
        byte[] pi = Arrays.copyOfRange(r, Smps.DATA, Smps.DATA + 64);
        PI.set(pi, 0, "LinkState", 0);
        PI.set(pi, 0, "PhysLinkState", 0);
        edit.apply(pi);
        set(AttributeIds.PORT_INFO, mod, pi, n.path);
    }

    /** Min-hop LFTs on every switch (the lowest-numbered port among equals), LinearFDBTop = the top LID. */
    MiniSm route() {
        List<Found> switches = nodes.values().stream().filter(Found::isSwitch).toList();
        int top = nodes.values().stream().mapToInt(n -> n.lid).max().orElse(0);
        for (Found s : switches) {
            Map<Long, Integer> firstPort = new HashMap<>();   // destination switch guid -> egress port from s
            ArrayDeque<Long> q = new ArrayDeque<>();
            firstPort.put(s.guid, 0);
            q.add(s.guid);
            // BFS over switches, remembering the egress port of the first hop
            while (!q.isEmpty()) {
                long u = q.poll();
                Map<Integer, Long> nb = neighbours.getOrDefault(u, Map.of());
                for (int p = 1; p <= nodes.get(u).ports; p++) {
                    Long v = nb.get(p);
                    if (v == null || !nodes.get(v).isSwitch() || firstPort.containsKey(v)) {
                        continue;
                    }
                    firstPort.put(v, u == s.guid ? p : firstPort.get(u));
                    q.add(v);
                }
            }
            byte[] lft = new byte[(top / 64 + 1) * 64];
            Arrays.fill(lft, (byte) 0xff);
            for (Found d : nodes.values()) {
                Integer out;
                if (d.isSwitch()) {
                    out = firstPort.get(d.guid);
                } else {
                    out = null;
                    for (FoundLink l : links) {
                        long sw = l.guidA() == d.guid ? l.guidB() : l.guidB() == d.guid ? l.guidA() : 0;
                        int swPort = l.guidA() == d.guid ? l.portB() : l.portA();
                        if (sw != 0 && nodes.get(sw).isSwitch()) {
                            out = sw == s.guid ? Integer.valueOf(swPort) : firstPort.get(sw);
                            break;
                        }
                    }
                }
                if (out != null) {
                    lft[d.lid] = (byte) (int) out;
                }
            }
            for (int block = 0; block * 64 <= top; block++) {
                set(AttributeIds.LINEAR_FWD_TABLE, block, Arrays.copyOfRange(lft, block * 64, block * 64 + 64),
                        s.path);
            }
            byte[] si = get(AttributeIds.SWITCH_INFO, 0, s.path);
            byte[] data = Arrays.copyOfRange(si, Smps.DATA, Smps.DATA + 64);
            SI.set(data, 0, "LinearFdbTop", top);
            set(AttributeIds.SWITCH_INFO, 0, data, s.path);
        }
        return this;
    }

    /** Every linked port Armed, then Active. */
    MiniSm activate() {
        for (int state : new int[] {3, 4}) {
            for (FoundLink l : links) {
                setState(nodes.get(l.guidA()), l.portA(), state);
                setState(nodes.get(l.guidB()), l.portB(), state);
            }
        }
        return this;
    }

    private void setState(Found n, int port, int state) {
        setPortInfo(n, port, pi -> PI.set(pi, 0, "LinkState", state));
    }

    MiniSm bringUp() {
        return discover().assignLids().route().activate();
    }

    /** A LID-routed NodeInfo Get to {@code lid}: the node GUID that answers, or null when nothing does. */
    Long nodeGuidAt(int lid) {
        try {
            mads++;
            byte[] r = t.call(Smps.lid(t.nextTid(), Methods.GET, AttributeIds.NODE_INFO, 0), MadAddress.smp(lid),
                    TIMEOUT, 0);
            return NI.get(r, Smps.DATA, "Guid");
        } catch (MadTransportException e) {
            return null;
        }
    }

    int smLid() {
        return smLid;
    }
}
