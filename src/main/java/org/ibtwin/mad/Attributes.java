package org.ibtwin.mad;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The registry: which layout an attribute has, by management class and attribute id. Both SMP classes (LID routed
 * and directed route) share the SMP attributes; ClassPortInfo is the same in every GS class.
 */
public final class Attributes {
    private static final Map<Integer, Layout> BY_KEY;
    private static final List<Layout> ALL;

    static {
        Map<Integer, Layout> m = new HashMap<>();
        for (int smp : new int[] {MgmtClasses.SUBN_LID, MgmtClasses.SUBN_DIRECTED}) {
            m.put(key(smp, AttributeIds.NOTICE), SmpAttributes.NOTICE);
            m.put(key(smp, AttributeIds.NODE_DESC), SmpAttributes.NODE_DESCRIPTION);
            m.put(key(smp, AttributeIds.NODE_INFO), SmpAttributes.NODE_INFO);
            m.put(key(smp, AttributeIds.SWITCH_INFO), SmpAttributes.SWITCH_INFO);
            m.put(key(smp, AttributeIds.GUID_INFO), SmpAttributes.GUID_INFO);
            m.put(key(smp, AttributeIds.PORT_INFO), SmpAttributes.PORT_INFO);
            m.put(key(smp, AttributeIds.P_KEY_TABLE), SmpAttributes.P_KEY_TABLE);
            m.put(key(smp, AttributeIds.SL_TO_VL_TABLE), SmpAttributes.SL_TO_VL_TABLE);
            m.put(key(smp, AttributeIds.VL_ARB_TABLE), SmpAttributes.VL_ARB_TABLE);
            m.put(key(smp, AttributeIds.LINEAR_FWD_TABLE), SmpAttributes.LINEAR_FWD_TABLE);
            m.put(key(smp, AttributeIds.MCAST_FWD_TABLE), SmpAttributes.MCAST_FWD_TABLE);
            m.put(key(smp, AttributeIds.SM_INFO), SmpAttributes.SM_INFO);
            m.put(key(smp, AttributeIds.MLNX_EXT_PORT_INFO), SmpAttributes.MLNX_EXT_PORT_INFO);
        }
        int sa = MgmtClasses.SUBN_ADM;
        m.put(key(sa, AttributeIds.CLASS_PORT_INFO), PerfAttributes.CLASS_PORT_INFO);
        m.put(key(sa, AttributeIds.NOTICE), SaAttributes.NOTICE);
        m.put(key(sa, AttributeIds.INFORM_INFO), SaAttributes.INFORM_INFO);
        m.put(key(sa, AttributeIds.NODE_RECORD), SaAttributes.NODE_RECORD);
        m.put(key(sa, AttributeIds.PORT_INFO_RECORD), SaAttributes.PORT_INFO_RECORD);
        m.put(key(sa, AttributeIds.SWITCH_INFO_RECORD), SaAttributes.SWITCH_INFO_RECORD);
        m.put(key(sa, AttributeIds.LFT_RECORD), SaAttributes.LFT_RECORD);
        m.put(key(sa, AttributeIds.SM_INFO_RECORD), SaAttributes.SM_INFO_RECORD);
        m.put(key(sa, AttributeIds.LINK_RECORD), SaAttributes.LINK_RECORD);
        m.put(key(sa, AttributeIds.GUID_INFO_RECORD), SaAttributes.GUID_INFO_RECORD);
        m.put(key(sa, AttributeIds.SERVICE_RECORD), SaAttributes.SERVICE_RECORD);
        m.put(key(sa, AttributeIds.P_KEY_TABLE_RECORD), SaAttributes.P_KEY_TABLE_RECORD);
        m.put(key(sa, AttributeIds.PATH_RECORD), SaAttributes.PATH_RECORD);
        m.put(key(sa, AttributeIds.MC_MEMBER_RECORD), SaAttributes.MC_MEMBER_RECORD);
        int perf = MgmtClasses.PERF;
        m.put(key(perf, AttributeIds.CLASS_PORT_INFO), PerfAttributes.CLASS_PORT_INFO);
        m.put(key(perf, AttributeIds.PORT_COUNTERS), PerfAttributes.PORT_COUNTERS);
        m.put(key(perf, AttributeIds.PORT_COUNTERS_EXTENDED), PerfAttributes.PORT_COUNTERS_EXTENDED);
        m.put(key(perf, AttributeIds.PORT_RCV_ERROR_DETAILS), PerfAttributes.PORT_RCV_ERROR_DETAILS);
        m.put(key(perf, AttributeIds.PORT_XMIT_DISCARD_DETAILS), PerfAttributes.PORT_XMIT_DISCARD_DETAILS);
        BY_KEY = Collections.unmodifiableMap(m);

        Set<Layout> all = new LinkedHashSet<>();
        all.add(MadHeaders.MAD);
        all.add(MadHeaders.SMP_LID);
        all.add(MadHeaders.SMP_DR);
        all.add(MadHeaders.PERF);
        all.add(MadHeaders.SA);
        all.addAll(List.of(SmpAttributes.NODE_INFO, SmpAttributes.NODE_DESCRIPTION, SmpAttributes.PORT_INFO,
                SmpAttributes.SWITCH_INFO, SmpAttributes.GUID_INFO, SmpAttributes.P_KEY_TABLE,
                SmpAttributes.SL_TO_VL_TABLE, SmpAttributes.VL_ARB_TABLE, SmpAttributes.LINEAR_FWD_TABLE,
                SmpAttributes.MCAST_FWD_TABLE, SmpAttributes.SM_INFO, SmpAttributes.MLNX_EXT_PORT_INFO,
                SmpAttributes.NOTICE, SmpAttributes.NOTICE_TRAP_128, SmpAttributes.NOTICE_TRAP_129,
                SmpAttributes.NOTICE_TRAP_144, SmpAttributes.NOTICE_TRAP_256));
        all.addAll(List.of(PerfAttributes.CLASS_PORT_INFO, PerfAttributes.PORT_COUNTERS,
                PerfAttributes.PORT_COUNTERS_EXTENDED, PerfAttributes.PORT_RCV_ERROR_DETAILS,
                PerfAttributes.PORT_XMIT_DISCARD_DETAILS));
        all.addAll(List.of(SaAttributes.NODE_RECORD, SaAttributes.PORT_INFO_RECORD, SaAttributes.SWITCH_INFO_RECORD,
                SaAttributes.LFT_RECORD, SaAttributes.P_KEY_TABLE_RECORD, SaAttributes.SM_INFO_RECORD,
                SaAttributes.GUID_INFO_RECORD, SaAttributes.LINK_RECORD, SaAttributes.PATH_RECORD,
                SaAttributes.MC_MEMBER_RECORD, SaAttributes.SERVICE_RECORD, SaAttributes.INFORM_INFO,
                SaAttributes.NOTICE));
        all.addAll(BY_KEY.values());
        ALL = List.copyOf(new ArrayList<>(all));
    }

    private Attributes() {
    }

    private static int key(int mgmtClass, int attributeId) {
        return (mgmtClass & 0xff) << 16 | (attributeId & 0xffff);
    }

    /** The layout of attribute {@code attributeId} in class {@code mgmtClass}, if ibtwin knows it. */
    public static Optional<Layout> find(int mgmtClass, int attributeId) {
        return Optional.ofNullable(BY_KEY.get(key(mgmtClass, attributeId)));
    }

    /** The layout of an attribute; a {@link MadFormatException} when there is none. */
    public static Layout get(int mgmtClass, int attributeId) {
        Layout l = BY_KEY.get(key(mgmtClass, attributeId));
        if (l == null) {
            throw new MadFormatException(MgmtClasses.name(mgmtClass), null,
                    String.format("no layout for attribute 0x%04x", attributeId));
        }
        return l;
    }

    /** Every layout: the headers, every registered attribute and the trap-specific Notice layouts. */
    public static List<Layout> all() {
        return ALL;
    }
}
