package org.ibtwin.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.LinkWidth;
import org.ibtwin.model.PcieGen;
import org.junit.jupiter.api.Test;

/** The link-layer, header and PCIe tables of perf-figures.md, exactly. */
class RatesTest {

    @Test
    void linkLayerTable() {
        // speed, lane signalling, encoding, lane data, 4x data
        Object[][] table = {
            {LinkSpeed.SDR, "2.5", "8b/10b", "2", "8"},
            {LinkSpeed.DDR, "5", "8b/10b", "4", "16"},
            {LinkSpeed.QDR, "10", "8b/10b", "8", "32"},
            {LinkSpeed.FDR10, "10.3125", "64b/66b", "10", "40"},
            {LinkSpeed.FDR, "14.0625", "64b/66b", "13.64", "54.55"},
            {LinkSpeed.EDR, "25.78125", "64b/66b", "25", "100"},
            {LinkSpeed.HDR, "53.125", "PAM4 RS-FEC", "50", "200"},
            {LinkSpeed.NDR, "106.25", "PAM4 RS-FEC", "100", "400"},
            {LinkSpeed.XDR, "212.5", "PAM4 RS-FEC", "200", "800"},
        };
        for (Object[] row : table) {
            LinkSpeed s = (LinkSpeed) row[0];
            assertThat(strip(s.signallingGbps(), 5)).as(s + " signalling").isEqualTo(row[1]);
            assertThat(s.encoding().label()).as(s + " encoding").isEqualTo(row[2]);
            assertThat(strip(s.dataGbps(), 2)).as(s + " lane data").isEqualTo(row[3]);
            assertThat(strip(LinkRates.dataGbps(LinkWidth.X4, s), 2)).as(s + " 4x").isEqualTo(row[4]);
        }
        assertThat(LinkRates.dataGbps(LinkWidth.X2, LinkSpeed.HDR)).as("HDR100").isEqualTo(100.0);
        assertThat(LinkRates.dataGbps(LinkWidth.X2, LinkSpeed.NDR)).as("NDR200").isEqualTo(200.0);
        assertThat(LinkRates.dataGbps(LinkWidth.X1, LinkSpeed.EDR)).isEqualTo(25.0);
        assertThat(LinkRates.dataGbps(LinkWidth.X12, LinkSpeed.QDR)).isEqualTo(96.0);
    }

    @Test
    void headersAndTrailers() {
        assertThat(new int[] {Headers.LRH, Headers.GRH, Headers.BTH, Headers.DETH, Headers.RETH, Headers.AETH,
            Headers.ATOMIC_ETH, Headers.ATOMIC_ACK_ETH, Headers.IMM_DT, Headers.ICRC, Headers.VCRC})
                .containsExactly(8, 40, 12, 8, 16, 4, 28, 8, 4, 4, 2);
        // 4096 + LRH + BTH + RETH + ICRC + VCRC = 4138
        assertThat(Headers.dataBytes(Op.WRITE, Transport.RC, 4096, 4096, false)).isEqualTo(4138);
        // 64 KiB at 4096: 16 packets, RETH once
        assertThat(Headers.dataBytes(Op.WRITE, Transport.RC, 65536, 4096, false)).isEqualTo(65536 + 16 * 26 + 16);
        // payload padded to 4: a 2-byte write is 4 + 26 + 16
        assertThat(Headers.dataBytes(Op.WRITE, Transport.RC, 2, 4096, false)).isEqualTo(46);
        // 5000 bytes at 2048: 2048 + 2048 + 904 (already a multiple of 4)
        assertThat(Headers.dataBytes(Op.SEND, Transport.RC, 5001, 2048, false)).isEqualTo(2048 + 2048 + 908 + 3 * 26);
        assertThat(Headers.dataBytes(Op.SEND, Transport.UD, 1024, 4096, false)).isEqualTo(1024 + 26 + 8);
        assertThat(Headers.dataBytes(Op.SEND, Transport.RC, 1024, 4096, true)).isEqualTo(1024 + 66);
        // READ responses: AETH on first and last, or on the only one
        assertThat(Headers.dataBytes(Op.READ, Transport.RC, 8192, 4096, false)).isEqualTo(8192 + 2 * 26 + 8);
        assertThat(Headers.dataBytes(Op.READ, Transport.RC, 12288, 4096, false)).isEqualTo(12288 + 3 * 26 + 8);
        assertThat(Headers.dataBytes(Op.READ, Transport.RC, 100, 4096, false)).isEqualTo(100 + 26 + 4);
        assertThat(Headers.reverseBytes(Op.READ, Transport.RC, 8192, 4096, false)).isEqualTo(42);
        // atomics: request with AtomicETH, response with AETH + AtomicAckETH
        assertThat(Headers.dataBytes(Op.ATOMIC, Transport.RC, 8, 4096, false)).isEqualTo(54);
        assertThat(Headers.reverseBytes(Op.ATOMIC, Transport.RC, 8, 4096, false)).isEqualTo(38);
        // RC acknowledgement, nothing back for UC and UD
        assertThat(Headers.reverseBytes(Op.WRITE, Transport.RC, 65536, 4096, false)).isEqualTo(30);
        assertThat(Headers.reverseBytes(Op.WRITE, Transport.UC, 65536, 4096, false)).isZero();
        assertThat(Headers.reverseBytes(Op.SEND, Transport.UD, 64, 4096, false)).isZero();
    }

