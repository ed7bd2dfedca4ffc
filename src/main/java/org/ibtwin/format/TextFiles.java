package org.ibtwin.format;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Reading the text files a user names, with one wording for what can go wrong, whichever reader meets it:
 * {@code file: no such file}, {@code file: is a directory}, {@code file: permission denied},
 * {@code file: not a text file (invalid UTF-8)}, else {@code file: cannot read: <why>}.
 */
public final class TextFiles {
    private TextFiles() {
    }

    /** The whole file as UTF-8 text; a {@link FormatException} naming {@code file} when it cannot be had. */
    public static String read(Path file) {
        return read(file, file.toString());
    }

    /** As {@link #read(Path)}, the file shown as {@code shown} in messages. */
    public static String read(Path file, String shown) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw failure(file, shown, e);
        }
    }

    /** A reader of the file as UTF-8 (malformed input reported by {@link #failure} when it is met). */
    public static BufferedReader open(Path file, String shown) {
        try {
            return Files.newBufferedReader(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw failure(file, shown, e);
        }
    }

    /** What went wrong reading {@code file}, as one line naming it. */
    public static FormatException failure(Path file, String shown, IOException e) {
        String why;
        if (e instanceof NoSuchFileException) {
            why = "no such file";
        } else if (Files.isDirectory(file)) {
            why = "is a directory";
        } else if (e instanceof CharacterCodingException) {
            why = "not a text file (invalid UTF-8)";
        } else if (e instanceof AccessDeniedException) {
            why = "permission denied";
        } else {
            why = "cannot read: " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
        }
        return new FormatException(shown, 0, why, e);
    }
}
