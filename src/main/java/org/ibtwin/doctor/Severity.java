package org.ibtwin.doctor;

/** How bad a finding is, most severe first (the enum order is the report order). */
public enum Severity {
    /** The subnet cannot work: no SM, duplicate GUIDs or LIDs, the SM locked out of its own partition. */
    CRITICAL,
    /** Something is broken for some nodes: a link down or trained low, a port in Ethernet mode, mixed IPoIB. */
    ERROR,
    /** Works, but below what the hardware can do, or one failure away from breaking. */
    WARNING,
    /** Worth knowing; nothing to fix now. */
    INFO;

    /** "critical", as the summary line and JSON print it. */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    public boolean atLeast(Severity other) {
        return compareTo(other) <= 0;
    }

    /** Parses "error", "ERROR", "warn"; null when unknown. */
    public static Severity parse(String s) {
        String t = s.trim().toUpperCase(java.util.Locale.ROOT);
        if (t.equals("WARN")) {
            return WARNING;
        }
        for (Severity v : values()) {
            if (v.name().equals(t)) {
                return v;
            }
        }
        return null;
    }
}
