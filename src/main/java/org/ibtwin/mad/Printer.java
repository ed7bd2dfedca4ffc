package org.ibtwin.mad;

import java.nio.charset.StandardCharsets;

/**
 * How a field's value is printed in a dump: the same text libibmad's {@code mad_dump_*} printers give, so a dump
 * reads exactly as {@code smpquery} and {@code perfquery} print it, including their quirks ("undefined (0)", a
 * trailing " (IBA extension)", capability masks as hex followed by one flag name per line).
 *
 * <p>{@link #ARRAY} and {@link #STRING} print fields longer than 64 bits (byte arrays); every other printer prints a
 * numeric field of at most 64 bits.
 */
public enum Printer {
    /** Unsigned decimal. */
    UINT,
    /** "0x" and zero-padded lower-case hex, two digits per byte the field spans ({@code 0x%016x} for a GUID). */
    HEX,
    /** Zero-padded lower-case hex without "0x". */
    RHEX,
    /** Every byte as two lower-case hex digits, no separators. */
    ARRAY,
    /** A NUL-terminated string in single quotes, cut to the field's length less one, as libibmad prints it. */
    STRING,
    /** NodeInfo:NodeType: "Channel Adapter", "Switch", "Router". */
    NODE_TYPE,
    /** PortInfo:LinkWidthActive: "1X", "4X", "8X", "12X", "2X". */
    LINK_WIDTH,
    /** PortInfo:LinkWidthSupported: "1X or 4X ..." plus " (IBA extension)" for the unusual sets. */
    LINK_WIDTH_SUPPORTED,
    /** PortInfo:LinkWidthEnabled: "1X or 4X ...". */
    LINK_WIDTH_ENABLED,
    /** PortInfo:LinkSpeedActive: "2.5 Gbps", "5.0 Gbps", "10.0 Gbps", 0 is "Extended speed". */
    LINK_SPEED,
    /** PortInfo:LinkSpeedSupported: "2.5 Gbps or 5.0 Gbps ...". */
    LINK_SPEED_SUPPORTED,
    /** PortInfo:LinkSpeedEnabled: as {@link #LINK_SPEED_SUPPORTED}. */
    LINK_SPEED_ENABLED,
    /** PortInfo:LinkSpeedExtActive: "14.0625 Gbps" (FDR) ... "106.25 Gbps" (NDR), 0 "No Extended Speed". */
    LINK_SPEED_EXT,
    /** PortInfo:LinkSpeedExtSupported: "14.0625 Gbps or 25.78125 Gbps ...", 0 printed as "0". */
    LINK_SPEED_EXT_SUPPORTED,
    /** PortInfo:LinkSpeedExtEnabled: as supported, and 30 is "Extended link speeds disabled". */
    LINK_SPEED_EXT_ENABLED,
    /** PortInfo:LinkSpeedExtActive2: "212.5 Gbps" (XDR), 0 "No Extended Speed 2". */
    LINK_SPEED_EXT2,
    /** PortInfo:LinkSpeedExtSupported2. */
    LINK_SPEED_EXT2_SUPPORTED,
    /** PortInfo:LinkSpeedExtEnabled2. */
    LINK_SPEED_EXT2_ENABLED,
    /** PortInfo:PortState: "Down", "Initialize", "Armed", "Active". */
    PORT_STATE,
    /** PortInfo:PortPhysicalState: "Sleep", "Polling", "Disabled", ..., "LinkUp". */
    PHYS_PORT_STATE,
    /** PortInfo:LinkDownDefaultState: "Sleep", "Polling". */
    LINK_DOWN_DEF_STATE,
    /** An MTU code: "256" ... "4096". */
    MTU,
    /** PortInfo:VLCap: "VL0", "VL0-1", ..., "VL0-14". */
    VL_CAP,
    /** PortInfo:OperationalVLs: as {@link #VL_CAP}, and 0 is "No change". */
    OPER_VLS,
    /** PortInfo:CapabilityMask: "0x%x" then each set capability on its own line, four tabs in. */
    PORT_CAPABILITY_MASK,
    /** PortInfo:CapabilityMask2: as {@link #PORT_CAPABILITY_MASK}. */
    PORT_CAPABILITY_MASK2;

    /** PortInfo:CapabilityMask bit names by bit number, as libibmad prints them (bit 16's spelling included). */
    private static final String[] CAP_MASK = new String[32];
    /** PortInfo:CapabilityMask2 bit names by bit number. */
    private static final String[] CAP_MASK2 = {
        "IsSetNodeDescriptionSupported", "IsPortInfoExtendedSupported", "IsVirtualizationSupported",
        "IsSwitchPortStateTableSupported", "IsLinkWidth2xSupported", "IsLinkSpeedHDRSupported",
        "IsMKeyProtectBitsExtSupported", "IsEnhancedTrap128Supported", "IsPartitionTopSupported",
        "IsEnhancedQoSArbiterSupported", "IsLinkSpeedNDRSupported",
    };

