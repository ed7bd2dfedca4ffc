package org.ibtwin.cli;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ibtwin.bench.OpensmHarness;
import org.ibtwin.bench.Processes;
import org.ibtwin.format.FabricFiles;
import org.ibtwin.format.TopologyWriter;
import org.ibtwin.gen.Direct;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.gen.Variants;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.sm.routing.RoutingCheck;
import org.ibtwin.sm.routing.RoutingEngine;
import org.ibtwin.sm.routing.RoutingEngines;
import org.ibtwin.sm.routing.SwitchGraph;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ibtwin bench routing}: for each fabric of the families ibtwin generates, and each engine, real OpenSM's
 * engine of that name on real ibsim (its tables from its own opensm-lfts.dump) against ours on the same fabric, both
 * judged by {@link RoutingCheck}: routing time, max and mean path length, channel balance (max/mean CA pairs a
 * channel), VLs and deadlock freedom. OpenSM's dfsssp puts its SLs in no dump: its VLs are the ones its log says it
 * needs and its deadlock freedom is its own claim, marked so.
 */
@Command(name = "routing", mixinStandardHelpOptions = true,
        description = "Routing engines compared: ibtwin's and real OpenSM's (on real ibsim), on tori, meshes, "
                + "hypercubes, dragonflies, HyperX and fat trees, with failures.")
public final class BenchRoutingCommand extends CliCommand {

    @Option(names = "--fabrics", split = ",", paramLabel = "<name>",
            description = "Fabrics to run, by the names the table gives them (default: all).")
    List<String> fabrics;

    @Option(names = "--engines", split = ",", paramLabel = "<engine>",
            description = "Only these engines of each fabric's (default: all of them).")
    List<String> engines;

    @Option(names = "--ours-only", description = "Run only ibtwin's engines (no ibsim, no OpenSM).")
    boolean oursOnly;

    @Option(names = "--port", defaultValue = "24600", description = "First UDP port for ibsim (default: "
            + "${DEFAULT-VALUE}; a range of 90 above it).")
    int port;

    @Option(names = "--timeout", defaultValue = "900", description = "Seconds per OpenSM run (default: "
            + "${DEFAULT-VALUE}).")
    int timeout;

    @Option(names = "--keep", paramLabel = "<dir>", description = "Keep the files (topologies, logs, dumps) here.")
    Path keep;

    /** One fabric of the comparison and the engines it is routed with. */
    record Case(String name, Supplier<Fabric> fabric, List<String> engines) {
    }

    static List<Case> cases() {
        LinkSpeed hdr = LinkSpeed.HDR;
        return List.of(
                new Case("torus-8x8x8", () -> Direct.torus(new int[] {8, 8, 8}, true, 2, 0, hdr),
                        List.of("minhop", "dor", "dfsssp")),
                new Case("torus-8x8x8-failed", () -> {
                    Fabric f = Direct.torus(new int[] {8, 8, 8}, true, 2, 0, hdr);
                    Variants.failSwitch(f, "sw-3-3-3");
                    Variants.removeLinks(f, 8, 1);
                    return f;
                }, List.of("minhop", "dor", "dfsssp")),
                new Case("mesh-16x16", () -> Direct.torus(new int[] {16, 16}, false, 4, 0, hdr),
                        List.of("minhop", "dor", "dfsssp")),
                new Case("hypercube-9", () -> Direct.hypercube(9, 2, 0, hdr), List.of("minhop", "dor", "dfsssp")),
                new Case("dragonfly-a8-h4-g33", () -> Direct.dragonfly(33, 8, 4, 4, Direct.Arrangement.CONSECUTIVE,
                        0, hdr), List.of("minhop", "dfsssp")),
                new Case("dragonfly-a8-h4-g33-failed", () -> {
                    Fabric f = Direct.dragonfly(33, 8, 4, 4, Direct.Arrangement.PALMTREE, 0, hdr);
                    Variants.removeLinks(f, 16, 2);
                    return f;
                }, List.of("minhop", "dfsssp")),
                new Case("hyperx-8x8x4", () -> Direct.hyperx(new int[] {8, 8, 4}, 4, 0, hdr),
                        List.of("minhop", "dor", "dfsssp")),
                new Case("fat-tree-4096", () -> FatTree.build(FatTreeSpec.of(3, 32, 4096)),
                        List.of("minhop", "updn", "ftree")),
                new Case("fat-tree-16384", () -> FatTree.build(FatTreeSpec.of(3, 48, 16384)),
                        List.of("minhop", "updn", "ftree")),
                new Case("torus-16x16x16", () -> Direct.torus(new int[] {16, 16, 16}, true, 4, 0, hdr),
                        List.of("dor", "dfsssp")));
    }

