package org.ibtwin.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.ibtwin.bench.OpensmHarness;
import org.ibtwin.bench.Processes;
import org.ibtwin.diag.LiveModel;
import org.ibtwin.diag.NetDiscovery;
import org.ibtwin.format.FabricFiles;
import org.ibtwin.format.PartitionsConf;
import org.ibtwin.lab.OpensmRunner;
import org.ibtwin.lab.Rehearsal;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Node;
import org.ibtwin.model.Port;
import org.ibtwin.sim.IbsimServer;
import org.ibtwin.sm.SmConfig;
import org.ibtwin.transport.MadTransport;
import org.ibtwin.whatif.Change;
import org.ibtwin.whatif.Changes;
import org.ibtwin.whatif.Report;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ibtwin what-if}: rehearses changes on two twins of a fabric and says who loses what (the engine:
 * {@link Rehearsal}; the comparison: {@link org.ibtwin.whatif.Compare}).
 */
@Command(name = "what-if", mixinStandardHelpOptions = true,
        description = "Rehearse a change on a twin of the fabric before making it: who loses what.",
        footer = {"", "The fabric: a fabric file or snapshot.json, --from DIR (saved tool outputs), --ibsim HOST:PORT "
                + "(learnt through MADs),", "else the built-in default fabric. Changes apply to a copy; the SM "
                + "reacts (sweep, re-route, failover to --standby).",
            "Exit status: 0 nothing lost, 1 host pairs or the SM lost, 2 bad input."})
public final class WhatIfCommand extends CliCommand {
    /** Seconds an OpenSM run of --sm opensm may take before it is stopped. */
    private static final int OPENSM_TIMEOUT_SECONDS = 600;
    /** What --kill-sm without a node stands for: the master. */
    static final String MASTER = "(the master)";


    @Mixin
    TransportOptions transport;

    @Parameters(arity = "0..1", paramLabel = "FABRIC", description = "A fabric file or snapshot.json (default: the "
            + "built-in fabric).")
    String file;

    @Option(names = "--from", paramLabel = "DIR", description = "A directory of saved tool outputs (as doctor "
            + "--from reads it).")
    Path from;

    @Option(names = "--changes", paramLabel = "FILE", description = "Changes, one a line, as the options write them.")
    Path changesFile;

    @Option(names = "--partitions", paramLabel = "FILE", description = "A new partitions.conf.")
    List<String> partitions = new ArrayList<>();

    @Option(names = "--pull-cable", paramLabel = "NODE/PORT", description = "Pull the cable at NODE/PORT "
            + "(or 'A/1,B/2': both ends).")
    List<String> pullCable = new ArrayList<>();

    @Option(names = "--drain-switch", paramLabel = "NODE", description = "Take every link of a switch down.")
    List<String> drainSwitch = new ArrayList<>();

    @Option(names = "--drain-node", paramLabel = "NODE", description = "Take every link of a node down.")
    List<String> drainNode = new ArrayList<>();

    @Option(names = "--disable-port", paramLabel = "NODE/PORT", description = "Disable a port.")
    List<String> disablePort = new ArrayList<>();

    @Option(names = "--set-link", paramLabel = "'NODE/PORT width=W speed=S'",
            description = "Train a link at most at this width and/or speed.")
    List<String> setLink = new ArrayList<>();

    @Option(names = "--mtu-cap", paramLabel = "MTU", description = "Cap every port's MTU (256..4096).")
    List<String> mtuCap = new ArrayList<>();

    @Option(names = "--routing", paramLabel = "ENGINES", description = "Restart the SM with this routing chain.")
    List<String> routing = new ArrayList<>();

    @Option(names = "--lmc", paramLabel = "N", description = "Restart the SM with this LMC.")
    List<String> lmc = new ArrayList<>();

    @Option(names = "--kill-sm", paramLabel = "NODE", arity = "0..1", fallbackValue = MASTER,
            description = "Kill an SM (default: the master); with --standby, the standby takes over.")
    List<String> killSm = new ArrayList<>();

    @Option(names = "--Pconfig", paramLabel = "FILE", description = "The partitions.conf in force now (default: the "
            + "P_Keys the fabric holds, else every port in Default).")
    Path current;

    @Option(names = "--sm-routing", paramLabel = "ENGINES", defaultValue = "minhop",
            description = "The routing chain the SM uses now (default: ${DEFAULT-VALUE}).")
    String smRouting;

    @Option(names = "--sm-lmc", paramLabel = "N", defaultValue = "0", description = "The SM's LMC now (default: "
            + "${DEFAULT-VALUE}).")
    int smLmc;

    @Option(names = "--sm-at", paramLabel = "NODE", description = "Where the master SM runs (default: the first CA).")
    String smAt;

    @Option(names = "--standby", paramLabel = "NODE", description = "A standby SM of ours at NODE.")
    String standby;

    @Option(names = "--sm", paramLabel = "ibtwin|opensm", defaultValue = "ibtwin", description = "Whose SM plays "
            + "the SM on both copies: ibtwin's, or real OpenSM (opensm -o through the twin's ibsim endpoint, under "
            + "libumad2sim.so; default: ${DEFAULT-VALUE}).")
    String sm;