    /**
     * The PCIe table as perf-figures.md prints it. Its x8 and x16 columns multiply the rounded lane rate (7.88) rather
     * than the exact 8 x 128/130 = 7.877 Gb/s, so they may run up to 0.04% above the exact figure; each entry must
     * match to its printed digits once that rounding is allowed for.
     */
    @Test
    void pcieTable() {
        // gen, GT/s, encoding, usable per lane, x8, x16
        Object[][] table = {
            {PcieGen.GEN3, 8.0, "128b/130b", "7.88", "63.0", "126.1"},
            {PcieGen.GEN4, 16.0, "128b/130b", "15.75", "126.1", "252.2"},
            {PcieGen.GEN5, 32.0, "128b/130b", "31.5", "252.2", "504.3"},
        };
        for (Object[] row : table) {
            PcieGen g = (PcieGen) row[0];
            assertThat(g.gtPerSecond()).isEqualTo(row[1]);
            assertThat(g.encoding().label()).isEqualTo(row[2]);
            assertMatches(Pcie.laneGbps(g), (String) row[3], g + " lane");
            assertMatches(Pcie.rawGbps(g, 8), (String) row[4], g + " x8");
            assertMatches(Pcie.rawGbps(g, 16), (String) row[5], g + " x16");
        }
        assertThat(Pcie.laneGbps(PcieGen.GEN3)).isEqualTo(8.0 * 128 / 130);
        assertThat(Pcie.rawGbps(PcieGen.GEN2, 8)).isEqualTo(32.0);
        // TLPs: 65536 bytes in 256-byte writes carry 256 x 24 bytes of overhead: about 91% efficiency
        assertThat(Pcie.wireBytes(65536, 256, 24)).isEqualTo(65536 + 256 * 24);
        assertThat(65536.0 / Pcie.wireBytes(65536, 256, 24)).isBetween(0.91, 0.92);
        assertThat(Pcie.tlps(1, 256)).isEqualTo(1);
        assertThat(Pcie.tlps(257, 256)).isEqualTo(2);
    }

    /** {@code value} printed to the table's digits, allowing the table's 0.04% lane rounding. */
    private static void assertMatches(double value, String printed, String what) {
        int digits = printed.contains(".") ? printed.length() - printed.indexOf('.') - 1 : 0;
        double table = Double.parseDouble(printed);
        assertThat(Math.abs(value - table)).as(what + ": " + value + " vs " + printed)
                .isLessThanOrEqualTo(0.5 * Math.pow(10, -digits) + 0.0005 * table);
    }

    /** A rate printed as the reference table does: no trailing zeros, at most {@code digits} decimals. */
    private static String strip(double v, int digits) {
        String s = String.format(Locale.ROOT, "%." + digits + "f", v);
        return s.contains(".") ? s.replaceAll("0+$", "").replaceAll("\\.$", "") : s;
    }
}
