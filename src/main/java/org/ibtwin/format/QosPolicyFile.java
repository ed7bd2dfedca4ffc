package org.ibtwin.format;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * OpenSM's QoS policy file ({@code qos_policy_file}, {@code qos-policy.conf}), the part ibtwin implements: the
 * {@code qos-ulps} section (the simplified policy: {@code default}, {@code any} with {@code service-id},
 * {@code pkey}, {@code target-port-guid}, {@code source-port-guid} or {@code port-guid}, {@code sdp}, {@code rds}
 * and {@code iser} with an optional {@code port-num}, {@code srp} with {@code target-port-guid}, {@code ipoib} with
 * an optional {@code pkey}; each {@code ulp[, criterion values] : sl}) and the {@code qos-levels} section's
 * {@code qos-level} blocks ({@code name}, {@code use}, {@code sl}; the level named {@code DEFAULT} gives the SL of
 * what no ULP rule matches). Values are numbers (decimal or 0x hex) or ranges {@code a-b}, comma separated.
 *
 * <p>Another section ({@code port-groups}, {@code qos-setup}, {@code qos-match-rules}, or one OpenSM does not
 * know), a ULP or criterion ibtwin does not implement, and a qos-level keyword other than those three, are each one
 * warning {@code file:line: ...} and left out; bad syntax (a rule without {@code : sl}, an SL out of 0..15, a
 * number that is not one, a section without its end) is a {@link FormatException}.
 */
public record QosPolicyFile(String file, List<UlpRule> ulps, List<Level> levels, List<String> warnings) {
    /**
     * @param file     the file as named
     * @param ulps     the qos-ulps rules ibtwin implements, in the file's order
     * @param levels   the qos-levels, in the file's order
     * @param warnings one line each, {@code file:line: ...}: what was left out
     */
    public QosPolicyFile {
        ulps = List.copyOf(ulps);
        levels = List.copyOf(levels);
        warnings = List.copyOf(warnings);
    }

    /** The ULPs of the qos-ulps section. */
    public enum Ulp {
        DEFAULT, ANY, SDP, RDS, ISER, SRP, IPOIB
    }

    /** What a ULP rule matches on ({@link Ulp#DEFAULT} and a bare ULP: {@link #NONE}). */
    public enum Criterion {
        NONE, SERVICE_ID, PKEY, TARGET_PORT_GUID, SOURCE_PORT_GUID, PORT_GUID, PORT_NUM
    }

    /** An inclusive range of unsigned 64-bit values. */
    public record Range(long from, long to) {
    }

    /** One qos-ulps line: {@code ulp[, criterion values] : sl}, at {@code line}. */
    public record UlpRule(int line, Ulp ulp, Criterion criterion, List<Range> values, int sl) {
        public UlpRule {
            values = List.copyOf(values);
        }
    }

    /** One qos-level: its name and SL (-1: none given). */
    public record Level(int line, String name, int sl) {
    }

    private static final Set<String> OTHER_SECTIONS = Set.of("port-groups", "qos-setup", "qos-match-rules");
    private static final Set<String> LEVEL_KEYWORDS_IGNORED = Set.of("mtu-limit", "rate-limit", "packet-life",
            "path-bits", "pkey");

    public static QosPolicyFile read(Path path) {
        return parse(TextFiles.read(path), path.toString());
    }

