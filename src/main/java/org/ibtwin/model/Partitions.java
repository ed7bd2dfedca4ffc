package org.ibtwin.model;

/**
 * Who can reach whom through the partitions: the one place that decides it. Two ports can talk when their P_Key
 * tables share a partition (the same low 15 bits, not 0) and at least one of the two is a full member of it (the
 * top bit): limited members of a partition cannot talk to each other (IBA 10.9.1). Reachability is pairwise, never
 * transitive: a full member that reaches two tenants does not join them.
 */
public final class Partitions {
    /** The Default partition's number (its P_Key without the membership bit). */
    public static final int DEFAULT = 0x7fff;
    /** The membership bit of a P_Key: set for a full member. */
    public static final int FULL = 0x8000;
    /** A port's table when nothing programmed it: a full member of Default. */
    private static final int[] DEFAULT_TABLE = {0xffff};

    private Partitions() {
    }

    /** The table a port has when no SM programmed it (0xffff alone). */
    public static int[] defaultTable() {
        return DEFAULT_TABLE.clone();
    }

    /**
     * The partition two P_Key tables share with at least one full member: the number (15 bits) of the first such
     * entry of {@code a}, or 0 when there is none. {@code want}, when not 0, names the only partition that counts
     * (its membership bit is ignored).
     */
    public static int shared(int[] a, int[] b, int want) {
        for (int x : a) {
            int base = x & DEFAULT;
            if (base == 0 || (want != 0 && base != (want & DEFAULT))) {
                continue;
            }
            for (int y : b) {
                if ((y & DEFAULT) == base && ((x | y) & FULL) != 0) {
                    return base;
                }
            }
        }
        return 0;
    }

    /** Whether two ports with these P_Key tables can talk: they share a partition, at least one a full member. */
    public static boolean canTalk(int[] a, int[] b) {
        return shared(a, b, 0) != 0;
    }

    /** Whether a table holds partition {@code pkey} (either membership): the entry, or 0. */
    public static int entry(int[] table, int pkey) {
        for (int k : table) {
            if ((k & DEFAULT) != 0 && (k & DEFAULT) == (pkey & DEFAULT)) {
                return k;
            }
        }
        return 0;
    }

    /** Whether a table makes its port a full member of partition {@code pkey}. */
    public static boolean isFullMember(int[] table, int pkey) {
        for (int k : table) {
            if ((k & DEFAULT) != 0 && (k & DEFAULT) == (pkey & DEFAULT) && (k & FULL) != 0) {
                return true;
            }
        }
        return false;
    }
}
