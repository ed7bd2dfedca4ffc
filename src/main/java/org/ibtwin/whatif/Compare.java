package org.ibtwin.whatif;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.ibtwin.model.Partitions;
import org.ibtwin.model.Port;
import org.ibtwin.model.PortState;
import org.ibtwin.perf.AllToAll;
import org.ibtwin.perf.Endpoint;
import org.ibtwin.perf.Hop;
import org.ibtwin.perf.LftRoutes;
import org.ibtwin.perf.Names;
import org.ibtwin.perf.Op;
import org.ibtwin.perf.PerfParams;
import org.ibtwin.perf.Route;
import org.ibtwin.perf.Routes;
import org.ibtwin.perf.Spec;
import org.ibtwin.perf.Transport;

/**
 * The comparison of two learnt copies of a fabric, before and after a change: pure (no twin, no MADs; the
 * {@link Side}s carry what was learnt). Who reaches whom is {@link LftRoutes}' route over the LFTs both ways and
 * {@link Partitions#canTalk}; bandwidth is the perf model's max-min share ({@link AllToAll}) on those routes.
 */
public final class Compare {
    /** Lines of a list the text shows at most (JSON has them all). */
    static final int SHOWN = 10;
    /** The shift pattern's message size. */
    static final long SIZE = 65536;

    private Compare() {
    }

