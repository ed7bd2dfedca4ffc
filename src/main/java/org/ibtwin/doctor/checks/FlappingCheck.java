package org.ibtwin.doctor.checks;

import java.util.ArrayList;
import java.util.List;
import org.ibtwin.doctor.Check;
import org.ibtwin.doctor.FabricState;
import org.ibtwin.doctor.Finding;
import org.ibtwin.doctor.PortCounters;
import org.ibtwin.doctor.Severity;
import org.ibtwin.doctor.Thresholds;
import org.ibtwin.model.PortCounter;

/**
 * T24: a flapping port: LinkDownedCounter rising between two readings (any rise is an ERROR), or over its threshold
 * in one reading (a WARNING: the drops may be old).
 */
public final class FlappingCheck implements Check {
    static final String FIX = "replace the cable or transceiver; check the switch port and the HCA's temperature "
            + "(a card that overheats drops its link)";

    @Override
    public String id() {
        return "T24";
    }

    @Override
    public String name() {
        return "port flapping";
    }

    @Override
    public String skipReason(FabricState s) {
        return s.counters().isEmpty() ? "no counters (live PMA, or perfquery / ibqueryerrors outputs)" : null;
    }

    @Override
    public java.util.Set<PortCounter> counters() {
        return java.util.Set.of(PortCounter.LINK_DOWNED);
    }

    @Override
    public List<Finding> run(FabricState s, Thresholds t) {
        List<Finding> out = new ArrayList<>();
        Long limit = t.limit(PortCounter.LINK_DOWNED);
        for (PortCounters pc : s.counters().values()) {
            CounterMath m = CounterMath.of(pc, PortCounter.LINK_DOWNED);
            if (m == null || limit == null) {
                continue;
            }
            boolean flag = m.rising() ? m.value() > 0 : m.value() > limit;
            if (!flag) {
                continue;
            }
            List<String> ev = new ArrayList<>();
            ev.add(pc.where() + ": " + m.describe() + (m.rising() ? "" : ", threshold " + limit));
            if (pc.port() != null && pc.port().link() != null) {
                ev.add("the link: " + s.linkName(pc.port().link()));
            }
            out.add(new Finding(id(), m.rising() ? Severity.ERROR : Severity.WARNING, pc.where(), m.rising()
                    ? "link went down " + m.value() + " time" + (m.value() == 1 ? "" : "s") + " between readings"
                    : "link went down " + m.value() + " times since the counters were cleared", ev, FIX));
        }
        return out;
    }
}
