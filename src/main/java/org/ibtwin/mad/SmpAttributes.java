package org.ibtwin.mad;

import static org.ibtwin.mad.Printer.ARRAY;
import static org.ibtwin.mad.Printer.HEX;
import static org.ibtwin.mad.Printer.UINT;

/**
 * Subnet management attributes (IBA 14.2.5), one table each, offsets in the specification's bit numbering from the
 * start of the attribute (SMP data byte 0). Names and printers are libibmad's where it has the field, so
 * {@link Layout#dump} prints what {@code smpquery} prints.
 */
public final class SmpAttributes {

    /** NodeInfo, 40 bytes. */
    public static final Layout NODE_INFO = Layout.builder("NodeInfo", 40)
            .uint("BaseVers", 0, 8)
            .uint("ClassVers", 8, 8)
            .field("NodeType", 16, 8, Printer.NODE_TYPE)
            .uint("NumPorts", 24, 8)
            .hex("SystemGuid", 32, 64)
            .hex("Guid", 96, 64)
            .hex("PortGuid", 160, 64)
            .uint("PartCap", 224, 16)
            .hex("DevId", 240, 16)
            .hex("Revision", 256, 32)
            .uint("LocalPort", 288, 8)
            .hex("VendorId", 296, 24)
            .build();

    /** NodeDescription, 64 bytes of text (UTF-8, NUL padded). */
    public static final Layout NODE_DESCRIPTION = Layout.builder("NodeDescription", 64)
            .field("NodeDesc", 0, 512, Printer.STRING)
            .build();

    /**
     * PortInfo, 64 bytes. The dump prints what infiniband-diags 44 prints; the XDR fields (LinkSpeedExtActive2,
     * ...Supported2, ...Enabled2, in bits 449-455) are in the codec but only printed on request
     * ({@link Dumps#portInfo(PortId, int, byte[], int, boolean, boolean)}), as later infiniband-diags do.
     */
    public static final Layout PORT_INFO = Layout.builder("PortInfo", 64)
            .hex("Mkey", 0, 64)
            .hex("GidPrefix", 64, 64)
            .uint("Lid", 128, 16)
            .uint("SMLid", 144, 16)
            .field("CapMask", 160, 32, Printer.PORT_CAPABILITY_MASK)
            .hex("DiagCode", 192, 16)
            .uint("MkeyLeasePeriod", 208, 16)
            .uint("LocalPort", 224, 8)
            .field("LinkWidthEnabled", 232, 8, Printer.LINK_WIDTH_ENABLED)
            .field("LinkWidthSupported", 240, 8, Printer.LINK_WIDTH_SUPPORTED)
            .field("LinkWidthActive", 248, 8, Printer.LINK_WIDTH)
            .field("LinkSpeedSupported", 256, 4, Printer.LINK_SPEED_SUPPORTED)
            .field("LinkState", 260, 4, Printer.PORT_STATE)
            .field("PhysLinkState", 264, 4, Printer.PHYS_PORT_STATE)
            .field("LinkDownDefState", 268, 4, Printer.LINK_DOWN_DEF_STATE)
            .uint("ProtectBits", 272, 2)
            .uint("LMC", 277, 3)
            .field("LinkSpeedActive", 280, 4, Printer.LINK_SPEED)
            .field("LinkSpeedEnabled", 284, 4, Printer.LINK_SPEED_ENABLED)
            .field("NeighborMTU", 288, 4, Printer.MTU)
            .uint("SMSL", 292, 4)
            .field("VLCap", 296, 4, Printer.VL_CAP)
            .hex("InitType", 300, 4)
            .uint("VLHighLimit", 304, 8)
            .uint("VLArbHighCap", 312, 8)
            .uint("VLArbLowCap", 320, 8)
            .hex("InitReply", 328, 4)
            .field("MtuCap", 332, 4, Printer.MTU)
            .uint("VLStallCount", 336, 3)
            .uint("HoqLife", 339, 5)
            .field("OperVLs", 344, 4, Printer.OPER_VLS)
            .uint("PartEnforceInb", 348, 1)
            .uint("PartEnforceOutb", 349, 1)
            .uint("FilterRawInb", 350, 1)
            .uint("FilterRawOutb", 351, 1)
            .uint("MkeyViolations", 352, 16)
            .uint("PkeyViolations", 368, 16)
            .uint("QkeyViolations", 384, 16)
            .uint("GuidCap", 400, 8)
            .uint("ClientReregister", 408, 1)
            .uint("McastPkeyTrapSuppressionEnabled", 409, 2)
            .uint("SubnetTimeout", 411, 5)
            .uint("RespTimeVal", 419, 5)
            .uint("LocalPhysErr", 424, 4)
            .uint("OverrunErr", 428, 4)
            .uint("MaxCreditHint", 432, 16)
            .uint("RoundTrip", 456, 24)
            .field("CapabilityMask2", 480, 16, Printer.PORT_CAPABILITY_MASK2)
            .field("LinkSpeedExtActive", 496, 4, Printer.LINK_SPEED_EXT)
            .field("LinkSpeedExtSupported", 500, 4, Printer.LINK_SPEED_EXT_SUPPORTED)
            .field("LinkSpeedExtEnabled", 507, 5, Printer.LINK_SPEED_EXT_ENABLED)
            .hidden("LinkSpeedExtActive2", 449, 2, Printer.LINK_SPEED_EXT2)
            .hidden("LinkSpeedExtSupported2", 451, 2, Printer.LINK_SPEED_EXT2_SUPPORTED)
            .hidden("LinkSpeedExtEnabled2", 453, 3, Printer.LINK_SPEED_EXT2_ENABLED)
            .build();

