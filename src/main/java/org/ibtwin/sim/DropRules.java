package org.ibtwin.sim;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * Fault injection's MAD drop rates: by port (or any port) and attribute id (or any attribute, 0). A MAD arriving at
 * a port meets the most specific rule there (port and attribute, port, attribute, any) and is dropped with its
 * probability, drawn from one seeded {@link Random}: the same seed and the same MADs drop the same ones.
 */
final class DropRules {
    static final long DEFAULT_SEED = 0x1b7e1;

    /** (port + 1) << 16 | attribute id -> rate; port -1 is any port. */
    private final Map<Long, Double> rules = new TreeMap<>();
    private Random random = new Random(DEFAULT_SEED);

    private static long key(int g, int attr) {
        return ((long) (g + 1) << 16) | attr;
    }

    boolean isEmpty() {
        return rules.isEmpty();
    }

    void seed(long seed) {
        random = new Random(seed);
    }

    /** Sets a rule; a rate of 0 removes it. */
    void set(int g, int attr, double rate) {
        if (!(rate >= 0 && rate <= 1)) {
            throw new IllegalArgumentException("drop rate must be in 0..1: " + rate);
        }
        if (attr < 0 || attr > 0xffff) {
            throw new IllegalArgumentException("attribute id must be in 0..0xffff: " + attr);
        }
        if (rate == 0) {
            rules.remove(key(g, attr));
        } else {
            rules.put(key(g, attr), rate);
        }
    }

    void clearPort(int g) {
        rules.keySet().removeIf(k -> (k >>> 16) == g + 1);
    }

    void clear() {
        rules.clear();
    }

    /** Whether a MAD of attribute {@code attr} arriving at port {@code g} is dropped (a draw when a rule applies). */
    boolean drops(int g, int attr) {
        Double r = rules.get(key(g, attr));
        if (r == null) {
            r = rules.get(key(g, 0));
        }
        if (r == null) {
            r = rules.get(key(-1, attr));
        }
        if (r == null) {
            r = rules.get(key(-1, 0));
        }
        return r != null && random.nextDouble() < r;
    }

    /** "\"S-…\"[3] attr 0x0015 25%" lines. */
    List<String> describe(TwinState t) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<Long, Double> e : rules.entrySet()) {
            int g = (int) (e.getKey() >>> 16) - 1;
            int attr = (int) (e.getKey() & 0xffff);
            out.add(String.format(Locale.ROOT, "%s %s %s%%", g < 0 ? "any port" : t.portName(g),
                    attr == 0 ? "any attribute" : String.format("attribute 0x%04x", attr),
                    new BigDecimal(e.getValue() * 100).stripTrailingZeros().toPlainString()));
        }
        return out;
    }
}