    /** One engine's result on one fabric. */
    record Row(String fabric, int cas, int switches, String engine, String sm, double seconds, RoutingCheck.Report r,
               String vls, String deadlockFree, String note) {
    }

    private static final Pattern VLS_NEEDED = Pattern.compile("Virtual Lanes needed: (\\d+)");

    @Override
    public Integer call() throws Exception {
        PrintWriter out = out();
        PrintWriter err = err();
        List<Case> run = new ArrayList<>();
        for (Case c : cases()) {
            if (fabrics == null || fabrics.contains(c.name())) {
                run.add(c);
            }
        }
        if (engines != null) {
            List<String> known = cases().stream().flatMap(c -> c.engines().stream()).distinct().toList();
            for (String e : engines) {
                if (!known.contains(e)) {
                    err.println("ibtwin bench routing: --engines: " + e + " is none of " + known);
                    return Main.USAGE;
                }
            }
        }
        if (run.isEmpty()) {
            err.println("ibtwin bench routing: --fabrics: none of " + fabrics + " is one of "
                    + cases().stream().map(Case::name).toList());
            return Main.USAGE;
        }
        Path opensm = null;
        Path ibsim = null;
        Path so = null;
        if (!oursOnly) {
            opensm = Processes.executable("opensm").orElse(null);
            ibsim = Processes.executable("ibsim").orElse(null);
            so = Processes.findUmad2sim().orElse(null);
            if (opensm == null || ibsim == null || so == null) {
                err.println("ibtwin bench routing: opensm, ibsim or libumad2sim.so not found: ibtwin's engines only");
            }
        }
        Path root = keep != null ? Files.createDirectories(keep) : Files.createTempDirectory("ibtwin-bench-routing");
        out.println("bench routing: ibtwin's engines (in process, routing alone) vs OpenSM's (opensm -o on ibsim -r; "
                + "time from MASTER to its 'tables configured' line)");
        out.println(header());
        out.flush();
        try {
            for (Case c : run) {
                Fabric f = c.fabric().get();
                Path dir = Files.createDirectories(root.resolve(c.name()));
                Path topo = FabricFiles.write(f, dir.resolve(c.name()))[0];
                for (String engine : c.engines()) {
                    if (engines != null && !engines.contains(engine)) {
                        continue;
                    }
                    out.println(format(ours(c.name(), f, engine)));
                    out.flush();
                    if (opensm != null && ibsim != null && so != null) {
                        out.println(format(theirs(c.name(), f, topo, engine, opensm, ibsim, so,
                                Processes.fresh(dir, "opensm-" + engine), err)));
                        out.flush();
                    }
                }
            }
        } finally {
            if (keep == null) {
                Processes.deleteTree(root);
            }
        }
        return 0;
    }

    static Row ours(String name, Fabric f, String engine) {
        SwitchGraph g = RoutingTables.assigned(f);
        RoutingEngine e = RoutingEngines.create(engine, RoutingEngines.Options.none());
        e.route(g);   // warm the code up once
        long t0 = System.nanoTime();
        RoutingEngine.Outcome o = e.route(g);
        double s = (System.nanoTime() - t0) / 1e9;
        if (o instanceof RoutingEngine.Declined d) {
            return new Row(name, f.cas().size(), f.switches().size(), engine, "ibtwin", s, null, "-", "-",
                    "declined: " + d.reason());
        }
        RoutingEngine.Routed r = (RoutingEngine.Routed) o;
        RoutingCheck.Report c = RoutingCheck.check(g, r.lfts(), r.layers());
        return new Row(name, f.cas().size(), f.switches().size(), engine, "ibtwin", s, c,
                Integer.toString(c.layers()), c.creditLoop() ? "no" : "yes", "");
    }

