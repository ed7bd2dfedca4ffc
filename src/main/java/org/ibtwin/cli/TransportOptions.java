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
 * them; a simulator client is one port, so they select nothing. With neither --ibsim nor the environment there is
 * nothing to attach to yet (the in-process twin comes later): {@link #target} says how to attach.
 */
public final class TransportOptions {
    /** How long to wait for an ibsim that is not listening yet. */
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);

    @Option(names = "--ibsim", paramLabel = "HOST:PORT",
            description = "Attach to a running `ibsim -r` at HOST:PORT (default: IBSIM_SERVER_NAME/IBSIM_SERVER_PORT).")
    String ibsim;

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

    /** Where to attach: an ibsim server and the node to attach at (null: ibsim's default). */
    public record Target(String host, int port, String simHost) {
        @Override
        public String toString() {
            return host + ":" + port;
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
            throw new IllegalArgumentException("no fabric to attach to: give --ibsim HOST:PORT, or set "
                    + "IBSIM_SERVER_NAME/IBSIM_SERVER_PORT, to query a running `ibsim -r`");
        }
        return new Target(blank(host) ? "127.0.0.1" : host.trim(),
                blank(port) ? 7070 : port(port.trim(), "IBSIM_SERVER_PORT=" + port), node);
    }

    /** Attaches at {@link #target()}: the transport, which the caller closes. */
    public MadTransport open() {
        Target t = target();
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
