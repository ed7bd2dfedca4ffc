package org.ibtwin.doctor;

import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import org.ibtwin.model.PortCounter;

/**
 * The error and wait counters of one port read once: perfquery, ibqueryerrors (which lists only the counters over
 * its thresholds: the others are absent, not zero), the PMA over MADs, or the model's counters.
 *
 * @param time   when they were read, null when not known
 * @param values the counters read
 * @param source where ("perfquery-a.txt:12", "PMA", "model")
 * @param series which tool took it ("perfquery", "ibqueryerrors", "PMA"): only readings of one series are compared
 *               as before and after (two tools run one after the other read the same counters twice)
 */
public record CounterReading(Instant time, Map<PortCounter, Long> values, String source, String series) {
    public CounterReading {
        values = values.isEmpty() ? Map.of() : new EnumMap<>(values);
        series = series == null ? "" : series;
    }

    public CounterReading(Instant time, Map<PortCounter, Long> values, String source) {
        this(time, values, source, "");
    }

    public Long get(PortCounter c) {
        return values.get(c);
    }
}