    @Option(names = "--endpoint-port", paramLabel = "PORT", defaultValue = "7180", description = "With --sm "
            + "opensm, the UDP ports of the copies' endpoints (PORT..PORT+21) where ibsim's local mode cannot be "
            + "served (default: ${DEFAULT-VALUE}).")
    int endpointPort;

    @Option(names = "--each-link", description = "Every single inter-switch cable failure, ranked by pairs and "
            + "bandwidth lost.")
    boolean eachLink;

    @Option(names = "--each-switch", description = "Every single switch failure, ranked.")
    boolean eachSwitch;

    @Option(names = "--top", paramLabel = "N", defaultValue = "20", description = "Failures --each-* shows "
            + "(default: ${DEFAULT-VALUE}; --json has all).")
    int top;

    @Option(names = {"--jobs", "-j", "--threads"}, paramLabel = "N", description = "--each-*: scenarios computed at "
            + "once, each on a core of its own (default: the cores).")
    Integer threads;

    @Option(names = "--json", description = "Print the report as JSON.")
    boolean json;

    @Override
    public Integer call() {
        PrintWriter out = out();
        List<Change> changes = new ArrayList<>();
        for (String v : pullCable) {
            changes.add(Changes.option("pull-cable", v));
        }
        for (String v : drainSwitch) {
            changes.add(Changes.option("drain-switch", v));
        }
        for (String v : drainNode) {
            changes.add(Changes.option("drain-node", v));
        }
        for (String v : disablePort) {
            changes.add(Changes.option("disable-port", v));
        }
        for (String v : setLink) {
            changes.add(Changes.option("set-link", v));
        }
        for (String v : mtuCap) {
            changes.add(Changes.option("mtu-cap", v));
        }
        for (String v : partitions) {
            changes.add(Changes.option("partitions", v));
        }
        for (String v : routing) {
            changes.add(Changes.option("routing", v));
        }
        for (String v : lmc) {
            changes.add(Changes.option("lmc", v));
        }
        for (String v : killSm) {
            changes.add(Changes.option("kill-sm", MASTER.equals(v) ? null : v));
        }
        if (changesFile != null) {
            changes.addAll(Changes.read(changesFile));
        }
        boolean opensm = switch (sm) {
            case "ibtwin" -> false;
            case "opensm" -> true;
            default -> throw new IllegalArgumentException("--sm: ibtwin or opensm, not '" + sm + "'");
        };
        if (eachLink || eachSwitch) {
            if (opensm) {
                throw new IllegalArgumentException("--each-" + (eachLink ? "link" : "switch") + " computes each "
                        + "failure with ibtwin's routing engines: give no --sm opensm");
            }
            return each(out, changes);
        }
        if (changes.isEmpty()) {
            throw new IllegalArgumentException("give at least one change (--pull-cable, --partitions, ... or "
                    + "--changes FILE)");
        }
        PartitionsConf now = current == null ? null : PartitionsConf.read(current);
        SmConfig config = config();
        String[] name = new String[1];
        Supplier<Fabric> load = source(name);
        if (opensm && (endpointPort < 1 || endpointPort > 65535 - 21)) {
            throw new IllegalArgumentException("--endpoint-port must be 1.." + (65535 - 21));
        }
        OpensmRunner real = opensm ? opensm() : null;
        Report r = Rehearsal.run(load, name[0], new Rehearsal.Settings(config, now, smAt, standby, real), changes);
        if (json) {
            out.print(Json.write(r.json()));
        } else {
            out.print(r.text());
        }
        out.flush();
        return r.exitCode();
    }

    private Integer each(PrintWriter out, List<Change> changes) {
        if (eachLink && eachSwitch) {
            throw new IllegalArgumentException("give --each-link or --each-switch, not both");
        }
        if (!changes.isEmpty()) {
            throw new IllegalArgumentException("--each-" + (eachLink ? "link" : "switch") + " fails one thing at a "
                    + "time: give no other change");
        }
        if (top < 0 || (threads != null && threads < 1)) {
            throw new IllegalArgumentException(top < 0 ? "--top must be 0 or more" : "--jobs must be 1 or more");
        }
        SmConfig config = config();
        String[] name = new String[1];
        Supplier<Fabric> load = source(name);
        var r = Rehearsal.eachFailure(load, name[0], new Rehearsal.Settings(config, current == null ? null
                : PartitionsConf.read(current), smAt, standby), eachSwitch,
                threads != null ? threads : Runtime.getRuntime().availableProcessors());
        out.print(json ? Json.write(r.json()) : r.text(top));
        out.flush();
        return r.exitCode();
    }

