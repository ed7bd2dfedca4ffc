package org.ibtwin.doctor;

import org.ibtwin.model.Cable;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Link;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.LinkWidth;
import org.ibtwin.model.Port;

/** Helpers for building a model from what tools or MADs showed. */
final class ModelBuilder {
    private ModelBuilder() {
    }

    /**
     * Cables two ports whose capabilities are already set so that the link shows exactly the width and speed seen:
     * each port is made to support and enable them, and when training would give more, the link gets a cable that
     * holds it there (as the topology reader does for a degraded link in a dump).
     */
    static Link link(Fabric f, Port a, Port b, LinkWidth w, LinkSpeed s) {
        if (w != null && s != null) {
            for (Port p : new Port[] {a, b}) {
                int sm = p.speedSupported() | (1 << s.ordinal());
                int se = p.speedEnabled() | (1 << s.ordinal());
                int wm = p.widthSupported() | (1 << w.ordinal());
                int we = p.widthEnabled() | (1 << w.ordinal());
                p.setSpeeds(sm, se);
                p.setWidths(wm, we);
            }
        }
        Link l = f.connect(a, b, Cable.UNRATED);
        if (w != null && s != null && (l.activeWidth() != w || l.activeSpeed() != s)) {
            l.setCable(Cable.UNRATED.withMaxSpeed(s).withMaxWidth(w));
        }
        return l;
    }
}
