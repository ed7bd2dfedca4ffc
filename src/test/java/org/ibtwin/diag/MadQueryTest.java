package org.ibtwin.diag;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.MadHeaders;
import org.ibtwin.mad.MadStatus;
import org.ibtwin.mad.Methods;
import org.ibtwin.mad.MgmtClasses;
import org.ibtwin.mad.PerfAttributes;
import org.ibtwin.mad.PortId;
import org.ibtwin.mad.SmpAttributes;
import org.ibtwin.transport.MadAddress;
import org.junit.jupiter.api.Test;

/** The requests MadQuery builds, and how it reads the answers. */
class MadQueryTest {
    private final FakeFabric fabric = new FakeFabric();
    private final MadQuery q = new MadQuery(fabric);

    private byte[] lastSent() {
        return fabric.sent.get(fabric.sent.size() - 1);
    }

    @Test
    void lidRoutedSmp() {
        byte[] ni = q.smpGet(PortId.lid(2), AttributeIds.NODE_INFO, 0);
        assertThat(ni).hasSize(64);
        assertThat(SmpAttributes.NODE_INFO.get(ni, 0, "PortGuid")).isEqualTo(0x21);
        byte[] m = lastSent();
        assertThat(MadHeaders.mgmtClass(m)).isEqualTo(MgmtClasses.SUBN_LID);
        assertThat(m[0]).isEqualTo((byte) 1);
        assertThat(m[2]).isEqualTo((byte) 1);
        assertThat(MadHeaders.method(m)).isEqualTo(Methods.GET);
        assertThat(MadHeaders.attributeId(m)).isEqualTo(AttributeIds.NODE_INFO);
        assertThat(fabric.sentTo.get(0)).isEqualTo(MadAddress.smp(2));
    }

    @Test
    void directedRouteSmpCarriesItsPath() {
        q.mkey(0x1122334455667788L);
        byte[] pi = q.smpGet(PortId.directed(0, 1), AttributeIds.PORT_INFO, 1);
        assertThat(SmpAttributes.PORT_INFO.get(pi, 0, "Lid")).isEqualTo(FakeFabric.CA_LID);
        byte[] m = lastSent();
        assertThat(MadHeaders.mgmtClass(m)).isEqualTo(MgmtClasses.SUBN_DIRECTED);
        assertThat(MadHeaders.SMP_DR.get(m, 0, "DrSmpHopCnt")).isEqualTo(1);
        assertThat(MadHeaders.SMP_DR.get(m, 0, "DrSmpHopPtr")).isZero();
        assertThat(MadHeaders.SMP_DR.get(m, 0, "DrSmpDirection")).isZero();
        assertThat(MadHeaders.SMP_DR.get(m, 0, "DrSmpSLID")).isEqualTo(0xffff);
        assertThat(MadHeaders.SMP_DR.get(m, 0, "DrSmpDLID")).isEqualTo(0xffff);
        assertThat(MadHeaders.SMP_DR.get(m, 0, "MadMkey")).isEqualTo(0x1122334455667788L);
        assertThat(m[128]).isZero();
        assertThat(m[129]).isEqualTo((byte) 1);
        assertThat(MadHeaders.attributeModifier(m)).isEqualTo(1);
        assertThat(fabric.sentTo.get(0)).isEqualTo(MadAddress.directed());
    }

    @Test
    void combinedRouteGoesLidRoutedToWhereThePathStarts() {
        PortId c = new PortId(2, 1, PortId.PERMISSIVE_LID, new int[] {0, 1});
        assertThatThrownBy(() -> q.smpGet(c, AttributeIds.NODE_INFO, 0)).isInstanceOf(QueryException.class);
        byte[] m = lastSent();
        assertThat(MadHeaders.mgmtClass(m)).isEqualTo(MgmtClasses.SUBN_DIRECTED);
        assertThat(MadHeaders.SMP_DR.get(m, 0, "DrSmpSLID")).isEqualTo(1);
        assertThat(fabric.sentTo.get(0)).isEqualTo(MadAddress.smp(2));
    }