    /**
     * Real OpenSM through the benches' OpenSM harness ({@link OpensmHarness#opensm}: the libumad2sim environment,
     * the run watched to its end, stopped after 10 minutes).
     *
     * @throws IllegalArgumentException (exit 2) when opensm or libumad2sim.so is not installed
     */
    private OpensmRunner opensm() {
        java.util.Optional<Path> exe = Processes.executable("opensm");
        java.util.Optional<Path> so = Processes.findUmad2sim();
        if (exe.isEmpty() || so.isEmpty()) {
            throw new IllegalArgumentException("--sm opensm: " + (exe.isEmpty() ? "opensm" : "libumad2sim.so")
                    + " not found (install opensm and libumad2sim0, or use ibtwin's SM: --sm ibtwin)");
        }
        int base = endpointPort;
        return new OpensmRunner() {
            @Override
            public Run once(IbsimServer server, String simHost, Path dir, String routing, List<String> args)
                    throws IOException {
                boolean local = server.basename() != null;
                OpensmHarness h = new OpensmHarness(routing, OPENSM_TIMEOUT_SECONDS, base, local, args,
                        new PrintWriter(java.io.Writer.nullWriter()));
                OpensmHarness.Endpoint at = local ? OpensmHarness.Endpoint.local(server.basename())
                        : OpensmHarness.Endpoint.udp(server.port());
                try {
                    OpensmHarness.OpensmRun r = h.opensm(exe.get(), so.get(), at, simHost, dir, null);
                    Path log = dir.resolve("opensm.log");
                    return new Run(r.note().startsWith("killed") ? -1 : r.exit(), Files.exists(log)
                            ? Files.readString(log, java.nio.charset.StandardCharsets.UTF_8) : "");
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return new Run(-1, "");
                }
            }

            @Override
            public int basePort() {
                return base;
            }
        };
    }

    private SmConfig config() {
        if (smLmc < 0 || smLmc > 7) {
            throw new IllegalArgumentException("--sm-lmc must be 0..7, not " + smLmc);
        }
        return SmConfig.defaults().withRouting(smRouting, List.of()).withLmc(smLmc);
    }

    /** Where the fabric comes from; {@code name[0]} gets how the report names it. */
    private Supplier<Fabric> source(String[] name) {
        int given = (file != null ? 1 : 0) + (from != null ? 1 : 0) + (transport.ibsim != null
                || transport.fabric != null ? 1 : 0);
        if (given > 1) {
            throw new IllegalArgumentException("give one fabric: a fabric file, --from DIR, --fabric or --ibsim");
        }
        if (from != null) {
            if (!Files.isDirectory(from)) {
                throw new IllegalArgumentException("--from " + from + ": not a directory");
            }
            name[0] = from.toString();
            return () -> {
                org.ibtwin.doctor.FabricState s = org.ibtwin.doctor.Sources.open(null, from, null, Duration.ZERO,
                        x -> { });
                // the forwarding tables the saved dumps hold: the routes before the change
                for (java.util.Map.Entry<Node, int[]> e : s.routes().entrySet()) {
                    if (e.getKey().isSwitch()) {
                        byte[] t = new byte[e.getValue().length];
                        for (int lid = 0; lid < t.length; lid++) {
                            t[lid] = (byte) (e.getValue()[lid] < 0 ? 0xff : e.getValue()[lid]);
                        }
                        e.getKey().setLinearForwarding(t);
                    }
                }
                return s.fabric();
            };
        }
        String f = file != null ? file : transport.fabric;
        TransportOptions.Target t = transport.target();
        if (f != null || t.isInProcess()) {
            name[0] = f == null ? "default (built-in)" : f;
            Fabric first = FabricFiles.load(f);
            boolean[] used = new boolean[1];
            return () -> {
                if (!used[0]) {
                    used[0] = true;
                    return first;
                }
                return FabricFiles.load(f);
            };
        }
        name[0] = t.toString();
        return () -> learn(t);
    }

    /** The fabric behind an ibsim, learnt through MADs, with the LFTs its switches and the P_Keys its CAs hold. */
    private Fabric learn(TransportOptions.Target t) {
        try (MadTransport m = transport.open(false)) {
            LiveModel live = LiveModel.discover(m, NetDiscovery.Config.defaults());
            for (Node n : live.fabric().switches()) {
                // its forwarding table as it is: the routes before the change
                int top = live.linearFdbTop(n);
                if (top > 0) {
                    byte[] table = new byte[top + 1];
                    for (int b = 0; b * 64 <= top; b++) {
                        byte[] block = live.lftBlock(n, b);
                        for (int i = 0; i < 64 && b * 64 + i <= top; i++) {
                            table[b * 64 + i] = block == null ? (byte) 0xff : block[i];
                        }
                    }
                    n.setLinearForwarding(table);
                }
            }
            for (Node n : live.fabric().cas()) {
                for (int i = 1; i <= n.numPorts(); i++) {
                    Port p = n.port(i);
                    if (p != null && p.link() != null) {
                        int[] k = live.pkeys(p);
                        if (k != null && k.length > 0) {
                            p.setPkeys(k);
                        }
                    }
                }
            }
            return live.fabric();
        } catch (NetDiscovery.Failed e) {
            throw new org.ibtwin.transport.MadTransportException("cannot read " + t + ": " + e.getMessage(), e);
        }
    }
}
