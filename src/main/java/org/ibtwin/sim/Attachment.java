package org.ibtwin.sim;

import org.ibtwin.transport.MadAddress;

/**
 * A client's place in the twin: the port of a node where an SM or a tool is attached, as a umad client sees its
 * local HCA port. Real programs reach it through the ibsim endpoint; ibtwin's own SM and tools through an
 * in-process transport. Several attachments may share a node.
 *
 * <p>Thread-safety: {@link #send} may be called from any thread; the twin processes MADs one at a time and calls
 * the {@link MadSink} from its processing thread, so a sink must not block.
 */
public interface Attachment {
    /** The node's topology id ("S-0002c9…", "Hca1"): what SIM_HOST names. */
    String nodeName();

    int portNumber();

    long nodeGuid();

    long portGuid();

    /** The node's NodeInfo as an SMP would return it (the attribute's bytes, 64). */
    byte[] nodeInfo();

    /** The attach port's PortInfo as an SMP would return it (64 bytes; a switch answers for port 0). */
    byte[] portInfo();

    /** The attach port's P_Key table, as 16-bit values (full and limited members alike). */
    int[] pkeys();

    /** Sets or clears the IsSM capability bit on the attach port (an SM registering). */
    void setIsSm(boolean isSm);

    /**
     * A MAD the client sends out of its port: an SMP (LID-routed to {@code to.lid()}, or directed-route along the
     * path in the MAD), a GMP to QP1 at a LID, or a response to a request it received. The attachment keeps no
     * reference to {@code mad}: the caller may use the array again once this returns.
     */
    void send(byte[] mad, MadAddress to);

    /** Sets where MADs arriving at this port go. */
    void onReceive(MadSink sink);

    /** Leaves the fabric; an SM's IsSM bit is cleared. */
    void detach();
}
