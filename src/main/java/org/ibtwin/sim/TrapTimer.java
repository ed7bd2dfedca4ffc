package org.ibtwin.sim;

import java.time.Duration;
import java.util.Objects;

/**
 * Calls {@link Twin#resendTrapsDue} every {@code period} from a daemon thread, so that traps are repeated on a
 * fabric where nothing else happens (the twin itself only looks when it processes a MAD or a fault).
 */
public final class TrapTimer implements AutoCloseable {
    private final Thread thread;
    private volatile boolean running = true;

    private TrapTimer(Twin twin, Duration period) {
        long millis = Math.max(1, period.toMillis());
        thread = new Thread(() -> {
            while (running) {
                try {
                    Thread.sleep(millis);
                } catch (InterruptedException e) {
                    return;
                }
                twin.resendTrapsDue();
            }
        }, "ibtwin-trap-timer");
        thread.setDaemon(true);
    }

    /** Starts a timer for {@code twin}. */
    public static TrapTimer start(Twin twin, Duration period) {
        TrapTimer t = new TrapTimer(Objects.requireNonNull(twin, "twin"), Objects.requireNonNull(period, "period"));
        t.thread.start();
        return t;
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
    }
}
