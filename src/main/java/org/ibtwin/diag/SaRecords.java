package org.ibtwin.diag;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.ibtwin.mad.Field;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.PerfAttributes;
import org.ibtwin.mad.SaAttributes;
import org.ibtwin.mad.SmpAttributes;

/**
 * SA records as infiniband-diags' saquery prints them ("NodeRecord dump:" and its dotted lines), and as ibtwin's
 * {@code --json} gives them. Each printer appends one record's text to {@code out}; {@link SaQueries} picks the
 * printer for a query from its table.
 */
public final class SaRecords {
    private SaRecords() {
    }

    /** A NodeRecord's NodeDescription: its bytes up to the first NUL. */
    public static String description(byte[] nodeRecord) {
        int end = 44;
        while (end < 108 && nodeRecord[end] != 0) {
            end++;
        }
        return new String(nodeRecord, 44, end - 44, StandardCharsets.UTF_8);
    }

    /**
     * A record as --json gives it: "record" (the layout's name), then every field by its layout name; GIDs in
     * inet_ntop's form, 64-bit values (GUIDs, keys) as 0x and 16 hex digits, other arrays as the layout prints them.
     */
    public static Map<String, Object> json(Layout l, byte[] r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("record", l.name());
        for (Field f : l.fields()) {
            if (f.isArray() && f.byteSpan() == 16) {
                m.put(f.name(), Gids.ntop(l.getBytes(r, 0, f)));
            } else if (f.isArray()) {
                m.put(f.name(), l.format(r, 0, f));
            } else if (f.bitLength() == 64) {
                // GUIDs and keys: unsigned 64-bit values, printed as the GUIDs of every other --json
                m.put(f.name(), String.format("0x%016x", l.get(r, 0, f)));
            } else {
                m.put(f.name(), l.get(r, 0, f));
            }
        }
        return m;
    }

    /** saquery -D's heading, before the CA lines ({@link #caLine}). */
    public static final String CA_LIST_HEADER = "   LID \"name\"\n================\n";

    /** saquery -D's line for a CA's NodeRecord: its LID and description. */
    public static void caLine(byte[] r, StringBuilder out) {
        out.append(String.format("%6d  \"%s\"%n", SaAttributes.NODE_RECORD.get(r, 0, "Lid"), description(r)));
    }

    /** saquery -s's short PortInfoRecord dump. */
    public static void issmPort(byte[] r, StringBuilder out) {
        Layout l = SaAttributes.PORT_INFO_RECORD;
        out.append("PortInfoRecord dump:\n")
                .append(String.format("\t\tEndPortLid..............%d%n", l.get(r, 0, "EndportLid")))
                .append(String.format("\t\tPortNum.................%d%n", l.get(r, 0, "PortNum")))
                .append(String.format("\t\tbase_lid................%d%n", l.get(r, 0, "Lid")))
                .append(String.format("\t\tmaster_sm_base_lid......%d%n", l.get(r, 0, "SMLid")))
                .append(String.format("\t\tcapability_mask.........0x%X%n", l.get(r, 0, "CapMask")));
    }

    /** saquery -m's dump of one member ({@code node}: the member port's node description, or "&lt;unknown&gt;"). */
    public static void member(byte[] r, String node, StringBuilder out) {
        Layout l = SaAttributes.MC_MEMBER_RECORD;
        out.append("MCMemberRecord member dump:\n")
                .append(String.format("\t\tMGID....................%s%n", Gids.ntop(l.getBytes(r, 0, "McastMemMGid"))))
                .append(String.format("\t\tMlid....................0x%X%n", l.get(r, 0, "McastMemMLid")))
                .append(String.format("\t\tPortGid.................%s%n",
                        Gids.ntop(l.getBytes(r, 0, "McastMemPortGid"))))
                .append(String.format("\t\tScopeState..............0x%X%n",
                        (l.get(r, 0, "McastMemScope") << 4) | l.get(r, 0, "McastMemJoinState")))
                .append(String.format("\t\tProxyJoin...............0x%X%n", l.get(r, 0, "McastMemProxyJoin")))
                .append(String.format("\t\tNodeDescription.........%s%n", node));
    }

    /** saquery -m &lt;mlid&gt;'s line for one member of that group. */
    public static void memberGid(byte[] r, String node, StringBuilder out) {
        out.append(String.format("\t\tPortGid.................%s (%s)%n",
                Gids.ntop(SaAttributes.MC_MEMBER_RECORD.getBytes(r, 0, "McastMemPortGid")), node));
    }

