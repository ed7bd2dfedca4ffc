package org.ibtwin.mad;

/** Attribute ids, by management class. */
public final class AttributeIds {
    /** ClassPortInfo, in every GS class (SA, PerfMgt, ...). */
    public static final int CLASS_PORT_INFO = 0x0001;
    public static final int NOTICE = 0x0002;
    public static final int INFORM_INFO = 0x0003;

    // SMP (SubnLid and SubnDirected)
    public static final int NODE_DESC = 0x0010;
    public static final int NODE_INFO = 0x0011;
    public static final int SWITCH_INFO = 0x0012;
    public static final int GUID_INFO = 0x0014;
    public static final int PORT_INFO = 0x0015;
    public static final int P_KEY_TABLE = 0x0016;
    public static final int SL_TO_VL_TABLE = 0x0017;
    public static final int VL_ARB_TABLE = 0x0018;
    public static final int LINEAR_FWD_TABLE = 0x0019;
    public static final int RANDOM_FWD_TABLE = 0x001A;
    public static final int MCAST_FWD_TABLE = 0x001B;
    public static final int SM_INFO = 0x0020;
    public static final int VENDOR_DIAG = 0x0030;
    public static final int LED_INFO = 0x0031;
    public static final int PORT_INFO_EXT = 0x0033;
    /** Mellanox vendor-specific ExtendedPortInfo (smpquery mlnxextportinfo). */
    public static final int MLNX_EXT_PORT_INFO = 0xFF90;

    // SA (SubnAdm) records
    public static final int NODE_RECORD = 0x0011;
    public static final int PORT_INFO_RECORD = 0x0012;
    public static final int SL_TO_VL_RECORD = 0x0013;
    public static final int SWITCH_INFO_RECORD = 0x0014;
    public static final int LFT_RECORD = 0x0015;
    public static final int RFT_RECORD = 0x0016;
    public static final int MFT_RECORD = 0x0017;
    public static final int SM_INFO_RECORD = 0x0018;
    public static final int LINK_RECORD = 0x0020;
    public static final int GUID_INFO_RECORD = 0x0030;
    public static final int SERVICE_RECORD = 0x0031;
    public static final int P_KEY_TABLE_RECORD = 0x0033;
    public static final int PATH_RECORD = 0x0035;
    public static final int VL_ARB_RECORD = 0x0036;
    public static final int MC_MEMBER_RECORD = 0x0038;
    public static final int TRACE_RECORD = 0x0039;
    public static final int MULTI_PATH_RECORD = 0x003A;
    public static final int SERVICE_ASSOCIATION_RECORD = 0x003B;
    public static final int INFORM_INFO_RECORD = 0x00F3;

    // PerfMgt
    public static final int PORT_SAMPLES_CONTROL = 0x0010;
    public static final int PORT_SAMPLES_RESULT = 0x0011;
    public static final int PORT_COUNTERS = 0x0012;
    public static final int PORT_RCV_ERROR_DETAILS = 0x0015;
    public static final int PORT_XMIT_DISCARD_DETAILS = 0x0016;
    public static final int PORT_COUNTERS_EXTENDED = 0x001D;

    private AttributeIds() {
    }
}
