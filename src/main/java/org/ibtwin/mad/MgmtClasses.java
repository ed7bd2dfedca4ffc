package org.ibtwin.mad;

/** Management classes (the MAD header's MgmtClass byte). */
public final class MgmtClasses {
    /** Subnet management, LID routed. */
    public static final int SUBN_LID = 0x01;
    /** Subnet administration (the SA). */
    public static final int SUBN_ADM = 0x03;
    /** Performance management (the PMA). */
    public static final int PERF = 0x04;
    public static final int BOARD_MGMT = 0x05;
    public static final int DEV_MGMT = 0x06;
    /** Communication management. */
    public static final int CM = 0x07;
    public static final int SNMP = 0x08;
    /** Congestion control. */
    public static final int CONG_MGMT = 0x21;
    /** Subnet management, directed route. */
    public static final int SUBN_DIRECTED = 0x81;

    private MgmtClasses() {
    }

    /** Whether {@code mgmtClass} is one of the two subnet management classes (SMPs). */
    public static boolean isSmp(int mgmtClass) {
        return mgmtClass == SUBN_LID || mgmtClass == SUBN_DIRECTED;
    }

    /** A short name for logs: "SubnLid", "SubnDirected", "SubnAdm", "Perf", ..., else "0x%02x". */
    public static String name(int mgmtClass) {
        return switch (mgmtClass) {
            case SUBN_LID -> "SubnLid";
            case SUBN_ADM -> "SubnAdm";
            case PERF -> "Perf";
            case BOARD_MGMT -> "BoardMgmt";
            case DEV_MGMT -> "DevMgmt";
            case CM -> "CM";
            case SNMP -> "SNMP";
            case CONG_MGMT -> "CongMgmt";
            case SUBN_DIRECTED -> "SubnDirected";
            default -> String.format("0x%02x", mgmtClass);
        };
    }
}
