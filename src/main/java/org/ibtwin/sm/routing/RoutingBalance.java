package org.ibtwin.sm.routing;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * How evenly forwarding tables spread the CA LIDs over switch ports: for every switch port, how many CA (and router)
 * LIDs the switch sends out of it; and, per switch level, the least, most and mean of those counts over the up
 * ports and over the down ports (what {@code check_lft_balance} looks at). A switch's level is 1 for a switch with
 * a CA on it, then one more for each switch hop farther from the nearest such switch; a port is up when it leads to
 * a switch of a higher level, down otherwise (to a CA, or to a switch at the same or a lower level).
 *
 * <p>Pure: built from a {@link SwitchGraph} and its {@link Lfts}, or from anyone's tables mapped onto one (an
 * OpenSM LFT dump, ibroute outputs).
 */
public final class RoutingBalance {

    /** The counts of one switch's ports (index the port number; port 0 counts LIDs of the switch itself). */
    public record SwitchPorts(int sw, String name, long guid, int level, int[] counts, boolean[] up) {
        /** The counts of the up ports (or the down ports, {@code up} false) that carry a link. */
        public Stats stats(boolean wantUp, boolean[] linked) {
            Stats s = Stats.EMPTY;
            for (int p = 1; p < counts.length; p++) {
                if (linked[p] && up[p] == wantUp) {
                    s = s.add(counts[p]);
                }
            }
            return s;
        }
    }

    /** Least, most and sum over some ports. */
    public record Stats(int ports, int min, int max, long sum) {
        static final Stats EMPTY = new Stats(0, Integer.MAX_VALUE, Integer.MIN_VALUE, 0);

        Stats add(int v) {
            return new Stats(ports + 1, Math.min(min, v), Math.max(max, v), sum + v);
        }

        Stats add(Stats o) {
            return o.ports == 0 ? this : ports == 0 ? o
                    : new Stats(ports + o.ports, Math.min(min, o.min), Math.max(max, o.max), sum + o.sum);
        }

        public double mean() {
            return ports == 0 ? 0 : (double) sum / ports;
        }

        /** max - min (0 with no ports). */
        public int spread() {
            return ports == 0 ? 0 : max - min;
        }

        @Override
        public String toString() {
            return ports == 0 ? "no ports" : String.format(Locale.ROOT, "%d ports min %d max %d mean %.2f", ports,
                    min, max, mean());
        }
    }

    private final List<SwitchPorts> switches;
    private final boolean[][] linked;
    private final int caLids;

    private RoutingBalance(List<SwitchPorts> switches, boolean[][] linked, int caLids) {
        this.switches = switches;
        this.linked = linked;
        this.caLids = caLids;
    }

    /** The balance of {@code lfts} on {@code g}: every CA LID of {@code g} counted at the port it leaves by. */
    public static RoutingBalance of(SwitchGraph g, Lfts lfts) {
        int n = g.switches();
        int[] level = levels(g);
        boolean[][] linked = new boolean[n][];
        List<SwitchPorts> out = new ArrayList<>(n);
        int cas = 0;
        for (int lid = 1; lid <= g.top(); lid++) {
            cas += g.isCaLid(lid) ? 1 : 0;
        }
        for (int s = 0; s < n; s++) {
            int ports = g.numPorts(s);
            int[] counts = new int[ports + 1];
            boolean[] up = new boolean[ports + 1];
            linked[s] = new boolean[ports + 1];
            for (int p = 1; p <= ports; p++) {
                int nb = g.neighbour(s, p);
                up[p] = nb >= 0 && level[nb] > level[s];
                linked[s][p] = nb >= 0;
            }
            for (int lid = 1; lid <= g.top(); lid++) {
                if (g.isCaLid(lid) && g.destSwitch(lid) == s) {
                    linked[s][g.destPort(lid)] = true;
                }
                if (!g.isCaLid(lid)) {
                    continue;
                }
                int p = lfts.port(s, lid);
                if (p <= ports) {
                    counts[p]++;
                }
            }
            out.add(new SwitchPorts(s, g.name(s), g.guid(s), level[s], counts, up));
        }
        return new RoutingBalance(List.copyOf(out), linked, cas);
    }

    /** Switch levels: 1 for a switch with a CA LID behind it, then breadth first; 0 when unreachable from one. */
    static int[] levels(SwitchGraph g) {
        int n = g.switches();
        int[] level = new int[n];
        ArrayDeque<Integer> q = new ArrayDeque<>();
        for (int lid = 1; lid <= g.top(); lid++) {
            int s = g.isCaLid(lid) ? g.destSwitch(lid) : -1;
            if (s >= 0 && level[s] == 0) {
                level[s] = 1;
                q.add(s);
            }
        }
        while (!q.isEmpty()) {
            int s = q.poll();
            for (int p = 1; p <= g.numPorts(s); p++) {
                int nb = g.neighbour(s, p);
                if (nb >= 0 && level[nb] == 0) {
                    level[nb] = level[s] + 1;
                    q.add(nb);
                }
            }
        }
        return level;
    }

    public List<SwitchPorts> switches() {
        return switches;
    }

    public int caLids() {
        return caLids;
    }

    /** Whether port {@code p} of switch {@code s} has a link (to a switch or a CA with a LID). */
    public boolean linked(int s, int p) {
        return linked[s][p];
    }

    /** The up (or down) port counts of one switch. */
    public Stats stats(int s, boolean up) {
        return switches.get(s).stats(up, linked[s]);
    }

    /** The up (or down) port counts of every switch at {@code level}, together. */
    public Stats levelStats(int level, boolean up) {
        Stats st = Stats.EMPTY;
        for (SwitchPorts sp : switches) {
            if (sp.level() == level) {
                st = st.add(stats(sp.sw(), up));
            }
        }
        return st;
    }

    /** The largest max-min spread of up (or down) ports within one switch. */
    public int worstSwitchSpread(boolean up) {
        int w = 0;
        for (SwitchPorts sp : switches) {
            w = Math.max(w, stats(sp.sw(), up).spread());
        }
        return w;
    }

    /** The levels present, lowest first. */
    public int[] levels() {
        return switches.stream().mapToInt(SwitchPorts::level).distinct().sorted().toArray();
    }

    /** The report: a summary per level, then each switch with its up/down figures and its port counts. */
    public String report() {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "# CA LIDs routed out of each switch port: %d CA LIDs, %d switches%n",
                caLids, switches.size()));
        for (int level : levels()) {
            long count = switches.stream().filter(s -> s.level() == level).count();
            sb.append(String.format(Locale.ROOT, "level %d (%d switches): up %s; down %s%n", level, count,
                    levelStats(level, true), levelStats(level, false)));
        }
        for (SwitchPorts sp : switches) {
            sb.append(String.format(Locale.ROOT, "%nswitch 0x%016x '%s' level %d: up %s; down %s%n", sp.guid(),
                    sp.name(), sp.level(), stats(sp.sw(), true), stats(sp.sw(), false)));
            for (int p = 1; p < sp.counts().length; p++) {
                if (linked[sp.sw()][p]) {
                    sb.append(String.format(Locale.ROOT, "  port %d %s: %d%n", p, sp.up()[p] ? "up" : "down",
                            sp.counts()[p]));
                }
            }
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return "RoutingBalance" + Arrays.toString(levels());
    }
}
