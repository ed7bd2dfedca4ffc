package org.ibtwin.transport;

/** The port a transport is attached at: what the umad layer says about the local HCA port. */
public record LocalPort(String caName, int portNumber, long nodeGuid, long portGuid, int lid, int lmc, int smLid,
                        int state, boolean isSm) {
}
