package org.ibtwin.sim;

import static org.ibtwin.sim.TwinState.DISABLED;
import static org.ibtwin.sim.TwinState.DOWN;
import static org.ibtwin.sim.TwinState.INIT;
import static org.ibtwin.sim.TwinState.LINK_UP;
import static org.ibtwin.sim.TwinState.POLLING;

import java.util.Objects;
import org.ibtwin.model.Cable;
import org.ibtwin.model.LinkLayer;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.LinkWidth;
import org.ibtwin.model.PortCounter;

/**
 * The twin's links: how a link trains (the widest width and fastest speed both ends support and enable and the
 * cable carries), how it is lost, and the faults of links and cables ({@link Twin#linkDown}, {@link Twin#linkUp},
 * {@link Twin#flap}, {@link Twin#unplug}, {@link Twin#replug(String, int, Cable)}, {@link Twin#link},
 * {@link Twin#setLinkLayer}). A link that goes down or comes up by itself (not by its own port's Set) makes the
 * switches at its ends note a port state change and trap 128 ({@link Traps}).
 *
 * <p>Runs under the twin's lock. After a fault it calls the twin's {@code settle} (the traps it raised go out and
 * what the receivers send back is processed) at the points the twin always has: a replug or a Link settles before
 * its {@link LinkStatus} is read.
 */
final class Links {
    private final TwinState t;
    private final Traps traps;
    private final Runnable settle;

    Links(TwinState t, Traps traps, Runnable settle) {
        this.t = t;
        this.traps = traps;
        this.settle = settle;
    }

    // =====================================================================================================
    // training

    /**
     * Trains the link at {@code g} again, as hardware does after a state change: the widest width and fastest
     * speed both ports support and enable and the cable carries. Both ports come up LinkUp/Init, or go (stay)
     * Down/Polling; a disabled end stays Disabled, and a port held down by a fault, unplugged or running Ethernet
     * keeps the link down. The switches at either end note a port state change (and trap) unless {@code quietAt}
     * is the port whose own Set caused it.
     */
    void train(int g, int quietAt) {
        int r = t.remote[g];
        if (r < 0) {
            linkLost(g, -1, false, quietAt);
            return;
        }
        Cable c = t.cable[g];
        int widths = t.widthSup[g] & t.widthEn[g] & t.widthSup[r] & t.widthEn[r] & LinkWidth.upTo(c.maxWidth());
        int speeds = t.speedSup[g] & t.speedEn[g] & t.speedSup[r] & t.speedEn[r] & cableSpeeds(c);
        LinkWidth w = LinkWidth.widest(widths);
        LinkSpeed s = LinkSpeed.highest(speeds);
        boolean up = w != null && s != null && !t.ethernet[g] && !t.ethernet[r] && t.phys[g] != DISABLED
                && t.phys[r] != DISABLED && !t.held[g] && !t.held[r];
        if (!up) {
            linkLost(g, r, false, quietAt);
            return;
        }
        t.forwardingVersion++;
        for (int p : new int[] {g, r}) {
            t.widthAct[p] = (byte) (w.ordinal() + 1);
            t.speedAct[p] = (byte) (s.ordinal() + 1);
            t.phys[p] = LINK_UP;
            t.state[p] = INIT;
            if (p != quietAt) {
                notePortChange(p);
            }
        }
    }

    /** The speeds a cable carries: every one up to its rating. */
    private static int cableSpeeds(Cable c) {
        int m = 0;
        for (LinkSpeed s : LinkSpeed.values()) {
            if (s.compareTo(c.maxSpeed()) <= 0) {
                m |= 1 << s.ordinal();
            }
        }
        return m;
    }