    /** Compares {@code before} with {@code after}. */
    public static Report run(String fabric, List<String> changes, Side before, Side after, List<String> notes) {
        List<Long> hosts = new ArrayList<>(before.hosts().keySet());
        for (Long g : after.hosts().keySet()) {
            if (!before.hosts().containsKey(g)) {
                hosts.add(g);
            }
        }
        int h = hosts.size();
        Map<Report.Cause, long[]> lostCount = new EnumMap<>(Report.Cause.class);
        Map<Report.Cause, long[]> gainedCount = new EnumMap<>(Report.Cause.class);
        Map<Report.Cause, long[]> lostExample = new EnumMap<>(Report.Cause.class);
        Map<Report.Cause, long[]> gainedExample = new EnumMap<>(Report.Cause.class);
        long talkBefore = 0;
        long talkAfter = 0;
        Reach rb = new Reach(before, hosts);
        // the same routes over the same ports (a change of partitions alone): only the P_Key tables differ
        Reach ra = after.routes() == before.routes() && after.hosts() == before.hosts() ? new Reach(after, rb)
                : new Reach(after, hosts);
        for (int i = 0; i < h; i++) {
            for (int j = i + 1; j < h; j++) {
                long a = hosts.get(i);
                long b = hosts.get(j);
                Report.Cause x = rb.status(i, j);
                Report.Cause y = ra.status(i, j);
                if (x == null) {
                    talkBefore++;
                }
                if (y == null) {
                    talkAfter++;
                }
                if (x == null && y != null) {
                    lostCount.computeIfAbsent(y, k -> new long[1])[0]++;
                    lostExample.putIfAbsent(y, new long[] {a, b});
                } else if (x != null && y == null) {
                    gainedCount.computeIfAbsent(x, k -> new long[1])[0]++;
                    gainedExample.putIfAbsent(x, new long[] {a, b});
                }
            }
        }
        List<Report.Group> lost = groups(lostCount, lostExample, before, after);
        List<Report.Group> gained = groups(gainedCount, gainedExample, before, after);

        // partitions, per port
        List<String> partLines = new ArrayList<>();
        long partPorts = 0;
        Map<Integer, long[]> members = new java.util.TreeMap<>();   // pkey -> {before, after, changed}
        for (long g : hosts) {
            Port pb = before.hosts().get(g);
            Port pa = after.hosts().get(g);
            if (pb == null || pa == null) {
                continue;   // a port not reached on one side: its pairs say so; its table is not known there
            }
            int[] kb = table(before, pb);
            int[] ka = table(after, pa);
            for (int k : kb) {
                members.computeIfAbsent(k & Partitions.DEFAULT, z -> new long[3])[0]++;
            }
            for (int k : ka) {
                members.computeIfAbsent(k & Partitions.DEFAULT, z -> new long[3])[1]++;
            }
            String d = membershipChange(kb, ka);
            if (d != null) {
                partPorts++;
                for (int k : keys(kb, ka)) {
                    if (Partitions.entry(kb, k) != Partitions.entry(ka, k)) {
                        members.computeIfAbsent(k, z -> new long[3])[2]++;
                    }
                }
                if (partLines.size() < SHOWN) {
                    partLines.add(Names.port(pb != null ? pb : pa) + ": " + d);
                }
            }
        }
        if (partPorts > partLines.size()) {
            partLines.add(String.format(Locale.ROOT, "... and %,d more", partPorts - partLines.size()));
        }
        List<String> ipoib = new ArrayList<>();
        for (Map.Entry<Integer, long[]> e : members.entrySet()) {
            long[] m = e.getValue();
            if (m[2] > 0) {
                ipoib.add(String.format(Locale.ROOT, "broadcast group ff12:401b:%04x::ffff:ffff (P_Key %s): "
                        + "%,d -> %,d member ports, %,d change", e.getKey() | Partitions.FULL, key(e.getKey()), m[0],
                        m[1], m[2]));
            }
        }
        String smBefore = smPort(before);
        String smAfter = smPort(after);
        List<String> smProblems = new ArrayList<>();
        if (after.master() == null && before.master() != null) {
            smProblems.add("no SM is master after the change: nothing sweeps, routes around a failure or brings a "
                    + "port up");
        }
        for (String w : after.smWarnings()) {
            if (w.contains("limited member of the Default partition")) {
                smProblems.add("locked out: " + w);
            }
        }
        Port smAfterPort = after.smPortGuid() == 0 ? null : port(after, after.smPortGuid());
        if (after.smPortGuid() != 0 && smAfterPort == null && port(before, after.smPortGuid()) != null) {
            smProblems.add("cut off: the SM's own port is no longer in the fabric after the change: it reaches no "
                    + "other port");
        }
        int[] smTable = smAfterPort == null ? null : after.pkeys().apply(smAfterPort);
        if (smTable != null && !Partitions.isFullMember(smTable, Partitions.DEFAULT) && smProblems.stream()
                .noneMatch(s -> s.startsWith("locked out"))) {
            smProblems.add("locked out: the SM's own port is not a full member of the Default partition (0x7fff): "
                    + "no port can reach the SA");
        }
        List<String> warn = new ArrayList<>();
        for (String w : after.smWarnings()) {
            if (!w.contains("limited member of the Default partition")) {
                warn.add(w);
            }
        }

        // LIDs and LFTs
        long lidsChanged = 0;
        List<String> lidLines = new ArrayList<>();
        for (Map.Entry<Long, Integer> e : before.lids().entrySet()) {
            Integer now = after.lids().get(e.getKey());
            if (now != null && !now.equals(e.getValue())) {
                lidsChanged++;
                if (lidLines.size() < SHOWN) {
                    Port p = before.hosts().get(e.getKey());
                    lidLines.add(String.format(Locale.ROOT, "%s (port GUID 0x%016x): LID %d -> %d", p == null
                            ? "a switch" : Names.port(p), e.getKey(), e.getValue(), now));
                }
            }
        }
        long blocks = 0;
        int switches = 0;
        for (Map.Entry<Long, Side.Tables> e : before.tables().entrySet()) {
            Side.Tables a = after.tables().get(e.getKey());
            if (a == null) {
                continue;
            }
            Side.Tables b = e.getValue();
            int top = Math.max(a.top(), b.top());
            int n = 0;
            for (int k = 0; k <= top / 64; k++) {
                byte[] x = k <= b.top() / 64 ? b.block(k) : null;
                byte[] y = k <= a.top() / 64 ? a.block(k) : null;
                if (y != null && !java.util.Arrays.equals(x, y)) {
                    n++;
                }
            }
            if (n > 0) {
                blocks += n;
                switches++;
            }
        }

        // bandwidth
        List<Long> order = new ArrayList<>(before.hosts().keySet());
        Report.Bandwidth shift = null;
        Map<String, long[]> shiftLoad = new HashMap<>();
        Map<String, String> linkNames = new HashMap<>();
        if (order.size() >= 2) {
            Spec spec = new Spec(Op.WRITE, Transport.RC, SIZE, 1, 128, 16, 0, 4096, false, false);
            double[] agg = new double[2];
            double[] worst = new double[2];
            String[] worstPair = new String[2];
            for (int s = 0; s < 2; s++) {
                Side side = s == 0 ? before : after;
                List<Endpoint> eps = new ArrayList<>();
                for (long g : order) {
                    Port p = side.hosts().get(g);
                    eps.add(Endpoint.of(p != null ? p : before.hosts().get(g), false));
                }
                Routes routes = routes(side);
                AllToAll.Result r = AllToAll.run(PerfParams.DEFAULT, spec, routes, AllToAll.shift(eps, eps.size(),
                        eps.size() / 2));
                agg[s] = r.aggregateGbps();
                worst[s] = r.minGbps();
                for (AllToAll.PairResult pr : r.pairs()) {
                    if (pr.gbps() == r.minGbps() && worstPair[s] == null) {
                        worstPair[s] = Names.port(pr.pair().src().port()) + " -> " + Names.port(pr.pair().dst()
                                .port()) + ": " + pr.why().text();
                    }
                    Route rt = routes.route(pr.pair().src().port(), pr.pair().dst().port());
                    if (rt == null) {
                        continue;
                    }
                    for (Hop hop : rt.hops()) {
                        String key = Side.linkKey(hop.from());
                        shiftLoad.computeIfAbsent(key, k -> new long[2])[s]++;
                        linkNames.putIfAbsent(key, Names.port(hop.from()) + " -> " + Names.port(hop.to()));
                    }
                }
            }
            shift = new Report.Bandwidth("shift by " + order.size() / 2 + ", RDMA WRITE " + SIZE / 1024 + " KiB",
                    agg[0], agg[1], worst[0], worst[1], worstPair[0], worstPair[1]);
        }
        Report.Bandwidth a2a = null;
        List<Report.LinkRise> rises = new ArrayList<>();
        Side.AllToAllLoad ab = before.allToAll();
        Side.AllToAllLoad aa = after.allToAll();
        if (ab != null && aa != null) {
            a2a = new Report.Bandwidth("all-to-all, every host to every other", ab.aggregateGbps(),
                    aa.aggregateGbps(), ab.unrouted() > 0 ? 0 : ab.perPairGbps(), aa.unrouted() > 0 ? 0
                    : aa.perPairGbps(), a2aWorst(ab), a2aWorst(aa));
            linkNames.putAll(ab.linkNames());
            linkNames.putAll(aa.linkNames());
        }
        Set<String> keys = new TreeSet<>(shiftLoad.keySet());
        if (ab != null && aa != null) {
            keys.addAll(ab.linkPairs().keySet());
            keys.addAll(aa.linkPairs().keySet());
        }
        for (String k : keys) {
            long x = ab == null ? 0 : ab.linkPairs().getOrDefault(k, 0L);
            long y = aa == null ? 0 : aa.linkPairs().getOrDefault(k, 0L);
            long[] sl = shiftLoad.getOrDefault(k, new long[2]);
            if (y > x || sl[1] > sl[0]) {
                rises.add(new Report.LinkRise(linkNames.getOrDefault(k, k), x, y, sl[0], sl[1]));
            }
        }
        rises.sort((p, q) -> {
            int c = Long.compare(q.allToAllAfter() - q.allToAllBefore(), p.allToAllAfter() - p.allToAllBefore());
            return c != 0 ? c : Long.compare(q.shiftAfter() - q.shiftBefore(), p.shiftAfter() - p.shiftBefore());
        });
        if (rises.size() > 5) {
            rises = new ArrayList<>(rises.subList(0, 5));
        }
        List<String> allNotes = new ArrayList<>(notes);
        warn.forEach(w -> allNotes.add("the SM warned: " + w));
        return new Report(fabric, changes, h, (long) h * (h - 1) / 2, talkBefore, talkAfter, lost, gained,
                smProblems, partPorts, partLines, ipoib, smBefore, smAfter, before.master(), after.master(),
                lidsChanged, lidLines, blocks, switches, before.creditLoop(), after.creditLoop(), shift, a2a, rises,
                allNotes);
    }

