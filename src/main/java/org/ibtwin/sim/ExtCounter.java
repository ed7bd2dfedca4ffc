package org.ibtwin.sim;

/** The 64-bit counters of PortCountersExtended, in CounterSelect bit order. */
public enum ExtCounter {
    XMIT_DATA,
    RCV_DATA,
    XMIT_PKTS,
    RCV_PKTS,
    UNICAST_XMIT_PKTS,
    UNICAST_RCV_PKTS,
    MULTICAST_XMIT_PKTS,
    MULTICAST_RCV_PKTS
}
