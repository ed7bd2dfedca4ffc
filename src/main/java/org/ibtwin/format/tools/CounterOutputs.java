package org.ibtwin.format.tools;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ibtwin.format.FormatException;

/**
 * Readers for counter outputs: perfquery (PortCounters and -x PortCountersExtended blocks, one port, -l loops, -a)
 * and ibqueryerrors (the counters over its thresholds, per port). A file may carry the time it was taken: a line
 * of {@code date} output ({@code Mon Nov 30 05:00:00 UTC 2026}) or an ISO time ({@code 2026-11-30T05:00:00Z});
 * each block gets the last such line above it, so one file can hold readings taken at two times.
 */
public final class CounterOutputs {
    /** perfquery's block for one port (port 255 is the -a sum). */
    public record PerfBlock(int lid, int port, boolean extended, Map<String, Long> fields, Instant time, int line) {
    }

    /**
     * One ibqueryerrors port line.
     *
     * @param switchGuid the switch's GUID from its "Errors for 0x... " header, null for a CA
     * @param port       the port, -1 for "ALL"
     */
    public record ErrorLine(String nodeDesc, Long switchGuid, long portGuid, int port, Map<String, Long> counters,
                            Instant time, int line) {
    }

    private static final Pattern PERF_HEAD = Pattern.compile(
            "^# Port (extended )?counters: Lid (\\d+) port (\\d+)\\b.*$");
    private static final Pattern FIELD = Pattern.compile("^(\\w+):\\.*(\\S+)\\s*$");
    private static final Pattern QERR_HEAD = Pattern.compile("^Errors for (?:(0x[0-9a-fA-F]+) )?\"(.*)\"\\s*$");
    private static final Pattern QERR_PORT = Pattern.compile("^\\s+GUID (0x[0-9a-fA-F]+) port (\\d+|ALL):(.*)$");
    private static final Pattern COUNTER = Pattern.compile("\\[(\\w+) == (\\d+)(?: \\([^)]*\\))?\\]");
    private static final Pattern ISO = Pattern.compile(
            "^#?\\s*(\\d{4}-\\d{2}-\\d{2}[T ]\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d+)?)?(?:Z|[+-]\\d{2}:?\\d{2})?)\\s*$");
    private static final Pattern DATE = Pattern.compile(
            "^#?\\s*(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ((?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)"
                    + " +\\d{1,2} \\d{2}:\\d{2}:\\d{2})(?: ([A-Z]{2,5}|[+-]\\d{4}))? (\\d{4})\\s*$");

    private CounterOutputs() {
    }

    public static List<PerfBlock> perfquery(String text, String file) {
        List<PerfBlock> out = new ArrayList<>();
        String[] lines = Text.lines(text);
        Instant time = null;
        Map<String, Long> fields = null;
        int lid = 0;
        int port = 0;
        boolean ext = false;
        int head = 0;
        for (int i = 0; i <= lines.length; i++) {
            String l = i < lines.length ? lines[i] : "# Port counters: Lid 0 port 0";
            int no = i + 1;
            Instant t = timestamp(l);
            Matcher h = PERF_HEAD.matcher(l);
            if (h.matches() || t != null || i == lines.length) {
                if (fields != null) {
                    out.add(new PerfBlock(lid, port, ext, fields, time, head));
                    fields = null;
                }
                if (t != null) {
                    time = t;
                    continue;
                }
                if (i == lines.length) {
                    break;
                }
                ext = h.group(1) != null;
                lid = Text.integer(h.group(2), file, no, "lid");
                port = Text.integer(h.group(3), file, no, "port");
                head = no;
                fields = new LinkedHashMap<>();
                continue;
            }
            if (l.isBlank() || l.startsWith("ibwarn") || l.startsWith("#")) {
                continue;
            }
            Matcher f = FIELD.matcher(l);
            if (fields != null && f.matches()) {
                fields.put(f.group(1), Text.number(f.group(2), file, no, f.group(1)));
            } else if (fields != null && l.matches("^\\w+:\\.+.*")) {
                throw new FormatException(file, no, "perfquery field line not understood: "
                        + DiscoveryOutputs.abbreviate(l.strip()));
            }
        }
        return out;
    }

    public static List<ErrorLine> ibqueryerrors(String text, String file) {
        List<ErrorLine> out = new ArrayList<>();
        String[] lines = Text.lines(text);
        String desc = null;
        Long swGuid = null;
        Instant time = null;
        for (int i = 0; i < lines.length; i++) {
            String l = lines[i];
            int no = i + 1;
            Instant t = timestamp(l);
            if (t != null) {
                time = t;
                continue;
            }
            Matcher h = QERR_HEAD.matcher(l);
            if (h.matches()) {
                desc = h.group(2);
                swGuid = h.group(1) == null ? null : Text.guid(h.group(1), file, no);
                continue;
            }
            Matcher p = QERR_PORT.matcher(l);
            if (!p.matches()) {
                continue;
            }
            if (desc == null) {
                throw new FormatException(file, no, "ibqueryerrors port line before any \"Errors for\" line");
            }
            Map<String, Long> counters = new LinkedHashMap<>();
            Matcher c = COUNTER.matcher(p.group(3));
            while (c.find()) {
                counters.put(c.group(1), Text.number(c.group(2), file, no, c.group(1)));
            }
            if (counters.isEmpty() && !p.group(3).isBlank()) {
                throw new FormatException(file, no, "no [Counter == value] on ibqueryerrors port line");
            }
            out.add(new ErrorLine(desc, swGuid, Text.guid(p.group(1), file, no), p.group(2).equals("ALL") ? -1
                    : Text.integer(p.group(2), file, no, "port"), counters, time, no));
        }
        return out;
    }

    /** The time a line states, or null. */
    public static Instant timestamp(String line) {
        Matcher iso = ISO.matcher(line);
        if (iso.matches()) {
            String s = iso.group(1).replace(' ', 'T');
            try {
                return OffsetDateTime.parse(s.matches(".*[+-]\\d{4}$") ? s.substring(0, s.length() - 2) + ":"
                        + s.substring(s.length() - 2) : s).toInstant();
            } catch (DateTimeParseException e) {
                try {
                    return LocalDateTime.parse(s.length() == 16 ? s + ":00" : s).toInstant(ZoneOffset.UTC);
                } catch (DateTimeParseException e2) {
                    return null;
                }
            }
        }
        Matcher d = DATE.matcher(line);
        if (d.matches()) {
            String zone = d.group(2) == null ? "UTC" : d.group(2);
            String s = d.group(1).replaceAll(" +", " ") + " " + d.group(3);
            try {
                LocalDateTime ldt = LocalDateTime.parse(s, DateTimeFormatter.ofPattern("MMM d HH:mm:ss yyyy",
                        Locale.ROOT));
                if (zone.matches("[+-]\\d{4}")) {
                    return ldt.toInstant(ZoneOffset.of(zone));
                }
                ZonedDateTime z = ldt.atZone(zone.equals("UTC") || zone.equals("GMT") ? ZoneOffset.UTC
                        : java.time.ZoneId.of(zone, java.time.ZoneId.SHORT_IDS));
                return z.toInstant();
            } catch (java.time.DateTimeException e) {
                return null;
            }
        }
        return null;
    }
}
