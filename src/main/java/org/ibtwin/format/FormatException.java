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
        super(message, cause);
        this.file = file;
        this.line = Math.max(0, line);
        this.message = message;
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
