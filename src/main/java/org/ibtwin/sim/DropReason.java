package org.ibtwin.sim;

/** Why the twin dropped a MAD; {@link Twin#drops(DropReason)} counts each. */
public enum DropReason {
    /** A MAD that is not a MAD: wrong size, base version not 1. */
    MALFORMED,
    /** A directed-route SMP whose hop count, hop pointer or path breaks the IBA 14.2.2 rules (a CA mid-path, a
     * port number the node does not have, a non-switch at a LID-routed segment's end). */
    BAD_DIRECTED_ROUTE,
    /** The egress port has no link, or its link is not up (PortXmitDiscards counts it on that port). */
    PORT_DOWN,
    /** A non-SMP packet met a port that is not Active (egress) or not at least Armed (ingress). */
    PORT_NOT_ACTIVE,
    /** A switch's LFT has no entry for the DLID (0xFF, beyond LinearFDBTop or beyond its ports); counted as
     * PortRcvSwitchRelayErrors on the ingress port. */
    NO_ROUTE,
    /** The packet reached an end port whose LID range does not hold the DLID, or the DLID is 0 or multicast. */
    DLID_MISMATCH,
    /** More than 64 switch hops: an LFT loop. */
    LOOP,
    /** The M_Key check failed (IBA 14.2.4): the SMA discards the SMP without answering. */
    M_KEY,
    /** Nobody at the destination port takes it: an SMInfo, SA or other GMP request to a port without an SM
     * attached, a response nobody there asked for. */
    NO_RECEIVER,
    /** The sending attachment had detached (or its SM was killed). */
    DETACHED,
    /** Lost by chance to a drop rate set by fault injection ({@link Twin#setDropRate}). */
    INJECTED
}
