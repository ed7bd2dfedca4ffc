package org.ibtwin.bench;

import java.util.Arrays;
import java.util.Locale;

/** The figures the benches print of their measured rounds: the best, the median, milliseconds. */
public final class Stats {
    private Stats() {
    }

    /** The smallest of {@code a} (0 when empty). */
    public static long min(long[] a) {
        return Arrays.stream(a).min().orElse(0);
    }

    /** The median of {@code a}; of an even count, the upper of the two middle values. */
    public static long median(long[] a) {
        long[] c = a.clone();
        Arrays.sort(c);
        return c[c.length / 2];
    }

    /** The median of {@code v}; of an even count, the mean of the two middle values (NaN when empty). */
    public static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        int n = s.length;
        return n == 0 ? Double.NaN : n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }

    /** Nanoseconds as whole milliseconds: "12 ms". */
    public static String ms(long ns) {
        return String.format(Locale.ROOT, "%.0f ms", ns / 1e6);
    }
}
