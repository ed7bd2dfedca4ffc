package org.ibtwin.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.ibtwin.format.FabricFiles;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.model.IpoibMode;
import org.ibtwin.model.Link;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.Mtu;
import org.ibtwin.model.Node;
import org.ibtwin.model.PcieGen;
import org.ibtwin.model.Port;
import org.junit.jupiter.api.Test;

/** The same run before and after a fault: the numbers move the way hardware moves them. */
class FaultTest {
    private static final Spec WRITE_64K = Spec.of(Op.WRITE, 65536);

    /** A healthy 2-level HDR fat tree like the default fabric: 60 hosts, radix 40. */
    private static Bench tree(String server, String client) {
        return new Bench(FatTree.build(FatTreeSpec.of(2, 40, 60)), server, client);
    }

    @Test
    void aCableTrainedAtDdrMakesThePairLinkBound() {
        Bench b = tree("node001", "node021");
        Perftest.Bandwidth before = b.bw(WRITE_64K);
        assertThat(before.gbps()).isCloseTo(196.7, within(1.0));
        Link first = b.toServer().hops().get(1).link();
        first.setCable(first.cable().withMaxSpeed(LinkSpeed.DDR));
        Bench after = new Bench(b.fabric, "node001", "node021");
        Perftest.Bandwidth r = after.bw(WRITE_64K);
        assertThat(r.gbps()).isCloseTo(16 * 0.99 * 0.9935, within(0.1));
        assertThat(r.why().kind()).isEqualTo(Bottleneck.Kind.LINK);
        assertThat(r.why().text()).contains(Names.link(first)).contains("at 4xDDR");
    }

    @Test
    void theDefaultFabricsDdrIslLimitsThePairsRoutedOverIt() {
        Bench any = new Bench(FabricFiles.loadDefault(), "node001", "node021");
        int found = 0;
        for (Node client : any.fabric.cas()) {
            any.client = client;
            for (Node server : any.fabric.cas()) {
                any.server = server;
                Route p = any.toServer();
                if (client == server || p.hops().stream().noneMatch(h -> h.link().isDegraded())) {
                    continue;
                }
                found++;
                Perftest.Bandwidth r = any.bw(WRITE_64K);
                assertThat(r.gbps()).isLessThan(16);
                assertThat(r.why().text()).contains("limited by link leaf02/33 <-> spine01/17 at 4xDDR");
            }
        }
        assertThat(found).isPositive();
    }

    @Test
    void anHcaMovedToAnX8SlotIsPcieBoundNear50() {
        Bench b = Bench.backToBack(LinkSpeed.HDR, PcieGen.GEN4, 16);
        assertThat(b.bw(WRITE_64K).why().kind()).isEqualTo(Bottleneck.Kind.LINK);
        b.server.setHostFacts(Bench.facts(b.server).withPcie(PcieGen.GEN3, 8));
        Perftest.Bandwidth r = b.bw(WRITE_64K);
        assertThat(r.gbps()).isBetween(48.0, 52.0);
        assertThat(r.why().text()).isEqualTo("limited by PCIe Gen3 x8 at node001 (55.5 Gb/s usable; ≈ 50.7 Gb/s of "
                + "payload after TLP headers)");
        // the default fabric's node017 (T07), whichever side it is on
        Bench d = new Bench(FabricFiles.loadDefault(), "node017", "node001");
        assertThat(d.bw(WRITE_64K).gbps()).isBetween(48.0, 52.0);
        assertThat(new Bench(d.fabric, "node001", "node017").bw(WRITE_64K).why().text())
                .startsWith("limited by PCIe Gen3 x8 at node017");
    }

    @Test
    void mtu2048CostsALittle() {
        Bench b = Bench.backToBack(LinkSpeed.HDR, PcieGen.GEN4, 16);
        Port p = b.client.port(1);
        assertThat(Perftest.activeMtu(p)).isEqualTo(Mtu.MTU4096);
        double before = b.bw(WRITE_64K).gbps();
        p.setMtuCap(Mtu.MTU2048);
        assertThat(Perftest.activeMtu(p)).isEqualTo(Mtu.MTU2048);
        assertThat(Perftest.activeMtu(b.server.port(1))).isEqualTo(Mtu.MTU2048);
        Perftest.Bandwidth after = b.bw(WRITE_64K.withMtu(Perftest.activeMtu(p).bytes()));
        double drop = 1 - after.gbps() / before;
        assertThat(drop).isBetween(0.003, 0.02);
        assertThat(after.why().kind()).isEqualTo(Bottleneck.Kind.MTU);
        assertThat(after.why().text()).startsWith("limited by MTU 2048 on link node001/1 <-> node002/1 at 4xHDR");
    }