    public static QosPolicyFile parse(String text, String file) {
        String[] lines = text.split("\n", -1);
        List<UlpRule> ulps = new ArrayList<>();
        List<Level> levels = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        for (int i = 0; i < lines.length; i++) {
            String l = strip(lines[i]);
            if (l.isEmpty()) {
                continue;
            }
            int at = i + 1;
            String word = l.toLowerCase(Locale.ROOT);
            if (word.equals("qos-ulps")) {
                i = ulps(lines, i + 1, file, at, ulps, warnings);
            } else if (word.equals("qos-levels")) {
                i = levels(lines, i + 1, file, at, levels, warnings);
            } else if (word.matches("[a-z0-9-]+") && !word.startsWith("end-")) {
                warnings.add(file + ":" + at + ": " + (OTHER_SECTIONS.contains(word)
                        ? "section " + word + " is not implemented by ibtwin" : "unknown section " + word)
                        + "; ignored");
                i = end(lines, i + 1, file, at, word);
            } else {
                throw new FormatException(file, at, "expected a section (qos-ulps, qos-levels, ...), got '" + l
                        + "'");
            }
        }
        return new QosPolicyFile(file, ulps, levels, warnings);
    }

    /** The line index of {@code end-word}, from {@code i}. */
    private static int end(String[] lines, int i, String file, int at, String word) {
        for (; i < lines.length; i++) {
            if (strip(lines[i]).equalsIgnoreCase("end-" + word)) {
                return i;
            }
        }
        throw new FormatException(file, at, word + ": no end-" + word);
    }

    private static int ulps(String[] lines, int i, String file, int at, List<UlpRule> out, List<String> warnings) {
        for (; i < lines.length; i++) {
            String l = strip(lines[i]);
            int n = i + 1;
            if (l.isEmpty()) {
                continue;
            }
            if (l.equalsIgnoreCase("end-qos-ulps")) {
                return i;
            }
            int colon = l.lastIndexOf(':');
            if (colon < 0) {
                throw new FormatException(file, n, "expected 'ulp[, criterion values] : sl', got '" + l + "'");
            }
            int sl = sl(l.substring(colon + 1).strip(), file, n);
            String head = l.substring(0, colon).strip();
            int comma = head.indexOf(',');
            String name = (comma < 0 ? head : head.substring(0, comma)).strip().toLowerCase(Locale.ROOT);
            String rest = comma < 0 ? "" : head.substring(comma + 1).strip();
            Ulp ulp = switch (name) {
                case "default" -> Ulp.DEFAULT;
                case "any" -> Ulp.ANY;
                case "sdp" -> Ulp.SDP;
                case "rds" -> Ulp.RDS;
                case "iser" -> Ulp.ISER;
                case "srp" -> Ulp.SRP;
                case "ipoib" -> Ulp.IPOIB;
                default -> null;
            };
            if (ulp == null) {
                warnings.add(file + ":" + n + ": unknown ULP " + name + "; rule ignored");
                continue;
            }
            if (rest.isEmpty()) {
                if (ulp == Ulp.ANY || ulp == Ulp.SRP) {
                    throw new FormatException(file, n, name + ": a criterion is needed (" + (ulp == Ulp.SRP
                            ? "target-port-guid" : "service-id, pkey, target-port-guid, source-port-guid, port-guid")
                            + ")");
                }
                out.add(new UlpRule(n, ulp, Criterion.NONE, List.of(), sl));
                continue;
            }
            if (ulp == Ulp.DEFAULT) {
                throw new FormatException(file, n, "default takes no criterion, got '" + rest + "'");
            }
            String[] kv = rest.split("\\s+", 2);
            String key = kv[0].toLowerCase(Locale.ROOT);
            Criterion c = switch (key) {
                case "service-id" -> Criterion.SERVICE_ID;
                case "pkey" -> Criterion.PKEY;
                case "target-port-guid" -> Criterion.TARGET_PORT_GUID;
                case "source-port-guid" -> Criterion.SOURCE_PORT_GUID;
                case "port-guid" -> Criterion.PORT_GUID;
                case "port-num" -> Criterion.PORT_NUM;
                default -> null;
            };
            boolean fits = c != null && switch (ulp) {
                case ANY -> c != Criterion.PORT_NUM;
                case SDP, RDS, ISER -> c == Criterion.PORT_NUM;
                case SRP -> c == Criterion.TARGET_PORT_GUID;
                case IPOIB -> c == Criterion.PKEY;
                default -> false;
            };
            if (!fits) {
                warnings.add(file + ":" + n + ": " + (c == null ? "unknown criterion " + key : name + ", " + key
                        + ": not implemented by ibtwin") + "; rule ignored");
                continue;
            }
            if (kv.length < 2 || kv[1].isBlank()) {
                throw new FormatException(file, n, key + ": no value");
            }
            out.add(new UlpRule(n, ulp, c, ranges(kv[1], file, n, key), sl));
        }
        throw new FormatException(file, at, "qos-ulps: no end-qos-ulps");
    }

