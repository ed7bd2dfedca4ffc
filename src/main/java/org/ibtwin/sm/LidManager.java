package org.ibtwin.sm;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.ibtwin.format.FormatException;
import org.ibtwin.format.Guid2LidFile;
import org.ibtwin.format.Guid2LidFile.Range;

/**
 * The LID manager: gives every end port (CA and router ports, switch port 0s) a LID range of 2^LMC LIDs, aligned
 * to its size (a switch's port 0 takes one LID, as OpenSM gives it unless lmc_esp0 is set), keeping what it can:
 * <ol>
 * <li>the range the guid2lid database remembers for the port's GUID, when it is aligned and free;</li>
 * <li>the ranges it remembers for ports not in the subnet now stay reserved, so a port that comes back later gets
 *     its LID back (they are given up only when the LID space runs out);</li>
 * <li>the LID the port already has (its PortInfo), when aligned and free (unless {@code reassign});</li>
 * <li>the rest get the lowest free aligned ranges, switches first: without them nothing routes.</li>
 * </ol>
 * The unicast LID space, 1..0xBFFF, is shared by all; when the end ports need more than it holds, the shortfall is
 * reported once, with the numbers, and the ports that do not fit are left without a LID (not brought up).
 *
 * <p>The database lives in memory across sweeps and, given a file, is loaded from and saved to OpenSM's guid2lid
 * format ({@link Guid2LidFile}).
 */
final class LidManager {
    static final int MAX_LID = Guid2LidFile.MAX_UNICAST_LID;
    private static final int RESERVED = -2;

    private final Path file;
    private final int lmc;
    private final boolean reassign;
    private final Map<Long, Range> db = new TreeMap<>(Long::compareUnsigned);
    private boolean dirty;

    /** What one assignment produced, and the lines worth logging. */
    record Result(LidAssignment lids, List<String> problems) {
    }

    /**
     * @param file     the guid2lid file, or null for none (the database then lives only as long as this SM)
     * @param lmc      0..7
     * @param reassign give every port a fresh LID, ignoring what it has (opensm -r)
     */
    LidManager(Path file, int lmc, boolean reassign) {
        if (lmc < 0 || lmc > 7) {
            throw new IllegalArgumentException("LMC must be 0..7, not " + lmc);
        }
        this.file = file;
        this.lmc = lmc;
        this.reassign = reassign;
    }

    /** Loads the guid2lid file: the problems with its entries, one {@code file:line: message} each. */
    List<String> load() {
        if (file == null) {
            return List.of();
        }
        try {
            Guid2LidFile.Contents c = Guid2LidFile.read(file);
            db.clear();
            db.putAll(c.entries());
            return c.problems();
        } catch (FormatException e) {
            return List.of(e.getMessage());
        }
    }

    /** How many ranges the database holds. */
    int entries() {
        return db.size();
    }

    Path file() {
        return file;
    }

