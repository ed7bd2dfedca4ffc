package org.ibtwin.sm;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.Field;
import org.ibtwin.mad.SmpAttributes;
import org.ibtwin.sm.routing.SwitchGraph;
import org.ibtwin.sm.sa.McGroups;
import org.ibtwin.transport.SmpPipe;

/**
 * The multicast manager: a spanning tree per multicast group over the switches, and the MulticastForwardingTable
 * blocks that program it (SubnSet MulticastForwardingTable, modifier = port-mask position &lt;&lt; 28 | block; a
 * block holds 32 MLIDs, a position 16 ports).
 *
 * <p>A group's tree is rooted at the switch nearest, in the worst case, to every switch a member hangs off, and
 * reaches exactly those switches: the shortest-path (breadth-first, lowest port first) tree from the root, pruned to
 * the branches that lead to a member. Each tree switch's mask holds its tree links and the ports of the members on
 * it (port 0 for a switch's own port); a switch with no member below is not in the tree, so the MLID never leaks
 * onto it. Every member is in its group's tree, send-only members too, as OpenSM programs them; a group of one
 * member gets no tree (OpenSM's choice too).
 *
 * <p>Like the {@link LftWriter}, it remembers per switch GUID what it last wrote and writes only the blocks that
 * differ; on a switch it has no record of (new, reset, its LFT written whole by the LFT writer, or a write failed)
 * every block with an MLID in it, empty blocks taken as empty (as a switch comes up).
 */
final class MulticastManager {
    private static final Field SI_MCAST_CAP = SmpAttributes.SWITCH_INFO.field("McastFdbCap");
    private static final int BLOCK = 32;
    private static final int PORTS_PER_POSITION = 16;

    /** The last complete table written per switch GUID (index (block × positions + position) × 32 + entry). */
    private final Map<Long, char[]> written = new HashMap<>();

    /** What one pass computed and wrote. */
    record Result(int groups, int switches, long blocksWritten, long blocksUnchanged, List<String> failures) {
    }

    /** Forgets what was written: the next pass writes every block. */
    void forget() {
        written.clear();
    }

    /** Forgets one switch (its LFT was written whole: reset, replaced, or new). */
    void forget(long switchGuid) {
        written.remove(switchGuid);
    }

    /** Port-mask positions of a switch with {@code numPorts} ports (port 0 included). */
    static int positions(int numPorts) {
        return numPorts / PORTS_PER_POSITION + 1;
    }

    /**
     * Every switch's multicast table for {@code groups} on topology {@code t} with switch graph {@code g}: per
     * switch (index as in {@code t}) the masks of MLIDs 0xC000.., laid out as the blocks go on the wire.
     */
    static char[][] tables(Topology t, SwitchGraph g, List<McGroups.View> groups) {
        int switches = t.switchCount();
        int top = -1;
        for (McGroups.View v : groups) {
            top = Math.max(top, v.group().mlid() - McGroups.MLID_BASE);
        }
        int blocks = top < 0 ? 0 : top / BLOCK + 1;
        char[][] out = new char[switches][];
        for (int s = 0; s < switches; s++) {
            out[s] = new char[blocks * positions(t.numPorts(t.switchNode(s))) * BLOCK];
        }
        Map<Long, Integer> byGuid = new HashMap<>();
        for (int p : t.endPorts()) {
            byGuid.put(t.portGuid(p), p);
        }
        int[] dist = new int[switches];
        int[] worst = new int[switches];
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        for (McGroups.View v : groups) {
            int mlid = v.group().mlid() - McGroups.MLID_BASE;
            // the switches members hang off, and the member ports there
            List<int[]> at = new ArrayList<>();
            for (McGroups.Member m : v.members()) {
                Integer p = byGuid.get(m.portGuid());
                int[] where = p == null ? null : attachment(t, p);
                if (where != null) {
                    at.add(where);
                }
            }
            if (at.size() < 2) {
                continue;       // a lone member has no one to send to: no tree, as OpenSM programs none
            }
            // the root: the least worst-case distance to the member switches
            int root = at.get(0)[0];
            boolean[] memberSwitch = new boolean[switches];
            for (int[] w : at) {
                memberSwitch[w[0]] = true;
            }
            int distinct = 0;
            for (boolean b : memberSwitch) {
                distinct += b ? 1 : 0;
            }
            if (distinct > 1) {
                Arrays.fill(worst, 0);
                for (int s = 0; s < switches; s++) {
                    if (memberSwitch[s]) {
                        bfs(g, s, dist, null, null, queue);
                        for (int x = 0; x < switches; x++) {
                            worst[x] = Math.max(worst[x], dist[x] < 0 ? Integer.MAX_VALUE : dist[x]);
                        }
                    }
                }
                for (int x = 0; x < switches; x++) {
                    if (worst[x] < worst[root]) {
                        root = x;
                    }
                }
            }
            int[] parent = new int[switches];
            int[] viaPort = new int[switches];
            bfs(g, root, dist, parent, viaPort, queue);
            boolean[] inTree = new boolean[switches];
            inTree[root] = true;
            for (int[] w : at) {
                set(t, out, w[0], mlid, w[1]);
                for (int s = w[0]; !inTree[s] && parent[s] >= 0; s = parent[s]) {
                    inTree[s] = true;
                    int up = viaPort[s];
                    set(t, out, s, mlid, up);
                    set(t, out, parent[s], mlid, g.neighbourPort(s, up));
                }
            }
        }
        return out;
    }

