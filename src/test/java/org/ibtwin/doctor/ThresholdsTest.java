package org.ibtwin.doctor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.ibtwin.format.FormatException;
import org.ibtwin.model.PortCounter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ThresholdsTest {
    @TempDir
    Path dir;

    /** A thresholds file holding text. */
    private Path file(String text) throws IOException {
        return Files.writeString(dir.resolve("t"), text);
    }

    @Test
    void readsIbqueryerrorsFormatAndDoctorKeys() throws IOException {
        Thresholds t = Thresholds.read(file("# error_thresholds\nSymbolErrorCounter=100\nlinkdownedcounter=0\n"
                + "PortXmitWait=0x1000\nsuppress=T11, t21\nroute_imbalance=3\n"));
        assertThat(t.limit(PortCounter.SYMBOL_ERROR)).isEqualTo(100);
        assertThat(t.limit(PortCounter.LINK_DOWNED)).isZero();
        assertThat(t.limit(PortCounter.XMIT_WAIT)).isEqualTo(4096);
        assertThat(t.suppressedIds()).containsExactly("T11", "T21");
        assertThat(t.routeImbalance()).isEqualTo(3.0);
        assertThat(t.limit(PortCounter.RCV_ERRORS)).isEqualTo(10);
    }

    static Stream<Arguments> badLines() {
        return Stream.of(
                Arguments.of("SymbolErrorCounter=10\nSymbolErrors=3\n", ":2: unknown threshold \"SymbolErrors\"",
                        false),
                Arguments.of("\nPortRcvErrors=-1\n", ":2: PortRcvErrors: \"-1\" is not a non-negative number", true),
                Arguments.of("suppress=T1\n", ":1: suppress: \"T1\" is not a check id (T01..T25)", true),
                Arguments.of("just words\n", ":1: expected name=value, got \"just words\"", true));
    }

    @ParameterizedTest
    @MethodSource("badLines")
    void badLinesAreFileLineErrors(String text, String message, boolean whole) throws IOException {
        Path f = file(text);
        var thrown = assertThatThrownBy(() -> Thresholds.read(f)).isInstanceOf(FormatException.class);
        if (whole) {
            thrown.hasMessage(f + message);
        } else {
            thrown.hasMessageStartingWith(f + message);
        }
    }
}
