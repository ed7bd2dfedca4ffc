package org.ibtwin.sm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.ibtwin.diag.MadQuery;
import org.ibtwin.fixture.TwinFabric;
import org.ibtwin.gen.Direct;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.Methods;
import org.ibtwin.mad.PortId;
import org.ibtwin.mad.SaAttributes;
import org.ibtwin.mad.SmpAttributes;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.Node;
import org.ibtwin.sim.TwinTransport;
import org.ibtwin.transport.MadTransport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * ibtwin's SM with a deadlock-free engine on a torus: the routes spread over several VLs pass the SM's own routing
 * check, every port's SLtoVLMappingTable maps SL n to VL n for the lanes used (read back by SMP), the links run at
 * least that many operational VLs, and the SA's PathRecords carry each route's SL (a query for another SL finds
 * no path).
 */
class DeadlockFreeSmTest {
    private static final Layout PR = SaAttributes.PATH_RECORD;

    @ParameterizedTest
    @ValueSource(strings = {"dor", "dfsssp"})
    void lanesReachSl2VlOperVlsAndPathRecords(String engine) {
        Fabric fabric = Direct.torus(new int[] {5, 4}, true, 1, 0, LinkSpeed.HDR);
        try (TwinFabric f = new TwinFabric(fabric)) {
            SweepReport r = f.sm(SmConfig.defaults().withRouting(engine, List.of()).withCheckRoutes(true)).sweep();
            assertThat(r.subnetUp()).isTrue();
            assertThat(r.problems()).isEmpty();
            try (MadTransport other = new TwinTransport(f.twin.attach(fabric.cas().get(3).name(), 1))) {
                MadQuery q = new MadQuery(other);
                Set<Integer> sls = new HashSet<>();
                Node src = fabric.cas().get(3);
                for (Node dst : fabric.cas()) {
                    byte[] t = new byte[PR.size()];
                    PR.set(t, 0, "PathRecSLid", f.twin.lid(src.name(), 1));
                    PR.set(t, 0, "PathRecDLid", f.twin.lid(dst.name(), 1));
                    List<byte[]> p = q.saQuery(r.smLid(), Methods.GET_TABLE, AttributeIds.PATH_RECORD, 0,
                            (1 << 4) | (1 << 5), 0, t).records(PR.size());
                    assertThat(p).hasSize(1);
                    int sl = (int) PR.get(p.get(0), 0, "PathRecSL");
                    sls.add(sl);
                    // asking for another SL: no such path
                    PR.set(t, 0, "PathRecSL", (sl + 1) % 16);
                    assertThat(q.saQuery(r.smLid(), Methods.GET_TABLE, AttributeIds.PATH_RECORD, 0,
                            (1 << 4) | (1 << 5) | (1 << 15), 0, t).records(PR.size())).isEmpty();
                }
                int lanes = sls.stream().mapToInt(Integer::intValue).max().orElse(0) + 1;
                assertThat(lanes).as(engine + " on a 5x4 torus uses more than one VL").isGreaterThan(1);
                byte[] expected = Sl2VlWriter.table(lanes);
                // a CA's table, and a switch's for input port 1 to output port 3
                byte[] ca = q.smpGet(PortId.lid(f.twin.lid(src.name(), 1)), AttributeIds.SL_TO_VL_TABLE, 0);
                assertThat(java.util.Arrays.copyOf(ca, 8)).isEqualTo(java.util.Arrays.copyOf(expected, 8));
                Node sw = fabric.switches().get(7);
                byte[] st = q.smpGet(PortId.lid(f.twin.lid(sw.name(), 0)), AttributeIds.SL_TO_VL_TABLE, (1 << 8) | 3);
                assertThat(java.util.Arrays.copyOf(st, 8)).isEqualTo(java.util.Arrays.copyOf(expected, 8));
                byte[] pi = q.smpGet(PortId.lid(f.twin.lid(sw.name(), 0)), AttributeIds.PORT_INFO, 1);
                assertThat(SmpAttributes.PORT_INFO.get(pi, 0, "OperVLs"))
                        .isGreaterThanOrEqualTo(PortActivator.operationalVls(lanes));
            }
        }
    }

    /**
     * QoS with a deadlock-free engine, as OpenSM's torus-2QoS combines them: the engine's lanes keep SL n on VL n,
     * the other SLs go where qos_sl2vl says; VL arbitration is QoS's.
     */
    @org.junit.jupiter.api.Test
    void qosKeepsTheEnginesLanes() {
        Fabric fabric = Direct.torus(new int[] {5, 4}, true, 1, 0, LinkSpeed.HDR);
        try (TwinFabric f = new TwinFabric(fabric)) {
            SubnetManager sm = f.sm(SmConfig.defaults().withRouting("dor", List.of()));
            sm.qos(QosConfig.of(java.util.Map.of("qos_sl2vl", "6,6,6,6,6,6,6,6,6,6,6,6,6,6,6,6",
                    "qos_ca_vlarb_high", "5:9")));
            SweepReport r = sm.sweep();
            assertThat(r.subnetUp()).isTrue();
            try (MadTransport other = new TwinTransport(f.twin.attach(fabric.cas().get(3).name(), 1))) {
                MadQuery q = new MadQuery(other);
                Node src = fabric.cas().get(3);
                byte[] ca = q.smpGet(PortId.lid(f.twin.lid(src.name(), 1)), AttributeIds.SL_TO_VL_TABLE, 0);
                // dor on this 2-D torus: 3 lanes
                assertThat(java.util.Arrays.copyOf(ca, 8)).containsExactly(0x01, 0x26, 0x66, 0x66, 0x66, 0x66, 0x66,
                        0x66);
                byte[] high = q.smpGet(PortId.lid(f.twin.lid(src.name(), 1)), AttributeIds.VL_ARB_TABLE, 3 << 16);
                assertThat(java.util.Arrays.copyOf(high, 4)).containsExactly(5, 9, 0, 0);
                Node sw = fabric.switches().get(7);
                byte[] st = q.smpGet(PortId.lid(f.twin.lid(sw.name(), 0)), AttributeIds.SL_TO_VL_TABLE, (1 << 8) | 3);
                assertThat(java.util.Arrays.copyOf(st, 8)).containsExactly(0x01, 0x26, 0x66, 0x66, 0x66, 0x66, 0x66,
                        0x66);
            }
        }
    }
}
