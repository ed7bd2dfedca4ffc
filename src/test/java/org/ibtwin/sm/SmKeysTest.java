package org.ibtwin.sm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.ibtwin.fixture.TwinFabric;
import org.ibtwin.diag.MadQuery;
import org.ibtwin.diag.QueryException;
import org.ibtwin.fixture.TwinFabric;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.PortId;
import org.ibtwin.mad.SmpAttributes;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Node;
import org.ibtwin.transport.MadTransport;
import org.junit.jupiter.api.Test;

/** The SM's M_Key on the twin, whose SMAs enforce it as hardware does. */
class SmKeysTest {
    private static final Layout PI = SmpAttributes.PORT_INFO;
    private static final long KEY = 0xb8599f0300a1b2c3L;

    private static MadQuery query(MadTransport t, long key) {
        return new MadQuery(t).mkey(key).timeout(Duration.ofMillis(50)).attempts(1);
    }

    /** Our SM on {@code f} with the M_Key at protection level 1 (no lease), after one sweep: its LID. */
    private static int sweptWithTheKey(TwinFabric f) {
        SubnetManager sm = f.sm(SmConfig.defaults());
        sm.mkeys(new MKeys(KEY, 1, 0));
        return sm.sweep().smLid();
    }

    @Test
    void theSmSetsItsKeyOnEveryManagedPortAndStillSweepsWithIt() {
        Fabric fabric = FatTree.build(FatTreeSpec.of(2, 4, 8));
        try (TwinFabric f = new TwinFabric(fabric)) {
            SubnetManager sm = f.sm(SmConfig.defaults());
            sm.mkeys(new MKeys(KEY, 2, 0));
            SweepReport r = sm.sweep();
            assertThat(r.subnetUp()).isTrue();
            assertThat(f.notActive()).isEmpty();
            try (MadTransport other = f.attach(fabric.cas().get(3).name())) {
                MadQuery keyed = query(other, KEY);
                for (Node n : fabric.nodes()) {
                    int port = n.isSwitch() ? 0 : 1;
                    byte[] pi = keyed.smpGet(PortId.lid(f.twin.lid(n.name(), port)), AttributeIds.PORT_INFO, port);
                    assertThat(PI.get(pi, 0, "Mkey")).as(n.name()).isEqualTo(KEY);
                    assertThat(PI.get(pi, 0, "ProtectBits")).as(n.name()).isEqualTo(2);
                    assertThat(PI.get(pi, 0, "MkeyLeasePeriod")).as(n.name()).isZero();
                }
                // level 2: without the key even a Get fails
                int leaf = f.twin.lid(fabric.switches().get(0).name(), 0);
                assertThatThrownBy(() -> query(other, 0).smpGet(PortId.lid(leaf), AttributeIds.NODE_INFO, 0))
                        .isInstanceOf(QueryException.class);
            }
            // the SM with the key sweeps again, writing every block again
            sm.forgetLfts();
            SweepReport again = sm.sweep();
            assertThat(again.subnetUp()).isTrue();
            assertThat(again.failedSmps()).isZero();
            assertThat(again.lftBlocksWritten()).isPositive();
        }
    }

    @Test
    void theSaShowsPortInfoRecordsMkeyToATrustedRequesterOnly() {
        Fabric fabric = FatTree.build(FatTreeSpec.of(2, 4, 8));
        try (TwinFabric f = new TwinFabric(fabric)) {
            int smLid = sweptWithTheKey(f);
            Layout pir = org.ibtwin.mad.SaAttributes.PORT_INFO_RECORD;
            byte[] t = new byte[pir.size()];
            int lid = f.twin.lid(fabric.cas().get(4).name(), 1);
            pir.set(t, 0, "EndportLid", lid);
            try (MadTransport other = f.attach(fabric.cas().get(3).name())) {
                MadQuery q = new MadQuery(other);
                for (long saKey : new long[] {0, 1}) {
                    var r = q.saQuery(smLid, org.ibtwin.mad.Methods.GET_TABLE, AttributeIds.PORT_INFO_RECORD, 0, 1,
                            saKey, t);
                    assertThat(r.status()).isZero();
                    var recs = r.records(pir.size());
                    assertThat(recs).hasSize(1);
                    assertThat(pir.get(recs.get(0), 0, "Mkey")).as("SM_Key " + saKey).isEqualTo(saKey == 1 ? KEY : 0);
                }
            }
        }
    }

