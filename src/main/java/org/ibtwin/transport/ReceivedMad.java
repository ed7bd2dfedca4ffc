package org.ibtwin.transport;

/** A MAD that arrived without being asked for (a trap, or a request to an SM or SA), and where it came from. */
public record ReceivedMad(byte[] mad, MadAddress from) {
}
