package org.ibtwin.sm.sa;

import java.util.Arrays;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.Field;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.SaAttributes;
import org.ibtwin.mad.SaComponents;

/**
 * How this SA reads a query's component mask (IBA 15.2.5), over the components {@link SaComponents} names. A record
 * matches when it agrees with the template on every selected component, but for those this SA does not filter on:
 * PortInfoRecord's M_Key, and PathRecord's components other than RawTraffic and Preference ({@link Paths} answers
 * those from the template itself). PortInfoRecord's CapabilityMask is compared as "has every bit asked for" when the
 * attribute modifier's top bit is set (saquery -s asks so), exactly otherwise.
 */
final class ComponentMask {
    static final long PR_SERVICE_ID = pr("PathRecServiceId");
    static final long PR_DGID = pr("PathRecDGid");
    static final long PR_SGID = pr("PathRecSGid");
    static final long PR_DLID = pr("PathRecDLid");
    static final long PR_SLID = pr("PathRecSLid");
    static final long PR_TCLASS = pr("PathRecTClass");
    static final long PR_PKEY = pr("PathRecPKey");
    static final long PR_QOS_CLASS = pr("PathRecQosClass");
    static final long PR_SL = pr("PathRecSL");
    static final long PR_MTU_SELECTOR = pr("PathRecMtuSelector");
    static final long PR_MTU = pr("PathRecMtu");
    static final long PR_RATE_SELECTOR = pr("PathRecRateSelector");
    static final long PR_RATE = pr("PathRecRate");
    static final long PR_PKT_LIFE_SELECTOR = pr("PathRecPktLifeSelector");
    static final long PR_PKT_LIFE = pr("PathRecPktLife");
    static final long MCMR_MGID = SaComponents.bit(AttributeIds.MC_MEMBER_RECORD, "McastMemMGid");
    static final long MCMR_PORT_GID = SaComponents.bit(AttributeIds.MC_MEMBER_RECORD, "McastMemPortGid");
    static final long MCMR_JOIN_STATE = SaComponents.bit(AttributeIds.MC_MEMBER_RECORD, "McastMemJoinState");
    private static final long PIR_CAP_MASK = SaComponents.bit(AttributeIds.PORT_INFO_RECORD, "CapMask");
    /** The components filtered on, per record; every named one but for the exceptions above. */
    private static final long PIR_FILTERED = ~SaComponents.bit(AttributeIds.PORT_INFO_RECORD, "Mkey");
    private static final long PR_FILTERED = pr("PathRecRawTraffic") | pr("PathRecPreference");

    private ComponentMask() {
    }

    private static long pr(String field) {
        return SaComponents.bit(AttributeIds.PATH_RECORD, field);
    }

    /** The component mask bit of {@code field} of SA attribute {@code attrId}. */
    static long bit(int attrId, String field) {
        return SaComponents.bit(attrId, field);
    }

    /** The record layout of an SA attribute this SA serves, or null. */
    static Layout layout(int attrId) {
        return SaAttributes.record(attrId);
    }

    /** Whether {@code record} agrees with {@code template} on every component {@code mask} selects. */
    static boolean matches(int attrId, byte[] record, byte[] template, long mask, long attrMod) {
        int count = SaComponents.count(attrId);
        Layout l = layout(attrId);
        long filtered = switch (attrId) {
            case AttributeIds.PORT_INFO_RECORD -> PIR_FILTERED;
            case AttributeIds.PATH_RECORD -> PR_FILTERED;
            default -> -1L;
        };
        if (count == 0 || l == null || mask == 0) {
            return true;
        }
        for (int bit = 0; bit < count; bit++) {
            long b = 1L << bit;
            String name = SaComponents.name(attrId, bit);
            if ((mask & b & filtered) == 0 || name == null) {
                continue;
            }
            Field f = l.field(name);
            if (f.isArray()) {
                if (!Arrays.equals(l.getBytes(record, 0, f), l.getBytes(template, 0, f))) {
                    return false;
                }
                continue;
            }
            long want = l.get(template, 0, f);
            long have = l.get(record, 0, f);
            if (attrId == AttributeIds.PORT_INFO_RECORD && b == PIR_CAP_MASK && (attrMod & 0x80000000L) != 0) {
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
