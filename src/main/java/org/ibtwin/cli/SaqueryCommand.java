package org.ibtwin.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.ibtwin.diag.Addresses;
import org.ibtwin.diag.MadQuery;
import org.ibtwin.diag.QueryException;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.Field;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.Methods;
import org.ibtwin.mad.PerfAttributes;
import org.ibtwin.mad.SaAttributes;
import org.ibtwin.mad.SmpAttributes;
import org.ibtwin.transport.MadTransport;
import org.ibtwin.transport.MadTransportException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ibtwin saquery}: infiniband-diags' saquery, its queries, options and output, asking the SA at the SM LID
 * of the attach port. Records come whole (RMPP reassembled) where the SA segments them; from OpenSM through
 * libumad2sim, which does no RMPP, only what its first MAD holds, as real saquery gets then. Errors as saquery
 * prints them: {@code ERROR: Query result returned 0x...} (exit 5), {@code Query SA failed: ...} (exit 110 on a
 * timeout), {@code Failed to find lid for "name": ...} (exit 64).
 */
@Command(name = "saquery", mixinStandardHelpOptions = true,
        description = "Query the subnet administrator, as infiniband-diags' saquery prints it.",
        footer = {"", "Supported query names (and aliases):",
            "  ClassPortInfo (CPI)",
            "  NodeRecord (NR) [lid]",
            "  PortInfoRecord (PIR) [[lid]/[port]/[options]]",
            "  PKeyTableRecord (PKTR) [[lid]/[port]/[block]]",
            "  LinkRecord (LR) [[from_lid]/[from_port]] [[to_lid]/[to_port]]",
            "  PathRecord (PR)",
            "  MCMemberRecord (MCMR)",
            "  LFTRecord (LFTR) [[lid]/[block]]",
            "  SwitchInfoRecord (SWIR) [lid]",
            "  SMInfoRecord (SMIR) [lid]",
            "",
            "  Queries node records by default. A lid may be given as a node description (as saquery does).",
            "",
            "Examples:",
            "  ibtwin saquery --ibsim 127.0.0.1:7070 -p --slid 3 --dlid 5   # the path from LID 3 to LID 5",
            "  ibtwin saquery -s                                           # the ports with IsSM",
            "  ibtwin saquery SWIR --json"})
public final class SaqueryCommand implements Callable<Integer> {
    /** errno values saquery exits with. */
    static final int EIO = 5;
    static final int EINVAL = 22;
    static final int ENONET = 64;
    static final int ETIMEDOUT = 110;
    private static final long PIR_CAPMASK = 1L << 7;

    @Spec
    CommandSpec spec;

    @Mixin
    TransportOptions transport;

    @Option(names = "-p", description = "get PathRecord info") boolean pathRecords;
    @Option(names = "-N", description = "get NodeRecord info") boolean nodeRecords;
    @Option(names = "-L", description = "return the Lids of the name specified") boolean lidsOf;
    @Option(names = "-l", description = "return the unique Lid of the name specified") boolean uniqueLid;
    @Option(names = "-G", description = "return the Guids of the name specified") boolean guidsOf;
    @Option(names = "-O", description = "return name for the Lid specified") boolean nameOfLid;
    @Option(names = "-U", description = "return name for the Guid specified") boolean nameOfGuid;
    @Option(names = "-s", description = "return the PortInfoRecords with isSM or isSMdisabled capability mask bit on")
    boolean issm;
    @Option(names = "-g", description = "get multicast group info") boolean groups;
    @Option(names = "-m", description = "get multicast member info (if multicast group specified, list member GIDs "
            + "only for group specified, for example 'saquery -m 0xC000')") boolean members;
    @Option(names = "-x", description = "get LinkRecord info") boolean linkRecords;
    @Option(names = "-c", description = "get the SA's class port info") boolean classPortInfo;
    @Option(names = {"-D", "--list"}, description = "the node desc of the CA's") boolean list;
    @Option(names = "--src-to-dst", paramLabel = "<src:dst>", description = "get a PathRecord for <src:dst> where "
            + "src and dst are either node names or LIDs") String srcToDst;
    @Option(names = "--sgid-to-dgid", paramLabel = "<sgid-dgid>", description = "get a PathRecord for <sgid-dgid> "
            + "where sgid and dgid are addresses in IPv6 format") String sgidToDgid;
    @Option(names = "--smkey", paramLabel = "<val>", description = "SA SM_Key value for the query (default 0, "
            + "\"untrusted\")") String smKey;
    @Option(names = "--slid", paramLabel = "<lid>", description = "Source LID (PathRecord)") String slid;
    @Option(names = "--dlid", paramLabel = "<lid>", description = "Destination LID (PathRecord)") String dlid;
    @Option(names = "--mlid", paramLabel = "<lid>", description = "Multicast LID (MCMemberRecord)") String mlid;
    @Option(names = "--sgid", paramLabel = "<gid>", description = "Source GID (IPv6 format) (PathRecord)")
    String sgid;
    @Option(names = "--dgid", paramLabel = "<gid>", description = "Destination GID (IPv6 format) (PathRecord)")
    String dgid;
    @Option(names = "--gid", paramLabel = "<gid>", description = "Port GID (MCMemberRecord)") String gid;
    @Option(names = "--mgid", paramLabel = "<gid>", description = "Multicast GID (MCMemberRecord)") String mgid;
    @Option(names = {"-r", "--reversible"}, description = "Reversible path (PathRecord)") String reversible;
    @Option(names = {"-n", "--numb_path"}, description = "Number of paths (PathRecord)") String numbPath;
    @Option(names = "--pkey", description = "P_Key (PathRecord, MCMemberRecord)") String pkey;
    @Option(names = {"-Q", "--qos_class"}, description = "QoS Class (PathRecord)") String qosClass;
    @Option(names = "--sl", description = "Service level (PathRecord, MCMemberRecord)") String sl;
    @Option(names = {"-M", "--mtu"}, description = "MTU and selector (PathRecord, MCMemberRecord)") String mtu;
    @Option(names = {"-R", "--rate"}, description = "Rate and selector (PathRecord, MCMemberRecord)") String rate;
    @Option(names = "--pkt_lifetime", description = "Packet lifetime and selector (PathRecord, MCMemberRecord)")
    String pktLifetime;
    @Option(names = {"-q", "--qkey"}, description = "Q_Key (MCMemberRecord)") String qkey;
    @Option(names = {"-T", "--tclass"}, description = "Traffic Class (PathRecord, MCMemberRecord)") String tclass;
    @Option(names = {"-F", "--flow_label"}, description = "Flow Label (PathRecord, MCMemberRecord)") String flowLabel;
    @Option(names = {"-H", "--hop_limit"}, description = "Hop limit (PathRecord, MCMemberRecord)") String hopLimit;
    @Option(names = "--scope", description = "Scope (MCMemberRecord)") String scope;
    @Option(names = {"-J", "--join_state"}, description = "Join state (MCMemberRecord)") String joinState;
    @Option(names = {"-X", "--proxy_join"}, description = "Proxy join (MCMemberRecord)") String proxyJoin;
    @Option(names = "--service_id", description = "ServiceID (PathRecord)") String serviceId;
    @Option(names = "--node-name-map", paramLabel = "<file>", description = "specify a node name map file "
            + "(accepted; names are printed as the nodes give them)") String nodeNameMap;
    @Option(names = {"-t", "--timeout"}, paramLabel = "<ms>", description = "timeout in ms (default 1000)")
    String timeout;
    @Option(names = {"-e", "--errors"}, description = "show send and receive errors") boolean errors;
    @Option(names = {"-v", "--verbose"}, description = "increase verbosity level") boolean[] verbose = new boolean[0];
    @Option(names = {"-d", "--debug"}, description = "raise debug level") boolean[] debug = new boolean[0];
    @Option(names = "--json", description = "Print the records as JSON (field names as ibtwin's layouts name them).")
    boolean json;

