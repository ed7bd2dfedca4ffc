package org.ibtwin.sm.sa;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongPredicate;

/**
 * The alias GUIDs the SA holds per port (GUIDInfo indexes 1 and up; index 0 is the port GUID itself), as
 * SubnAdmSet/Delete(GUIDInfoRecord) assign and remove them; GUIDInfoRecords show them. Every block a change
 * touches waits, as OpenSM's alias GUID list does, for the SM to write it into the port ({@link #takeChanged}).
 */
final class AliasGuids {
    /** One GUIDInfo block of a port: eight GUIDs, GUID 0 of block 0 the port GUID. */
    record Block(long portGuid, int block) {
    }

    /** Where GUIDs the SA picks itself start (the next is this plus 1, 2, ...), as OpenSM numbers them. */
    static final long ASSIGNED_BASE = 0x0014050000000000L;

    private final Map<Long, long[]> byPort = new ConcurrentHashMap<>();
    private long assigned;
    /** Blocks changed since the SM last took them, in the order they changed. */
    private final Set<Block> changed = new LinkedHashSet<>();
    private volatile Runnable listener;

    /** Called (outside the lock) after a SubnAdmSet or Delete changed a block. */
    void onChange(Runnable r) {
        this.listener = r;
    }

    /** The alias GUID at {@code index} of the port of {@code portGuid}, 0 for none. */
    long alias(long portGuid, int index) {
        long[] a = byPort.get(portGuid);
        return a == null || index >= a.length ? 0 : a[index];
    }

    /** Sets (or, with 0, clears) the alias at {@code index} of the port, of GuidCap {@code cap}. */
    synchronized void set(long portGuid, int cap, int index, long guid) {
        long[] a = byPort.computeIfAbsent(portGuid, k -> new long[Math.max(cap, 1)]);
        if (index > 0 && index < a.length && a[index] != guid) {
            a[index] = guid;
            changed.add(new Block(portGuid, index / 8));
        }
    }

    /** Tells the listener when blocks wait to be written. */
    void notifyChanged() {
        Runnable r = listener;
        boolean any;
        synchronized (this) {
            any = !changed.isEmpty();
        }
        if (any && r != null) {
            r.run();
        }
    }

    /** The blocks changed since the last call, each once, in the order they changed (the list is the caller's). */
    synchronized List<Block> takeChanged() {
        List<Block> out = new ArrayList<>(changed);
        changed.clear();
        return out;
    }

    /** The eight GUIDs of {@code block} of the port: GUID 0 of block 0 the port GUID, the others its aliases. */
    synchronized long[] block(long portGuid, int block) {
        long[] out = new long[8];
        for (int i = 0; i < 8; i++) {
            int index = block * 8 + i;
            out[i] = index == 0 ? portGuid : alias(portGuid, index);
        }
        return out;
    }

    /**
     * SubnAdmSet(GUIDInfoRecord) on one port: each of {@code indexes} (1 and up, below {@code cap}) takes its GUID
     * from {@code guids}: a GUID given, unless another port already has it as an alias (then the index keeps what
     * it had); 0, a GUID the SA picks, unless the index has one already.
     */
    synchronized void assign(long portGuid, int cap, int[] indexes, long[] guids) {
        for (int k = 0; k < indexes.length; k++) {
            int i = indexes[k];
            if (i <= 0 || i >= cap) {
                continue;
            }
            long want = guids[k];
            if (want == 0) {
                if (alias(portGuid, i) == 0) {
                    set(portGuid, cap, i, ASSIGNED_BASE + ++assigned);
                }
            } else if (owner(want, portGuid) == 0) {
                set(portGuid, cap, i, want);
            }
        }
    }

    /** The port whose alias (or port GUID) {@code guid} is, other than {@code except}; 0 for none. */
    long owner(long guid, long except) {
        for (Map.Entry<Long, long[]> e : byPort.entrySet()) {
            for (int i = 1; i < e.getValue().length; i++) {
                if (e.getValue()[i] == guid && e.getKey() != except) {
                    return e.getKey();
                }
            }
        }
        return 0;
    }

    /** Forgets the aliases of ports that are gone, and their blocks still to be written. */
    synchronized void keepOnly(LongPredicate present) {
        byPort.keySet().removeIf(g -> !present.test(g));
        changed.removeIf(b -> !present.test(b.portGuid()));
    }
}
