package org.ibtwin.format;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A traffic file: one flow a line, {@code src dst [rate]}: the source and destination hosts (a node's topology id,
 * description or host name, as the console names nodes) and an optional cap on the flow's payload rate in Gb/s
 * ({@code 50}, {@code 12.5}; a unit suffix {@code G}/{@code Gb/s} is allowed). Blank lines and {@code #} comments
 * are skipped. The first bad line stops the reader with {@code file:line: message}.
 *
 * <pre>
 * # two flows into node003, one capped
 * node001 node003
 * node002 node003 25
 * </pre>
 */
public final class TrafficFile {
    private TrafficFile() {
    }

    /** One line: a flow from {@code src} to {@code dst}, capped at {@code gbps} (null: no cap of its own). */
    public record Line(int line, String src, String dst, Double gbps) {
    }

    public static List<Line> read(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new FormatException(file.toString(), 0, "cannot read: " + e.getMessage(), e);
        }
        return parse(text, file.toString());
    }

    /** Parses the text of a traffic file; {@code name} names it in messages. */
    public static List<Line> parse(String text, String name) {
        List<Line> out = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String s = lines[i];
            int hash = s.indexOf('#');
            if (hash >= 0) {
                s = s.substring(0, hash);
            }
            s = s.strip();
            if (s.isEmpty()) {
                continue;
            }
            int no = i + 1;
            String[] w = s.split("\\s+");
            if (w.length < 2 || w.length > 3) {
                throw new FormatException(name, no, "expected \"src dst [rate Gb/s]\", got \"" + s + "\"");
            }
            if (w[0].equals(w[1])) {
                throw new FormatException(name, no, "a flow from \"" + w[0] + "\" to itself");
            }
            Double gbps = null;
            if (w.length == 3) {
                gbps = rate(w[2]);
                if (gbps == null) {
                    throw new FormatException(name, no, "rate \"" + w[2] + "\" is not a positive number of Gb/s");
                }
            }
            out.add(new Line(no, w[0], w[1], gbps));
        }
        if (out.isEmpty()) {
            throw new FormatException(name, 0, "no flows (lines \"src dst [rate Gb/s]\")");
        }
        return out;
    }

    private static Double rate(String s) {
        String t = s.toLowerCase(Locale.ROOT);
        for (String unit : new String[] {"gb/s", "gbps", "g"}) {
            if (t.endsWith(unit)) {
                t = t.substring(0, t.length() - unit.length());
                break;
            }
        }
        try {
            double v = Double.parseDouble(t);
            return v > 0 && Double.isFinite(v) ? v : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** The text of a traffic file for {@code lines}, one flow a line. */
    public static String format(List<Line> lines) {
        StringBuilder sb = new StringBuilder();
        for (Line l : lines) {
            sb.append(l.src()).append(' ').append(l.dst());
            if (l.gbps() != null) {
                sb.append(' ').append(l.gbps());
            }
            sb.append('\n');
        }
        return sb.toString();
    }
}