    /** SwitchInfo, 20 bytes. */
    public static final Layout SWITCH_INFO = Layout.builder("SwitchInfo", 20)
            .uint("LinearFdbCap", 0, 16)
            .uint("RandomFdbCap", 16, 16)
            .uint("McastFdbCap", 32, 16)
            .uint("LinearFdbTop", 48, 16)
            .uint("DefPort", 64, 8)
            .uint("DefMcastPrimPort", 72, 8)
            .uint("DefMcastNotPrimPort", 80, 8)
            .uint("LifeTime", 88, 5)
            .uint("StateChange", 93, 1)
            .uint("OptSLtoVLMapping", 94, 2)
            .uint("LidsPerPort", 96, 16)
            .uint("PartEnforceCap", 112, 16)
            .uint("InboundPartEnf", 128, 1)
            .uint("OutboundPartEnf", 129, 1)
            .uint("FilterRawInbound", 130, 1)
            .uint("FilterRawOutbound", 131, 1)
            .uint("EnhancedPort0", 132, 1)
            .hex("MulticastFDBTop", 144, 16)
            .build();

    /** GUIDInfo block: 8 GUIDs (attribute modifier = block number). */
    public static final Layout GUID_INFO = repeat(Layout.builder("GUIDInfo", 64), "GUID", 8, 0, 64, HEX).build();

    /** P_KeyTable block: 32 P_Keys of 16 bits, membership bit on top (modifier = block | port << 16 on switches). */
    public static final Layout P_KEY_TABLE =
            repeat(Layout.builder("P_KeyTable", 64), "PKey", 32, 0, 16, HEX).build();

    /** SLtoVLMappingTable: 16 four-bit VLs, SL0 in the high nibble of byte 0 (modifier = in port << 8 | out port). */
    public static final Layout SL_TO_VL_TABLE =
            repeat(Layout.builder("SLtoVLMappingTable", 8), "SL", 16, 0, 4, UINT).build();

    /** VLArbitrationTable block: 32 entries of 4 reserved bits, a 4-bit VL and an 8-bit weight. */
    public static final Layout VL_ARB_TABLE = vlArb();

    /** LinearForwardingTable block: the egress port for 64 consecutive LIDs (modifier = block = LID / 64). */
    public static final Layout LINEAR_FWD_TABLE =
            repeat(Layout.builder("LinearForwardingTable", 64), "Entry", 64, 0, 8, UINT).build();

    /**
     * MulticastForwardingTable block: 32 port masks of 16 bits, one per multicast LID (modifier = position << 28 |
     * block).
     */
    public static final Layout MCAST_FWD_TABLE =
            repeat(Layout.builder("MulticastForwardingTable", 64), "PortMask", 32, 0, 16, HEX).build();

    /** SMInfo, 21 bytes. SmState: 0 not active, 1 discovering, 2 standby, 3 master. */
    public static final Layout SM_INFO = Layout.builder("SMInfo", 21)
            .hex("SmInfoGuid", 0, 64)
            .hex("SmInfoKey", 64, 64)
            .uint("SmActivity", 128, 32)
            .uint("SmPriority", 160, 4)
            .uint("SmState", 164, 4)
            .build();

    /** Mellanox ExtendedPortInfo (vendor attribute 0xFF90), the four fields smpquery prints. */
    public static final Layout MLNX_EXT_PORT_INFO = Layout.builder("MlnxExtPortInfo", 16)
            .hex("StateChangeEnable", 24, 8)
            .hex("LinkSpeedSupported", 56, 8)
            .hex("LinkSpeedEnabled", 88, 8)
            .hex("LinkSpeedActive", 120, 8)
            .build();

    /**
     * Notice as an SMP carries it (Trap, TrapRepress): the generic or vendor header and 54 bytes of data details,
     * 64 bytes in all. For a generic notice NoticeProducerType is a node type and NoticeTrapNumber the trap; for a
     * vendor notice they are the vendor id and device id. The SA's Notice adds the IssuerGID
     * ({@link SaAttributes#NOTICE}).
     */
    public static final Layout NOTICE = noticeHeader(Layout.builder("Notice", 64))
            .array("NoticeDataDetails", 80, 432)
            .build();

