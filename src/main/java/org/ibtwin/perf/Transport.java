package org.ibtwin.perf;

import java.util.Locale;

/** InfiniBand transport services perftest can run over. */
public enum Transport {
    /** Reliable connected: acknowledged, every operation. */
    RC,
    /** Unreliable connected: SEND and RDMA WRITE, no acknowledgements. */
    UC,
    /** Unreliable datagram: SEND only, one packet per message (size at most the path MTU). */
    UD;

    /** Parses "RC", "uc", ...; null when unknown. */
    public static Transport parse(String s) {
        if (s == null) {
            return null;
        }
        for (Transport t : values()) {
            if (t.name().equals(s.trim().toUpperCase(Locale.ROOT))) {
                return t;
            }
        }
        return null;
    }

    /** Can {@code op} run over this transport (RC: all; UC: SEND and WRITE; UD: SEND). */
    public boolean supports(Op op) {
        return switch (this) {
            case RC -> true;
            case UC -> op == Op.SEND || op == Op.WRITE;
            case UD -> op == Op.SEND;
        };
    }
}
