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
}