    public static void nodeRecord(byte[] r, StringBuilder out) {
        Layout l = SaAttributes.NODE_RECORD;
        int type = (int) l.get(r, 0, "NodeType");
        out.append("NodeRecord dump:\n")
                .append(String.format("\t\tlid.....................%d%n", l.get(r, 0, "Lid")))
                .append(String.format("\t\treserved................0x%X%n", ((r[2] & 0xff) << 8) | (r[3] & 0xff)))
                .append(String.format("\t\tbase_version............0x%X%n", l.get(r, 0, "BaseVers")))
                .append(String.format("\t\tclass_version...........0x%X%n", l.get(r, 0, "ClassVers")))
                .append(String.format("\t\tnode_type...............%s%n", nodeType(type)))
                .append(String.format("\t\tnum_ports...............%d%n", l.get(r, 0, "NumPorts")))
                .append(String.format("\t\tsys_guid................0x%016x%n", l.get(r, 0, "SystemGuid")))
                .append(String.format("\t\tnode_guid...............0x%016x%n", l.get(r, 0, "Guid")))
                .append(String.format("\t\tport_guid...............0x%016x%n", l.get(r, 0, "PortGuid")))
                .append(String.format("\t\tpartition_cap...........0x%X%n", l.get(r, 0, "PartCap")))
                .append(String.format("\t\tdevice_id...............0x%X%n", l.get(r, 0, "DevId")))
                .append(String.format("\t\trevision................0x%X%n", l.get(r, 0, "Revision")))
                .append(String.format("\t\tport_num................%d%n", l.get(r, 0, "LocalPort")))
                .append(String.format("\t\tvendor_id...............0x%X%n", l.get(r, 0, "VendorId")))
                .append(String.format("\t\tNodeDescription.........%s%n", description(r)));
    }

    /** saquery's InformInfoRecord dump (-I, IIR): the subscriber, then its InformInfo, generic or vendor. */
    public static void informInfoRecord(byte[] r, StringBuilder out) {
        Layout l = SaAttributes.INFORM_INFO_RECORD;
        boolean generic = l.get(r, 0, "InformIsGeneric") != 0;
        out.append("InformInfoRecord dump:\n\t\tRID\n")
                .append(String.format("\t\tSubscriberGID...........%s%n", Gids.ntop(l.getBytes(r, 0, "SubscriberGID"))))
                .append(String.format("\t\tSubscriberEnum..........0x%X%n", l.get(r, 0, "SubscriberEnum")))
                .append("\t\tInformInfo dump:\n")
                .append(String.format("\t\tgid.....................%s%n", Gids.ntop(l.getBytes(r, 0, "InformGID"))))
                .append(String.format("\t\tlid_range_begin.........%d%n", l.get(r, 0, "InformLIDRangeBegin")))
                .append(String.format("\t\tlid_range_end...........%d%n", l.get(r, 0, "InformLIDRangeEnd")))
                .append(String.format("\t\tis_generic..............0x%X%n", l.get(r, 0, "InformIsGeneric")))
                .append(String.format("\t\tsubscribe...............0x%X%n", l.get(r, 0, "InformSubscribe")))
                .append(String.format("\t\ttrap_type...............0x%X%n", l.get(r, 0, "InformType")));
        if (generic) {
            out.append(String.format("\t\ttrap_num................%d%n", l.get(r, 0, "InformTrapNumber")));
        } else {
            out.append(String.format("\t\tdev_id..................0x%X%n", l.get(r, 0, "InformTrapNumber")));
        }
        out.append("\t\tqpn.....................<not displayed>\n")
                .append(String.format("\t\tresp_time_val...........0x%X%n", l.get(r, 0, "InformRespTimeVal")));
        if (generic) {
            out.append(String.format("\t\tnode_type...............0x%06X%n", l.get(r, 0, "InformProducerType")));
        } else {
            out.append(String.format("\t\tvendor_id...............0x%06X%n", l.get(r, 0, "InformProducerType")));
        }
    }

