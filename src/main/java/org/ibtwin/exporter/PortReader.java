package org.ibtwin.exporter;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.ibtwin.diag.MadQuery;
import org.ibtwin.diag.QueryException;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.Field;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.PerfAttributes;

/**
 * Reads a device's port counters through its PMA with the diag layer's queries, as {@code perfquery -x} and
 * ibqueryerrors choose them: ClassPortInfo once, then per port PortCountersExtended for the 64-bit data and packet
 * counters when CapabilityMask announces extended width counters (only the first four with NOIETF), and the error
 * counters from there too when CapabilityMask2 announces the additional extended counters, else from PortCounters
 * (PortXmitWait and QP1Dropped only where CapabilityMask says the PMA counts them).
 */
final class PortReader {
    private static final int CAP_EXT = PerfAttributes.CAP_EXT_WIDTH_SUPPORTED;
    private static final int CAP_EXT_ANY = PerfAttributes.CAP_EXT_WIDTH_SUPPORTED
            | PerfAttributes.CAP_EXT_WIDTH_NOIETF;

    /**
     * One port's reading: each counter of {@link CounterMetric#ALL} and its width in bits (0: not read), when its
     * answer came (epoch milliseconds), or the failure that stopped it.
     */
    record Reading(int port, long[] values, int[] bits, long millis, QueryException failure) {
        boolean failed() {
            return failure != null;
        }

        /** The CounterSelect mask that clears what was read from PortCounters (16- and 32-bit counters). */
        int basicMask() {
            int m = 0;
            for (int i = 0; i < bits.length; i++) {
                int b = CounterMetric.ALL.get(i).resetBit();
                if (bits[i] > 0 && bits[i] < 64 && b >= 0) {
                    m |= 1 << b;
                }
            }
            return m;
        }

        /** Whether a 16- or 32-bit counter has passed half its range (a reset keeps it from saturating). */
        boolean nearSaturation() {
            for (int i = 0; i < bits.length; i++) {
                if (bits[i] > 0 && bits[i] < 64 && values[i] >= 1L << (bits[i] - 1)) {
                    return true;
                }
            }
            return false;
        }
    }

    private final MadQuery q;

    PortReader(MadQuery q) {
        this.q = Objects.requireNonNull(q, "q");
    }

    /** Every uplink port of {@code d}; a failed ClassPortInfo fails them all, a failed port only itself. */
    List<Reading> read(Device d) {
        List<Reading> out = new ArrayList<>(d.uplinks().size());
        int cap;
        int cap2;
        try {
            byte[] cpi = q.pmaClassPortInfo(d.lid(), d.uplinks().isEmpty() ? 1 : d.uplinks().getFirst().port());
            cap = (int) PerfAttributes.CLASS_PORT_INFO.get(cpi, 0, "CapabilityMask");
            cap2 = (int) PerfAttributes.CLASS_PORT_INFO.get(cpi, 0, "CapabilityMask2");
        } catch (QueryException e) {
            for (Device.Uplink u : d.uplinks()) {
                out.add(new Reading(u.port(), null, null, 0, e));
            }
            return out;
        }
        for (Device.Uplink u : d.uplinks()) {
            out.add(port(d.lid(), u.port(), cap, cap2));
        }
        return out;
    }

    private Reading port(int lid, int port, int cap, int cap2) {
        int n = CounterMetric.ALL.size();
        long[] values = new long[n];
        int[] bits = new int[n];
        boolean ext = (cap & CAP_EXT_ANY) != 0;
        boolean addl = ext && (cap2 & PerfAttributes.CAP2_ADDL_PORT_COUNTERS_EXT) != 0;
        try {
            if (ext) {
                byte[] pcx = q.pmaGet(lid, AttributeIds.PORT_COUNTERS_EXTENDED, port);
                Layout l = PerfAttributes.PORT_COUNTERS_EXTENDED;
                for (int i = 0; i < n; i++) {
                    CounterMetric c = CounterMetric.ALL.get(i);
                    boolean take = c.extended() ? i < 4 || (cap & CAP_EXT) != 0 : addl && allowed(c, cap);
                    if (take) {
                        Field f = l.field(c.field());
                        values[i] = l.get(pcx, 0, f);
                        bits[i] = f.bitLength();
                    }
                }
            }
            if (!addl) {
                byte[] pc = q.pmaGet(lid, AttributeIds.PORT_COUNTERS, port);
                Layout l = PerfAttributes.PORT_COUNTERS;
                for (int i = 0; i < n; i++) {
                    CounterMetric c = CounterMetric.ALL.get(i);
                    if (bits[i] == 0 && allowed(c, cap) && l.find(c.field()).isPresent()) {
                        Field f = l.field(c.field());
                        values[i] = l.get(pc, 0, f);
                        bits[i] = f.bitLength();
                    }
                }
            }
        } catch (QueryException e) {
            return new Reading(port, null, null, 0, e);
        }
        return new Reading(port, values, bits, System.currentTimeMillis(), null);
    }

    /** PortXmitWait and QP1Dropped are counted only where CapabilityMask says so. */
    private static boolean allowed(CounterMetric c, int cap) {
        return switch (c.field()) {
            case "PortXmitWait" -> (cap & PerfAttributes.CAP_PORT_XMIT_WAIT) != 0;
            case "QP1Dropped" -> (cap & PerfAttributes.CAP_QP1_DROPPED) != 0;
            default -> true;
        };
    }
}
