package org.ibtwin.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import org.ibtwin.diag.LiveModel;
import org.ibtwin.diag.NetDiscovery;
import org.ibtwin.format.FabricFiles;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Partitions;
import org.ibtwin.model.Port;
import org.ibtwin.perf.LftRoutes;
import org.ibtwin.perf.MinHopRoutes;
import org.ibtwin.perf.Names;
import org.ibtwin.perf.Route;
import org.ibtwin.transport.MadTransport;

/**
 * The fabric the perf commands (the perftest tools, {@code ipoib}, {@code perf}) measure: the one behind the
 * transport options, as it is, learnt through MADs ({@link LiveModel}: discovery, port states, widths, speeds,
 * neighbour MTUs, P_Key tables and the LFT blocks each path needs), with the host facts MADs do not carry (PCIe,
 * NUMA, IPoIB mode, cables) from a fabric description matched by node GUID, else by host name. Routes follow the
 * live LFTs ({@link LftRoutes}); on a fabric no SM has routed, the model's min-hop routes, said on stderr. The
 * transport stays open until {@link #close}: tables are read as routes need them.
 */
final class PerfFabric implements AutoCloseable {
    /** The fabric could not be read (nothing listening, no answer): one line for exit 1. */
    static final class Unreachable extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Unreachable(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * How the perf commands attach: {@link TransportOptions#open(boolean)} without the simulated-fabric notice,
     * which each command gives once its fabric-dependent checks pass; tests replace it.
     */
    static java.util.function.Function<TransportOptions, MadTransport> opener = o -> o.open(false);

    /** What stderr says when routes are the model's own. */
    static final String MIN_HOP = "model min-hop: no SM has routed this fabric";

    private final MadTransport transport;
    private final LiveModel live;
    private final LftRoutes lfts;
    private final MinHopRoutes minHop;
    private final String where;

    private PerfFabric(MadTransport transport, LiveModel live, Fabric facts, String where) {
        this.transport = transport;
        this.live = live;
        this.where = where;
        live.addFacts(facts);
        this.lfts = live.routed() ? new LftRoutes(live.forwarding(), true) : null;
        this.minHop = live.routed() ? null : new MinHopRoutes(live.fabric());
    }

    /**
     * Attaches where {@code options} say and learns the fabric; host facts from {@code factsFile} (null: the fabric
     * file of {@code --fabric}, else the built-in default fabric). A fabric no SM has routed is said on {@code err}
     * as "{@code tool}: model min-hop: ...".
     */
    static PerfFabric open(TransportOptions options, String factsFile, PrintWriter err, String tool) {
        TransportOptions.Target target = options.target();
        Fabric facts = FabricFiles.load(factsFile != null ? factsFile : target.fabric());
        try {
            return over(opener.apply(options), facts, target.toString(), err, tool);
        } catch (org.ibtwin.transport.MadTransportException | NetDiscovery.Failed
                 | org.ibtwin.diag.QueryException e) {
            throw new Unreachable("cannot read " + target + ": " + e.getMessage(), e);
        }
    }

    /** What a command does with the fabric it learnt; its exit code. */
    interface Use<X extends Exception> {
        Integer apply(PerfFabric pf) throws X;
    }

    /**
     * Opens the fabric as {@link #open} does, hands it to {@code use} and closes it; a fabric that cannot be read is
     * one line on {@code err} ({@code tool: cannot read ...}) and exit code 1.
     */
    static <X extends Exception> Integer with(TransportOptions options, String factsFile, PrintWriter err, String tool,
            Use<X> use) throws X {
        try (PerfFabric pf = open(options, factsFile, err, tool)) {
            return use.apply(pf);
        } catch (Unreachable e) {
            err.println(tool + ": " + e.getMessage());
            return 1;
        }
    }

    /** The in-process twin of a fabric in memory, brought up by ibtwin's SM, its host facts its own. */
    static PerfFabric inProcess(Fabric fabric, PrintWriter err, String tool) {
        return over(org.ibtwin.lab.LabTransport.open(fabric, "the fabric", null), fabric,
                "the in-process twin", err, tool);
    }

    /** Learns the fabric behind {@code t} (closed with the result, or at once on failure). */
    static PerfFabric over(MadTransport t, Fabric facts, String where, PrintWriter err, String tool) {
        try {
            LiveModel live = LiveModel.discover(t, NetDiscovery.Config.defaults());
            PerfFabric f = new PerfFabric(t, live, facts, where);
            if (!live.routed()) {
                err.println(tool + ": " + MIN_HOP);
                err.flush();
            }
            return f;
        } catch (RuntimeException e) {
            t.close();
            throw e;
        }
    }

    Fabric fabric() {
        return live.fabric();
    }

    LiveModel live() {
        return live;
    }

    /** Whether routes follow the live LFTs (else the model's min-hop). */
    boolean routed() {
        return lfts != null;
    }

    /** Where routes came from, as --why says it. */
    String routeSource() {
        return lfts != null ? "from the live LFTs of " + where + " (" + live.lftBlocksRead() + " LFT blocks read)"
                : MIN_HOP;
    }

    /** The route from {@code src} to {@code dst}, or where and why there is none. */
    LftRoutes.Trace trace(Port src, Port dst) {
        if (lfts != null) {
            return lfts.trace(src, dst);
        }
        Route r = minHop.route(src, dst);
        return r != null ? new LftRoutes.Trace(r, null, null) : new LftRoutes.Trace(null, src, "no path");
    }

    /** The routes as the performance model asks for them: {@link #trace}'s route, null where there is none. */
    org.ibtwin.perf.Routes routes() {
        return (src, dst) -> trace(src, dst).route();
    }

    /** How the commands name the fabric: "default (built-in)", the fabric file, or the ibsim's address. */
    static String name(TransportOptions options) {
        TransportOptions.Target t = options.target();
        return t.isInProcess() ? (t.fabric() == null ? "default (built-in)" : t.fabric()) : t.address();
    }

    /** "node001/1 -> leaf01 1/33 -> spine01 17/5 -> leaf03 33/2 -> node017/1": the switch ports a route crosses. */
    static String hops(Route r) {
        return Names.route(r);
    }

    /**
     * The partition two ports share, as the HCAs check it: a key of the same 15 bits in both tables, at least one
     * of the two a full member; null when they share none (or a table cannot be read: then nothing is assumed).
     */
    String sharedPartition(Port a, Port b) {
        int[] ka = live.pkeys(a);
        int[] kb = live.pkeys(b);
        if (ka == null || kb == null) {
            return "unknown";
        }
        int shared = Partitions.shared(ka, kb, 0);
        return shared == 0 ? null : String.format("0x%04x", shared);
    }

    /** A port's P_Keys as the --why line shows them: "0x8001, 0x7fff". */
    String pkeys(Port p) {
        int[] k = live.pkeys(p);
        if (k == null) {
            return "unreadable";
        }
        List<String> s = new ArrayList<>();
        for (int x : k) {
            s.add(String.format("0x%04x", x));
        }
        return String.join(", ", s);
    }

    @Override
    public void close() {
        transport.close();
    }
}
