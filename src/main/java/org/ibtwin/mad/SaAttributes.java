package org.ibtwin.mad;

/**
 * Subnet administration records (IBA 15.2.5), offsets from the start of the record (SA MAD byte 56). Sizes are the
 * records' own; in a GetTable response each record is padded to a multiple of 8 bytes
 * ({@link #tableStride(Layout)}). Records that hold an SMP attribute take its fields and names whole.
 */
public final class SaAttributes {

    /** NodeRecord, 108 bytes: LID, NodeInfo, NodeDescription. */
    public static final Layout NODE_RECORD = Layout.builder("NodeRecord", 108)
            .uint("Lid", 0, 16)
            .include(SmpAttributes.NODE_INFO, 32)
            .include(SmpAttributes.NODE_DESCRIPTION, 352)
            .build();

    /** PortInfoRecord, 68 bytes: end port LID, port number, options, PortInfo. */
    public static final Layout PORT_INFO_RECORD = Layout.builder("PortInfoRecord", 68)
            .uint("EndportLid", 0, 16)
            .uint("PortNum", 16, 8)
            .hex("Options", 24, 8)
            .include(SmpAttributes.PORT_INFO, 32)
            .build();

    /** SwitchInfoRecord, 24 bytes. */
    public static final Layout SWITCH_INFO_RECORD = Layout.builder("SwitchInfoRecord", 24)
            .uint("Lid", 0, 16)
            .include(SmpAttributes.SWITCH_INFO, 32)
            .build();

    /** LinearForwardingTableRecord, 72 bytes: switch LID, block number, one LFT block. */
    public static final Layout LFT_RECORD = Layout.builder("LinearForwardingTableRecord", 72)
            .uint("Lid", 0, 16)
            .uint("BlockNum", 16, 16)
            .include(SmpAttributes.LINEAR_FWD_TABLE, 64)
            .build();

    /** P_KeyTableRecord, 72 bytes: LID, block number, port number (switches), one P_Key block. */
    public static final Layout P_KEY_TABLE_RECORD = Layout.builder("P_KeyTableRecord", 72)
            .uint("Lid", 0, 16)
            .uint("BlockNum", 16, 16)
            .uint("PortNum", 32, 8)
            .include(SmpAttributes.P_KEY_TABLE, 64)
            .build();

    /** SMInfoRecord, 25 bytes. */
    public static final Layout SM_INFO_RECORD = Layout.builder("SMInfoRecord", 25)
            .uint("Lid", 0, 16)
            .include(SmpAttributes.SM_INFO, 32)
            .build();

    /** GUIDInfoRecord, 72 bytes. */
    public static final Layout GUID_INFO_RECORD = SmpAttributes.repeat(Layout.builder("GUIDInfoRecord", 72)
            .uint("Lid", 0, 16)
            .uint("BlockNum", 16, 8), "Guid", 8, 64, 64, Printer.HEX)
            .build();

    /** LinkRecord, 6 bytes: one link, from a port of one LID to a port of another. */
    public static final Layout LINK_RECORD = Layout.builder("LinkRecord", 6)
            .uint("FromLID", 0, 16)
            .uint("FromPort", 16, 8)
            .uint("ToPort", 24, 8)
            .uint("ToLID", 32, 16)
            .build();

    /**
     * PathRecord, 64 bytes. The selectors (2 bits before MTU, Rate, PacketLifeTime) say how a query compares the
     * value: 0 greater than, 1 less than, 2 exactly, 3 the best available.
     */
    public static final Layout PATH_RECORD = Layout.builder("PathRecord", 64)
            .hex("PathRecServiceId", 0, 64)
            .array("PathRecDGid", 64, 128)
            .array("PathRecSGid", 192, 128)
            .uint("PathRecDLid", 320, 16)
            .uint("PathRecSLid", 336, 16)
            .uint("PathRecRawTraffic", 352, 1)
            .hex("PathRecFlowLabel", 356, 20)
            .uint("PathRecHopLimit", 376, 8)
            .hex("PathRecTClass", 384, 8)
            .uint("PathRecReversible", 392, 1)
            .uint("PathRecNumPath", 393, 7)
            .hex("PathRecPKey", 400, 16)
            .uint("PathRecQosClass", 416, 12)
            .uint("PathRecSL", 428, 4)
            .uint("PathRecMtuSelector", 432, 2)
            .field("PathRecMtu", 434, 6, Printer.MTU)
            .uint("PathRecRateSelector", 440, 2)
            .uint("PathRecRate", 442, 6)
            .uint("PathRecPktLifeSelector", 448, 2)
            .uint("PathRecPktLife", 450, 6)
            .uint("PathRecPreference", 456, 8)
            .build();

