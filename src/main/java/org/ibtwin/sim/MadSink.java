package org.ibtwin.sim;

import org.ibtwin.transport.MadAddress;

/** Where the twin hands a MAD that arrives at an attached port: a response, a trap, a request to an SM or SA. */
@FunctionalInterface
public interface MadSink {
    /**
     * @param mad  the 256 bytes, owned by the receiver
     * @param from the sender: its LID (SLID), QP and the rest of the umad address
     */
    void receive(byte[] mad, MadAddress from);

    /**
     * The twin could not deliver a MAD this port sent (no route, a down or unknown port, nobody to take a request,
     * a drop by fault injection): ibsim's clients learn that at once, as the request handed back with status 110
     * (ETIMEDOUT), instead of waiting out their timeouts. Optional: a sink that ignores it leaves the sender to time
     * out, as on real hardware.
     *
     * @param mad the request as the port sent it (TID as sent)
     * @param to  where it was sent
     */
    default void undeliverable(byte[] mad, MadAddress to) {
    }
}
