package org.ibtwin.mad;

/**
 * The MAD headers as layouts over the whole 256-byte MAD: the common header (IBA 13.4.2), the LID-routed and the
 * directed-route SMP (14.2.1.1, 14.2.1.2), the PerfMgt (GS) MAD and the SA MAD with its RMPP header (15.2.1.1).
 * Field names are libibmad's where it has them.
 */
public final class MadHeaders {
    /** Every MAD is 256 bytes. */
    public static final int MAD_SIZE = 256;
    /** Where an SMP's attribute data starts, LID routed or directed route. */
    public static final int SMP_DATA_OFFSET = 64;
    public static final int SMP_DATA_SIZE = 64;
    /** Where a PerfMgt (and other GS without RMPP) attribute starts. */
    public static final int PERF_DATA_OFFSET = 64;
    public static final int PERF_DATA_SIZE = 192;
    /** Where an SA record starts. */
    public static final int SA_DATA_OFFSET = 56;
    public static final int SA_DATA_SIZE = 200;
    /** Directed-route paths hold up to 64 hops (bytes 0..63 of each path). */
    public static final int DR_PATH_SIZE = 64;

    /** The common MAD header, 24 bytes: every MAD starts with it. */
    public static final Layout MAD = common(Layout.builder("MAD", 24)).build();

    /** A LID-routed SMP: common header, M_Key, 32 reserved bytes, 64 bytes of data, 128 reserved. */
    public static final Layout SMP_LID = common(Layout.builder("SMP", MAD_SIZE))
            .hex("MadMkey", 192, 64)
            .array("SmpData", 512, 512)
            .build();

    /**
     * A directed-route SMP: the status word is the D bit and 15 bits of status; the class-specific word is the hop
     * pointer and hop count; then M_Key, DrSLID, DrDLID, 28 reserved bytes, 64 bytes of data, the initial path and
     * the return path (64 bytes each, entry 0 unused).
     */
    public static final Layout SMP_DR = Layout.builder("DirectedRouteSMP", MAD_SIZE)
            .uint("MadBaseVersion", 0, 8)
            .hex("MadMgmtClass", 8, 8)
            .uint("MadClassVersion", 16, 8)
            .uint("MadIsResponse", 24, 1)
            .hex("MadMethod", 25, 7)
            .uint("DrSmpDirection", 32, 1)
            .hex("DrSmpStatus", 33, 15)
            .uint("DrSmpHopPtr", 48, 8)
            .uint("DrSmpHopCnt", 56, 8)
            .hex("MadTRID", 64, 64)
            .hex("MadAttr", 128, 16)
            .hex("MadModifier", 160, 32)
            .hex("MadMkey", 192, 64)
            .uint("DrSmpSLID", 256, 16)
            .uint("DrSmpDLID", 272, 16)
            .array("SmpData", 512, 512)
            .array("DrSmpPath", 1024, 512)
            .array("DrSmpRetPath", 1536, 512)
            .build();

    /** A PerfMgt MAD: common header, 40 reserved bytes, 192 bytes of data. */
    public static final Layout PERF = common(Layout.builder("PerfMgtMAD", MAD_SIZE))
            .array("GsData", 512, 1536)
            .build();

    /**
     * An SA MAD: common header; the RMPP header (version, type, response time and flags, status, segment number,
     * payload length / new window last); SM_Key; AttributeOffset (in 8-byte words); ComponentMask; 200 bytes of
     * data.
     */
    public static final Layout SA = common(Layout.builder("SAMAD", MAD_SIZE))
            .uint("RmppVers", 192, 8)
            .uint("RmppType", 200, 8)
            .uint("RmppResp", 208, 5)
            .hex("RmppFlags", 213, 3)
            .hex("RmppStatus", 216, 8)
            .uint("RmppSegNum", 224, 32)
            .uint("RmppPayload", 256, 32)
            .hex("SaSMkey", 288, 64)
            .uint("SaAttrOffs", 352, 16)
            .hex("SaCompMask", 384, 64)
            .array("SaData", 448, 1600)
            .build();

    /** RMPP types (RmppType). */
    public static final int RMPP_TYPE_DATA = 1;
    public static final int RMPP_TYPE_ACK = 2;
    public static final int RMPP_TYPE_STOP = 3;
    public static final int RMPP_TYPE_ABORT = 4;
    /** RMPP flag bits (RmppFlags). */
    public static final int RMPP_FLAG_ACTIVE = 0x1;
    public static final int RMPP_FLAG_FIRST = 0x2;
    public static final int RMPP_FLAG_LAST = 0x4;

    private MadHeaders() {
    }

    private static Layout.Builder common(Layout.Builder b) {
        return b.uint("MadBaseVersion", 0, 8)
                .hex("MadMgmtClass", 8, 8)
                .uint("MadClassVersion", 16, 8)
                .uint("MadIsResponse", 24, 1)
                .hex("MadMethod", 25, 7)
                .hex("MadStatus", 32, 16)
                .hex("MadClassSpecific", 48, 16)
                .hex("MadTRID", 64, 64)
                .hex("MadAttr", 128, 16)
                .hex("MadModifier", 160, 32);
    }

    // ---- the few header bytes every handler reads, without a layout lookup

    /** The management class byte. */
    public static int mgmtClass(byte[] mad) {
        return check(mad, 1)[1] & 0xff;
    }

    /** The whole method byte, response bit included. */
    public static int method(byte[] mad) {
        return check(mad, 3)[3] & 0xff;
    }

    /** The attribute id. */
    public static int attributeId(byte[] mad) {
        check(mad, 17);
        return ((mad[16] & 0xff) << 8) | (mad[17] & 0xff);
    }

    /** The attribute modifier. */
    public static long attributeModifier(byte[] mad) {
        check(mad, 23);
        return ((mad[20] & 0xffL) << 24) | ((mad[21] & 0xff) << 16) | ((mad[22] & 0xff) << 8) | (mad[23] & 0xff);
    }

    /** The transaction id. */
    public static long tid(byte[] mad) {
        check(mad, 15);
        long v = 0;
        for (int i = 8; i < 16; i++) {
            v = (v << 8) | (mad[i] & 0xff);
        }
        return v;
    }

    /** Where the attribute data of a MAD of {@code mgmtClass} starts: 56 for the SA, 64 otherwise. */
    public static int dataOffset(int mgmtClass) {
        return mgmtClass == MgmtClasses.SUBN_ADM ? SA_DATA_OFFSET : SMP_DATA_OFFSET;
    }

    private static byte[] check(byte[] mad, int lastByte) {
        if (mad == null || mad.length <= lastByte) {
            throw new MadFormatException("MAD", null, "buffer truncated: " + (mad == null ? "null" : mad.length
                    + " bytes") + ", the common header is 24");
        }
        return mad;
    }
}
