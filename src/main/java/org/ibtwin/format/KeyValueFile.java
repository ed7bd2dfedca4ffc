package org.ibtwin.format;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
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
        try {
            return parse(Files.readString(file, StandardCharsets.UTF_8), file.toString());
        } catch (NoSuchFileException e) {
            throw new FormatException(file.toString(), 0, "no such file");
        } catch (java.nio.charset.MalformedInputException e) {
            throw new FormatException(file.toString(), 0, "not a text file (invalid UTF-8)");
        } catch (IOException e) {
            throw new FormatException(file.toString(), 0, "cannot read: " + e.getMessage());
        }
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
