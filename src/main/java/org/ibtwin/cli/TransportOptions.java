package org.ibtwin.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Map;
import org.ibtwin.transport.IbsimClient;
import org.ibtwin.transport.MadTransport;
import org.ibtwin.transport.Umad;
import org.ibtwin.transport.UmadTransport;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Where a diagnostic command finds the fabric, a picocli mixin every diag command shares. In order:
 * <ul>
 *   <li>{@code --umad [CA[:PORT]]}, or {@code -C CA}/{@code -P PORT} as infiniband-diags spell them: the kernel's
 *       user_mad interface on this host's HCA ({@link UmadTransport}; the first CA and its first active port unless
 *       named);</li>
 *   <li>{@code --ibsim HOST:PORT}, or libumad2sim's environment ({@code IBSIM_SERVER_NAME}, default 127.0.0.1, and
 *       {@code IBSIM_SERVER_PORT}, default 7070): a client of a running {@code ibsim -r}; {@code --ibsim @NAME}, or
 *       {@code IBSIM_SOCKNAME} without the other two, one in local mode; at the node {@code --sim-host} or
 *       {@code SIM_HOST} names (else ibsim's first node); -C/-P select nothing there (an ibsim client is one
 *       port);</li>
 *   <li>{@code --fabric FILE}: an in-process twin of that fabric brought up by ibtwin's SM;</li>
 *   <li>nothing named: umad when sysfs shows an HCA here, else the in-process twin of the built-in fabric, said on
 *       stderr in one line ({@code ibtwin: no HCA here: querying the simulated fabric default (built-in)}).</li>
 * </ul>
 */
