package org.ibtwin.sm;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.ibtwin.format.PartitionsConf;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.Field;
import org.ibtwin.mad.SmpAttributes;
import org.ibtwin.model.NodeType;
import org.ibtwin.model.Partitions;
import org.ibtwin.sm.sa.SaSnapshot;
import org.ibtwin.transport.SmpPipe;

/**
 * The P_Key manager: programs partitions into the subnet, as OpenSM's pkey manager does. Each CA port (and router
 * port) gets a P_Key table holding the partitions it is a member of (P_Key with the full-member bit for full
 * members), the Default partition first; the switch port facing it gets the same table and partition enforcement
 * inbound and outbound (PortInfo), so the switch drops packets of partitions the CA is not in. Tables go out as
 * SubnSet(P_KeyTable) in blocks of 32 entries, only the blocks that differ from what this manager last wrote there
 * (a block it emptied is written as zeros); a table longer than the port's partition capacity (NodeInfo PartitionCap,
 * SwitchInfo PartitionEnforcementCap) is cut to it, with a warning.
 *
 * <p>Without a partitions file every port is a full member of the Default partition (0x7fff), which is also an IPoIB
 * partition, as with OpenSM's built-in default. With one, memberships are {@link PartitionsConf#memberships}'s.
 * Partitions with the {@code ipoib} flag get their IPoIB broadcast group (MLID 0xC000 up, flags {@code mtu},
 * {@code rate}, {@code sl} as OpenSM reads them).
 *
 * <p>On its first pass (an SM become master, maybe a standby taking over) it first reads the P_Key tables the CA
 * ports an SM already brought up (Active when discovered) have (block 0) and warns, in one line, when ports have P_Keys another SM programmed (not the power-up 0xffff)
 * that its own partitions would change: a standby started without the master's -P would otherwise wipe the
 * tenants' partitions in silence. A manager made for a reread file carries on from the one before (no read).
 */
final class PKeyManager {
    static final int BLOCK = 32;
    private static final Field PI_ENF_IN = SmpAttributes.PORT_INFO.field("PartEnforceInb");
    private static final Field PI_ENF_OUT = SmpAttributes.PORT_INFO.field("PartEnforceOutb");
    private static final Field NI_PART_CAP = SmpAttributes.NODE_INFO.field("PartCap");
    private static final Field SI_ENF_CAP = SmpAttributes.SWITCH_INFO.field("PartEnforceCap");
    private static final Field[] NO_CHANGE = {Topology.PI_STATE, Topology.PI_PHYS, Topology.PI_LWE, Topology.PI_LSE,
        Topology.PI_LSEE, Topology.PI_LSEE2};
    /** OpenSM's defaults for an IPoIB broadcast group: MTU 2048 (code 4), 10 Gb/s (code 3), SL 0. */
    private static final int DEFAULT_MTU = 4;
    private static final int DEFAULT_RATE = 3;

    /** What one pass did: the tables now in place (by port slot, null where untouched) and the IPoIB groups. */
    record Result(int[][] tables, int blocksWritten, int blocksUnchanged, int enforced, List<SaSnapshot.Group> groups,
                  List<String> failures, List<String> warnings) {
    }

    private final PartitionsConf conf;
    /** What was last written, by "port GUID/port number". */
    private final Map<String, int[]> written = new HashMap<>();
    private final Set<String> warned = new HashSet<>();
    /** Whether the next pass is this SM's first: it reads what the ports have before writing. */
    private boolean first = true;

    PKeyManager(PartitionsConf conf) {
        this.conf = conf;
    }

    /** The manager this one replaces, until its first pass takes over what that one wrote. */
    private PKeyManager replaced;

    /**
     * A manager for a reread partitions file (made on any thread): on its first pass (on the sweeping thread, where
     * {@code before} wrote) it takes over what {@code before} wrote, and reads nothing when that one already did.
     */
    PKeyManager(PartitionsConf conf, PKeyManager before) {
        this.conf = conf;
        this.replaced = before;
    }

    PartitionsConf conf() {
        return conf;
    }