    private static String a2aWorst(Side.AllToAllLoad a) {
        return a.unrouted() > 0 ? String.format(Locale.ROOT, "%,d of %,d pairs have no route; the others %s",
                a.unrouted(), a.pairs(), a.bottleneck()) : a.bottleneck();
    }

    /**
     * Who reaches whom on one side, for every host pair at once: for each destination, the route follower's paths
     * from every switch with hosts ({@link LftRoutes#fanIn}: the tree toward it, each switch's table asked once), so
     * the pairs cost a bit lookup each; then the partitions ({@link Partitions#canTalk}) of the tables read.
     */
    static final class Reach {
        private final Port[] ports;
        private final int[][] tables;
        private final java.util.BitSet[] into;   // into[j].get(i): the route i -> j is there

        Reach(Side side, List<Long> hosts) {
            int h = hosts.size();
            ports = new Port[h];
            tables = new int[h][];
            Map<org.ibtwin.model.Node, List<Integer>> bySwitch = new java.util.IdentityHashMap<>();
            for (int i = 0; i < h; i++) {
                Port p = side.hosts().get(hosts.get(i));
                if (p == null || p.state() != PortState.ACTIVE) {
                    continue;
                }
                ports[i] = p;
                int[] k = side.pkeys().apply(p);
                tables[i] = k == null ? Partitions.defaultTable() : k;
                if (p.remote() != null && p.remote().node().isSwitch() && p.remote().state() == PortState.ACTIVE) {
                    bySwitch.computeIfAbsent(p.remote().node(), z -> new ArrayList<>()).add(i);
                }
            }
            into = new java.util.BitSet[h];
            Map<org.ibtwin.model.Node, Long> arriving = new java.util.IdentityHashMap<>();
            for (Map.Entry<org.ibtwin.model.Node, List<Integer>> e : bySwitch.entrySet()) {
                arriving.put(e.getKey(), (long) e.getValue().size());
            }
            for (int j = 0; j < h; j++) {
                java.util.BitSet b = new java.util.BitSet(h);
                into[j] = b;
                Port dst = ports[j];
                if (dst == null) {
                    continue;
                }
                Set<org.ibtwin.model.Node> lost = java.util.Collections.newSetFromMap(
                        new java.util.IdentityHashMap<>());
                side.routes().fanIn(arriving, dst, new LftRoutes.FanIn() {
                    @Override
                    public void add(Hop hop, long paths) {
                    }

                    @Override
                    public void lost(org.ibtwin.model.Node sw, long paths) {
                        lost.add(sw);
                    }
                });
                for (Map.Entry<org.ibtwin.model.Node, List<Integer>> e : bySwitch.entrySet()) {
                    if (!lost.contains(e.getKey())) {
                        for (int i : e.getValue()) {
                            b.set(i);
                        }
                    }
                }
                for (int i = 0; i < h; i++) {
                    if (ports[i] != null && ports[i].remote() == dst) {
                        b.set(i);   // cabled to each other
                    }
                }
            }
        }