public final class TransportOptions {
    /** How long to wait for an ibsim that is not listening yet. */
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);

    @Option(names = "--ibsim", paramLabel = "HOST:PORT",
            description = "Attach to a running `ibsim -r` at HOST:PORT, or to an ibsim in local mode as @NAME "
                    + "(default: IBSIM_SERVER_NAME/IBSIM_SERVER_PORT, else IBSIM_SOCKNAME).")
    String ibsim;

    @Option(names = "--fabric", paramLabel = "FILE",
            description = "Query an in-process twin of this fabric file, brought up by ibtwin's SM (the default "
                    + "without --umad, --ibsim or IBSIM_SERVER_*, on a host without an HCA: the built-in fabric).")
    String fabric;

    @Option(names = "--sim-host", paramLabel = "NODE",
            description = "The ibsim node to attach at (default: SIM_HOST, else ibsim's first node).")
    String simHost;

    @Option(names = "--umad", paramLabel = "CA[:PORT]", arity = "0..1", fallbackValue = "",
            description = "Use this host's HCA through the kernel's user_mad interface (default CA and port: the "
                    + "first, as libibumad picks; the default anyway when sysfs shows an HCA).")
    String umad;

    @Option(names = {"-C", "--Ca"}, paramLabel = "<ca>",
            description = "CA name to use (umad; accepted and unused on an ibsim, whose client is one port).")
    String ca;

    @Option(names = {"-P", "--Port"}, paramLabel = "<port>",
            description = "CA port number to use (umad; accepted and unused on an ibsim).")
    String caPort;

    @Option(names = "--gmp-pkey", paramLabel = "<pkey>",
            description = "umad: send the GMPs (SA, PerfMgt, ...) with this P_Key, at its index in the port's P_Key "
                    + "table (sysfs ports/N/pkeys/; default index 0, the default partition).")
    String gmpPkey;

    /** Whether this host shows an HCA in sysfs (umad is then the default); tests replace it. */
    java.util.function.BooleanSupplier hcaHere = Umad::hcaPresent;

    /** The environment read for IBSIM_SERVER_NAME, IBSIM_SERVER_PORT and SIM_HOST; tests replace it. */
    Map<String, String> env = System.getenv();

    /** The command these options are mixed into: its stderr takes the simulated-fabric notice. */
    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    /** Whether this command run has said it answers from a simulated fabric (said once, however often it opens). */
    private boolean noticed;

    /**
     * Where to attach: an ibsim server and the node to attach at (null: ibsim's default); or, when {@code host} is
     * null, an in-process twin of {@code fabric} (null: the built-in default fabric).
     */
    public record Target(String host, int port, String simHost, String fabric, String sockname, String umadCa,
                         Integer umadPort) {
        public Target(String host, int port, String simHost) {
            this(host, port, simHost, null, null, null, null);
        }

        public Target(String host, int port, String simHost, String fabric, String sockname) {
            this(host, port, simHost, fabric, sockname, null, null);
        }

        /** This host's HCA through umad: {@code ca} and {@code port} (null: libibumad's choice). */
        static Target umad(String ca, Integer port) {
            return new Target(null, 0, null, null, null, ca == null ? "" : ca, port);
        }

        /** The umad port whose port GUID is {@code guid} (OpenSM's -g). */
        static Target umadPortOfGuid(long guid) {
            org.ibtwin.transport.UmadSysfs sysfs = new org.ibtwin.transport.UmadSysfs(Umad.libc());
            try {
                for (org.ibtwin.transport.UmadSysfs.Port p : sysfs.ports()) {
                    if (sysfs.localPort(p, false).portGuid() == guid) {
                        return umad(p.ca(), p.port());
                    }
                }
            } catch (org.ibtwin.transport.UmadLibc.CallFailed e) {
                throw new IllegalArgumentException("sysfs: " + e.getMessage());
            }
            throw new IllegalArgumentException(String.format("-g 0x%016x: no port of this host's HCAs has that GUID",
                    guid));
        }

        public boolean isUmad() {
            return umadCa != null;
        }

        /** Opens the umad device, as the port's SM and SA when {@code sm}. */
        public UmadTransport openUmad(boolean sm) {
            return UmadTransport.open(umadCa.isEmpty() ? null : umadCa, umadPort, sm);
        }

        /** An in-process twin of {@code fabric} (null: the default fabric), attached at {@code simHost}. */
        static Target inProcess(String fabric, String simHost) {
            return new Target(null, 0, simHost, fabric, null);
        }

        /** An ibsim in local mode, its sockets named {@code sockname}. */
        static Target local(String sockname, String simHost) {
            return new Target(null, 0, simHost, null, sockname);
        }

        public boolean isInProcess() {
            return host == null && sockname == null && umadCa == null;
        }

        public boolean isLocal() {
            return sockname != null;
        }

        /** Where the ibsim is, as its users write it: {@code host:port}, or {@code @name} in local mode. */
        public String address() {
            if (isUmad()) {
                return "umad" + (umadCa.isEmpty() ? "" : " " + umadCa) + (umadPort == null ? "" : ":" + umadPort);
            }
            return isLocal() ? "@" + sockname : host + ":" + port;
        }

        /** Attaches there as a client at {@code node} (null: ibsim's default), as the port's SM when {@code sm}. */
        public IbsimClient connect(String node, boolean sm) {
            return isLocal() ? IbsimClient.connectLocal(sockname, node, sm, CONNECT_TIMEOUT)
                    : IbsimClient.connect(host, port, node, sm, CONNECT_TIMEOUT);
        }

        @Override
        public String toString() {
            if (isInProcess()) {
                return "the in-process twin of " + (fabric == null ? "the default fabric" : fabric);
            }
            if (isUmad()) {
                return address();
            }
            return "ibsim at " + address();
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
        int named = (ibsim != null ? 1 : 0) + (fabric != null ? 1 : 0) + (umad != null ? 1 : 0);
        if (named > 1) {
            throw new IllegalArgumentException("give one of --umad, --ibsim and --fabric");
        }
        if (umad != null || (ibsim == null && fabric == null && (ca != null || caPort != null)
                && blank(env.get("IBSIM_SERVER_NAME")) && blank(env.get("IBSIM_SERVER_PORT"))
                && blank(env.get("IBSIM_SOCKNAME")))) {
            return umadTarget();
        }
        if (fabric != null) {
            return Target.inProcess(fabric, node);
        }
        if (ibsim != null) {
            String s = ibsim.trim();
            if (s.startsWith("@")) {
                return Target.local(sockname(s.substring(1), "--ibsim " + ibsim), node);
            }
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
        String sock = env.get("IBSIM_SOCKNAME");
        if (blank(host) && blank(port)) {
            if (!blank(sock)) {
                return Target.local(sockname(sock.trim(), "IBSIM_SOCKNAME=" + sock), node);
            }
            return hcaHere.getAsBoolean() ? Target.umad(null, null) : Target.inProcess(null, node);
        }
        return new Target(blank(host) ? "127.0.0.1" : host.trim(),
                blank(port) ? 7070 : port(port.trim(), "IBSIM_SERVER_PORT=" + port), node);
    }

    /**
     * For the commands that read a fabric file or saved outputs too (doctor, snapshot save): the live fabric to read,
     * or null to read {@code offline} instead. --ibsim and --fabric always mean live; without them a file or
     * directory given ({@code offline}) wins over the environment, and the environment (IBSIM_SERVER_NAME/PORT,
     * IBSIM_SOCKNAME, read as every diag tool reads them) over the built-in default fabric.
     */
    org.ibtwin.doctor.Sources.Live live(boolean offline) {
        if (ibsim == null && fabric == null && (offline || target().isInProcess())) {
            if (!offline) {
                noticeSimulated(null);   // nothing named at all: the built-in default fabric
            }
            return null;
        }
        return new org.ibtwin.doctor.Sources.Live(target().toString(), this::open);
    }

    /** Whether {@link #live} reads a running ibsim (for options only a live ibsim has, like --interval). */
    boolean liveIbsim(boolean offline) {
        return live(offline) != null && !target().isInProcess();
    }

    /**
     * Attaches at {@link #target()}: the transport, which the caller closes. This is the one place the in-process
     * (simulated) fabric is chosen, so the one place that says so: one line on stderr, once per command run.
     */
    public MadTransport open() {
        return open(true);
    }

    /**
     * {@link #open()}, the notice left to the caller when {@code notice} is false: the perf-model commands (the
     * perftest tools, ipoib, perf, nccl) check what only the fabric can tell (hosts, devices, pairs) first, and say
     * it ({@link #noticeIfSimulated}) once those pass, so that a bad argument stays its one line.
     */
    MadTransport open(boolean notice) {
        Target t = target();
        if (t.isInProcess()) {
            org.ibtwin.model.Fabric f = org.ibtwin.format.FabricFiles.load(t.fabric());   // a bad file: its line alone
            if (notice) {
                noticeSimulated(t.fabric());
            }
            return org.ibtwin.lab.LabTransport.open(f, t.fabric() == null ? "the default fabric" : t.fabric(),
                    t.simHost());
        }
        if (t.isUmad()) {
            UmadTransport u = t.openUmad(false);
            if (gmpPkey != null) {
                try {
                    u.usePkey(pkey(gmpPkey));
                } catch (IllegalArgumentException e) {
                    u.close();
                    throw e;
                }
            }
            return u;
        }
        if (gmpPkey != null) {
            throw new IllegalArgumentException("--gmp-pkey " + gmpPkey + ": only over umad (" + t
                    + " carries no P_Key index)");
        }
        return t.connect(t.simHost(), false);
    }

    /** A P_Key as written on the command line ("0x8001", "32769"). */
    static int pkey(String s) {
        try {
            String t = s.trim().toLowerCase(java.util.Locale.ROOT);
            int v = t.startsWith("0x") ? Integer.parseInt(t.substring(2), 16) : Integer.parseInt(t);
            if (v < 0 || v > 0xffff || (v & 0x7fff) == 0) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--gmp-pkey " + s + ": not a P_Key (0x0001-0xffff, not 0x8000)");
        }
    }

    /**
     * Says on stderr, once, that the command answers from a simulated fabric when it does, naming it: the --fabric
     * file, or the built-in default that is used when no transport is named. An admin on a real cluster must never
     * take the twin's answers for the fabric's.
     */
    void noticeIfSimulated() {
        Target t = target();
        if (t.isInProcess()) {
            noticeSimulated(t.fabric());
        }
    }

    /** For a fabric handed over in memory (not one these options name): no notice is due. */
    void fabricGivenElsewhere() {
        noticed = true;
    }

    /** The notice of {@link #noticeIfSimulated}, for {@code fabric} (null: the built-in default). */
    void noticeSimulated(String fabric) {
        if (noticed) {
            return;
        }
        noticed = true;
        String line = fabric == null
                ? "ibtwin: no HCA here: querying the simulated fabric default (built-in)"
                : "ibtwin: querying the simulated fabric " + fabric + " (an in-process twin, not a real fabric)";
        PrintWriter err = mixee != null ? mixee.commandLine().getErr() : new PrintWriter(System.err, true);
        err.println(line);
        err.flush();
    }

    /** The umad target of --umad CA[:PORT] and -C/-P (which must agree with it when both are given). */
    private Target umadTarget() {
        String c = ca;
        Integer p = caPort == null ? null : umadPort(caPort, "-P " + caPort);
        if (umad != null && !umad.isBlank()) {
            String s = umad.trim();
            int colon = s.lastIndexOf(':');
            String uc = colon < 0 ? s : s.substring(0, colon);
            Integer up = colon < 0 ? null : umadPort(s.substring(colon + 1), "--umad " + umad);
            if (uc.isEmpty()) {
                throw new IllegalArgumentException("--umad " + umad + ": no CA name before the ':'");
            }
            if (c != null && !c.equals(uc) || p != null && up != null && !p.equals(up)) {
                throw new IllegalArgumentException("--umad " + umad + " and -C/-P name different ports");
            }
            c = uc;
            p = up != null ? up : p;
        }
        return Target.umad(c, p);
    }

    private static int umadPort(String s, String what) {
        try {
            int p = Integer.parseInt(s.trim());
            if (p >= 0 && p <= 254) {
                return p;
            }
        } catch (NumberFormatException e) {
            // fall through to the message
        }
        throw new IllegalArgumentException(what + ": not a port number (0-254)");
    }

    /** A local-mode ibsim's name, checked: {@code <name>:ctl} and its clients' names must be abstract names. */
    private static String sockname(String s, String what) {
        if (s.isEmpty() || !org.ibtwin.transport.LocalAddress.isName(s + ":in" + Integer.MAX_VALUE)) {
            throw new IllegalArgumentException(what + ": not an ibsim socket name (1 to "
                    + (org.ibtwin.transport.LocalAddress.MAX_NAME - 13) + " ASCII characters)");
        }
        return s;
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