    /** Both ends of a link go Down; each end polls unless disabled. */
    void linkLost(int g, int r, boolean countDowned, int quietAt) {
        t.forwardingVersion++;
        for (int p : new int[] {g, r}) {
            if (p < 0) {
                continue;
            }
            boolean wasUp = t.phys[p] == LINK_UP;
            t.widthAct[p] = 0;
            t.speedAct[p] = 0;
            t.state[p] = DOWN;
            if (t.phys[p] != DISABLED) {
                t.phys[p] = POLLING;
            }
            if (wasUp && countDowned) {
                t.addPc(p, PortCounter.LINK_DOWNED.ordinal(), 1);
            }
            if (wasUp && p != quietAt) {
                notePortChange(p);
            }
        }
    }

    /**
     * A port changed state by itself (not by its own Set): a switch sets SwitchInfo PortStateChange and owes its SM
     * a trap 128; a CA port's change is the neighbouring switch's to report.
     */
    private void notePortChange(int g) {
        int n = t.portNode[g];
        int s = t.swIndex[n];
        if (s >= 0) {
            t.portStateChange[s] = true;
            traps.linkStateChanged(n);
        }
    }

    /** A rebooting switch's links drop: every one that was up, LinkDowned counted at both ends. */
    void dropAll(int node) {
        int base = t.portBase[node];
        for (int p = 1; p <= t.numPorts[node]; p++) {
            int g = base + p;
            if (t.phys[g] == LINK_UP) {
                linkLost(g, t.remote[g], true, -1);
            }
        }
    }

    /** A rebooted switch's links train again: every cabled port not up. */
    void trainAll(int node) {
        int base = t.portBase[node];
        for (int p = 1; p <= t.numPorts[node]; p++) {
            int g = base + p;
            if (t.remote[g] >= 0 && t.phys[g] != LINK_UP) {
                train(g, -1);
            }
        }
    }

    // =====================================================================================================
    // faults: links and cables

    /** {@link Twin#linkDown(String, int, boolean)}. */
    void linkDown(String nodeName, int port, boolean disable) {
        int g = t.physicalPort(nodeName, port);
        t.held[g] = true;
        linkLost(g, t.remote[g], true, -1);
        if (disable) {
            t.phys[g] = DISABLED;
        }
        settle.run();
    }

    /** {@link Twin#linkUp}. */
    void linkUp(String nodeName, int port) {
        int g = t.physicalPort(nodeName, port);
        int r = t.remote[g];
        t.held[g] = false;
        if (t.phys[g] == DISABLED) {
            t.phys[g] = POLLING;
        }
        if (r >= 0) {
            t.held[r] = false;
            if (t.phys[r] == DISABLED) {
                t.phys[r] = POLLING;
            }
        }
        if (t.phys[g] != LINK_UP) {
            train(g, -1);
        }
        settle.run();
    }

    /** {@link Twin#flap}. */
    void flap(String nodeName, int port, int times) {
        int g = t.linkedPort(nodeName, port);
        if (t.phys[g] != LINK_UP) {
            throw new IllegalStateException("the link at port " + port + " of \"" + nodeName
                    + "\" is down: nothing to flap");
        }
        for (int i = 0; i < times; i++) {
            linkLost(g, t.remote[g], true, -1);
            train(g, -1);
        }
        settle.run();
    }

    /** {@link Twin#unplug}. */
    void unplug(String nodeName, int port) {
        unplug(t.linkedPort(nodeName, port));
        settle.run();
    }

    private void unplug(int g) {
        int r = t.remote[g];
        linkLost(g, r, true, -1);
        t.remote[g] = -1;
        t.remote[r] = -1;
        t.prevRemote[g] = r;
        t.prevRemote[r] = g;
    }

    /** {@link Twin#unplugAll}. */
    int unplugAll(String nodeName) {
        int n = t.nodeIndex(Objects.requireNonNull(nodeName, "nodeName"));
        int count = 0;
        for (int p = 1; p <= t.numPorts[n]; p++) {
            int g = t.portBase[n] + p;
            if (t.remote[g] >= 0) {
                unplug(g);
                count++;
            }
        }
        settle.run();
        return count;
    }