    /** Notice of trap 128 (link state change): the switch's LID. */
    public static final Layout NOTICE_TRAP_128 = noticeHeader(Layout.builder("Notice(Trap128)", 64))
            .uint("NoticeDataLID", 80, 16)
            .build();

    /**
     * Notice of traps 129, 130 and 131 (local link integrity, excessive buffer overrun, flow control update
     * watchdog): the LID and number of the port.
     */
    public static final Layout NOTICE_TRAP_129 = noticeHeader(Layout.builder("Notice(Trap129-131)", 64))
            .uint("NoticeDataPortLID", 96, 16)
            .uint("NoticeDataPortNum", 112, 8)
            .build();

    /**
     * Notice of trap 144 (capability mask, system image GUID... changed): the port's LID, the OtherLocalChanges
     * bit, the new CapabilityMask, the change flags (bit 0 NodeDescription, 1 LinkWidthEnabled, 2
     * LinkSpeedEnabled, 3 SM priority, 4 HierarchyInfo, 5 CapabilityMask2) and the new CapabilityMask2.
     */
    public static final Layout NOTICE_TRAP_144 = noticeHeader(Layout.builder("Notice(Trap144)", 64))
            .uint("NoticeDataTrap144LID", 96, 16)
            .uint("NoticeDataTrap144OtherChanges", 127, 1)
            .field("NoticeDataTrap144CapMask", 128, 32, Printer.PORT_CAPABILITY_MASK)
            .hex("NoticeDataTrap144ChangeFlags", 170, 6)
            .field("NoticeDataTrap144CapMask2", 176, 16, Printer.PORT_CAPABILITY_MASK2)
            .build();

    /** Trap 144 change flag bits (NoticeDataTrap144ChangeFlags). */
    public static final int TRAP144_NODE_DESCRIPTION_CHANGED = 0x01;
    public static final int TRAP144_LINK_WIDTH_ENABLED_CHANGED = 0x02;
    public static final int TRAP144_LINK_SPEED_ENABLED_CHANGED = 0x04;
    public static final int TRAP144_SM_PRIORITY_CHANGED = 0x08;
    public static final int TRAP144_HIERARCHY_INFO_CHANGED = 0x10;
    public static final int TRAP144_CAPABILITY_MASK2_CHANGED = 0x20;

    /**
     * Notice of trap 256 (bad M_Key): the LID, the DR SLID, method, attribute id and modifier and M_Key of the
     * offending SMP, and for a directed-route one the DRNotice and path-truncated bits, hop count and the return
     * path (30 bytes).
     */
    public static final Layout NOTICE_TRAP_256 = noticeHeader(Layout.builder("Notice(Trap256)", 64))
            .uint("NoticeDataTrap256LID", 96, 16)
            .uint("NoticeDataTrap256DrSlid", 112, 16)
            .hex("NoticeDataTrap256Method", 128, 8)
            .hex("NoticeDataTrap256AttrId", 144, 16)
            .hex("NoticeDataTrap256AttrMod", 160, 32)
            .hex("NoticeDataTrap256Mkey", 192, 64)
            .uint("NoticeDataTrap256DrNotice", 264, 1)
            .uint("NoticeDataTrap256DrTrunc", 265, 1)
            .uint("NoticeDataTrap256DrHopCnt", 266, 6)
            .field("NoticeDataTrap256DrRetPath", 272, 240, ARRAY)
            .build();

    private SmpAttributes() {
    }

    /**
     * The layout of a generic Notice of {@code trapNumber} with its data details laid out: 128, 129-131, 144 and
     * 256; for any other trap the generic {@link #NOTICE}.
     */
    public static Layout noticeFor(int trapNumber) {
        return switch (trapNumber) {
            case 128 -> NOTICE_TRAP_128;
            case 129, 130, 131 -> NOTICE_TRAP_129;
            case 144 -> NOTICE_TRAP_144;
            case 256 -> NOTICE_TRAP_256;
            default -> NOTICE;
        };
    }

    static Layout.Builder noticeHeader(Layout.Builder b) {
        return b.uint("NoticeIsGeneric", 0, 1)
                .uint("NoticeType", 1, 7)
                .field("NoticeProducerType", 8, 24, Printer.NODE_TYPE)
                .uint("NoticeTrapNumber", 32, 16)
                .uint("NoticeIssuerLID", 48, 16)
                .uint("NoticeToggle", 64, 1)
                .uint("NoticeCount", 65, 15);
    }

    static Layout.Builder repeat(Layout.Builder b, String prefix, int count, int bitOffset, int bitLength,
            Printer printer) {
        for (int i = 0; i < count; i++) {
            b.field(prefix + i, bitOffset + i * bitLength, bitLength, printer);
        }
        return b;
    }

    private static Layout vlArb() {
        Layout.Builder b = Layout.builder("VLArbitrationTable", 64);
        for (int i = 0; i < 32; i++) {
            b.uint("Entry" + i + "VL", i * 16 + 4, 4);
            b.uint("Entry" + i + "Weight", i * 16 + 8, 8);
        }
        return b.build();
    }
}
