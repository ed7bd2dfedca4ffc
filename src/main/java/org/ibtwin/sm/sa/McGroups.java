package org.ibtwin.sm.sa;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The multicast groups and their members, as the SA's joins and leaves leave them: the SM's own groups (each
 * partition's IPoIB broadcast group, which stay while they have no members) and the groups members created by
 * joining (gone with their last member, their MLID free again). One job: who is in which group at which MLID; the
 * spanning trees and MFTs are the multicast manager's.
 *
 * <p>Thread-safe: the SA changes it on the transport's delivery thread, the sweeping thread reads it. Every change
 * of a member set or of an MLID counts one {@link #version()} and tells the listener.
 */
public final class McGroups {
    /** The first multicast LID. */
    public static final int MLID_BASE = 0xC000;
    /** The last multicast LID an SM assigns (0xFFFF is the permissive LID). */
    public static final int MLID_LAST = 0xFFFE;

    /** One member: its port GID and JoinState bits (0 full member, 1 non-member, 2 send-only non-member). */
    public record Member(byte[] portGid, int joinState) {
        /** The port GUID: the GID's interface id. */
        public long portGuid() {
            long v = 0;
            for (int i = 8; i < 16; i++) {
                v = (v << 8) | (portGid[i] & 0xff);
            }
            return v;
        }
    }

    /** A group and its members (in port GID order) as they are now. */
    public record View(SaSnapshot.Group group, List<Member> members) {
    }

    private static final class Entry {
        SaSnapshot.Group group;
        final TreeMap<String, Member> members = new TreeMap<>();

        Entry(SaSnapshot.Group g) {
            this.group = g;
        }
    }

    /** By MGID (hex): in MGID order, as OpenSM lists them. */
    private final Map<String, Entry> groups = new TreeMap<>();
    private long version;
    private Runnable listener;

    /** Called (outside the lock) after every change. */
    public synchronized void onChange(Runnable r) {
        this.listener = r;
    }

    /** Changes so far. */
    public synchronized long version() {
        return version;
    }

    /**
     * The SM's groups from now on (the partitions' IPoIB broadcast groups, at the MLIDs the P_Key manager gave):
     * members of a group still there are kept; an SM group no longer there goes (with its members) unless it has
     * members; a member-created group whose MLID an SM group now takes moves to a free MLID.
     */
    public void smGroups(List<SaSnapshot.Group> sm) {
        boolean changed;
        synchronized (this) {
            changed = false;
            Map<String, SaSnapshot.Group> want = new LinkedHashMap<>();
            for (SaSnapshot.Group g : sm) {
                want.put(SubnetAdministrator.hex(g.mgid()), g);
            }
            for (var it = groups.entrySet().iterator(); it.hasNext(); ) {
                Map.Entry<String, Entry> e = it.next();
                if (e.getValue().group.sm() && !want.containsKey(e.getKey()) && e.getValue().members.isEmpty()) {
                    it.remove();
                    changed = true;
                }
            }
            BitSet taken = new BitSet();
            for (SaSnapshot.Group g : sm) {
                taken.set(g.mlid() - MLID_BASE);
            }
            for (Map.Entry<String, SaSnapshot.Group> w : want.entrySet()) {
                Entry e = groups.get(w.getKey());
                if (e == null) {
                    groups.put(w.getKey(), new Entry(w.getValue()));
                    changed = true;
                } else if (!same(e.group, w.getValue())) {
                    e.group = w.getValue();
                    changed = true;
                }
            }
            for (Entry e : groups.values()) {
                if (!want.containsKey(SubnetAdministrator.hex(e.group.mgid()))) {
                    int m = e.group.mlid() - MLID_BASE;
                    if (taken.get(m)) {
                        int free = taken.nextClearBit(0);
                        e.group = e.group.withMlid(MLID_BASE + free);
                        m = free;
                        changed = true;
                    }
                    taken.set(m);
                }
            }
            if (changed) {
                version++;
            }
        }
        if (changed) {
            tell();
        }
    }

    private static boolean same(SaSnapshot.Group a, SaSnapshot.Group b) {
        return a.mlid() == b.mlid() && a.pkey() == b.pkey() && a.qkey() == b.qkey() && a.mtu() == b.mtu()
                && a.rate() == b.rate() && a.sl() == b.sl() && a.sm() == b.sm();
    }

    /** The group with this MGID, or null. */
    public synchronized SaSnapshot.Group find(byte[] mgid) {
        Entry e = groups.get(SubnetAdministrator.hex(mgid));
        return e == null ? null : e.group;
    }

    /** Every group with its members, in MGID order. */
    public synchronized List<View> views() {
        List<View> out = new ArrayList<>(groups.size());
        for (Entry e : groups.values()) {
            out.add(new View(e.group, List.copyOf(e.members.values())));
        }
        return out;
    }

    /**
     * A new group like {@code proto} at the lowest free MLID, with {@code portGid} its first member; null when
     * every MLID is taken.
     */
    SaSnapshot.Group create(SaSnapshot.Group proto, byte[] portGid, int joinState) {
        SaSnapshot.Group g;
        synchronized (this) {
            BitSet taken = new BitSet();
            for (Entry e : groups.values()) {
                taken.set(e.group.mlid() - MLID_BASE);
            }
            int free = taken.nextClearBit(0);
            if (MLID_BASE + free > MLID_LAST) {
                return null;
            }
            g = proto.withMlid(MLID_BASE + free);
            Entry e = new Entry(g);
            e.members.put(SubnetAdministrator.hex(portGid), new Member(portGid.clone(), joinState));
            groups.put(SubnetAdministrator.hex(g.mgid()), e);
            version++;
        }
        tell();
        return g;
    }

    /** Adds {@code joinState}'s bits to the port's membership of {@code g}; returns its JoinState now (0: no such group). */
    int join(SaSnapshot.Group g, byte[] portGid, int joinState) {
        int now;
        boolean changed;
        synchronized (this) {
            Entry e = groups.get(SubnetAdministrator.hex(g.mgid()));
            if (e == null) {
                return 0;
            }
            String k = SubnetAdministrator.hex(portGid);
            Member had = e.members.get(k);
            now = (had == null ? 0 : had.joinState()) | joinState;
            changed = had == null || had.joinState() != now;
            e.members.put(k, new Member(portGid.clone(), now));
            if (changed) {
                version++;
            }
        }
        if (changed) {
            tell();
        }
        return now;
    }

    /**
     * Takes {@code joinState}'s bits off the port's membership of {@code g}: returns {@code joinState}, or -1 when
     * the port held none of those bits. A group that is not the SM's goes with its last member.
     */
    int leave(SaSnapshot.Group g, byte[] portGid, int joinState) {
        synchronized (this) {
            String gk = SubnetAdministrator.hex(g.mgid());
            Entry e = groups.get(gk);
            Member had = e == null ? null : e.members.get(SubnetAdministrator.hex(portGid));
            if (had == null || (had.joinState() & joinState) == 0) {
                return -1;
            }
            int left = had.joinState() & ~joinState;
            if (left == 0) {
                e.members.remove(SubnetAdministrator.hex(portGid));
                if (e.members.isEmpty() && !e.group.sm()) {
                    groups.remove(gk);
                }
            } else {
                e.members.put(SubnetAdministrator.hex(portGid), new Member(had.portGid(), left));
            }
            version++;
        }
        tell();
        return joinState;
    }

    /** Drops every membership of the ports whose GUIDs are not in {@code present} (ports gone from the subnet). */
    public void keepOnly(java.util.function.LongPredicate present) {
        boolean changed = false;
        synchronized (this) {
            for (var it = groups.values().iterator(); it.hasNext(); ) {
                Entry e = it.next();
                if (e.members.values().removeIf(m -> !present.test(m.portGuid()))) {
                    changed = true;
                    if (e.members.isEmpty() && !e.group.sm()) {
                        it.remove();
                    }
                }
            }
            if (changed) {
                version++;
            }
        }
        if (changed) {
            tell();
        }
    }

    private void tell() {
        Runnable r;
        synchronized (this) {
            r = listener;
        }
        if (r != null) {
            r.run();
        }
    }

    static boolean isZero(byte[] b) {
        for (byte x : b) {
            if (x != 0) {
                return false;
            }
        }
        return true;
    }
}
