package org.ibtwin.sim;

import org.ibtwin.model.Cable;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.LinkWidth;

/**
 * How the link at a port trained: its active width and speed (null when down), what both ends could reach with a
 * perfect cable (null when the port has no neighbour), the cable, and the port at the other end.
 */
public record LinkStatus(LinkWidth width, LinkSpeed speed, LinkWidth capableWidth, LinkSpeed capableSpeed,
                         Cable cable, String remoteNode, int remotePort) {

    public boolean isUp() {
        return width != null;
    }

    public boolean isLinked() {
        return remoteNode != null;
    }

    /** Up, but below what both ends could do: the cable holds it back. */
    public boolean isDegraded() {
        return isUp() && ((capableWidth != null && width.lanes() < capableWidth.lanes())
                || (capableSpeed != null && speed.compareTo(capableSpeed) < 0));
    }

    /** "4xEDR", "4xDDR (could be 4xEDR)", "down", "unlinked". */
    @Override
    public String toString() {
        if (!isLinked()) {
            return "unlinked";
        }
        if (!isUp()) {
            return "down";
        }
        String s = width.label() + speed.label();
        return isDegraded() ? s + " (could be " + capableWidth.label() + capableSpeed.label() + ")" : s;
    }
}
