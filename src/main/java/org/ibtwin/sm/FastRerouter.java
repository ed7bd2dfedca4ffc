package org.ibtwin.sm;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.sm.routing.Lfts;
import org.ibtwin.sm.routing.Reroute;
import org.ibtwin.sm.routing.RoutingEngines;
import org.ibtwin.sm.routing.SwitchGraph;
import org.ibtwin.transport.Smp;
import org.ibtwin.transport.SmpPipe;

/**
 * The fast re-route, between a failure and the heavy sweep that settles it: the switches that signalled a port
 * state change (trap 128, or a light sweep's SwitchInfo) have the PortInfo of their inter-switch ports read; the
 * links no longer Active come out of the last sweep's switch graph; the destinations whose routes crossed them are
 * routed again by the engine in use, in part ({@link Reroute}), or in full over the smaller graph where the engine
 * cannot keep its guarantees in part (logged, with why); and the {@link LftWriter} writes only the blocks that
 * changed, along directed routes that avoid the lost links. No discovery, no LID change: the heavy sweep after it
 * sees the subnet whole again.
 */
final class FastRerouter {

    /**
     * What one fast re-route did.
     *
     * @param lostLinks     the links found down, "leaf01/17 <-> spine02/3"
     * @param engine        the engine that re-routed
     * @param partial       routed in part (false: in full, {@code why})
     * @param why           why in full (null when in part)
     * @param destinations  LIDs re-routed (in full: every LID)
     * @param blocksWritten LFT blocks written
     * @param switches      switches written to (reachable)
     * @param nanos         from the first signal (trap or light sweep) to the last LFT block written
     * @param failures      SMPs that failed, one line each
     */
    record Result(List<String> lostLinks, String engine, boolean partial, String why, int destinations,
                  long blocksWritten, int switches, long nanos, List<String> failures) {
        String line() {
            return String.format(Locale.ROOT, "Fast re-route: %d link%s down (%s%s): %s %s, %,d LIDs re-routed, "
                            + "%,d LFT blocks written on %,d switches; %.1f ms from the trap to the last LFT block",
                    lostLinks.size(), lostLinks.size() == 1 ? "" : "s", String.join(", ", lostLinks.subList(0,
                            Math.min(4, lostLinks.size()))), lostLinks.size() > 4 ? ", ..." : "", engine,
                    partial ? "in part" : "in full (" + why + ")", destinations, blocksWritten, switches, nanos / 1e6);
        }
    }

    /** The graph and tables after a fast re-route, for the next one to start from, and what it did. */
    record Outcome(SwitchGraph graph, Lfts lfts, Result result) {
    }

    private FastRerouter() {
    }

    /**
     * Re-routes around the links of {@code signalled} (switch numbers of {@code t}) found down; null when none is
     * (nothing to do before the heavy sweep).
     */
    static Outcome run(Topology t, SwitchGraph g, Lfts lfts, String engine, Reroute reroute, RoutingStage routing,
                       LftWriter writer, SmpPipe pipe, Set<Integer> signalled, long since) {
        boolean[][] down = new boolean[g.switches()][];
        List<String> lost = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        Set<String> names = new TreeSet<>();
        for (int s : signalled) {
            if (s < 0 || s >= g.switches()) {
                continue;
            }
            int node = t.switchNode(s);
            byte[] path = t.path(node);
            for (int p = 1; p <= g.numPorts(s); p++) {
                if (g.neighbour(s, p) < 0) {
                    continue;
                }
                final int port = p;
                final int sw = s;
                pipe.get(path, AttributeIds.PORT_INFO, p, r -> {
                    if (!r.ok()) {
                        if (failures.size() < 10) {
                            failures.add("PortInfo of " + t.shortName(node) + "/" + port + ": " + r.why());
                        }
                        return;
                    }
                    if (Topology.PI_STATE.get(r.data(), 0) != Topology.ACTIVE) {
                        mark(down, g, sw, port);
                    }
                });
            }
        }
        pipe.drain();
        for (int s = 0; s < g.switches(); s++) {
            for (int p = 1; down[s] != null && p <= g.numPorts(s); p++) {
                int y = g.neighbour(s, p);
                int q = g.neighbourPort(s, p);
                if (down[s][p] && (y > s || (y == s && q > p))) {
                    String a = g.name(s) + "/" + p;
                    String b = g.name(y) + "/" + q;
                    names.add(a.compareTo(b) <= 0 ? a + " <-> " + b : b + " <-> " + a);
                }
            }
        }
        lost.addAll(names);
        if (lost.isEmpty()) {
            return null;
        }
        SwitchGraph after = g.without((s, p) -> down[s] != null && down[s][p], s -> false);
        Reroute.Outcome o = reroute == null ? new Reroute.Full("no tables to re-route in part")
                : reroute.over(g, lfts).after(after);
        Lfts next;
        String by = engine;
        int destinations;
        String why = null;
        if (o instanceof Reroute.Partial p) {
            next = p.delta().apply();
            destinations = p.delta().lids().length;
        } else {
            why = ((Reroute.Full) o).why();
            RoutingEngines.Chain.Result r = routing.route(after);
            next = r.lfts();
            by = r.engine();
            destinations = after.top();
        }
        byte[][] paths = paths(t, after);
        LftWriter.Result w = writer.write(t, next, pipe, s -> paths[s]);
        long nanos = System.nanoTime() - since;
        failures.addAll(w.failures());
        return new Outcome(after, next, new Result(lost, by, why == null, why, destinations, w.blocksWritten(),
                w.switches(), nanos, failures));
    }

