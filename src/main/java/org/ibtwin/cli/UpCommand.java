package org.ibtwin.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.ibtwin.format.FabricFiles;
import org.ibtwin.lab.Lab;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Node;
import org.ibtwin.sim.Console;
import org.ibtwin.sim.IbsimServer;
import org.ibtwin.sm.SmConfig;
import org.ibtwin.sm.SubnetManager;
import org.ibtwin.sm.SweepReport;
import org.ibtwin.sm.Topology;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ibtwin up}: the main job. Starts the twin of a fabric (the built-in default without an argument), brings it
 * up with ibtwin's SM over an in-process transport (attached at a CA port, or a switch's port 0), prints a short
 * summary, then serves the twin's ibsim endpoint on loopback and a console until stopped, the SM sweeping on.
 * {@code --once} stops after the summary.
 *
 * <p>This is the CLI wiring: the one place that both builds the twin and hands the SM a transport to it; the SM
 * itself knows only the transport.
 */
@Command(name = "up", mixinStandardHelpOptions = true,
        description = "Start the twin of a fabric, bring it up with ibtwin's SM, summarise, then serve its ibsim "
                + "endpoint and a console.",
        footer = {"", "<fabric> is an ibnetdiscover dump, an ibsim net file, a fabric description (YAML) or a",
            "snapshot (ibtwin snapshot save: its topology, P_Keys, MTUs and LFTs);",
            "without it the built-in default fabric is used. Attach real programs with LD_PRELOAD=libumad2sim.so",
            "IBSIM_SERVER_NAME=127.0.0.1 IBSIM_SERVER_PORT=<port> (with --local: IBSIM_SOCKNAME=<name>, or nothing",
            "for sim). The console is ibtwin sim's (Help lists it),",
            "plus sweep (a heavy sweep by the SM now) and reread (reread the partitions file, -P, and sweep: what",
            "SIGHUP does too, as with OpenSM)."})
public final class UpCommand extends CliCommand {

    @Parameters(index = "0", arity = "0..1", paramLabel = "<fabric>", description = "Fabric file (default: built-in).")
    String fabric;

    @Mixin
    SmOptions sm;

    @Option(names = "--once", description = "Exit after the summary (0 when the subnet came up).")
    boolean once;

    @Option(names = {"-g", "--guid"}, paramLabel = "<port guid>",
            description = "Attach the SM at the port with this GUID (default: the first CA's first port).")
    String guid;

    @Option(names = "--sm-node", paramLabel = "<node>",
            description = "Attach the SM at this node (topology id or description; a switch: its port 0).")
    String smNode;

    @Option(names = {"-p", "--port"}, defaultValue = "7070",
            description = "UDP control port of the ibsim endpoint; clients use the next ten (default: "
                    + "${DEFAULT-VALUE}; not with --local).")
    int port;

    @Option(names = "--local", arity = "0..1", paramLabel = "<name>", fallbackValue = "",
            description = "Serve ibsim's local mode instead of UDP, as ibtwin sim --local does (default name: "
                    + "$IBSIM_SOCKNAME, else sim). Needs a JDK 22+ on Linux.")
    String local;

    @Option(names = {"-s", "--sweep"}, paramLabel = "<seconds>", defaultValue = "10",
            description = "Seconds between light sweeps while serving (default: ${DEFAULT-VALUE}).")
    int sweepSeconds;

    @Option(names = "--no-console", description = "Do not read commands from standard input; run until killed.")
    boolean noConsole;

    @Option(names = "--script", paramLabel = "<file>",
            description = "Run console commands from a file first, as ibtwin sim does.")
    Path script;

    @Option(names = {"-v", "--verbose"}, description = "Print the SM's log lines too.")
    boolean verbose;

    @Option(names = "--web", arity = "0..1", paramLabel = "<port>", fallbackValue = WebView.DEFAULT_PORT,
            description = "Serve the web view (map, tables, events, traffic, doctor; JSON under /api/) on loopback at "
                    + "this TCP port (default " + WebView.DEFAULT_PORT + "; 0: any free port), printing its URL.")
    Integer web;

    @Option(names = "--json", description = "Print the summary as JSON.")
    boolean json;

