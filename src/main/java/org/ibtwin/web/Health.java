package org.ibtwin.web;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import org.ibtwin.model.Link;
import org.ibtwin.model.Port;
import org.ibtwin.model.PortCounter;

/**
 * A link's health, the one place the map's colours come from: down (not trained, or no cable), degraded (trained
 * below the width or speed both ends could run: {@link Link#isDegraded}), errors (an error counter at either end
 * above zero), congested (PortXmitWait rising at either end), else ok. A link can be several at once; the first
 * in that order is its colour.
 */
public final class Health {
    public static final String DOWN = "down";
    public static final String DEGRADED = "degraded";
    public static final String ERRORS = "errors";
    public static final String CONGESTED = "congested";
    public static final String OK = "ok";
    private static final List<String> ORDER = List.of(DOWN, DEGRADED, ERRORS, CONGESTED, OK);

    /** The counters that count errors on a link (not data, packets or waits). */
    static final List<PortCounter> ERROR_COUNTERS = List.of(PortCounter.SYMBOL_ERROR,
            PortCounter.LINK_ERROR_RECOVERY, PortCounter.LINK_DOWNED, PortCounter.RCV_ERRORS,
            PortCounter.RCV_REMOTE_PHYSICAL_ERRORS, PortCounter.XMIT_DISCARDS, PortCounter.LOCAL_LINK_INTEGRITY_ERRORS,
            PortCounter.EXCESSIVE_BUFFER_OVERRUN_ERRORS);

    private Health() {
    }

    /**
     * What is wrong with {@code l}, one line each, its kind first ("degraded: 4xDDR, could be 4xHDR"); ["ok"] when
     * nothing is.
     *
     * @param ratesA {txGbps, txShare, waitPerSecond} at the link's end a (null: unknown), likewise {@code ratesB}
     * @param name   how findings name a port ("leaf02/33")
     */
    public static List<String> of(Link l, double[] ratesA, double[] ratesB, Function<Port, String> name) {
        List<String> why = new ArrayList<>();
        if (!l.isUp()) {
            why.add(DOWN + ": not trained (" + l.a().physState() + " / " + l.b().physState() + ")");
            return why;
        }
        if (l.isDegraded()) {
            why.add(DEGRADED + ": " + l.activeWidth().label() + l.activeSpeed().label() + ", could be "
                    + l.capableWidth().label() + l.capableSpeed().label());
        }
        for (Port p : new Port[] {l.a(), l.b()}) {
            for (PortCounter c : ERROR_COUNTERS) {
                long v = p.counter(c);
                if (v > 0) {
                    why.add(String.format(Locale.ROOT, "%s: %s %,d at %s", ERRORS, c.fieldName(), v,
                            name.apply(p)));
                }
            }
        }
        double[][] both = {ratesA, ratesB};
        Port[] ends = {l.a(), l.b()};
        for (int i = 0; i < 2; i++) {
            if (both[i] != null && both[i][2] > 0) {
                why.add(String.format(Locale.ROOT, "%s: PortXmitWait +%,.0f/s at %s", CONGESTED, both[i][2],
                        name.apply(ends[i])));
            }
        }
        if (why.isEmpty()) {
            why.add(OK);
        }
        return why;
    }

    /** The first kind in the order down, degraded, errors, congested, ok that {@code why} names. */
    public static String worst(List<String> why) {
        String best = OK;
        for (String w : why) {
            String kind = w.contains(":") ? w.substring(0, w.indexOf(':')) : w;
            if (ORDER.indexOf(kind) >= 0 && ORDER.indexOf(kind) < ORDER.indexOf(best)) {
                best = kind;
            }
        }
        return best;
    }

    /** The worse of two kinds. */
    public static String worse(String a, String b) {
        return ORDER.indexOf(a) <= ORDER.indexOf(b) ? a : b;
    }
}
