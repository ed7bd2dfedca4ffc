package org.ibtwin.sim;

import org.ibtwin.transport.MadAddress;

/** Where the twin hands a MAD that arrives at an attached port: a response, a trap, a request to an SM or SA. */
@FunctionalInterface
public interface MadSink {
    /**
     * @param mad  the 256 bytes, owned by the receiver (lent for the call only when it {@link #borrows})
     * @param from the sender: its LID (SLID), QP and the rest of the umad address
     */
    void receive(byte[] mad, MadAddress from);

    /**
     * Whether {@link #receive} only reads the array during the call and keeps nothing of it: the twin may then lend
     * its own buffer instead of a copy (a sink that writes each MAD out at once, as the ibsim endpoint does, saves
     * an allocation per MAD). False by default: the sink owns what it receives.
     */
    default boolean borrows() {
        return false;
    }

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
