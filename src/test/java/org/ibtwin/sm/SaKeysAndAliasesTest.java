package org.ibtwin.sm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.ibtwin.diag.MadQuery;
import org.ibtwin.diag.QueryException;
import org.ibtwin.fixture.TwinFabric;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.MadStatus;
import org.ibtwin.mad.Methods;
import org.ibtwin.mad.SaAttributes;
import org.ibtwin.mad.SaComponents;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Node;
import org.ibtwin.transport.MadTransport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * SA keys, InformInfoRecords and alias GUIDs in process, with the answers real OpenSM gives on the same requests
 * (SaSubscriptionInteropTest holds the two side by side on real ibsim).
 */
class SaKeysAndAliasesTest {
    private static final Layout GIR = SaAttributes.GUID_INFO_RECORD;
    private static final Layout IIR = SaAttributes.INFORM_INFO_RECORD;
    private static final Layout II = SaAttributes.INFORM_INFO;
    private static final int G = AttributeIds.GUID_INFO_RECORD;

    private final Fabric fabric = FatTree.build(FatTreeSpec.of(2, 4, 4));
    private TwinFabric f;
    private SubnetManager sm;
    private int smLid;

    @BeforeEach
    void up() {
        f = new TwinFabric(fabric);
        sm = f.sm(SmConfig.defaults());
        smLid = sm.sweep().smLid();
    }

    @AfterEach
    void down() {
        f.close();
    }

    private static long bits(String... fields) {
        long m = 0;
        for (String f : fields) {
            m |= SaComponents.bit(G, f);
        }
        return m;
    }

    @Test
    void aQueryWithAnotherNonZeroSmKeyIsDroppedAndZeroOrTheSaKeyAreAnswered() {
        try (MadTransport t = f.tool(fabric.cas().get(2).name(), 1)) {
            MadQuery q = new MadQuery(t).timeout(Duration.ofMillis(100)).attempts(2);
            int attr = AttributeIds.SM_INFO_RECORD;
            assertThat(q.saQuery(smLid, Methods.GET_TABLE, attr, 0, 0, 0, new byte[0]).status()).isZero();
            assertThat(q.saQuery(smLid, Methods.GET_TABLE, attr, 0, 0, 1, new byte[0]).status()).isZero();
            assertThatThrownBy(() -> q.saQuery(smLid, Methods.GET_TABLE, attr, 0, 0, 2, new byte[0]))
                    .isInstanceOf(QueryException.class).hasMessageContaining("no response");
            assertThat(sm.sa().refusedKeys()).isEqualTo(2);    // two attempts, neither answered
        }
    }

    @Test
    void aliasGuidsAreAssignedGivenOrPickedNeverTwiceAndRemoved() {
        Node a = fabric.cas().get(1);
        Node b = fabric.cas().get(2);
        try (MadTransport t = f.tool(a.name(), 1)) {
            MadQuery q = new MadQuery(t);
            int lidA = t.localPort().lid();
            byte[] r = new byte[GIR.size()];
            GIR.set(r, 0, "Lid", lidA);
            GIR.set(r, 0, "Guid1", 0x0002c90300001234L);
            long mask = bits("Lid", "BlockNum", "Guid1", "Guid2");
            MadQuery.SaResult set = q.saQuery(smLid, Methods.SET, G, 0, mask, 0, r);
            assertThat(set.status()).isZero();
            assertThat(GIR.get(set.data(), 0, "Guid0")).isEqualTo(a.port(1).guid());
            assertThat(GIR.get(set.data(), 0, "Guid1")).isEqualTo(0x0002c90300001234L);
            assertThat(GIR.get(set.data(), 0, "Guid2")).isEqualTo(0x0014050000000001L);   // picked by the SA

            // b asks for a's alias and a picked one: it keeps none of a's, and gets the next picked
            byte[] other = new byte[GIR.size()];
            GIR.set(other, 0, "Lid", f.twin.lid(b.name(), 1));
            GIR.set(other, 0, "Guid1", 0x0002c90300001234L);
            MadQuery.SaResult dup = q.saQuery(smLid, Methods.SET, G, 0, mask, 0, other);
            assertThat(dup.status()).isZero();
            assertThat(GIR.get(dup.data(), 0, "Guid1")).isZero();
            assertThat(GIR.get(dup.data(), 0, "Guid2")).isEqualTo(0x0014050000000002L);

            // the port GUID itself is not the SA's to change
            byte[] port0 = r.clone();
            GIR.set(port0, 0, "Guid0", 0x0002c90300005678L);
            MadQuery.SaResult refused = q.saQuery(smLid, Methods.SET, G, 0, mask | bits("Guid0"), 0, port0);
            assertThat(refused.status()).isEqualTo(MadStatus.SA_REQ_INVALID);

            MadQuery.SaResult del = q.saQuery(smLid, Methods.DELETE, G, 0, bits("Lid", "BlockNum", "Guid1"), 0,
                    r);
            assertThat(del.status()).isZero();
            assertThat(GIR.get(del.data(), 0, "Guid1")).isZero();
            assertThat(GIR.get(del.data(), 0, "Guid2")).isEqualTo(0x0014050000000001L);

            // GetTable of a's blocks: GuidCap's worth, the alias still there
            byte[] t0 = new byte[GIR.size()];
            GIR.set(t0, 0, "Lid", lidA);
            List<byte[]> blocks = q.saQuery(smLid, Methods.GET_TABLE, G, 0, bits("Lid"), 0, t0)
                    .records(GIR.size());
            assertThat(blocks).isNotEmpty();
            assertThat(GIR.get(blocks.get(0), 0, "Guid2")).isEqualTo(0x0014050000000001L);
        }
    }

