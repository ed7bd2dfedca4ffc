package org.ibtwin.model;

/**
 * A cable between two ports. Training picks the widest width and the fastest speed that both ports support and
 * enable and that the cable carries; when nothing is common the link stays down with both ports polling.
 */
public final class Link {
    private final Port a;
    private final Port b;
    private Cable cable;

    Link(Port a, Port b, Cable cable) {
        this.a = a;
        this.b = b;
        this.cable = cable;
    }

    public Port a() {
        return a;
    }

    public Port b() {
        return b;
    }

    public Cable cable() {
        return cable;
    }

    /** Replaces the cable and trains the link again. */
    public void setCable(Cable cable) {
        this.cable = cable;
        train();
    }

    public Port other(Port p) {
        if (p == a) {
            return b;
        }
        if (p == b) {
            return a;
        }
        throw new IllegalArgumentException(p + " is not on link " + this);
    }

    public LinkWidth activeWidth() {
        return a.widthActive();
    }

    public LinkSpeed activeSpeed() {
        return a.speedActive();
    }

    public boolean isUp() {
        return a.widthActive() != null;
    }

    /** The width both ends could reach with a perfect cable. */
    public LinkWidth capableWidth() {
        return LinkWidth.widest(a.widthSupported() & a.widthEnabled() & b.widthSupported() & b.widthEnabled());
    }

    /** The speed both ends could reach with a perfect cable. */
    public LinkSpeed capableSpeed() {
        return LinkSpeed.highest(a.speedSupported() & a.speedEnabled() & b.speedSupported() & b.speedEnabled());
    }

    /** Trained below what both ends could do (the cable or a fault holds it back). */
    public boolean isDegraded() {
        if (!isUp()) {
            return false;
        }
        LinkWidth cw = capableWidth();
        LinkSpeed cs = capableSpeed();
        return (cw != null && activeWidth().lanes() < cw.lanes()) || (cs != null && activeSpeed().compareTo(cs) < 0);
    }

    /** Data rate of the trained link in Gb/s, 0 when down. */
    public double dataGbps() {
        return isUp() ? dataGbps(activeWidth(), activeSpeed()) : 0;
    }

    /**
     * The data rate of a width and speed, Gb/s: lanes x the lane's rate after line encoding (4xHDR 200). The one
     * place a link's data rate is computed; every command prints this.
     */
    public static double dataGbps(LinkWidth width, LinkSpeed speed) {
        return width.lanes() * speed.dataGbps();
    }

    /** Negotiates width and speed and moves both ports to Init/LinkUp, or to Down/Polling when nothing is common. */
    public void train() {
        int widths = a.widthSupported() & a.widthEnabled() & b.widthSupported() & b.widthEnabled()
                & LinkWidth.upTo(cable.maxWidth());
        int speeds = a.speedSupported() & a.speedEnabled() & b.speedSupported() & b.speedEnabled();
        int cableSpeeds = 0;
        for (LinkSpeed s : LinkSpeed.values()) {
            if (s.compareTo(cable.maxSpeed()) <= 0) {
                cableSpeeds |= 1 << s.ordinal();
            }
        }
        speeds &= cableSpeeds;
        LinkWidth w = LinkWidth.widest(widths);
        LinkSpeed s = LinkSpeed.highest(speeds);
        boolean ethernet = a.linkLayer() != LinkLayer.INFINIBAND || b.linkLayer() != LinkLayer.INFINIBAND;
        if (w == null || s == null || ethernet) {
            a.setActive(null, null);
            b.setActive(null, null);
            for (Port p : new Port[] {a, b}) {
                p.setState(PortState.DOWN);
                p.setPhysState(PhysState.POLLING);
            }
            return;
        }
        a.setActive(w, s);
        b.setActive(w, s);
        for (Port p : new Port[] {a, b}) {
            if (p.state() == PortState.DOWN) {
                p.setState(PortState.INIT);
            }
            p.setPhysState(PhysState.LINK_UP);
        }
    }

    @Override
    public String toString() {
        return a + " <-> " + b;
    }
}
