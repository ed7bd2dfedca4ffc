package org.ibtwin.format;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * OpenSM's guid2lid file, the LIDs an SM gave out, so a restarted SM (or a new master) keeps them. One entry per
 * port GUID: the GUID, then the first and last LID of its range, each entry followed by a blank line, as OpenSM's
 * database writes it:
 *
 * <pre>
 * 0x0002c90300000003 0x0006 0x0006
 *
 * 0x0002c90380000000 0x0001 0x0001
 * </pre>
 *
 * Numbers may be hexadecimal (0x) or decimal, as OpenSM's strtoul reads them. A bad entry does not stop an SM:
 * OpenSM logs it and goes on without it, and so does {@link #read}, which returns the good entries and one
 * {@code file:line: message} per bad one. LIDs must be unicast (below 0xC000), the first at most the last.
 */
public final class Guid2LidFile {
    /** The highest unicast LID. */
    public static final int MAX_UNICAST_LID = 0xBFFF;

    private Guid2LidFile() {
    }

    /** A port's LID range. */
    public record Range(int first, int last) {
        public Range {
            if (first < 1 || last > MAX_UNICAST_LID || first > last) {
                throw new IllegalArgumentException("not a unicast LID range: " + first + ".." + last);
            }
        }

        public int size() {
            return last - first + 1;
        }
    }

    /** What a file held: its good entries by port GUID, and what was wrong with the rest. */
    public record Contents(Map<Long, Range> entries, List<String> problems) {
    }

    /** Reads {@code file}; a missing file is empty (an SM's first run). */
    public static Contents read(Path file) {
        if (!Files.exists(file) && !Files.isSymbolicLink(file)) {
            return new Contents(Map.of(), List.of());
        }
        return parse(TextFiles.read(file), file.toString());
    }

    /** Parses guid2lid text; {@code name} is the file name for messages. */
    public static Contents parse(String text, String name) {
        Map<Long, Range> entries = new TreeMap<>(Long::compareUnsigned);
        List<String> problems = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].endsWith("\r") ? lines[i].substring(0, lines[i].length() - 1) : lines[i];
            int no = i + 1;
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            if (Character.isWhitespace(line.charAt(0))) {
                problems.add(new FormatException(name, no, "a line that is not an entry (entries start in the "
                        + "first column: \"0x<port guid> <first lid> <last lid>\")").getMessage());
                continue;
            }
            String[] w = line.strip().split("\\s+");
            if (w.length < 3) {
                problems.add(new FormatException(name, no, "expected \"0x<port guid> <first lid> <last lid>\", got \""
                        + line.strip() + "\"").getMessage());
                continue;
            }
            Long guid = number(w[0]);
            Long first = number(w[1]);
            Long last = number(w[2]);
            if (guid == null) {
                problems.add(new FormatException(name, no, "\"" + w[0] + "\" is not a GUID").getMessage());
            } else if (first == null || last == null || first < 1 || last > MAX_UNICAST_LID || first > last) {
                problems.add(new FormatException(name, no, "\"" + w[1] + " " + w[2] + "\" is not a unicast LID range "
                        + "(1..0xbfff, first <= last)").getMessage());
            } else if (entries.containsKey(guid)) {
                problems.add(new FormatException(name, no, String.format("GUID 0x%016x appears again; the first "
                        + "entry is kept", guid)).getMessage());
            } else {
                entries.put(guid, new Range(first.intValue(), last.intValue()));
            }
        }
        return new Contents(entries, problems);
    }

    /** The file's text for {@code entries}, GUIDs in ascending order, each entry followed by a blank line. */
    public static String format(Map<Long, Range> entries) {
        TreeMap<Long, Range> sorted = new TreeMap<>(Long::compareUnsigned);
        sorted.putAll(entries);
        StringBuilder sb = new StringBuilder(sorted.size() * 36);
        for (Map.Entry<Long, Range> e : sorted.entrySet()) {
            sb.append(String.format("0x%016x 0x%04x 0x%04x\n\n", e.getKey(), e.getValue().first(),
                    e.getValue().last()));
        }
        return sb.toString();
    }

    /** Writes {@code entries} to {@code file} through a temporary file renamed over it, as OpenSM does. */
    public static void write(Path file, Map<Long, Range> entries) {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            Path dir = file.toAbsolutePath().getParent();
            if (dir != null) {
                Files.createDirectories(dir);
            }
            Files.writeString(tmp, format(entries), StandardCharsets.UTF_8);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /** strtoul/strtoull with base 0: 0x hex, leading 0 octal, else decimal; null when not a number. */
    static Long number(String s) {
        try {
            if (s.startsWith("0x") || s.startsWith("0X")) {
                return Long.parseUnsignedLong(s.substring(2), 16);
            }
            if (s.length() > 1 && s.startsWith("0")) {
                return Long.parseUnsignedLong(s.substring(1), 8);
            }
            return Long.parseUnsignedLong(s);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
