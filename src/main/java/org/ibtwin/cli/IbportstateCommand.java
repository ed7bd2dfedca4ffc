package org.ibtwin.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.ibtwin.diag.Addresses;
import org.ibtwin.diag.MadQuery;
import org.ibtwin.diag.OpFailure;
import org.ibtwin.diag.PortStateOps;
import org.ibtwin.diag.QueryException;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.Field;
import org.ibtwin.mad.PortId;
import org.ibtwin.mad.SmpAttributes;
import org.ibtwin.transport.MadTransport;
import picocli.CommandLine.Command;
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
            "",
            "--json prints the port's PortInfo fields after the operation instead (64-bit fields as hex; the",
            "M_Key only with -K)."})
public final class IbportstateCommand extends CommonDiagCommand.Directed {
    @Option(names = {"-K", "--show_keys"}, description = "Display security keys in output.")
    boolean showKeys;

    @Option(names = "--json", description = "Print the port's PortInfo after the operation as JSON.")
    boolean json;

    @Parameters(arity = "0..*", paramLabel = "<dest dr_path|lid|guid> <portnum> [<op>]",
            description = "The port and the operation.")
    List<String> args = new ArrayList<>();

    @Override
    String tool() {
        return "ibportstate";
    }

    /** The port's PortInfo fields after the operation, in the attribute's table order. */
    private Map<String, Object> json(PortId dest, int port, PortStateOps.Request r, byte[] pi) {
        Map<String, Object> fields = new LinkedHashMap<>();
        for (Field f : SmpAttributes.PORT_INFO.fields()) {
            if (f.isArray() || (f.name().equals("Mkey") && !showKeys)) {
                continue;
            }
            long v = f.get(pi, 0);
            fields.put(f.name(), f.bitLength() > 32 ? String.format("0x%016x", v) : v);
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("destination", dest.toString());
        m.put("port", port);
        m.put("operation", r.op().word());
        m.put("portInfo", fields);
        return m;
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
            if (json) {
                byte[] pi;
                try {
                    pi = q.smpGet(dest, AttributeIds.PORT_INFO, port);
                } catch (QueryException e) {
                    warnQuery(e);
                    throw new IbError("smp query portinfo failed", e);
                }
                out.setLength(0);
                out.append(Json.write(json(dest, port, r, pi)));
            }
        }
        return 0;
    }
}
