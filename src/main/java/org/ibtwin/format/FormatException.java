package org.ibtwin.format;

import java.io.Serial;

/**
 * A file ibtwin reads is wrong: malformed, of the wrong shape, or naming something that is not there. The message
 * reads like a compiler's: {@code file:line: message}, or {@code file: message} when the line is not known.
 */
public final class FormatException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final String file;
    private final int line;
    private final String message;

    /**
     * @param file    the file as the user named it
     * @param line    1-based line, 0 when unknown
     * @param message what is wrong, lower case, without the location
     */
    public FormatException(String file, int line, String message) {
        this(file, line, message, null);
    }

    public FormatException(String file, int line, String message, Throwable cause) {
        super(oneLine(message), cause);
        this.file = file;
        this.line = Math.max(0, line);
        this.message = oneLine(message);
    }

    /**
     * The message on one line whatever the file held: a quoted token that spans lines (a P_Key, a membership, a
     * GUID with a line break inside) shows its line breaks and other control characters escaped ({@code \n},
     * {@code \r}, {@code \x01}), as the one line a bad input is reported in.
     */
    static String oneLine(String s) {
        if (s == null) {
            return null;
        }
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if ((c >= 0x20 && c != 0x7f) || c == '\t') {
                if (b != null) {
                    b.append(c);
                }
                continue;
            }
            if (b == null) {
                b = new StringBuilder(s.length() + 8).append(s, 0, i);
            }
            b.append(c == '\n' ? "\\n" : c == '\r' ? "\\r" : String.format("\\x%02x", (int) c));
        }
        return b == null ? s : b.toString();
    }

    /** The file as the user named it. */
    public String file() {
        return file;
    }

    /** The 1-based line, 0 when unknown. */
    public int line() {
        return line;
    }

    /** The message without the location. */
    public String message() {
        return message;
    }

    @Override
    public String getMessage() {
        return line > 0 ? file + ":" + line + ": " + message : file + ": " + message;
    }
}
