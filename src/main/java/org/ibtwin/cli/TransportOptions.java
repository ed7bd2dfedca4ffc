package org.ibtwin.cli;

import java.time.Duration;
import java.util.Map;
import org.ibtwin.transport.IbsimClient;
import org.ibtwin.transport.MadTransport;
import picocli.CommandLine.Option;

/**
 * Where a diagnostic command finds the fabric, a picocli mixin every diag command shares: {@code --ibsim HOST:PORT},
 * or libumad2sim's environment ({@code IBSIM_SERVER_NAME}, default 127.0.0.1, and {@code IBSIM_SERVER_PORT}, default
 * 7070), attaches to a running {@code ibsim -r} as its client, at the node {@code --sim-host} or {@code SIM_HOST}
 * names (else ibsim's first node). {@code -C}/{@code -P} (CA name and port) are accepted, as the real tools take
 * them; a simulator client is one port, so they select nothing. With {@code --fabric FILE}, or with neither --ibsim
 * nor the environment, the tool attaches to an in-process twin of that fabric (default: the built-in one) brought up
 * by ibtwin's SM, at the node {@code --sim-host}/{@code SIM_HOST} names (else the first CA).
 */
public final class TransportOptions {
    /** How long to wait for an ibsim that is not listening yet. */
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);

    @Option(names = "--ibsim", paramLabel = "HOST:PORT",
            description = "Attach to a running `ibsim -r` at HOST:PORT (default: IBSIM_SERVER_NAME/IBSIM_SERVER_PORT).")
    String ibsim;

    @Option(names = "--fabric", paramLabel = "FILE",
            description = "Query an in-process twin of this fabric file, brought up by ibtwin's SM (the default "
                    + "without --ibsim or IBSIM_SERVER_*: the built-in fabric).")
    String fabric;

    @Option(names = "--sim-host", paramLabel = "NODE",
            description = "The ibsim node to attach at (default: SIM_HOST, else ibsim's first node).")
    String simHost;

    @Option(names = {"-C", "--Ca"}, paramLabel = "<ca>", description = "CA name to use (accepted; ibsim has one).")
    String ca;

    @Option(names = {"-P", "--Port"}, paramLabel = "<port>",
            description = "CA port number to use (accepted; an ibsim client is one port).")
    String caPort;

    /** The environment read for IBSIM_SERVER_NAME, IBSIM_SERVER_PORT and SIM_HOST; tests replace it. */
    Map<String, String> env = System.getenv();

    /**
     * Where to attach: an ibsim server and the node to attach at (null: ibsim's default); or, when {@code host} is
     * null, an in-process twin of {@code fabric} (null: the built-in default fabric).
     */
    public record Target(String host, int port, String simHost, String fabric) {
        public Target(String host, int port, String simHost) {
            this(host, port, simHost, null);
        }

        /** An in-process twin of {@code fabric} (null: the default fabric), attached at {@code simHost}. */
        static Target inProcess(String fabric, String simHost) {
            return new Target(null, 0, simHost, fabric);
        }

        public boolean isInProcess() {
            return host == null;
        }

        @Override
        public String toString() {
            if (isInProcess()) {
                return "the in-process twin of " + (fabric == null ? "the default fabric" : fabric);
            }
            return "ibsim at " + host + ":" + port;
        }
    }

    /**
     * The target the options and environment name.
     *
     * @throws IllegalArgumentException (one line, for exit 2) when nothing names a fabric or an address is malformed
     */
    public Target target() {
        String node = simHost != null ? simHost : env.get("SIM_HOST");
        if (node != null && node.isEmpty()) {
            node = null;
        }
        if (ibsim != null && fabric != null) {
            throw new IllegalArgumentException("give --ibsim or --fabric, not both");
        }
        if (fabric != null) {
            return Target.inProcess(fabric, node);
        }
        if (ibsim != null) {
            String s = ibsim.trim();
            int colon = s.lastIndexOf(':');
            String host = colon < 0 ? "127.0.0.1" : s.substring(0, colon);
            String port = colon < 0 ? s : s.substring(colon + 1);
            if (host.isEmpty()) {
                host = "127.0.0.1";
            }
            return new Target(host, port(port, "--ibsim " + ibsim), node);
        }
        String host = env.get("IBSIM_SERVER_NAME");
        String port = env.get("IBSIM_SERVER_PORT");
        if (blank(host) && blank(port)) {
            return Target.inProcess(null, node);
        }
        return new Target(blank(host) ? "127.0.0.1" : host.trim(),
                blank(port) ? 7070 : port(port.trim(), "IBSIM_SERVER_PORT=" + port), node);
    }

    /** Attaches at {@link #target()}: the transport, which the caller closes. */
    public MadTransport open() {
        Target t = target();
        if (t.isInProcess()) {
            return InProcessTwin.open(t.fabric(), t.simHost());
        }
        return IbsimClient.connect(t.host(), t.port(), t.simHost(), false, CONNECT_TIMEOUT);
    }

    private static int port(String s, String what) {
        try {
            int p = Integer.parseInt(s);
            if (p >= 1 && p <= 0xffff - 10) {
                return p;
            }
        } catch (NumberFormatException e) {
            // fall through to the message
        }
        throw new IllegalArgumentException(what + ": not an ibsim port (1-65525)");
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
