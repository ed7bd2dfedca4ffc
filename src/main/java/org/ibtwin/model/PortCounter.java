package org.ibtwin.model;

/** PMA PortCounters / PortCountersExtended fields, with the width of the 32-bit-era counter for saturation. */
public enum PortCounter {
    SYMBOL_ERROR("SymbolErrorCounter", 16),
    LINK_ERROR_RECOVERY("LinkErrorRecoveryCounter", 8),
    LINK_DOWNED("LinkDownedCounter", 8),
    RCV_ERRORS("PortRcvErrors", 16),
    RCV_REMOTE_PHYSICAL_ERRORS("PortRcvRemotePhysicalErrors", 16),
    RCV_SWITCH_RELAY_ERRORS("PortRcvSwitchRelayErrors", 16),
    XMIT_DISCARDS("PortXmitDiscards", 16),
    XMIT_CONSTRAINT_ERRORS("PortXmitConstraintErrors", 8),
    RCV_CONSTRAINT_ERRORS("PortRcvConstraintErrors", 8),
    LOCAL_LINK_INTEGRITY_ERRORS("LocalLinkIntegrityErrors", 4),
    EXCESSIVE_BUFFER_OVERRUN_ERRORS("ExcessiveBufferOverrunErrors", 4),
    VL15_DROPPED("VL15Dropped", 16),
    XMIT_DATA("PortXmitData", 32),
    RCV_DATA("PortRcvData", 32),
    XMIT_PKTS("PortXmitPkts", 32),
    RCV_PKTS("PortRcvPkts", 32),
    XMIT_WAIT("PortXmitWait", 32);

    private final String fieldName;
    private final int bits;

    PortCounter(String fieldName, int bits) {
        this.fieldName = fieldName;
        this.bits = bits;
    }

    /** The name perfquery prints. */
    public String fieldName() {
        return fieldName;
    }

    /** Width of the PortCounters field; it saturates at all ones. */
    public int bits() {
        return bits;
    }

    public long max() {
        return (1L << bits) - 1;
    }
}
