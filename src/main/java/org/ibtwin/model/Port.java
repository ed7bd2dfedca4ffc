package org.ibtwin.model;

import java.util.Arrays;

/**
 * One port of a node. Switch port 0 is the management port; it has no link. Width and speed sets are bit masks
 * over {@link LinkWidth} and {@link LinkSpeed} ordinals.
 */
public final class Port {
    private final Node node;
    private final int number;
    private long guid;
    private int lid;
    private int lmc;
    private PortState state = PortState.DOWN;
    private PhysState physState = PhysState.POLLING;
    private int widthSupported;
    private int widthEnabled;
    private LinkWidth widthActive;
    private int speedSupported;
    private int speedEnabled;
    private LinkSpeed speedActive;
    private Mtu mtuCap = Mtu.MTU4096;
    private Mtu mtuActive;
    private int vlCap = 4;
    private int[] pkeys = {0xffff};
    private int smLid;
    private int capMask;
    private int capMask2;
    private LinkLayer linkLayer = LinkLayer.INFINIBAND;
    private long[] counters;
    private Link link;

    Port(Node node, int number, long guid) {
        this.node = node;
        this.number = number;
        this.guid = guid;
    }

    public Node node() {
        return node;
    }

    public int number() {
        return number;
    }

    public long guid() {
        return guid;
    }

    public void setGuid(long guid) {
        this.guid = guid;
    }

    public int lid() {
        return lid;
    }

    public void setLid(int lid) {
        if (lid < 0 || lid > 0xffff) {
            throw new IllegalArgumentException("lid out of range: " + lid);
        }
        this.lid = lid;
    }

    public int lmc() {
        return lmc;
    }

    public void setLmc(int lmc) {
        if (lmc < 0 || lmc > 7) {
            throw new IllegalArgumentException("lmc must be 0..7: " + lmc);
        }
        this.lmc = lmc;
    }

    public PortState state() {
        return state;
    }

    public void setState(PortState state) {
        this.state = state;
    }

    public PhysState physState() {
        return physState;
    }

    public void setPhysState(PhysState physState) {
        this.physState = physState;
    }

    public int widthSupported() {
        return widthSupported;
    }

    public int widthEnabled() {
        return widthEnabled;
    }

    public void setWidths(int supported, int enabled) {
        this.widthSupported = supported;
        this.widthEnabled = enabled;
    }

    public LinkWidth widthActive() {
        return widthActive;
    }

    public int speedSupported() {
        return speedSupported;
    }

    public int speedEnabled() {
        return speedEnabled;
    }

    public void setSpeeds(int supported, int enabled) {
        this.speedSupported = supported;
        this.speedEnabled = enabled;
    }

    public LinkSpeed speedActive() {
        return speedActive;
    }

    /** The fastest speed this port both supports and enables. */
    public LinkSpeed bestSpeed() {
        return LinkSpeed.highest(speedSupported & speedEnabled);
    }

    /** The widest width this port both supports and enables. */
    public LinkWidth bestWidth() {
        return LinkWidth.widest(widthSupported & widthEnabled);
    }

    /**
     * Sets the trained width and speed (null, null: down), as a live fabric trained them; {@link Link#train}
     * computes them from the model.
     */
    public void setActive(LinkWidth width, LinkSpeed speed) {
        this.widthActive = width;
        this.speedActive = speed;
    }

    public Mtu mtuCap() {
        return mtuCap;
    }

    public void setMtuCap(Mtu mtuCap) {
        this.mtuCap = mtuCap;
    }

    public Mtu mtuActive() {
        return mtuActive;
    }

    public void setMtuActive(Mtu mtuActive) {
        this.mtuActive = mtuActive;
    }

    public int vlCap() {
        return vlCap;
    }

    public void setVlCap(int vlCap) {
        if (vlCap < 1 || vlCap > 15) {
            throw new IllegalArgumentException("vl cap must be 1..15: " + vlCap);
        }
        this.vlCap = vlCap;
    }

    public int[] pkeys() {
        return pkeys.clone();
    }

    public void setPkeys(int[] pkeys) {
        for (int p : pkeys) {
            if (p < 0 || p > 0xffff) {
                throw new IllegalArgumentException("pkey out of range: " + p);
            }
        }
        this.pkeys = pkeys.clone();
    }

    public int smLid() {
        return smLid;
    }

    public void setSmLid(int smLid) {
        this.smLid = smLid;
    }

    public int capMask() {
        return capMask;
    }

    public void setCapMask(int capMask) {
        this.capMask = capMask;
    }

    public int capMask2() {
        return capMask2;
    }

    public void setCapMask2(int capMask2) {
        this.capMask2 = capMask2;
    }

    public LinkLayer linkLayer() {
        return linkLayer;
    }

    public void setLinkLayer(LinkLayer linkLayer) {
        this.linkLayer = linkLayer;
    }

    public long counter(PortCounter c) {
        return counters == null ? 0 : counters[c.ordinal()];
    }

    /** Sets a counter, saturating at the field's maximum as the PMA does. */
    public void setCounter(PortCounter c, long value) {
        if (counters == null) {
            counters = new long[PortCounter.values().length];
        }
        counters[c.ordinal()] = Math.min(Math.max(0, value), c.max());
    }

    public void resetCounters() {
        if (counters != null) {
            Arrays.fill(counters, 0);
        }
    }

    public Link link() {
        return link;
    }

    void setLink(Link link) {
        this.link = link;
    }

    /** The port at the other end of this port's link, or null. */
    public Port remote() {
        return link == null ? null : link.other(this);
    }

    /** Is this the management port 0 of a switch. */
    public boolean isSwitchPort0() {
        return number == 0;
    }

    /** Copies this port's values (not its link) into {@code c}, the same port of a copied node. */
    void copyInto(Port c) {
        c.guid = guid;
        c.lid = lid;
        c.lmc = lmc;
        c.state = state;
        c.physState = physState;
        c.widthSupported = widthSupported;
        c.widthEnabled = widthEnabled;
        c.widthActive = widthActive;
        c.speedSupported = speedSupported;
        c.speedEnabled = speedEnabled;
        c.speedActive = speedActive;
        c.mtuCap = mtuCap;
        c.mtuActive = mtuActive;
        c.vlCap = vlCap;
        c.pkeys = pkeys;   // never written in place: setPkeys replaces the array
        c.smLid = smLid;
        c.capMask = capMask;
        c.capMask2 = capMask2;
        c.linkLayer = linkLayer;
        c.counters = counters == null ? null : counters.clone();
    }

    @Override
    public String toString() {
        return node.name() + "[" + number + "]";
    }
}