    /** Assigns LIDs for {@code t}'s end ports and records them in the database. */
    Result assign(Topology t) {
        int[] ends = t.endPorts();
        int slots = t.portSlots();
        int[] base = new int[slots];
        byte[] lmcOf = new byte[slots];
        int[] owner = new int[MAX_LID + 1];    // 0 free, g + 1 taken by port slot g, RESERVED for an absent port
        List<String> problems = new ArrayList<>();

        Map<Long, Integer> present = HashMap.newHashMap(ends.length);
        long needed = 0;
        int switchPorts = 0;
        for (int g : ends) {
            int n = t.portNode(g);
            boolean sw = t.isSwitch(n);
            int l = sw ? 0 : lmc;
            lmcOf[g] = (byte) l;
            needed += 1 << l;
            switchPorts += sw ? 1 : 0;
            present.putIfAbsent(t.portGuid(g), g);
        }

        // 1. what the database remembers for ports that are here
        for (int g : ends) {
            Range r = db.get(t.portGuid(g));
            int size = 1 << lmcOf[g];
            if (r != null && present.get(t.portGuid(g)) == g && r.first() % size == 0
                    && r.first() + size - 1 <= MAX_LID && free(owner, r.first(), size)) {
                take(owner, base, g, r.first(), size);
            }
        }
        // 2. what it remembers for ports that are not here: reserved
        Set<Long> reserved = new HashSet<>();
        for (Map.Entry<Long, Range> e : db.entrySet()) {
            if (!present.containsKey(e.getKey()) && free(owner, e.getValue().first(), e.getValue().size())) {
                for (int l = e.getValue().first(); l <= e.getValue().last(); l++) {
                    owner[l] = RESERVED;
                }
                reserved.add(e.getKey());
            }
        }
        // 3. the LIDs the ports have
        if (!reassign) {
            for (int g : ends) {
                int size = 1 << lmcOf[g];
                int lid = t.lid(g);
                if (base[g] == 0 && lid >= 1 && lid % size == 0 && lid + size - 1 <= MAX_LID
                        && free(owner, lid, size)) {
                    take(owner, base, g, lid, size);
                }
            }
        }
        // 4. the rest: switches first, then CAs, lowest free aligned range
        int unassigned = 0;
        int[] cursor = {1, 1, 1, 1, 1, 1, 1, 1};
        boolean released = false;
        for (int pass = 0; pass < 2; pass++) {
            for (int g : ends) {
                boolean sw = t.isSwitch(t.portNode(g));
                if (base[g] != 0 || sw != (pass == 0)) {
                    continue;
                }
                int size = 1 << lmcOf[g];
                int lid = findFree(owner, cursor, lmcOf[g]);
                if (lid == 0 && !released && !reserved.isEmpty()) {
                    for (int l = 1; l <= MAX_LID; l++) {
                        if (owner[l] == RESERVED) {
                            owner[l] = 0;
                        }
                    }
                    problems.add("LID space nearly full: gave up the " + reserved.size() + " LID ranges the "
                            + "guid2lid database keeps for ports not in the subnet now");
                    reserved.clear();
                    released = true;
                    java.util.Arrays.fill(cursor, 1);
                    lid = findFree(owner, cursor, lmcOf[g]);
                }
                if (lid == 0) {
                    unassigned++;
                    continue;
                }
                take(owner, base, g, lid, size);
            }
        }
        if (unassigned > 0 || needed > MAX_LID) {
            problems.add(String.format("LID space exhausted: %,d end ports (%,d CA/router ports, %,d switches) need "
                    + "%,d LIDs at LMC %d; the unicast LID space holds %,d (1..0xBFFF); %,d end ports left without a "
                    + "LID and not brought up", ends.length, ends.length - switchPorts, switchPorts, needed, lmc,
                    MAX_LID, unassigned));
        }

        // count, and record in the database
        int kept = 0;
        int restored = 0;
        int fresh = 0;
        for (int g : ends) {
            if (base[g] == 0) {
                continue;
            }
            boolean same = base[g] == t.lid(g) && lmcOf[g] == t.lmc(g);
            Range remembered = db.get(t.portGuid(g));
            if (same) {
                kept++;
            } else if (remembered != null && remembered.first() == base[g]) {
                restored++;
            } else {
                fresh++;
            }
            Range r = new Range(base[g], base[g] + (1 << lmcOf[g]) - 1);
            if (present.get(t.portGuid(g)) == g && !r.equals(remembered)) {
                db.put(t.portGuid(g), r);
                dirty = true;
            }
        }
        if (released) {
            dirty |= db.keySet().removeIf(guid -> !present.containsKey(guid));
        }
        return new Result(new LidAssignment(base, lmcOf, kept, restored, fresh, unassigned), problems);
    }

    /** Saves the database when it changed; true when it wrote the file. */
    boolean persist() {
        if (file == null || !dirty) {
            return false;
        }
        Guid2LidFile.write(file, db);
        dirty = false;
        return true;
    }

    private static boolean free(int[] owner, int first, int size) {
        if (first < 1 || first + size - 1 > MAX_LID) {
            return false;
        }
        for (int l = first; l < first + size; l++) {
            if (owner[l] != 0) {
                return false;
            }
        }
        return true;
    }

    private static void take(int[] owner, int[] base, int g, int first, int size) {
        for (int l = first; l < first + size; l++) {
            owner[l] = g + 1;
        }
        base[g] = first;
    }

    /** The lowest free range of 2^lmc LIDs aligned to its size, at or after the cursor for that LMC; 0 if none. */
    private static int findFree(int[] owner, int[] cursor, int lmc) {
        int size = 1 << lmc;
        int lid = (cursor[lmc] + size - 1) / size * size;
        if (lid == 0) {
            lid = size;
        }
        for (; lid + size - 1 <= MAX_LID; lid += size) {
            if (free(owner, lid, size)) {
                cursor[lmc] = lid + size;
                return lid;
            }
        }
        cursor[lmc] = MAX_LID + 1;
        return 0;
    }
}
