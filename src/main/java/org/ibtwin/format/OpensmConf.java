package org.ibtwin.format;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * OpenSM's configuration file (opensm.conf, {@code opensm -F}; {@code opensm -c} writes one): {@code name value}
 * lines, the value the rest of the line ({@code (null)} for none), {@code #} comments, blank lines; a name given
 * twice keeps the last. The reader knows OpenSM's option names and the values {@code opensm -c} writes for them
 * (OpenSM 3.3.23), so a caller can tell an option it does not use from a name OpenSM does not know.
 *
 * <p>One reader ({@link #parse}, {@link #read}) and one writer ({@link #write}); bad input is a
 * {@link FormatException} naming {@code file:line}.
 */
public final class OpensmConf {
    /** One setting, with its line (1-based). */
    public record Entry(String name, String value, int line) {
        /** The value, null for OpenSM's {@code (null)}. */
        public String valueOrNull() {
            return "(null)".equals(value) ? null : value;
        }
    }

    /** One option to write: its comment lines (without "# "), name and value. */
    public record Option(List<String> comment, String name, String value) {
    }

    private static final Map<String, String> OPENSM_DEFAULTS = loadDefaults();

    private final String file;
    private final Map<String, Entry> entries;

    private OpensmConf(String file, Map<String, Entry> entries) {
        this.file = file;
        this.entries = Collections.unmodifiableMap(entries);
    }

    /** The file's name as messages give it. */
    public String file() {
        return file;
    }

    /** Every setting, in the order of the lines that set them (a repeated name at its last line). */
    public List<Entry> entries() {
        List<Entry> out = new ArrayList<>(entries.values());
        out.sort((a, b) -> Integer.compare(a.line(), b.line()));
        return out;
    }

    /** The setting of {@code name}, or null when the file does not set it. */
    public Entry get(String name) {
        return entries.get(name);
    }

    /** Whether OpenSM has an option of this name. */
    public static boolean isOpensmOption(String name) {
        return OPENSM_DEFAULTS.containsKey(name);
    }

    /** The value {@code opensm -c} writes for option {@code name}, or null for a name OpenSM does not know. */
    public static String opensmDefault(String name) {
        return OPENSM_DEFAULTS.get(name);
    }

    public static OpensmConf read(Path file) {
        return parse(TextFiles.read(file), file.toString());
    }

    public static OpensmConf parse(String text, String name) {
        Map<String, Entry> out = new LinkedHashMap<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String t = lines[i].strip();
            if (t.isEmpty() || t.startsWith("#")) {
                continue;
            }
            int sp = 0;
            while (sp < t.length() && !Character.isWhitespace(t.charAt(sp))) {
                sp++;
            }
            String key = t.substring(0, sp);
            String value = t.substring(sp).strip();
            if (value.isEmpty()) {
                throw new FormatException(name, i + 1, "option " + key + " has no value (\"" + key
                        + " <value>\"; (null) for none)");
            }
            out.remove(key);
            out.put(key, new Entry(key, value, i + 1));
        }
        return new OpensmConf(name, out);
    }

    /** The file's text for {@code options}: each option's comment lines, then {@code name value}, a blank line. */
    public static String write(String title, List<Option> options) {
        StringBuilder sb = new StringBuilder();
        for (String l : title.split("\n")) {
            sb.append("# ").append(l).append('\n');
        }
        sb.append('\n');
        for (Option o : options) {
            for (String c : o.comment()) {
                sb.append("# ").append(c).append('\n');
            }
            sb.append(o.name()).append(' ').append(o.value() == null ? "(null)" : o.value()).append("\n\n");
        }
        return sb.toString();
    }

    /** OpenSM's TRUE/FALSE (any case); anything else is a {@link FormatException} at the entry's line. */
    public boolean bool(Entry e) {
        String v = e.value().toUpperCase(Locale.ROOT);
        if (v.equals("TRUE")) {
            return true;
        }
        if (v.equals("FALSE")) {
            return false;
        }
        throw new FormatException(file, e.line(), e.name() + ": \"" + e.value() + "\" is not TRUE or FALSE");
    }

    /** An integer as OpenSM reads one (strtol, base 0: 0x hex, leading 0 octal, else decimal) in [min, max]. */
    public long number(Entry e, long min, long max) {
        String v = e.value();
        long x;
        try {
            boolean neg = v.startsWith("-");
            String u = neg ? v.substring(1) : v;
            if (u.startsWith("0x") || u.startsWith("0X")) {
                x = Long.parseUnsignedLong(u.substring(2), 16);
            } else if (u.length() > 1 && u.startsWith("0")) {
                x = Long.parseLong(u.substring(1), 8);
            } else {
                x = Long.parseLong(u);
            }
            x = neg ? -x : x;
        } catch (NumberFormatException ex) {
            throw new FormatException(file, e.line(), e.name() + ": \"" + v + "\" is not a number");
        }
        if (min <= max && (x < min || x > max)) {
            throw new FormatException(file, e.line(), e.name() + ": " + v + " is out of range (" + min + ".." + max
                    + ")");
        }
        return x;
    }

    private static Map<String, String> loadDefaults() {
        Map<String, String> m = new LinkedHashMap<>();
        try (InputStream in = OpensmConf.class.getResourceAsStream("opensm-options.txt")) {
            if (in == null) {
                throw new IllegalStateException("opensm-options.txt missing from the jar");
            }
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                String t = line.strip();
                if (t.isEmpty() || t.startsWith("#")) {
                    continue;
                }
                int sp = t.indexOf(' ');
                m.put(sp < 0 ? t : t.substring(0, sp), sp < 0 ? "" : t.substring(sp + 1).strip());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Collections.unmodifiableMap(m);
    }
}
