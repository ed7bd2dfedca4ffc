package org.ibtwin.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.ibtwin.diag.LiveModel;
import org.ibtwin.diag.MadQuery;
import org.ibtwin.diag.NetDiscovery;
import org.ibtwin.format.FabricFiles;
import org.ibtwin.format.FormatException;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.Methods;
import org.ibtwin.mad.SaAttributes;
import org.ibtwin.model.Fabric;
import org.ibtwin.sm.routing.RoutingCheck;
import org.ibtwin.sm.routing.RoutingEngines;
import org.ibtwin.transport.MadTransport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ibtwin check-routing}: proves, rather than trusts, a fabric's unicast routes ({@link RoutingCheck}): every CA
 * pair delivered, no loop, the channel dependency graph of each VL acyclic (no credit loop can deadlock it), path
 * lengths against the fewest hops, and the CA pairs each switch-to-switch channel carries. The tables come from the
 * fabric attached to (read by SMP as the diag tools read them, the path SLs from the SA's PathRecords, one a
 * destination, from this port), from a saved LFT dump on a topology ({@code --lfts} with {@code --topology}), or
 * from one of ibtwin's engines run on a fabric file ({@code -R} with {@code --fabric}, no MAD sent).
 * Exit 0 when the routes pass, 1 when they do not, 2 for bad input.
 */
@Command(name = "check-routing", mixinStandardHelpOptions = true,
        description = "Check the unicast routes: reachability, loops, credit loops per VL, path length, channel load.",
        footer = {"", "Examples:",
            "  ibtwin check-routing --ibsim 127.0.0.1:7070          # the fabric attached to, its LFTs read by SMP",
            "  ibtwin check-routing -R dor --fabric t3d.yaml       # what ibtwin's dor would program",
            "  ibtwin check-routing --topology t3d.topo --lfts opensm-lfts.dump   # a saved dump (OpenSM's, dump_lfts)"})
public final class CheckRoutingCommand extends DiagCommand {
    private static final Layout PR = SaAttributes.PATH_RECORD;

    @Option(names = "-R", paramLabel = "<engines>",
            description = "Route --fabric with this ibtwin engine chain instead of reading tables.")
    String engines;

    @Option(names = "--lfts", paramLabel = "<file>",
            description = "An LFT dump to check: dump_lfts / ibroute output or OpenSM's opensm-lfts.dump.")
    String lftFile;

    @Option(names = "--topology", paramLabel = "<file>", description = "The fabric the --lfts dump is of.")
    String topologyFile;

    @Option(names = "--json", description = "The report as JSON.")
    boolean json;

    @Override
    DiagOptions diag() {
        return new DiagOptions();
    }

    @Override
    String tool() {
        return "check-routing";
    }

    /** What was checked and how it came out. */
    record Outcome(String source, String engine, RoutingCheck.Report report) {
    }

    @Override
    int execute() {
        PrintWriter err = spec.commandLine().getErr();
        Outcome o;
        try {
            o = outcome();
        } catch (IllegalArgumentException | FormatException e) {
            err.println("ibtwin check-routing: " + e.getMessage());
            return Main.USAGE;
        }
        if (json) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("source", o.source());
            m.put("engine", o.engine());
            m.put("report", o.report());
            m.put("deadlockFree", !o.report().creditLoop());
            m.put("ok", o.report().ok());
            out.append(Json.write(m));
        } else {
            out.append(text(o));
        }
        return o.report().ok() ? 0 : 1;
    }

    static String text(Outcome o) {
        return "check-routing: " + o.source() + (o.engine() == null ? "" : ", " + o.engine()) + ": "
                + (o.report().ok() ? "PASS" : "FAIL") + "\n" + o.report().text();
    }

    private Outcome outcome() {
        if (lftFile != null || topologyFile != null) {
            if (lftFile == null || topologyFile == null) {
                throw new IllegalArgumentException("--lfts and --topology go together");
            }
            Path lfts = FileArgs.check("--lfts", lftFile);
            Path topo = FileArgs.check("--topology", topologyFile);
            Fabric f = FabricFiles.load(topo);
            RoutingTables.Routed r;
            try (java.io.BufferedReader in = Files.newBufferedReader(lfts, StandardCharsets.ISO_8859_1)) {
                r = RoutingTables.fromDump(f, in, lftFile);
            } catch (IOException e) {
                String why = FileArgs.describe(e);
                throw new IllegalArgumentException("--lfts: " + (why != null ? why : lftFile + ": " + e));
            }
            return new Outcome(lftFile + " on " + topologyFile, null, RoutingCheck.check(r.graph(), r.lfts()));
        }
        if (engines != null) {
            if (transport.fabric == null) {
                throw new IllegalArgumentException("-R needs --fabric <file> to route");
            }
            Fabric f = FabricFiles.load(FileArgs.check("--fabric", transport.fabric));
            var g = RoutingTables.assigned(f);
            RoutingEngines.Chain.Result r = RoutingEngines.chain(engines, RoutingEngines.Options.none()).route(g);
            return new Outcome(transport.fabric, r.engine() + " (" + r.detail() + ")",
                    RoutingCheck.check(g, r.lfts(), r.layers()));
        }
        try (MadTransport t = attach()) {
            LiveModel m = LiveModel.discover(t, NetDiscovery.Config.defaults());
            RoutingTables.Routed r = RoutingTables.live(m.fabric(), m.forwarding());
            RoutingCheck.Layers layers = slsFromSa(query(t), r);
            return new Outcome("live, " + transport.target(), layers == null ? "SLs: no SA answer, one VL assumed"
                    : "SLs from the SA's PathRecords", RoutingCheck.check(r.graph(), r.lfts(),
                    layers == null ? RoutingCheck.Layers.ONE : layers));
        } catch (NetDiscovery.Failed e) {
            throw new IbError("discover failed: " + e.getMessage(), e);
        }
    }

    /** The SL of the path from this port to every CA LID, by PathRecord; null when the SA does not answer. */
    private static RoutingCheck.Layers slsFromSa(MadQuery q, RoutingTables.Routed r) {
        int smLid = q.localPort().smLid();
        int self = q.localPort().lid();
        if (smLid <= 0 || self <= 0) {
            return null;
        }
        byte[] byLid = new byte[r.graph().top() + 1];
        int lanes = 1;
        for (int lid = 1; lid <= r.graph().top(); lid++) {
            if (!r.graph().isCaLid(lid) || lid == self) {
                continue;
            }
            byte[] t = new byte[PR.size()];
            PR.set(t, 0, "PathRecSLid", self);
            PR.set(t, 0, "PathRecDLid", lid);
            MadQuery.SaResult res;
            try {
                res = q.saQuery(smLid, Methods.GET_TABLE, AttributeIds.PATH_RECORD, 0, (1 << 4) | (1 << 5), 0, t);
            } catch (RuntimeException e) {
                return null;
            }
            List<byte[]> recs = res.status() == 0 ? res.records(PR.size()) : List.of();
            if (recs.isEmpty()) {
                continue;
            }
            int sl = (int) PR.get(recs.get(0), 0, "PathRecSL");
            byLid[lid] = (byte) sl;
            lanes = Math.max(lanes, sl + 1);
        }
        return new RoutingCheck.Layers(lanes, byLid);
    }
}
