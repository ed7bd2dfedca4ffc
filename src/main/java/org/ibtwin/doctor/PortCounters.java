package org.ibtwin.doctor;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.ibtwin.model.Port;

/**
 * The counter readings of one port, oldest first. With two or more readings the checks look at what rose between
 * the first and the last; with one, at the totals since the counters were last cleared.
 */
public final class PortCounters {
    private final String where;
    private final Port port;
    private final List<CounterReading> readings = new ArrayList<>();

    public PortCounters(String where, Port port) {
        this.where = where;
        this.port = port;
    }

    /** "leaf02/1", or "lid 8/1" for a port the topology does not know. */
    public String where() {
        return where;
    }

    /** The model port, when the topology knows it. */
    public Port port() {
        return port;
    }

    public void add(CounterReading r) {
        readings.add(r);
        readings.sort(Comparator.comparing(CounterReading::time, Comparator.nullsFirst(Comparator.naturalOrder())));
    }

    public List<CounterReading> readings() {
        return readings;
    }

    public CounterReading first() {
        return readings.get(0);
    }

    public CounterReading last() {
        return readings.get(readings.size() - 1);
    }
}
