package org.ibtwin.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Function;
import org.ibtwin.diag.Addresses;
import org.ibtwin.diag.MadQuery;
import org.ibtwin.diag.NetDiscovery;
import org.ibtwin.diag.NetFabric;
import org.ibtwin.diag.OpFailure;
import org.ibtwin.diag.QueryException;
import org.ibtwin.mad.PortId;
import org.ibtwin.transport.MadTransport;
import org.ibtwin.transport.MadTransportException;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;

/**
 * What the infiniband-diags front ends share: the transport and common options, and the real tools' way of failing
 * ({@code <tool>: iberror: failed: <why>} on stdout after whatever was printed so far, exit code 255 for C's
 * {@code exit(-1)}; libibmad's {@code ibwarn: [pid] ...} lines on stderr; usage on stderr with exit 2). A tool
 * that fails in its own words with its own exit codes (saquery's errno values) throws {@link Exit}.
 */
abstract class DiagCommand extends CliCommand {
    /** The exit code of the real tools' {@code exit(-1)}. */
    static final int IBERROR = 255;


    @Mixin
    TransportOptions transport;

    /**
     * The common options as this tool takes them: {@link DiagOptions} mixed in whole (smpquery, perfquery), or
     * built from the subset a tool has whose letters mean other things there (ibnetdiscover's -s, iblinkinfo's -d).
     */
    abstract DiagOptions diag();

    /** What the command prints, kept until the end so an error line follows the partial output. */
    final StringBuilder out = new StringBuilder();

    /** The tool's name as its messages show it ("smpquery"). */
    abstract String tool();

    /** Does the work; returns the exit code or throws {@link IbError} / {@link OpFailure}. */
    abstract int execute();

    /** A failure the real tool reports with IBEXIT: its text after "iberror: failed: ". */
    static final class IbError extends RuntimeException {
        private static final long serialVersionUID = 1L;

        IbError(String message) {
            super(message);
        }