    /** saquery's GUIDInfoRecord dump (GIR): the LID, the block and its eight GUIDs. */
    public static void guidInfoRecord(byte[] r, StringBuilder out) {
        Layout l = SaAttributes.GUID_INFO_RECORD;
        out.append("GUIDInfo Record dump:\n")
                .append(String.format("\t\tLID........................%d%n", l.get(r, 0, "Lid")))
                .append(String.format("\t\tBlock......................%d%n", l.get(r, 0, "BlockNum")));
        for (int i = 0; i < 8; i++) {
            out.append(String.format("\t\tGUID %d.....................0x%016x%n", i, l.get(r, 0, "Guid" + i)));
        }
    }

    /**
     * saquery's ServiceRecord dump (-S, SR): ServiceID, GID, P_Key, lease, the key not shown, the name, then the
     * service data as 16 bytes, 8 16-bit words, 4 32-bit and 2 64-bit words, numbered from 1.
     */
    public static void serviceRecord(byte[] r, StringBuilder out) {
        Layout l = SaAttributes.SERVICE_RECORD;
        byte[] name = l.getBytes(r, 0, "ServRecName");
        int end = 0;
        while (end < name.length && name[end] != 0) {
            end++;
        }
        out.append("ServiceRecord dump:\n")
                .append(String.format("\t\tServiceID...............0x%016x%n", l.get(r, 0, "ServRecID")))
                .append(String.format("\t\tServiceGID..............%s%n", Gids.ntop(l.getBytes(r, 0, "ServRecGid"))))
                .append(String.format("\t\tServiceP_Key............0x%X%n", l.get(r, 0, "ServRecPkey")))
                .append(String.format("\t\tServiceLease............0x%X%n", l.get(r, 0, "ServRecLease")))
                .append("\t\tServiceKey..............<not displayed>\n")
                .append(String.format("\t\tServiceName.............%s%n",
                        new String(name, 0, end, StandardCharsets.UTF_8)));
        byte[] d = l.getBytes(r, 0, "ServRecData");
        int at = 0;
        for (int[] words : new int[][] {{8, 16}, {16, 8}, {32, 4}, {64, 2}}) {
            int bytes = words[0] / 8;
            for (int i = 1; i <= words[1]; i++) {
                long v = 0;
                for (int b = 0; b < bytes; b++) {
                    v = (v << 8) | (d[at++] & 0xff);
                }
                String label = "ServiceData" + words[0] + "." + i;
                String value = words[0] == 64 ? String.format("0x%016x", v) : String.format("0x%X", v);
                out.append("\t\t").append(label).append(".".repeat(Math.max(1, 24 - label.length())))
                        .append(value).append('\n');
            }
        }
    }

    private static String nodeType(int t) {
        return switch (t) {
            case 1 -> "Channel Adapter";
            case 2 -> "Switch";
            case 3 -> "Router";
            default -> "UNKNOWN";
        };
    }

    public static void pathRecord(byte[] r, StringBuilder out) {
        Layout l = SaAttributes.PATH_RECORD;
        long hopFlowRaw = (l.get(r, 0, "PathRecRawTraffic") << 31) | (l.get(r, 0, "PathRecFlowLabel") << 8)
                | l.get(r, 0, "PathRecHopLimit");
        out.append("PathRecord dump:\n")
                .append(String.format("\t\tservice_id..............0x%016x%n", l.get(r, 0, "PathRecServiceId")))
                .append(String.format("\t\tdgid....................%s%n", Gids.ntop(l.getBytes(r, 0, "PathRecDGid"))))
                .append(String.format("\t\tsgid....................%s%n", Gids.ntop(l.getBytes(r, 0, "PathRecSGid"))))
                .append(String.format("\t\tdlid....................%d%n", l.get(r, 0, "PathRecDLid")))
                .append(String.format("\t\tslid....................%d%n", l.get(r, 0, "PathRecSLid")))
                .append(String.format("\t\thop_flow_raw............0x%X%n", hopFlowRaw))
                .append(String.format("\t\ttclass..................0x%X%n", l.get(r, 0, "PathRecTClass")))
                .append(String.format("\t\tnum_path_revers.........0x%X%n", (l.get(r, 0, "PathRecReversible") << 7)
                        | l.get(r, 0, "PathRecNumPath")))
                .append(String.format("\t\tpkey....................0x%X%n", l.get(r, 0, "PathRecPKey")))
                .append(String.format("\t\tqos_class...............0x%X%n", l.get(r, 0, "PathRecQosClass")))
                .append(String.format("\t\tsl......................0x%X%n", l.get(r, 0, "PathRecSL")))
                .append(String.format("\t\tmtu.....................0x%X%n", sel(l, r, "PathRecMtu")))
                .append(String.format("\t\trate....................0x%X%n", sel(l, r, "PathRecRate")))
                .append(String.format("\t\tpkt_life................0x%X%n", sel(l, r, "PathRecPktLife")))
                .append(String.format("\t\tpreference..............0x%X%n", l.get(r, 0, "PathRecPreference")))
                .append(String.format("\t\tresv2...................0x%02X%02X%02X%02X%02X%02X%n", r[58], r[59], r[60],
                        r[61], r[62], r[63]));
    }

