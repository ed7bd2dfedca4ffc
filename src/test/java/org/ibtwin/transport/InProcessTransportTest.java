package org.ibtwin.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class InProcessTransportTest {
    private static final LocalPort PORT = new LocalPort("twin", 1, 0x10, 0x11, 1, 0, 1, 4, false);
    private static final Duration T = Duration.ofMillis(100);

    private static byte[] mad(long tid) {
        byte[] m = new byte[256];
        m[0] = 1;
        m[1] = (byte) 0x81;
        m[2] = 1;
        m[3] = 1;
        ByteBuffer.wrap(m).putLong(8, tid);
        return m;
    }

    /** Answers with the request turned into a GetResp. */
    private static byte[] echo(byte[] m) {
        byte[] r = m.clone();
        r[3] = (byte) 0x81;
        return r;
    }

    @Test
    void answersMatchTheirRequestByTid() {
        try (InProcessTransport t = new InProcessTransport(PORT, (m, to, from) -> echo(m))) {
            long tid = t.nextTid();
            byte[] r = t.call(mad(tid), MadAddress.directed(), T, 0);
            assertThat(ByteBuffer.wrap(r).getLong(8)).isEqualTo(tid);
            assertThat(r[3] & 0xff).isEqualTo(0x81);
            assertThat(t.nextTid()).isNotEqualTo(tid);
        }
    }

    @Test
    void aDroppedMadIsRetriedThenTimesOutWithoutWaiting() {
        AtomicInteger attempts = new AtomicInteger();
        try (InProcessTransport t = new InProcessTransport(PORT, (m, to, from) -> {
            attempts.incrementAndGet();
            return null;
        })) {
            long start = System.nanoTime();
            assertThatThrownBy(() -> t.call(mad(t.nextTid()), MadAddress.smp(3), Duration.ofSeconds(5), 2))
                    .isInstanceOf(MadTimeoutException.class).hasMessageContaining("after 3 attempts");
            assertThat(attempts).hasValue(3);
            assertThat(System.nanoTime() - start).isLessThan(Duration.ofSeconds(5).toNanos());
        }
    }

    @Test
    void aLostFirstAttemptIsRecoveredByARetry() {
        AtomicInteger attempts = new AtomicInteger();
        try (InProcessTransport t = new InProcessTransport(PORT,
                (m, to, from) -> attempts.incrementAndGet() == 1 ? null : echo(m))) {
            assertThat(t.call(mad(7), MadAddress.smp(3), T, 1)).isNotNull();
        }
    }

    @Test
    void aResponseWithAnotherTidIsNotTaken() {
        try (InProcessTransport t = new InProcessTransport(PORT, (m, to, from) -> mad(999))) {
            assertThatThrownBy(() -> t.call(mad(1), MadAddress.smp(3), T, 0)).isInstanceOf(MadTimeoutException.class);
        }
    }

    @Test
    void badSizesAndClosedTransportsFailCleanly() {
        InProcessTransport t = new InProcessTransport(PORT, (m, to, from) -> echo(m));
        assertThatThrownBy(() -> t.call(new byte[100], MadAddress.smp(3), T, 0))
                .isInstanceOf(MadTransportException.class).hasMessage("a MAD is 256 bytes, not 100");
        t.close();
        assertThatThrownBy(() -> t.call(mad(1), MadAddress.smp(3), T, 0)).hasMessage("transport closed");
    }

    @Test
    void unsolicitedMadsReachTheHandler() {
        try (InProcessTransport t = new InProcessTransport(PORT, (m, to, from) -> null)) {
            List<ReceivedMad> got = new ArrayList<>();
            t.onUnsolicited(got::add);
            byte[] trap = mad(5);
            t.deliver(trap, MadAddress.smp(9));
            trap[0] = 99;
            assertThat(got).singleElement().satisfies(r -> {
                assertThat(r.from().lid()).isEqualTo(9);
                assertThat(r.mad()[0]).isEqualTo((byte) 1);
            });
        }
    }
}