    /** MCMemberRecord, 52 bytes. JoinState bits: 0 full member, 1 non-member, 2 send-only non-member. */
    public static final Layout MC_MEMBER_RECORD = Layout.builder("MCMemberRecord", 52)
            .array("McastMemMGid", 0, 128)
            .array("McastMemPortGid", 128, 128)
            .hex("McastMemQkey", 256, 32)
            .hex("McastMemMLid", 288, 16)
            .uint("McastMemMtuSelector", 304, 2)
            .uint("McastMemMTU", 306, 6)
            .uint("McastMemTClass", 312, 8)
            .uint("McastMemPkey", 320, 16)
            .uint("McastMemRateSelector", 336, 2)
            .uint("McastMemRate", 338, 6)
            .uint("McastMemPktLifeSelector", 344, 2)
            .uint("McastMemPktLife", 346, 6)
            .uint("McastMemSL", 352, 4)
            .uint("McastMemFlowLbl", 356, 20)
            .uint("McastMemHopLimit", 376, 8)
            .uint("McastMemScope", 384, 4)
            .uint("McastMemJoinState", 388, 4)
            .uint("McastMemProxyJoin", 392, 1)
            .build();

    /** ServiceRecord, 176 bytes; ServRecData is the 64 bytes of ServiceData8/16/32/64. */
    public static final Layout SERVICE_RECORD = Layout.builder("ServiceRecord", 176)
            .hex("ServRecID", 0, 64)
            .array("ServRecGid", 64, 128)
            .hex("ServRecPkey", 192, 16)
            .hex("ServRecLease", 224, 32)
            .array("ServRecKey", 256, 128)
            .field("ServRecName", 384, 512, Printer.STRING)
            .array("ServRecData", 896, 512)
            .build();

    /**
     * InformInfo, 36 bytes: a subscription to traps. For a generic subscription TrapNumber and ProducerType, for a
     * vendor one DeviceId and VendorId sit in the same bits.
     */
    public static final Layout INFORM_INFO = Layout.builder("InformInfo", 36)
            .array("InformGID", 0, 128)
            .uint("InformLIDRangeBegin", 128, 16)
            .uint("InformLIDRangeEnd", 144, 16)
            .uint("InformIsGeneric", 176, 8)
            .uint("InformSubscribe", 184, 8)
            .uint("InformType", 192, 16)
            .uint("InformTrapNumber", 208, 16)
            .hex("InformQPN", 224, 24)
            .uint("InformRespTimeVal", 251, 5)
            .field("InformProducerType", 264, 24, Printer.NODE_TYPE)
            .build();

    /**
     * InformInfoRecord, 60 bytes (64 apart in a table): a subscription as the SA holds it, the subscriber's port
     * GID, its number among that subscriber's subscriptions (Enum), the InformInfo.
     */
    public static final Layout INFORM_INFO_RECORD = Layout.builder("InformInfoRecord", 60)
            .array("SubscriberGID", 0, 128)
            .uint("SubscriberEnum", 128, 16)
            .include(INFORM_INFO, 192)
            .build();

    /** Notice as the SA reports it (Report, and InformInfo's subject): the SMP {@link SmpAttributes#NOTICE} plus the
     * IssuerGID, 80 bytes. */
    public static final Layout NOTICE = SmpAttributes.noticeHeader(Layout.builder("Notice(SA)", 80))
            .array("NoticeDataDetails", 80, 432)
            .array("NoticeIssuerGID", 512, 128)
            .build();

    private SaAttributes() {
    }

    /** The layout of SA record {@code attrId} (NodeRecord ... PathRecord, InformInfo), or null for another. */
    public static Layout record(int attrId) {
        return switch (attrId) {
            case AttributeIds.NODE_RECORD -> NODE_RECORD;
            case AttributeIds.PORT_INFO_RECORD -> PORT_INFO_RECORD;
            case AttributeIds.LINK_RECORD -> LINK_RECORD;
            case AttributeIds.SWITCH_INFO_RECORD -> SWITCH_INFO_RECORD;
            case AttributeIds.LFT_RECORD -> LFT_RECORD;
            case AttributeIds.P_KEY_TABLE_RECORD -> P_KEY_TABLE_RECORD;
            case AttributeIds.SM_INFO_RECORD -> SM_INFO_RECORD;
            case AttributeIds.MC_MEMBER_RECORD -> MC_MEMBER_RECORD;
            case AttributeIds.PATH_RECORD -> PATH_RECORD;
            case AttributeIds.INFORM_INFO -> INFORM_INFO;
            case AttributeIds.INFORM_INFO_RECORD -> INFORM_INFO_RECORD;
            case AttributeIds.GUID_INFO_RECORD -> GUID_INFO_RECORD;
            case AttributeIds.SERVICE_RECORD -> SERVICE_RECORD;
            default -> null;
        };
    }

    /** A record's size in a GetTable response: rounded up to a multiple of 8 bytes (AttributeOffset's unit). */
    public static int tableStride(Layout record) {
        return (record.size() + 7) & ~7;
    }
}
