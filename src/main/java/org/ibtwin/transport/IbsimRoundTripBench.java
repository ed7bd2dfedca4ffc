package org.ibtwin.transport;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

/**
 * Round trips per second of directed-route SMP Get NodeInfo through an {@link IbsimClient}: {@code inFlight} lanes,
 * each sending its next request as soon as its last response came, for a fixed time. The default path is the initial
 * path 0,1: out of local port 1, which reaches the neighbour switch when the client is attached at a CA.
 *
 * <p>{@code main} attaches at the ibsim named by the environment ({@code IBSIM_SERVER_NAME},
 * {@code IBSIM_SERVER_PORT}, {@code SIM_HOST}) and prints the figures for 1 and 4 in flight.
 */
public final class IbsimRoundTripBench {
    private static final Duration TIMEOUT = Duration.ofSeconds(1);

    private IbsimRoundTripBench() {
    }

    /**
     * What one run measured. Latencies are of completed round trips, in microseconds; {@code cpuNanos} is the CPU
     * time the simulator used over the timed window (-1: not measured).
     */
    public record Result(int inFlight, Duration elapsed, long roundTrips, long failures, double perSecond,
                         double p50Micros, double p99Micros, double maxMicros, long cpuNanos) {
        /** The simulator's CPU per MAD answered (a round trip: one request in, one response out), in µs; NaN when
         * not measured or nothing was answered. */
        public double cpuMicrosPerMad() {
            return cpuNanos < 0 || roundTrips == 0 ? Double.NaN : cpuNanos / 1e3 / roundTrips;
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT,
                    "in flight %d: %,d round trips in %.2f s = %,.0f/s; latency p50 %.0f us, p99 %.0f us, "
                            + "max %.0f us; failures %d",
                    inFlight, roundTrips, elapsed.toNanos() / 1e9, perSecond, p50Micros, p99Micros, maxMicros,
                    failures) + (cpuNanos < 0 ? "" : String.format(Locale.ROOT, "; simulator CPU %.1f us/MAD",
                    cpuMicrosPerMad()));
        }
    }

    /** Measures DR NodeInfo along initial path 0,1 (the neighbour switch of a CA). */
    public static Result run(IbsimClient c, int inFlight, Duration duration) {
        return run(c, inFlight, duration, 0, 1);
    }

    /** Measures DR NodeInfo along {@code path} (initial path bytes, path[0] = 0, hop count = length - 1). */
    public static Result run(MadTransport c, int inFlight, Duration duration, int... path) {
        return run(c, inFlight, duration, null, path);
    }

    /**
     * As {@link #run(MadTransport, int, Duration, int...)}, reading {@code simulatorCpuNanos} (the simulator's CPU
     * time so far; null: none) when the timed window opens and when it closes, after the warm-up.
     */
    public static Result run(MadTransport c, int inFlight, Duration duration, LongSupplier simulatorCpuNanos,
                             int... path) {
        if (inFlight < 1) {
            throw new IllegalArgumentException("inFlight must be >= 1: " + inFlight);
        }
        // Warm up: JIT, and make sure the path answers before timing anything.
        long warmEnd = System.nanoTime() + Math.min(duration.toNanos() / 5, Duration.ofMillis(500).toNanos());
        do {
            c.call(drNodeInfo(c.nextTid(), path), MadAddress.directed(), TIMEOUT, 0);
        } while (System.nanoTime() < warmEnd);

        AtomicBoolean stop = new AtomicBoolean();
        long[][] samples = new long[inFlight][];
        int[] counts = new int[inFlight];
        long[] failures = new long[inFlight];
        List<Thread> lanes = new ArrayList<>();
        long cpu0 = simulatorCpuNanos == null ? 0 : simulatorCpuNanos.getAsLong();
        long start = System.nanoTime();
        for (int i = 0; i < inFlight; i++) {
            int lane = i;
            samples[lane] = new long[1 << 16];
            Thread t = new Thread(() -> {
                while (!stop.get()) {
                    long t0 = System.nanoTime();
                    try {
                        byte[] r = c.call(drNodeInfo(c.nextTid(), path), MadAddress.directed(), TIMEOUT, 0);
                        if ((r[3] & 0xff) != 0x81 || (ByteBuffer.wrap(r).getShort(4) & 0x7fff) != 0) {
                            failures[lane]++;
                            continue;
                        }
                    } catch (MadTransportException e) {
                        failures[lane]++;
                        continue;
                    }
                    if (counts[lane] == samples[lane].length) {
                        samples[lane] = Arrays.copyOf(samples[lane], counts[lane] * 2);
                    }
                    samples[lane][counts[lane]++] = System.nanoTime() - t0;
                }
            }, "ibsim-bench-" + lane);
            lanes.add(t);
            t.start();
        }
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        stop.set(true);
        for (Thread t : lanes) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        long elapsed = System.nanoTime() - start;
        long cpu = simulatorCpuNanos == null ? -1 : Math.max(0, simulatorCpuNanos.getAsLong() - cpu0);
        int total = 0;
        long failed = 0;
        for (int i = 0; i < inFlight; i++) {
            total += counts[i];
            failed += failures[i];
        }
        long[] all = new long[total];
        int k = 0;
        for (int i = 0; i < inFlight; i++) {
            System.arraycopy(samples[i], 0, all, k, counts[i]);
            k += counts[i];
        }
        Arrays.sort(all);
        return new Result(inFlight, Duration.ofNanos(elapsed), total, failed, total / (elapsed / 1e9),
                percentile(all, 0.50), percentile(all, 0.99), total == 0 ? 0 : all[total - 1] / 1e3, cpu);
    }

    private static double percentile(long[] sorted, double q) {
        if (sorted.length == 0) {
            return 0;
        }
        return sorted[(int) Math.min(sorted.length - 1, Math.floor(q * sorted.length))] / 1e3;
    }

    /** A directed-route SMP Get NodeInfo with the given TID and initial path. */
    static byte[] drNodeInfo(long tid, int... path) {
        if (path.length < 1 || path.length > 64) {
            throw new IllegalArgumentException("path must have 1..64 entries");
        }
        byte[] m = new byte[IbsimWire.MAD_SIZE];
        ByteBuffer b = ByteBuffer.wrap(m);
        m[0] = 1;                   // BaseVersion
        m[1] = (byte) 0x81;         // directed-route SMP
        m[2] = 1;                   // ClassVersion
        m[3] = 1;                   // Get
        m[7] = (byte) (path.length - 1);  // HopCount (HopPointer 0, D 0, status 0)
        b.putLong(8, tid);
        b.putShort(16, (short) 0x0011);   // NodeInfo
        b.putShort(32, (short) 0xffff);   // DrSLID
        b.putShort(34, (short) 0xffff);   // DrDLID
        for (int i = 0; i < path.length; i++) {
            m[128 + i] = (byte) path[i];
        }
        return m;
    }

    /** Attaches per the environment and prints the figures for 1 and 4 in flight; args: [seconds]. */
    public static void main(String[] args) {
        Duration d = Duration.ofSeconds(args.length > 0 ? Long.parseLong(args[0]) : 5);
        try (IbsimClient c = IbsimClient.fromEnvironment(null, false)) {
            System.out.println("attached as client " + c.clientId() + " at " + c.localPort());
            for (int n : new int[] {1, 4}) {
                System.out.println(run(c, n, d));
            }
        }
    }
}