    private Row theirs(String name, Fabric f, Path topo, String engine, Path opensm, Path ibsim, Path so, Path dir,
                       PrintWriter err) throws Exception {
        OpensmHarness runner = new OpensmHarness(engine, timeout, port, false, List.of("-D", "0x43"), err);
        OpensmHarness.RealIbsim sim = runner.startIbsim(ibsim, f, topo, dir);
        if (sim.process() == null) {
            return new Row(name, f.cas().size(), f.switches().size(), engine, "opensm", -1, null, "-", "-",
                    sim.note());
        }
        try {
            OpensmHarness.OpensmRun run = runner.opensm(opensm, so, sim.endpoint(),
                    TopologyWriter.id(f.cas().get(0)), dir, sim.process());
            String log = keyLines(dir.resolve("opensm.log"));
            Path dump = dir.resolve("opensm-lfts.dump");
            if (!Files.exists(dump)) {
                return new Row(name, f.cas().size(), f.switches().size(), engine, "opensm", -1, null, "-", "-",
                        "no opensm-lfts.dump; " + run.note() + String.format(Locale.ROOT, " (%.0f s, peak RSS %.1f GiB)",
                                run.launchToExit(), run.rssKb() / (1024.0 * 1024)));
            }
            String used = usedEngine(log);
            RoutingTables.Routed r;
            try (java.io.BufferedReader in = Files.newBufferedReader(dump, StandardCharsets.ISO_8859_1)) {
                r = RoutingTables.fromDump(f, in, dump.toString());
            }
            RoutingCheck.Report c = RoutingCheck.check(r.graph(), r.lfts());
            Matcher vl = VLS_NEEDED.matcher(log);
            boolean layered = used.equals("dfsssp") && vl.find();
            String note = (used.equals(engine) ? "" : "fell back to " + used + "; ") + run.note();
            return new Row(name, f.cas().size(), f.switches().size(), engine, "opensm", routingSeconds(log), c,
                    layered ? vl.group(1) : "1", layered ? "claimed" : c.creditLoop() ? "no" : "yes", note);
        } finally {
            Processes.stop(sim.process());
        }
    }

    /**
     * The lines of OpenSM's log this bench reads (MASTER, tables configured, VLs needed), streamed: at 16,384 CAs
     * with {@code -D 0x43} the log passes 2 GiB, more than one string holds.
     */
    static String keyLines(Path log) throws java.io.IOException {
        StringBuilder kept = new StringBuilder();
        try (java.util.stream.Stream<String> lines = Files.lines(log, StandardCharsets.ISO_8859_1)) {
            lines.filter(l -> l.contains("Entering MASTER state") || l.contains("tables configured")
                    || l.contains("Virtual Lanes needed")).forEach(l -> kept.append(l).append('\n'));
        }
        return kept.toString();
    }

    private static final Pattern CONFIGURED = Pattern.compile("osm_ucast_mgr_process: (\\S+) tables configured");

    /** The engine OpenSM's log says configured the tables ("?" when none). */
    static String usedEngine(String log) {
        Matcher m = CONFIGURED.matcher(log);
        return m.find() ? m.group(1) : "?";
    }

    /** From OpenSM's "Entering MASTER state" to its "tables configured" line, in seconds; -1 when not both. */
    static double routingSeconds(String log) {
        LocalDateTime master = null;
        for (String line : log.split("\n")) {
            Matcher m = OpensmHarness.LOG_TIME.matcher(line);
            if (!m.find()) {
                continue;
            }
            if (master == null && line.contains("Entering MASTER state")) {
                master = OpensmHarness.logTime(m);
            } else if (master != null && CONFIGURED.matcher(line).find()) {
                return Duration.between(master, OpensmHarness.logTime(m)).toNanos() / 1e9;
            }
        }
        return -1;
    }

    static String header() {
        return String.format(Locale.ROOT, "| %-26s | %6s | %5s | %-7s | %-6s | %9s | %4s | %6s | %8s | %3s | %-8s | %s",
                "fabric", "CAs", "sw", "engine", "SM", "route (s)", "max", "mean", "max/mean", "VLs", "deadlock",
                "note") + "\n|" + "-".repeat(28) + "|" + "-".repeat(8) + "|" + "-".repeat(7) + "|" + "-".repeat(9) + "|"
                + "-".repeat(8) + "|" + "-".repeat(11) + "|" + "-".repeat(6) + "|" + "-".repeat(8) + "|"
                + "-".repeat(10) + "|" + "-".repeat(5) + "|" + "-".repeat(10) + "|------";
    }

    static String format(Row w) {
        RoutingCheck.Report r = w.r();
        String unreached = r != null && r.unreached() > 0 ? String.format(Locale.ROOT, "%,d pairs unreached; ",
                r.unreached()) : "";
        return String.format(Locale.ROOT, "| %-26s | %,6d | %,5d | %-7s | %-6s | %9s | %4s | %6s | %8s | %3s | %-8s | %s",
                w.fabric(), w.cas(), w.switches(), w.engine(), w.sm(),
                w.seconds() < 0 ? "-" : String.format(Locale.ROOT, "%.3f", w.seconds()),
                r == null ? "-" : Integer.toString(r.maxHops()),
                r == null ? "-" : String.format(Locale.ROOT, "%.3f", r.meanHops()),
                r == null ? "-" : String.format(Locale.ROOT, "%.2f", r.balance()), w.vls(), w.deadlockFree(),
                unreached + w.note());
    }
}
