package org.ibtwin.sm.routing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.ibtwin.gen.Direct;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.model.LinkSpeed;
import org.junit.jupiter.api.Test;

/**
 * Partial re-routes against full ones: after a failed link or switch, the tables re-routed in part deliver exactly
 * the CA pairs a full route of the smaller fabric delivers, keep the engine's freedom from credit loops, and change
 * only the destinations whose routes crossed the failure.
 */
class RerouteTest {

    /** One failure: a link at (s, p), or switch s whole (p = 0). */
    private record Failure(int s, int p) {
    }

    private static SwitchGraph after(SwitchGraph g, Failure f) {
        if (f.p() == 0) {
            return g.without((s, p) -> s == f.s(), s -> s == f.s());
        }
        return g.without((s, p) -> s == f.s() && p == f.p(), s -> false);
    }

    /** Some inter-switch links (each once) and some switches, picked at random but the same every run. */
    private static List<Failure> failures(SwitchGraph g, int links, int switches, long seed) {
        List<Failure> all = new ArrayList<>();
        for (int s = 0; s < g.switches(); s++) {
            for (int p = 1; p <= g.numPorts(s); p++) {
                if (g.neighbour(s, p) > s) {
                    all.add(new Failure(s, p));
                }
            }
        }
        Random r = new Random(seed);
        java.util.Collections.shuffle(all, r);
        List<Failure> out = new ArrayList<>(all.subList(0, Math.min(links, all.size())));
        for (int i = 0; i < switches; i++) {
            out.add(new Failure(r.nextInt(g.switches()), 0));
        }
        return out;
    }

    /** Which (source switch with CAs, CA LID) pairs {@code port} delivers over {@code h}. */
    private static boolean[][] delivered(SwitchGraph h, java.util.function.IntBinaryOperator port) {
        boolean[] leaf = UpDownPaths.leaves(h);
        boolean[][] out = new boolean[h.switches()][h.top() + 1];
        for (int src = 0; src < h.switches(); src++) {
            if (!leaf[src]) {
                continue;
            }
            for (int lid = 1; lid <= h.top(); lid++) {
                int t = h.destSwitch(lid);
                if (t < 0 || !h.isCaLid(lid)) {
                    continue;
                }
                int x = src;
                for (int hop = 0; hop <= h.switches() && x >= 0; hop++) {
                    if (x == t) {
                        out[src][lid] = true;
                        break;
                    }
                    int p = port.applyAsInt(x, lid);
                    x = p == Lfts.NO_ROUTE || p > h.numPorts(x) ? -1 : h.neighbour(x, p);
                }
            }
        }
        return out;
    }

    /** Re-routes every failure of {@code failures} in part and compares with a full route by {@code engine}. */
    private static int compare(RoutingEngine engine, SwitchGraph g, List<Failure> failures, boolean loopFree) {
        RoutingEngine.Routed base = (RoutingEngine.Routed) engine.route(g);
        Reroute.Base rb = base.reroute().over(g, base.lfts());
        int partial = 0;
        for (Failure f : failures) {
            SwitchGraph h = after(g, f);
            Reroute.Outcome o = rb.after(h);
            if (!(o instanceof Reroute.Partial p)) {
                continue;
            }
            partial++;
            Reroute.Delta d = p.delta();
            // the chain, as the SM routes: ftree declines a tree with a link missing and minhop routes it
            Lfts full = RoutingEngines.chain(engine.name(), RoutingEngines.Options.none()).route(h).lfts();
            boolean[][] a = delivered(h, d::port);
            boolean[][] b = delivered(h, full::port);
            for (int s = 0; s < a.length; s++) {
                assertThat(a[s]).as(engine.name() + " after " + f + ", from switch " + s).isEqualTo(b[s]);
            }
            Lfts applied = d.apply();
            for (int s = 0; s < g.switches(); s++) {
                for (int lid = 1; lid <= g.top(); lid++) {
                    assertThat(applied.port(s, lid)).isEqualTo(d.port(s, lid));
                    if (!d.rerouted(lid)) {
                        assertThat(d.port(s, lid)).isEqualTo(base.lfts().port(s, lid));
                    }
                }
            }
            // a destination re-routed is one whose routes crossed the failure (or whose switch is gone)
            for (int lid : d.lids()) {
                boolean crossed = h.destSwitch(lid) < 0;
                for (int s = 0; s < g.switches() && !crossed; s++) {
                    int port = base.lfts().port(s, lid);
                    crossed = port != Lfts.NO_ROUTE && port <= g.numPorts(s) && g.neighbour(s, port) >= 0
                            && h.neighbour(s, port) < 0;
                }
                assertThat(crossed).as("LID " + lid + " re-routed after " + f).isTrue();
            }
            if (loopFree) {
                assertThat(RoutingCheck.check(h, applied).creditLoop()).as(engine.name() + " after " + f).isFalse();
            }
        }
        return partial;
    }

