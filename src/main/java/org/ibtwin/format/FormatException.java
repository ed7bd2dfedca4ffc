package org.ibtwin.format;

/** Bad input in a file: carries the file and line so the message reads {@code file:line: what is wrong}. */
public final class FormatException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String file;
    private final int line;
    private final String detail;

    public FormatException(String file, int line, String detail) {
        super(format(file, line, detail));
        this.file = file;
        this.line = line;
        this.detail = detail;
    }

    private static String format(String file, int line, String detail) {
        return line > 0 ? file + ":" + line + ": " + detail : file + ": " + detail;
    }

    public String file() {
        return file;
    }

    /** 1-based line, or 0 when the problem is not on one line. */
    public int line() {
        return line;
    }

    /** The message without the place. */
    public String detail() {
        return detail;
    }
}
