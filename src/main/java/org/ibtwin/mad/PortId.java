package org.ibtwin.mad;

import java.util.Arrays;

/**
 * Where a query went, as the tools name it in their header lines (libibmad's {@code portid2str}): "Lid 3",
 * "DR path slid 65535; dlid 65535; 0,1", or both for a combined route.
 *
 * @param lid the destination LID, 0 for none (a pure directed route)
 * @param drSlid the directed route's DrSLID (65535 when the route starts at the SM's port)
 * @param drDlid the directed route's DrDLID (65535 when the route ends with the path)
 * @param path the directed path, entry 0 the unused 0 the tools show; empty for a LID-routed query
 */
public record PortId(int lid, int drSlid, int drDlid, int[] path) {
    /** DrSLID/DrDLID meaning "the permissive LID": the path starts or ends at the directed part. */
    public static final int PERMISSIVE_LID = 0xffff;

    public PortId {
        path = path.clone();
    }

    /** A LID-routed destination. */
    public static PortId lid(int lid) {
        return new PortId(lid, PERMISSIVE_LID, PERMISSIVE_LID, new int[0]);
    }

    /** A directed route: {@code path} as smpquery -D takes it, starting with 0 ("0,1" is {@code 0, 1}). */
    public static PortId directed(int... path) {
        return new PortId(0, PERMISSIVE_LID, PERMISSIVE_LID, path);
    }

    @Override
    public int[] path() {
        return path.clone();
    }

    /** The hop count: the path's length less its leading 0. */
    public int hops() {
        return Math.max(0, path.length - 1);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PortId p && p.lid == lid && p.drSlid == drSlid && p.drDlid == drDlid
                && Arrays.equals(p.path, path);
    }

    @Override
    public int hashCode() {
        return ((lid * 31 + drSlid) * 31 + drDlid) * 31 + Arrays.hashCode(path);
    }

    /** The tools' text: "Lid 3", "DR path slid 65535; dlid 65535; 0,1", "Lid 3 DR path ...". */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        if (lid > 0) {
            sb.append("Lid ").append(lid);
            if (hops() == 0) {
                return sb.toString();
            }
            sb.append(' ');
        }
        sb.append("DR path slid ").append(drSlid).append("; dlid ").append(drDlid).append("; ");
        sb.append(path.length == 0 ? 0 : path[0]);
        for (int i = 1; i < path.length; i++) {
            sb.append(',').append(path[i]);
        }
        return sb.toString();
    }
}
