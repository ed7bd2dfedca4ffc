package org.ibtwin.bench;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import org.ibtwin.mad.Field;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.SmpAttributes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ibtwin bench mad}: encode+decode throughput of the MAD codec on PortInfo and LinearForwardingTable blocks,
 * two ways — field by field straight on the wire bytes (what the simulator and the SM do), and through the generic
 * map form (what the dumps and tests use). Warm-up rounds first, then the best and median of the measured rounds.
 */
@Command(name = "mad", mixinStandardHelpOptions = true,
        description = "Encode+decode throughput of the MAD codec (PortInfo, LFT blocks).")
public final class BenchMadCommand extends Bench {

    @Option(names = "--rounds", defaultValue = "5", description = "Measured rounds (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--millis", defaultValue = "1000", description = "Length of a round in ms (default: ${DEFAULT-VALUE}).")
    int millis;

    /** Keeps the JIT from dropping the work. */
    private long sink;

    @Override
    public Integer call() {
        if (rounds < 1 || millis < 10) {
            throw new IllegalArgumentException("--rounds must be >= 1 and --millis >= 10");
        }
        PrintWriter out = spec.commandLine().getOut();
        Layout pi = SmpAttributes.PORT_INFO;
        Layout lft = SmpAttributes.LINEAR_FWD_TABLE;
        byte[] piBuf = new byte[64];
        byte[] lftBuf = new byte[64];
        List<Field> piFields = pi.fields().stream().filter(f -> !f.isArray()).toList();
        List<Field> lftFields = lft.fields();
        LinkedHashMap<String, Object> piValues = sample(pi, piFields);
        LinkedHashMap<String, Object> lftValues = sample(lft, lftFields);

        out.printf(Locale.ROOT, "codec throughput (%d rounds of %d ms after warm-up; best / median):%n", rounds, millis);
        report(out, "PortInfo, field by field (" + piFields.size() + " fields set, then read)", () -> {
            long acc = 0;
            for (int i = 0; i < piFields.size(); i++) {
                Field f = piFields.get(i);
                pi.set(piBuf, 0, f, (acc + i) & f.maxValue());
                acc += pi.get(piBuf, 0, f);
            }
            return acc;
        });
        report(out, "PortInfo, map encode + decode", () -> {
            byte[] b = pi.encode(piValues);
            return pi.decode(b).size();
        });
        report(out, "LFT block, 64 entries set then read", () -> {
            long acc = 0;
            for (int i = 0; i < 64; i++) {
                Field f = lftFields.get(i);
                lft.set(lftBuf, 0, f, (acc + i) & 0xff);
                acc += lft.get(lftBuf, 0, f);
            }
            return acc;
        });
        report(out, "LFT block, map encode + decode", () -> {
            byte[] b = lft.encode(lftValues);
            return lft.decode(b).size();
        });
        out.flush();
        return 0;
    }

    private interface Op {
        long run();
    }

    private void report(PrintWriter out, String what, Op op) {
        // warm-up: two rounds
        measure(op, millis);
        measure(op, millis);
        double[] perSec = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            perSec[r] = measure(op, millis);
        }
        java.util.Arrays.sort(perSec);
        out.printf(Locale.ROOT, "  %-52s %,14.0f /s  %,14.0f /s%n", what, perSec[rounds - 1], perSec[rounds / 2]);
        out.flush();
    }

    private double measure(Op op, int ms) {
        long end = System.nanoTime() + ms * 1_000_000L;
        long n = 0;
        long start = System.nanoTime();
        long now;
        do {
            for (int i = 0; i < 256; i++) {
                sink += op.run();
            }
            n += 256;
            now = System.nanoTime();
        } while (now < end);
        return n / ((now - start) / 1e9);
    }

    private static LinkedHashMap<String, Object> sample(Layout l, List<Field> fields) {
        LinkedHashMap<String, Object> m = new LinkedHashMap<>();
        int i = 1;
        for (Field f : fields) {
            if (!f.isArray()) {
                m.put(f.name(), (i++ * 2654435761L) & f.maxValue());
            }
        }
        return m;
    }
}
