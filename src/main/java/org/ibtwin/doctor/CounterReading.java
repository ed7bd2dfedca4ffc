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
 */
public record CounterReading(Instant time, Map<PortCounter, Long> values, String source) {
    public CounterReading {
        values = values.isEmpty() ? Map.of() : new EnumMap<>(values);
    }

    public Long get(PortCounter c) {
        return values.get(c);
    }
}
