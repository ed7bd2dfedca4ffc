package org.ibtwin.doctor.checks;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.ibtwin.doctor.Check;
import org.ibtwin.doctor.FabricState;
import org.ibtwin.doctor.Finding;
import org.ibtwin.doctor.PortCounters;
import org.ibtwin.doctor.Severity;
import org.ibtwin.doctor.Thresholds;
import org.ibtwin.model.PortCounter;

/**
 * T16: error counters over their thresholds: symbol errors, link error recovery, local link integrity, receive
 * errors, discards, constraint errors, buffer overruns, VL15 drops. With two readings of a port it is the rise
 * between them that counts (an ERROR: the errors are happening now); with one, the total since the counters were
 * last cleared (a WARNING: they may be old). LinkDownedCounter is T24's, PortXmitWait T22's.
 */
public final class ErrorCounterCheck implements Check {
    static final List<PortCounter> COUNTERS = List.of(PortCounter.SYMBOL_ERROR, PortCounter.LINK_ERROR_RECOVERY,
            PortCounter.LOCAL_LINK_INTEGRITY_ERRORS, PortCounter.RCV_ERRORS, PortCounter.RCV_REMOTE_PHYSICAL_ERRORS,
            PortCounter.RCV_SWITCH_RELAY_ERRORS, PortCounter.XMIT_DISCARDS, PortCounter.XMIT_CONSTRAINT_ERRORS,
            PortCounter.RCV_CONSTRAINT_ERRORS, PortCounter.EXCESSIVE_BUFFER_OVERRUN_ERRORS, PortCounter.VL15_DROPPED);

    @Override
    public String id() {
        return "T16";
    }

    @Override
    public String name() {
        return "error counters over thresholds";
    }

    @Override
    public String skipReason(FabricState s) {
        return s.counters().isEmpty() ? "no counters (live PMA, or perfquery / ibqueryerrors outputs)" : null;
    }

    @Override
    public java.util.Set<PortCounter> counters() {
        return java.util.EnumSet.copyOf(COUNTERS);
    }

    @Override
    public List<Finding> run(FabricState s, Thresholds t) {
        List<Finding> out = new ArrayList<>();
        for (PortCounters pc : s.counters().values()) {
            List<String> ev = new ArrayList<>();
            Set<String> fixes = new LinkedHashSet<>();
            boolean rising = false;
            for (PortCounter c : COUNTERS) {
                Long limit = t.limit(c);
                CounterMath m = CounterMath.of(pc, c);
                if (limit == null || m == null || m.value() <= limit) {
                    continue;
                }
                rising |= m.rising();
                ev.add(pc.where() + ": " + m.describe() + ", threshold " + limit);
                fixes.add(fix(c));
            }
            if (ev.isEmpty()) {
                continue;
            }
            if (pc.port() != null && pc.port().remote() != null) {
                ev.add("the link: " + s.linkName(pc.port().link()));
            }
            out.add(new Finding(id(), rising ? Severity.ERROR : Severity.WARNING, pc.where(), (rising
                    ? "error counters rising" : "error counters over thresholds") + " on " + pc.where(), ev,
                    String.join("; ", fixes)));
        }
        return out;
    }

    static String fix(PortCounter c) {
        return switch (c) {
            case SYMBOL_ERROR, LINK_ERROR_RECOVERY, LOCAL_LINK_INTEGRITY_ERRORS, EXCESSIVE_BUFFER_OVERRUN_ERRORS ->
                    "replace the cable or transceiver of this link; if the errors stay, check the switch port";
            case RCV_ERRORS, RCV_REMOTE_PHYSICAL_ERRORS -> "bad packets arrive here: check this link's cable, then "
                    + "the links they came through";
            case RCV_SWITCH_RELAY_ERRORS -> "the switch could not forward packets: check the forwarding tables "
                    + "(ibroute) and multicast groups";
            case XMIT_DISCARDS -> "packets dropped on the way out: congestion or a stuck neighbour (look at "
                    + "PortXmitWait, T22)";
            case XMIT_CONSTRAINT_ERRORS, RCV_CONSTRAINT_ERRORS -> "partition enforcement dropped packets: check the "
                    + "P_Keys (T11)";
            case VL15_DROPPED -> "subnet management packets dropped: the port or the SM is overloaded";
            default -> "investigate the port";
        };
    }
}
