package org.ibtwin.sm.sa;

import java.util.Arrays;
import java.util.Map;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.Field;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.SaAttributes;

/**
 * Component masks (IBA 15.2.5): bit i of a query's ComponentMask says "compare component i of the template". The
 * components of each record, in bit order, named by their fields in {@link SaAttributes}' layouts (null: a reserved
 * component, or one this SA does not compare). PortInfoRecord's CapabilityMask is compared as "has every bit asked
 * for" when the attribute modifier's top bit is set (saquery -s asks so), exactly otherwise.
 */
final class ComponentMask {
    static final long PR_SERVICE_ID = 0x3;
    static final long PR_DGID = 1L << 2;
    static final long PR_SGID = 1L << 3;
    static final long PR_DLID = 1L << 4;
    static final long PR_SLID = 1L << 5;
    static final long PR_TCLASS = 1L << 10;
    static final long PR_PKEY = 1L << 13;
    static final long PR_SL = 1L << 15;
    static final long PR_MTU_SELECTOR = 1L << 16;
    static final long PR_MTU = 1L << 17;
    static final long PR_RATE_SELECTOR = 1L << 18;
    static final long PR_RATE = 1L << 19;
    static final long PR_PKT_LIFE_SELECTOR = 1L << 20;
    static final long PR_PKT_LIFE = 1L << 21;
    static final long MCMR_MGID = 1L;
    static final long MCMR_PORT_GID = 1L << 1;
    static final long MCMR_JOIN_STATE = 1L << 16;
    private static final int PIR_CAP_MASK_BIT = 7;

    private static final Map<Integer, String[]> COMPONENTS = Map.of(
            AttributeIds.NODE_RECORD, new String[] {"Lid", null, "BaseVers", "ClassVers", "NodeType", "NumPorts",
                "SystemGuid", "Guid", "PortGuid", "PartCap", "DevId", "Revision", "LocalPort", "VendorId",
                "NodeDesc"},
            AttributeIds.PORT_INFO_RECORD, new String[] {"EndportLid", "PortNum", "Options", null, "GidPrefix", "Lid",
                "SMLid", "CapMask"},
            AttributeIds.LINK_RECORD, new String[] {"FromLID", "FromPort", "ToPort", "ToLID"},
            AttributeIds.SWITCH_INFO_RECORD, new String[] {"Lid"},
            AttributeIds.LFT_RECORD, new String[] {"Lid", "BlockNum"},
            AttributeIds.P_KEY_TABLE_RECORD, new String[] {"Lid", "BlockNum", "PortNum"},
            AttributeIds.SM_INFO_RECORD, new String[] {"Lid", null, "SmInfoGuid", "SmInfoKey", "SmActivity",
                "SmPriority", "SmState"},
            AttributeIds.MC_MEMBER_RECORD, new String[] {"McastMemMGid", "McastMemPortGid", "McastMemQkey",
                "McastMemMLid", "McastMemMtuSelector", "McastMemMTU", "McastMemTClass", "McastMemPkey",
                "McastMemRateSelector", "McastMemRate", "McastMemPktLifeSelector", "McastMemPktLife", "McastMemSL",
                "McastMemFlowLbl", "McastMemHopLimit", "McastMemScope", "McastMemJoinState", "McastMemProxyJoin"},
            AttributeIds.PATH_RECORD, new String[] {null, null, null, null, null, null, "PathRecRawTraffic", null,
                null, null, null, null, null, null, null, null, null, null, null, null, null, null,
                "PathRecPreference"});

    private ComponentMask() {
    }

    /** The component mask bit of {@code field} of SA attribute {@code attrId}. */
    static long bit(int attrId, String field) {
        String[] names = COMPONENTS.get(attrId);
        for (int b = 0; b < names.length; b++) {
            if (field.equals(names[b])) {
                return 1L << b;
            }
        }
        throw new IllegalArgumentException("no component " + field);
    }

    /** The record layout of an SA attribute this SA serves, or null. */
    static Layout layout(int attrId) {
        return switch (attrId) {
            case AttributeIds.NODE_RECORD -> SaAttributes.NODE_RECORD;
            case AttributeIds.PORT_INFO_RECORD -> SaAttributes.PORT_INFO_RECORD;
            case AttributeIds.LINK_RECORD -> SaAttributes.LINK_RECORD;
            case AttributeIds.SWITCH_INFO_RECORD -> SaAttributes.SWITCH_INFO_RECORD;
            case AttributeIds.LFT_RECORD -> SaAttributes.LFT_RECORD;
            case AttributeIds.P_KEY_TABLE_RECORD -> SaAttributes.P_KEY_TABLE_RECORD;
            case AttributeIds.SM_INFO_RECORD -> SaAttributes.SM_INFO_RECORD;
            case AttributeIds.MC_MEMBER_RECORD -> SaAttributes.MC_MEMBER_RECORD;
            case AttributeIds.PATH_RECORD -> SaAttributes.PATH_RECORD;
            case AttributeIds.INFORM_INFO -> SaAttributes.INFORM_INFO;
            default -> null;
        };
    }

    /** Whether {@code record} agrees with {@code template} on every component {@code mask} selects. */
    static boolean matches(int attrId, byte[] record, byte[] template, long mask, long attrMod) {
        String[] names = COMPONENTS.get(attrId);
        Layout l = layout(attrId);
        if (names == null || l == null || mask == 0) {
            return true;
        }
        for (int bit = 0; bit < names.length; bit++) {
            if ((mask & (1L << bit)) == 0 || names[bit] == null) {
                continue;
            }
            Field f = l.field(names[bit]);
            if (f.isArray()) {
                if (!Arrays.equals(l.getBytes(record, 0, f), l.getBytes(template, 0, f))) {
                    return false;
                }
                continue;
            }
            long want = l.get(template, 0, f);
            long have = l.get(record, 0, f);
            if (attrId == AttributeIds.PORT_INFO_RECORD && bit == PIR_CAP_MASK_BIT && (attrMod & 0x80000000L) != 0) {
                if ((have & want) != want) {
                    return false;
                }
            } else if (have != want) {
                return false;
            }
        }
        return true;
    }
}
