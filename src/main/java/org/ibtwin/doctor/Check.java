package org.ibtwin.doctor;

import java.util.List;

/**
 * One check: a stable id from the troubleshooting guide, the severity of what it usually finds, and the work. A
 * check that the state cannot support (no counters, no SM information, no host facts) says why through
 * {@link #skipReason} and is listed as "not checked" instead of passing silently.
 */
public interface Check {
    /** "T04". */
    String id();

    /** What the check looks for, one short line ("link trained at a lower speed"). */
    String name();

    /** Why this state cannot be checked, or null when it can. */
    default String skipReason(FabricState state) {
        return null;
    }

    /**
     * The counters whose readings the check reads ({@link FabricState#counters}); it reads no other counter, and
     * {@link Doctor.Cache} keeps its findings while these and the rest of the state are unchanged. None by default.
     */
    default java.util.Set<org.ibtwin.model.PortCounter> counters() {
        return java.util.Set.of();
    }

    /** The findings, in any order; empty when healthy. Only called when {@link #skipReason} is null. */
    List<Finding> run(FabricState state, Thresholds thresholds);
}
