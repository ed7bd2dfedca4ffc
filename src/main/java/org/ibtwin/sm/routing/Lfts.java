package org.ibtwin.sm.routing;

/**
 * What routing produces: a linear forwarding table per switch (switch numbers as in the {@link SwitchGraph}),
 * each a {@code byte[]} indexed by LID whose length is a whole number of 64-entry blocks covering LIDs
 * 0..{@link #top()}; an entry is the egress port, 0xFF for a LID not routed.
 *
 * <p>The tables are handed over, not copied: nobody writes to them once an engine has returned them.
 */
public final class Lfts {
    /** An LFT entry for a LID with no route. */
    public static final int NO_ROUTE = 0xff;

    private final byte[][] tables;
    private final int top;

    public Lfts(byte[][] tables, int top) {
        int len = blocks(top) * 64;
        for (byte[] t : tables) {
            if (t.length != len) {
                throw new IllegalArgumentException("every LFT must hold " + len + " entries (LIDs 0.." + top
                        + " in 64-entry blocks), not " + t.length);
            }
        }
        this.tables = tables;
        this.top = top;
    }

    /** The number of 64-entry blocks that cover LIDs 0..top. */
    public static int blocks(int top) {
        return top / 64 + 1;
    }

    /** A table for LIDs 0..top with every entry unrouted. */
    public static byte[] empty(int top) {
        byte[] t = new byte[blocks(top) * 64];
        java.util.Arrays.fill(t, (byte) NO_ROUTE);
        return t;
    }

    public int switches() {
        return tables.length;
    }

    public int top() {
        return top;
    }

    /** The egress port of switch {@code s} for {@code lid}; {@link #NO_ROUTE} when none. */
    public int port(int s, int lid) {
        byte[] t = tables[s];
        return lid < 0 || lid >= t.length ? NO_ROUTE : t[lid] & 0xff;
    }

    /** Switch {@code s}'s table itself (shared: do not modify). */
    public byte[] table(int s) {
        return tables[s];
    }
}
