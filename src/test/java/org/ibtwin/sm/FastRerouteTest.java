package org.ibtwin.sm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.ibtwin.fixture.TwinFabric;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Node;
import org.ibtwin.model.PhysState;
import org.ibtwin.model.Port;
import org.ibtwin.sm.routing.Lfts;
import org.junit.jupiter.api.Test;

/**
 * The fast re-route on the twin: cables pulled between switches, the trap 128s they raise, and the SM re-routing
 * only what crossed them before the heavy sweep. Reachability is checked through the twin's own LFTs and link
 * states, and against what the full heavy sweep after it programs.
 */
class FastRerouteTest {

    /** The CA pairs the twin's LFTs do not deliver over links that are up, "src -> dst". */
    private static Set<String> unreachable(TwinFabric f) {
        List<Port> cas = new ArrayList<>();
        for (Node n : f.fabric.cas()) {
            if (n.port(1).link() != null) {
                cas.add(n.port(1));
            }
        }
        Set<String> out = new TreeSet<>();
        for (Port src : cas) {
            for (Port dst : cas) {
                if (src == dst) {
                    continue;
                }
                int lid = f.twin.lid(dst.node().name(), dst.number());
                Port at = src.remote();
                boolean ok = false;
                for (int hops = 0; hops < 16 && at != null; hops++) {
                    if (at == dst) {
                        ok = true;
                        break;
                    }
                    Node n = at.node();
                    if (!n.isSwitch()) {
                        break;
                    }
                    int p = f.twin.lftEntry(n.name(), lid);
                    if (p == 0 || p > n.numPorts() || f.twin.physState(n.name(), p) != PhysState.LINK_UP) {
                        break;
                    }
                    at = n.port(p).remote();
                }
                if (!ok) {
                    out.add(src.node().name() + " -> " + dst.node().name());
                }
            }
        }
        return out;
    }

    /** LFT blocks that differ between two sets of tables. */
    private static long blocksChanged(Lfts a, Lfts b) {
        long c = 0;
        for (int s = 0; s < a.switches(); s++) {
            for (int from = 0; from < a.table(s).length; from += 64) {
                if (!java.util.Arrays.equals(a.table(s), from, from + 64, b.table(s), from, from + 64)) {
                    c++;
                }
            }
        }
        return c;
    }

