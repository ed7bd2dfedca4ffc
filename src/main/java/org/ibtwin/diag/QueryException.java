package org.ibtwin.diag;

/**
 * A query that got no usable answer: no response after every attempt, a response with a non-zero MAD status, or a
 * request that could not be built (a directed path too long). {@link #warning()} is the line libibmad prints on
 * stderr for it ({@code ibwarn: [pid] <warning>}), shown always for a timeout and only with -e for a status.
 */
public final class QueryException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Why the query failed. */
    public enum Kind {
        /** Nothing came back within the timeout, after every attempt. */
        TIMEOUT,
        /** The response carried a non-zero status. */
        STATUS,
        /** The request could not be built or sent. */
        INVALID
    }

    private final Kind kind;
    private final int status;
    private final String warning;

    public QueryException(Kind kind, int status, String message, String warning) {
        super(message);
        this.kind = kind;
        this.status = status;
        this.warning = warning;
    }

    public Kind kind() {
        return kind;
    }

    /** The MAD status (15 bits, the directed-route D bit left out); 0 unless {@link Kind#STATUS}. */
    public int status() {
        return status;
    }

    /** libibmad's warning text for this failure, without the "ibwarn: [pid] " prefix. */
    public String warning() {
        return warning;
    }

    /** Whether libibmad prints {@link #warning()} even without -e (it does for timeouts and bad requests). */
    public boolean alwaysWarned() {
        return kind != Kind.STATUS;
    }
}
