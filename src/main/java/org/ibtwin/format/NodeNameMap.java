package org.ibtwin.format;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The node name map the infiniband-diags tools read ({@code --node-name-map FILE}, else
 * {@value #DEFAULT_PATH} when it exists): one node a line, {@code GUID "name"} (or the name unquoted, up to a
 * {@code #}), GUIDs as C's strtoull reads them (0x hexadecimal, 0 octal, else decimal); blank lines and lines whose
 * first non-blank character is {@code #} are skipped, a {@code #} after the name starts a comment. The first entry
 * for a GUID wins. A node the map does not name is shown by its description, control characters made blanks.
 */
public final class NodeNameMap {
    /** Where the tools look when no map is given. */
    public static final String DEFAULT_PATH = "/etc/infiniband-diags/ib-node-name-map";
    /** The 64 bytes of a NodeDescription. */
    private static final int DESC_SIZE = 64;

    private static final NodeNameMap EMPTY = new NodeNameMap(Map.of());

    private final Map<Long, String> names;

    private NodeNameMap(Map<Long, String> names) {
        this.names = names;
    }

    /** No names: every node shows its description. */
    public static NodeNameMap empty() {
        return EMPTY;
    }

    /**
     * The map named by the option, else the default file when it exists, else the empty map.
     *
     * @throws FormatException naming the file (and line) when the file cannot be read or a line is not an entry
     */
    public static NodeNameMap open(String option) {
        if (option == null) {
            Path d = Path.of(DEFAULT_PATH);
            return Files.isRegularFile(d) ? read(d) : EMPTY;
        }
        return read(Path.of(option));
    }

    public static NodeNameMap read(Path file) {
        try {
            return parse(Files.readString(file, StandardCharsets.ISO_8859_1), file.toString());
        } catch (NoSuchFileException e) {
            throw new FormatException(file.toString(), 0, "no such file (node name map)");
        } catch (IOException e) {
            throw new FormatException(file.toString(), 0, "cannot read node name map: " + e.getMessage(), e);
        }
    }

    public static NodeNameMap parse(String text, String file) {
        Map<Long, String> names = new HashMap<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            int p = 0;
            while (p < line.length() && isSpace(line.charAt(p))) {
                p++;
            }
            if (p == line.length() || line.charAt(p) == '#') {
                continue;
            }
            int e = p;
            while (e < line.length() && !isSpace(line.charAt(e)) && line.charAt(e) != '#') {
                e++;
            }
            String word = line.substring(p, e);
            Long guid = Guid2LidFile.number(word);
            if (guid == null) {
                throw new FormatException(file, i + 1, "\"" + word + "\" is not a GUID (node name map lines are "
                        + "GUID \"name\", like 0x0002c90300000001 \"leaf01\")");
            }
            while (e < line.length() && isSpace(line.charAt(e))) {
                e++;
            }
            String name = firstToken(line.substring(e));
            if (name != null) {
                names.putIfAbsent(guid, name);
            }
        }
        return new NodeNameMap(Map.copyOf(names));
    }

    /** strtok(s, "\"#"): the first run of characters that are neither quote nor #, or null. */
    private static String firstToken(String s) {
        int a = 0;
        while (a < s.length() && (s.charAt(a) == '"' || s.charAt(a) == '#')) {
            a++;
        }
        if (a == s.length()) {
            return null;
        }
        int b = a;
        while (b < s.length() && s.charAt(b) != '"' && s.charAt(b) != '#') {
            b++;
        }
        return s.substring(a, b);
    }

    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == 0x0b;
    }

    /** How many GUIDs are named. */
    public int size() {
        return names.size();
    }

    /** The name for {@code guid}, or null. */
    public String get(long guid) {
        return names.get(guid);
    }

    /** What the tools show for a node: its mapped name, else its description cleaned. */
    public String name(long guid, String description) {
        String n = names.get(guid);
        return n != null ? n : clean(description);
    }

    /** A description as the tools print it: at most 64 characters, control characters made blanks. */
    public static String clean(String description) {
        String d = description.length() > DESC_SIZE ? description.substring(0, DESC_SIZE) : description;
        StringBuilder sb = null;
        for (int i = 0; i < d.length(); i++) {
            char c = d.charAt(i);
            if (c < 0x20 || c >= 0x7f) {
                if (sb == null) {
                    sb = new StringBuilder(d);
                }
                sb.setCharAt(i, ' ');
            }
        }
        return sb == null ? d : sb.toString();
    }
}
