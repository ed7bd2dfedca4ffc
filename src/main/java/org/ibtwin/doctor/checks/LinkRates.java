package org.ibtwin.doctor.checks;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.ibtwin.doctor.FabricState;
import org.ibtwin.model.Cable;
import org.ibtwin.model.CableKind;
import org.ibtwin.model.Link;
import org.ibtwin.model.LinkSpeed;

/** What the link-rate checks (T04, T05, T06) share. */
final class LinkRates {
    private LinkRates() {
    }

    /**
     * A link held at its cable's rating, not by a fault: the cable is described (its kind is known), its rated
     * speed is below what both ports can do, the link runs exactly at that rating, and the rating is one a cable
     * for these ports can have (QDR and up share the QSFP connector family; an SDR or DDR rating there means a
     * failing cable, which is T04's).
     */
    static boolean heldByRatedCable(Link l) {
        Cable c = l.cable();
        LinkSpeed cap = l.capableSpeed();
        return l.isUp() && c.kind() != CableKind.UNKNOWN && cap != null && c.maxSpeed().compareTo(cap) < 0
                && c.maxSpeed() == l.activeSpeed() && c.maxSpeed().isAtLeast(LinkSpeed.QDR);
    }

    /** "cable: active-optical, 10 m, rated DDR" or null when nothing is known about it. */
    static String cable(Link l) {
        Cable c = l.cable();
        if (c.kind() == CableKind.UNKNOWN && c.lengthMetres() == 0) {
            return null;
        }
        StringBuilder sb = new StringBuilder("cable: ").append(c.kind().label());
        if (c.lengthMetres() > 0) {
            sb.append(", ").append(Words.gbps(c.lengthMetres())).append(" m");
        }
        if (c.maxSpeed() != Cable.UNRATED.maxSpeed() || c.maxWidth() != Cable.UNRATED.maxWidth()) {
            sb.append(", carries up to ").append(Words.rate(c.maxWidth(), c.maxSpeed()));
        }
        return sb.toString();
    }

    /** "78 other links with both ends capable of 4xHDR run at 4xHDR" for the peers of a degraded link. */
    static String peers(FabricState s, Link l, List<Link> all) {
        Map<String, Integer> rates = new HashMap<>();
        int same = 0;
        for (Link o : all) {
            if (o == l || !o.isUp() || o.capableSpeed() != l.capableSpeed() || o.capableWidth() != l.capableWidth()) {
                continue;
            }
            same++;
            rates.merge(Words.rate(o.activeWidth(), o.activeSpeed()), 1, Integer::sum);
        }
        if (same == 0) {
            return null;
        }
        String full = Words.rate(l.capableWidth(), l.capableSpeed());
        int atFull = rates.getOrDefault(full, 0);
        return atFull + " of the " + Words.plural(same, "other link", "other links") + " whose ends support " + full
                + " run at " + full;
    }
}