        /** {@code side}'s reach where it has {@code same}'s ports and routes: its own P_Key tables, the same routes. */
        Reach(Side side, Reach same) {
            ports = same.ports;
            into = same.into;
            tables = new int[ports.length][];
            for (int i = 0; i < ports.length; i++) {
                if (ports[i] != null) {
                    int[] k = side.pkeys().apply(ports[i]);
                    tables[i] = k == null ? Partitions.defaultTable() : k;
                }
            }
        }

        /** Null when hosts i and j talk, else why they cannot. */
        Report.Cause status(int i, int j) {
            if (ports[i] == null || ports[j] == null) {
                return Report.Cause.PORT_DOWN;
            }
            if (!into[j].get(i) || !into[i].get(j)) {
                return Report.Cause.NO_ROUTE;
            }
            return Partitions.canTalk(tables[i], tables[j]) ? null : Report.Cause.PARTITION;
        }
    }

    /** Whether two ports were learnt in the same island (from one management port). */
    private static boolean sameIsland(Side side, Port a, Port b) {
        Integer x = side.island().get(a.guid());
        return x != null && x.equals(side.island().get(b.guid()));
    }

    /** A route on {@code side}, null when the ports are not its own or it has none. */
    private static Routes routes(Side side) {
        return (a, b) -> side.hosts().get(a.guid()) == a && side.hosts().get(b.guid()) == b && sameIsland(side, a, b)
                ? side.routes().route(a, b) : null;
    }

    private static Port port(Side side, long guid) {
        Port p = side.hosts().get(guid);
        return p;
    }

    private static int[] table(Side side, Port p) {
        if (p == null) {
            return new int[0];
        }
        int[] k = side.pkeys().apply(p);
        return k == null ? Partitions.defaultTable() : k;
    }

    private static Set<Integer> keys(int[] a, int[] b) {
        Set<Integer> s = new LinkedHashSet<>();
        for (int k : a) {
            s.add(k & Partitions.DEFAULT);
        }
        for (int k : b) {
            s.add(k & Partitions.DEFAULT);
        }
        return s;
    }

    /** "leaves 0x0001 (full); joins 0x0002 (full); 0x7fff full -> limited", or null when nothing changes. */
    static String membershipChange(int[] before, int[] after) {
        List<String> out = new ArrayList<>();
        for (int k : keys(before, after)) {
            if (k == 0) {
                continue;
            }
            int x = Partitions.entry(before, k);
            int y = Partitions.entry(after, k);
            if (x == y) {
                continue;
            }
            if (x == 0) {
                out.add("joins " + key(k) + " (" + member(y) + ")");
            } else if (y == 0) {
                out.add("leaves " + key(k) + " (" + member(x) + ")");
            } else {
                out.add(key(k) + " " + member(x) + " -> " + member(y));
            }
        }
        return out.isEmpty() ? null : String.join("; ", out);
    }