    @Test
    void anSmWithoutTheKeyCannotTakeTheFabricOver() {
        Fabric fabric = FatTree.build(FatTreeSpec.of(2, 4, 8));
        try (TwinFabric f = new TwinFabric(fabric)) {
            int smLid = sweptWithTheKey(f);
            String host = fabric.cas().get(5).name();
            try (MadTransport t = f.attach(host)) {
                SubnetManager intruder = new SubnetManager(t, SmConfig.defaults().withTimeout(Duration.ofMillis(20),
                        0), SmLog.quiet());
                SweepReport r = intruder.sweep();
                assertThat(r.subnetUp()).isFalse();
                assertThat(r.failedSmps()).isPositive();
                // level 1: the intruder read PortInfo, with the key hidden, and its Sets changed nothing
                try (MadTransport probe = f.attach(fabric.cas().get(2).name())) {
                    for (Node n : fabric.nodes()) {
                        int port = n.isSwitch() ? 0 : 1;
                        byte[] pi = query(probe, KEY).smpGet(PortId.lid(f.twin.lid(n.name(), port)),
                                AttributeIds.PORT_INFO, port);
                        assertThat(PI.get(pi, 0, "SMLid")).as(n.name()).isEqualTo(smLid);
                        byte[] hidden = query(probe, 0).smpGet(PortId.lid(f.twin.lid(n.name(), port)),
                                AttributeIds.PORT_INFO, port);
                        assertThat(PI.get(hidden, 0, "Mkey")).as(n.name()).isZero();
                        assertThat(PI.get(hidden, 0, "MkeyViolations")).as(n.name()).isPositive();
                    }
                }
            }
        }
    }

    @Test
    void whenTheLeaseRunsOutWithoutTheKeyTheProtectionDrops() {
        Fabric fabric = FatTree.build(FatTreeSpec.of(2, 4, 8));
        try (TwinFabric f = new TwinFabric(fabric)) {
            AtomicLong now = new AtomicLong(1_000_000_000L);
            f.twin.setClock(now::get);
            SubnetManager sm = f.sm(SmConfig.defaults());
            sm.mkeys(new MKeys(KEY, 3, 60));
            assertThat(sm.sweep().subnetUp()).isTrue();
            // the SM goes away: while it ran, its TrapRepress of each trap 256 (carrying the key) stopped the lease
            sm.detach();
            int leaf = f.twin.lid(fabric.switches().get(0).name(), 0);
            try (MadTransport other = f.attach(fabric.cas().get(3).name())) {
                assertThatThrownBy(() -> query(other, 0).smpGet(PortId.lid(leaf), AttributeIds.PORT_INFO, 0))
                        .as("refused: the lease starts").isInstanceOf(QueryException.class);
                now.addAndGet(59_000_000_000L);
                assertThatThrownBy(() -> query(other, 0).smpGet(PortId.lid(leaf), AttributeIds.PORT_INFO, 0))
                        .as("59 s").isInstanceOf(QueryException.class);
                now.addAndGet(1_000_000_000L);
                byte[] pi = query(other, 0).smpGet(PortId.lid(leaf), AttributeIds.PORT_INFO, 0);
                assertThat(PI.get(pi, 0, "ProtectBits")).as("60 s with no key: level 0").isZero();
                assertThat(PI.get(pi, 0, "Mkey")).as("a Get shows the key at level 0").isEqualTo(KEY);
            }
            // an SM with the key comes back: its sweep puts the protection back
            SubnetManager back = f.sm(SmConfig.defaults());
            back.mkeys(new MKeys(KEY, 3, 60));
            assertThat(back.sweep().subnetUp()).isTrue();
            try (MadTransport other = f.attach(fabric.cas().get(3).name())) {
                assertThatThrownBy(() -> query(other, 0).smpGet(PortId.lid(leaf), AttributeIds.PORT_INFO, 0))
                        .isInstanceOf(QueryException.class);
            }
        }
    }
}
