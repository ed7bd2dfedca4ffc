package org.ibtwin.sm.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.ibtwin.format.FabricFiles;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.model.Fabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RoutingEnginesTest {
    private static final RoutingEngines.Options NONE = RoutingEngines.Options.none();

    private static RoutingEngine.Routed routed(RoutingEngine e, SwitchGraph g) {
        RoutingEngine.Outcome o = e.route(g);
        assertThat(o).as(e.name() + ": " + o).isInstanceOf(RoutingEngine.Routed.class);
        return (RoutingEngine.Routed) o;
    }

    @ParameterizedTest
    @ValueSource(strings = {"minhop", "updn", "ftree"})
    void everyEngineRoutesFatTreesCompletelyWithoutCreditLoops(String engine) {
        for (FatTreeSpec spec : List.of(FatTreeSpec.of(2, 8, 32), FatTreeSpec.of(2, 8, 20), FatTreeSpec.of(3, 8, 128),
                FatTreeSpec.of(3, 8, 40), FatTreeSpec.of(3, 12, 100).withBlocking(2))) {
            SwitchGraph g = Graphs.of(FatTree.build(spec));
            RoutingEngine.Routed r = routed(RoutingEngines.create(engine, NONE), g);
            RoutingCheck.Report c = RoutingCheck.check(g, r.lfts());
            assertThat(c.failures()).as(engine + " on " + spec).isEmpty();
            assertThat(c.unreached()).isZero();
            assertThat(c.creditLoop()).as(engine + " on " + spec + ": credit loop").isFalse();
            assertThat(c.maxHops()).isLessThanOrEqualTo(2 * (spec.levels() - 1));
        }
    }

    @Test
    void theDefaultFabricRoutesWithEveryEngine() {
        SwitchGraph g = Graphs.of(FabricFiles.loadDefault());
        for (String e : RoutingEngines.names()) {
            RoutingCheck.Report c = RoutingCheck.check(g, routed(RoutingEngines.create(e, NONE), g).lfts());
            assertThat(c.ok()).as(e + ": " + c).isTrue();
        }
    }

    @Test
    void lmcRangesAreRoutedLidByLid() {
        SwitchGraph g = Graphs.of(FatTree.build(FatTreeSpec.of(2, 8, 16)), 2);
        for (String e : RoutingEngines.names()) {
            Lfts l = routed(RoutingEngines.create(e, NONE), g).lfts();
            assertThat(RoutingCheck.check(g, l).ok()).as(e).isTrue();
        }
        // minhop spreads the four LIDs of a remote CA over the four uplinks of a leaf
        Lfts l = routed(new MinHopEngine(), g).lfts();
        int leaf0 = 0;
        int remote = -1;
        for (int lid = 1; lid <= g.top(); lid++) {
            if (g.isCaLid(lid) && g.destSwitch(lid) != leaf0 && lid % 4 == 0) {
                remote = lid;
                break;
            }
        }
        java.util.Set<Integer> ports = new java.util.HashSet<>();
        for (int i = 0; i < 4; i++) {
            ports.add(l.port(leaf0, remote + i));
        }
        assertThat(ports).hasSize(4);
    }

    @Test
    void minhopBalancesUplinksWithinOne() {
        Fabric f = FatTree.build(FatTreeSpec.of(2, 16, 128));
        SwitchGraph g = Graphs.of(f);
        Lfts l = routed(new MinHopEngine(), g).lfts();
        for (int s = 0; s < g.switches(); s++) {
            if (!g.name(s).startsWith("leaf")) {
                continue;
            }
            int[] load = new int[g.numPorts(s) + 1];
            for (int lid = 1; lid <= g.top(); lid++) {
                if (g.isCaLid(lid) && g.destSwitch(lid) != s) {
                    load[l.port(s, lid)]++;
                }
            }
            int min = Integer.MAX_VALUE;
            int max = 0;
            for (int p = 9; p <= 16; p++) {
                min = Math.min(min, load[p]);
                max = Math.max(max, load[p]);
            }
            assertThat(max - min).as(g.name(s)).isLessThanOrEqualTo(1);
        }
    }

    @Test
    void ftreeRoutesEachDestinationThroughOneTopSwitch() {
        Fabric f = FatTree.build(FatTreeSpec.of(3, 8, 128));
        SwitchGraph g = Graphs.of(f);
        Lfts l = routed(new FatTreeEngine(), g).lfts();
        for (int lid = 1; lid <= g.top(); lid++) {
            if (!g.isCaLid(lid)) {
                continue;
            }
            java.util.Set<Integer> tops = new java.util.HashSet<>();
            for (int src = 0; src < g.switches(); src++) {
                if (!g.name(src).contains("leaf") || src == g.destSwitch(lid)) {
                    continue;
                }
                int s = src;
                int highest = s;
                for (int hop = 0; hop < 8 && s != g.destSwitch(lid); hop++) {
                    s = g.neighbour(s, l.port(s, lid));
                    if (g.name(s).startsWith("core")) {
                        highest = s;
                    }
                }
                if (g.name(highest).startsWith("core")) {
                    tops.add(highest);
                }
            }
            assertThat(tops).as("LID " + lid).hasSizeLessThanOrEqualTo(1);
        }
    }

    /**
     * The most flows any switch-to-switch channel carries in the shift permutation i -> i + k, over every k; the CAs
     * numbered as they are cabled (by their switch's GUID, then port), whatever their LIDs.
     */
    private static int worstShiftContention(SwitchGraph g, Lfts l) {
        List<Integer> lids = new java.util.ArrayList<>();
        for (int lid = 1; lid <= g.top(); lid++) {
            if (g.isCaLid(lid)) {
                lids.add(lid);
            }
        }
        lids.sort(java.util.Comparator.<Integer>comparingLong(lid -> g.guid(g.destSwitch(lid)))
                .thenComparingInt(g::destPort));
        int n = lids.size();
        int worst = 0;
        for (int k = 1; k < n; k++) {
            java.util.Map<Long, Integer> load = new java.util.HashMap<>();
            for (int i = 0; i < n; i++) {
                int dst = lids.get((i + k) % n);
                int s = g.destSwitch(lids.get(i));
                while (s != g.destSwitch(dst)) {
                    int p = l.port(s, dst);
                    worst = Math.max(worst, load.merge(((long) s << 16) | p, 1, Integer::sum));
                    s = g.neighbour(s, p);
                }
            }
        }
        return worst;
    }

    @Test
    void ftreeRunsShiftAllToAllWithoutContentionOnFullFatTrees() {
        for (FatTreeSpec spec : List.of(FatTreeSpec.of(2, 8, 32), FatTreeSpec.of(3, 8, 128))) {
            SwitchGraph g = Graphs.of(FatTree.build(spec));
            assertThat(worstShiftContention(g, routed(new FatTreeEngine(), g).lfts())).as(spec.toString())
                    .isEqualTo(1);
        }
    }

    /**
     * The SM numbers switches and gives out LIDs in discovery order, which varies from sweep to sweep: on full fat
     * trees, whatever the order, ftree and minhop load every up port of a level alike, and ftree still runs shift
     * all-to-all without contention.
     */
    @Test
    void fullFatTreesBalanceInAnyDiscoveryOrder() {
        java.util.Random random = new java.util.Random(4);
        for (FatTreeSpec spec : List.of(FatTreeSpec.of(3, 8, 64), FatTreeSpec.of(3, 8, 128),
                FatTreeSpec.of(2, 16, 64))) {
            Fabric f = FatTree.build(spec);
            for (int round = 0; round < 25; round++) {
                SwitchGraph g = Graphs.shuffled(f, random);
                for (RoutingEngine e : List.of(new FatTreeEngine(), new MinHopEngine())) {
                    RoutingBalance b = RoutingBalance.of(g, routed(e, g).lfts());
                    for (int level : b.levels()) {
                        assertThat(b.levelStats(level, true).spread()).as("%s on %s, round %d, level %d up: %s",
                                e.name(), spec, round, level, b.levelStats(level, true)).isZero();
                    }
                }
                if (spec.hosts() == 128 && round < 3) {
                    assertThat(worstShiftContention(g, routed(new FatTreeEngine(), g).lfts())).isEqualTo(1);
                }
            }
        }
    }

    @Test
    void aRingHasCreditLoopsUnderMinhopButNotUnderUpDown() {
        SwitchGraph g = Graphs.Shape.ring(6, 2).graph();
        RoutingCheck.Report minhop = RoutingCheck.check(g, routed(new MinHopEngine(), g).lfts());
        assertThat(minhop.unreached()).isZero();
        assertThat(minhop.creditLoop()).isTrue();
        RoutingEngine.Routed updn = routed(new UpDownEngine(null), g);
        RoutingCheck.Report c = RoutingCheck.check(g, updn.lfts());
        assertThat(c.ok()).as(c.toString()).isTrue();
        assertThat(updn.detail()).contains("found");
    }

    @Test
    void ftreeDeclinesWhatIsNotAFatTreeAndTheChainFallsBack() {
        SwitchGraph ring = Graphs.Shape.ring(5, 1).graph();
        assertThat(new FatTreeEngine().route(ring)).isInstanceOfSatisfying(RoutingEngine.Declined.class,
                d -> assertThat(d.reason()).startsWith("not a fat tree: ").contains("both at level 0"));
        RoutingEngines.Chain chain = RoutingEngines.chain("ftree,updn", NONE);
        assertThat(chain.names()).containsExactly("ftree", "updn", "minhop");
        RoutingEngines.Chain.Result r = chain.route(ring);
        assertThat(r.engine()).isEqualTo("updn");
        assertThat(r.declined()).singleElement().asString().startsWith("ftree: not a fat tree");
        assertThat(RoutingCheck.check(ring, r.lfts()).ok()).isTrue();
    }

    @Test
    void ftreeDeclinesALinkBetweenTwoSpines() {
        Fabric f = FatTree.build(FatTreeSpec.of(2, 8, 12));
        // three leaves fill six ports of each spine: cable spine01 to spine02
        var s1 = f.switches().stream().filter(n -> n.description().equals("spine01")).findFirst().orElseThrow();
        var s2 = f.switches().stream().filter(n -> n.description().equals("spine02")).findFirst().orElseThrow();
        f.connect(s1.port(8), s2.port(8), org.ibtwin.model.Cable.UNRATED);
        assertThat(new FatTreeEngine().route(Graphs.of(f))).isInstanceOf(RoutingEngine.Declined.class);
        assertThat(RoutingCheck.check(Graphs.of(f), routed(new UpDownEngine(null), Graphs.of(f)).lfts()).ok())
                .isTrue();
    }

    @Test
    void updnTakesRootsFromAGuidListAndSaysWhichAreNotSwitches() {
        Graphs.Shape ring = Graphs.Shape.ring(6, 1);
        SwitchGraph g = ring.graph();
        RoutingEngine.Routed r = routed(new UpDownEngine(List.of(ring.sw[3].guid(), 0x1234L)), g);
        assertThat(r.detail()).startsWith("1 root from the root GUID list").contains("0x0000000000001234");
        assertThat(RoutingCheck.check(g, r.lfts()).ok()).isTrue();
    }

    @Test
    void unknownEngineNamesAreRefusedWithTheKnownOnes() {
        assertThatThrownBy(() -> RoutingEngines.chain("ftree,lash", NONE))
                .hasMessage("unknown routing engine \"lash\" (known: minhop, updn, ftree, dor, dfsssp)");
    }

    @Test
    void aSingleSwitchAndNoSwitchesRoute() {
        SwitchGraph one = new Graphs.Shape(1, 8, 4).graph();
        for (String e : RoutingEngines.names()) {
            RoutingEngine.Outcome o = RoutingEngines.create(e, NONE).route(one);
            assertThat(o).as(e).isInstanceOf(RoutingEngine.Routed.class);
            assertThat(RoutingCheck.check(one, ((RoutingEngine.Routed) o).lfts()).ok()).isTrue();
        }
    }
}