    Result apply(Topology t, LidAssignment lids, byte[][] portInfo, SmpPipe pipe) {
        int slots = t.portSlots();
        int[][] tables = new int[slots][];
        List<String> failures = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        int[] counts = new int[3];
        long smGuid = t.portGuid(t.smPort());
        Map<String, Integer> keys = pkeysByKey(warnings);
        inherit();
        if (first) {
            first = false;
            String found = found(t, lids, smGuid, keys, pipe);
            if (found != null) {
                warnings.add(found);
            }
        }
        for (int g = 0; g < slots; g++) {
            if (!programs(t, lids, g)) {
                continue;
            }
            int[] table = table(t.portGuid(g), t.nodeType(t.portNode(g)), smGuid, keys);
            tables[g] = caTable(t, g, table, warnings);
            int r = t.remote(g);
            byte[] caPath;
            if (r >= 0 && t.isSwitch(t.portNode(r))) {
                int sw = t.portNode(r);
                byte[] sp = t.path(sw);
                caPath = Arrays.copyOf(sp, sp.length + 1);
                caPath[sp.length] = (byte) t.portNumber(r);
                int enfCap = (int) SI_ENF_CAP.get(t.switchInfo(t.switchIndex(sw)), 0);
                tables[r] = fit(table, enfCap, t.portName(r), warnings);
                write(t, pipe, t.path(sw), r, t.portNumber(r), tables[r], counts, failures);
                enforce(t, pipe, r, portInfo, counts, failures);
            } else {
                caPath = t.path(t.portNode(g));
            }
            write(t, pipe, caPath, g, 0, tables[g], counts, failures);
        }
        pipe.drain();
        return new Result(tables, counts[0], counts[1], counts[2], groups(keys), failures, warnings);
    }

    /** Whether this manager programs port {@code g}: a CA or router port with a LID and a PortInfo. */
    private static boolean programs(Topology t, LidAssignment lids, int g) {
        return !t.isSwitch(t.portNode(g)) && t.portNumber(g) != 0 && lids.lid(g) != 0 && t.hasPortInfo(g);
    }

    /** The table CA port {@code g} holds for its partitions {@code table}: cut to its NodeInfo PartitionCap. */
    private int[] caTable(Topology t, int g, int[] table, List<String> warnings) {
        int cap = (int) NI_PART_CAP.get(t.nodeInfo(t.portNode(g)), 0);
        return fit(table, cap, t.portName(g), warnings);
    }

    /**
     * The P_Key table every CA port this manager programs would hold after a pass over {@code t} (by port GUID):
     * the tables {@link #apply} writes, computed by the same rules, with no MAD sent.
     */
    Map<Long, int[]> plan(Topology t, LidAssignment lids) {
        List<String> ignored = new ArrayList<>();
        Map<String, Integer> keys = pkeysByKey(ignored);
        long smGuid = t.portGuid(t.smPort());
        Map<Long, int[]> out = new HashMap<>();
        for (int g = 0; g < t.portSlots(); g++) {
            if (programs(t, lids, g)) {
                out.put(t.portGuid(g), caTable(t, g, table(t.portGuid(g), t.nodeType(t.portNode(g)), smGuid, keys),
                        ignored));
            }
        }
        return out;
    }

    /** Takes over, once, what the manager this one replaced wrote and whether it read (on the sweeping thread). */
    private void inherit() {
        if (replaced != null) {
            replaced.inherit();
            written.putAll(replaced.written);
            first = replaced.first;
            replaced = null;
        }
    }

    /** The path to CA port {@code g}: through the switch port facing it, so the SMP arrives at that port. */
    static byte[] caPath(Topology t, int g) {
        int r = t.remote(g);
        if (r >= 0 && t.isSwitch(t.portNode(r))) {
            byte[] sp = t.path(t.portNode(r));
            byte[] p = Arrays.copyOf(sp, sp.length + 1);
            p[sp.length] = (byte) t.portNumber(r);
            return p;
        }
        return t.path(t.portNode(g));
    }

