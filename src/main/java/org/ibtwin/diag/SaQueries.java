package org.ibtwin.diag;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.Field;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.Methods;
import org.ibtwin.mad.PerfAttributes;
import org.ibtwin.mad.SaAttributes;
import org.ibtwin.mad.SaComponents;

/**
 * saquery's queries: a table of them (name, alias, attribute, how the arguments fill the template, the record
 * printer), the lookups saquery makes along the way (a node description's LID), and its words for an SA status.
 * Each query asks the SA at {@code smLid} and appends what saquery prints to the output as it goes (or, with JSON,
 * collects the records), so a failure half way leaves the same partial output. A failure is a {@link Failure}: its
 * text is what saquery prints on stderr, its code what it exits with (errno values).
 */
public final class SaQueries {
    /** errno values saquery exits with. */
    public static final int EIO = 5;
    public static final int EINVAL = 22;
    public static final int ENONET = 64;
    public static final int ETIMEDOUT = 110;
    /** The exit code of a usage error (a malformed argument). */
    public static final int USAGE = 2;

    private static final long ISSM = 0x2;
    private static final long ISSM_DISABLED = 0x400;
    private static final int NODE_TYPE_CA = 1;

    /** A failure that ends saquery's run: its text for stderr and the exit code. */
    public static final class Failure extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final int exitCode;

        public Failure(int exitCode, String message) {
            super(message, null, false, false);
            this.exitCode = exitCode;
        }

