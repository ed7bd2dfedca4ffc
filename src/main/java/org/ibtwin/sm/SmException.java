package org.ibtwin.sm;

/** The SM cannot go on: its own port does not answer, a file it needs is unreadable, an option makes no sense. */
public final class SmException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public SmException(String message) {
        super(message);
    }

    public SmException(String message, Throwable cause) {
        super(message, cause);
    }
}