    @Test
    void minhopUpdnAndFtreeReRouteAFatTreeInPartAsAFullRouteWould() {
        SwitchGraph two = Graphs.of(FatTree.build(FatTreeSpec.of(2, 8, 32)));
        SwitchGraph three = Graphs.of(FatTree.build(FatTreeSpec.of(3, 8, 96)));
        for (SwitchGraph g : List.of(two, three)) {
            List<Failure> fs = failures(g, 12, 3, 7);
            assertThat(compare(new MinHopEngine(), g, fs, false)).isEqualTo(fs.size());
            assertThat(compare(new UpDownEngine(List.of()), g, fs, true)).isEqualTo(fs.size());
            assertThat(compare(new FatTreeEngine(), g, fs, true)).isPositive();
        }
    }

    @Test
    void updnAndDorOnAMeshAndMinhopOnARingStayCorrect() {
        SwitchGraph mesh = Graphs.of(Direct.torus(new int[] {4, 4}, false, 2, 0, LinkSpeed.HDR));
        List<Failure> fs = failures(mesh, 10, 2, 3);
        assertThat(compare(new MinHopEngine(), mesh, fs, false)).isEqualTo(fs.size());
        compare(new UpDownEngine(List.of()), mesh, fs, true);
        compare(new DorEngine(), mesh, fs, true);
        SwitchGraph ring = Graphs.Shape.ring(6, 2).graph();
        assertThat(compare(new MinHopEngine(), ring, failures(ring, 6, 0, 1), false)).isEqualTo(6);
    }

    @Test
    void onlyTheDestinationsThroughAFailedUplinkAreReRouted() {
        SwitchGraph g = Graphs.of(FatTree.build(FatTreeSpec.of(2, 8, 32)));
        RoutingEngine.Routed base = (RoutingEngine.Routed) new FatTreeEngine().route(g);
        int leaf = g.destSwitch(g.top());
        int up = -1;
        for (int p = 1; p <= g.numPorts(leaf) && up < 0; p++) {
            up = g.neighbour(leaf, p) >= 0 ? p : -1;
        }
        int port = up;
        Reroute.Outcome o = base.reroute().over(g, base.lfts()).after(g.without((s, p) -> s == leaf && p == port,
                s -> false));
        Reroute.Delta d = ((Reroute.Partial) o).delta();
        long through = 0;
        for (int lid = 1; lid <= g.top(); lid++) {
            boolean uses = false;
            for (int s = 0; s < g.switches(); s++) {
                int q = base.lfts().port(s, lid);
                uses |= (s == leaf && q == port) || (g.neighbour(s, q <= g.numPorts(s) ? q : 0) == leaf
                        && g.neighbourPort(s, q) == port);
            }
            through += uses ? 1 : 0;
            assertThat(d.rerouted(lid)).as("LID " + lid).isEqualTo(uses);
        }
        assertThat(through).isPositive().isLessThan(g.top() / 2);
    }

    @Test
    void dfssspAndDorOverSeveralLanesAskForAFullRoute() {
        SwitchGraph torus = Graphs.of(Direct.torus(new int[] {4, 4}, true, 1, 0, LinkSpeed.HDR));
        RoutingEngine.Routed dor = (RoutingEngine.Routed) new DorEngine().route(torus);
        SwitchGraph h = torus.without((s, p) -> s == 0 && p == torus.numPorts(0), s -> false);
        if (dor.layers().count() > 1) {
            assertThat(dor.reroute().over(torus, dor.lfts()).after(h)).isInstanceOf(Reroute.Full.class);
        }
        RoutingEngine.Outcome df = new DfssspEngine().route(torus);
        if (df instanceof RoutingEngine.Routed r) {
            Reroute.Outcome o = r.reroute().over(torus, r.lfts()).after(h);
            assertThat(o).isInstanceOf(Reroute.Full.class);
            assertThat(((Reroute.Full) o).why()).contains("as a whole");
        }
    }

