package org.ibtwin.mad;

/**
 * Performance management attributes (IBA 16.1.3, 16.1.4) and ClassPortInfo (13.4.8.1, common to every GS class),
 * offsets from the start of the attribute (PerfMgt MAD byte 64, SA MAD byte 56).
 */
public final class PerfAttributes {

    /** ClassPortInfo, 72 bytes. */
    public static final Layout CLASS_PORT_INFO = Layout.builder("ClassPortInfo", 72)
            .uint("BaseVersion", 0, 8)
            .uint("ClassVersion", 8, 8)
            .hex("CapabilityMask", 16, 16)
            .hex("CapabilityMask2", 32, 27)
            .uint("RespTimeVal", 59, 5)
            .array("RedirectGID", 64, 128)
            .hex("RedirectTC", 192, 8)
            .uint("RedirectSL", 200, 4)
            .hex("RedirectFL", 204, 20)
            .uint("RedirectLID", 224, 16)
            .hex("RedirectPKey", 240, 16)
            .hex("RedirectQP", 264, 24)
            .hex("RedirectQKey", 288, 32)
            .array("TrapGID", 320, 128)
            .hex("TrapTC", 448, 8)
            .uint("TrapSL", 456, 4)
            .hex("TrapFL", 460, 20)
            .uint("TrapLID", 480, 16)
            .hex("TrapPKey", 496, 16)
            .uint("TrapHL", 512, 8)
            .hex("TrapQP", 520, 24)
            .hex("TrapQKey", 544, 32)
            .build();

    /** PerfMgt ClassPortInfo CapabilityMask bits. */
    public static final int CAP_ALL_PORT_SELECT = 1 << 8;
    public static final int CAP_EXT_WIDTH_SUPPORTED = 1 << 9;
    public static final int CAP_EXT_WIDTH_NOIETF = 1 << 10;
    public static final int CAP_SAMPLES_ONLY = 1 << 11;
    public static final int CAP_PORT_XMIT_WAIT = 1 << 12;
    public static final int CAP_QP1_DROPPED = 1 << 15;
    /** PerfMgt ClassPortInfo CapabilityMask2 bits. */
    public static final int CAP2_PM_KEY = 1 << 0;
    public static final int CAP2_ADDL_PORT_COUNTERS_EXT = 1 << 1;

    /**
     * PortCounters, 44 bytes. QP1Dropped sits in bits 160-175, as the specification says; libibmad (and so
     * perfquery) reads it from bits 176-191, VL15Dropped's place, and prints VL15Dropped's value twice. The dump
     * copies that, so it matches the real tool's output; the codec keeps the specification's place.
     */
    public static final Layout PORT_COUNTERS = Layout.builder("PortCounters", 44)
            .uint("PortSelect", 8, 8)
            .hex("CounterSelect", 16, 16)
            .uint("SymbolErrorCounter", 32, 16)
            .uint("LinkErrorRecoveryCounter", 48, 8)
            .uint("LinkDownedCounter", 56, 8)
            .uint("PortRcvErrors", 64, 16)
            .uint("PortRcvRemotePhysicalErrors", 80, 16)
            .uint("PortRcvSwitchRelayErrors", 96, 16)
            .uint("PortXmitDiscards", 112, 16)
            .uint("PortXmitConstraintErrors", 128, 8)
            .uint("PortRcvConstraintErrors", 136, 8)
            .hex("CounterSelect2", 144, 8)
            .uint("LocalLinkIntegrityErrors", 152, 4)
            .uint("ExcessiveBufferOverrunErrors", 156, 4)
            .hidden("QP1Dropped", 160, 16, Printer.UINT)
            .dumpOnly("QP1Dropped", 176, 16, Printer.UINT)
            .uint("VL15Dropped", 176, 16)
            .uint("PortXmitData", 192, 32)
            .uint("PortRcvData", 224, 32)
            .uint("PortXmitPkts", 256, 32)
            .uint("PortRcvPkts", 288, 32)
            .uint("PortXmitWait", 320, 32)
            .build();

    /**
     * PortCountersExtended, 184 bytes: the 64-bit data and packet counters, and (when ClassPortInfo's
     * CapabilityMask2 says so) 64-bit copies of the error counters.
     */
    public static final Layout PORT_COUNTERS_EXTENDED = Layout.builder("PortCountersExtended", 184)
            .uint("PortSelect", 8, 8)
            .hex("CounterSelect", 16, 16)
            .uint("PortXmitData", 64, 64)
            .uint("PortRcvData", 128, 64)
            .uint("PortXmitPkts", 192, 64)
            .uint("PortRcvPkts", 256, 64)
            .uint("PortUnicastXmitPkts", 320, 64)
            .uint("PortUnicastRcvPkts", 384, 64)
            .uint("PortMulticastXmitPkts", 448, 64)
            .uint("PortMulticastRcvPkts", 512, 64)
            .hex("CounterSelect2", 32, 32)
            .uint("SymbolErrorCounter", 576, 64)
            .uint("LinkErrorRecoveryCounter", 640, 64)
            .uint("LinkDownedCounter", 704, 64)
            .uint("PortRcvErrors", 768, 64)
            .uint("PortRcvRemotePhysicalErrors", 832, 64)
            .uint("PortRcvSwitchRelayErrors", 896, 64)
            .uint("PortXmitDiscards", 960, 64)
            .uint("PortXmitConstraintErrors", 1024, 64)
            .uint("PortRcvConstraintErrors", 1088, 64)
            .uint("LocalLinkIntegrityErrors", 1152, 64)
            .uint("ExcessiveBufferOverrunErrors", 1216, 64)
            .uint("VL15Dropped", 1280, 64)
            .uint("PortXmitWait", 1344, 64)
            .uint("QP1Dropped", 1408, 64)
            .build();

    /** PortRcvErrorDetails (perfquery -E), 16 bytes. */
    public static final Layout PORT_RCV_ERROR_DETAILS = Layout.builder("PortRcvErrorDetails", 16)
            .uint("PortSelect", 8, 8)
            .hex("CounterSelect", 16, 16)
            .uint("PortLocalPhysicalErrors", 32, 16)
            .uint("PortMalformedPktErrors", 48, 16)
            .uint("PortBufferOverrunErrors", 64, 16)
            .uint("PortDLIDMappingErrors", 80, 16)
            .uint("PortVLMappingErrors", 96, 16)
            .uint("PortLoopingErrors", 112, 16)
            .build();

    /** PortXmitDiscardDetails (perfquery -D), 12 bytes. */
    public static final Layout PORT_XMIT_DISCARD_DETAILS = Layout.builder("PortXmitDiscardDetails", 12)
            .uint("PortSelect", 8, 8)
            .hex("CounterSelect", 16, 16)
            .uint("PortInactiveDiscards", 32, 16)
            .uint("PortNeighborMTUDiscards", 48, 16)
            .uint("PortSwLifetimeLimitDiscards", 64, 16)
            .uint("PortSwHOQLifetimeLimitDiscards", 80, 16)
            .build();

    private PerfAttributes() {
    }
}
