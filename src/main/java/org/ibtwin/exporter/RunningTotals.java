package org.ibtwin.exporter;

import java.util.HashMap;
import java.util.Map;

/**
 * 64-bit running totals of every port's counters, as OpenSM's PerfMgr keeps them: the first reading is taken as
 * it stands (the counts since the port's last reset), each later one adds what the counter rose by, and a counter
 * found lower than last time was reset in between (by anyone: a {@code perfquery -R}, an SM, this exporter) and
 * adds what it counted since. A total wraps at 2^64, as a PortCountersExtended counter would. A counter whose width
 * changes (the PMA began answering PortCountersExtended) starts again from its new reading.
 */
final class RunningTotals {
    private static final class State {
        final long[] last;
        final int[] bits;
        final long[] total;

        State(int n) {
            last = new long[n];
            bits = new int[n];
            total = new long[n];
        }
    }

    private final Map<Long, Map<Integer, State>> ports = new HashMap<>();

    /**
     * Adds a reading of port {@code port} of {@code guid} ({@code bits[i]} 0: counter {@code i} was not read) and
     * returns the totals (an entry is meaningful only where {@code bits} is not 0).
     */
    synchronized long[] add(long guid, int port, long[] values, int[] bits) {
        State s = ports.computeIfAbsent(guid, g -> new HashMap<>()).computeIfAbsent(port, p -> new State(bits.length));
        for (int i = 0; i < bits.length; i++) {
            if (bits[i] == 0) {
                continue;
            }
            long v = values[i];
            if (s.bits[i] != bits[i]) {
                s.total[i] = s.bits[i] == 0 ? v : s.total[i];
                s.bits[i] = bits[i];
            } else if (Long.compareUnsigned(v, s.last[i]) >= 0) {
                s.total[i] += v - s.last[i];
            } else {
                s.total[i] += v;
            }
            s.last[i] = v;
        }
        return s.total.clone();
    }

    /** This exporter cleared the counters of {@code mask}'s bits (CounterSelect, CounterSelect2 from bit 16). */
    synchronized void cleared(long guid, int port, int mask) {
        State s = ports.getOrDefault(guid, Map.of()).get(port);
        if (s == null) {
            return;
        }
        for (int i = 0; i < s.bits.length; i++) {
            int b = CounterMetric.ALL.get(i).resetBit();
            if (b >= 0 && (mask & (1 << b)) != 0 && s.bits[i] > 0 && s.bits[i] < 64) {
                s.last[i] = 0;
            }
        }
    }

    /** How many ports have totals. */
    synchronized int size() {
        int n = 0;
        for (Map<Integer, State> m : ports.values()) {
            n += m.size();
        }
        return n;
    }
}
