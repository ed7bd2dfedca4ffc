package org.ibtwin.whatif;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.ibtwin.format.FormatException;
import org.ibtwin.format.TextFiles;

/**
 * A changes file: one change a line, as the command line writes it ({@code --pull-cable leaf01/36}, the dashes
 * optional, {@code =} or a space before the value), blank lines and {@code #} comments ignored. A partitions file it
 * names is read relative to the changes file's directory. Bad input is one {@code file:line: ...} error.
 */
public final class Changes {
    private Changes() {
    }

    /** The change an option of the command line gives. */
    public static Change option(String name, String value) {
        return Change.parse(name, value, "--" + name, null);
    }

    /** Reads a changes file. */
    public static List<Change> read(Path file) {
        List<String> lines = TextFiles.read(file).lines().toList();
        Path base = file.toAbsolutePath().getParent();
        List<Change> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            int hash = l.indexOf('#');
            if (hash >= 0) {
                l = l.substring(0, hash);
            }
            l = l.strip();
            if (l.isEmpty()) {
                continue;
            }
            String where = file + ":" + (i + 1);
            String name = l;
            String value = null;
            int cut = indexOfSeparator(l);
            if (cut >= 0) {
                name = l.substring(0, cut);
                value = l.substring(cut + 1).strip();
            }
            if (name.startsWith("--")) {
                name = name.substring(2);
            }
            if (!Change.NAMES.contains(name)) {
                throw new FormatException(file.toString(), i + 1, "unknown change \"" + name + "\" (one of "
                        + String.join(", ", Change.NAMES) + ")");
            }
            if (value == null && !name.equals("kill-sm")) {
                throw new FormatException(file.toString(), i + 1, name + " needs a value");
            }
            try {
                out.add(Change.parse(name, value, where, base));
            } catch (IllegalArgumentException e) {
                String m = e.getMessage();
                throw new FormatException(file.toString(), i + 1, m.startsWith(where + ": ")
                        ? m.substring(where.length() + 2) : m);
            } catch (FormatException e) {
                throw new FormatException(file.toString(), i + 1, e.getMessage());
            }
        }
        if (out.isEmpty()) {
            throw new FormatException(file.toString(), 0, "no change in the file");
        }
        return out;
    }

    private static int indexOfSeparator(String l) {
        for (int i = 0; i < l.length(); i++) {
            char c = l.charAt(i);
            if (c == '=' || Character.isWhitespace(c)) {
                return i;
            }
        }
        return -1;
    }
}
