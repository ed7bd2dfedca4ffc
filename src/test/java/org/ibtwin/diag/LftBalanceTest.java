package org.ibtwin.diag;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * check_lft_balance's judgement on hand-made dumps and link lines: counting, the ports left out (down, past 36,
 * straight to a host), the two heuristics of -e, LMC paths, and Perl's numeric comparisons.
 */
class LftBalanceTest {
    private static final String GUID = "0x0000000000000100";

    /** A dump of one switch: LID i+1 leaves by ports[i], each a CA of its own. */
    private static String dump(int... ports) {
        StringBuilder sb = new StringBuilder("Unicast lids [0x0-0x" + Integer.toHexString(ports.length)
                + "] of switch DR path slid 0; dlid 0; 0 guid " + GUID + " (sw1):\n  Lid  Out   Destination\n"
                + "       Port     Info \n");
        for (int i = 0; i < ports.length; i++) {
            sb.append(String.format("0x%04x %03d : (Channel Adapter portguid 0x%016x: 'host%d mlx5_0')%n", i + 1,
                    ports[i], 0x1000 + i, i));
        }
        return sb.append(ports.length).append(" valid lids dumped \n").toString();
    }

    /** iblinkinfo lines for ports 1..n: Active to a switch named "spine", except those listed as down. */
    private static String links(int n, int... down) {
        StringBuilder sb = new StringBuilder("Switch: " + GUID + " sw1:\n");
        for (int p = 1; p <= n; p++) {
            boolean isDown = false;
            for (int d : down) {
                isDown |= d == p;
            }
            if (isDown) {
                sb.append(String.format("           1 %4d[  ] ==(                Down/ Polling)==>             [  ] "
                        + "\"\" ( )%n", p));
            } else {
                sb.append(String.format("           1 %4d[  ] ==( 4X      25.78125 Gbps Active/  LinkUp)==>       "
                        + "9 %4d[  ] \"spine\" ( )%n", p, p));
            }
        }
        return sb.toString();
    }

    private static int[] spread(Map<Integer, Integer> lidsPerPort) {
        return lidsPerPort.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .flatMap(e -> java.util.Collections.nCopies(e.getValue(), e.getKey()).stream())
                .mapToInt(Integer::intValue).toArray();
    }

    @Test
    void countsEachPortsLidsAndSkipsDownPortsAndPortsPast36() {
        String d = dump(spread(Map.of(1, 3, 2, 3, 3, 2, 37, 9)));
        List<LftBalance.SwitchUsage> s = LftBalance.judge(d, g -> links(40, 4, 5), false);
        assertThat(s).hasSize(1);
        assertThat(s.get(0).unbalanced()).isTrue();
        // port 4 and 5 are down and carry nothing; 6..36 are up and idle, so they count, and unbalance the switch
        assertThat(s.get(0).ports()).extracting(LftBalance.PortUsage::port).startsWith("001", "002", "003", "006")
                .doesNotContain("004", "005", "037");
        List<LftBalance.SwitchUsage> only = LftBalance.judge(d, g -> links(3), false);
        assertThat(only.get(0).ports()).containsExactly(new LftBalance.PortUsage("001", 3),
                new LftBalance.PortUsage("002", 3), new LftBalance.PortUsage("003", 2));
        assertThat(LftBalance.text(only, true)).isEqualTo("Switch Port Usage: sw1, " + GUID
                + "\nPort 001: 3\nPort 002: 3\nPort 003: 2\n");
        assertThat(LftBalance.text(only, false)).isEmpty();
    }

    @Test
    void unbalancedWhenTheBusiestCarriesTwoMoreThanTheIdlest() {
        List<LftBalance.SwitchUsage> s = LftBalance.judge(dump(spread(Map.of(1, 4, 2, 2))), g -> links(2), false);
        assertThat(s.get(0).unbalanced()).isTrue();
        assertThat(LftBalance.text(s, false)).startsWith("Unbalanced Switch Port Usage: sw1, " + GUID + "\n");
    }