    /** {switch index, port} where end port {@code p} meets a switch, or null (a CA linked to no switch). */
    private static int[] attachment(Topology t, int p) {
        int n = t.portNode(p);
        if (t.isSwitch(n)) {
            return new int[] {t.switchIndex(n), 0};
        }
        int r = t.remote(p);
        if (r < 0 || !t.isSwitch(t.portNode(r))) {
            return null;
        }
        return new int[] {t.switchIndex(t.portNode(r)), t.portNumber(r)};
    }

    /**
     * Breadth-first from {@code root}, lowest port first: {@code dist} (-1 unreached); with {@code parent}, each
     * switch's parent (-1 for the root and the unreached) and {@code viaPort}, its own port towards the parent.
     */
    private static void bfs(SwitchGraph g, int root, int[] dist, int[] parent, int[] viaPort,
                            ArrayDeque<Integer> queue) {
        Arrays.fill(dist, -1);
        if (parent != null) {
            Arrays.fill(parent, -1);
        }
        dist[root] = 0;
        queue.clear();
        queue.add(root);
        while (!queue.isEmpty()) {
            int s = queue.poll();
            for (int p = 1; p <= g.numPorts(s); p++) {
                int n = g.neighbour(s, p);
                if (n < 0 || dist[n] >= 0) {
                    continue;
                }
                dist[n] = dist[s] + 1;
                if (parent != null) {
                    parent[n] = s;
                    viaPort[n] = g.neighbourPort(s, p);
                }
                queue.add(n);
            }
        }
    }

    private static void set(Topology t, char[][] out, int s, int mlid, int port) {
        int positions = positions(t.numPorts(t.switchNode(s)));
        int i = ((mlid / BLOCK) * positions + port / PORTS_PER_POSITION) * BLOCK + mlid % BLOCK;
        out[s][i] |= (char) (1 << (port % PORTS_PER_POSITION));
    }

    /**
     * Computes every group's tree and writes the blocks that changed; {@code fresh} are switches whose LFT was just
     * written whole (their MFT is written whole too).
     */
    Result write(Topology t, SwitchGraph g, List<McGroups.View> groups, Set<Long> fresh, SmpPipe pipe) {
        char[][] tables = tables(t, g, groups);
        List<String> failures = new ArrayList<>();
        long[] blocksWritten = {0};
        long unchanged = 0;
        boolean[] failed = new boolean[t.switchCount()];
        for (int s = 0; s < t.switchCount(); s++) {
            int n = t.switchNode(s);
            long guid = t.nodeGuid(n);
            if (fresh.contains(guid)) {
                written.remove(guid);
            }
            char[] table = tables[s];
            char[] before = written.get(guid);
            int positions = positions(t.numPorts(n));
            int cap = (int) SI_MCAST_CAP.get(t.switchInfo(s), 0);
            int blocks = Math.max(table.length, before == null ? 0 : before.length) / (positions * BLOCK);
            int capBlocks = cap / BLOCK;
            if (blocks > capBlocks && table.length / (positions * BLOCK) > capBlocks) {
                report(failures, t.shortName(n) + ": its MFT holds MLIDs 0xc000..0x"
                        + Integer.toHexString(McGroups.MLID_BASE + cap - 1) + "; groups above not programmed");
            }
            blocks = Math.min(blocks, capBlocks);
            for (int b = 0; b < blocks; b++) {
                for (int p = 0; p < positions; p++) {
                    int from = (b * positions + p) * BLOCK;
                    char[] now = slice(table, from);
                    if (before != null ? Arrays.equals(slice(before, from), now) : isEmpty(now)) {
                        unchanged++;     // a switch not written yet: its empty blocks are taken as empty
                        continue;
                    }
                    byte[] data = new byte[2 * BLOCK];
                    char[] v = slice(table, from);
                    for (int i = 0; i < BLOCK; i++) {
                        data[2 * i] = (byte) (v[i] >> 8);
                        data[2 * i + 1] = (byte) v[i];
                    }
                    final int sw = s;
                    final int block = b;
                    final int position = p;
                    pipe.set(t.path(n), AttributeIds.MCAST_FWD_TABLE, ((long) p << 28) | b, data, r -> {
                        if (!r.ok()) {
                            failed[sw] = true;
                            report(failures, "MFT block " + block + " position " + position + " on "
                                    + t.shortName(n) + ": " + r.why());
                        }
                    });
                    blocksWritten[0]++;
                }
            }
        }
        pipe.drain();
        for (int s = 0; s < t.switchCount(); s++) {
            long guid = t.nodeGuid(t.switchNode(s));
            if (failed[s]) {
                written.remove(guid);
            } else {
                written.put(guid, tables[s]);
            }
        }
        return new Result(groups.size(), t.switchCount(), blocksWritten[0], unchanged, failures);
    }

    private static boolean isEmpty(char[] block) {
        for (char c : block) {
            if (c != 0) {
                return false;
            }
        }
        return true;
    }

    /** The 32 entries from {@code from}, zeros past the table's end. */
    private static char[] slice(char[] table, int from) {
        char[] out = new char[BLOCK];
        if (from < table.length) {
            System.arraycopy(table, from, out, 0, Math.min(BLOCK, table.length - from));
        }
        return out;
    }

    private static void report(List<String> failures, String line) {
        if (failures.size() < 10) {
            failures.add(line);
        } else if (failures.size() == 10) {
            failures.add("(further failures not listed)");
        }
    }
}
