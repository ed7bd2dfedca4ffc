package org.ibtwin.cli;

import picocli.CommandLine.Option;

/**
 * The options every infiniband-diags tool takes (ibdiag_common's), as a picocli mixin: -t timeout, -L/-G address
 * types, -s SM LID, -y M_Key, and -e/-v/-d, accepted for scripts' sake. Tools that give a letter another meaning
 * (perfquery's -D) declare their own; -D, -K and -c are declared by the tools that have them.
 */
public final class DiagOptions {
    @Option(names = {"-t", "--timeout"}, paramLabel = "<ms>", description = "Timeout in ms (default 1000).")
    String timeout;

    @Option(names = {"-L", "--Lid"}, description = "Use LID address argument (the default).")
    boolean lid;

    @Option(names = {"-G", "--Guid"}, description = "Use GUID address argument (resolved through the SA).")
    boolean guid;

    @Option(names = {"-s", "--sm_port"}, paramLabel = "<lid>", description = "SM port LID (for -G).")
    String smPort;

    @Option(names = {"-y", "--m_key"}, paramLabel = "<key>", description = "M_Key to use in requests.")
    String mkey;

    @Option(names = {"-e", "--errors"}, description = "Show send and receive errors.")
    boolean errors;

    @Option(names = {"-v", "--verbose"}, description = "Increase verbosity level.")
    boolean[] verbose = new boolean[0];

    @Option(names = {"-d", "--debug"}, description = "Raise debug level.")
    boolean[] debug = new boolean[0];

    /** The common options of a tool that takes only -t of them (check_lft_balance, ibidsverify, the node lists). */
    static DiagOptions timeoutOnly(String timeout) {
        DiagOptions d = new DiagOptions();
        d.timeout = timeout;
        return d;
    }

    /** Whether status errors are shown on stderr (-e or -d), as libibmad's madrpc_show_errors. */
    boolean showErrors() {
        return errors || debug.length > 0;
    }
}
