package org.ibtwin.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.LinkWidth;
import org.ibtwin.model.PcieGen;
import org.ibtwin.model.Mtu;
import org.ibtwin.model.HostFacts;
import org.ibtwin.model.IpoibMode;
import org.ibtwin.model.Node;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Every row of ../shared/reference/perf-figures.md, reproduced within its tolerance. */
class PerfFiguresTest {
    private static final long MIB = 1 << 20;

    private static Spec write(long size) {
        return Spec.of(Op.WRITE, size);
    }

    /** perftest's latency defaults for ib_send_lat: TX depth 1, inline 236 (RC) or 188 (UD). */
    private static Spec sendLat(Transport t, long size) {
        return new Spec(Op.SEND, t, size, 1, 1, 16, t == Transport.UD ? 188 : 236, 4096, false, false);
    }

    /**
     * ib_send_lat's median over {@code transport}, EDR back to back, Gen3 x16, for each row {size, low, high} of
     * {@code rows}: between low - 10% and high + 10% (printed as "ID size: t us").
     */
    private static void sendLatMedians(String id, Transport transport, double[][] rows) {
        Bench b = Bench.backToBack(LinkSpeed.EDR, PcieGen.GEN3, 16);
        for (double[] r : rows) {
            double t = b.lat(sendLat(transport, (long) r[0])).typicalUs();
            System.out.printf("%s %d: %.3f us%n", id, (long) r[0], t);
            assertThat(t).isBetween(r[1] * 0.9, r[2] * 1.1);
        }
    }

    @Test
    @DisplayName("P01 EDR 4x, MTU 4096, 1 QP, Gen3 x16: ib_write_bw large = 96.6-98.4 Gb/s (±1%)")
    void p01() {
        Bench b = Bench.backToBack(LinkSpeed.EDR, PcieGen.GEN3, 16);
        for (long size : new long[] {MIB, 2 * MIB, 8 * MIB}) {
            double g = b.bw(write(size)).gbps();
            System.out.printf("P01 %d: %.2f Gb/s%n", size, g);
            assertThat(g).isBetween(96.6 * 0.99, 98.4 * 1.01);
        }
    }

    @Test
    @DisplayName("P02 100 Gb/s IB, MTU 4096: ib_write_bw 65536 = 11,728 MiB/s (±2%); a 4096 B write packet is 4138 B")
    void p02() {
        Bench b = Bench.backToBack(LinkSpeed.EDR, PcieGen.GEN3, 16);
        Perftest.Bandwidth r = b.bw(write(65536));
        System.out.printf("P02: %.2f MiB/s (%.2f Gb/s)%n", r.mibPerSec(), r.gbps());
        assertThat(r.mibPerSec()).isCloseTo(11728, within(11728 * 0.02));
        assertThat(Headers.dataBytes(Op.WRITE, Transport.RC, 4096, 4096, false)).isEqualTo(4138);
    }

    @Test
    @DisplayName("P03 HDR 4x, Gen4 x16, NUMA-pinned: ib_write_bw = ~194 Gb/s (±2%)")
    void p03() {
        Bench b = Bench.backToBack(LinkSpeed.HDR, PcieGen.GEN4, 16);
        for (long size : new long[] {65536, MIB}) {
            double g = b.bw(write(size)).gbps();
            System.out.printf("P03 %d: %.2f Gb/s%n", size, g);
            assertThat(g).isCloseTo(194, within(194 * 0.02));
        }
    }

    @Test
    @DisplayName("P04 NDR 4x, Gen5 x16, through a fat tree: ib_write_bw large = 392.8-393.0 Gb/s (±1%)")
    void p04() {
        Bench b = Bench.fatTree(LinkSpeed.NDR, 64, 128).pcie(PcieGen.GEN5, 16);
        assertThat(b.toServer().switches()).isEqualTo(3);
        double g = b.bw(write(MIB)).gbps();
        System.out.printf("P04: %.2f Gb/s%n", g);
        assertThat(g).isBetween(392.8 * 0.99, 393.0 * 1.01);
    }

    @Test
    @DisplayName("P05 HDR100 (2x HDR), Gen3 x16: ib_write_bw 2 MiB = close to 100 Gb/s (95-99)")
    void p05() {
        Bench b = Bench.backToBack(LinkSpeed.HDR, PcieGen.GEN3, 16).hostWidth(LinkWidth.X2);
        double g = b.bw(write(2 * MIB)).gbps();
        System.out.printf("P05: %.2f Gb/s%n", g);
        assertThat(g).isBetween(95.0, 99.0);
    }