    @Test
    void aSwitchPortCappedAt2048DropsLargerPackets() {
        Bench b = tree("node001", "node021");
        Route p = b.toServer();
        Port mid = p.hops().get(1).from();
        mid.setMtuCap(Mtu.MTU2048);
        assertThat(b.toServer().mtu()).isEqualTo(Mtu.MTU2048);
        assertThat(Perftest.dropsAt(WRITE_64K, b.toServer())).isSameAs(mid);
        assertThat(Perftest.dropsAt(WRITE_64K.withSize(2048), b.toServer())).isNull();
        assertThat(Perftest.dropsAt(WRITE_64K.withMtu(2048), b.toServer())).isNull();
    }

    @Test
    void theFarNumaNodeLowersBandwidthAndRaisesLatency() {
        Bench b = Bench.backToBack(LinkSpeed.HDR, PcieGen.GEN4, 16);
        Spec lat = new Spec(Op.WRITE, Transport.RC, 2, 1, 1, 16, 220, 4096, false, false);
        double bw = b.bw(WRITE_64K).gbps();
        double t = b.lat(lat).typicalUs();
        b.far = true;
        Perftest.Bandwidth farBw = b.bw(WRITE_64K);
        assertThat(farBw.gbps()).isLessThan(bw * 0.9);
        assertThat(farBw.why().text()).contains("far NUMA node");
        assertThat(b.lat(lat).typicalUs()).isCloseTo(t + 0.2, within(0.001));
        assertThat(b.bw(Spec.of(Op.WRITE, 2)).mpps()).isCloseTo(2.5 * 0.85, within(1e-9));
    }

    @Test
    void aMissingUplinkUnderLoadLowersTheAggregate() {
        Bench b = tree("node001", "node002");
        MinHopRoutes routes = new MinHopRoutes(b.fabric);
        List<AllToAll.Pair> pairs = AllToAll.shift(b.endpoints(), 60, 30);
        AllToAll.Result before = AllToAll.run(b.params, WRITE_64K, routes, pairs);
        // every host sends and receives at once: its Gen4 x16 slot, not a link, sets the pace, and no pair waits
        assertThat(before.maxGbps() - before.minGbps()).isLessThan(1e-6);
        assertThat(before.minGbps()).isCloseTo(194.5, within(0.5));
        assertThat(before.pairs()).allSatisfy(r -> assertThat(r.why().kind()).isEqualTo(Bottleneck.Kind.PCIE));
        Node leaf = b.fabric.nodes().stream().filter(n -> n.description().equals("leaf01")).findFirst().orElseThrow();
        Link uplink = leaf.port(21).link();
        b.fabric.disconnect(uplink);
        AllToAll.Result after = AllToAll.run(b.params, WRITE_64K, new MinHopRoutes(b.fabric), pairs);
        assertThat(after.unrouted()).isZero();
        assertThat(after.aggregateGbps()).isLessThan(before.aggregateGbps() - 90);
        assertThat(after.minGbps()).isCloseTo(196.7 / 2, within(0.5));
        assertThat(after.pairs()).anySatisfy(r -> assertThat(r.why().text()).contains("shared by 2 flows"));
    }

    @Test
    void mixedIpoibModesRunAtTheDatagramFigureAndWarn() {
        Bench d = new Bench(FabricFiles.loadDefault(), "node033", "node001");
        Ipoib.Result r = Ipoib.stream(d.params, d.clientEnd(), d.serverEnd(), d.toServer());
        assertThat(r.mixed()).isTrue();
        assertThat(r.wireMode()).isEqualTo(IpoibMode.DATAGRAM);
        assertThat(r.mtu()).isEqualTo(2044);
        assertThat(r.gbytesPerSecond()).isCloseTo(1.18, within(0.05));
        assertThat(r.notes()).anySatisfy(n -> assertThat(n).startsWith("T14").contains("hang"));
        Bench ok = new Bench(d.fabric, "node002", "node001");
        Ipoib.Result cm = Ipoib.stream(ok.params, ok.clientEnd(), ok.serverEnd(), ok.toServer());
        assertThat(cm.mixed()).isFalse();
        assertThat(cm.gbytesPerSecond()).isCloseTo(7.0, within(0.2));
    }
}
