package org.ibtwin.format;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A host-list pattern: the compact way clusters name many hosts at once.
 *
 * <ul>
 *   <li>{@code node017}: a plain name matches itself.</li>
 *   <li>{@code node[001-064]}: a bracket holds comma-separated numbers and ranges, {@code node[1-4,7,9-10]}. A bound
 *       written with a leading zero pads every number to its width ({@code [001-064]} gives {@code node001}); both
 *       bounds of a padded range must then have the same width. Without leading zeros numbers are written plainly
 *       ({@code [8-10]} gives {@code node8}, {@code node9}, {@code node10}).</li>
 *   <li>{@code node0*}: {@code *} matches any run of characters, including none.</li>
 *   <li>{@code node[01-04],leaf01}: a comma outside brackets separates alternatives.</li>
 *   <li>{@code \} makes the next character literal: {@code a\,b} is the single name {@code a,b}.</li>
 * </ul>
 * Several brackets may appear in one name ({@code rack[1-2]node[01-04]}).
 */
public final class NamePattern {
    /** The most names {@link #expand()} will produce. */
    public static final int MAX_EXPANSION = 1_000_000;

    private static final int MAX_DIGITS = 18;
    private static final String SPECIAL = "[],*\\";

    private sealed interface Segment permits Literal, Star, Numbers {
    }

    private record Literal(String text) implements Segment {
    }

    private record Star() implements Segment {
    }

    /** One number or range in a bracket; width 0 means no padding. */
    private record Range(long lo, long hi, int width) {
        boolean accepts(String digits) {
            if (width > 0 ? digits.length() != width : digits.length() > 1 && digits.charAt(0) == '0') {
                return false;
            }
            long n = Long.parseLong(digits);
            return n >= lo && n <= hi;
        }

        String format(long n) {
            return width > 0 ? String.format("%0" + width + "d", n) : Long.toString(n);
        }
    }

    private record Numbers(List<Range> ranges) implements Segment {
        boolean accepts(String digits) {
            for (Range r : ranges) {
                if (r.accepts(digits)) {
                    return true;
                }
            }
            return false;
        }
    }

    private final String text;
    private final List<List<Segment>> alternatives;

    private NamePattern(String text, List<List<Segment>> alternatives) {
        this.text = text;
        this.alternatives = alternatives;
    }

