package org.ibtwin.sim;

/**
 * A trap the twin sent and the SM has not repressed yet ({@link Twin#pendingTraps}): the issuing port, the trap
 * number, its TID and how many times it went out.
 */
public record PendingTrap(String nodeName, int port, int number, long tid, int sends) {
}
