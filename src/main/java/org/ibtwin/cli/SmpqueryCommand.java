package org.ibtwin.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.ibtwin.diag.Addresses;
import org.ibtwin.diag.MadQuery;
import org.ibtwin.diag.OpFailure;
import org.ibtwin.diag.QueryException;
import org.ibtwin.diag.Resolver;
import org.ibtwin.diag.SmpQueries;
import org.ibtwin.mad.PortId;
import org.ibtwin.transport.MadTransport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ibtwin smpquery}: infiniband-diags' smpquery, the same arguments, queries and output.
 */
@Command(name = "smpquery", mixinStandardHelpOptions = true,
        description = "Query SMP attributes of a port or node, as infiniband-diags' smpquery prints them.",
        footer = {"", "Supported ops (and aliases, case insensitive):",
            "  NodeInfo (NI) <addr>",
            "  NodeDesc (ND) <addr>",
            "  PortInfo (PI) <addr> [<portnum>]",
            "  SwitchInfo (SI) <addr>",
            "  PKeyTable (PKeys) <addr> [<portnum>]",
            "  SL2VLTable (SL2VL) <addr> [<portnum>]",
            "  VLArbitration (VLArb) <addr> [<portnum>]",
            "  GUIDInfo (GI) <addr>",
            "  MlnxExtPortInfo (MEPI) <addr> [<portnum>]",
            "  LinearForwarding (LFT) <addr> [<block>]     (ibtwin's own: unicast routes, ibroute's lines)",
            "  MulticastForwarding (MFT) <addr> [<block>]  (ibtwin's own: MLID port masks)",
            "",
            "<addr> is a LID (-L, default), a directed path \"0,1,3\" (-D), a port GUID (-G, asked of the SA)",
            "or, with -c, a LID and a path from there. Errors print as smpquery prints them, exit code 255.",
            "",
            "Examples:",
            "  ibtwin smpquery --ibsim 127.0.0.1:7070 portinfo 3 1   # portinfo by lid, with port modifier",
            "  ibtwin smpquery -G switchinfo 0x2C9000100D051 1      # switchinfo by guid",
            "  ibtwin smpquery -D nodeinfo 0                         # nodeinfo by direct route",
            "  ibtwin smpquery -c nodeinfo 6 0,12                    # nodeinfo by combined route",
            "  ibtwin smpquery LFT 3                                 # switch lid 3's unicast routes"})
public final class SmpqueryCommand extends CommonDiagCommand.Directed {
    @Option(names = {"-c", "--combined"}, description = "Use Combined route address argument.")
    boolean combined;

    @Option(names = {"-x", "--extended"}, description = "Use extended speeds.")
    boolean extended;

    @Option(names = {"-K", "--show_keys"}, description = "Display security keys in output.")
    boolean showKeys;

    @Parameters(arity = "0..*", paramLabel = "<op> <dest dr_path|lid|guid> [op params]",
            description = "The operation, its destination and its parameters.")
    List<String> args = new ArrayList<>();

    private enum DestType { LID, DIRECT, GUID, COMBINED }

    @Override
    String tool() {
        return "smpquery";
    }

    @Override
    int execute() {
        checkCommonOptions();
        if (args.size() < 2) {
            return usage();
        }
        String opName = args.get(0);
        SmpQueries.Op op = SmpQueries.Op.match(opName)
                .orElseThrow(() -> new IbError("operation '" + opName + "' not supported"));
        DestType type = destType();
        try (MadTransport t = attach()) {
            MadQuery q = query(t);
            PortId dest;
            List<String> params;
            if (type == DestType.COMBINED) {
                String path = args.size() > 2 ? args.get(2) : null;
                String shown = args.get(1) + " " + (path == null ? "(null)" : path);
                dest = Addresses.combined(args.get(1), path, q.localPort().lid())
                        .orElseThrow(() -> new IbError("can't resolve destination port " + shown));
                params = args.subList(Math.min(3, args.size()), args.size());
            } else {
                dest = resolve(q, type, args.get(1));
                params = args.subList(2, args.size());
            }
            try {
                new SmpQueries(q, showKeys, extended).run(op, dest, params, out);
            } catch (OpFailure f) {
                throw failed("operation " + opName + ": ", f);
            }
        }
        return 0;
    }

    private PortId resolve(MadQuery q, DestType type, String arg) {
        Optional<PortId> dest = switch (type) {
            case LID -> Addresses.lid(arg);
            case DIRECT -> Addresses.directed(arg);
            case GUID -> guid(q, arg);
            default -> throw new IllegalStateException(type.toString());
        };
        return dest.orElseThrow(() -> new IbError("can't resolve destination port " + arg));
    }

    private Optional<PortId> guid(MadQuery q, String arg) {
        var g = Addresses.guid(arg);
        if (g.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Resolver.guid(q, g.getAsLong(), smLid()));
        } catch (QueryException e) {
            warnQuery(e);
            warn("ib_path_query_via: sa call path_query failed");
            return Optional.empty();
        }
    }

    /** The last of -L, -D, -G and -c given wins, as in the real tools' option loop. */
    private DestType destType() {
        DestType type = DestType.LID;
        if (spec.commandLine().getParseResult() == null) {
            return direct ? DestType.DIRECT : combined ? DestType.COMBINED : diag.guid ? DestType.GUID : type;
        }
        for (OptionSpec o : spec.commandLine().getParseResult().matchedOptions()) {
            switch (o.shortestName()) {
                case "-L" -> type = DestType.LID;
                case "-D" -> type = DestType.DIRECT;
                case "-G" -> type = DestType.GUID;
                case "-c" -> type = DestType.COMBINED;
                default -> { }
            }
        }
        return type;
    }
}
