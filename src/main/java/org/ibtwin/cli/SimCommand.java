package org.ibtwin.cli;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import org.ibtwin.format.FabricFiles;
import org.ibtwin.model.Fabric;
import org.ibtwin.sim.Console;
import org.ibtwin.sim.IbsimServer;
import org.ibtwin.lab.Lab;
import org.ibtwin.lab.TwinWarmup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ibtwin sim}: the twin in the foreground, its ibsim endpoint on loopback (UDP, as {@code ibsim -r}; or with
 * {@code --local} ibsim's local mode, unix sockets, as {@code ibsim}), and a {@link Console} on standard input (after
 * {@code --script}, when given). Traps are resent by a {@link TrapTimer}.
 */
@Command(name = "sim", mixinStandardHelpOptions = true,
        description = "Run the twin with its ibsim endpoint (UDP on loopback, or ibsim's local mode) and a console.",
        footer = {"", "Attach real programs with LD_PRELOAD=libumad2sim.so IBSIM_SERVER_NAME=127.0.0.1 "
                + "IBSIM_SERVER_PORT=<port>;",
            "with --local, LD_PRELOAD=libumad2sim.so alone (and IBSIM_SOCKNAME=<name> for a name other than sim).", "",
            "Console: ibsim's Link, Unlink, ReLink, Error, PerformanceSet, Route, Dump, Attached, X, Wait, Help, Quit,",
            "and flap, cable, down, up, reboot, ethernet, infiniband, kill-sm, clients, counters, traps, source,",
            "traffic start|stop|status|run",
            "(Help lists them with their arguments)."})
public final class SimCommand extends CliCommand {

    @Parameters(index = "0", arity = "0..1", paramLabel = "<fabric>", description = "Fabric file (default: built-in).")
    String fabric;

    @Option(names = {"-p", "--port"}, defaultValue = "7070",
            description = "UDP control port; clients use the next ten (default: ${DEFAULT-VALUE}; not with --local).")
    int port;

    @Option(names = "--local", arity = "0..1", paramLabel = "<name>", fallbackValue = "",
            description = "Serve ibsim's local mode instead of UDP: unix sockets <name>:ctl and <name>:out0..9 in the "
                    + "abstract namespace (default name: $IBSIM_SOCKNAME, else sim). Needs a JDK 22+ on Linux.")
    String local;

    @Option(names = "--no-console", description = "Do not read commands from standard input; run until killed.")
    boolean noConsole;

    @Option(names = "--script", paramLabel = "<file>",
            description = "Run console commands from a file first (a bad line stops it: file:line: message, exit 2).")
    Path script;

    @Option(names = "--web", arity = "0..1", paramLabel = "<port>", fallbackValue = WebView.DEFAULT_PORT,
            description = "Serve the web view on loopback at this TCP port (default " + WebView.DEFAULT_PORT
                    + "; 0: any free port), printing its URL.")
    Integer web;

    @Option(names = "--warmup", paramLabel = "<seconds>", defaultValue = "2",
            description = "Seconds to warm the JIT on a scratch twin before serving, 0 for none (default: "
                    + "${DEFAULT-VALUE}).")
    double warmup;

    @Override
    public Integer call() throws Exception {
        if (port < 1 || port > 65524) {
            throw new IllegalArgumentException("--port must be in 1..65524 (the ten after it are used too)");
        }
        PrintWriter out = out();
        if (!(warmup >= 0 && warmup <= 600)) {
            throw new IllegalArgumentException("--warmup must be 0..600 seconds");
        }
        if (script != null) {
            FileArgs.readable("--script", script);   // every input before the endpoint and the JIT warm-up
        }
        Fabric f = FabricFiles.load(fabric);
        try (Lab lab = Lab.of(f).noSm().start()) {
            IbsimServer server = lab.serve(local, port, Duration.ofMillis(Math.round(warmup * 1000)));
            TwinWarmup.Result w = lab.warmup();
            String name = server.basename();
            String where = name != null ? localSockets(name)
                    : String.format(Locale.ROOT, "%s (UDP %d..%d)", server.address(), server.port(),
                    server.port() + 10);
            out.printf(Locale.ROOT,
                    "ibtwin sim: %d nodes (%d switches), %d links; ibsim endpoint on %s%s%n", f.size(),
                    f.switches().size(), f.links().size(), where,
                    w.passes() == 0 ? "" : String.format(Locale.ROOT,
                            "; JIT warmed in %.1f s (%d passes over a scratch fabric)", w.took().toNanos() / 1e9,
                            w.passes()));
            WebView view = web == null ? null : WebView.of(lab, (fabric == null ? "default fabric (built-in)"
                    : fabric) + ", live", fabric == null ? "default.yaml" : Path.of(fabric).getFileName().toString(),
                    web);
            if (view != null) {
                view.announce(out);
            }
            out.println("Network simulator ready.");
            out.flush();
            Console console = lab.console(out);
            if (view != null) {
                view.watch(console);
            }
            if (script != null) {
                try {
                    if (!console.runScript(script)) {
                        return 0;
                    }
                } catch (Console.ScriptException e) {
                    throw new IllegalArgumentException(e.getMessage(), e);
                }
            }
            if (noConsole) {
                Thread.currentThread().join();
                return 0;
            }
            console.run(new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)));
            return 0;
        }
    }

    /** How the sim and up name a local-mode endpoint. */
    static String localSockets(String name) {
        return String.format(Locale.ROOT, "local sockets @%s:ctl, @%s:out0..9 (IBSIM_SOCKNAME=%s)", name, name, name);
    }
}