    @Test
    @DisplayName("P06 HDR100 card in a Gen3 x8 slot: ib_write_bw large = ~50 Gb/s (48-56), never the slot's 63")
    void p06() {
        Bench b = Bench.backToBack(LinkSpeed.HDR, PcieGen.GEN3, 16).hostWidth(LinkWidth.X2);
        b.server.setHostFacts(Bench.facts(b.server).withPcie(PcieGen.GEN3, 8));
        Perftest.Bandwidth r = b.bw(write(2 * MIB));
        System.out.printf("P06: %.2f Gb/s %s%n", r.gbps(), r.why().text());
        assertThat(r.gbps()).isBetween(48.0, 56.0);
        assertThat(r.why().kind()).isEqualTo(Bottleneck.Kind.PCIE);
        // the card as the sending side too
        b.server.setHostFacts(Bench.facts(b.server).withPcie(PcieGen.GEN3, 16));
        b.client.setHostFacts(Bench.facts(b.client).withPcie(PcieGen.GEN3, 8));
        assertThat(b.bw(write(2 * MIB)).gbps()).isBetween(48.0, 56.0);
    }

    @Test
    @DisplayName("P07 100 Gb/s card on a Gen3 x8 half of a Socket Direct card: at most 50 Gb/s per x8 (≤ 52)")
    void p07() {
        Bench b = Bench.backToBack(LinkSpeed.EDR, PcieGen.GEN3, 8);
        for (long size : new long[] {65536, MIB, 8 * MIB}) {
            for (Op op : new Op[] {Op.WRITE, Op.READ, Op.SEND}) {
                double g = b.bw(Spec.of(op, size)).gbps();
                System.out.printf("P07 %s %d: %.2f%n", op, size, g);
                assertThat(g).isLessThanOrEqualTo(52.0);
            }
        }
    }

    @Test
    @DisplayName("P08 FDR on Gen3 x8 = ~52-53 Gb/s; QDR on Gen2 x8 = ~25 Gb/s (±5%)")
    void p08() {
        double fdr = Bench.backToBack(LinkSpeed.FDR, PcieGen.GEN3, 8).bw(write(MIB)).gbps();
        double qdr = Bench.backToBack(LinkSpeed.QDR, PcieGen.GEN2, 8).bw(write(MIB)).gbps();
        System.out.printf("P08: FDR %.2f QDR %.2f%n", fdr, qdr);
        assertThat(fdr).isBetween(52 * 0.95, 53 * 1.05);
        assertThat(qdr).isBetween(25 * 0.95, 25 * 1.05);
    }

    @Test
    @DisplayName("P09 EDR back to back, Gen3 x16: ib_send_lat RC median 32 B/1 KiB/4 KiB/32 KiB (±10%)")
    void p09() {
        sendLatMedians("P09", Transport.RC,
                new double[][] {{32, 0.81, 0.83}, {1024, 1.52, 1.61}, {4096, 2.25, 2.28}, {32768, 4.56, 4.58}});
    }

    @Test
    @DisplayName("P10 same, ib_send_lat UD median 32 B/1 KiB/4 KiB = 0.86/1.44-1.54/2.22 us (±10%)")
    void p10() {
        sendLatMedians("P10", Transport.UD,
                new double[][] {{32, 0.86, 0.86}, {1024, 1.44, 1.54}, {4096, 2.22, 2.22}});
    }

    @Test
    @DisplayName("P11 same, ib_send_lat RC at MTU 256..4096, 32 B..32 KiB: spread ≤ 0.1 us")
    void p11() {
        Bench b = Bench.backToBack(LinkSpeed.EDR, PcieGen.GEN3, 16);
        for (long size = 32; size <= 32768; size *= 2) {
            double lo = Double.MAX_VALUE;
            double hi = 0;
            for (int mtu = 256; mtu <= 4096; mtu *= 2) {
                double t = b.lat(sendLat(Transport.RC, size).withMtu(mtu)).typicalUs();
                lo = Math.min(lo, t);
                hi = Math.max(hi, t);
            }
            System.out.printf("P11 %d: spread %.3f us%n", size, hi - lo);
            assertThat(hi - lo).isLessThanOrEqualTo(0.1);
        }
    }

