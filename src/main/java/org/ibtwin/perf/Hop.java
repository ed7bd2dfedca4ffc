package org.ibtwin.perf;

import org.ibtwin.model.Link;
import org.ibtwin.model.Port;

/** One link crossed in one direction: out of {@code from}, into {@code to}. */
public record Hop(Port from, Port to) {
    public Hop {
        if (from == null || to == null || from.link() == null || from.remote() != to) {
            throw new IllegalArgumentException("a hop joins the two ends of one link: " + from + " -> " + to);
        }
    }

    public Link link() {
        return from.link();
    }

    /** Does the hop run from the link's end a to its end b. */
    public boolean aToB() {
        return from == link().a();
    }
}