    /**
     * Reads block 0 of every CA port's P_Key table; one line when ports have tables someone programmed (not the
     * power-up 0xffff alone) that this SM's partitions change, null otherwise.
     */
    private String found(Topology t, LidAssignment lids, long smGuid, Map<String, Integer> keys, SmpPipe pipe) {
        int slots = t.portSlots();
        int[][] have = new int[slots][];
        for (int g = 0; g < slots; g++) {
            int n = t.portNode(g);
            // only ports an SM brought up (Active when discovered) can carry P_Keys another SM programmed
            if (t.isSwitch(n) || t.portNumber(g) == 0 || lids.lid(g) == 0 || !t.hasPortInfo(g)
                    || t.linkState(g) != Topology.ACTIVE) {
                continue;
            }
            int slot = g;
            pipe.get(caPath(t, g), AttributeIds.P_KEY_TABLE, 0, reply -> {
                if (reply.ok()) {
                    have[slot] = entries(reply.data());
                }
            });
        }
        pipe.drain();
        int differ = 0;
        String example = null;
        for (int g = 0; g < slots; g++) {
            int[] h = have[g];
            if (h == null || (h.length == 1 && h[0] == 0xffff)) {
                continue;
            }
            int[] want = table(t.portGuid(g), t.nodeType(t.portNode(g)), smGuid, keys);
            if (!sameSet(h, want)) {
                differ++;
                if (example == null) {
                    example = t.portName(g) + " has " + hex(h) + ", gets " + hex(want);
                }
            }
        }
        if (differ == 0) {
            return null;
        }
        return String.format(Locale.ROOT, "P_Keys: %,d ports have P_Keys another SM programmed that this SM's "
                + "partitions%s change (%s); replacing them (was this SM started without the master's partitions "
                + "file, -P?)", differ, conf == null ? " (none: no -P, every port a full Default member)" : " ("
                + conf.file() + ")", example);
    }