    private static void mark(boolean[][] down, SwitchGraph g, int s, int p) {
        synchronized (down) {
            for (int[] end : new int[][] {{s, p}, {g.neighbour(s, p), g.neighbourPort(s, p)}}) {
                if (down[end[0]] == null) {
                    down[end[0]] = new boolean[g.numPorts(end[0]) + 1];
                }
                down[end[0]][end[1]] = true;
            }
        }
    }

    /**
     * A directed route to every switch over {@code after}: the last discovery's where it crosses no lost link, else
     * a shortest one from the SM's own switch; null for a switch the SM no longer reaches.
     */
    static byte[][] paths(Topology t, SwitchGraph after) {
        int n = t.switchCount();
        byte[][] out = new byte[n][];
        int smNode = t.smNode();
        byte[] prefix;
        int first;
        if (t.isSwitch(smNode)) {
            prefix = new byte[0];
            first = t.switchIndex(smNode);
        } else {
            int r = t.remote(t.smPort());
            if (r < 0 || !t.isSwitch(t.portNode(r))) {
                return out;
            }
            prefix = new byte[] {(byte) t.portNumber(t.smPort())};
            first = t.switchIndex(t.portNode(r));
        }
        byte[][] bfs = new byte[n][];
        bfs[first] = prefix;
        int[] queue = new int[n];
        int head = 0;
        int tail = 0;
        queue[tail++] = first;
        while (head < tail) {
            int x = queue[head++];
            for (int p = 1; p <= after.numPorts(x); p++) {
                int y = after.neighbour(x, p);
                if (y >= 0 && bfs[y] == null && bfs[x].length < Smp.MAX_HOPS) {
                    bfs[y] = Smp.append(bfs[x], p);
                    queue[tail++] = y;
                }
            }
        }
        for (int s = 0; s < n; s++) {
            if (bfs[s] == null) {
                continue;   // cut off from the SM
            }
            byte[] old = t.path(t.switchNode(s));
            out[s] = intact(t, after, old) ? old : bfs[s];
        }
        return out;
    }

    /** Whether the directed route {@code path} from the SM crosses no link that {@code after} lost. */
    private static boolean intact(Topology t, SwitchGraph after, byte[] path) {
        int node = t.smNode();
        for (int i = 0; i < path.length; i++) {
            int p = path[i] & 0xff;
            if (i > 0 || t.isSwitch(node)) {
                int s = t.switchIndex(node);
                if (s >= 0 && p <= after.numPorts(s) && after.neighbour(s, p) < 0 && isSwitchLink(t, node, p)) {
                    return false;
                }
            }
            int r = t.remote(t.port(node, p));
            if (r < 0) {
                return false;
            }
            node = t.portNode(r);
        }
        return true;
    }

    private static boolean isSwitchLink(Topology t, int node, int p) {
        int r = t.remote(t.port(node, p));
        return r >= 0 && t.isSwitch(t.portNode(r));
    }
}
