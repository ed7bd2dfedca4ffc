package org.ibtwin.sm;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.sm.routing.Lfts;
import org.ibtwin.transport.Smp;
import org.ibtwin.transport.SmpPipe;

/**
 * The LFT writer: programs each switch's linear forwarding table in 64-entry blocks (SubnSet
 * LinearForwardingTable, modifier = block), only the blocks that differ from what it last wrote to that switch,
 * and sets SwitchInfo LinearFDBTop to the top LID first (writing back a set PortStateChange bit, which clears it).
 *
 * <p>It remembers, per switch GUID, the table it last wrote completely. A switch it has no record of, one whose
 * LinearFDBTop is not what it last set (reset or programmed by someone else), or one where a write failed, gets
 * every block again.
 */
final class LftWriter {
    private final Map<Long, byte[]> written = new HashMap<>();
    private final Map<Long, Integer> writtenTop = new HashMap<>();

    /** What one pass wrote; {@code fresh}: the switches (GUIDs) whose every block it wrote. */
    record Result(int switches, long blocksWritten, long blocksUnchanged, int topSets, List<String> failures,
                  java.util.Set<Long> fresh) {
    }

    /** Forgets what was written: the next pass writes every block. */
    void forget() {
        written.clear();
        writtenTop.clear();
    }

    Result write(Topology t, Lfts lfts, SmpPipe pipe) {
        return write(t, lfts, pipe, null);
    }

    /**
     * As {@link #write(Topology, Lfts, SmpPipe)}, between heavy sweeps (a fast re-route): {@code paths} gives each
     * switch's directed route now (null: unreachable, skipped and its record kept), and the tops and tables last
     * written are taken to be what the switches hold (the topology's SwitchInfo is from the last discovery, before
     * those writes).
     */
    Result write(Topology t, Lfts lfts, SmpPipe pipe, java.util.function.IntFunction<byte[]> paths) {
        int top = lfts.top();
        long[] blocksWritten = {0};
        long unchanged = 0;
        int topSets = 0;
        List<String> failures = new ArrayList<>();
        boolean[] failed = new boolean[t.switchCount()];
        boolean[] skipped = new boolean[t.switchCount()];
        java.util.Set<Long> fresh = new java.util.HashSet<>();
        for (int s = 0; s < t.switchCount(); s++) {
            int n = t.switchNode(s);
            long guid = t.nodeGuid(n);
            byte[] path = paths == null ? t.path(n) : paths.apply(s);
            if (path == null) {
                skipped[s] = true;
                continue;
            }
            byte[] table = lfts.table(s);
            int cap = t.linearFdbCap(s);
            int blocks = Lfts.blocks(top);
            if (cap > 0 && top >= cap) {
                blocks = cap / 64;
                report(failures, t.shortName(n) + ": its LFT holds LIDs 0.." + (cap - 1) + "; LIDs " + cap + ".."
                        + top + " not programmed");
            }
            byte[] before = written.get(guid);
            Integer beforeTop = writtenTop.get(guid);
            int nowTop = paths != null && beforeTop != null ? beforeTop : t.linearFdbTop(s);
            if (before != null && (beforeTop == null || beforeTop != nowTop)) {
                before = null;
            }
            if (before == null) {
                fresh.add(guid);
            }
            int newTop = Math.min(top, cap > 0 ? cap - 1 : top);
            if (nowTop != newTop || (paths == null && t.stateChange(s))) {
                byte[] si = Arrays.copyOf(t.switchInfo(s), Smp.DATA_SIZE);
                Topology.SI_LFT_TOP.set(si, 0, newTop);
                final int sw = s;
                pipe.set(path, AttributeIds.SWITCH_INFO, 0, si, r -> {
                    if (!r.ok()) {
                        failed[sw] = true;
                        report(failures, "SwitchInfo (LinearFDBTop " + newTop + ") on " + t.shortName(n) + ": "
                                + r.why());
                    }
                });
                topSets++;
            }
            for (int b = 0; b < blocks; b++) {
                int from = b * 64;
                if (before != null && before.length >= from + 64
                        && Arrays.equals(before, from, from + 64, table, from, from + 64)) {
                    unchanged++;
                    continue;
                }
                final int sw = s;
                final int block = b;
                pipe.set(path, AttributeIds.LINEAR_FWD_TABLE, b, Arrays.copyOfRange(table, from, from + 64), r -> {
                    if (!r.ok()) {
                        failed[sw] = true;
                        report(failures, "LFT block " + block + " on " + t.shortName(n) + ": " + r.why());
                    }
                });
                blocksWritten[0]++;
            }
        }
        pipe.drain();
        int switches = 0;
        for (int s = 0; s < t.switchCount(); s++) {
            long guid = t.nodeGuid(t.switchNode(s));
            if (skipped[s]) {
                continue;
            }
            switches++;
            if (failed[s]) {
                written.remove(guid);
                writtenTop.remove(guid);
            } else {
                written.put(guid, lfts.table(s));
                int cap = t.linearFdbCap(s);
                writtenTop.put(guid, Math.min(top, cap > 0 ? cap - 1 : top));
            }
        }
        return new Result(switches, blocksWritten[0], unchanged, topSets, failures, fresh);
    }

    private static void report(List<String> failures, String line) {
        if (failures.size() < 10) {
            failures.add(line);
        } else if (failures.size() == 10) {
            failures.add("(further failures not listed)");
        }
    }
}