    /** Runs cut (links going down) and waits until the SM has received at least one trap more than before it. */
    private static void cutAndAwaitTrap(SubnetManager sm, Runnable cut) throws InterruptedException {
        long more = sm.trapsReceived() + 1;
        cut.run();
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (sm.trapsReceived() < more && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(sm.trapsReceived()).isGreaterThanOrEqualTo(more);
    }

    /** An SM on f with config whose first sweep brought the subnet up. */
    private static SubnetManager upWith(TwinFabric f, SmConfig config) {
        SubnetManager sm = f.sm(config);
        assertThat(sm.sweep().subnetUp()).isTrue();
        return sm;
    }

    @Test
    void aPulledUplinkIsRoutedAroundInPartWritingOnlyTheChangedBlocks() throws Exception {
        for (String engine : List.of("minhop", "ftree", "updn")) {
            Fabric fabric = FatTree.build(FatTreeSpec.of(2, 16, 64));
            try (TwinFabric f = new TwinFabric(fabric)) {
                SubnetManager sm = upWith(f, SmConfig.defaults().withRouting(engine, List.of()));
                assertThat(unreachable(f)).isEmpty();
                Lfts before = sm.lfts();
                long sets = sm.setsSent(AttributeIds.LINEAR_FWD_TABLE);

                Node leaf = fabric.switches().get(1);
                cutAndAwaitTrap(sm, () -> f.twin.linkDown(leaf.name(), 9));   // an uplink: both ends trap
                SweepReport.FastReroute r = sm.fastReroute();

                assertThat(r).as(engine).isNotNull();
                assertThat(r.partial()).as(engine + ": " + r.why()).isTrue();
                assertThat(r.lostLinks()).hasSize(1);
                assertThat(r.lostLinks().get(0)).contains("/9");
                assertThat(unreachable(f)).as(engine).isEmpty();
                long written = sm.setsSent(AttributeIds.LINEAR_FWD_TABLE) - sets;
                assertThat(written).as(engine).isEqualTo(r.lftBlocksWritten()).isPositive()
                        .isEqualTo(blocksChanged(before, sm.lfts()));
                assertThat(written).isLessThan(sets);
                assertThat(r.lidsRerouted()).isPositive().isLessThan(fabric.cas().size());
                assertThat(r.trapToLastLft()).isPositive();

                SweepReport heavy = sm.sweep();
                assertThat(heavy.subnetUp()).isTrue();
                assertThat(heavy.fastReroute()).isSameAs(r);
                assertThat(unreachable(f)).isEmpty();
            }
        }
    }

    @Test
    void aLeafCutOffLosesWhatAFullRouteLosesAndNothingMore() throws Exception {
        Fabric fabric = FatTree.build(FatTreeSpec.of(2, 8, 16));
        try (TwinFabric f = new TwinFabric(fabric)) {
            SubnetManager sm = upWith(f, SmConfig.defaults().withRouting("ftree", List.of()));
            // the SM sits on the first leaf's first host; the last leaf loses every uplink
            Node leaf = null;
            for (Node n : fabric.switches()) {
                if (n.port(1).remote() != null && !n.port(1).remote().node().isSwitch()) {
                    leaf = n;
                }
            }
            List<Integer> ups = new ArrayList<>();
            for (int p = 1; p <= leaf.numPorts(); p++) {
                Port q = leaf.port(p);
                if (q.remote() != null && q.remote().node().isSwitch()) {
                    ups.add(p);
                }
            }
            Node cutOff = leaf;
            cutAndAwaitTrap(sm, () -> ups.forEach(p -> f.twin.linkDown(cutOff.name(), p)));
            Thread.sleep(50);
            SweepReport.FastReroute r = sm.fastReroute();
            assertThat(r).isNotNull();
            assertThat(r.lostLinks()).hasSize(ups.size());
            Set<String> fast = unreachable(f);
            assertThat(fast).isNotEmpty();
            long written = sm.setsSent(AttributeIds.LINEAR_FWD_TABLE);

            SweepReport heavy = sm.sweep();
            assertThat(unreachable(f)).isEqualTo(fast);
            assertThat(heavy.fastReroute()).isSameAs(r);
            assertThat(sm.setsSent(AttributeIds.LINEAR_FWD_TABLE)).isGreaterThanOrEqualTo(written);
        }
    }

    @Test
    void aLightSweepThatFindsAPortStateChangeReRoutesFastToo() {
        Fabric fabric = FatTree.build(FatTreeSpec.of(2, 16, 64));
        try (TwinFabric f = new TwinFabric(fabric)) {
            SubnetManager sm = upWith(f, SmConfig.defaults());
            sm.fastReroute();   // the traps of bringing up, if any: nothing to re-route
            f.twin.linkDown(fabric.switches().get(0).name(), 9);
            assertThat(sm.needsHeavySweep()).isTrue();
            SweepReport.FastReroute r = sm.fastReroute();
            assertThat(r).isNotNull();
            assertThat(r.lostLinks()).hasSize(1);
            assertThat(unreachable(f)).isEmpty();
            assertThat(sm.fastReroute()).isNull();
        }
    }

    @Test
    void dfssspReRoutesInFullAndSaysWhy() throws Exception {
        Fabric fabric = FatTree.build(FatTreeSpec.of(2, 8, 16));
        try (TwinFabric f = new TwinFabric(fabric)) {
            SubnetManager sm = upWith(f, SmConfig.defaults().withRouting("dfsssp", List.of()));
            cutAndAwaitTrap(sm, () -> f.twin.linkDown(fabric.switches().get(0).name(), 5));
            SweepReport.FastReroute r = sm.fastReroute();
            assertThat(r).isNotNull();
            assertThat(r.partial()).isFalse();
            assertThat(r.why()).contains("as a whole");
            assertThat(unreachable(f)).isEmpty();
        }
    }
}