    @Test
    void aStatusIsAQueryException() {
        assertThatThrownBy(() -> q.smpGet(PortId.lid(2), AttributeIds.SWITCH_INFO, 0))
                .isInstanceOfSatisfying(QueryException.class, e -> {
                    assertThat(e.kind()).isEqualTo(QueryException.Kind.STATUS);
                    assertThat(e.status()).isEqualTo(MadStatus.METHOD_ATTR_NOT_SUPPORTED);
                    assertThat(e.alwaysWarned()).isFalse();
                    assertThat(e.warning()).isEqualTo("mad_rpc: MAD completed with error status 0xc; dport (Lid 2)");
                });
    }

    @Test
    void aDirectedRouteAnswerIsNotAnErrorForItsDirectionBit() {
        byte[] ni = q.smpGet(PortId.directed(0), AttributeIds.NODE_INFO, 0);
        assertThat(SmpAttributes.NODE_INFO.get(ni, 0, "NodeType")).isEqualTo(2);
    }

    @Test
    void noAnswerIsATimeoutWithLibibmadsWarning() {
        q.timeout(Duration.ofMillis(50)).attempts(2);
        assertThatThrownBy(() -> q.smpGet(PortId.lid(99), AttributeIds.NODE_INFO, 0))
                .isInstanceOfSatisfying(QueryException.class, e -> {
                    assertThat(e.kind()).isEqualTo(QueryException.Kind.TIMEOUT);
                    assertThat(e.warning()).isEqualTo("mad_rpc: _do_madrpc failed; dport (Lid 99)");
                });
        assertThatThrownBy(() -> q.smpGet(PortId.directed(0, 3), AttributeIds.NODE_INFO, 0))
                .isInstanceOfSatisfying(QueryException.class, e -> assertThat(e.warning())
                        .isEqualTo("mad_rpc: _do_madrpc failed; dport (DR path slid 65535; dlid 65535; 0,3)"));
    }

    @Test
    void tooLongAPathIsRefusedBeforeSending() {
        int[] path = new int[66];
        assertThatThrownBy(() -> q.smpGet(PortId.directed(path), AttributeIds.NODE_INFO, 0))
                .isInstanceOfSatisfying(QueryException.class, e -> assertThat(e.warning())
                        .isEqualTo("mad_encode: dr path with hop count 65"));
        assertThat(fabric.sent).isEmpty();
    }

    @Test
    void pmaQueriesCarryPortSelect() {
        byte[] pc = q.pmaGet(1, AttributeIds.PORT_COUNTERS, 1);
        assertThat(pc).hasSize(192);
        assertThat(PerfAttributes.PORT_COUNTERS.get(pc, 0, "SymbolErrorCounter")).isEqualTo(3);
        byte[] m = lastSent();
        assertThat(MadHeaders.mgmtClass(m)).isEqualTo(MgmtClasses.PERF);
        assertThat(m[65]).isEqualTo((byte) 1);
        assertThat(fabric.sentTo.get(0)).isEqualTo(MadAddress.gsi(1));
        q.pmaClassPortInfo(2, 1);
        assertThat(MadHeaders.attributeId(lastSent())).isEqualTo(AttributeIds.CLASS_PORT_INFO);
        assertThat(lastSent()[65]).isEqualTo((byte) 1);
    }

    @Test
    void guidsResolveThroughThePathRecord() {
        assertThat(Resolver.guid(q, FakeFabric.CA_PORT_GUID, 0)).isEqualTo(PortId.lid(2));
        byte[] m = lastSent();
        assertThat(MadHeaders.mgmtClass(m)).isEqualTo(MgmtClasses.SUBN_ADM);
        assertThat(m[2]).isEqualTo((byte) 2);
        assertThat(MadHeaders.SA.get(m, 0, "SaCompMask")).isEqualTo(0xc);
        assertThatThrownBy(() -> Resolver.guid(q, 0x99, 0)).isInstanceOf(QueryException.class);
    }
}
