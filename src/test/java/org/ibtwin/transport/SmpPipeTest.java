package org.ibtwin.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.ibtwin.mad.AttributeIds;
import org.junit.jupiter.api.Test;

/** The directed-route pipe's window and its two orders: as answers complete, or as requests were sent. */
class SmpPipeTest {
    /** Holds every request until asked, then completes the held ones newest first. */
    private static final class Reversing implements MadTransport {
        final List<CompletableFuture<byte[]>> held = new ArrayList<>();
        final List<byte[]> mads = new ArrayList<>();
        int maxHeld;
        long tid;

        @Override
        public LocalPort localPort() {
            return new LocalPort("t", 1, 1, 1, 1, 0, 1, 4, false);
        }

        @Override
        public long nextTid() {
            return ++tid;
        }

        @Override
        public CompletableFuture<byte[]> request(byte[] mad, MadAddress to, Duration timeout, int retries) {
            CompletableFuture<byte[]> f = new CompletableFuture<>();
            held.add(f);
            mads.add(mad);
            maxHeld = Math.max(maxHeld, held.size());
            if (held.size() == 3) {
                release();
            }
            return f;
        }

        /** Answers the held requests, the last sent first (as a transport completing on other threads may). */
        void release() {
            List<CompletableFuture<byte[]>> h = new ArrayList<>(held);
            List<byte[]> m = new ArrayList<>(mads);
            held.clear();
            mads.clear();
            for (int i = h.size() - 1; i >= 0; i--) {
                byte[] r = m.get(i).clone();
                r[3] = (byte) 0x81;
                h.get(i).complete(r);
            }
        }

        @Override
        public byte[] call(byte[] mad, MadAddress to, Duration timeout, int retries) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void send(byte[] mad, MadAddress to) {
        }

        @Override
        public void onUnsolicited(Consumer<ReceivedMad> handler) {
        }

        @Override
        public void close() {
        }
    }

    private static List<Long> run(boolean inOrder) {
        Reversing t = new Reversing();
        SmpPipe p = new SmpPipe(t, 3, Duration.ofSeconds(1), 0);
        p.answerInOrder(inOrder);
        List<Long> seen = new ArrayList<>();
        for (int i = 1; i <= 6; i++) {
            long mod = i;
            p.get(new byte[] {1}, AttributeIds.PORT_INFO, i, r -> seen.add(mod));
        }
        p.drain();
        assertThat(t.maxHeld).isEqualTo(3);
        assertThat(p.sent()).isEqualTo(6);
        return seen;
    }

    @Test
    void callbacksFollowCompletionsByDefault() {
        List<Long> seen = run(false);
        assertThat(seen).containsExactlyInAnyOrder(1L, 2L, 3L, 4L, 5L, 6L).isNotEqualTo(List.of(1L, 2L, 3L, 4L, 5L,
                6L));
    }

    @Test
    void inOrderCallbacksFollowTheRequests() {
        assertThat(run(true)).containsExactly(1L, 2L, 3L, 4L, 5L, 6L);
    }
}
