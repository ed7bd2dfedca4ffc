package org.ibtwin.model;

import java.util.Locale;

/** What physically joins two ports. */
public enum CableKind {
    PASSIVE_COPPER("passive-copper"),
    ACTIVE_COPPER("active-copper"),
    ACTIVE_OPTICAL("active-optical"),
    TRANSCEIVER_FIBRE("transceiver-fibre"),
    /** Not described: read from a topology dump that does not say. */
    UNKNOWN("unknown");

    private final String label;

    CableKind(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    public static CableKind parse(String s) {
        String t = s.trim().toLowerCase(Locale.ROOT).replace('_', '-').replace(' ', '-');
        for (CableKind k : values()) {
            if (k.label.equals(t)) {
                return k;
            }
        }
        return switch (t) {
            case "dac", "copper" -> PASSIVE_COPPER;
            case "aoc", "optical" -> ACTIVE_OPTICAL;
            case "fibre", "fiber", "transceiver", "transceiver-fiber" -> TRANSCEIVER_FIBRE;
            case "acc" -> ACTIVE_COPPER;
            default -> null;
        };
    }
}
