package org.ibtwin.format;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code name=value} lines, {@code #} comments and blank lines: the shape of infiniband-diags' error_thresholds file
 * (ibqueryerrors {@code --threshold-file}) and of doctor's thresholds file.
 */
public final class KeyValueFile {
    /** One setting and the line it is on. */
    public record Entry(String key, String value, int line) {
    }

    private KeyValueFile() {
    }

    public static List<Entry> read(Path file) {
        return parse(TextFiles.read(file), file.toString());
    }

    public static List<Entry> parse(String text, String name) {
        List<Entry> out = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String t = lines[i].strip();
            if (t.isEmpty() || t.startsWith("#")) {
                continue;
            }
            int eq = t.indexOf('=');
            if (eq <= 0) {
                throw new FormatException(name, i + 1, "expected name=value, got \"" + TopologyReader.abbreviate(t)
                        + "\"");
            }
            out.add(new Entry(t.substring(0, eq).strip(), t.substring(eq + 1).strip(), i + 1));
        }
        return out;
    }
}