    static {
        String[] names = {
            null, "IsSM", "IsNoticeSupported", "IsTrapSupported", "IsOptionalIPDSupported",
            "IsAutomaticMigrationSupported", "IsSLMappingSupported", "IsMKeyNVRAM", "IsPKeyNVRAM",
            "IsLedInfoSupported", "IsSMdisabled", "IsSystemImageGUIDsupported",
            "IsPkeySwitchExternalPortTrapSupported", null, "IsExtendedSpeedsSupported",
            "IsCapabilityMask2Supported", "IsCommunicatonManagementSupported", "IsSNMPTunnelingSupported",
            "IsReinitSupported", "IsDeviceManagementSupported", "IsVendorClassSupported", "IsDRNoticeSupported",
            "IsCapabilityMaskNoticeSupported", "IsBootManagementSupported", "IsLinkRoundTripLatencySupported",
            "IsClientRegistrationSupported", "IsOtherLocalChangesNoticeSupported",
            "IsLinkSpeedWidthPairsTableSupported", "IsVendorSpecificMadsTableSupported",
            "IsMcastPkeyTrapSuppressionSupported", "IsMulticastFDBTopSupported", "IsHierarchyInfoSupported",
        };
        System.arraycopy(names, 0, CAP_MASK, 0, 32);
    }

    /** Whether this printer prints byte arrays (fields longer than 64 bits) rather than numbers. */
    public boolean forArrays() {
        return this == ARRAY || this == STRING;
    }

    /** The text for a numeric field's value; {@code bitLength} is the field's (it sets the hex width). */
    public String format(long value, int bitLength) {
        int bytes = (bitLength + 7) / 8;
        int v = (int) value;
        return switch (this) {
            case UINT -> Long.toUnsignedString(value);
            case HEX -> "0x" + hex(value, bytes * 2);
            case RHEX -> hex(value, bytes * 2);
            case ARRAY, STRING -> throw new IllegalStateException(this + " prints byte arrays, not numbers");
            case NODE_TYPE -> switch (v) {
                case 1 -> "Channel Adapter";
                case 2 -> "Switch";
                case 3 -> "Router";
                default -> "?(" + v + ")?";
            };
            case LINK_WIDTH -> switch (v) {
                case 1 -> "1X";
                case 2 -> "4X";
                case 4 -> "8X";
                case 8 -> "12X";
                case 16 -> "2X";
                default -> undefined(v);
            };
            case LINK_WIDTH_SUPPORTED -> {
                String s = widths(v);
                boolean usual = switch (v) {
                    case 1, 3, 7, 11, 15, 17, 19, 23, 27, 31 -> true;
                    default -> false;
                };
                yield usual || (v >> 5) != 0 ? s : s + " (IBA extension)";
            }
            case LINK_WIDTH_ENABLED -> widths(v);
            case LINK_SPEED -> switch (v) {
                case 0 -> "Extended speed";
                case 1 -> "2.5 Gbps";
                case 2 -> "5.0 Gbps";
                case 4 -> "10.0 Gbps";
                default -> undefined(v);
            };
            case LINK_SPEED_SUPPORTED, LINK_SPEED_ENABLED -> speeds(v);
            case LINK_SPEED_EXT -> switch (v) {
                case 0 -> "No Extended Speed";
                case 1 -> "14.0625 Gbps";
                case 2 -> "25.78125 Gbps";
                case 4 -> "53.125 Gbps";
                case 8 -> "106.25 Gbps";
                default -> undefined(v);
            };
            case LINK_SPEED_EXT_SUPPORTED -> extSpeeds(v);
            case LINK_SPEED_EXT_ENABLED -> v == 30 ? "Extended link speeds disabled" : extSpeeds(v);
            case LINK_SPEED_EXT2 -> switch (v) {
                case 0 -> "No Extended Speed 2";
                case 1 -> "212.5 Gbps";
                default -> undefined(v);
            };
            case LINK_SPEED_EXT2_SUPPORTED, LINK_SPEED_EXT2_ENABLED -> {
                // libibmad writes "212.5 Gbps" and then, for any other bit, overwrites it from the start.
                if (v == 0) {
                    yield "0";
                }
                yield (v >> 1) != 0 ? " undefined (" + v + ")" : "212.5 Gbps";
            }
            case PORT_STATE -> switch (v) {
                case 0 -> "NoChange";
                case 1 -> "Down";
                case 2 -> "Initialize";
                case 3 -> "Armed";
                case 4 -> "Active";
                default -> unknown(v);
            };
            case PHYS_PORT_STATE -> switch (v) {
                case 0 -> "NoChange";
                case 1 -> "Sleep";
                case 2 -> "Polling";
                case 3 -> "Disabled";
                case 4 -> "PortConfigurationTraining";
                case 5 -> "LinkUp";
                case 6 -> "LinkErrorRecovery";
                case 7 -> "PhyTest";
                default -> unknown(v);
            };
            case LINK_DOWN_DEF_STATE -> switch (v) {
                case 0 -> "NoChange";
                case 1 -> "Sleep";
                case 2 -> "Polling";
                default -> unknown(v);
            };
            case MTU -> v >= 1 && v <= 5 ? Integer.toString(128 << v) : unknown(v);
            case VL_CAP -> vls(v);
            case OPER_VLS -> v == 0 ? "No change" : vls(v);
            case PORT_CAPABILITY_MASK -> flags(v, CAP_MASK);
            case PORT_CAPABILITY_MASK2 -> flags(v, CAP_MASK2);
        };
    }

