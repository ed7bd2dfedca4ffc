package org.ibtwin.web;

import java.util.Map;
import org.ibtwin.doctor.FabricState;
import org.ibtwin.lab.Lab;
import org.ibtwin.lab.TrafficStatus;
import org.ibtwin.model.Port;

/**
 * What the web view shows: a fabric state, read again on every {@link #state()} when the source is live (a running
 * twin), or the one state of a file, a snapshot, saved tool outputs or a scan over a transport. A page never
 * changes the fabric: a source only reads.
 */
public interface WebSource {
    /** How the page names the source ("default fabric (built-in), live"). */
    String name();

    /** Whether {@link #state()} changes over time (a running twin), so the server watches it. */
    boolean live();

    /** The fabric's state now. Called from one thread at a time. */
    FabricState state();

    /** The traffic engine's status while the source has one, else null. */
    default TrafficStatus traffic() {
        return null;
    }

    /** Every port's {@code {PortXmitData words, PortXmitWait}} now, null when the source has no counters to rate. */
    default Map<Port, long[]> xmitCounters() {
        return null;
    }

    /** The clock the counters advance with, in seconds (the traffic engine's simulated time; else the wall's). */
    default double seconds() {
        return System.nanoTime() / 1e9;
    }

    /** One state that never changes: a fabric file, a snapshot, saved outputs, a scan. */
    static WebSource fixed(String name, FabricState state) {
        return new WebSource() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public boolean live() {
                return false;
            }

            @Override
            public FabricState state() {
                return state;
            }
        };
    }

    /**
     * A running lab: its model with the twin's state written back on every read, its traffic engine and counters.
     *
     * @param facts what to name as the source of the host facts ("default.yaml")
     */
    static WebSource of(Lab lab, String name, String facts) {
        return new WebSource() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public boolean live() {
                return true;
            }

            @Override
            public FabricState state() {
                return FabricState.of(lab.synced(), name, facts);
            }

            @Override
            public TrafficStatus traffic() {
                return lab.traffic().status();
            }

            @Override
            public Map<Port, long[]> xmitCounters() {
                return lab.xmitCounters();
            }

            @Override
            public double seconds() {
                return lab.traffic().seconds();
            }
        };
    }
}