    /** A value and its selector as one byte prints: selector in the top two bits. */
    private static long sel(Layout l, byte[] r, String field) {
        String selector = field.replace("PathRecMtu", "PathRecMtuSelector").replace("PathRecRate",
                "PathRecRateSelector").replace("PathRecPktLife", "PathRecPktLifeSelector").replace("McastMemMTU",
                "McastMemMtuSelector").replace("McastMemRate", "McastMemRateSelector").replace("McastMemPktLife",
                "McastMemPktLifeSelector");
        return (l.get(r, 0, selector) << 6) | l.get(r, 0, field);
    }

    public static void portInfoRecord(byte[] r, StringBuilder out) {
        Layout l = SaAttributes.PORT_INFO_RECORD;
        out.append("PortInfoRecord dump:\n\tRID\n")
                .append(String.format("\t\tEndPortLid..............%d%n", l.get(r, 0, "EndportLid")))
                .append(String.format("\t\tPortNum.................%d%n", l.get(r, 0, "PortNum")))
                .append(String.format("\t\tOptions.................0x%x%n", l.get(r, 0, "Options")))
                .append("\tPortInfo dump:\n");
        Layout pi = SmpAttributes.PORT_INFO;
        for (Field f : pi.dumpFields()) {
            out.append("\t\t");
            if (f.name().equals("Mkey")) {
                out.append(Layout.line(f.name(), "<not displayed>"));
            } else {
                out.append(pi.dumpLine(f, r, 4));
            }
            out.append('\n');
        }
    }

    public static void linkRecord(byte[] r, StringBuilder out) {
        Layout l = SaAttributes.LINK_RECORD;
        out.append("LinkRecord dump:\n")
                .append(String.format("\t\tFromLID....................%d%n", l.get(r, 0, "FromLID")))
                .append(String.format("\t\tFromPort...................%d%n", l.get(r, 0, "FromPort")))
                .append(String.format("\t\tToPort.....................%d%n", l.get(r, 0, "ToPort")))
                .append(String.format("\t\tToLID......................%d%n", l.get(r, 0, "ToLID")));
    }

    public static void pkeyTableRecord(byte[] r, StringBuilder out) {
        Layout l = SaAttributes.P_KEY_TABLE_RECORD;
        out.append("PKeyTableRecord dump:\n")
                .append(String.format("\t\tLID........................%d%n", l.get(r, 0, "Lid")))
                .append(String.format("\t\tPort.......................%d%n", l.get(r, 0, "PortNum")))
                .append(String.format("\t\tBlock......................%d%n", l.get(r, 0, "BlockNum")))
                .append("\t\tPKey Table:\n");
        for (int i = 0; i < 32; i += 8) {
            out.append("\t\t");
            for (int j = 0; j < 8; j++) {
                int o = 8 + 2 * (i + j);
                out.append(String.format(j == 0 ? "0x%04x" : " 0x%04x", ((r[o] & 0xff) << 8) | (r[o + 1] & 0xff)));
            }
            out.append('\n');
        }
        out.append('\n');
    }

    public static void lftRecord(byte[] r, StringBuilder out) {
        Layout l = SaAttributes.LFT_RECORD;
        long block = l.get(r, 0, "BlockNum");
        out.append("LFT Record dump:\n")
                .append(String.format("\t\tLID........................%d%n", l.get(r, 0, "Lid")))
                .append(String.format("\t\tBlock......................%d%n", block))
                .append("\t\tLFT:\n\t\tLID\tPort Number\n");
        for (int i = 0; i < 64; i++) {
            out.append(String.format("\t\t%d\t%d%n", block * 64 + i, r[8 + i] & 0xff));
        }
        out.append('\n');
    }