    private static int levels(String[] lines, int i, String file, int at, List<Level> out, List<String> warnings) {
        int blockAt = -1;
        String name = null;
        int sl = -1;
        for (; i < lines.length; i++) {
            String l = strip(lines[i]);
            int n = i + 1;
            if (l.isEmpty()) {
                continue;
            }
            String low = l.toLowerCase(Locale.ROOT);
            if (blockAt < 0) {
                if (low.equals("end-qos-levels")) {
                    return i;
                }
                if (!low.equals("qos-level")) {
                    throw new FormatException(file, n, "expected qos-level or end-qos-levels, got '" + l + "'");
                }
                blockAt = n;
                name = null;
                sl = -1;
                continue;
            }
            if (low.equals("end-qos-level")) {
                if (name == null) {
                    throw new FormatException(file, blockAt, "qos-level without a name");
                }
                out.add(new Level(blockAt, name, sl));
                blockAt = -1;
                continue;
            }
            int colon = l.indexOf(':');
            if (colon < 0) {
                throw new FormatException(file, n, "expected 'keyword: value' or end-qos-level, got '" + l + "'");
            }
            String key = l.substring(0, colon).strip().toLowerCase(Locale.ROOT);
            String value = l.substring(colon + 1).strip();
            switch (key) {
                case "name" -> name = unquote(value);
                case "use" -> {
                    // a description
                }
                case "sl" -> sl = sl(value, file, n);
                default -> warnings.add(file + ":" + n + ": qos-level " + (LEVEL_KEYWORDS_IGNORED.contains(key)
                        ? key + " is not implemented by ibtwin" : "keyword " + key + " unknown") + "; ignored");
            }
        }
        throw new FormatException(file, blockAt > 0 ? blockAt : at, blockAt > 0 ? "qos-level: no end-qos-level"
                : "qos-levels: no end-qos-levels");
    }

    private static int sl(String v, String file, int line) {
        long sl = number(v, file, line, "sl");
        if (sl < 0 || sl > 15) {
            throw new FormatException(file, line, "sl " + v + ": not 0..15");
        }
        return (int) sl;
    }

    private static List<Range> ranges(String text, String file, int line, String key) {
        List<Range> out = new ArrayList<>();
        for (String part : text.split(",")) {
            String p = part.strip();
            int dash = p.indexOf('-');
            long a = number(dash < 0 ? p : p.substring(0, dash).strip(), file, line, key);
            long b = dash < 0 ? a : number(p.substring(dash + 1).strip(), file, line, key);
            if (Long.compareUnsigned(a, b) > 0) {
                throw new FormatException(file, line, key + " " + p + ": the range runs backwards");
            }
            out.add(new Range(a, b));
        }
        return out;
    }

    private static long number(String v, String file, int line, String what) {
        boolean hex = v.regionMatches(true, 0, "0x", 0, 2);
        try {
            return Long.parseUnsignedLong(hex ? v.substring(2) : v, hex ? 16 : 10);
        } catch (NumberFormatException e) {
            throw new FormatException(file, line, what + " '" + v + "': not a number");
        }
    }

    private static String unquote(String v) {
        return v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"") ? v.substring(1, v.length() - 1) : v;
    }

    /** The line without its comment, trimmed. */
    private static String strip(String l) {
        int hash = l.indexOf('#');
        return (hash < 0 ? l : l.substring(0, hash)).strip();
    }
}
