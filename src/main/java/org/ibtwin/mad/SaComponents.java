package org.ibtwin.mad;

import java.util.Map;

/**
 * Component masks (IBA 15.2.5): bit i of an SA query's ComponentMask says "component i of the template counts". The
 * components of each record, in bit order, named by their fields in {@link SaAttributes}' layouts; null is a
 * reserved component, or one no field here names. The SA server reads this table to filter records, its clients
 * (saquery) to build templates, so both speak of the same bits by the same names.
 */
public final class SaComponents {
    private static final Map<Integer, String[]> COMPONENTS = Map.ofEntries(
            Map.entry(AttributeIds.NODE_RECORD, new String[] {"Lid", null, "BaseVers", "ClassVers", "NodeType",
                "NumPorts", "SystemGuid", "Guid", "PortGuid", "PartCap", "DevId", "Revision", "LocalPort",
                "VendorId", "NodeDesc"}),
            Map.entry(AttributeIds.PORT_INFO_RECORD, new String[] {"EndportLid", "PortNum", "Options", "Mkey",
                "GidPrefix", "Lid", "SMLid", "CapMask"}),
            Map.entry(AttributeIds.LINK_RECORD, new String[] {"FromLID", "FromPort", "ToPort", "ToLID"}),
            Map.entry(AttributeIds.SWITCH_INFO_RECORD, new String[] {"Lid"}),
            Map.entry(AttributeIds.LFT_RECORD, new String[] {"Lid", "BlockNum"}),
            Map.entry(AttributeIds.P_KEY_TABLE_RECORD, new String[] {"Lid", "BlockNum", "PortNum"}),
            Map.entry(AttributeIds.SM_INFO_RECORD, new String[] {"Lid", null, "SmInfoGuid", "SmInfoKey",
                "SmActivity", "SmPriority", "SmState"}),
            Map.entry(AttributeIds.MC_MEMBER_RECORD, new String[] {"McastMemMGid", "McastMemPortGid",
                "McastMemQkey", "McastMemMLid", "McastMemMtuSelector", "McastMemMTU", "McastMemTClass",
                "McastMemPkey", "McastMemRateSelector", "McastMemRate", "McastMemPktLifeSelector", "McastMemPktLife",
                "McastMemSL", "McastMemFlowLbl", "McastMemHopLimit", "McastMemScope", "McastMemJoinState",
                "McastMemProxyJoin"}),
            // components 7..36 are ServiceData8/16/32/64, one each: one array here, not filtered on
            Map.entry(AttributeIds.SERVICE_RECORD, new String[] {"ServRecID", "ServRecGid", "ServRecPkey", null,
                "ServRecLease", "ServRecKey", "ServRecName"}),
            // the 64-bit ServiceID is two components (its two halves); bit 7 is reserved
            Map.entry(AttributeIds.PATH_RECORD, new String[] {"PathRecServiceId", "PathRecServiceId",
                "PathRecDGid", "PathRecSGid", "PathRecDLid", "PathRecSLid", "PathRecRawTraffic", null,
                "PathRecFlowLabel", "PathRecHopLimit", "PathRecTClass", "PathRecReversible", "PathRecNumPath",
                "PathRecPKey", "PathRecQosClass", "PathRecSL", "PathRecMtuSelector", "PathRecMtu",
                "PathRecRateSelector", "PathRecRate", "PathRecPktLifeSelector", "PathRecPktLife",
                "PathRecPreference"}),
            // LID, block, two reserved components, then the eight GUIDs of the block
            Map.entry(AttributeIds.GUID_INFO_RECORD, new String[] {"Lid", "BlockNum", null, null, "Guid0", "Guid1",
                "Guid2", "Guid3", "Guid4", "Guid5", "Guid6", "Guid7"}),
            // the subscriber and its Enum; the InformInfo's own components are not filtered on
            Map.entry(AttributeIds.INFORM_INFO_RECORD, new String[] {"SubscriberGID", "SubscriberEnum"}));

    private SaComponents() {
    }

    /** How many components {@code attrId}'s record has here (0 for a record without a table). */
    public static int count(int attrId) {
        String[] names = COMPONENTS.get(attrId);
        return names == null ? 0 : names.length;
    }

    /** The field component {@code bit} of {@code attrId}'s record names, or null (reserved, or none named). */
    public static String name(int attrId, int bit) {
        String[] names = COMPONENTS.get(attrId);
        return names == null || bit < 0 || bit >= names.length ? null : names[bit];
    }

    /**
     * The component mask bits of {@code field} of SA record {@code attrId}: one bit, or more for a field that is
     * several components (PathRecord's ServiceID is bits 0 and 1).
     */
    public static long bit(int attrId, String field) {
        String[] names = COMPONENTS.get(attrId);
        long mask = 0;
        for (int b = 0; names != null && b < names.length; b++) {
            if (field.equals(names[b])) {
                mask |= 1L << b;
            }
        }
        if (mask == 0) {
            throw new IllegalArgumentException("no component " + field + " in attribute 0x"
                    + Integer.toHexString(attrId));
        }
        return mask;
    }

    /** The bits of a value and its selector (MTU, Rate, PacketLifeTime): both components. */
    public static long selected(int attrId, String selectorField, String valueField) {
        return bit(attrId, selectorField) | bit(attrId, valueField);
    }
}
