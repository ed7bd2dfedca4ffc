package org.ibtwin.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.model.Fabric;
import org.ibtwin.sm.SmConfig;
import org.junit.jupiter.api.Test;

/**
 * {@code what-if --each-link / --each-switch}: each scenario's shift bandwidth, made again only for the pairs whose
 * routes the failure changes, equals the shift made in full on the scenario's routes (the same perf model, every
 * stream made anew), scenario by scenario, to the last bit; on a 2-level tree, a 3-level tree, a 2:1 tree and a 3:1
 * tree with one uplink a leaf, for cable and switch failures. And the streams made again are a part of them, not all.
 */
class FailureSweepShiftTest {
    private static final Rehearsal.Settings SM = new Rehearsal.Settings(SmConfig.defaults(), null, null, null);

    private static void same(String name, Supplier<Fabric> load, boolean switches) {
        same(name, load, switches, true);
    }

    /** {@code part}: some streams are kept (false: every failure changes every pair, as on a leaf's only uplink). */
    private static void same(String name, Supplier<Fabric> load, boolean switches, boolean part) {
        FailureSweep.Result inc = Rehearsal.eachFailure(load, name, SM, switches, 2, 0, false);
        FailureSweep.Result full = Rehearsal.eachFailure(load, name, SM, switches, 2, 0, true);
        Map<String, Double> whole = new HashMap<>();
        for (FailureSweep.Scenario s : full.scenarios()) {
            whole.put(s.failure(), s.shiftGbpsAfter());
        }
        assertThat(inc.scenarios()).hasSize(full.scenarios().size()).isNotEmpty();
        for (FailureSweep.Scenario s : inc.scenarios()) {
            assertThat(s.shiftGbpsAfter()).as(name + ": " + s.failure()).isEqualTo(whole.get(s.failure()));
            assertThat(s.shiftGbpsBefore()).isPositive();
        }
        assertThat(full.shiftPairsMadeAgain()).isEqualTo(full.shiftPairsTotal());
        assertThat(inc.shiftPairsMadeAgain()).as(name).isPositive();
        if (part) {
            assertThat(inc.shiftPairsMadeAgain()).as(name).isLessThan(inc.shiftPairsTotal());
        }
        // some failure costs bandwidth: the check compares figures that move
        assertThat(inc.scenarios()).as(name).anyMatch(s -> s.shiftGbpsAfter() < s.shiftGbpsBefore() - 1);
    }

    @Test
    void twoLevelTree() {
        Supplier<Fabric> t = () -> FatTree.build(FatTreeSpec.of(2, 8, 32));
        same("2-level", t, false);
        same("2-level", t, true);
    }

    @Test
    void threeLevelTree() {
        same("3-level", () -> FatTree.build(FatTreeSpec.of(3, 8, 64)), false);
    }

    @Test
    void blockingTreeWithOneUplinkALeaf() {
        Supplier<Fabric> t = () -> FatTree.build(FatTreeSpec.of(2, 4, 8).withBlocking(3).withHosts(9));
        same("3:1", t, false, false);
        same("3:1", t, true, false);
        same("2:1", () -> FatTree.build(FatTreeSpec.of(2, 6, 8).withBlocking(2).withHosts(24)), false);
    }
}
