package org.ibtwin.perf.collective;

import java.util.Locale;

/**
 * NCCL's protocols: LL (8-byte stores, 4 bytes of data and a 4-byte flag: half the bandwidth, the lowest latency),
 * LL128 (128-byte lines with 8 bytes of flags: 120/128 of the bandwidth), Simple (bulk copies fenced per chunk:
 * all of the bandwidth, the highest latency).
 */
public enum Protocol {
    LL("LL"), LL128("LL128"), SIMPLE("Simple");

    private final String label;

    Protocol(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** NCCL_PROTO-style name, or null: ll, ll128, simple (any case). */
    public static Protocol parse(String s) {
        String t = s.trim().toLowerCase(Locale.ROOT);
        for (Protocol p : values()) {
            if (p.label.toLowerCase(Locale.ROOT).equals(t)) {
                return p;
            }
        }
        return null;
    }
}
