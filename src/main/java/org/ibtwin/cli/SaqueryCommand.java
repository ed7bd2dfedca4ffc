package org.ibtwin.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.ibtwin.diag.Addresses;
import org.ibtwin.diag.Gids;
import org.ibtwin.diag.MadQuery;
import org.ibtwin.diag.SaQueries;
import org.ibtwin.diag.SaQueries.NodePrint;
import org.ibtwin.diag.SaQueries.Query;
import org.ibtwin.transport.MadTransport;
import org.ibtwin.transport.MadTransportException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ibtwin saquery}: infiniband-diags' saquery, its queries, options and output, asking the SA at the SM LID
 * of the attach port, over the query layer {@link SaQueries}. Records come whole (RMPP reassembled) where the SA segments them; from OpenSM through
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
            "  InformInfoRecord (IIR) [subscriber_gid]",
            "  LinkRecord (LR) [[from_lid]/[from_port]] [[to_lid]/[to_port]]",
            "  ServiceRecord (SR)",
            "  PathRecord (PR)",
            "  MCMemberRecord (MCMR)",
            "  LFTRecord (LFTR) [[lid]/[block]]",
            "  GUIDInfoRecord (GIR) [[lid]/[block]]",
            "  SwitchInfoRecord (SWIR) [lid]",
            "  SMInfoRecord (SMIR) [lid]",
            "",
            "  Queries node records by default. A lid may be given as a node description (as saquery does).",
            "",
            "Examples:",
            "  ibtwin saquery --ibsim 127.0.0.1:7070 -p --slid 3 --dlid 5   # the path from LID 3 to LID 5",
            "  ibtwin saquery -s                                           # the ports with IsSM",
            "  ibtwin saquery SWIR --json"})
public final class SaqueryCommand extends DiagCommand {
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
    @Option(names = "-S", description = "get ServiceRecord info") boolean serviceRecords;
    @Option(names = "-I", description = "get InformInfoRecord (subscription) info") boolean informInfoRecords;
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

    private enum Cmd { QUERY, NODE_RECORD, CLASS_PORT_INFO, ISSM, MCGROUPS, MCMEMBERS }

    /** A command flag: given or not, the command it selects and what NodeRecords it prints (null: as before). */
    private record Flag(boolean given, Cmd cmd, NodePrint print) {
    }

    @Override
    DiagOptions diag() {
        DiagOptions d = new DiagOptions();
        d.timeout = timeout;
        d.errors = errors;
        d.verbose = verbose;
        d.debug = debug;
        return d;
    }

    @Override
    String tool() {
        return "saquery";
    }