    /** {@link Twin#replugAll}. */
    int replugAll(String nodeName) {
        int n = t.nodeIndex(Objects.requireNonNull(nodeName, "nodeName"));
        int count = 0;
        for (int p = 1; p <= t.numPorts[n]; p++) {
            int g = t.portBase[n] + p;
            int r = t.prevRemote[g];
            if (t.remote[g] < 0 && r >= 0 && t.remote[r] < 0) {
                connect(g, r, t.cable[g]);
                count++;
            }
        }
        return count;
    }

    /** {@link Twin#replug(String, int, Cable)}. */
    LinkStatus replug(String nodeName, int port, Cable with) {
        int g = t.physicalPort(nodeName, port);
        if (t.remote[g] >= 0) {
            if (with == null) {
                throw new IllegalArgumentException("port " + port + " of \"" + nodeName + "\" is linked");
            }
            unplug(g);
        }
        int r = t.prevRemote[g];
        if (r < 0) {
            throw new IllegalArgumentException("port " + port + " of \"" + nodeName
                    + "\" has no previous link to restore");
        }
        if (t.remote[r] >= 0) {
            throw new IllegalArgumentException("port " + port + " of \"" + nodeName + "\" was linked to "
                    + t.portName(r) + ", which is linked to " + t.portName(t.remote[r]) + " now");
        }
        connect(g, r, with != null ? with : t.cable[g]);
        return status(g);
    }

    /** {@link Twin#link}. */
    LinkStatus link(String nodeA, int portA, String nodeB, int portB, Cable with) {
        int a = t.physicalPort(nodeA, portA);
        int b = t.physicalPort(nodeB, portB);
        if (a == b) {
            throw new IllegalArgumentException("a port cannot be linked to itself: " + t.portName(a));
        }
        for (int g : new int[] {a, b}) {
            if (t.remote[g] >= 0) {
                throw new IllegalArgumentException(t.portName(g) + " is already linked to "
                        + t.portName(t.remote[g]));
            }
        }
        Cable c = with != null ? with : t.cable[a] != null ? t.cable[a] : Cable.UNRATED;
        connect(a, b, c);
        return status(a);
    }

    private void connect(int g, int r, Cable c) {
        t.remote[g] = r;
        t.remote[r] = g;
        t.cable[g] = c;
        t.cable[r] = c;
        t.prevRemote[g] = -1;
        t.prevRemote[r] = -1;
        train(g, -1);
        settle.run();
    }

    /** How the link at a port trained, what it could do, its cable and the port at its other end. */
    LinkStatus status(int g) {
        int r = t.remote[g];
        LinkWidth capW = null;
        LinkSpeed capS = null;
        String rn = null;
        int rp = 0;
        if (r >= 0) {
            capW = LinkWidth.widest(t.widthSup[g] & t.widthEn[g] & t.widthSup[r] & t.widthEn[r]);
            capS = LinkSpeed.highest(t.speedSup[g] & t.speedEn[g] & t.speedSup[r] & t.speedEn[r]);
            rn = t.nodes[t.portNode[r]].name();
            rp = t.portNumber(r);
        }
        return new LinkStatus(PortCodes.width(t.widthAct[g]), PortCodes.speed(t.speedAct[g]), capW, capS,
                r >= 0 ? t.cable[g] : null, rn, rp);
    }

    /** {@link Twin#setLinkLayer}. */
    void setLinkLayer(String nodeName, int port, LinkLayer layer) {
        int g = t.physicalPort(nodeName, port);
        boolean eth = layer != LinkLayer.INFINIBAND;
        if (t.ethernet[g] == eth) {
            return;
        }
        t.ethernet[g] = eth;
        if (eth) {
            linkLost(g, t.remote[g], true, -1);
        } else if (t.phys[g] != LINK_UP) {
            train(g, -1);
        }
        settle.run();
    }
}
