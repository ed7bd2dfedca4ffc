package org.ibtwin.doctor.checks;

import java.time.Duration;
import org.ibtwin.doctor.CounterReading;
import org.ibtwin.doctor.PortCounters;
import org.ibtwin.model.PortCounter;

/** How a counter moved: its rise between the first and last reading, or its total in a single reading. */
record CounterMath(PortCounter counter, long value, boolean rising, long from, long to, Duration elapsed,
                   String sources) {

    /** The counter's movement on a port, or null when it was not read. */
    static CounterMath of(PortCounters pc, PortCounter c) {
        if (pc.readings().size() == 1) {   // one reading (a live source's, a model's): its total
            CounterReading r = pc.readings().getFirst();
            Long v = r.get(c);
            return v == null ? null : new CounterMath(c, v, false, 0, v, null, r.source());
        }
        // the series (tool) with the most readings of this counter, if it has two: compare its first and last
        java.util.Map<String, java.util.List<CounterReading>> series = new java.util.LinkedHashMap<>();
        for (CounterReading r : pc.readings()) {
            if (r.get(c) != null) {
                series.computeIfAbsent(r.series(), k -> new java.util.ArrayList<>()).add(r);
            }
        }
        java.util.List<CounterReading> best = null;
        for (java.util.List<CounterReading> l : series.values()) {
            if (best == null || l.size() > best.size()) {
                best = l;
            }
        }
        if (best == null) {
            return null;
        }
        if (best.size() >= 2) {
            CounterReading a = best.get(0);
            CounterReading b = best.get(best.size() - 1);
            long va = a.get(c);
            long vb = b.get(c);
            long rise = vb >= va ? vb - va : vb;     // cleared in between: all of the last reading is new
            Duration d = a.time() != null && b.time() != null ? Duration.between(a.time(), b.time()) : null;
            if (d != null && (d.isNegative() || d.isZero())) {
                d = null;
            }
            return new CounterMath(c, rise, true, va, vb, d, a.source() + ", " + b.source());
        }
        CounterReading latest = null;
        for (CounterReading r : pc.readings()) {
            if (r.get(c) != null) {
                latest = r;
            }
        }
        long v = latest.get(c);
        return new CounterMath(c, v, false, 0, v, null, latest.source());
    }

    /** "SymbolErrorCounter rose by 1234 in 10 min (7404/hour): 0 -> 1234" or "SymbolErrorCounter 1234". */
    String describe() {
        String sat = to == counter.max() ? " (saturated)" : "";
        if (!rising) {
            return counter.fieldName() + " " + value + sat + " since the counters were last cleared"
                    + Words.from(sources);
        }
        String when = "";
        if (elapsed != null) {
            double hours = elapsed.toMillis() / 3_600_000.0;
            when = " in " + human(elapsed) + " (" + Words.gbps(value / hours) + "/hour)";
        }
        return counter.fieldName() + " rose by " + value + when + ": " + from + " -> " + to + sat
                + Words.from(sources);
    }

    static String human(Duration d) {
        long s = d.toSeconds();
        if (s < 120) {
            return s + " s";
        }
        if (s < 7200) {
            return (s / 60) + " min";
        }
        return Words.gbps(s / 3600.0) + " h";
    }
}
