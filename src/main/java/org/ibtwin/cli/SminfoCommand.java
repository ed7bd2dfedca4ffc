package org.ibtwin.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.ibtwin.diag.Addresses;
import org.ibtwin.diag.MadQuery;
import org.ibtwin.diag.QueryException;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.Dumps;
import org.ibtwin.mad.PortId;
import org.ibtwin.mad.SmpAttributes;
import org.ibtwin.transport.MadTransport;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ibtwin sminfo}: infiniband-diags' sminfo, SMInfo of the SM the local port knows (or of a LID or directed
 * path), and with a modifier a SubnSet(SMInfo) carrying -s/-p/-a. sminfo gives -s its own meaning (the state to
 * set), so the common -s (SM port) is left out here.
 */
@Command(name = "sminfo", mixinStandardHelpOptions = true, modelTransformer = SminfoCommand.StateOption.class,
        description = "Query (or set) SMInfo of the subnet manager, as infiniband-diags' sminfo.",
        footer = {"", "Without a destination the SM LID the local port knows is asked. Errors print as sminfo prints",
            "them (\"sminfo: iberror: failed: query\"), exit code 255."})
public final class SminfoCommand extends CommonDiagCommand.Directed {
    @Option(names = {"-p", "--priority"}, paramLabel = "<0-15>", description = "Set SM priority (with a modifier).")
    String priority;

    @Option(names = {"-a", "--activity"}, paramLabel = "<count>",
            description = "Set activity count (with a modifier).")
    String activity;

    @Option(names = "--json", description = "Print the SMInfo as JSON.")
    boolean json;

    @Parameters(arity = "0..2", paramLabel = "<sm_lid|sm_dr_path> [modifier]", description = "The SM and modifier.")
    List<String> args = new ArrayList<>();

    /** -s, --state: set by {@link StateOption}. */
    String state;

    /** Swaps the common -s (SM port) for sminfo's -s &lt;0-3&gt; (the state to set). */
    public static final class StateOption implements CommandLine.IModelTransformer {
        @Override
        public CommandSpec transform(CommandSpec spec) {
            return swapOption(spec, OptionSpec.builder("-s", "--state").paramLabel("<0-3>").type(String.class)
                    .description("Set SM state (with a modifier)."),
                    v -> ((SminfoCommand) spec.userObject()).state = (String) v);
        }
    }

    @Override
    String tool() {
        return "sminfo";
    }

    @Override
    int execute() {
        checkCommonOptions();
        int mod = args.size() > 1 ? Addresses.atoi(args.get(1)) : 0;
        try (MadTransport t = attach()) {
            MadQuery q = query(t);
            PortId dest;
            if (!args.isEmpty()) {
                Destinations.Type type = Destinations.type(spec, "-L");
                dest = Destinations.resolve(this, q, type, args.get(0))
                        .orElseThrow(() -> new IbError("can't resolve destination port " + args.get(0)));
            } else {
                int sm = q.localPort().smLid();
                dest = sm == 0 ? PortId.directed(0) : PortId.lid(sm);
            }
            byte[] data;
            try {
                if (mod != 0) {
                    byte[] set = new byte[SmpAttributes.SM_INFO.size()];
                    SmpAttributes.SM_INFO.set(set, 0, "SmActivity", activity == null ? 0
                            : Addresses.unsigned(activity) & 0xffffffffL);
                    SmpAttributes.SM_INFO.set(set, 0, "SmPriority", priority == null ? 0
                            : Addresses.unsigned(priority) & 0xf);
                    SmpAttributes.SM_INFO.set(set, 0, "SmState", state == null ? 2 : Addresses.unsigned(state) & 0xf);
                    data = q.smpSet(dest, AttributeIds.SM_INFO, mod & 0xffffffffL, set);
                } else {
                    data = q.smpGet(dest, AttributeIds.SM_INFO, 0);
                }
            } catch (QueryException e) {
                warnQuery(e);
                throw new IbError("query", e);
            }
            if (json) {
                Map<String, Object> m = new LinkedHashMap<>();
                int s = (int) SmpAttributes.SM_INFO.get(data, 0, "SmState");
                m.put("lid", dest.lid());
                m.put("guid", String.format("0x%016x", SmpAttributes.SM_INFO.get(data, 0, "SmInfoGuid")));
                m.put("activityCount", SmpAttributes.SM_INFO.get(data, 0, "SmActivity"));
                m.put("priority", SmpAttributes.SM_INFO.get(data, 0, "SmPriority"));
                m.put("state", s);
                m.put("stateName", s < 4 ? List.of("NOTACT", "DISCOVER", "STANDBY", "MASTER").get(s) : "???");
                out.append(Json.write(m));
            } else {
                out.append(Dumps.smInfo(dest.lid(), data, 0));
            }
        }
        return 0;
    }
}