    @Option(names = "--dump-dir", paramLabel = "<dir>",
            description = "Write OpenSM's dumps there after each sweep: " + org.ibtwin.sm.SmDumps.SUBNET_LST + ", "
                    + org.ibtwin.sm.SmDumps.LFTS + ", " + org.ibtwin.sm.SmDumps.BALANCE + ".")
    Path dumpDir;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = out();
        PrintWriter err = err();
        if (port < 1 || port > 65524) {
            throw new IllegalArgumentException("--port must be in 1..65524 (the ten after it are used too)");
        }
        if (sweepSeconds < 0) {
            throw new IllegalArgumentException("--sweep must be 0 or more seconds");
        }
        if (script != null) {
            FileArgs.readable("--script", script);
            if (once) {
                throw new IllegalArgumentException("--script runs in the console, which --once does not start "
                        + "(drop --once and end the script with Quit)");
            }
        }
        if (web != null && once) {
            throw new IllegalArgumentException("--web serves until quit, which --once does not wait for (drop --once)");
        }
        SmConfig cfg = sm.config(Duration.ofSeconds(sweepSeconds), 0, err, "ibtwin up");
        org.ibtwin.sm.MKeys mkeys = sm.mkeys();
        var partitions = sm.partitions();
        long t0 = System.nanoTime();
        Fabric f = FabricFiles.load(fabric);
        String[] at = smPlace(f);
        String name = fabric == null ? "default fabric (built-in)" : fabric;
        SmLogPrinter log = new SmLogPrinter(out, err, "ibtwin up", verbose, !json);
        WebView.SmEvents smLog = new WebView.SmEvents(log);
        try (Lab lab = Lab.of(f).sm(cfg, smLog).smAt(at[0], Integer.parseInt(at[1])).start()) {
            SubnetManager manager = lab.sm();
            manager.sa().saKey(sm.saKey());
            manager.mkeys(mkeys);
            java.util.function.BiConsumer<SubnetManager, SweepReport> dumps = dumpDir == null ? null
                    : org.ibtwin.sm.SmDumps.writer(dumpDir, log);
            sm.apply(manager, partitions, err, "ibtwin up");
            // the endpoint's port is taken before the SM runs: a port in use is refused at once, not after SUBNET UP
            IbsimServer server = once ? null : lab.serve(local, port, Duration.ZERO);
            WebView view = web == null ? null : WebView.of(lab, name + ", live", fabric == null ? "default.yaml"
                    : Path.of(fabric).getFileName().toString(), web);
            if (view != null) {
                smLog.attach(view);
                view.watch(manager, dumps);
            } else if (dumps != null) {
                manager.onSweep(dumps);
            }
            long t1 = System.nanoTime();
            SweepReport r = lab.bringUp();
            Topology topo = manager.topology();
            String smPort = topo.portName(topo.smPort());
            if (json) {
                out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
                        .writeValueAsString(json(name, smPort, r, t1 - t0)));
            } else {
                out.print(text(name, smPort, topo, r, t1 - t0));
            }
            out.flush();
            if (once) {
                return r.subnetUp() ? 0 : 1;
            }
            serve(out, err, lab, server, view);
            return 0;
        }
    }

    /** Where the SM sits, node and port: -g, --sm-node, or the twin's default (the first CA's port 1). */
    private String[] smPlace(Fabric f) {
        if (guid != null && smNode != null) {
            throw new IllegalArgumentException("give -g or --sm-node, not both");
        }
        if (guid != null) {
            long g = SmCommand.parseGuid(guid);
            for (Node n : f.nodes()) {
                for (int p = n.isSwitch() ? 0 : 1; p <= n.numPorts(); p++) {
                    if (n.port(p).guid() == g && (!n.isSwitch() || p == 0)) {
                        return new String[] {n.name(), Integer.toString(p)};
                    }
                }
            }
            throw new IllegalArgumentException(String.format("-g 0x%016x: no CA port or switch with that GUID in %s",
                    g, fabric == null ? "the default fabric" : fabric));
        }
        return new String[] {smNode, "0"};
    }

    private static String text(String name, String smPort, Topology t, SweepReport r, long startNanos) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "ibtwin up: %s: %,d nodes (%,d switches, %,d CAs), %,d links, %d degraded%n",
                name, r.nodes(), r.switches(), r.cas(), r.links(), r.degradedLinks().size()));
        List<String> deg = r.degradedLinks();
        for (int i = 0; i < Math.min(10, deg.size()); i++) {
            sb.append("  degraded: ").append(deg.get(i)).append('\n');
        }
        if (deg.size() > 10) {
            sb.append(String.format(Locale.ROOT, "  ... and %,d more degraded links%n", deg.size() - 10));
        }
        sb.append(String.format(Locale.ROOT, "  SM at %s (port GUID 0x%016x), LID %d%n", smPort,
                t.portGuid(t.smPort()), r.smLid()));
        sb.append(String.format(Locale.ROOT, "  LIDs: %,d end ports: %,d kept, %,d restored, %,d assigned%s%n",
                r.endPorts(), r.lidsKept(), r.lidsRestored(), r.lidsAssigned(),
                r.lidsUnassigned() == 0 ? "" : String.format(Locale.ROOT, ", %,d without a LID", r.lidsUnassigned())));
        sb.append(String.format(Locale.ROOT, "  routing: %s (%s); %,d LFT blocks on %,d switches%n", r.engine(),
                r.routingDetail(), r.lftBlocksWritten(), r.switches()));
        sb.append(String.format(Locale.ROOT, "  ports: %,d active (%,d activated now)%n",
                r.portsActive() + r.portsActivated(), r.portsActivated()));
        sb.append(String.format(Locale.ROOT, "%s in %s (%,d SMPs; twin started in %s)%n",
                r.subnetUp() ? "SUBNET UP" : "SUBNET NOT UP", seconds(r.total().toNanos()), r.smps(),
                seconds(startNanos)));
        return sb.toString();
    }

    private static Map<String, Object> json(String name, String smPort, SweepReport r, long startNanos) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("fabric", name);
        m.put("subnetUp", r.subnetUp());
        m.put("nodes", r.nodes());
        m.put("switches", r.switches());
        m.put("cas", r.cas());
        m.put("links", r.links());
        m.put("degradedLinks", r.degradedLinks());
        m.put("smPort", smPort);
        m.put("smLid", r.smLid());
        m.put("endPorts", r.endPorts());
        m.put("lidsKept", r.lidsKept());
        m.put("lidsRestored", r.lidsRestored());
        m.put("lidsAssigned", r.lidsAssigned());
        m.put("lidsUnassigned", r.lidsUnassigned());
        m.put("routingEngine", r.engine());
        m.put("routingDetail", r.routingDetail());
        m.put("routingDeclined", r.declined());
        m.put("lftBlocksWritten", r.lftBlocksWritten());
        m.put("portsActive", r.portsActive() + r.portsActivated());
        m.put("smps", r.smps());
        m.put("subnetUpSeconds", r.total().toNanos() / 1e9);
        m.put("twinStartSeconds", startNanos / 1e9);
        m.put("problems", r.problems());
        return m;
    }

    private static String seconds(long nanos) {
        double s = nanos / 1e9;
        return s < 1 ? String.format(Locale.ROOT, "%.0f ms", s * 1000) : String.format(Locale.ROOT, "%.2f s", s);
    }

    /** The ibsim endpoint and the console, the SM sweeping on a thread of its own, until quit or killed. */
    private void serve(PrintWriter out, PrintWriter err, Lab lab, IbsimServer server, WebView view)
            throws Exception {
        String name = server.basename();
        out.printf("ibsim endpoint on %s; the SM sweeps every %d s and on traps%n", name != null
                ? SimCommand.localSockets(name) : String.format(Locale.ROOT, "%s (UDP %d..%d)",
                server.address().getAddress().getHostAddress(), server.port(), server.port() + 10),
                sweepSeconds);
        if (view != null) {
            view.announce(out);
        }
        out.println("Network simulator ready.");
        out.flush();
        lab.runSm();
        SubnetManager manager = lab.sm();
        if (!Hangup.install(() -> {
            String said = sm.reread(manager, err, "ibtwin up");
            synchronized (out) {
                out.println("SIGHUP: " + said);
                out.flush();
            }
        })) {
            err.println("ibtwin up: warning: SIGHUP cannot be handled on this JVM; it ends the process");
        }
        Console console = lab.console(out);
        if (view != null) {
            view.watch(console);
        }
        if (script != null) {
            try {
                if (!console.runScript(script)) {
                    return;
                }
            } catch (Console.ScriptException e) {
                throw new IllegalArgumentException(e.getMessage(), e);
            }
        }
        if (noConsole) {
            Thread.currentThread().join();
            return;
        }
        console(out, err, console, manager);
    }

    /**
     * {@code ibtwin sim}'s console, with one command of the SM's own: {@code sweep} asks for a heavy sweep now
     * (the SM also sweeps on traps and on its light sweeps).
     */
    private void console(PrintWriter out, PrintWriter err, Console console, SubnetManager manager)
            throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        out.print(Console.PROMPT);
        out.flush();
        while ((line = in.readLine()) != null) {
            String cmd = line.strip();
            if (cmd.equalsIgnoreCase("sweep")) {
                manager.requestSweep();
                out.println("heavy sweep requested");
            } else if (cmd.equalsIgnoreCase("reread")) {
                out.println(sm.reread(manager, err, "ibtwin up"));
            } else if (cmd.toLowerCase(Locale.ROOT).matches("perfmgr(\\s.*)?")) {
                out.print(sm.perfmgrCommand(cmd));
            } else {
                try {
                    if (!console.execute(line)) {
                        return;
                    }
                    if (cmd.equalsIgnoreCase("help") || cmd.equals("?")) {
                        out.println("  sweep                               ibtwin up: a heavy sweep by the SM now");
                        out.println("  reread                              ibtwin up: reread the partitions file (-P) "
                                + "and sweep (also on SIGHUP)");
                        out.println("  perfmgr [print_counters|print_errors [node [port]]|clear_counters|sweep]  "
                                + "ibtwin up: the PerfMgr (--perfmgr), as OpenSM's console");
                    }
                } catch (Console.CommandException e) {
                    out.println(e instanceof Console.ScriptException ? e.getMessage() : "error: " + e.getMessage());
                }
            }
            out.print(Console.PROMPT);
            out.flush();
        }
        out.println();
        out.flush();
    }
}