    /** A partition as partitions.conf writes it: 0x7fff for Default, else with the full-member bit (0x8001). */
    static String key(int base) {
        int b = base & Partitions.DEFAULT;
        return String.format(Locale.ROOT, "0x%04x", b == Partitions.DEFAULT ? b : b | Partitions.FULL);
    }

    private static String member(int key) {
        return (key & Partitions.FULL) != 0 ? "full" : "limited";
    }

    /** The SM's own port and its Default membership: "node001/1, full member of 0x7fff". */
    private static String smPort(Side side) {
        if (side.smPortGuid() == 0) {
            return "no SM";
        }
        Port p = port(side, side.smPortGuid());
        if (p == null) {
            return String.format(Locale.ROOT, "port GUID 0x%016x, not in the fabric", side.smPortGuid());
        }
        int[] k = side.pkeys().apply(p);
        if (k == null) {
            return Names.port(p) + ", P_Keys unreadable";
        }
        int d = Partitions.entry(k, Partitions.DEFAULT);
        return Names.port(p) + (d == 0 ? ", not in the Default partition (0x7fff)" : (d & Partitions.FULL) != 0
                ? ", full member of 0x7fff" : ", LIMITED member of 0x7fff");
    }

    private static List<Report.Group> groups(Map<Report.Cause, long[]> count, Map<Report.Cause, long[]> example,
                                             Side before, Side after) {
        List<Report.Group> out = new ArrayList<>();
        for (Map.Entry<Report.Cause, long[]> e : count.entrySet()) {
            long[] ex = example.get(e.getKey());
            String name = hostName(before, after, ex[0]) + " <-> " + hostName(before, after, ex[1]);
            out.add(new Report.Group(e.getKey(), e.getValue()[0], name, route(before, after, ex[0], ex[1]),
                    route(after, before, ex[0], ex[1])));
        }
        out.sort((a, b) -> Long.compare(b.pairs(), a.pairs()));
        return out;
    }

    private static String hostName(Side before, Side after, long g) {
        Port p = before.hosts().get(g);
        if (p == null) {
            p = after.hosts().get(g);
        }
        return Names.port(p);
    }

    /** The route from a to b hop by hop (and back, when that fails), or where it stops and why. */
    static String route(Side side, Side other, long a, long b) {
        Port pa = side.hosts().get(a);
        Port pb = side.hosts().get(b);
        if (pa == null || pb == null) {
            long g = pa == null ? a : b;
            Port named = other.hosts().get(g);
            return (named != null ? Names.port(named) : String.format(Locale.ROOT, "port 0x%016x", g))
                    + " has no live link: it is down, or nothing reaches it";
        }
        if (pa.state() != PortState.ACTIVE || pb.state() != PortState.ACTIVE) {
            Port idle = pa.state() != PortState.ACTIVE ? pa : pb;
            return Names.port(idle) + " is " + idle.state().label() + ", not Active";
        }
        if (!sameIsland(side, pa, pb)) {
            return "no path: the fabric is cut in two between " + Names.port(pa) + " and " + Names.port(pb);
        }
        LftRoutes.Trace t = side.routes().trace(pa, pb);
        if (!t.ok()) {
            return "no route: stops at " + Names.port(t.at()) + ": " + t.problem();
        }
        LftRoutes.Trace back = side.routes().trace(pb, pa);
        String there = Names.route(t.route());
        if (!back.ok()) {
            return there + "; back: stops at " + Names.port(back.at()) + ": " + back.problem();
        }
        int[] ka = side.pkeys().apply(pa);
        int[] kb = side.pkeys().apply(pb);
        int shared = Partitions.shared(ka == null ? Partitions.defaultTable() : ka,
                kb == null ? Partitions.defaultTable() : kb, 0);
        return there + (shared == 0 ? " (no partition shared with a full member: " + keysText(ka) + " vs "
                + keysText(kb) + ")" : " (P_Key " + key(shared) + ")");
    }

    private static String keysText(int[] k) {
        if (k == null) {
            return "unreadable";
        }
        List<String> s = new ArrayList<>();
        for (int x : k) {
            s.add(String.format(Locale.ROOT, "0x%04x", x));
        }
        return String.join(",", s);
    }
}