    @Test
    void aHostRightBehindAPortIsLeftOutAsPerlComparesNames() {
        // ports 1, 2: one LID each (a host each); 3: 5. Ports 1 and 2 lead to a switch called "spine", yet the
        // script's pattern for the remote name never matches iblinkinfo's lines, and its undefined match equals
        // any non-numeric host name in Perl's numbers: both are "directly connected", only port 3 is counted
        String d = dump(1, 2, 3, 3, 3, 3, 3);
        List<LftBalance.SwitchUsage> s = LftBalance.judge(d, g -> links(3), false);
        assertThat(s.get(0).ports()).containsExactly(new LftBalance.PortUsage("003", 5));
        assertThat(s.get(0).unbalanced()).isFalse();
        // hosts whose names start with a number are not 0: then ports 1 and 2 count, and it is unbalanced
        String numeric = d.replace("'host", "'7host");
        assertThat(LftBalance.judge(numeric, g -> links(3), false).get(0).ports()).hasSize(3);
        assertThat(LftBalance.judge(numeric, g -> links(3), false).get(0).unbalanced()).isTrue();
    }

    @Test
    void heuristicsCallALineBoardWithABalancedLowerHalfBalanced() {
        // 15 live ports: 8 at 10 LIDs, 7 at 2: unbalanced, but the 7 outside the top two counts are balanced
        int[] ports = spread(Map.ofEntries(Map.entry(1, 10), Map.entry(2, 10), Map.entry(3, 10), Map.entry(4, 10),
                Map.entry(5, 10), Map.entry(6, 10), Map.entry(7, 10), Map.entry(8, 10), Map.entry(9, 2),
                Map.entry(10, 2), Map.entry(11, 2), Map.entry(12, 2), Map.entry(13, 2), Map.entry(14, 2),
                Map.entry(15, 2)));
        assertThat(LftBalance.judge(dump(ports), g -> links(15), false).get(0).unbalanced()).isTrue();
        assertThat(LftBalance.judge(dump(ports), g -> links(15), true).get(0).unbalanced()).isFalse();
        // 12 live ports are not enough for the heuristics
        int[] few = spread(Map.of(1, 10, 2, 10, 3, 2, 4, 2));
        assertThat(LftBalance.judge(dump(few), g -> links(12), true).get(0).unbalanced()).isTrue();
    }

    @Test
    void heuristicsCallAPartlyPopulatedSwitchBalanced() {
        // 14 live ports: 4 busy, the rest idle
        int[] ports = spread(Map.of(1, 6, 2, 6, 3, 5, 4, 6));
        assertThat(LftBalance.judge(dump(ports), g -> links(14), false).get(0).unbalanced()).isTrue();
        assertThat(LftBalance.judge(dump(ports), g -> links(14), true).get(0).unbalanced()).isFalse();
    }

    @Test
    void lmcPathsCountOnTheirPorts() {
        String d = "Unicast lids [0x0-0x4] of switch Lid 7 guid " + GUID + " (sw1):\n"
                + "0x0001 001 : (Channel Adapter portguid 0x0000000000001000: 'a')\n"
                + "0x0002 002 : (path #2 out of 2: portguid 0x0000000000001000)\n"
                + "0x0003 002 : (Channel Adapter portguid 0x0000000000001001: 'b')\n"
                + "0x0004 002 : (path #2 out of 2: portguid 0x0000000000001001)\n";
        List<LftBalance.SwitchUsage> s = LftBalance.judge(d, g -> links(2), false);
        // b's two LIDs both leave by port 2: b may sit behind it, and port 2's 3 LIDs are not one host's 2
        assertThat(s.get(0).ports()).containsExactly(new LftBalance.PortUsage("001", 1),
                new LftBalance.PortUsage("002", 3));
        assertThat(s.get(0).guid()).isEqualTo(GUID);
    }

    @Test
    void anEmptyDumpIsOneNamelessSwitch() {
        List<LftBalance.SwitchUsage> s = LftBalance.judge("", g -> "", false);
        assertThat(LftBalance.text(s, true)).isEqualTo("Switch Port Usage: , \n");
    }

    @Test
    void perlNumbers() {
        assertThat(PerlNumbers.num("spine")).isZero();
        assertThat(PerlNumbers.num(null)).isZero();
        assertThat(PerlNumbers.num("003")).isEqualTo(3);
        assertThat(PerlNumbers.num("  12abc")).isEqualTo(12);
        assertThat(PerlNumbers.num("0x10")).isZero();
        assertThat(PerlNumbers.num("-1.5e2x")).isEqualTo(-150);
        assertThat(PerlNumbers.num(".5")).isEqualTo(0.5);
        assertThat(PerlNumbers.num("1e")).isEqualTo(1);
        assertThat(PerlNumbers.num("Infinity")).isInfinite();
        assertThat(PerlNumbers.num("nan-node")).isNaN();
    }
}