    /**
     * Parses pattern text.
     *
     * @throws IllegalArgumentException on bad syntax: unclosed or stray brackets, empty brackets or names, a range
     *                                  whose bounds are reversed or padded to different widths, a bracket item that
     *                                  is not a number
     */
    public static NamePattern parse(String text) {
        if (text == null || text.isEmpty()) {
            throw new IllegalArgumentException("empty name pattern");
        }
        List<List<Segment>> alts = new ArrayList<>();
        List<Segment> segs = new ArrayList<>();
        StringBuilder lit = new StringBuilder();
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            switch (c) {
                case '\\' -> {
                    if (i + 1 >= text.length()) {
                        throw bad(text, "\"\\\" at the end escapes nothing");
                    }
                    lit.append(text.charAt(i + 1));
                    i += 2;
                }
                case '*' -> {
                    flush(lit, segs);
                    if (segs.isEmpty() || !(segs.get(segs.size() - 1) instanceof Star)) {
                        segs.add(new Star());
                    }
                    i++;
                }
                case ',' -> {
                    flush(lit, segs);
                    if (segs.isEmpty()) {
                        throw bad(text, "empty name before \",\" at column " + (i + 1));
                    }
                    alts.add(List.copyOf(segs));
                    segs.clear();
                    i++;
                }
                case ']' -> throw bad(text, "\"]\" at column " + (i + 1) + " has no \"[\"");
                case '[' -> {
                    int close = text.indexOf(']', i + 1);
                    int nested = text.indexOf('[', i + 1);
                    if (close < 0) {
                        throw bad(text, "\"[\" at column " + (i + 1) + " is never closed");
                    }
                    if (nested >= 0 && nested < close) {
                        throw bad(text, "\"[\" at column " + (nested + 1) + " inside brackets");
                    }
                    flush(lit, segs);
                    segs.add(parseBracket(text, text.substring(i + 1, close)));
                    i = close + 1;
                }
                default -> {
                    lit.append(c);
                    i++;
                }
            }
        }
        flush(lit, segs);
        if (segs.isEmpty()) {
            throw bad(text, "empty name after the last \",\"");
        }
        alts.add(List.copyOf(segs));
        return new NamePattern(text, List.copyOf(alts));
    }

    private static void flush(StringBuilder lit, List<Segment> segs) {
        if (!lit.isEmpty()) {
            segs.add(new Literal(lit.toString()));
            lit.setLength(0);
        }
    }

    private static Numbers parseBracket(String text, String body) {
        if (body.isEmpty()) {
            throw bad(text, "empty brackets \"[]\"");
        }
        List<Range> ranges = new ArrayList<>();
        for (String item : body.split(",", -1)) {
            int dash = item.indexOf('-');
            String loText = dash < 0 ? item : item.substring(0, dash);
            String hiText = dash < 0 ? item : item.substring(dash + 1);
            if (!isNumber(loText) || !isNumber(hiText)) {
                throw bad(text, "\"" + item + "\" in brackets is not a number or range (expected like 1-4 or 007)");
            }
            long lo = Long.parseLong(loText);
            long hi = Long.parseLong(hiText);
            if (lo > hi) {
                throw bad(text, "range " + item + " is reversed");
            }
            boolean padded = hasLeadingZero(loText) || hasLeadingZero(hiText);
            if (padded && loText.length() != hiText.length()) {
                throw bad(text, "range " + item + " pads its bounds to different widths");
            }
            ranges.add(new Range(lo, hi, padded ? loText.length() : 0));
        }
        return new Numbers(List.copyOf(ranges));
    }

    private static boolean isNumber(String s) {
        if (s.isEmpty() || s.length() > MAX_DIGITS) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (!isDigit(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean hasLeadingZero(String digits) {
        return digits.length() > 1 && digits.charAt(0) == '0';
    }

    private static IllegalArgumentException bad(String text, String why) {
        return new IllegalArgumentException("bad name pattern \"" + text + "\": " + why);
    }

    /** The text the pattern was parsed from. */
    public String text() {
        return text;
    }

    /** Does the pattern contain a {@code *} (and so match unboundedly many names). */
    public boolean isGlob() {
        for (List<Segment> alt : alternatives) {
            for (Segment s : alt) {
                if (s instanceof Star) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Does the whole of {@code name} match one of the alternatives. */
    public boolean matches(String name) {
        for (List<Segment> alt : alternatives) {
            if (matches(alt, 0, name, 0)) {
                return true;
            }
        }
        return false;
    }

    private static boolean matches(List<Segment> segs, int si, String name, int pos) {
        if (si == segs.size()) {
            return pos == name.length();
        }
        Segment seg = segs.get(si);
        if (seg instanceof Literal l) {
            return name.startsWith(l.text(), pos) && matches(segs, si + 1, name, pos + l.text().length());
        }
        if (seg instanceof Star) {
            for (int end = name.length(); end >= pos; end--) {
                if (matches(segs, si + 1, name, end)) {
                    return true;
                }
            }
            return false;
        }
        Numbers nums = (Numbers) seg;
        int run = pos;
        while (run < name.length() && run - pos < MAX_DIGITS && isDigit(name.charAt(run))) {
            run++;
        }
        for (int end = run; end > pos; end--) {
            if (nums.accepts(name.substring(pos, end)) && matches(segs, si + 1, name, end)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Every name the pattern stands for, in pattern order, without repeats.
     *
     * @throws IllegalStateException    when the pattern has a {@code *}
     * @throws IllegalArgumentException when it would give more than {@link #MAX_EXPANSION} names
     */
    public List<String> expand() {
        if (isGlob()) {
            throw new IllegalStateException("name pattern \"" + text + "\" has a \"*\" and cannot be expanded");
        }
        Set<String> out = new LinkedHashSet<>();
        for (List<Segment> alt : alternatives) {
            List<String> partial = List.of("");
            for (Segment s : alt) {
                List<String> next = new ArrayList<>();
                if (s instanceof Literal l) {
                    for (String p : partial) {
                        next.add(p + l.text());
                    }
                } else {
                    for (String p : partial) {
                        for (Range r : ((Numbers) s).ranges()) {
                            for (long n = r.lo(); n <= r.hi(); n++) {
                                if (next.size() + out.size() >= MAX_EXPANSION) {
                                    throw new IllegalArgumentException("name pattern \"" + text
                                            + "\" stands for more than " + MAX_EXPANSION + " names");
                                }
                                next.add(p + r.format(n));
                            }
                        }
                    }
                }
                partial = next;
            }
            out.addAll(partial);
        }
        return List.copyOf(out);
    }

    /** Escapes the characters that mean something in a pattern, so that the result matches {@code name} only. */
    public static String escape(String name) {
        StringBuilder b = new StringBuilder(name.length());
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (SPECIAL.indexOf(c) >= 0) {
                b.append('\\');
            }
            b.append(c);
        }
        return b.toString();
    }

    /**
     * Compresses names into pattern text that matches exactly those names: {@code node001, node002, node003,
     * node005} gives {@code node[001-003,005]}. Names are grouped by what surrounds their last run of digits;
     * groups appear in the order of their first name. Repeated names count once.
     *
     * @throws IllegalArgumentException when there are no names or one is empty
     */
    public static String compress(Collection<String> names) {
        if (names.isEmpty()) {
            throw new IllegalArgumentException("no names to compress");
        }
        // key: escaped prefix, escaped suffix, width (0 = plain numbers); value: the numbers
        record Key(String prefix, String suffix, int width) {
        }
        Map<Object, TreeSet<Long>> groups = new LinkedHashMap<>();
        Map<Key, List<String>> plainByKey = new LinkedHashMap<>();
        for (String name : new LinkedHashSet<>(names)) {
            if (name.isEmpty()) {
                throw new IllegalArgumentException("cannot compress an empty name");
            }
            int end = name.length();
            while (end > 0 && !isDigit(name.charAt(end - 1))) {
                end--;
            }
            int start = end;
            while (start > 0 && isDigit(name.charAt(start - 1))) {
                start--;
            }
            String digits = name.substring(start, end);
            if (digits.isEmpty() || digits.length() > MAX_DIGITS) {
                groups.put(name, null);
                continue;
            }
            Key key = new Key(escape(name.substring(0, start)), escape(name.substring(end)),
                    hasLeadingZero(digits) ? digits.length() : 0);
            groups.computeIfAbsent(key, k -> new TreeSet<>()).add(Long.parseLong(digits));
            if (key.width() == 0) {
                plainByKey.computeIfAbsent(key, k -> new ArrayList<>()).add(digits);
            }
        }
        // plain numbers as wide as a padded group of the same prefix and suffix read the same padded: join it
        for (Map.Entry<Key, List<String>> e : plainByKey.entrySet()) {
            Key plain = e.getKey();
            TreeSet<Long> plainNums = groups.get(plain);
            for (String digits : e.getValue()) {
                TreeSet<Long> padded = groups.get(new Key(plain.prefix(), plain.suffix(), digits.length()));
                if (digits.length() > 1 && padded != null) {
                    long n = Long.parseLong(digits);
                    padded.add(n);
                    plainNums.remove(n);
                }
            }
            if (plainNums.isEmpty()) {
                groups.remove(plain);
            }
        }
        List<String> parts = new ArrayList<>();
        for (Map.Entry<Object, TreeSet<Long>> e : groups.entrySet()) {
            if (!(e.getKey() instanceof Key k)) {
                parts.add(escape((String) e.getKey()));
                continue;
            }
            TreeSet<Long> nums = e.getValue();
            Range fmt = new Range(0, 0, k.width());
            if (nums.size() == 1) {
                parts.add(k.prefix() + fmt.format(nums.first()) + k.suffix());
                continue;
            }
            List<String> items = new ArrayList<>();
            Long runStart = null;
            long prev = 0;
            for (long n : nums) {
                if (runStart != null && n == prev + 1) {
                    prev = n;
                    continue;
                }
                if (runStart != null) {
                    items.add(item(fmt, runStart, prev));
                }
                runStart = n;
                prev = n;
            }
            items.add(item(fmt, runStart, prev));
            parts.add(k.prefix() + "[" + String.join(",", items) + "]" + k.suffix());
        }
        return String.join(",", parts);
    }

    private static String item(Range fmt, long lo, long hi) {
        return lo == hi ? fmt.format(lo) : fmt.format(lo) + "-" + fmt.format(hi);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NamePattern p && p.text.equals(text);
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }

    @Override
    public String toString() {
        return text;
    }
}
