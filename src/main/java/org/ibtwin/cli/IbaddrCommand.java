package org.ibtwin.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.ibtwin.diag.Addresses;
import org.ibtwin.diag.Gids;
import org.ibtwin.diag.MadQuery;
import org.ibtwin.diag.QueryException;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.PortId;
import org.ibtwin.mad.SmpAttributes;
import org.ibtwin.transport.LocalPort;
import org.ibtwin.transport.MadTransport;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ibtwin ibaddr}: infiniband-diags' ibaddr, a port's GID and LID range (NodeInfo, then PortInfo). ibaddr gives
 * -L its own meaning (the LID range in decimal), so the common -L is left out here; LIDs are the default anyway.
 */
@Command(name = "ibaddr", mixinStandardHelpOptions = true, modelTransformer = IbaddrCommand.DecimalOption.class,
        description = "A port's GID and LID range, as infiniband-diags' ibaddr.",
        footer = {"", "Examples:",
            "  ibtwin ibaddr                    # local port's address",
            "  ibtwin ibaddr 32                 # show lid range and gid of lid 32",
            "  ibtwin ibaddr -G 0x8f1040023     # same but using guid address",
            "  ibtwin ibaddr -l 32              # show lid range only",
            "  ibtwin ibaddr -L 32              # show decimal lid range only",
            "  ibtwin ibaddr -g 32              # show gid address only"})
public final class IbaddrCommand extends CommonDiagCommand.Directed {
    @Option(names = {"-g", "--gid_show"}, description = "Show gid address only.")
    boolean gid;

    @Option(names = {"-l", "--lid_show"}, description = "Show lid range only.")
    boolean[] lidShow = new boolean[0];

    @Option(names = "--json", description = "Print the address as JSON.")
    boolean json;

    @Parameters(arity = "0..2", paramLabel = "[<lid|dr_path|guid> [port]]", description = "The port.")
    List<String> args = new ArrayList<>();

    /** Set by -L (decimal LIDs): ibaddr's show_lid = -100. */
    boolean decimal;

    /** Swaps the common -L (LID address) for ibaddr's -L, --Lid_show. */
    public static final class DecimalOption implements CommandLine.IModelTransformer {
        @Override
        public CommandSpec transform(CommandSpec spec) {
            return swapOption(spec, OptionSpec.builder("-L", "--Lid_show").arity("0").type(boolean.class)
                    .description("Show lid range (in decimal) only."),
                    v -> ((IbaddrCommand) spec.userObject()).decimal = Boolean.TRUE.equals(v));
        }
    }

    @Override
    String tool() {
        return "ibaddr";
    }

    @Override
    int execute() {
        checkCommonOptions();
        int showLid = lastLidFlag();
        boolean showGid = gid;
        if (showLid == 0 && !showGid) {
            showLid = 1;
            showGid = true;
        }
        int port = args.size() > 1 ? (int) Addresses.unsigned(args.get(1)) : 0;
        try (MadTransport t = attach()) {
            MadQuery q = query(t);
            PortId dest;
            if (!args.isEmpty()) {
                dest = Destinations.resolve(this, q, Destinations.type(spec, ""), args.get(0))
                        .orElseThrow(() -> new IbError("can't resolve destination port " + args.get(0)));
            } else {
                LocalPort self = q.localPort();
                dest = self.lid() == 0 ? PortId.directed(0) : PortId.lid(self.lid());
                port = self.portNumber();
            }
            byte[] ni;
            byte[] pi;
            try {
                ni = q.smpGet(dest, AttributeIds.NODE_INFO, 0);
                pi = q.smpGet(dest, AttributeIds.PORT_INFO, port & 0xffffffffL);
            } catch (QueryException e) {
                warnQuery(e);
                throw new IbError("can't resolve requested address", e);
            }
            int lid = (int) SmpAttributes.PORT_INFO.get(pi, 0, "Lid");
            int lmc = (int) SmpAttributes.PORT_INFO.get(pi, 0, "LMC");
            long prefix = SmpAttributes.PORT_INFO.get(pi, 0, "GidPrefix");
            long guid = SmpAttributes.NODE_INFO.get(ni, 0, "PortGuid");
            int last = lid + (1 << lmc) - 1;
            if (json) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("gid", Gids.ntop(prefix, guid));
                m.put("lidStart", lid);
                m.put("lidEnd", last);
                out.append(Json.write(m));
                return 0;
            }
            StringBuilder sb = new StringBuilder();
            if (showGid) {
                sb.append("GID ").append(Gids.ntop(prefix, guid)).append(' ');
            }
            if (showLid > 0) {
                sb.append("LID start 0x").append(Integer.toHexString(lid)).append(" end 0x")
                        .append(Integer.toHexString(last));
            } else if (showLid < 0) {
                sb.append("LID start ").append(lid).append(" end ").append(last);
            }
            out.append(sb).append('\n');
        }
        return 0;
    }

    /** show_lid as ibaddr's option loop leaves it: each -l adds one, -L sets -100, in the order given. */
    private int lastLidFlag() {
        int v = 0;
        if (spec.commandLine().getParseResult() == null) {
            return decimal ? -100 : lidShow.length;
        }
        for (String a : spec.commandLine().getParseResult().originalArgs()) {
            if (a.equals("-l") || a.equals("--lid_show")) {
                v++;
            } else if (a.equals("-L") || a.equals("--Lid_show")) {
                v = -100;
            }
        }
        return v;
    }
}
