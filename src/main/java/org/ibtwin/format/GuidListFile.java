package org.ibtwin.format;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * OpenSM's GUID list files (root_guid_file, cn_guid_file, io_guid_file): one GUID a line, hexadecimal with 0x or
 * decimal, optionally followed by text that is ignored; blank lines and lines starting with {@code #} are skipped.
 * A line whose first word is not a number makes the whole file unusable, as it does for OpenSM.
 */
public final class GuidListFile {
    private GuidListFile() {
    }

    /** The GUIDs of {@code file}, in file order. */
    public static List<Long> read(Path file) {
        return parse(TextFiles.read(file), file.toString());
    }

    public static List<Long> parse(String text, String name) {
        List<Long> out = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String t = lines[i].strip();
            if (t.isEmpty() || t.startsWith("#")) {
                continue;
            }
            String first = t.split("[\\s#]", 2)[0];
            Long g = Guid2LidFile.number(first);
            if (g == null) {
                throw new FormatException(name, i + 1, "\"" + first + "\" is not a GUID (one GUID a line, like "
                        + "0x0002c90300000001)");
            }
            out.add(g);
        }
        return out;
    }
}
