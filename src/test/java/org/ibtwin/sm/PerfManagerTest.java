package org.ibtwin.sm;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDateTime;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;

class PerfManagerTest {
    @Test
    void humanFiguresAsOpenSmPrintsThem() {
        assertThat(PerfManager.human(11, false)).isEqualTo(" (11.000)");
        assertThat(PerfManager.human(2048, false)).isEqualTo(" (2.000K)");
        assertThat(PerfManager.human(792, true)).isEqualTo(" (3.094KB)");
        assertThat(PerfManager.human(200, true)).isEqualTo(" (800.000B)");
        assertThat(PerfManager.human(300, true)).isEqualTo(" (1.172KB)");
        assertThat(PerfManager.human(0, false)).isEqualTo(" (0.000)");
        assertThat(PerfManager.human(3L << 30, true)).isEqualTo(" (12.000GB)");
    }

    @Test
    void nearTheLimitIsThreeQuartersOfTheRange() {
        assertThat(PerfManager.nearLimit(49151, 16)).isFalse();
        assertThat(PerfManager.nearLimit(49152, 16)).isTrue();
        assertThat(PerfManager.nearLimit(191, 8)).isFalse();
        assertThat(PerfManager.nearLimit(192, 8)).isTrue();
        assertThat(PerfManager.nearLimit(9, 4)).isFalse();
        assertThat(PerfManager.nearLimit(10, 4)).isTrue();
        assertThat(PerfManager.nearLimit(0xc0000000L, 32)).isTrue();
        assertThat(PerfManager.nearLimit(0xbfffffffL, 32)).isFalse();
        assertThat(PerfManager.nearLimit(0xc000000000000000L, 64)).isTrue();
        assertThat(PerfManager.nearLimit(0x7fffffffffffffffL, 64)).isFalse();
    }

    @Test
    void ctimeAsC() {
        long t = LocalDateTime.of(2026, 12, 2, 2, 20, 53).atZone(ZoneId.systemDefault()).toInstant().toEpochMilli();
        assertThat(PerfManager.ctime(t)).isEqualTo("Wed Dec  2 02:20:53 2026");
    }
}
