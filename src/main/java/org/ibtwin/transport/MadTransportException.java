package org.ibtwin.transport;

/** A transport could not deliver a MAD or get its answer. */
public class MadTransportException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public MadTransportException(String message) {
        super(message);
    }

    public MadTransportException(String message, Throwable cause) {
        super(message, cause);
    }
}