    public static void smInfoRecord(byte[] r, StringBuilder out) {
        Layout l = SaAttributes.SM_INFO_RECORD;
        out.append("SMInfoRecord dump:\n\t\tRID\n")
                .append(String.format("\t\tLID...................%d%n", l.get(r, 0, "Lid")))
                .append("\t\tSMInfo dump:\n")
                .append(String.format("\t\tGUID..................0x%016x%n", l.get(r, 0, "SmInfoGuid")))
                .append(String.format("\t\tSM_Key................0x%016x%n", l.get(r, 0, "SmInfoKey")))
                .append(String.format("\t\tActCount..............%d%n", l.get(r, 0, "SmActivity")))
                .append(String.format("\t\tPriority..............%d%n", l.get(r, 0, "SmPriority")))
                .append(String.format("\t\tSMState...............%d%n", l.get(r, 0, "SmState")));
    }

    /** With the SA's ClassPortInfo {@code cpi} (null: not read), which says whether MulticastFDBTop is there. */
    public static void switchInfoRecord(byte[] r, byte[] cpi, StringBuilder out) {
        Layout l = SaAttributes.SWITCH_INFO_RECORD;
        long life = (l.get(r, 0, "LifeTime") << 3) | (l.get(r, 0, "StateChange") << 2) | l.get(r, 0,
                "OptSLtoVLMapping");
        long flags = (l.get(r, 0, "InboundPartEnf") << 7) | (l.get(r, 0, "OutboundPartEnf") << 6)
                | (l.get(r, 0, "FilterRawInbound") << 5) | (l.get(r, 0, "FilterRawOutbound") << 4)
                | (l.get(r, 0, "EnhancedPort0") << 3);
        out.append("SwitchInfoRecord dump:\n\t\tRID\n")
                .append(String.format("\t\tLID.....................................%d%n", l.get(r, 0, "Lid")))
                .append("\t\tSwitchInfo dump:\n")
                .append(String.format("\t\tLinearFDBCap............................0x%X%n", l.get(r, 0, "LinearFdbCap")))
                .append(String.format("\t\tRandomFDBCap............................0x%X%n", l.get(r, 0, "RandomFdbCap")))
                .append(String.format("\t\tMulticastFDBCap.........................0x%X%n", l.get(r, 0, "McastFdbCap")))
                .append(String.format("\t\tLinearFDBTop............................0x%X%n", l.get(r, 0, "LinearFdbTop")))
                .append(String.format("\t\tDefaultPort.............................%d%n", l.get(r, 0, "DefPort")))
                .append(String.format("\t\tDefaultMulticastPrimaryPort.............%d%n", l.get(r, 0,
                        "DefMcastPrimPort")))
                .append(String.format("\t\tDefaultMulticastNotPrimaryPort..........%d%n", l.get(r, 0,
                        "DefMcastNotPrimPort")))
                .append(String.format("\t\tLifeTimeValue/PortStateChange/OpSL2VL...0x%X%n", life))
                .append(String.format("\t\tLIDsPerPort.............................0x%X%n", l.get(r, 0, "LidsPerPort")))
                .append(String.format("\t\tPartitionEnforcementCap.................0x%X%n", l.get(r, 0,
                        "PartEnforceCap")))
                .append(String.format("\t\tflags...................................0x%X%n", flags));
        long cap2 = cpi == null ? 0 : PerfAttributes.CLASS_PORT_INFO.get(cpi, 0, "CapabilityMask2");
        if ((cap2 & (1 << 3)) != 0) {
            out.append(String.format("\t\tMulticastFDBTop.........................0x%X%n", l.get(r, 0,
                    "MulticastFDBTop")));
        }
    }

    public static void group(byte[] r, StringBuilder out) {
        Layout l = SaAttributes.MC_MEMBER_RECORD;
        out.append("MCMemberRecord group dump:\n")
                .append(String.format("\t\tMGID....................%s%n", Gids.ntop(l.getBytes(r, 0, "McastMemMGid"))))
                .append(String.format("\t\tMlid....................0x%X%n", l.get(r, 0, "McastMemMLid")))
                .append(String.format("\t\tMtu.....................0x%X%n", sel(l, r, "McastMemMTU")))
                .append(String.format("\t\tpkey....................0x%X%n", l.get(r, 0, "McastMemPkey")))
                .append(String.format("\t\tRate....................0x%X%n", sel(l, r, "McastMemRate")))
                .append(String.format("\t\tSL......................0x%X%n", l.get(r, 0, "McastMemSL")));
    }

