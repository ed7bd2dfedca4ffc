package org.ibtwin.cli;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import org.ibtwin.format.FabricFiles;
import org.ibtwin.model.Fabric;
import org.ibtwin.sim.IbsimServer;
import org.ibtwin.sim.Twin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code ibtwin sim}: the twin in the foreground, its ibsim endpoint on loopback (UDP, as {@code ibsim -r}), and a
 * console on standard input.
 */
@Command(name = "sim", mixinStandardHelpOptions = true,
        description = "Run the twin with its ibsim endpoint (UDP, loopback) and a console.",
        footer = {"", "Attach real programs with LD_PRELOAD=libumad2sim.so IBSIM_SERVER_NAME=127.0.0.1 "
                + "IBSIM_SERVER_PORT=<port>."})
public final class SimCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", paramLabel = "<fabric>", description = "Fabric file (default: built-in).")
    String fabric;

    @Option(names = {"-p", "--port"}, defaultValue = "7070",
            description = "UDP control port; clients use the next ten (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--no-console", description = "Do not read commands from standard input; run until killed.")
    boolean noConsole;

    @Override
    public Integer call() throws Exception {
        if (port < 1 || port > 65524) {
            throw new IllegalArgumentException("--port must be in 1..65524 (the ten after it are used too)");
        }
        PrintWriter out = spec.commandLine().getOut();
        Fabric f = FabricFiles.load(fabric);
        Twin twin = Twin.of(f);
        try (IbsimServer server = new IbsimServer(name -> twin.attach(name, 0))) {
            server.start(InetAddress.getLoopbackAddress(), port);
            out.printf("ibtwin sim: %d nodes (%d switches), %d links; ibsim endpoint on %s (UDP %d..%d)%n",
                    f.size(), f.switches().size(), f.links().size(), server.address(), server.port(),
                    server.port() + 10);
            out.println("Network simulator ready.");
            out.flush();
            if (noConsole) {
                Thread.currentThread().join();
                return 0;
            }
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            String line;
            out.print("sim> ");
            out.flush();
            while ((line = in.readLine()) != null) {
                String cmd = line.strip();
                if (cmd.equalsIgnoreCase("quit") || cmd.equalsIgnoreCase("exit")) {
                    break;
                }
                if (cmd.equalsIgnoreCase("clients")) {
                    server.clients().forEach(c -> out.println(c));
                } else if (!cmd.isEmpty()) {
                    out.println("unknown command: " + cmd + " (commands: clients, quit)");
                }
                out.print("sim> ");
                out.flush();
            }
            return 0;
        }
    }
}
