package org.ibtwin.diag;

/**
 * An operation of a diagnostic tool failed: {@link #getMessage()} is the tool's own words ("node info query failed"),
 * which the command prints as {@code <tool>: iberror: failed: ...}. The cause, when a query failed, is its
 * {@link QueryException}.
 */
public final class OpFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public OpFailure(String message) {
        super(message);
    }

    public OpFailure(String message, QueryException cause) {
        super(message, cause);
    }

    /** The failed query, if a query failed. */
    public QueryException query() {
        return getCause() instanceof QueryException q ? q : null;
    }
}