    private static int[] entries(byte[] block) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < BLOCK && 2 * i + 1 < block.length; i++) {
            int k = ((block[2 * i] & 0xff) << 8) | (block[2 * i + 1] & 0xff);
            if ((k & Partitions.DEFAULT) != 0) {
                out.add(k);
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    private static boolean sameSet(int[] a, int[] b) {
        int[] x = a.clone();
        int[] y = b.clone();
        Arrays.sort(x);
        Arrays.sort(y);
        return Arrays.equals(x, y);
    }

    private static String hex(int[] keys) {
        List<String> l = new ArrayList<>();
        for (int k : keys) {
            l.add(String.format("0x%04x", k));
        }
        return l.isEmpty() ? "none" : String.join(" ", l);
    }

    /** Forgets what was written, so the next pass writes every block again. */
    void forget() {
        written.clear();
    }

    /** The P_Key of each partition key, as {@link PartitionsConf#pkeys()} numbers them. */
    private Map<String, Integer> pkeysByKey(List<String> warnings) {
        if (conf == null) {
            return Map.of(String.format("0x%04x", PartitionsConf.DEFAULT_PKEY), PartitionsConf.DEFAULT_PKEY);
        }
        Map<String, Integer> keys = conf.pkeys();
        for (PartitionsConf.Partition p : conf.partitions()) {
            if (!keys.containsKey(p.key())) {
                warnOnce(warnings, conf.file() + ":" + p.line() + ": no P_Key left for partition \"" + p.name()
                        + "\"; left out");
            }
        }
        return keys;
    }

    /** A port's table: Default first, then its other partitions in file order. */
    private int[] table(long portGuid, NodeType type, long smGuid, Map<String, Integer> keys) {
        if (conf == null) {
            return Partitions.defaultTable();
        }
        return PartitionsConf.table(conf.memberships(portGuid, type, smGuid), keys);
    }

    private int[] fit(int[] table, int cap, String port, List<String> warnings) {
        if (cap <= 0 || table.length <= cap) {
            return table;
        }
        warnOnce(warnings, String.format(Locale.ROOT, "P_Keys: %s holds %d P_Keys, its partitions need %d; the "
                + "last %d left out", port, cap, table.length, table.length - cap));
        return Arrays.copyOf(table, cap);
    }

    private void write(Topology t, SmpPipe pipe, byte[] path, int g, int portMod, int[] table, int[] counts,
                       List<String> failures) {
        String key = Long.toHexString(t.portGuid(g)) + "/" + t.portNumber(g);
        int[] before = written.get(key);
        int blocks = Math.max(1, (Math.max(table.length, before == null ? 0 : before.length) + BLOCK - 1) / BLOCK);
        for (int b = 0; b < blocks; b++) {
            int[] now = block(table, b);
            if (before != null && Arrays.equals(now, block(before, b))) {
                counts[1]++;
                continue;
            }
            byte[] data = new byte[64];
            for (int i = 0; i < BLOCK; i++) {
                data[2 * i] = (byte) (now[i] >> 8);
                data[2 * i + 1] = (byte) now[i];
            }
            counts[0]++;
            long mod = ((long) portMod << 16) | b;
            pipe.set(path, AttributeIds.P_KEY_TABLE, mod, data, reply -> {
                if (!reply.ok()) {
                    written.remove(key);
                    report(failures, "P_KeyTable Set block " + (mod & 0xffff) + " on " + t.portName(g) + ": "
                            + reply.why());
                }
            });
        }
        written.put(key, table.clone());
    }

    private static int[] block(int[] table, int b) {
        int[] out = new int[BLOCK];
        for (int i = 0; i < BLOCK && b * BLOCK + i < table.length; i++) {
            out[i] = table[b * BLOCK + i];
        }
        return out;
    }

    /** Partition enforcement inbound and outbound on a switch port facing a CA, unless already on. */
    private static void enforce(Topology t, SmpPipe pipe, int g, byte[][] portInfo, int[] counts,
                                List<String> failures) {
        byte[] pi = portInfo != null && portInfo[g] != null ? portInfo[g] : t.portInfo(g);
        if (PI_ENF_IN.get(pi, 0) == 1 && PI_ENF_OUT.get(pi, 0) == 1) {
            return;
        }
        byte[] set = pi.clone();
        PI_ENF_IN.set(set, 0, 1);
        PI_ENF_OUT.set(set, 0, 1);
        for (Field f : NO_CHANGE) {
            f.set(set, 0, 0);
        }
        counts[2]++;
        int n = t.portNode(g);
        pipe.set(t.path(n), AttributeIds.PORT_INFO, t.portNumber(g), set, reply -> {
            if (reply.ok()) {
                if (portInfo != null) {
                    portInfo[g] = reply.data();
                }
            } else {
                report(failures, "PortInfo Set (partition enforcement) on " + t.portName(g) + ": " + reply.why());
            }
        });
    }

    private List<SaSnapshot.Group> groups(Map<String, Integer> keys) {
        List<SaSnapshot.Group> out = new ArrayList<>();
        if (conf == null) {
            out.add(SaSnapshot.Group.ipoibBroadcast(0xffff, 0xc000, DEFAULT_MTU, DEFAULT_RATE, 0));
            return out;
        }
        int mlid = 0xc000;
        Set<Integer> done = new HashSet<>();
        for (PartitionsConf.Partition p : conf.partitions()) {
            Integer pkey = keys.get(p.key());
            if (pkey == null || !p.flags().containsKey("ipoib") || !done.add(pkey)) {
                continue;
            }
            out.add(SaSnapshot.Group.ipoibBroadcast(pkey | 0x8000, mlid++, flag(p, "mtu", DEFAULT_MTU),
                    flag(p, "rate", DEFAULT_RATE), flag(p, "sl", 0)));
        }
        return out;
    }

    private static int flag(PartitionsConf.Partition p, String name, int dflt) {
        String v = p.flags().get(name);
        if (v == null || v.isEmpty()) {
            return dflt;
        }
        try {
            return v.startsWith("0x") ? Integer.parseInt(v.substring(2), 16) : Integer.parseInt(v);
        } catch (NumberFormatException e) {
            return dflt;
        }
    }

    private void warnOnce(List<String> warnings, String line) {
        if (warned.add(line)) {
            warnings.add(line);
        }
    }

    private static void report(List<String> failures, String line) {
        if (failures.size() < 10) {
            failures.add(line);
        }
    }
}
