package org.ibtwin.diag;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.ibtwin.mad.PortId;

/**
 * How the diagnostic tools read numbers and destinations, quirks included, so that a script's arguments mean the same
 * to ibtwin: numbers as C's {@code strtol(s, NULL, 0)} reads them ("0x1f" hex, "017" octal, trailing junk ignored,
 * no digits = 0), LIDs valid in 1..0xbfff, directed paths as libibmad's {@code str2drpath} ("0,1,3"; each entry
 * read by {@code atoi} and kept modulo 256), combined routes as "lid path".
 */
public final class Addresses {
    /** The highest unicast LID. */
    public static final int MAX_UCAST_LID = 0xbfff;
    /** The most entries a directed path holds (libibmad's IB_SUBNET_PATH_HOPS_MAX). */
    public static final int MAX_PATH_ENTRIES = 64;

    private Addresses() {
    }

    /** A number read the way C's strtol(s, &end, 0) reads it: its value and where reading stopped. */
    public record Parsed(long value, int end, boolean digits) {
        /** Whether the whole string was a number (strtol's {@code *end == '\0'} with digits read). */
        public boolean whole(String s) {
            return digits && end == s.length();
        }
    }

    /**
     * C's {@code strtol(s, &end, 0)}: leading white space, a sign, "0x" for hex or "0" for octal, then digits while
     * they last. No digits: 0, end 0. Values past the range of a long saturate, as strtol's do.
     */
    public static Parsed strtol(String s) {
        Prefix pf = prefix(s, true);
        int n = s.length();
        int i = pf.digitsStart();
        boolean neg = pf.negative();
        int base = pf.base();
        int start = i;
        long v = 0;
        boolean overflow = false;
        while (i < n) {
            int d = Character.digit(s.charAt(i), base);
            if (d < 0 || s.charAt(i) > 0x7f) {
                break;
            }
            if (v > (Long.MAX_VALUE - d) / base) {
                overflow = true;
            } else {
                v = v * base + d;
            }
            i++;
        }
        if (i == start) {
            return new Parsed(0, 0, false);     // no digits: strtol leaves end at the start of the string
        }
        if (overflow) {
            v = neg ? Long.MIN_VALUE : Long.MAX_VALUE;
        } else if (neg) {
            v = -v;
        }
        return new Parsed(v, i, true);
    }

    /** {@code strtol(s, NULL, 0)}. */
    public static long number(String s) {
        return strtol(s).value();
    }

    /** C's {@code atoi}: decimal only, white space and a sign first, 0 when there are no digits. */
    public static int atoi(String s) {
        Prefix pf = prefix(s, false);
        int i = pf.digitsStart();
        boolean neg = pf.negative();
        int n = s.length();
        long v = 0;
        while (i < n && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
            v = Math.min(v * 10 + (s.charAt(i) - '0'), 1L << 40);
            i++;
        }
        return (int) (neg ? -v : v);
    }

    /** Whether {@code lid} is a unicast LID (libibmad's IB_LID_VALID). */
    public static boolean validLid(long lid) {
        return lid >= 1 && lid <= MAX_UCAST_LID;
    }

    /** A LID argument: empty when it is not a unicast LID (the tools' "can't resolve destination port"). */
    public static Optional<PortId> lid(String s) {
        long lid = number(s);
        return validLid(lid) ? Optional.of(PortId.lid((int) lid)) : Optional.empty();
    }

    /**
     * A directed path, "0,1,3" (entry 0 is the unused first entry the tools show): each entry read by atoi and kept
     * modulo 256, an empty entry 0. Empty when the string holds no entry at all. A path longer than
     * {@link #MAX_PATH_ENTRIES} is returned as it is: sending it fails, as it does in libibmad.
     */
    public static Optional<PortId> directed(String s) {
        return path(s).map(PortId::directed);
    }

    /**
     * A combined route as smpquery -c takes it: {@code lidArg} the LID where the directed part starts and
     * {@code pathArg} the path from there (libibmad joins them with a space and reads "lid path"); DrSLID is
     * {@code selfLid}, the LID of the port the query leaves from.
     */
    public static Optional<PortId> combined(String lidArg, String pathArg, int selfLid) {
        String concat = lidArg + " " + (pathArg == null ? "(null)" : pathArg);
        if (concat.length() > 63) {
            concat = concat.substring(0, 63);
        }
        Parsed p = strtol(concat);
        if (!validLid(p.value())) {
            return Optional.empty();
        }
        String rest = p.end() + 1 <= concat.length() ? concat.substring(p.end() + 1) : "";
        Optional<int[]> path = path(rest);
        return path.map(pp -> new PortId((int) p.value(), selfLid == 0 ? PortId.PERMISSIVE_LID : selfLid,
                PortId.PERMISSIVE_LID, pp));
    }

    /** A GUID argument (strtoull, base 0): empty when it reads as 0. */
    public static OptionalLong guid(String s) {
        long g = unsigned(s);
        return g == 0 ? OptionalLong.empty() : OptionalLong.of(g);
    }

    /** C's {@code strtoull(s, NULL, 0)}: as {@link #strtol} but up to 2^64-1, a minus sign negating modulo 2^64. */
    public static long unsigned(String s) {
        Prefix pf = prefix(s, true);
        int n = s.length();
        int i = pf.digitsStart();
        boolean neg = pf.negative();
        int base = pf.base();
        long v = 0;
        boolean overflow = false;
        while (i < n && s.charAt(i) <= 0x7f && Character.digit(s.charAt(i), base) >= 0) {
            int d = Character.digit(s.charAt(i), base);
            if (Long.compareUnsigned(v, Long.divideUnsigned(-1L - d, base)) > 0) {
                overflow = true;
            } else {
                v = v * base + d;
            }
            i++;
        }
        if (overflow) {
            return -1L;
        }
        return neg ? -v : v;
    }

    private static Optional<int[]> path(String s) {
        if (s == null || s.isEmpty()) {
            return Optional.empty();
        }
        List<Integer> entries = new ArrayList<>();
        for (String part : s.split(",", -1)) {
            entries.add(atoi(part) & 0xff);
        }
        // "0,1," ends in an empty entry that str2drpath never reads
        if (s.endsWith(",")) {
            entries.remove(entries.size() - 1);
        }
        if (entries.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(entries.stream().mapToInt(Integer::intValue).toArray());
    }

    /** What C's strto* read before the digits: white space, a sign, and the base prefix for base 0. */
    private record Prefix(int digitsStart, boolean negative, int base) {
    }

    /** White space and a sign, then (with base0) the base prefix of base 0; without base0 the base is 10. */
    private static Prefix prefix(String s, boolean base0) {
        int i = 0;
        int n = s.length();
        while (i < n && isSpace(s.charAt(i))) {
            i++;
        }
        boolean neg = false;
        if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            neg = s.charAt(i) == '-';
            i++;
        }
        int base = 10;
        if (base0 && i < n && s.charAt(i) == '0') {
            if (i + 2 < n && (s.charAt(i + 1) == 'x' || s.charAt(i + 1) == 'X')
                    && Character.digit(s.charAt(i + 2), 16) >= 0) {
                base = 16;
                i += 2;
            } else {
                base = 8;
            }
        }
        return new Prefix(i, neg, base);
    }

    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == 0x0b;
    }
}