    /** The text for an array field's bytes. */
    public String format(byte[] bytes) {
        return switch (this) {
            case ARRAY -> {
                StringBuilder sb = new StringBuilder(bytes.length * 2);
                for (byte b : bytes) {
                    sb.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
                }
                yield sb.toString();
            }
            case STRING -> {
                // snprintf(buf, len, "'%s'", s): the quoted string, cut to len - 1 bytes.
                byte[] quoted = new byte[cString(bytes, 0, bytes.length).length + 2];
                quoted[0] = '\'';
                System.arraycopy(bytes, 0, quoted, 1, quoted.length - 2);
                quoted[quoted.length - 1] = '\'';
                int keep = Math.min(quoted.length, Math.max(0, bytes.length - 1));
                yield new String(quoted, 0, keep, StandardCharsets.UTF_8);
            }
            default -> throw new IllegalStateException(this + " prints numbers, not byte arrays");
        };
    }

    /** The bytes of a NUL-terminated string stored in {@code len} bytes at {@code off} (all of them without a NUL). */
    static byte[] cString(byte[] buf, int off, int len) {
        int n = 0;
        while (n < len && buf[off + n] != 0) {
            n++;
        }
        byte[] s = new byte[n];
        System.arraycopy(buf, off, s, 0, n);
        return s;
    }

    static String hex(long value, int digits) {
        String h = Long.toHexString(value);
        return h.length() >= digits ? h : "0".repeat(digits - h.length()) + h;
    }

    private static String undefined(int v) {
        return "undefined (" + v + ")";
    }

    private static String unknown(int v) {
        return "?(" + v + ")";
    }

    private static String vls(int v) {
        return switch (v) {
            case 1 -> "VL0";
            case 2 -> "VL0-1";
            case 3 -> "VL0-3";
            case 4 -> "VL0-7";
            case 5 -> "VL0-14";
            default -> unknown(v);
        };
    }

    /** A width set: the known widths joined by " or ", an unknown bit or none at all as "undefined (n)". */
    private static String widths(int v) {
        StringBuilder sb = new StringBuilder();
        String[] names = {"1X", "4X", "8X", "12X", "2X"};
        for (int i = 0; i < names.length; i++) {
            if ((v & (1 << i)) != 0) {
                sb.append(names[i]).append(" or ");
            }
        }
        if (v == 0 || (v >> 5) != 0) {
            return sb.append(undefined(v)).toString();
        }
        return sb.substring(0, sb.length() - 4);
    }

    private static String speeds(int v) {
        StringBuilder sb = new StringBuilder();
        String[] names = {"2.5 Gbps", "5.0 Gbps", "10.0 Gbps"};
        for (int i = 0; i < names.length; i++) {
            if ((v & (1 << i)) != 0) {
                sb.append(names[i]).append(" or ");
            }
        }
        String s = v == 0 || (v >> 3) != 0 ? sb.append(undefined(v)).toString() : sb.substring(0, sb.length() - 4);
        boolean usual = v == 1 || v == 3 || v == 5 || v == 7;
        return usual || (v >> 3) != 0 ? s : s + " (IBA extension)";
    }

    private static String extSpeeds(int v) {
        if (v == 0) {
            return "0";
        }
        StringBuilder sb = new StringBuilder();
        String[] names = {"14.0625 Gbps", "25.78125 Gbps", "53.125 Gbps", "106.25 Gbps"};
        for (int i = 0; i < names.length; i++) {
            if ((v & (1 << i)) != 0) {
                sb.append(names[i]).append(" or ");
            }
        }
        if ((v >> 4) != 0) {
            return sb.append(undefined(v)).toString();
        }
        return sb.substring(0, sb.length() - 4);
    }

    private static String flags(int v, String[] names) {
        StringBuilder sb = new StringBuilder("0x").append(Integer.toHexString(v));
        for (int i = 0; i < names.length; i++) {
            if ((v & (1 << i)) != 0 && names[i] != null) {
                sb.append("\n\t\t\t\t").append(names[i]);
            }
        }
        return sb.toString();
    }
}
