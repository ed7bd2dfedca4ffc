package org.ibtwin.doctor;

import java.nio.file.Path;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.ibtwin.format.FormatException;
import org.ibtwin.format.KeyValueFile;
import org.ibtwin.model.PortCounter;

/**
 * The limits the counter and routing checks compare against. A counter is over its threshold when its value (one
 * reading) or its rise (two readings) is greater than the threshold, as ibqueryerrors compares. The file is
 * ibqueryerrors' error_thresholds format ({@code SymbolErrorCounter=10}) plus doctor's own keys:
 * {@code suppress=T11,T21} (checks not to run), {@code route_imbalance=2.0} and {@code route_min_difference=4}
 * (T22 unbalanced routing).
 */
public final class Thresholds {
    private final Map<PortCounter, Long> limits = new EnumMap<>(PortCounter.class);
    private final Set<String> suppressed = new TreeSet<>();
    private double routeImbalance = 2.0;
    private int routeMinDifference = 4;

    /** The defaults. */
    public Thresholds() {
        limits.put(PortCounter.SYMBOL_ERROR, 10L);
        limits.put(PortCounter.LINK_ERROR_RECOVERY, 5L);
        limits.put(PortCounter.LINK_DOWNED, 3L);
        limits.put(PortCounter.RCV_ERRORS, 10L);
        limits.put(PortCounter.RCV_REMOTE_PHYSICAL_ERRORS, 100L);
        limits.put(PortCounter.RCV_SWITCH_RELAY_ERRORS, 1000L);
        limits.put(PortCounter.XMIT_DISCARDS, 100L);
        limits.put(PortCounter.XMIT_CONSTRAINT_ERRORS, 10L);
        limits.put(PortCounter.RCV_CONSTRAINT_ERRORS, 10L);
        limits.put(PortCounter.LOCAL_LINK_INTEGRITY_ERRORS, 5L);
        limits.put(PortCounter.EXCESSIVE_BUFFER_OVERRUN_ERRORS, 5L);
        limits.put(PortCounter.VL15_DROPPED, 100L);
        limits.put(PortCounter.XMIT_WAIT, 50_000L);
    }

    /** The limit of a counter, or null when the counter is not checked. */
    public Long limit(PortCounter c) {
        return limits.get(c);
    }

    public Map<PortCounter, Long> limits() {
        return Collections.unmodifiableMap(limits);
    }

    public Thresholds set(PortCounter c, long limit) {
        limits.put(c, limit);
        return this;
    }

    public boolean suppressed(String id) {
        return suppressed.contains(id);
    }

    public Set<String> suppressedIds() {
        return Collections.unmodifiableSet(suppressed);
    }

    public Thresholds suppress(String id) {
        suppressed.add(id.toUpperCase(Locale.ROOT));
        return this;
    }

    /** T22: the busiest uplink of a switch carries more than this many times the routes of its quietest. */
    public double routeImbalance() {
        return routeImbalance;
    }

    /** T22: and at least this many routes more. */
    public int routeMinDifference() {
        return routeMinDifference;
    }

    /** The settings as a map, for the JSON report. */
    public Map<String, Object> toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        limits.forEach((c, v) -> m.put(c.fieldName(), v));
        m.put("route_imbalance", routeImbalance);
        m.put("route_min_difference", routeMinDifference);
        if (!suppressed.isEmpty()) {
            m.put("suppress", suppressed);
        }
        return m;
    }

    /** Reads a thresholds file over the defaults; unknown keys and bad values are {@code file:line} errors. */
    public static Thresholds read(Path file) {
        Thresholds t = new Thresholds();
        String name = file.toString();
        for (KeyValueFile.Entry e : KeyValueFile.read(file)) {
            String k = e.key();
            String v = e.value();
            switch (k.toLowerCase(Locale.ROOT)) {
                case "suppress" -> {
                    for (String id : v.split("[,\\s]+")) {
                        if (!id.isEmpty()) {
                            if (!id.matches("(?i)T\\d\\d")) {
                                throw new FormatException(name, e.line(), "suppress: \"" + id
                                        + "\" is not a check id (T01..T25)");
                            }
                            t.suppress(id);
                        }
                    }
                }
                case "route_imbalance" -> {
                    try {
                        t.routeImbalance = Double.parseDouble(v);
                    } catch (NumberFormatException ex) {
                        t.routeImbalance = -1;
                    }
                    if (!(t.routeImbalance >= 1)) {
                        throw new FormatException(name, e.line(), "route_imbalance: \"" + v
                                + "\" is not a ratio >= 1");
                    }
                }
                case "route_min_difference" -> t.routeMinDifference = (int) number(v, name, e.line(), k);
                default -> {
                    PortCounter c = counter(k);
                    if (c == null) {
                        throw new FormatException(name, e.line(), "unknown threshold \"" + k
                                + "\" (expected a PortCounters field such as SymbolErrorCounter, or suppress, "
                                + "route_imbalance, route_min_difference)");
                    }
                    t.limits.put(c, number(v, name, e.line(), k));
                }
            }
        }
        return t;
    }

    /** The counter perfquery names so ("SymbolErrorCounter"), case-insensitively; null when none. */
    public static PortCounter counter(String fieldName) {
        for (PortCounter c : PortCounter.values()) {
            if (c.fieldName().equalsIgnoreCase(fieldName)) {
                return c;
            }
        }
        return null;
    }

    private static long number(String v, String file, int line, String key) {
        try {
            long n = v.startsWith("0x") || v.startsWith("0X") ? Long.parseLong(v.substring(2), 16) : Long.parseLong(v);
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new FormatException(file, line, key + ": \"" + v + "\" is not a non-negative number");
    }
}
