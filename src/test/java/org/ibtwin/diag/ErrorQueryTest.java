package org.ibtwin.diag;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** ibqueryerrors' number scaling and threshold file reading. */
class ErrorQueryTest {
    @Test
    void countsScaledAsConvCntHumanReadable() {
        assertThat(ErrorQuery.human(0, false)).isEqualTo("0.000");
        assertThat(ErrorQuery.human(890, false)).isEqualTo("890.000");
        assertThat(ErrorQuery.human(2164, false)).isEqualTo("2.113K");
        assertThat(ErrorQuery.human(155808, true)).isEqualTo("608.625KB");
        assertThat(ErrorQuery.human(22176, true)).isEqualTo("86.625KB");
        assertThat(ErrorQuery.human(300, true)).isEqualTo("1.172KB");
        assertThat(ErrorQuery.human(3L << 30, false)).isEqualTo("3.000G");
    }

    @Test
    void thresholdFileLines() {
        StringBuilder text = new StringBuilder();
        Map<String, Long> t = ErrorQuery.thresholds(List.of("# comment", "", "SymbolErrorCounter=0x10",
                "PortXmitWait=1000", "Bogus=3", "PortRcvErrors"), text);
        assertThat(t).containsEntry("SymbolErrorCounter", 16L).containsEntry("PortXmitWait", 1000L)
                .containsEntry("PortRcvErrors", 0L).doesNotContainKey("Bogus");
        assertThat(text.toString()).isEqualTo("Thresholds: [SymbolErrorCounter = 16][PortXmitWait = 1000]"
                + "[PortRcvErrors = 0]");
    }
}