    @Test
    void theSmWritesEachChangedBlockIntoThePortOnceAndASweepWritesNothingMore() {
        Node a = fabric.cas().get(1);
        try (MadTransport t = f.tool(a.name(), 1)) {
            MadQuery q = new MadQuery(t);
            int lidA = t.localPort().lid();
            byte[] r = new byte[GIR.size()];
            GIR.set(r, 0, "Lid", lidA);
            GIR.set(r, 0, "BlockNum", 1);
            GIR.set(r, 0, "Guid1", 0x0002c90300001234L);
            assertThat(q.saQuery(smLid, Methods.SET, G, 0, bits("Lid", "BlockNum", "Guid1", "Guid2"), 0, r)
                    .status()).isZero();
            assertThat(q.saQuery(smLid, Methods.SET, G, 0, bits("Lid", "BlockNum", "Guid1"), 0, r).status())
                    .as("the same again: nothing changes").isZero();
            assertThat(sm.aliasRequested()).isTrue();
            long sets = sm.setsSent(AttributeIds.GUID_INFO);
            assertThat(sm.programAliasGuids()).isEqualTo(1);
            assertThat(sm.setsSent(AttributeIds.GUID_INFO) - sets).as("one block changed").isEqualTo(1);
            byte[] block1 = q.smpGet(org.ibtwin.mad.PortId.lid(lidA), AttributeIds.GUID_INFO, 1);
            Layout gi = org.ibtwin.mad.SmpAttributes.GUID_INFO;
            assertThat(gi.get(block1, 0, "GUID1")).isEqualTo(0x0002c90300001234L);
            assertThat(gi.get(block1, 0, "GUID2")).isEqualTo(0x0014050000000001L);
            assertThat(gi.get(q.smpGet(org.ibtwin.mad.PortId.lid(lidA), AttributeIds.GUID_INFO, 0), 0, "GUID0"))
                    .isEqualTo(a.port(1).guid());

            assertThat(q.saQuery(smLid, Methods.DELETE, G, 0, bits("Lid", "BlockNum", "Guid1"), 0, r).status())
                    .isZero();
            assertThat(sm.programAliasGuids()).isEqualTo(1);
            block1 = q.smpGet(org.ibtwin.mad.PortId.lid(lidA), AttributeIds.GUID_INFO, 1);
            assertThat(gi.get(block1, 0, "GUID1")).as("deleted").isZero();
            assertThat(gi.get(block1, 0, "GUID2")).isEqualTo(0x0014050000000001L);

            sets = sm.setsSent(AttributeIds.GUID_INFO);
            assertThat(sm.sweep().subnetUp()).isTrue();
            assertThat(sm.setsSent(AttributeIds.GUID_INFO)).as("a sweep writes only what waits").isEqualTo(sets);
        }
    }

    private static byte[] inform(int trap, boolean subscribe) {
        byte[] r = new byte[II.size()];
        II.set(r, 0, "InformLIDRangeBegin", 0xffff);
        II.set(r, 0, "InformIsGeneric", 1);
        II.set(r, 0, "InformSubscribe", subscribe ? 1 : 0);
        II.set(r, 0, "InformType", 0xffff);
        II.set(r, 0, "InformTrapNumber", trap);
        II.set(r, 0, "InformQPN", 1);
        II.set(r, 0, "InformProducerType", 0xffffff);
        return r;
    }

    @Test
    void informInfoRecordsListTheSubscriptionsNewestFirstAndEndOnlyWhatWasAsked() {
        Node a = fabric.cas().get(1);
        try (MadTransport t = f.tool(a.name(), 1)) {
            MadQuery q = new MadQuery(t);
            int ii = AttributeIds.INFORM_INFO;
            assertThat(q.saQuery(smLid, Methods.SET, ii, 0, 0, 0, inform(0xffff, true)).status()).isZero();
            assertThat(q.saQuery(smLid, Methods.SET, ii, 0, 0, 0, inform(128, true)).status()).isZero();
            assertThat(q.saQuery(smLid, Methods.SET, ii, 0, 0, 0, inform(128, true)).status())
                    .as("the same again is the same subscription").isZero();
            assertThat(q.saQuery(smLid, Methods.SET, ii, 0, 0, 0, inform(130, false)).status())
                    .isEqualTo(MadStatus.SA_REQ_INVALID);
            MadQuery.SaResult all = q.saQuery(smLid, Methods.GET_TABLE, AttributeIds.INFORM_INFO_RECORD, 0, 0,
                    0, new byte[0]);
            assertThat(all.stride()).isEqualTo(64);
            List<byte[]> recs = all.records(IIR.size());
            assertThat(recs).hasSize(2);
            assertThat(IIR.get(recs.get(0), 0, "InformTrapNumber")).isEqualTo(128);
            assertThat(IIR.get(recs.get(1), 0, "InformTrapNumber")).isEqualTo(0xffff);
            for (byte[] r : recs) {
                assertThat(IIR.getBytes(r, 0, "SubscriberGID")[15]).isEqualTo((byte) a.port(1).guid());
                assertThat(IIR.get(r, 0, "SubscriberEnum")).isZero();
                assertThat(IIR.get(r, 0, "InformQPN")).isZero();
            }
            assertThat(q.saQuery(smLid, Methods.SET, ii, 0, 0, 0, inform(128, false)).status()).isZero();
            assertThat(sm.sa().subscriptions()).hasSize(1);
        }
    }
}
