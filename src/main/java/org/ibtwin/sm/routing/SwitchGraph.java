package org.ibtwin.sm.routing;

import java.util.Arrays;

/**
 * What a routing engine sees of the subnet, read-only: the switches (GUID, name, port count), which port of which
 * switch each switch port leads to, and for every LID up to {@link #top()} where it lives: the switch it hangs off
 * and the port on that switch (0 for the switch's own LID), and whether it is a CA's (or router's) LID.
 *
 * <p>Switches are numbered 0..{@link #switches()}-1. Arrays throughout: a fabric of 50,000 LIDs and a few thousand
 * switches costs a few megabytes here.
 */
public final class SwitchGraph {
    private final long[] guid;
    private final String[] name;
    private final int[] numPorts;
    private final int[][] neighbour;
    private final int[][] neighbourPort;
    private final int top;
    private final int[] destSwitch;
    private final byte[] destPort;
    private final boolean[] destCa;

    private SwitchGraph(Builder b) {
        this.guid = b.guid;
        this.name = b.name;
        this.numPorts = b.numPorts;
        this.neighbour = b.neighbour;
        this.neighbourPort = b.neighbourPort;
        this.top = b.top;
        this.destSwitch = b.destSwitch;
        this.destPort = b.destPort;
        this.destCa = b.destCa;
    }

    /** A graph of {@code switches} switches and LIDs 1..{@code top}. */
    public static Builder builder(int switches, int top) {
        return new Builder(switches, top);
    }

    public int switches() {
        return guid.length;
    }

    public long guid(int s) {
        return guid[s];
    }

    /** The switch's name for messages (its node description's first word). */
    public String name(int s) {
        return name[s];
    }

    public int numPorts(int s) {
        return numPorts[s];
    }

    /** The switch at the other end of port {@code p} of switch {@code s}, or -1 (no link, or a CA there). */
    public int neighbour(int s, int p) {
        return neighbour[s][p];
    }

    /** The port number at the other end of port {@code p} of switch {@code s} (valid when it leads to a switch). */
    public int neighbourPort(int s, int p) {
        return neighbourPort[s][p];
    }

    /** The highest LID to route. */
    public int top() {
        return top;
    }

    /** The switch LID {@code lid} hangs off (its own, or the one a CA port is linked to), or -1 for none. */
    public int destSwitch(int lid) {
        return lid < 0 || lid > top ? -1 : destSwitch[lid];
    }

    /** The port of {@link #destSwitch} that leads to the LID: 0 for the switch itself. */
    public int destPort(int lid) {
        return destPort[lid] & 0xff;
    }

    /** Whether the LID is a CA's or router's (what balancing counts), not a switch's own. */
    public boolean isCaLid(int lid) {
        return destCa[lid];
    }

    /**
     * This graph with links gone: every link with an end where {@code linkGone(switch, port)} holds, and the CA (and
     * router) LIDs of the switches where {@code casGone(switch)} holds (a failed switch takes its hosts with it).
     * Switch numbers, ports and every other LID stay as they are.
     */
    public SwitchGraph without(java.util.function.BiPredicate<Integer, Integer> linkGone,
                               java.util.function.IntPredicate casGone) {
        Builder b = builder(switches(), top);
        for (int s = 0; s < switches(); s++) {
            b.setSwitch(s, guid[s], name[s], numPorts[s]);
        }
        for (int s = 0; s < switches(); s++) {
            for (int p = 1; p <= numPorts[s]; p++) {
                int t = neighbour[s][p];
                int q = neighbourPort[s][p];
                if (t < 0 || t < s || (t == s && q < p) || linkGone.test(s, p) || linkGone.test(t, q)) {
                    continue;
                }
                b.link(s, p, t, q);
            }
        }
        for (int lid = 1; lid <= top; lid++) {
            int s = destSwitch[lid];
            if (s >= 0 && !(destCa[lid] && casGone.test(s))) {
                b.dest(lid, 1, s, destPort(lid), destCa[lid]);
            }
        }
        return b.build();
    }

    /** Builds a {@link SwitchGraph}. */
    public static final class Builder {
        private final long[] guid;
        private final String[] name;
        private final int[] numPorts;
        private final int[][] neighbour;
        private final int[][] neighbourPort;
        private final int top;
        private final int[] destSwitch;
        private final byte[] destPort;
        private final boolean[] destCa;

        private Builder(int switches, int top) {
            if (top < 0 || top > 0xBFFF) {
                throw new IllegalArgumentException("top LID out of the unicast range: " + top);
            }
            guid = new long[switches];
            name = new String[switches];
            numPorts = new int[switches];
            neighbour = new int[switches][];
            neighbourPort = new int[switches][];
            this.top = top;
            destSwitch = new int[top + 1];
            destPort = new byte[top + 1];
            destCa = new boolean[top + 1];
            Arrays.fill(destSwitch, -1);
        }

        public Builder setSwitch(int s, long switchGuid, String switchName, int ports) {
            guid[s] = switchGuid;
            name[s] = switchName;
            numPorts[s] = ports;
            neighbour[s] = new int[ports + 1];
            neighbourPort[s] = new int[ports + 1];
            Arrays.fill(neighbour[s], -1);
            return this;
        }

        /** A link between port {@code pa} of switch {@code a} and port {@code pb} of switch {@code b}. */
        public Builder link(int a, int pa, int b, int pb) {
            neighbour[a][pa] = b;
            neighbourPort[a][pa] = pb;
            neighbour[b][pb] = a;
            neighbourPort[b][pb] = pa;
            return this;
        }

        /** LIDs {@code first..first+count-1} live behind port {@code port} of switch {@code s} (0: the switch). */
        public Builder dest(int first, int count, int s, int port, boolean ca) {
            for (int l = first; l < first + count && l <= top; l++) {
                destSwitch[l] = s;
                destPort[l] = (byte) port;
                destCa[l] = ca;
            }
            return this;
        }

        public SwitchGraph build() {
            for (int s = 0; s < guid.length; s++) {
                if (neighbour[s] == null) {
                    throw new IllegalStateException("switch " + s + " was never set");
                }
            }
            return new SwitchGraph(this);
        }
    }
}