    @Override
    int execute() {
        List<Map<String, Object>> records = new ArrayList<>();
        try {
            return run(records);
        } catch (SaQueries.Failure f) {
            throw new Exit(f.exitCode(), f.getMessage());
        } finally {
            if (json) {
                try {
                    out.append(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
                            .writeValueAsString(records)).append(System.lineSeparator());
                } catch (JsonProcessingException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
    }

    private int run(List<Map<String, Object>> jsonRecords) {
        Cmd cmd = Cmd.QUERY;
        NodePrint print = NodePrint.ALL;
        Query query = null;
        long numb = -1;
        if (srcToDst != null) {
            if (srcToDst.indexOf(':') < 0) {
                return usage();
            }
            query = Query.PATH_RECORD;
            numb = 0x7f;
        }
        if (sgidToDgid != null) {
            int dash = sgidToDgid.indexOf('-');
            if (dash < 0 || Gids.parse(sgidToDgid.substring(0, dash)) == null
                    || Gids.parse(sgidToDgid.substring(dash + 1)) == null) {
                return usage();
            }
            query = Query.PATH_RECORD;
            numb = 0x7f;
        }
        if (pathRecords) {
            query = Query.PATH_RECORD;
        }
        if (linkRecords) {
            query = Query.LINK_RECORD;
        }
        if (serviceRecords) {
            query = Query.SERVICE_RECORD;
        }
        if (informInfoRecords) {
            query = Query.INFORM_INFO_RECORD;
        }
        // the last of these saquery reads wins, as in its option loop
        for (Flag f : List.of(new Flag(nodeRecords, Cmd.NODE_RECORD, null),
                new Flag(lidsOf, Cmd.NODE_RECORD, NodePrint.LID_ONLY),
                new Flag(uniqueLid, Cmd.NODE_RECORD, NodePrint.UNIQUE_LID_ONLY),
                new Flag(guidsOf, Cmd.NODE_RECORD, NodePrint.GUID_ONLY),
                new Flag(nameOfLid, Cmd.NODE_RECORD, NodePrint.NAME_OF_LID),
                new Flag(nameOfGuid, Cmd.NODE_RECORD, NodePrint.NAME_OF_GUID),
                new Flag(list, Cmd.NODE_RECORD, NodePrint.CA_LIST), new Flag(issm, Cmd.ISSM, null),
                new Flag(groups, Cmd.MCGROUPS, null), new Flag(members, Cmd.MCMEMBERS, null),
                new Flag(classPortInfo, Cmd.CLASS_PORT_INFO, null))) {
            if (f.given()) {
                cmd = f.cmd();
                print = f.print() != null ? f.print() : print;
            }
        }
        List<String> rest = new ArrayList<>(args);
        if (query == null && cmd == Cmd.QUERY) {
            query = rest.isEmpty() ? null : Query.match(rest.get(0)).orElse(null);
            if (query == null) {
                query = Query.NODE_RECORD;
            } else {
                rest.remove(0);
            }
        }
        String requestedName = null;
        long requested = 0;
        boolean requestedFlag = false;
        if (!rest.isEmpty()) {
            if (print == NodePrint.NAME_OF_LID || print == NodePrint.NAME_OF_GUID) {
                requested = Addresses.unsigned(rest.get(0));
                requestedFlag = true;
                if (print == NodePrint.NAME_OF_LID) {
                    requested &= 0xffff;
                }
            } else {
                requestedName = rest.get(0);
            }
        }
        if ((print == NodePrint.LID_ONLY || print == NodePrint.UNIQUE_LID_ONLY || print == NodePrint.GUID_ONLY)
                && requestedName == null) {
            return usage("ERROR: name not specified");
        }
        if (print == NodePrint.NAME_OF_LID && !requestedFlag) {
            return usage("ERROR: lid not specified");
        }
        if (print == NodePrint.NAME_OF_GUID && !requestedFlag) {
            return usage("ERROR: guid not specified");
        }
        if (print == NodePrint.NAME_OF_LID && requested == 0) {
            return usage("ERROR: lid invalid");
        }
        long saKey = smKey == null ? 0 : Addresses.unsigned(smKey);
        try (MadTransport t = attachSa()) {
            MadQuery q = new MadQuery(t);
            q.timeout(Duration.ofMillis(timeoutMillis()));
            SaQueries sa = new SaQueries(q, t.localPort().smLid(), saKey, errors, json, out);
            try {
                int srcLid = 0;
                int dstLid = 0;
                if (srcToDst != null) {
                    String[] sd = srcToDst.split(":", 2);
                    srcLid = sd[0].isEmpty() ? 0 : sa.lid(sd[0]);
                    dstLid = sd[1].isEmpty() ? 0 : sa.lid(sd[1]);
                }
                if (cmd == Cmd.CLASS_PORT_INFO || query != null && query.needsClassPortInfo()) {
                    sa.readClassPortInfo();
                }
                switch (cmd) {
                    case NODE_RECORD -> sa.nodeRecords(print, requestedName, requested);
                    case CLASS_PORT_INFO -> sa.classPortInfo();
                    case ISSM -> sa.issm();
                    case MCGROUPS -> sa.groups();
                    case MCMEMBERS -> sa.members(requestedName);
                    default -> sa.query(query, rest, criteria(), srcLid, dstLid, numb);
                }
            } finally {
                jsonRecords.addAll(sa.jsonRecords());
            }
        }
        return 0;
    }

    /** PathRecord's and MCMemberRecord's options, by saquery's long option names, for {@link SaQueries#query}. */
    private Map<String, String> criteria() {
        Map<String, String> c = new LinkedHashMap<>();
        String[][] named = {{"sgid-to-dgid", sgidToDgid}, {"slid", slid}, {"dlid", dlid}, {"mlid", mlid},
            {"sgid", sgid}, {"dgid", dgid}, {"gid", gid}, {"mgid", mgid}, {"reversible", reversible},
            {"numb_path", numbPath}, {"pkey", pkey}, {"qos_class", qosClass}, {"sl", sl}, {"mtu", mtu},
            {"rate", rate}, {"pkt_lifetime", pktLifetime}, {"qkey", qkey}, {"tclass", tclass},
            {"flow_label", flowLabel}, {"hop_limit", hopLimit}, {"scope", scope}, {"join_state", joinState},
            {"proxy_join", proxyJoin}, {"service_id", serviceId}};
        for (String[] n : named) {
            if (n[1] != null) {
                c.put(n[0], n[1]);
            }
        }
        return c;
    }

    private int usage(String line) {
        spec.commandLine().getErr().println(line);
        spec.commandLine().getErr().println();
        return usage();
    }

    /** -t: saquery's default is 1000 ms; a bad value is a usage error in saquery's words. */
    @Override
    int timeoutMillis() {
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

    /** Attaches, or fails as saquery fails to bind to the SA (exit 255). */
    private MadTransport attachSa() {
        try {
            return opener.apply(transport);
        } catch (MadTransportException e) {
            long pid = ProcessHandle.current().pid();
            throw new Exit(IBERROR, "ibwarn: [" + pid + "] umad_open_port: can't attach to ibsim at "
                    + transport.target() + ": " + e.getMessage() + "\nibpanic: [" + pid + "] main: Failed to bind to "
                    + "the SA: " + e.getMessage());
        }
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "saquery %s", args);
    }
}