    public static void mcMemberRecord(byte[] r, StringBuilder out) {
        Layout l = SaAttributes.MC_MEMBER_RECORD;
        out.append("MCMember Record dump:\n")
                .append(String.format("\t\tMGID....................%s%n", Gids.ntop(l.getBytes(r, 0, "McastMemMGid"))))
                .append(String.format("\t\tPortGid.................%s%n",
                        Gids.ntop(l.getBytes(r, 0, "McastMemPortGid"))))
                .append(String.format("\t\tqkey....................0x%x%n", l.get(r, 0, "McastMemQkey")))
                .append(String.format("\t\tmlid....................0x%x%n", l.get(r, 0, "McastMemMLid")))
                .append(String.format("\t\tmtu.....................0x%x%n", sel(l, r, "McastMemMTU")))
                .append(String.format("\t\tTClass..................0x%x%n", l.get(r, 0, "McastMemTClass")))
                .append(String.format("\t\tpkey....................0x%x%n", l.get(r, 0, "McastMemPkey")))
                .append(String.format("\t\trate....................0x%x%n", sel(l, r, "McastMemRate")))
                .append(String.format("\t\tpkt_life................0x%x%n", sel(l, r, "McastMemPktLife")))
                .append(String.format("\t\tSL......................0x%x%n", l.get(r, 0, "McastMemSL")))
                .append(String.format("\t\tFlowLabel...............0x%x%n", l.get(r, 0, "McastMemFlowLbl")))
                .append(String.format("\t\tHopLimit................0x%x%n", l.get(r, 0, "McastMemHopLimit")))
                .append(String.format("\t\tScope...................0x%x%n", l.get(r, 0, "McastMemScope")))
                .append(String.format("\t\tJoinState...............0x%x%n", l.get(r, 0, "McastMemJoinState")))
                .append(String.format("\t\tProxyJoin...............0x%x%n", l.get(r, 0, "McastMemProxyJoin")));
    }

    public static void classPortInfo(byte[] c, StringBuilder out) {
        Layout l = PerfAttributes.CLASS_PORT_INFO;
        long redirTcSlFl = (l.get(c, 0, "RedirectTC") << 24) | (l.get(c, 0, "RedirectSL") << 20)
                | l.get(c, 0, "RedirectFL");
        long trapTcSlFl = (l.get(c, 0, "TrapTC") << 24) | (l.get(c, 0, "TrapSL") << 20) | l.get(c, 0, "TrapFL");
        out.append("SA ClassPortInfo:\n")
                .append(String.format("\t\tBase version.............%d%n", l.get(c, 0, "BaseVersion")))
                .append(String.format("\t\tClass version............%d%n", l.get(c, 0, "ClassVersion")))
                .append(String.format("\t\tCapability mask..........0x%04X%n", l.get(c, 0, "CapabilityMask")))
                .append(String.format("\t\tCapability mask 2........0x%08X%n", l.get(c, 0, "CapabilityMask2")))
                .append(String.format("\t\tResponse time value......0x%02X%n", l.get(c, 0, "RespTimeVal")))
                .append(String.format("\t\tRedirect GID.............%s%n", Gids.ntop(l.getBytes(c, 0, "RedirectGID"))))
                .append(String.format("\t\tRedirect TC/SL/FL........0x%08X%n", redirTcSlFl))
                .append(String.format("\t\tRedirect LID.............%d%n", l.get(c, 0, "RedirectLID")))
                .append(String.format("\t\tRedirect PKey............0x%04X%n", l.get(c, 0, "RedirectPKey")))
                .append(String.format("\t\tRedirect QP..............0x%08X%n", l.get(c, 0, "RedirectQP")))
                .append(String.format("\t\tRedirect QKey............0x%08X%n", l.get(c, 0, "RedirectQKey")))
                .append(String.format("\t\tTrap GID.................%s%n", Gids.ntop(l.getBytes(c, 0, "TrapGID"))))
                .append(String.format("\t\tTrap TC/SL/FL............0x%08X%n", trapTcSlFl))
                .append(String.format("\t\tTrap LID.................%d%n", l.get(c, 0, "TrapLID")))
                .append(String.format("\t\tTrap PKey................0x%04X%n", l.get(c, 0, "TrapPKey")))
                .append(String.format("\t\tTrap HL/QP...............0x%08X%n", (l.get(c, 0, "TrapHL") << 24)
                        | l.get(c, 0, "TrapQP")))
                .append(String.format("\t\tTrap QKey................0x%08X%n", l.get(c, 0, "TrapQKey")));
    }

}