    @Test
    @DisplayName("P12 mlx5, NUMA-pinned, back to back: 2 B write 0.93 inline / 1.32 not; read 1.91 us (±10%)")
    void p12() {
        Bench b = Bench.backToBack(LinkSpeed.EDR, PcieGen.GEN3, 16);
        Spec w = new Spec(Op.WRITE, Transport.RC, 2, 1, 1, 16, 220, 4096, false, false);
        double inline = b.lat(w).typicalUs();
        double notInline = b.lat(w.withInline(0)).typicalUs();
        double read = b.lat(new Spec(Op.READ, Transport.RC, 2, 1, 1, 16, 0, 4096, false, false)).typicalUs();
        System.out.printf("P12: write %.3f / %.3f read %.3f%n", inline, notInline, read);
        assertThat(inline).isCloseTo(0.93, within(0.093));
        assertThat(notInline).isCloseTo(1.32, within(0.132));
        assertThat(read).isCloseTo(1.91, within(0.191));
    }

    @Test
    @DisplayName("P13 HDR ConnectX-6, 1 QP, defaults: ib_read_bw / ib_write_bw 2..128 B = ~2.5 Mpps, flat (±10%)")
    void p13() {
        Bench b = Bench.backToBack(LinkSpeed.HDR, PcieGen.GEN4, 16);
        for (Op op : new Op[] {Op.READ, Op.WRITE}) {
            for (long size = 2; size <= 128; size *= 2) {
                Perftest.Bandwidth r = b.bw(Spec.of(op, size));
                assertThat(r.mpps()).as(op + " " + size).isCloseTo(2.5, within(0.25));
                assertThat(r.why().kind()).isEqualTo(Bottleneck.Kind.MESSAGE_RATE);
            }
        }
    }

    @Test
    @DisplayName("P14 EDR: one switch hop added to a back-to-back path adds 0.1-0.3 us one way")
    void p14() {
        Spec s = sendLat(Transport.RC, 2);
        double b2b = Bench.backToBack(LinkSpeed.EDR, PcieGen.GEN3, 16).lat(s).typicalUs();
        double sw = Bench.oneSwitch(LinkSpeed.EDR, PcieGen.GEN3, 16).lat(s).typicalUs();
        System.out.printf("P14: %.3f -> %.3f%n", b2b, sw);
        assertThat(sw - b2b).isBetween(0.1, 0.3);
        assertThat(PerfParams.DEFAULT.switchHopNanos()).isBetween(90.0, 250.0);
        // the parameter moves it one for one
        Bench slow = Bench.oneSwitch(LinkSpeed.EDR, PcieGen.GEN3, 16);
        slow.params = PerfParams.DEFAULT.withSwitchHopNanos(250);
        assertThat(slow.lat(s).typicalUs() - sw).isCloseTo(0.12, within(1e-9));
    }

    @Test
    @DisplayName("P15 IPoIB large copy: datagram MTU 2044 = ~1.2 GB/s, connected 65520 = ~7 GB/s (±15%)")
    void p15() {
        Bench b = Bench.backToBack(LinkSpeed.HDR, PcieGen.GEN4, 16);
        for (Node n : b.fabric.cas()) {
            n.setHostFacts(Bench.facts(n).withIpoib(IpoibMode.DATAGRAM, 2044));
        }
        Ipoib.Result dg = Ipoib.stream(b.params, b.clientEnd(), b.serverEnd(), b.toServer());
        for (Node n : b.fabric.cas()) {
            n.setHostFacts(Bench.facts(n).withIpoib(IpoibMode.CONNECTED, 65520));
        }
        Ipoib.Result cm = Ipoib.stream(b.params, b.clientEnd(), b.serverEnd(), b.toServer());
        System.out.printf("P15: %.3f -> %.3f GB/s%n", dg.gbytesPerSecond(), cm.gbytesPerSecond());
        assertThat(dg.gbytesPerSecond()).isCloseTo(1.2, within(1.2 * 0.15));
        assertThat(cm.gbytesPerSecond()).isCloseTo(7.0, within(7.0 * 0.15));
        assertThat(HostFacts.DEFAULT.ipoibMtu()).isEqualTo(65520);
        assertThat(Mtu.MTU2048.bytes() - 4).isEqualTo(2044);
    }
}
