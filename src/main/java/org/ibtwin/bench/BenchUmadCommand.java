package org.ibtwin.bench;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;
import org.ibtwin.transport.IbsimClient;
import org.ibtwin.transport.IbsimRoundTripBench;
import org.ibtwin.transport.MadTransport;
import org.ibtwin.transport.Umad;
import org.ibtwin.transport.UmadLibc;
import org.ibtwin.transport.UmadTransport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ibtwin bench umad}: round trips per second of directed-route SMP Get NodeInfo through the umad transport,
 * beside the same stream through the ibsim client (UDP), both to the same ibsim, with 1 and 4 MADs in flight. It is
 * run under libumad2sim ({@code LD_PRELOAD=libumad2sim.so IBSIM_SERVER_NAME=... IBSIM_SERVER_PORT=...}), so that
 * the umad device it opens is that library's, which forwards to the ibsim those variables name; it says where the C
 * library's calls were bound, which shows the preload took (on a real HCA it measures the kernel's path instead, and
 * the ibsim line is left out when no ibsim is named).
 */
@Command(name = "umad", mixinStandardHelpOptions = true,
        description = "Round trips per second through umad (under libumad2sim: to ibsim) beside ibsim's UDP client, "
                + "1 and 4 MADs in flight.")
public final class BenchUmadCommand extends Bench {
    private static final int[] IN_FLIGHT = {1, 4};


    @Option(names = "--umad", paramLabel = "CA[:PORT]", description = "The umad port (default: the first).")
    String umad;

    @Option(names = "--seconds", defaultValue = "3", description = "Seconds per measurement (default: ${DEFAULT-VALUE}).")
    int seconds;

    @Option(names = "--path", paramLabel = "<p0,p1,...>", defaultValue = "0",
            description = "The directed route's initial path (default: ${DEFAULT-VALUE}, the local node).")
    String path;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (seconds < 1) {
            throw new IllegalArgumentException("--seconds must be at least 1");
        }
        int[] hops = parsePath(path);
        String ca = null;
        Integer port = null;
        if (umad != null && !umad.isBlank()) {
            int colon = umad.lastIndexOf(':');
            ca = colon < 0 ? umad.trim() : umad.substring(0, colon).trim();
            if (colon >= 0) {
                try {
                    port = Integer.parseInt(umad.substring(colon + 1).trim());
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("--umad " + umad + ": not a port number");
                }
            }
        }
        UmadLibc libc = Umad.libc();
        out.printf("C library calls (%s):%n", libc.lookup());
        for (String call : new String[] {"open", "read", "write", "poll", "ioctl", "opendir"}) {
            out.printf("  %-8s bound in %s%n", call, libc.boundIn(call));
        }
        Duration d = Duration.ofSeconds(seconds);
        try (UmadTransport t = UmadTransport.open(ca, port, false)) {
            out.println("umad " + t.port().ca() + " port " + t.port().port() + " (" + t.port().device() + "):");
            measure(t, d, hops, out);
        }
        java.util.Map<String, String> env = System.getenv();
        if (env.get("IBSIM_SERVER_NAME") != null || env.get("IBSIM_SERVER_PORT") != null) {
            try (MadTransport c = IbsimClient.fromEnvironment(null, false)) {
                out.println("ibsim client (UDP) at " + ((IbsimClient) c).serverAddress() + ":");
                measure(c, d, hops, out);
            }
        }
        out.flush();
        return 0;
    }

    private static void measure(MadTransport t, Duration d, int[] hops, PrintWriter out) {
        for (int n : IN_FLIGHT) {
            IbsimRoundTripBench.Result r = IbsimRoundTripBench.run(t, n, d, hops);
            out.println("  " + r);
            out.flush();
        }
    }

    private static int[] parsePath(String s) {
        String[] parts = s.split(",");
        int[] p = new int[parts.length];
        for (int i = 0; i < parts.length; i++) {
            try {
                p[i] = Integer.parseInt(parts[i].trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(String.format(Locale.ROOT, "--path %s: not a list of port "
                        + "numbers", s));
            }
            if (p[i] < 0 || p[i] > 254 || (i == 0 && p[i] != 0)) {
                throw new IllegalArgumentException("--path " + s + ": ports are 0-254 and the path starts at 0");
            }
        }
        return p;
    }
}