    @Parameters(arity = "0..*", paramLabel = "[query-name] [<name> | <lid> | <guid>]",
            description = "The query and its arguments.")
    List<String> args = new ArrayList<>();

    /** A failure that ends the run: what goes to stderr and the exit code. */
    static final class Exit extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final int code;

        Exit(int code, String message) {
            super(message, null, false, false);
            this.code = code;
        }
    }

    private enum Print { ALL, ALL_DESC, LID_ONLY, UNIQUE_LID_ONLY, GUID_ONLY, NAME_OF_LID, NAME_OF_GUID }

    private enum Cmd { QUERY, NODE_RECORD, CLASS_PORT_INFO, ISSM, MCGROUPS, MCMEMBERS }

    /** A query name, its alias and its attribute. */
    private record Query(String name, String alias, int attr) {
    }

    private static final List<Query> QUERIES = List.of(
            new Query("ClassPortInfo", "CPI", AttributeIds.CLASS_PORT_INFO),
            new Query("NodeRecord", "NR", AttributeIds.NODE_RECORD),
            new Query("PortInfoRecord", "PIR", AttributeIds.PORT_INFO_RECORD),
            new Query("SL2VLTableRecord", "SL2VL", AttributeIds.SL_TO_VL_RECORD),
            new Query("PKeyTableRecord", "PKTR", AttributeIds.P_KEY_TABLE_RECORD),
            new Query("VLArbitrationTableRecord", "VLAR", AttributeIds.VL_ARB_RECORD),
            new Query("InformInfoRecord", "IIR", AttributeIds.INFORM_INFO_RECORD),
            new Query("LinkRecord", "LR", AttributeIds.LINK_RECORD),
            new Query("ServiceRecord", "SR", AttributeIds.SERVICE_RECORD),
            new Query("PathRecord", "PR", AttributeIds.PATH_RECORD),
            new Query("MCMemberRecord", "MCMR", AttributeIds.MC_MEMBER_RECORD),
            new Query("LFTRecord", "LFTR", AttributeIds.LFT_RECORD),
            new Query("MFTRecord", "MFTR", AttributeIds.MFT_RECORD),
            new Query("GUIDInfoRecord", "GIR", AttributeIds.GUID_INFO_RECORD),
            new Query("SwitchInfoRecord", "SWIR", AttributeIds.SWITCH_INFO_RECORD),
            new Query("SMInfoRecord", "SMIR", AttributeIds.SM_INFO_RECORD));

    private final StringBuilder out = new StringBuilder();
    private final List<Map<String, Object>> jsonRecords = new ArrayList<>();
    private MadQuery q;
    private int smLid;
    private long saKey;
    private byte[] cpi;

    @Override
    public Integer call() {
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter stderr = spec.commandLine().getErr();
        int rc;
        try {
            rc = run();
        } catch (Exit e) {
            stdout.print(out);
            out.setLength(0);
            if (e.getMessage() != null) {
                stderr.println(e.getMessage());
            }
            rc = e.code;
        }
        if (json) {
            try {
                stdout.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
                        .writeValueAsString(jsonRecords));
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        } else {
            stdout.print(out);
        }
        stdout.flush();
        stderr.flush();
        return rc;
    }

    private int run() {
        Cmd cmd = Cmd.QUERY;
        Print print = Print.ALL;
        int queryType = 0;
        long numb = -1;
        if (srcToDst != null) {
            if (srcToDst.indexOf(':') < 0) {
                return usage();
            }
            queryType = AttributeIds.PATH_RECORD;
            numb = 0x7f;
        }
        if (sgidToDgid != null) {
            int dash = sgidToDgid.indexOf('-');
            if (dash < 0 || parseGid(sgidToDgid.substring(0, dash)) == null
                    || parseGid(sgidToDgid.substring(dash + 1)) == null) {
                return usage();
            }
            queryType = AttributeIds.PATH_RECORD;
            numb = 0x7f;
        }
        if (pathRecords) {
            queryType = AttributeIds.PATH_RECORD;
        }
        if (linkRecords) {
            queryType = AttributeIds.LINK_RECORD;
        }
        if (nodeRecords) {
            cmd = Cmd.NODE_RECORD;
        }
        if (lidsOf) {
            cmd = Cmd.NODE_RECORD;
            print = Print.LID_ONLY;
        }
        if (uniqueLid) {
            cmd = Cmd.NODE_RECORD;
            print = Print.UNIQUE_LID_ONLY;
        }
        if (guidsOf) {
            cmd = Cmd.NODE_RECORD;
            print = Print.GUID_ONLY;
        }
        if (nameOfLid) {
            cmd = Cmd.NODE_RECORD;
            print = Print.NAME_OF_LID;
        }
        if (nameOfGuid) {
            cmd = Cmd.NODE_RECORD;
            print = Print.NAME_OF_GUID;
        }
        if (list) {
            cmd = Cmd.NODE_RECORD;
            print = Print.ALL_DESC;
        }
        if (issm) {
            cmd = Cmd.ISSM;
        }
        if (groups) {
            cmd = Cmd.MCGROUPS;
        }
        if (members) {
            cmd = Cmd.MCMEMBERS;
        }
        if (classPortInfo) {
            cmd = Cmd.CLASS_PORT_INFO;
        }
        List<String> rest = new ArrayList<>(args);
        Query query = null;
        if (queryType == 0 && cmd == Cmd.QUERY) {
            query = rest.isEmpty() ? null : find(rest.get(0));
            if (query == null) {
                queryType = AttributeIds.NODE_RECORD;
            } else {
                queryType = query.attr();
                rest.remove(0);
            }
        }
        String requestedName = null;
        long requested = 0;
        boolean requestedFlag = false;
        if (!rest.isEmpty()) {
            if (print == Print.NAME_OF_LID || print == Print.NAME_OF_GUID) {
                requested = Addresses.unsigned(rest.get(0));
                requestedFlag = true;
                if (print == Print.NAME_OF_LID) {
                    requested &= 0xffff;
                }
            } else {
                requestedName = rest.get(0);
            }
        }
        if ((print == Print.LID_ONLY || print == Print.UNIQUE_LID_ONLY || print == Print.GUID_ONLY)
                && requestedName == null) {
            return usage("ERROR: name not specified");
        }
        if (print == Print.NAME_OF_LID && !requestedFlag) {
            return usage("ERROR: lid not specified");
        }
        if (print == Print.NAME_OF_GUID && !requestedFlag) {
            return usage("ERROR: guid not specified");
        }
        if (print == Print.NAME_OF_LID && requested == 0) {
            return usage("ERROR: lid invalid");
        }
        saKey = smKey == null ? 0 : Addresses.unsigned(smKey);
        try (MadTransport t = attach()) {
            q = new MadQuery(t);
            q.timeout(Duration.ofMillis(timeoutMillis()));
            smLid = t.localPort().smLid();
            int srcLid = 0;
            int dstLid = 0;
            if (srcToDst != null) {
                String[] sd = srcToDst.split(":", 2);
                srcLid = sd[0].isEmpty() ? 0 : lidOf(sd[0]);
                dstLid = sd[1].isEmpty() ? 0 : lidOf(sd[1]);
            }
            if (cmd == Cmd.CLASS_PORT_INFO || queryType == AttributeIds.CLASS_PORT_INFO
                    || queryType == AttributeIds.SWITCH_INFO_RECORD) {
                MadQuery.SaResult r = call(Methods.GET, AttributeIds.CLASS_PORT_INFO, 0, 0, new byte[0]);
                if (r.status() != 0) {
                    throw new Exit(EIO, reportErr(r.status()) + "\nFailed to query SA:ClassPortInfo");
                }
                cpi = r.data();
            }
            switch (cmd) {
                case NODE_RECORD -> printNodeRecords(print, requestedName, requested);
                case CLASS_PORT_INFO -> dumpClassPortInfo();
                case ISSM -> printIssm();
                case MCGROUPS -> table(AttributeIds.MC_MEMBER_RECORD, 0, new byte[0], this::dumpGroup);
                case MCMEMBERS -> printMembers(requestedName);
                default -> query(queryType, rest, srcLid, dstLid, numb);
            }
        }
        return 0;
    }

    private Query find(String name) {
        for (Query x : QUERIES) {
            if (x.name().equalsIgnoreCase(name) || x.alias().equalsIgnoreCase(name)) {
                return x;
            }
        }
        return null;
    }

    private int usage() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return Main.USAGE;
    }

    private int usage(String line) {
        spec.commandLine().getErr().println(line);
        spec.commandLine().getErr().println();
        return usage();
    }

    private int timeoutMillis() {
        if (timeout == null) {
            return 1000;
        }
        Addresses.Parsed p = Addresses.strtol(timeout);
        if (!p.whole(timeout) || p.value() <= 0 || p.value() > Integer.MAX_VALUE) {
            throw new Exit(Main.USAGE, "saquery: Invalid timeout \"" + timeout + "\".  Timeout requires a positive "
                    + "integer value < " + Integer.MAX_VALUE + ".");
        }
        return (int) p.value();
    }

    private MadTransport attach() {
        try {
            return DiagCommand.opener.apply(transport);
        } catch (MadTransportException e) {
            long pid = ProcessHandle.current().pid();
            throw new Exit(DiagCommand.IBERROR, "ibwarn: [" + pid + "] umad_open_port: can't attach to ibsim at "
                    + transport.target() + ": " + e.getMessage() + "\nibpanic: [" + pid + "] main: Failed to bind to "
                    + "the SA: " + e.getMessage());
        }
    }

    // ---- the SA round trip, errors as saquery reports them

    private MadQuery.SaResult call(int method, int attr, long mod, long mask, byte[] template) {
        try {
            return q.saQuery(smLid, method, attr, mod, mask, saKey, template);
        } catch (QueryException e) {
            if (e.kind() == QueryException.Kind.TIMEOUT) {
                throw new Exit(ETIMEDOUT, "Query SA failed: Connection timed out");
            }
            throw new Exit(EIO, "Query SA failed: Input/output error" + (errors ? " (" + e.getMessage() + ")" : ""));
        }
    }

    /** GetTable; a status is reported and ends the run (exit 5). */
    private List<byte[]> records(int attr, long mod, long mask, byte[] template) {
        MadQuery.SaResult r = call(Methods.GET_TABLE, attr, mod, mask, template);
        if (r.status() != 0) {
            throw new Exit(EIO, reportErr(r.status()));
        }
        Layout l = layout(attr);
        return r.records(l.size());
    }

    private interface Dump {
        void dump(byte[] record);
    }

    private void table(int attr, long mask, byte[] template, Dump dump) {
        for (byte[] r : records(attr, 0, mask, template)) {
            if (json) {
                jsonRecords.add(decode(attr, r));
            } else {
                dump.dump(r);
            }
        }
    }

    private Map<String, Object> decode(int attr, byte[] r) {
        Layout l = layout(attr);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("record", l.name());
        for (Field f : l.fields()) {
            if (f.isArray() && f.byteSpan() == 16) {
                m.put(f.name(), gidString(l.getBytes(r, 0, f)));
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

    static String reportErr(int status) {
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
        return switch (attr) {
            case AttributeIds.NODE_RECORD -> SaAttributes.NODE_RECORD;
            case AttributeIds.PORT_INFO_RECORD -> SaAttributes.PORT_INFO_RECORD;
            case AttributeIds.LINK_RECORD -> SaAttributes.LINK_RECORD;
            case AttributeIds.SWITCH_INFO_RECORD -> SaAttributes.SWITCH_INFO_RECORD;
            case AttributeIds.LFT_RECORD -> SaAttributes.LFT_RECORD;
            case AttributeIds.P_KEY_TABLE_RECORD -> SaAttributes.P_KEY_TABLE_RECORD;
            case AttributeIds.SM_INFO_RECORD -> SaAttributes.SM_INFO_RECORD;
            case AttributeIds.MC_MEMBER_RECORD -> SaAttributes.MC_MEMBER_RECORD;
            case AttributeIds.PATH_RECORD -> SaAttributes.PATH_RECORD;
            case AttributeIds.CLASS_PORT_INFO -> PerfAttributes.CLASS_PORT_INFO;
            default -> throw new Exit(Main.USAGE, "ibtwin saquery: this query is not supported yet (supported: CPI, "
                    + "NR, PIR, PKTR, LR, PR, MCMR, LFTR, SWIR, SMIR)");
        };
    }

    // ---- names and LIDs

    /** saquery's get_lid: a node description (asked of the SA's NodeRecords) or a LID. */
    private int lidOf(String name) {
        if (Character.isLetter(name.charAt(0))) {
            for (byte[] r : records(AttributeIds.NODE_RECORD, 0, 0, new byte[0])) {
                if (description(r).equals(name)) {
                    return (int) SaAttributes.NODE_RECORD.get(r, 0, "Lid");
                }
            }
            throw new Exit(ENONET, "Failed to find lid for \"" + name + "\": Machine is not on the network");
        }
        Addresses.Parsed p = Addresses.strtol(name);
        if (p.value() <= 0 || p.value() > 0xffff) {
            throw new Exit(EINVAL, "Invalid lid specified: \"" + name + "\"");
        }
        return (int) p.value();
    }

    private static String description(byte[] nodeRecord) {
        int end = 44;
        while (end < 108 && nodeRecord[end] != 0) {
            end++;
        }
        return new String(nodeRecord, 44, end - 44, StandardCharsets.UTF_8);
    }

    /** saquery's parse_lid_and_ports: "lid/port1/port2", each part optional; -1 for a part not given. */
    private int[] lidAndPorts(String s) {
        String[] parts = s.split("/", -1);
        int[] r = {0, -1, -1};
        r[0] = lidOf(parts[0]);
        for (int i = 1; i < Math.min(3, parts.length); i++) {
            Addresses.Parsed p = Addresses.strtol(parts[i]);
            r[i] = p.digits() ? (int) p.value() : -1;
        }
        return r;
    }

    // ---- the queries

    private void query(int type, List<String> rest, int srcLid, int dstLid, long numb) {
        String a0 = rest.isEmpty() ? null : rest.get(0);
        switch (type) {
            case AttributeIds.CLASS_PORT_INFO -> dumpClassPortInfo();
            case AttributeIds.NODE_RECORD -> {
                Layout l = SaAttributes.NODE_RECORD;
                byte[] t = new byte[l.size()];
                int lid = a0 == null ? 0 : lidAndPorts(a0)[0];
                long mask = 0;
                if (lid != 0) {
                    l.set(t, 0, "Lid", lid);
                    mask |= 1;
                }
                table(type, mask, t, this::dumpNodeRecord);
            }
            case AttributeIds.PORT_INFO_RECORD -> {
                Layout l = SaAttributes.PORT_INFO_RECORD;
                byte[] t = new byte[l.size()];
                int[] lp = a0 == null ? new int[] {0, -1, -1} : lidAndPorts(a0);
                long mask = set(l, t, "EndportLid", lp[0], 0, 1) | set(l, t, "PortNum", lp[1], -1, 2)
                        | set(l, t, "Options", lp[2], -1, 4);
                table(type, mask, t, this::dumpPortInfoRecord);
            }
            case AttributeIds.P_KEY_TABLE_RECORD -> {
                Layout l = SaAttributes.P_KEY_TABLE_RECORD;
                byte[] t = new byte[l.size()];
                int[] lp = a0 == null ? new int[] {0, -1, -1} : lidAndPorts(a0);
                long mask = set(l, t, "Lid", lp[0], 0, 1) | set(l, t, "PortNum", lp[1], -1, 4)
                        | set(l, t, "BlockNum", lp[2], -1, 2);
                table(type, mask, t, this::dumpPkeyTableRecord);
            }
            case AttributeIds.LINK_RECORD -> {
                Layout l = SaAttributes.LINK_RECORD;
                byte[] t = new byte[l.size()];
                int[] from = a0 == null ? new int[] {0, -1, -1} : lidAndPorts(a0);
                int[] to = rest.size() < 2 ? new int[] {0, -1, -1} : lidAndPorts(rest.get(1));
                long mask = set(l, t, "FromLID", from[0], 0, 1) | set(l, t, "FromPort", from[1], -1, 2)
                        | set(l, t, "ToLID", to[0], 0, 8) | set(l, t, "ToPort", to[1], -1, 4);
                table(type, mask, t, this::dumpLinkRecord);
            }
            case AttributeIds.LFT_RECORD -> {
                Layout l = SaAttributes.LFT_RECORD;
                byte[] t = new byte[l.size()];
                int[] lp = a0 == null ? new int[] {0, -1, -1} : lidAndPorts(a0);
                long mask = set(l, t, "Lid", lp[0], 0, 1) | set(l, t, "BlockNum", lp[1], -1, 2);
                table(type, mask, t, this::dumpLftRecord);
            }
            case AttributeIds.SWITCH_INFO_RECORD, AttributeIds.SM_INFO_RECORD -> {
                Layout l = layout(type);
                byte[] t = new byte[l.size()];
                int lid = a0 == null ? 0 : lidAndPorts(a0)[0];
                long mask = set(l, t, "Lid", lid, 0, 1);
                table(type, mask, t, type == AttributeIds.SM_INFO_RECORD ? this::dumpSmInfoRecord
                        : this::dumpSwitchInfoRecord);
            }
            case AttributeIds.PATH_RECORD -> pathRecords(srcLid, dstLid, numb);
            case AttributeIds.MC_MEMBER_RECORD -> mcMemberRecords();
            default -> {
                MadQuery.SaResult r = call(Methods.GET_TABLE, type, 0, 0, new byte[0]);
                if (r.status() != 0) {
                    throw new Exit(EIO, reportErr(r.status()));
                }
                layout(type);
            }
        }
    }

    /** Sets a numeric field when {@code value} is not {@code unset}: the component bit, else 0. */
    private static long set(Layout l, byte[] t, String field, long value, long unset, long bit) {
        if (value == unset) {
            return 0;
        }
        Field f = l.field(field);
        l.set(t, 0, f, value & f.maxValue());
        return bit;
    }

    private long num(String s, long unset) {
        return s == null ? unset : Addresses.unsigned(s);
    }

    private void pathRecords(int srcLid, int dstLid, long numb) {
        Layout l = SaAttributes.PATH_RECORD;
        byte[] t = new byte[l.size()];
        long mask = 0;
        mask |= set(l, t, "PathRecServiceId", num(serviceId, 0), 0, 3);
        byte[] sg = sgid != null ? gidArg(sgid) : sgidToDgid != null ? parseGid(sgidToDgid.split("-", 2)[0]) : null;
        byte[] dg = dgid != null ? gidArg(dgid) : sgidToDgid != null ? parseGid(sgidToDgid.split("-", 2)[1]) : null;
        if (sg != null && !zero(sg)) {
            l.setBytes(t, 0, "PathRecSGid", sg);
            mask |= 1L << 3;
        }
        if (dg != null && !zero(dg)) {
            l.setBytes(t, 0, "PathRecDGid", dg);
            mask |= 1L << 2;
        }
        long s = srcLid != 0 ? srcLid : num(slid, 0) & 0xffff;
        long d = dstLid != 0 ? dstLid : num(dlid, 0) & 0xffff;
        mask |= set(l, t, "PathRecSLid", s, 0, 1L << 5);
        mask |= set(l, t, "PathRecDLid", d, 0, 1L << 4);
        mask |= set(l, t, "PathRecHopLimit", num(hopLimit, -1), -1, 1L << 9);
        mask |= set(l, t, "PathRecFlowLabel", num(flowLabel, 0), 0, 1L << 8);
        mask |= set(l, t, "PathRecTClass", num(tclass, 0), 0, 1L << 10);
        mask |= set(l, t, "PathRecReversible", num(reversible, -1), -1, 1L << 11);
        long np = numbPath != null ? num(numbPath, -1) : numb;
        mask |= set(l, t, "PathRecNumPath", np, -1, 1L << 12);
        mask |= set(l, t, "PathRecPKey", num(pkey, 0), 0, 1L << 13);
        mask |= set(l, t, "PathRecSL", num(sl, -1), -1, 1L << 15);
        if (qosClass != null) {
            mask |= set(l, t, "PathRecQosClass", num(qosClass, 0), -1, 1L << 14);
        }
        mask |= selector(l, t, mtu, "PathRecMtuSelector", "PathRecMtu", 16);
        mask |= selector(l, t, rate, "PathRecRateSelector", "PathRecRate", 18);
        mask |= selector(l, t, pktLifetime, "PathRecPktLifeSelector", "PathRecPktLife", 20);
        table(AttributeIds.PATH_RECORD, mask, t, this::dumpPathRecord);
    }

    /** A value and selector argument as saquery reads it: "4" (exactly), "&gt;4", "&lt;4", or a raw byte. */
    private static long selector(Layout l, byte[] t, String arg, String selField, String valField, int bit) {
        if (arg == null) {
            return 0;
        }
        long v = Addresses.unsigned(arg) & 0xff;
        if (v == 0) {
            return 0;
        }
        l.set(t, 0, selField, (v >> 6) & 3);
        l.set(t, 0, valField, v & 0x3f);
        return (3L << bit);
    }

    private void mcMemberRecords() {
        Layout l = SaAttributes.MC_MEMBER_RECORD;
        byte[] t = new byte[l.size()];
        long mask = 0;
        byte[] mg = mgid == null ? null : gidArg(mgid);
        if (mg != null && !zero(mg)) {
            l.setBytes(t, 0, "McastMemMGid", mg);
            mask |= 1;
        }
        byte[] pg = gid == null ? null : gidArg(gid);
        if (pg != null && !zero(pg)) {
            l.setBytes(t, 0, "McastMemPortGid", pg);
            mask |= 2;
        }
        mask |= set(l, t, "McastMemMLid", num(mlid, 0) & 0xffff, 0, 1L << 3);
        mask |= set(l, t, "McastMemQkey", num(qkey, 0), 0, 1L << 2);
        mask |= set(l, t, "McastMemTClass", num(tclass, 0), 0, 1L << 6);
        mask |= set(l, t, "McastMemPkey", num(pkey, 0), 0, 1L << 7);
        mask |= set(l, t, "McastMemSL", num(sl, -1), -1, 1L << 12);
        mask |= set(l, t, "McastMemScope", num(scope, 0), 0, 1L << 15);
        mask |= set(l, t, "McastMemJoinState", num(joinState, 0), 0, 1L << 16);
        mask |= set(l, t, "McastMemProxyJoin", num(proxyJoin, -1), -1, 1L << 17);
        table(AttributeIds.MC_MEMBER_RECORD, mask, t, this::dumpMcMemberRecord);
    }

    private static byte[] gidArg(String s) {
        byte[] g = parseGid(s);
        if (g == null) {
            throw new Exit(Main.USAGE, "saquery: bad GID \"" + s + "\" (IPv6 format expected)");
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

    /** An IPv6-format GID, or null. */
    static byte[] parseGid(String s) {
        if (s == null || !s.contains(":") || !s.matches("[0-9a-fA-F:.]+")) {
            return null;
        }
        try {
            byte[] b = InetAddress.getByName(s).getAddress();
            return b.length == 16 ? b : null;
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /** inet_ntop's form of a GID: the shortest IPv6 text (RFC 5952). */
    static String gidString(byte[] g) {
        int[] w = new int[8];
        for (int i = 0; i < 8; i++) {
            w[i] = ((g[2 * i] & 0xff) << 8) | (g[2 * i + 1] & 0xff);
        }
        int bestStart = -1;
        int bestLen = 0;
        for (int i = 0; i < 8;) {
            if (w[i] != 0) {
                i++;
                continue;
            }
            int j = i;
            while (j < 8 && w[j] == 0) {
                j++;
            }
            if (j - i > bestLen && j - i >= 2) {
                bestStart = i;
                bestLen = j - i;
            }
            i = j;
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                sb.append("::");
                i += bestLen - 1;
                continue;
            }
            if (sb.length() > 0 && sb.charAt(sb.length() - 1) != ':') {
                sb.append(':');
            }
            sb.append(Integer.toHexString(w[i]));
        }
        return sb.toString();
    }

    // ---- the multi-query commands

    private void printNodeRecords(Print print, String name, long requested) {
        List<byte[]> all = records(AttributeIds.NODE_RECORD, 0, 0, new byte[0]);
        if (print == Print.ALL_DESC && !json) {
            out.append("   LID \"name\"\n================\n");
        }
        Layout l = SaAttributes.NODE_RECORD;
        for (byte[] r : all) {
            int lid = (int) l.get(r, 0, "Lid");
            if (json) {
                boolean take = switch (print) {
                    case ALL_DESC -> l.get(r, 0, "NodeType") == 1;
                    case NAME_OF_LID -> lid == requested;
                    case NAME_OF_GUID -> l.get(r, 0, "PortGuid") == requested;
                    default -> name == null || description(r).equals(name);
                };
                if (take) {
                    jsonRecords.add(decode(AttributeIds.NODE_RECORD, r));
                }
                continue;
            }
            switch (print) {
                case ALL_DESC -> {
                    if (l.get(r, 0, "NodeType") == 1) {
                        out.append(String.format("%6d  \"%s\"%n", lid, description(r)));
                    }
                }
                case NAME_OF_LID -> {
                    if (lid == requested) {
                        printNodeRecord(print, r);
                    }
                }
                case NAME_OF_GUID -> {
                    if (l.get(r, 0, "PortGuid") == requested) {
                        printNodeRecord(print, r);
                    }
                }
                default -> {
                    if (name == null || description(r).equals(name)) {
                        printNodeRecord(print, r);
                        if (print == Print.UNIQUE_LID_ONLY) {
                            return;
                        }
                    }
                }
            }
        }
    }

    private void printNodeRecord(Print print, byte[] r) {
        Layout l = SaAttributes.NODE_RECORD;
        switch (print) {
            case LID_ONLY, UNIQUE_LID_ONLY -> out.append(l.get(r, 0, "Lid")).append('\n');
            case GUID_ONLY -> out.append(String.format("0x%016x%n", l.get(r, 0, "PortGuid")));
            case NAME_OF_LID, NAME_OF_GUID -> out.append(description(r)).append('\n');
            default -> dumpNodeRecord(r);
        }
    }

    private void printIssm() {
        Layout l = SaAttributes.PORT_INFO_RECORD;
        for (long bit : new long[] {0x2, 0x400}) {
            byte[] t = new byte[l.size()];
            l.set(t, 0, "CapMask", bit);
            List<byte[]> rs = records(AttributeIds.PORT_INFO_RECORD, 1L << 31, PIR_CAPMASK, t);
            if (!json) {
                out.append(bit == 2 ? "IsSM ports\n" : "\nIsSMdisabled ports\n");
            }
            for (byte[] r : rs) {
                if (json) {
                    jsonRecords.add(decode(AttributeIds.PORT_INFO_RECORD, r));
                    continue;
                }
                out.append("PortInfoRecord dump:\n")
                        .append(String.format("\t\tEndPortLid..............%d%n", l.get(r, 0, "EndportLid")))
                        .append(String.format("\t\tPortNum.................%d%n", l.get(r, 0, "PortNum")))
                        .append(String.format("\t\tbase_lid................%d%n", l.get(r, 0, "Lid")))
                        .append(String.format("\t\tmaster_sm_base_lid......%d%n", l.get(r, 0, "SMLid")))
                        .append(String.format("\t\tcapability_mask.........0x%X%n", l.get(r, 0, "CapMask")));
            }
        }
    }

    private void printMembers(String requestedName) {
        Layout l = SaAttributes.MC_MEMBER_RECORD;
        List<byte[]> groupsFound = records(AttributeIds.MC_MEMBER_RECORD, 0, 0, new byte[0]);
        List<byte[]> nodes = records(AttributeIds.NODE_RECORD, 0, 0, new byte[0]);
        for (byte[] r : groupsFound) {
            if (json) {
                jsonRecords.add(decode(AttributeIds.MC_MEMBER_RECORD, r));
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
                    node = description(n);
                    break;
                }
            }
            long mlidV = l.get(r, 0, "McastMemMLid");
            if (requestedName != null) {
                if (Addresses.strtol(requestedName).value() == mlidV) {
                    out.append(String.format("\t\tPortGid.................%s (%s)%n", gidString(pg), node));
                }
            } else {
                out.append("MCMemberRecord member dump:\n")
                        .append(String.format("\t\tMGID....................%s%n",
                                gidString(l.getBytes(r, 0, "McastMemMGid"))))
                        .append(String.format("\t\tMlid....................0x%X%n", mlidV))
                        .append(String.format("\t\tPortGid.................%s%n", gidString(pg)))
                        .append(String.format("\t\tScopeState..............0x%X%n",
                                (l.get(r, 0, "McastMemScope") << 4) | l.get(r, 0, "McastMemJoinState")))
                        .append(String.format("\t\tProxyJoin...............0x%X%n", l.get(r, 0,
                                "McastMemProxyJoin")))
                        .append(String.format("\t\tNodeDescription.........%s%n", node));
            }
        }
    }

    // ---- the dumps, as saquery prints them

    private void dumpNodeRecord(byte[] r) {
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

    private static String nodeType(int t) {
        return switch (t) {
            case 1 -> "Channel Adapter";
            case 2 -> "Switch";
            case 3 -> "Router";
            default -> "UNKNOWN";
        };
    }

    private void dumpPathRecord(byte[] r) {
        Layout l = SaAttributes.PATH_RECORD;
        long hopFlowRaw = (l.get(r, 0, "PathRecRawTraffic") << 31) | (l.get(r, 0, "PathRecFlowLabel") << 8)
                | l.get(r, 0, "PathRecHopLimit");
        out.append("PathRecord dump:\n")
                .append(String.format("\t\tservice_id..............0x%016x%n", l.get(r, 0, "PathRecServiceId")))
                .append(String.format("\t\tdgid....................%s%n", gidString(l.getBytes(r, 0, "PathRecDGid"))))
                .append(String.format("\t\tsgid....................%s%n", gidString(l.getBytes(r, 0, "PathRecSGid"))))
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

    private void dumpPortInfoRecord(byte[] r) {
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

    private void dumpLinkRecord(byte[] r) {
        Layout l = SaAttributes.LINK_RECORD;
        out.append("LinkRecord dump:\n")
                .append(String.format("\t\tFromLID....................%d%n", l.get(r, 0, "FromLID")))
                .append(String.format("\t\tFromPort...................%d%n", l.get(r, 0, "FromPort")))
                .append(String.format("\t\tToPort.....................%d%n", l.get(r, 0, "ToPort")))
                .append(String.format("\t\tToLID......................%d%n", l.get(r, 0, "ToLID")));
    }

    private void dumpPkeyTableRecord(byte[] r) {
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

    private void dumpLftRecord(byte[] r) {
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

    private void dumpSmInfoRecord(byte[] r) {
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

    private void dumpSwitchInfoRecord(byte[] r) {
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

    private void dumpGroup(byte[] r) {
        Layout l = SaAttributes.MC_MEMBER_RECORD;
        out.append("MCMemberRecord group dump:\n")
                .append(String.format("\t\tMGID....................%s%n", gidString(l.getBytes(r, 0, "McastMemMGid"))))
                .append(String.format("\t\tMlid....................0x%X%n", l.get(r, 0, "McastMemMLid")))
                .append(String.format("\t\tMtu.....................0x%X%n", sel(l, r, "McastMemMTU")))
                .append(String.format("\t\tpkey....................0x%X%n", l.get(r, 0, "McastMemPkey")))
                .append(String.format("\t\tRate....................0x%X%n", sel(l, r, "McastMemRate")))
                .append(String.format("\t\tSL......................0x%X%n", l.get(r, 0, "McastMemSL")));
    }

    private void dumpMcMemberRecord(byte[] r) {
        Layout l = SaAttributes.MC_MEMBER_RECORD;
        out.append("MCMember Record dump:\n")
                .append(String.format("\t\tMGID....................%s%n", gidString(l.getBytes(r, 0, "McastMemMGid"))))
                .append(String.format("\t\tPortGid.................%s%n",
                        gidString(l.getBytes(r, 0, "McastMemPortGid"))))
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

    private void dumpClassPortInfo() {
        if (json) {
            jsonRecords.add(decode(AttributeIds.CLASS_PORT_INFO, cpi));
            return;
        }
        byte[] c = cpi;
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
                .append(String.format("\t\tRedirect GID.............%s%n", gidString(l.getBytes(c, 0, "RedirectGID"))))
                .append(String.format("\t\tRedirect TC/SL/FL........0x%08X%n", redirTcSlFl))
                .append(String.format("\t\tRedirect LID.............%d%n", l.get(c, 0, "RedirectLID")))
                .append(String.format("\t\tRedirect PKey............0x%04X%n", l.get(c, 0, "RedirectPKey")))
                .append(String.format("\t\tRedirect QP..............0x%08X%n", l.get(c, 0, "RedirectQP")))
                .append(String.format("\t\tRedirect QKey............0x%08X%n", l.get(c, 0, "RedirectQKey")))
                .append(String.format("\t\tTrap GID.................%s%n", gidString(l.getBytes(c, 0, "TrapGID"))))
                .append(String.format("\t\tTrap TC/SL/FL............0x%08X%n", trapTcSlFl))
                .append(String.format("\t\tTrap LID.................%d%n", l.get(c, 0, "TrapLID")))
                .append(String.format("\t\tTrap PKey................0x%04X%n", l.get(c, 0, "TrapPKey")))
                .append(String.format("\t\tTrap HL/QP...............0x%08X%n", (l.get(c, 0, "TrapHL") << 24)
                        | l.get(c, 0, "TrapQP")))
                .append(String.format("\t\tTrap QKey................0x%08X%n", l.get(c, 0, "TrapQKey")));
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "saquery %s", args);
    }
}
