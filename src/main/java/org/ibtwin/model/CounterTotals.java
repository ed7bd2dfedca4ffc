package org.ibtwin.model;

import java.util.HashMap;
import java.util.Map;

/**
 * 64-bit running totals of every port's PMA counters, as OpenSM's PerfMgr keeps them, for each reader of the
 * counters (the SM's PerfMgr, the Prometheus exporter): the first reading is taken as it stands (the counts since the
 * port's last reset), each later one adds what the counter rose by, and a counter found lower than last time was
 * reset in between (by anyone: a {@code perfquery -R}, an SM, an exporter) and adds what it counted since. A total
 * wraps at 2^64, as a PortCountersExtended counter would. A counter whose width changes (the PMA began answering
 * PortCountersExtended) starts again from its new reading. A reader that resets a counter itself says so with
 * {@link #cleared}, so the counts before its reset are kept.
 *
 * <p>Counters are indexed by the caller's own order (at most 64 of them); thread-safe.
 */
public final class CounterTotals {
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

    /** What one reading did to a port's totals. */
    public record Update(long[] totals, long resetsSeen) {
    }

    private final Map<Long, Map<Integer, State>> ports = new HashMap<>();

    /**
     * Adds a reading of port {@code port} of {@code guid} ({@code bits[i]} 0: counter {@code i} was not read) and
     * returns the totals (an entry is meaningful only where {@code bits} is not 0).
     */
    public long[] add(long guid, int port, long[] values, int[] bits) {
        return update(guid, port, values, bits).totals();
    }

    /**
     * {@link #add}, also saying which counters were found lower than last time (bit {@code i} of
     * {@code resetsSeen}: counter {@code i} was reset by someone else since the last reading).
     */
    public synchronized Update update(long guid, int port, long[] values, int[] bits) {
        State s = ports.computeIfAbsent(guid, g -> new HashMap<>()).computeIfAbsent(port, p -> new State(bits.length));
        long resets = 0;
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
                resets |= 1L << i;
            }
            s.last[i] = v;
        }
        return new Update(s.total.clone(), resets);
    }

    /**
     * This reader cleared the counters of {@code counters} (bit {@code i}: counter {@code i}) on the port: their
     * next reading counts from zero. Only 16- and 32-bit counters are taken to be cleared (a reset of
     * PortCounters leaves the 64-bit extended ones alone).
     */
    public synchronized void cleared(long guid, int port, long counters) {
        State s = ports.getOrDefault(guid, Map.of()).get(port);
        if (s == null) {
            return;
        }
        for (int i = 0; i < s.bits.length; i++) {
            if ((counters & (1L << i)) != 0 && s.bits[i] > 0 && s.bits[i] < 64) {
                s.last[i] = 0;
            }
        }
    }

    /** This reader cleared the counters of {@code counters} whatever their width (a PortCountersExtended Set). */
    public synchronized void cleared64(long guid, int port, long counters) {
        State s = ports.getOrDefault(guid, Map.of()).get(port);
        if (s == null) {
            return;
        }
        for (int i = 0; i < s.bits.length; i++) {
            if ((counters & (1L << i)) != 0 && s.bits[i] > 0) {
                s.last[i] = 0;
            }
        }
    }

    /** Every total back to zero; the next readings count on from the counters' values now. */
    public synchronized void clearTotals() {
        for (Map<Integer, State> m : ports.values()) {
            for (State s : m.values()) {
                java.util.Arrays.fill(s.total, 0);
            }
        }
    }

    /** Forgets a node's ports (a node that left the fabric). */
    public synchronized void remove(long guid) {
        ports.remove(guid);
    }

    /** How many ports have totals. */
    public synchronized int size() {
        int n = 0;
        for (Map<Integer, State> m : ports.values()) {
            n += m.size();
        }
        return n;
    }
}
