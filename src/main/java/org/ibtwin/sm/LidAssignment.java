package org.ibtwin.sm;

import java.util.Arrays;

/**
 * The LIDs of one sweep: for every end port (CA and router ports, switch port 0s) its base LID and LMC, 0 and 0
 * when it got none. Immutable.
 */
public final class LidAssignment {
    private final int[] base;
    private final byte[] lmc;
    private final int maxLid;
    private final int kept;
    private final int restored;
    private final int assigned;
    private final int unassigned;

    LidAssignment(int[] base, byte[] lmc, int kept, int restored, int assigned, int unassigned) {
        this.base = base;
        this.lmc = lmc;
        int max = 0;
        for (int g = 0; g < base.length; g++) {
            if (base[g] != 0) {
                max = Math.max(max, base[g] + (1 << lmc[g]) - 1);
            }
        }
        this.maxLid = max;
        this.kept = kept;
        this.restored = restored;
        this.assigned = assigned;
        this.unassigned = unassigned;
    }

    /** The base LID of port slot {@code g}, 0 when it has none. */
    public int lid(int g) {
        return base[g];
    }

    public int lmc(int g) {
        return lmc[g];
    }

    /** The highest LID in use (the top of every LFT). */
    public int maxLid() {
        return maxLid;
    }

    /** End ports whose LID stayed what it was. */
    public int kept() {
        return kept;
    }

    /** End ports that got back the LID the guid2lid file remembered for them. */
    public int restored() {
        return restored;
    }

    /** End ports that got a new LID. */
    public int assigned() {
        return assigned;
    }

    /** End ports left without a LID (the unicast LID space is full). */
    public int unassigned() {
        return unassigned;
    }

    /** Base LIDs by port slot (a copy). */
    public int[] lids() {
        return Arrays.copyOf(base, base.length);
    }
}