    @Test
    void aGraphThatGainedALinkIsForAFullRoute() {
        SwitchGraph g = Graphs.Shape.ring(4, 1).graph();
        SwitchGraph less = g.without((s, p) -> s == 0 && g.neighbour(s, p) >= 0, s -> false);
        RoutingEngine.Routed base = (RoutingEngine.Routed) new MinHopEngine().route(less);
        Reroute.Outcome o = base.reroute().over(less, base.lfts()).after(g);
        assertThat(o).isInstanceOf(Reroute.Full.class);
        assertThat(((Reroute.Full) o).why()).contains("added");
    }

    /**
     * A base for many re-routes ({@link Reroute#overMany}: distances kept and repaired) re-routes every single link
     * and switch failure, and some pairs of links, exactly as a base for one does (every distance searched anew):
     * the same outcome, the same destinations, every entry the same; asked twice, so the second time from the
     * distances kept.
     */
    @Test
    void aBaseForManyReRoutesAsABaseForOne() {
        List<SwitchGraph> graphs = List.of(Graphs.of(FatTree.build(FatTreeSpec.of(2, 8, 32))),
                Graphs.of(FatTree.build(FatTreeSpec.of(3, 8, 96))),
                Graphs.of(FatTree.build(FatTreeSpec.of(2, 6, 8).withBlocking(2).withHosts(24))),
                Graphs.of(Direct.torus(new int[] {4, 4}, false, 2, 0, LinkSpeed.HDR)),
                Graphs.of(Direct.torus(new int[] {5, 3}, true, 1, 0, LinkSpeed.HDR)),
                Graphs.Shape.ring(6, 2).graph());
        int partial = 0;
        for (SwitchGraph g : graphs) {
            List<Failure> single = failures(g, Integer.MAX_VALUE, 0, 1);
            for (int s = 0; s < g.switches(); s++) {
                single.add(new Failure(s, 0));
            }
            List<SwitchGraph> afters = new ArrayList<>();
            for (Failure f : single) {
                afters.add(after(g, f));
            }
            for (int i = 0; i + 1 < Math.min(single.size(), 24); i += 2) {
                Failure a = single.get(i);
                Failure b = single.get(i + 1);
                if (a.p() > 0 && b.p() > 0) {
                    afters.add(g.without((s, p) -> (s == a.s() && p == a.p()) || (s == b.s() && p == b.p()),
                            s -> false));
                }
            }
            for (RoutingEngine engine : List.of(new MinHopEngine(), new UpDownEngine(List.of()), new FatTreeEngine())) {
                if (!(engine.route(g) instanceof RoutingEngine.Routed base)) {
                    continue;
                }
                Reroute.Base one = base.reroute().over(g, base.lfts());
                Reroute.Base many = base.reroute().overMany(g, base.lfts());
                for (int round = 0; round < 2; round++) {
                    for (SwitchGraph h : afters) {
                        Reroute.Outcome a = one.after(h);
                        Reroute.Outcome b = many.after(h);
                        String as = engine.name() + " on " + g.switches() + " switches";
                        assertThat(b.getClass()).as(as).isEqualTo(a.getClass());
                        if (a instanceof Reroute.Full fa) {
                            assertThat(((Reroute.Full) b).why()).as(as).isEqualTo(fa.why());
                            continue;
                        }
                        partial++;
                        Reroute.Delta da = ((Reroute.Partial) a).delta();
                        Reroute.Delta db = ((Reroute.Partial) b).delta();
                        assertThat(db.lids()).as(as).containsExactly(da.lids());
                        assertThat(db.changedEntries()).as(as).isEqualTo(da.changedEntries());
                        for (int lid : da.lids()) {
                            for (int s = 0; s < g.switches(); s++) {
                                assertThat(db.port(s, lid)).as(as + ", switch " + s + ", LID " + lid)
                                        .isEqualTo(da.port(s, lid));
                            }
                        }
                    }
                }
            }
        }
        assertThat(partial).isGreaterThan(500);
    }
}
