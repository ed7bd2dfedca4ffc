package org.ibtwin.transport;

/** No response came within the timeout, after every retry. */
public final class MadTimeoutException extends MadTransportException {
    private static final long serialVersionUID = 1L;

    public MadTimeoutException(String message) {
        super(message);
    }
}
