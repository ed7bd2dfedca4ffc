package org.ibtwin.cli;

import picocli.CommandLine.Option;

/**
 * The options of the infiniband-diags tools that scan the fabric with libibnetdisc (ibnetdiscover, iblinkinfo and
 * the scripts over them): the share of ibdiag_common's options they keep (-t, -y, -e, -v; -z accepted), and the
 * scan's own (-o SMPs in flight, --node-name-map, --load-cache, --diff). Letters the common set gives other
 * meanings elsewhere (-s, -d, -G, -L) are each tool's own.
 */
public final class ScanOptions {
    @Option(names = {"-t", "--timeout"}, paramLabel = "<ms>", description = "Timeout in ms.")
    String timeout;

    @Option(names = {"-y", "--m_key"}, paramLabel = "<key>", description = "M_Key to use in requests.")
    String mkey;

    @Option(names = {"-e", "--errors"}, description = "Show send and receive errors.")
    boolean errors;

    @Option(names = {"-v", "--verbose"}, description = "Increase verbosity level.")
    boolean[] verbose = new boolean[0];

    @Option(names = {"-z", "--config"}, paramLabel = "<config>",
            description = "Config file (accepted; ibtwin's defaults are ibdiag.conf's).")
    String config;

    @Option(names = {"-o", "--outstanding_smps"}, paramLabel = "<val>",
            description = "SMPs in flight during the scan (default 2).")
    String outstanding;

    @Option(names = "--node-name-map", paramLabel = "<file>", description = "Node name map file.")
    String nodeNameMap;

    @Option(names = "--load-cache", paramLabel = "<file>", description = "Cache file of ibnetdiscover data to load.")
    String loadCache;

    @Option(names = "--diff", paramLabel = "<file>", description = "Cache file of ibnetdiscover data to diff.")
    String diff;

    @Option(names = "--json", description = "Print JSON instead of the tool's text.")
    boolean json;

    /** The common options as DiagCommand reads them ({@code debug}: the tool's -d, when it means debug). */
    DiagOptions toDiag(boolean debug) {
        DiagOptions d = new DiagOptions();
        d.timeout = timeout;
        d.mkey = mkey;
        d.errors = errors;
        d.verbose = verbose;
        d.debug = debug ? new boolean[] {true} : new boolean[0];
        return d;
    }
}
