package org.ibtwin.cli;

import java.util.ArrayList;
import java.util.List;
import org.ibtwin.diag.Addresses;
import org.ibtwin.diag.MadQuery;
import org.ibtwin.diag.OpFailure;
import org.ibtwin.diag.PortStateOps;
import org.ibtwin.mad.PortId;
import org.ibtwin.transport.MadTransport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code ibtwin ibportstate}: infiniband-diags' ibportstate, query and change a port by SubnSet(PortInfo). */
@Command(name = "ibportstate", mixinStandardHelpOptions = true,
        description = "Query or change a port's state, speed and width, as infiniband-diags' ibportstate.",
        footer = {"", "Supported ops: enable, disable, on, off, reset, speed, espeed, fdr10,",
            "\twidth, query, down, arm, active, vls, mtu, lid, smlid, lmc,",
            "\tmkey, mkeylease, mkeyprot",
            "",
            "Examples:",
            "  ibtwin ibportstate 3 1 disable     # by lid, physical port number",
            "  ibtwin ibportstate -D 0 1          # (query) by direct route",
            "  ibtwin ibportstate 3 1 reset       # by lid",
            "  ibtwin ibportstate 3 1 speed 1     # by lid",
            "  ibtwin ibportstate 3 1 width 1     # by lid",
            "  ibtwin ibportstate -D 0 1 lid 0x1234 arm   # by direct route",
            "--json prints the port's PortInfo fields after the operation."})
public final class IbportstateCommand extends DiagCommand {
    @Mixin
    DiagOptions diag;

    @Override
    DiagOptions diag() {
        return diag;
    }

    @Option(names = {"-D", "--Direct"}, description = "Use Direct address argument.")
    boolean direct;

    @Option(names = {"-K", "--show_keys"}, description = "Display security keys in output.")
    boolean showKeys;

    @Parameters(arity = "0..*", paramLabel = "<dest dr_path|lid|guid> <portnum> [<op>]",
            description = "The port and the operation.")
    List<String> args = new ArrayList<>();

    @Override
    String tool() {
        return "ibportstate";
    }

    @Override
    int execute() {
        checkCommonOptions();
        if (args.size() < 2) {
            return usage();
        }
        try (MadTransport t = attach()) {
            MadQuery q = query(t);
            PortId dest = Destinations.resolve(this, q, Destinations.type(spec, "-L"), args.get(0))
                    .orElseThrow(() -> new IbError("can't resolve destination port " + args.get(0)));
            int port = (int) Addresses.number(args.get(1));
            PortStateOps.Request r;
            try {
                r = PortStateOps.parse(args.subList(2, args.size()));
            } catch (OpFailure f) {
                throw new IbError(f.getMessage(), f);
            }
            try {
                new PortStateOps(q, showKeys, w -> warn(w)).run(dest, port, r, q.localPort().lid(), out);
            } catch (OpFailure f) {
                throw failed("", f);
            }
        }
        return 0;
    }
}