        IbError(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * A failure the tool reports its own way: the output so far on stdout, then {@link #getMessage()} (when there
     * is one) on stderr, and the exit code {@link #code}.
     */
    static final class Exit extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final int code;

        Exit(int code, String message) {
            super(message, null, false, false);
            this.code = code;
        }
    }

    @Override
    public final Integer call() {
        PrintWriter stdout = spec.commandLine().getOut();
        int rc;
        boolean printed = false;
        try {
            rc = execute();
        } catch (IbError e) {
            stdout.print(out);
            stdout.println(tool() + ": iberror: failed: " + e.getMessage());
            rc = IBERROR;
            printed = true;
        } catch (Exit e) {
            stdout.print(out);
            if (e.getMessage() != null) {
                spec.commandLine().getErr().println(e.getMessage());
            }
            rc = e.code;
            printed = true;
        }
        if (!printed && rc != IBERROR) {
            stdout.print(out);
        }
        stdout.flush();
        spec.commandLine().getErr().flush();
        return rc;
    }

    /**
     * A file a script-like tool reads whole (ISO-8859-1: bytes as the shell passes them on). When it cannot be read,
     * the script's own line on stderr ({@code <prefix><file>: No such file or directory}) and exit {@code code}.
     */
    static String readWhole(String file, String prefix, int code) {
        try {
            return Files.readString(Path.of(file), StandardCharsets.ISO_8859_1);
        } catch (NoSuchFileException e) {
            throw new Exit(code, prefix + file + ": No such file or directory");
        } catch (IOException e) {
            throw new Exit(code, prefix + file + ": " + e.getMessage());
        }
    }

    /** libibnetdisc's config from the common options: -t, -y (checked first), its error lines on stderr. */
    NetDiscovery.Config scanConfig() {
        NetDiscovery.Config c = NetDiscovery.Config.defaults();
        int ms = timeoutMillis();
        if (ms > 0) {
            c = c.withTimeout(Duration.ofMillis(ms));
        }
        if (diag().mkey != null) {
            checkCommonOptions();
            c = c.withMkey(Addresses.unsigned(diag().mkey.trim()));
        }
        PrintWriter err = spec.commandLine().getErr();
        return c.withErrors(line -> err.println("ibnetdisc: " + line));
    }

    /**
     * Scans the fabric over {@code t} from directed route {@code from} (empty: the attached port); when the scan
     * cannot start, libibnetdisc's line on stderr and an {@link IbError} of {@code failure}.
     */
    NetFabric discover(MadTransport t, byte[] from, NetDiscovery.Config c, String failure) {
        try {
            return NetDiscovery.discover(t, from, c);
        } catch (NetDiscovery.Failed e) {
            spec.commandLine().getErr().println("ibnetdisc: " + e.getMessage());
            throw new IbError(failure, e);
        }
    }

    /** The query layer over {@code t} with -t and -y applied (checked as the real tools check them). */
    MadQuery query(MadTransport t) {
        MadQuery q = new MadQuery(t);
        int ms = timeoutMillis();
        if (ms > 0) {
            q.timeout(Duration.ofMillis(ms));
        }
        if (diag().mkey != null) {
            q.mkey(mkey());
        }
        return q;
    }

    /** Checks the options the real tools check while reading them (-t, -y, -s), before anything else. */
    void checkCommonOptions() {
        timeoutMillis();
        if (diag().mkey != null) {
            mkey();
        }
        smLid();
    }

    /** -t: 0 when not given. */
    int timeoutMillis() {
        if (diag().timeout == null) {
            return 0;
        }
        Addresses.Parsed p = Addresses.strtol(diag().timeout);
        if (!p.whole(diag().timeout) || p.value() <= 0 || p.value() > Integer.MAX_VALUE) {
            throw new IbError("Invalid timeout \"" + diag().timeout + "\".  Timeout requires a positive integer "
                    + "value < " + Integer.MAX_VALUE + ".");
        }
        return (int) p.value();
    }

    private long mkey() {
        String s = diag().mkey.trim();
        if (s.isEmpty() || !s.matches("(?i)(0x[0-9a-f]+|0[0-7]*|[1-9][0-9]*)")) {
            throw new IbError("Bad M_Key");
        }
        return Addresses.unsigned(s);
    }

    /** -s: the SA's LID, 0 when not given. */
    int smLid() {
        if (diag().smPort == null) {
            return 0;
        }
        return Addresses.lid(diag().smPort).map(PortId::lid)
                .orElseThrow(() -> new IbError("cannot resolve SM destination port " + diag().smPort));
    }

    /**
     * For a tool whose letter means something else than the common option's (sminfo's -s, ibaddr's -L): takes the
     * common option of that name out of {@code spec} and puts {@code own} in, its values handed to {@code set}.
     */
    static CommandSpec swapOption(CommandSpec spec, CommandLine.Model.OptionSpec.Builder own,
                                  java.util.function.Consumer<Object> set) {
        CommandLine.Model.OptionSpec common = spec.findOption(own.names()[0]);
        if (common != null) {
            spec.remove(common);
        }
        spec.addOption(own.setter(new CommandLine.Model.ISetter() {
            @Override
            public <T> T set(T value) {
                set.accept(value);
                return null;
            }
        }).build());
        return spec;
    }

    /** How commands attach: {@link TransportOptions#open()}; tests put a fake fabric here. */
    static Function<TransportOptions, MadTransport> opener = TransportOptions::open;

    /** Attaches to the fabric, or fails as the tools fail to open their port (with the reason on stderr). */
    MadTransport attach() {
        try {
            return opener.apply(transport);
        } catch (MadTransportException e) {
            warn("mad_rpc_open_port: can't attach to " + transport.target() + ": " + e.getMessage());
            throw new IbError("Failed to open '" + (transport.ca == null ? "(null)" : transport.ca) + "' port '"
                    + (transport.caPort == null ? 0 : Addresses.number(transport.caPort)) + "'", e);
        }
    }

    /** libibmad's warning line on stderr: "ibwarn: [pid] text". */
    void warn(String text) {
        spec.commandLine().getErr().println("ibwarn: [" + ProcessHandle.current().pid() + "] " + text);
    }

    /** The warning libibmad prints for a failed query: always for a timeout, with -e for a status. */
    void warnQuery(QueryException q) {
        if (q != null && (q.alwaysWarned() || diag().showErrors())) {
            warn(q.warning());
        }
    }

    /** An {@link OpFailure} as the tool reports it, its query's warning on stderr first. */
    IbError failed(String prefix, OpFailure f) {
        warnQuery(f.query());
        return new IbError(prefix + f.getMessage(), f);
    }

    /** Usage on stderr and exit 2, as ibdiag_show_usage. */
    int usage() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return Main.USAGE;
    }
}
