package org.ibtwin.sm.routing;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Re-routing in part after failures: given the tables in force over a graph and the same graph with links (or whole
 * switches) gone, only the destinations whose routes crossed a lost link are routed again, and of those only the
 * switches whose path did (the switches below the break in the destination's tree); every other entry stays as it
 * is. The engine that made the tables says how a switch picks its new port ({@link Rule}), so that the result keeps
 * the engine's guarantee:
 *
 * <ul>
 * <li><b>shortest paths</b> (minhop; dor where its routes fit one VL): an intact path is a shortest path of the
 * smaller graph too (distances only grow and it is still there), so a cut switch takes a port one hop nearer in the
 * new graph and every switch that can reach the destination does; dor's single VL is then proven acyclic again
 * ({@link Layering}), or the engine routes in full.</li>
 * <li><b>up*&#47;down*</b> (updn, ftree) with the ranks kept: an intact path stays legal, a switch that reached the
 * destination down-only still does (so a switch entered going down is never routed up), and a cut switch routes
 * down when it still can, else up, one hop nearer along the legal route of the new graph: still free of credit
 * loops. A switch's own LID may be left without a legal route (management traffic: as between roots, the engines
 * leave such routes out too); when a switch with CAs is left with no legal path to a CA it is still connected to,
 * the ranks no longer fit the fabric: the engine routes in full.</li>
 * <li><b>none</b> (dfsssp, dor over several VLs): the routes' weights or VL layering belong to the fabric as a whole;
 * the engine routes in full, and says why.</li>
 * </ul>
 *
 * A switch the failures leave with no link to another switch keeps its table (nothing it forwards can leave it, and
 * nobody can write to it). The new graph must number its switches as the old one and add nothing (no link, no LID
 * moved); otherwise it is a change for a full route, and {@link Base#after} says so.
 */
public final class Reroute {
    private static final int INF = Balancer.INF;

    /** How a cut switch chooses its new port. */
    private enum Kind { SHORTEST, UP_DOWN, NONE }

    private final Kind kind;
    private final Balancer.Selector selector;
    private final int[] rank;
    private final int lanes;
    private final String none;

    private Reroute(Kind kind, Balancer.Selector selector, int[] rank, int lanes, String none) {
        this.kind = kind;
        this.selector = selector;
        this.rank = rank;
        this.lanes = lanes;
        this.none = none;
    }

    /** Shortest paths, the new port picked by {@code selector}; {@code lanes} > 0: prove that many VLs acyclic. */
    static Reroute shortest(Balancer.Selector selector, int lanes) {
        return new Reroute(Kind.SHORTEST, selector, null, lanes, null);
    }

    /** Up*&#47;down* over {@code rank} (0 at the roots; ties broken by GUID as {@link UpDownPaths} does). */
    static Reroute upDown(int[] rank, Balancer.Selector selector) {
        return new Reroute(Kind.UP_DOWN, selector, rank.clone(), 0, null);
    }

    /** No partial re-route for this engine's tables: why. */
    public static Reroute none(String why) {
        return new Reroute(Kind.NONE, null, null, 0, why);
    }

    /** Why this engine's tables cannot be re-routed in part; null when they can. */
    public String unsupported() {
        return kind == Kind.NONE ? none : null;
    }

    /** What a re-route did: the new entries, or why only a full route will do. */
    public sealed interface Outcome permits Partial, Full {
    }

    /** Routed in part: {@code delta} holds every destination that changed, with its new entry on every switch. */
    public record Partial(Delta delta) implements Outcome {
    }

    /** Not possible in part: why (a full route must run). */
    public record Full(String why) implements Outcome {
    }

    /**
     * The tables in force over {@code graph}, ready to be re-routed after failures, as often as wanted and from any
     * number of threads at once (nothing of this is changed by a re-route).
     */
    public Base over(SwitchGraph graph, Lfts lfts) {
        return new Base(this, graph, lfts, false);
    }

    /**
     * As {@link #over}, for many re-routes after different failures (a sweep of them): the distances toward each
     * destination switch over {@code graph} are kept once made, and each re-route repairs only those of the
     * switches its failures move further away, instead of a search of the whole graph. The same re-routes, entry
     * for entry.
     */
    public Base overMany(SwitchGraph graph, Lfts lfts) {
        return new Base(this, graph, lfts, true);
    }

    /** The tables a re-route starts from, with what every re-route needs of them computed once. */
    public static final class Base {
        private final Reroute rule;
        private final SwitchGraph g;
        private final Lfts lfts;
        /** {@code load[s][p]}: the CA LIDs switch s sends out of port p. */
        private final int[][] load;
        /** The switches in key order (up*&#47;down*: the roots first), for the legal-route pass. */
        private final int[] order;
        /** Per destination switch, its distances over this graph ({@link Run#search}), once made; null: not kept. */
        private final java.util.concurrent.atomic.AtomicReferenceArray<byte[]> kept;

        private Base(Reroute rule, SwitchGraph g, Lfts lfts, boolean keep) {
            this.rule = rule;
            this.g = g;
            this.lfts = lfts;
            this.kept = keep ? new java.util.concurrent.atomic.AtomicReferenceArray<>(g.switches()) : null;
            int n = g.switches();
            if (lfts.switches() != n) {
                throw new IllegalArgumentException("tables for " + lfts.switches() + " switches, graph of " + n);
            }
            this.load = new int[n][];
            java.util.stream.IntStream.range(0, n).parallel().forEach(s -> {
                int[] l = new int[g.numPorts(s) + 2];
                byte[] t = lfts.table(s);
                int top = Math.min(g.top(), t.length - 1);
                for (int lid = 1; lid <= top; lid++) {
                    int p = t[lid] & 0xff;
                    if (p < l.length && g.isCaLid(lid) && g.destSwitch(lid) >= 0) {
                        l[p]++;
                    }
                }
                load[s] = l;
            });
            if (rule.kind == Kind.UP_DOWN) {
                Integer[] boxed = new Integer[n];
                for (int i = 0; i < n; i++) {
                    boxed[i] = i;
                }
                Arrays.sort(boxed, (a, b) -> rule.isAbove(g, a, b) ? -1 : rule.isAbove(g, b, a) ? 1 : 0);
                order = new int[n];
                for (int i = 0; i < n; i++) {
                    order[i] = boxed[i];
                }
            } else {
                order = null;
            }
        }

        public SwitchGraph graph() {
            return g;
        }

        public Lfts lfts() {
            return lfts;
        }

        /** Re-routes for {@code after}: this graph less the failed links and switches. */
        public Outcome after(SwitchGraph after) {
            if (rule.kind == Kind.NONE) {
                return new Full(rule.none);
            }
            String change = subgraph(after);
            if (change != null) {
                return new Full(change);
            }
            return new Run(this, after).run();
        }

        /** Null when {@code h} is this graph less links (and LIDs); else what it adds. */
        private String subgraph(SwitchGraph h) {
            int n = g.switches();
            if (h.switches() != n || h.top() != g.top()) {
                return "the fabric has other switches or LIDs now";
            }
            for (int s = 0; s < n; s++) {
                if (h.guid(s) != g.guid(s) || h.numPorts(s) != g.numPorts(s)) {
                    return "switch " + s + " is another switch now";
                }
                for (int p = 1; p <= g.numPorts(s); p++) {
                    int y = h.neighbour(s, p);
                    if (y >= 0 && (y != g.neighbour(s, p) || h.neighbourPort(s, p) != g.neighbourPort(s, p))) {
                        return "a link was added (" + g.name(s) + "/" + p + ")";
                    }
                }
            }
            for (int lid = 1; lid <= g.top(); lid++) {
                int t = h.destSwitch(lid);
                if (t >= 0 && (t != g.destSwitch(lid) || h.destPort(lid) != g.destPort(lid)
                        || h.isCaLid(lid) != g.isCaLid(lid))) {
                    return "LID " + lid + " moved or appeared";
                }
            }
            return null;
        }
    }

    /** One re-route: scratch state of its own, so that re-routes of one base run in parallel. */
    private static final class Run {
        private final Base base;
        private final Reroute rule;
        private final SwitchGraph g;
        private final SwitchGraph h;
        private final Lfts lfts;
        private final int n;
        private final boolean[] isolated;
        private final Map<Integer, int[]> loads = new HashMap<>();
        private final Map<Integer, byte[][]> distances = new HashMap<>();
        private int[] component;
        private boolean[] leaf;

        Run(Base base, SwitchGraph after) {
            this.base = base;
            this.rule = base.rule;
            this.g = base.g;
            this.h = after;
            this.lfts = base.lfts;
            this.n = g.switches();
            this.isolated = new boolean[n];
            for (int s = 0; s < n; s++) {
                boolean had = false;
                boolean has = false;
                for (int p = 1; p <= g.numPorts(s); p++) {
                    had |= g.neighbour(s, p) >= 0;
                    has |= h.neighbour(s, p) >= 0;
                }
                isolated[s] = had && !has;
            }
        }

        /** Whether port p of switch s led to a switch and no longer does. */
        private boolean lost(int s, int p) {
            return p >= 1 && p <= g.numPorts(s) && g.neighbour(s, p) >= 0 && h.neighbour(s, p) < 0;
        }

        Outcome run() {
            int top = g.top();
            boolean[] touched = new boolean[top + 1];
            int count = 0;
            for (int s = 0; s < n; s++) {
                if (isolated[s]) {
                    continue;
                }
                boolean any = false;
                for (int p = 1; p <= g.numPorts(s) && !any; p++) {
                    any = lost(s, p);
                }
                if (!any) {
                    continue;
                }
                byte[] t = lfts.table(s);
                int last = Math.min(top, t.length - 1);
                for (int lid = 1; lid <= last; lid++) {
                    if (!touched[lid] && lost(s, t[lid] & 0xff)) {
                        touched[lid] = true;
                        count++;
                    }
                }
            }
            for (int lid = 1; lid <= top; lid++) {
                if (!touched[lid] && g.destSwitch(lid) >= 0 && h.destSwitch(lid) < 0) {
                    touched[lid] = true;   // gone with its switch: unrouted everywhere
                    count++;
                }
            }
            int[] lids = new int[count];
            int k = 0;
            for (int lid = 1; lid <= top; lid++) {
                if (touched[lid]) {
                    lids[k++] = lid;
                }
            }
            byte[][] rows = new byte[count][];
            byte[] state = new byte[n];
            int[] stack = new int[n + 1];
            long changed = 0;
            for (int i = 0; i < count; i++) {
                int lid = lids[i];
                byte[] row = new byte[n];
                for (int s = 0; s < n; s++) {
                    row[s] = (byte) lfts.port(s, lid);
                }
                rows[i] = row;
                if (h.destSwitch(lid) < 0) {
                    for (int s = 0; s < n; s++) {
                        if (!isolated[s] && (row[s] & 0xff) != Lfts.NO_ROUTE) {
                            move(s, lid, row[s] & 0xff, Lfts.NO_ROUTE);
                            row[s] = (byte) Lfts.NO_ROUTE;
                            changed++;
                        }
                    }
                    continue;
                }
                cut(lid, state, stack);
                int t = h.destSwitch(lid);
                for (int s = 0; s < n; s++) {
                    if (state[s] != CUT) {
                        continue;
                    }
                    int port = choose(s, lid, t);
                    if (port == FAIL) {
                        return new Full(failure);
                    }
                    if (port != (row[s] & 0xff)) {
                        move(s, lid, row[s] & 0xff, port);
                        row[s] = (byte) port;
                        changed++;
                    }
                }
            }
            Delta d = new Delta(lfts, lids, rows, changed);
            if (rule.kind == Kind.SHORTEST && rule.lanes > 0) {
                if (Layering.assign(h, d.apply(), rule.lanes) == null) {
                    return new Full("the re-routed tables would need more than " + rule.lanes + " VL"
                            + (rule.lanes == 1 ? "" : "s") + " to stay free of credit loops");
                }
            }
            return new Partial(d);
        }

        private static final byte UNKNOWN = 0;
        private static final byte KEPT = 1;
        private static final byte CUT = 2;
        private static final byte VISITING = 3;
        private static final int FAIL = -2;
        private String failure;

        /** Marks each switch KEPT (its path to the LID is intact, or it has none, or it is cut off) or CUT. */
        private void cut(int lid, byte[] state, int[] stack) {
            Arrays.fill(state, UNKNOWN);
            int t = g.destSwitch(lid);
            for (int s0 = 0; s0 < n; s0++) {
                if (state[s0] != UNKNOWN) {
                    continue;
                }
                int sp = 0;
                int x = s0;
                byte end;
                while (true) {
                    if (state[x] != UNKNOWN) {
                        end = state[x] == VISITING ? CUT : state[x];   // a loop: route it again
                        break;
                    }
                    if (isolated[x]) {
                        end = KEPT;
                        stack[sp++] = x;
                        break;
                    }
                    int p = lfts.port(x, lid);
                    if (x == t || p == Lfts.NO_ROUTE) {
                        stack[sp++] = x;
                        end = KEPT;
                        break;
                    }
                    if (lost(x, p)) {
                        stack[sp++] = x;
                        end = CUT;
                        break;
                    }
                    int y = p <= g.numPorts(x) ? g.neighbour(x, p) : -1;
                    if (y < 0) {
                        stack[sp++] = x;
                        end = KEPT;
                        break;
                    }
                    state[x] = VISITING;
                    stack[sp++] = x;
                    x = y;
                }
                for (int i = 0; i < sp; i++) {
                    state[stack[i]] = isolated[stack[i]] ? KEPT : end;
                }
            }
        }

        /** The new port of cut switch {@code s} toward {@code lid} on switch {@code t}; NO_ROUTE; FAIL. */
        private int choose(int s, int lid, int t) {
            byte[][] d = distances.computeIfAbsent(t, this::distancesTo);
            int[] c;
            if (rule.kind == Kind.SHORTEST) {
                int ds = d[0][s] & 0xff;
                if (ds == INF) {
                    return Lfts.NO_ROUTE;
                }
                c = ports(s, d[0], ds - 1, 0);
            } else {
                int dn = d[0][s] & 0xff;
                if (dn != INF) {
                    c = ports(s, d[0], dn - 1, -1);
                } else {
                    int an = d[1][s] & 0xff;
                    if (an == INF) {
                        // a switch LID (management traffic) may go unrouted, as between roots; a CA may not
                        if (g.isCaLid(lid) && isLeaf(s) && connected(s, t)) {
                            failure = "no up*/down* path from " + g.name(s) + " to the CAs of " + g.name(t)
                                    + " with the ranks kept";
                            return FAIL;
                        }
                        return Lfts.NO_ROUTE;
                    }
                    c = ports(s, d[1], an - 1, 1);
                }
            }
            if (c.length == 0) {
                return Lfts.NO_ROUTE;
            }
            return c.length == 1 ? c[0] : rule.selector.select(s, lid, c, load(s));
        }

        /** Ports of s to a neighbour at distance {@code want} in {@code d}; dir 1: up moves only, -1: down only. */
        private int[] ports(int s, byte[] d, int want, int dir) {
            int[] out = new int[h.numPorts(s)];
            int k = 0;
            for (int p = 1; p <= h.numPorts(s); p++) {
                int y = h.neighbour(s, p);
                if (y < 0 || (d[y] & 0xff) != want) {
                    continue;
                }
                if (dir != 0 && rule.isAbove(g, y, s) != (dir > 0)) {
                    continue;
                }
                out[k++] = p;
            }
            return Arrays.copyOf(out, k);
        }

        /** Whether a path toward the destination may step from {@code y} to its neighbour {@code x}. */
        private boolean steps(int y, int x) {
            return rule.kind != Kind.UP_DOWN || rule.isAbove(g, y, x);
        }

        /**
         * Hops from each switch to t over {@code over} ({@link #INF}: none; up*&#47;down*: down moves only), by a
         * breadth-first search from t; a switch {@code INF - 1} hops away is not searched beyond.
         */
        private byte[] search(SwitchGraph over, int t) {
            byte[] dn = new byte[n];
            Arrays.fill(dn, (byte) INF);
            int[] queue = new int[n];
            int head = 0;
            int tail = 0;
            dn[t] = 0;
            queue[tail++] = t;
            while (head < tail) {
                int x = queue[head++];
                int dx = dn[x] & 0xff;
                if (dx >= INF - 1) {
                    continue;
                }
                for (int p = 1; p <= over.numPorts(x); p++) {
                    int y = over.neighbour(x, p);
                    if (y >= 0 && (dn[y] & 0xff) == INF && steps(y, x)) {
                        dn[y] = (byte) (dx + 1);
                        queue[tail++] = y;
                    }
                }
            }
            return dn;
        }

        /** The links the failures took, as (switch, port) pairs of both ends: made once per re-route. */
        private int[] gone;

        /**
         * {@link #search} over the new graph, from the distances over the old one ({@code before}): removing links
         * only moves switches further away, and only a switch every one of whose next steps on a shortest way
         * moved (or crossed a lost link) moves itself. Those are found in order of their old distance, from the
         * ends of the lost links, and given their new distance by a search that starts from the switches that kept
         * theirs. Returns {@code before} itself when nothing moved.
         */
        private byte[] repair(byte[] before) {
            if (gone == null) {
                int k = 0;
                int[] links = new int[16];
                for (int s = 0; s < n; s++) {
                    for (int p = 1; p <= g.numPorts(s); p++) {
                        if (lost(s, p)) {
                            if (k + 2 > links.length) {
                                links = Arrays.copyOf(links, links.length * 2);
                            }
                            links[k++] = s;
                            links[k++] = p;
                        }
                    }
                }
                gone = Arrays.copyOf(links, k);
            }
            // buckets by old distance of the switches that may have moved
            int[][] bucket = new int[INF][];
            int[] size = new int[INF];
            boolean[] moved = new boolean[n];
            boolean[] queued = new boolean[n];
            for (int i = 0; i < gone.length; i += 2) {
                int x = gone[i];
                int y = g.neighbour(x, gone[i + 1]);
                int dx = before[x] & 0xff;
                int dy = before[y] & 0xff;
                // the end that stepped to the other over the lost link may have moved
                if (dx < INF - 1 && dy == dx + 1 && steps(y, x) && !queued[y]) {
                    queued[y] = true;
                    push(bucket, size, dy, y);
                }
                if (dy < INF - 1 && dx == dy + 1 && steps(x, y) && !queued[x]) {
                    queued[x] = true;
                    push(bucket, size, dx, x);
                }
            }
            int movedCount = 0;
            for (int level = 1; level < INF; level++) {
                for (int i = 0; i < size[level]; i++) {
                    int y = bucket[level][i];
                    boolean stays = false;
                    for (int p = 1; p <= h.numPorts(y) && !stays; p++) {
                        int x = h.neighbour(y, p);
                        stays = x >= 0 && (before[x] & 0xff) == level - 1 && !moved[x] && steps(y, x);
                    }
                    if (stays) {
                        continue;
                    }
                    moved[y] = true;
                    movedCount++;
                    if (level >= INF - 1) {
                        continue;
                    }
                    for (int p = 1; p <= h.numPorts(y); p++) {
                        int z = h.neighbour(y, p);
                        if (z >= 0 && !queued[z] && (before[z] & 0xff) == level + 1 && steps(z, y)) {
                            queued[z] = true;
                            push(bucket, size, level + 1, z);
                        }
                    }
                }
            }
            if (movedCount == 0) {
                return before;
            }
            // the moved switches' new distances: from the neighbours that kept theirs, nearest first
            byte[] dn = before.clone();
            int[] all = new int[movedCount];
            int k = 0;
            for (int s = 0; s < n; s++) {
                if (moved[s]) {
                    dn[s] = (byte) INF;
                    all[k++] = s;
                }
            }
            Arrays.fill(size, 0);
            for (int y : all) {
                int best = INF;
                for (int p = 1; p <= h.numPorts(y); p++) {
                    int x = h.neighbour(y, p);
                    if (x >= 0 && !moved[x] && (before[x] & 0xff) < INF - 1 && steps(y, x)) {
                        best = Math.min(best, (before[x] & 0xff) + 1);
                    }
                }
                if (best < INF) {
                    dn[y] = (byte) best;
                    push(bucket, size, best, y);
                }
            }
            boolean[] done = new boolean[n];
            for (int level = 1; level < INF; level++) {
                for (int i = 0; i < size[level]; i++) {
                    int x = bucket[level][i];
                    if (done[x] || (dn[x] & 0xff) != level) {
                        continue;
                    }
                    done[x] = true;
                    if (level >= INF - 1) {
                        continue;
                    }
                    for (int p = 1; p <= h.numPorts(x); p++) {
                        int y = h.neighbour(x, p);
                        if (y >= 0 && moved[y] && !done[y] && (dn[y] & 0xff) > level + 1 && steps(y, x)) {
                            dn[y] = (byte) (level + 1);
                            push(bucket, size, level + 1, y);
                        }
                    }
                }
            }
            return dn;
        }

        private static void push(int[][] bucket, int[] size, int level, int s) {
            int[] b = bucket[level];
            if (b == null) {
                b = bucket[level] = new int[8];
            } else if (size[level] == b.length) {
                b = bucket[level] = Arrays.copyOf(b, b.length * 2);
            }
            b[size[level]++] = s;
        }

        /** Distances to t in the new graph: shortest paths {hops}; up*&#47;down* {down-only, legal}. */
        private byte[][] distancesTo(int t) {
            byte[] dn;
            if (base.kept == null) {
                dn = search(h, t);
            } else {
                byte[] before = base.kept.get(t);
                if (before == null) {
                    before = search(g, t);
                    base.kept.compareAndSet(t, null, before);
                }
                dn = repair(before);
            }
            if (rule.kind != Kind.UP_DOWN) {
                return new byte[][] {dn};
            }
            byte[] an = new byte[n];
            for (int s : base.order) {
                if ((dn[s] & 0xff) != INF) {
                    an[s] = dn[s];
                    continue;
                }
                int best = INF;
                for (int p = 1; p <= h.numPorts(s); p++) {
                    int u = h.neighbour(s, p);
                    if (u >= 0 && rule.isAbove(g, u, s)) {
                        best = Math.min(best, an[u] & 0xff);
                    }
                }
                an[s] = (byte) (best >= INF - 1 ? INF : best + 1);
            }
            return new byte[][] {dn, an};
        }

        /** Switch s's port loads for this re-route (copied from the base's on first use). */
        private int[] load(int s) {
            return loads.computeIfAbsent(s, k -> base.load[k].clone());
        }

        private void move(int s, int lid, int from, int to) {
            if (!g.isCaLid(lid)) {
                return;
            }
            int[] l = load(s);
            if (from < l.length) {
                l[from]--;
            }
            if (to < l.length) {
                l[to]++;
            }
        }

        private boolean isLeaf(int s) {
            if (leaf == null) {
                leaf = UpDownPaths.leaves(h);
            }
            return leaf[s];
        }

        private boolean connected(int s, int t) {
            if (component == null) {
                component = UpDownPaths.components(h);
            }
            return component[s] == component[t];
        }
    }

    /** Up*&#47;down*: whether a is above b (a smaller rank, or the same and a smaller GUID). */
    private boolean isAbove(SwitchGraph g, int a, int b) {
        if (rank[a] != rank[b]) {
            return rank[a] < rank[b];
        }
        return Long.compareUnsigned(g.guid(a), g.guid(b)) < 0;
    }

    /**
     * What a partial re-route changed: for every destination it re-routed (ascending), the new entry on every
     * switch. Reads as the tables it was made from with those columns replaced ({@link #port}); {@link #apply}
     * makes the new tables, sharing every table it leaves alone.
     */
    public static final class Delta {
        private final Lfts base;
        private final int[] lids;
        private final byte[][] rows;
        private final int[] slot;
        private final long changed;

        Delta(Lfts base, int[] lids, byte[][] rows, long changed) {
            this.base = base;
            this.lids = lids;
            this.rows = rows;
            this.changed = changed;
            this.slot = new int[base.top() + 1];
            Arrays.fill(slot, -1);
            for (int i = 0; i < lids.length; i++) {
                slot[lids[i]] = i;
            }
        }

        /** The destinations re-routed (whose routes crossed a failure), ascending. */
        public int[] lids() {
            return lids.clone();
        }

        /** How many (switch, LID) entries changed. */
        public long changedEntries() {
            return changed;
        }

        /** Whether the routes to {@code lid} were re-routed. */
        public boolean rerouted(int lid) {
            return lid >= 0 && lid < slot.length && slot[lid] >= 0;
        }

        /** The egress port of switch {@code s} for {@code lid} after the re-route. */
        public int port(int s, int lid) {
            if (lid >= 0 && lid < slot.length) {
                int i = slot[lid];
                if (i >= 0) {
                    return rows[i][s] & 0xff;
                }
            }
            return base.port(s, lid);
        }

        /** The new tables: those of switches with a changed entry copied and changed, the others shared. */
        public Lfts apply() {
            int n = base.switches();
            byte[][] tables = new byte[n][];
            for (int s = 0; s < n; s++) {
                byte[] t = base.table(s);
                for (int i = 0; i < lids.length; i++) {
                    int lid = lids[i];
                    if (lid < t.length && t[lid] != rows[i][s]) {
                        if (t == base.table(s)) {
                            t = t.clone();
                        }
                        t[lid] = rows[i][s];
                    }
                }
                tables[s] = t;
            }
            return new Lfts(tables, base.top());
        }
    }
}