        public int exitCode() {
            return exitCode;
        }
    }

    /** Prints one record (with the SA's ClassPortInfo, null when not read, for the one printer that needs it). */
    @FunctionalInterface
    interface RecordPrinter {
        void print(byte[] record, byte[] classPortInfo, StringBuilder out);
    }

    /**
     * The queries saquery names, with its names and aliases (matched without regard to case). A query with
     * arguments takes each as "lid/part/part" ({@link #lidAndPorts}) filling the fields {@code args} lists for it,
     * in order: a LID part of 0 or a number part not given leaves that component out of the mask. PathRecord and
     * MCMemberRecord take their template from saquery's options ({@link #query}); the queries without a printer
     * are asked but not printed (ibtwin does not print their records yet).
     */
    public enum Query {
        CLASS_PORT_INFO("ClassPortInfo", "CPI", AttributeIds.CLASS_PORT_INFO, "", null, null),
        NODE_RECORD("NodeRecord", "NR", AttributeIds.NODE_RECORD, " [lid]", new String[][] {{"Lid"}},
                (r, cpi, out) -> SaRecords.nodeRecord(r, out)),
        PORT_INFO_RECORD("PortInfoRecord", "PIR", AttributeIds.PORT_INFO_RECORD, " [[lid]/[port]/[options]]",
                new String[][] {{"EndportLid", "PortNum", "Options"}},
                (r, cpi, out) -> SaRecords.portInfoRecord(r, out)),
        SL2VL_TABLE_RECORD("SL2VLTableRecord", "SL2VL", AttributeIds.SL_TO_VL_RECORD, "", null, null),
        PKEY_TABLE_RECORD("PKeyTableRecord", "PKTR", AttributeIds.P_KEY_TABLE_RECORD, " [[lid]/[port]/[block]]",
                new String[][] {{"Lid", "PortNum", "BlockNum"}}, (r, cpi, out) -> SaRecords.pkeyTableRecord(r, out)),
        VL_ARB_TABLE_RECORD("VLArbitrationTableRecord", "VLAR", AttributeIds.VL_ARB_RECORD, "", null, null),
        INFORM_INFO_RECORD("InformInfoRecord", "IIR", AttributeIds.INFORM_INFO_RECORD, " [subscriber_gid]", null,
                (r, cpi, out) -> SaRecords.informInfoRecord(r, out)),
        LINK_RECORD("LinkRecord", "LR", AttributeIds.LINK_RECORD, " [[from_lid]/[from_port]] [[to_lid]/[to_port]]",
                new String[][] {{"FromLID", "FromPort"}, {"ToLID", "ToPort"}},
                (r, cpi, out) -> SaRecords.linkRecord(r, out)),
        SERVICE_RECORD("ServiceRecord", "SR", AttributeIds.SERVICE_RECORD, "", null,
                (r, cpi, out) -> SaRecords.serviceRecord(r, out)),
        PATH_RECORD("PathRecord", "PR", AttributeIds.PATH_RECORD, "", null,
                (r, cpi, out) -> SaRecords.pathRecord(r, out)),
        MC_MEMBER_RECORD("MCMemberRecord", "MCMR", AttributeIds.MC_MEMBER_RECORD, "", null,
                (r, cpi, out) -> SaRecords.mcMemberRecord(r, out)),
        LFT_RECORD("LFTRecord", "LFTR", AttributeIds.LFT_RECORD, " [[lid]/[block]]",
                new String[][] {{"Lid", "BlockNum"}}, (r, cpi, out) -> SaRecords.lftRecord(r, out)),
        MFT_RECORD("MFTRecord", "MFTR", AttributeIds.MFT_RECORD, "", null, null),
        GUID_INFO_RECORD("GUIDInfoRecord", "GIR", AttributeIds.GUID_INFO_RECORD, " [[lid]/[block]]",
                new String[][] {{"Lid", "BlockNum"}}, (r, cpi, out) -> SaRecords.guidInfoRecord(r, out)),
        SWITCH_INFO_RECORD("SwitchInfoRecord", "SWIR", AttributeIds.SWITCH_INFO_RECORD, " [lid]",
                new String[][] {{"Lid"}}, SaRecords::switchInfoRecord),
        SM_INFO_RECORD("SMInfoRecord", "SMIR", AttributeIds.SM_INFO_RECORD, " [lid]", new String[][] {{"Lid"}},
                (r, cpi, out) -> SaRecords.smInfoRecord(r, out));

        private final String toolName;
        private final String alias;
        private final int attr;
        private final String params;
        private final String[][] args;
        private final RecordPrinter printer;

        Query(String toolName, String alias, int attr, String params, String[][] args, RecordPrinter printer) {
            this.toolName = toolName;
            this.alias = alias;
            this.attr = attr;
            this.params = params;
            this.args = args;
            this.printer = printer;
        }

        public String toolName() {
            return toolName;
        }

        public String alias() {
            return alias;
        }

        /** The SA attribute it asks for. */
        public int attribute() {
            return attr;
        }

        /** Whether ibtwin prints its records (the others are asked, then refused as not supported yet). */
        public boolean supported() {
            return printer != null || this == CLASS_PORT_INFO;
        }

        /** The usage line saquery prints for it: "  PortInfoRecord (PIR) [[lid]/[port]/[options]]". */
        public String usage() {
            return "  " + toolName + " (" + alias + ")" + params;
        }

        /** Whether it needs the SA's ClassPortInfo first (it prints it, or reads a capability from it). */
        public boolean needsClassPortInfo() {
            return this == CLASS_PORT_INFO || this == SWITCH_INFO_RECORD;
        }

        /** The query named {@code name} (name or alias, any case). */
        public static Optional<Query> match(String name) {
            for (Query x : values()) {
                if (x.toolName.equalsIgnoreCase(name) || x.alias.equalsIgnoreCase(name)) {
                    return Optional.of(x);
                }
            }
            return Optional.empty();
        }
    }

    /** What saquery's NodeRecord options print: whole records, or one thing of each. */
    public enum NodePrint {
        /** NodeRecord dumps (-N, or a name: those with that description). */
        ALL,
        /** -D: the CAs' LIDs and descriptions. */
        CA_LIST,
        /** -L: the LIDs of the nodes with the description. */
        LID_ONLY,
        /** -l: the first LID of the nodes with the description. */
        UNIQUE_LID_ONLY,
        /** -G: the port GUIDs of the nodes with the description. */
        GUID_ONLY,
        /** -O: the description of the node at a LID. */
        NAME_OF_LID,
        /** -U: the description of the node with a port GUID. */
        NAME_OF_GUID
    }

    private final MadQuery q;
    private final int smLid;
    private final long smKey;
    private final boolean showErrors;
    private final boolean json;
    private final StringBuilder out;
    private final List<Map<String, Object>> jsonRecords = new ArrayList<>();
    private byte[] cpi;

    /**
     * @param smLid      the SA's LID (the attach port's SM LID)
     * @param smKey      the SM_Key sent (--smkey; 0 is "untrusted")
     * @param showErrors add the failure's reason to saquery's "Input/output error" (-e)
     * @param json       collect the records ({@link #jsonRecords()}) instead of printing them to {@code out}
     */
    public SaQueries(MadQuery q, int smLid, long smKey, boolean showErrors, boolean json, StringBuilder out) {
        this.q = q;
        this.smLid = smLid;
        this.smKey = smKey;
        this.showErrors = showErrors;
        this.json = json;
        this.out = out;
    }

    /** The records collected so far for --json, each as {@link SaRecords#json} gives it. */
    public List<Map<String, Object>> jsonRecords() {
        return jsonRecords;
    }

    // ---- the SA round trip, errors as saquery reports them

    private MadQuery.SaResult call(int method, int attr, long mod, long mask, byte[] template) {
        try {
            return q.saQuery(smLid, method, attr, mod, mask, smKey, template);
        } catch (QueryException e) {
            if (e.kind() == QueryException.Kind.TIMEOUT) {
                throw new Failure(ETIMEDOUT, "Query SA failed: Connection timed out");
            }
            throw new Failure(EIO, "Query SA failed: Input/output error"
                    + (showErrors ? " (" + e.getMessage() + ")" : ""));
        }
    }

    /** GetTable; a status is reported and ends the run (exit 5). */
    private List<byte[]> records(int attr, long mod, long mask, byte[] template) {
        MadQuery.SaResult r = call(Methods.GET_TABLE, attr, mod, mask, template);
        if (r.status() != 0) {
            throw new Failure(EIO, status(r.status()));
        }
        return r.records(layout(attr).size());
    }

    private void table(int attr, long mask, byte[] template, RecordPrinter printer) {
        for (byte[] r : records(attr, 0, mask, template)) {
            if (json) {
                jsonRecords.add(SaRecords.json(layout(attr), r));
            } else {
                printer.print(r, cpi, out);
            }
        }
    }

    /** saquery's words for a status: "ERROR: Query result returned 0x000c,  (; ; MAD Method/...)" and SA's. */
    public static String status(int status) {
        int st = status & 0xff;
        String mad = "";
        if (st != 0) {
            mad = " (" + ((st & 1) != 0 ? "BUSY" : "") + "; " + ((st & 2) != 0 ? "Redirection Required" : "") + "; "
                    + invalidField(st >> 2) + ")";
        }
        int sa = status >> 8;
        String saStr = sa != 0 ? " SA(" + saErr(sa) + ")" : "";
        return String.format("ERROR: Query result returned 0x%04x, %s%s", status, mad, saStr);
    }

    private static String invalidField(int f) {
        String[] s = {"MAD No invalid fields", "MAD Bad version", "MAD Method specified is not supported",
            "MAD Method/Attribute combination is not supported", "MAD Reserved", "MAD Reserved", "MAD Reserved",
            "MAD Invalid value in Attribute field(s) or Attribute Modifier", "MAD UNKNOWN ERROR"};
        return s[Math.min(f, s.length - 1)];
    }

    private static String saErr(int st) {
        String[] s = {"SA_NO_ERROR", "SA_ERR_NO_RESOURCES", "SA_ERR_REQ_INVALID", "SA_ERR_NO_RECORDS",
            "SA_ERR_TOO_MANY_RECORDS", "SA_ERR_REQ_INVALID_GID", "SA_ERR_REQ_INSUFFICIENT_COMPONENTS",
            "SA_ERR_REQ_DENIED", "SA_ERR_STATUS_PRIO_SUGGESTED", "SA_ERR_UNKNOWN"};
        return s[Math.min(st, s.length - 1)];
    }

    private static Layout layout(int attr) {
        Layout l = attr == AttributeIds.CLASS_PORT_INFO ? PerfAttributes.CLASS_PORT_INFO : SaAttributes.record(attr);
        if (l == null || attr == AttributeIds.INFORM_INFO) {
            throw new Failure(USAGE, "ibtwin saquery: this query is not supported yet (supported: CPI, "
                    + "NR, PIR, PKTR, IIR, LR, SR, PR, MCMR, LFTR, GIR, SWIR, SMIR)");
        }
        return l;
    }

    // ---- names and LIDs

    /**
     * saquery's get_lid: a node description (asked of the SA's NodeRecords) or a LID; an empty one ("/1") is no LID
     * (EINVAL), as strtol reads it.
     */
    public int lid(String name) {
        if (!name.isEmpty() && Character.isLetter(name.charAt(0))) {
            for (byte[] r : records(AttributeIds.NODE_RECORD, 0, 0, new byte[0])) {
                if (SaRecords.description(r).equals(name)) {
                    return (int) SaAttributes.NODE_RECORD.get(r, 0, "Lid");
                }
            }
            throw new Failure(ENONET, "Failed to find lid for \"" + name + "\": Machine is not on the network");
        }
        Addresses.Parsed p = Addresses.strtol(name);
        if (p.value() <= 0 || p.value() > 0xffff) {
            throw new Failure(EINVAL, "Invalid lid specified: \"" + name + "\"");
        }
        return (int) p.value();
    }

    /** saquery's parse_lid_and_ports: "lid/port1/port2", each part optional; -1 for a part not given. */
    private int[] lidAndPorts(String s) {
        String[] parts = s.split("/", -1);
        int[] r = {0, -1, -1};
        r[0] = lid(parts[0]);
        for (int i = 1; i < Math.min(3, parts.length); i++) {
            Addresses.Parsed p = Addresses.strtol(parts[i]);
            r[i] = p.digits() ? (int) p.value() : -1;
        }
        return r;
    }

    // ---- the queries

    /** Reads the SA's ClassPortInfo (a status ends the run: "Failed to query SA:ClassPortInfo", exit 5). */
    public void readClassPortInfo() {
        MadQuery.SaResult r = call(Methods.GET, AttributeIds.CLASS_PORT_INFO, 0, 0, new byte[0]);
        if (r.status() != 0) {
            throw new Failure(EIO, status(r.status()) + "\nFailed to query SA:ClassPortInfo");
        }
        cpi = r.data();
    }

    /** saquery -c: the ClassPortInfo {@link #readClassPortInfo} read. */
    public void classPortInfo() {
        if (json) {
            jsonRecords.add(SaRecords.json(PerfAttributes.CLASS_PORT_INFO, cpi));
        } else {
            SaRecords.classPortInfo(cpi, out);
        }
    }

    /**
     * Runs {@code query} with its arguments; PathRecord and MCMemberRecord take their template from
     * {@code criteria}, keyed by saquery's long option names ("slid", "dgid", "mtu", "sgid-to-dgid", ...).
     * {@code srcLid}/{@code dstLid} (from --src-to-dst, 0 when not given) and {@code numb} (the number of paths
     * --src-to-dst and --sgid-to-dgid ask for, -1 otherwise) are PathRecord's.
     */
    public void query(Query query, List<String> args, Map<String, String> criteria, int srcLid, int dstLid,
                      long numb) {
        int attr = query.attribute();
        if (query == Query.CLASS_PORT_INFO) {
            classPortInfo();
        } else if (query.args != null) {
            byte[] t = new byte[layout(attr).size()];
            long mask = 0;
            for (int a = 0; a < query.args.length; a++) {
                int[] lp = a < args.size() ? lidAndPorts(args.get(a)) : new int[] {0, -1, -1};
                String[] fields = query.args[a];
                for (int i = 0; i < fields.length; i++) {
                    mask |= set(attr, t, fields[i], lp[i], i == 0 ? 0 : -1);
                }
            }
            table(attr, mask, t, query.printer);
        } else if (query == Query.PATH_RECORD) {
            pathRecords(criteria, srcLid, dstLid, numb);
        } else if (query == Query.MC_MEMBER_RECORD) {
            mcMemberRecords(criteria);
        } else if (query == Query.INFORM_INFO_RECORD) {
            // saquery IIR [subscriber_gid]: the subscriptions of that port, else all
            byte[] t = new byte[layout(attr).size()];
            long mask = 0;
            if (!args.isEmpty()) {
                SaAttributes.INFORM_INFO_RECORD.setBytes(t, 0, "SubscriberGID", gidArg(args.get(0)));
                mask = SaComponents.bit(attr, "SubscriberGID");
            }
            table(attr, mask, t, query.printer);
        } else if (query == Query.SERVICE_RECORD) {
            table(attr, 0, new byte[layout(attr).size()], query.printer);
        } else {
            MadQuery.SaResult r = call(Methods.GET_TABLE, attr, 0, 0, new byte[0]);
            if (r.status() != 0) {
                throw new Failure(EIO, status(r.status()));
            }
            layout(attr);
        }
    }

    /** Sets a numeric field when {@code value} is not {@code unset}: its component bit, else 0. */
    private static long set(int attr, byte[] t, String field, long value, long unset) {
        if (value == unset) {
            return 0;
        }
        Layout l = layout(attr);
        Field f = l.field(field);
        l.set(t, 0, f, value & f.maxValue());
        return SaComponents.bit(attr, field);
    }

    private static long num(String s, long unset) {
        return s == null ? unset : Addresses.unsigned(s);
    }

    private void pathRecords(Map<String, String> c, int srcLid, int dstLid, long numb) {
        int pr = AttributeIds.PATH_RECORD;
        Layout l = SaAttributes.PATH_RECORD;
        byte[] t = new byte[l.size()];
        long mask = 0;
        mask |= set(pr, t, "PathRecServiceId", num(c.get("service_id"), 0), 0);
        String sgidToDgid = c.get("sgid-to-dgid");
        byte[] sg = c.get("sgid") != null ? gidArg(c.get("sgid"))
                : sgidToDgid != null ? Gids.parse(sgidToDgid.split("-", 2)[0]) : null;
        byte[] dg = c.get("dgid") != null ? gidArg(c.get("dgid"))
                : sgidToDgid != null ? Gids.parse(sgidToDgid.split("-", 2)[1]) : null;
        if (sg != null && !zero(sg)) {
            l.setBytes(t, 0, "PathRecSGid", sg);
            mask |= SaComponents.bit(pr, "PathRecSGid");
        }
        if (dg != null && !zero(dg)) {
            l.setBytes(t, 0, "PathRecDGid", dg);
            mask |= SaComponents.bit(pr, "PathRecDGid");
        }
        long s = srcLid != 0 ? srcLid : num(c.get("slid"), 0) & 0xffff;
        long d = dstLid != 0 ? dstLid : num(c.get("dlid"), 0) & 0xffff;
        mask |= set(pr, t, "PathRecSLid", s, 0);
        mask |= set(pr, t, "PathRecDLid", d, 0);
        mask |= set(pr, t, "PathRecHopLimit", num(c.get("hop_limit"), -1), -1);
        mask |= set(pr, t, "PathRecFlowLabel", num(c.get("flow_label"), 0), 0);
        mask |= set(pr, t, "PathRecTClass", num(c.get("tclass"), 0), 0);
        mask |= set(pr, t, "PathRecReversible", num(c.get("reversible"), -1), -1);
        long np = c.get("numb_path") != null ? num(c.get("numb_path"), -1) : numb;
        mask |= set(pr, t, "PathRecNumPath", np, -1);
        mask |= set(pr, t, "PathRecPKey", num(c.get("pkey"), 0), 0);
        mask |= set(pr, t, "PathRecSL", num(c.get("sl"), -1), -1);
        if (c.get("qos_class") != null) {
            mask |= set(pr, t, "PathRecQosClass", num(c.get("qos_class"), 0), -1);
        }
        mask |= selector(pr, t, c.get("mtu"), "PathRecMtuSelector", "PathRecMtu");
        mask |= selector(pr, t, c.get("rate"), "PathRecRateSelector", "PathRecRate");
        mask |= selector(pr, t, c.get("pkt_lifetime"), "PathRecPktLifeSelector", "PathRecPktLife");
        table(pr, mask, t, Query.PATH_RECORD.printer);
    }

    /** A value and selector argument as saquery reads it: one byte, the selector in its top two bits. */
    private static long selector(int attr, byte[] t, String arg, String selField, String valField) {
        if (arg == null) {
            return 0;
        }
        long v = Addresses.unsigned(arg) & 0xff;
        if (v == 0) {
            return 0;
        }
        Layout l = layout(attr);
        l.set(t, 0, selField, (v >> 6) & 3);
        l.set(t, 0, valField, v & 0x3f);
        return SaComponents.selected(attr, selField, valField);
    }

    private void mcMemberRecords(Map<String, String> c) {
        int mc = AttributeIds.MC_MEMBER_RECORD;
        Layout l = SaAttributes.MC_MEMBER_RECORD;
        byte[] t = new byte[l.size()];
        long mask = 0;
        byte[] mg = c.get("mgid") == null ? null : gidArg(c.get("mgid"));
        if (mg != null && !zero(mg)) {
            l.setBytes(t, 0, "McastMemMGid", mg);
            mask |= SaComponents.bit(mc, "McastMemMGid");
        }
        byte[] pg = c.get("gid") == null ? null : gidArg(c.get("gid"));
        if (pg != null && !zero(pg)) {
            l.setBytes(t, 0, "McastMemPortGid", pg);
            mask |= SaComponents.bit(mc, "McastMemPortGid");
        }
        mask |= set(mc, t, "McastMemMLid", num(c.get("mlid"), 0) & 0xffff, 0);
        mask |= set(mc, t, "McastMemQkey", num(c.get("qkey"), 0), 0);
        mask |= set(mc, t, "McastMemTClass", num(c.get("tclass"), 0), 0);
        mask |= set(mc, t, "McastMemPkey", num(c.get("pkey"), 0), 0);
        mask |= set(mc, t, "McastMemSL", num(c.get("sl"), -1), -1);
        mask |= set(mc, t, "McastMemScope", num(c.get("scope"), 0), 0);
        mask |= set(mc, t, "McastMemJoinState", num(c.get("join_state"), 0), 0);
        mask |= set(mc, t, "McastMemProxyJoin", num(c.get("proxy_join"), -1), -1);
        table(mc, mask, t, Query.MC_MEMBER_RECORD.printer);
    }

    private static byte[] gidArg(String s) {
        byte[] g = Gids.parse(s);
        if (g == null) {
            throw new Failure(USAGE, "saquery: bad GID \"" + s + "\" (IPv6 format expected)");
        }
        return g;
    }

    private static boolean zero(byte[] b) {
        for (byte x : b) {
            if (x != 0) {
                return false;
            }
        }
        return true;
    }

    // ---- the commands of more than one query

    /**
     * saquery's NodeRecord commands (-N, -L, -l, -G, -O, -U, -D): {@code name} selects by description (null: all),
     * {@code requested} is the LID (-O) or port GUID (-U) asked for.
     */
    public void nodeRecords(NodePrint print, String name, long requested) {
        List<byte[]> all = records(AttributeIds.NODE_RECORD, 0, 0, new byte[0]);
        if (print == NodePrint.CA_LIST && !json) {
            out.append(SaRecords.CA_LIST_HEADER);
        }
        Layout l = SaAttributes.NODE_RECORD;
        for (byte[] r : all) {
            boolean take = switch (print) {
                case CA_LIST -> l.get(r, 0, "NodeType") == NODE_TYPE_CA;
                case NAME_OF_LID -> l.get(r, 0, "Lid") == requested;
                case NAME_OF_GUID -> l.get(r, 0, "PortGuid") == requested;
                default -> name == null || SaRecords.description(r).equals(name);
            };
            if (!take) {
                continue;
            }
            if (json) {
                jsonRecords.add(SaRecords.json(l, r));
                continue;
            }
            switch (print) {
                case CA_LIST -> SaRecords.caLine(r, out);
                case LID_ONLY, UNIQUE_LID_ONLY -> out.append(l.get(r, 0, "Lid")).append('\n');
                case GUID_ONLY -> out.append(String.format("0x%016x%n", l.get(r, 0, "PortGuid")));
                case NAME_OF_LID, NAME_OF_GUID -> out.append(SaRecords.description(r)).append('\n');
                default -> SaRecords.nodeRecord(r, out);
            }
            if (print == NodePrint.UNIQUE_LID_ONLY) {
                return;
            }
        }
    }

    /** saquery -s: the ports with IsSM, then those with IsSMdisabled, in their CapabilityMask. */
    public void issm() {
        int pir = AttributeIds.PORT_INFO_RECORD;
        Layout l = SaAttributes.PORT_INFO_RECORD;
        for (long bit : new long[] {ISSM, ISSM_DISABLED}) {
            byte[] t = new byte[l.size()];
            l.set(t, 0, "CapMask", bit);
            // the modifier's top bit: "every bit asked for", not "exactly these bits"
            List<byte[]> rs = records(pir, 1L << 31, SaComponents.bit(pir, "CapMask"), t);
            if (!json) {
                out.append(bit == ISSM ? "IsSM ports\n" : "\nIsSMdisabled ports\n");
            }
            for (byte[] r : rs) {
                if (json) {
                    jsonRecords.add(SaRecords.json(l, r));
                } else {
                    SaRecords.issmPort(r, out);
                }
            }
        }
    }

    /** saquery -g: the multicast groups. */
    public void groups() {
        table(AttributeIds.MC_MEMBER_RECORD, 0, new byte[0], (r, c, o) -> SaRecords.group(r, o));
    }

    /** saquery -m [mlid]: the multicast members, with their nodes' descriptions (of the group at {@code mlid}). */
    public void members(String mlid) {
        Layout l = SaAttributes.MC_MEMBER_RECORD;
        List<byte[]> found = records(AttributeIds.MC_MEMBER_RECORD, 0, 0, new byte[0]);
        List<byte[]> nodes = records(AttributeIds.NODE_RECORD, 0, 0, new byte[0]);
        for (byte[] r : found) {
            if (json) {
                jsonRecords.add(SaRecords.json(l, r));
                continue;
            }
            byte[] pg = l.getBytes(r, 0, "McastMemPortGid");
            long iface = 0;
            for (int i = 8; i < 16; i++) {
                iface = (iface << 8) | (pg[i] & 0xff);
            }
            String node = "<unknown>";
            for (byte[] n : nodes) {
                if (SaAttributes.NODE_RECORD.get(n, 0, "PortGuid") == iface) {
                    node = SaRecords.description(n);
                    break;
                }
            }
            if (mlid == null) {
                SaRecords.member(r, node, out);
            } else if (Addresses.strtol(mlid).value() == l.get(r, 0, "McastMemMLid")) {
                SaRecords.memberGid(r, node, out);
            }
        }
    }
}
