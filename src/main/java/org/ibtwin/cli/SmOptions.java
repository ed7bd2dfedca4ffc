package org.ibtwin.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.ibtwin.format.FormatException;
import org.ibtwin.format.GuidListFile;
import org.ibtwin.format.OpensmConf;
import org.ibtwin.format.PartitionsConf;
import org.ibtwin.sm.SmConfig;
import org.ibtwin.sm.SubnetManager;
import org.ibtwin.sm.routing.RoutingEngines;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** The SM options {@code ibtwin sm} and {@code ibtwin up} share, named as opensm names them. */
public final class SmOptions {
    @Option(names = {"-R", "--routing_engine"}, paramLabel = "<engines>",
            description = "Routing engines to try in order, comma separated: minhop, updn, ftree, dor, "
                    + "dfsssp "
                    + "(default: minhop; minhop ends every chain).")
    String engines;

    @Option(names = {"-a", "--root_guid_file"}, paramLabel = "<file>",
            description = "Switch GUIDs to use as updn roots, one a line (default: found).")
    Path rootGuidFile;

    @Option(names = {"-l", "--lmc"}, paramLabel = "<lmc>", defaultValue = "0",
            description = "LIDs per CA port as a power of two, 0..7 (default: ${DEFAULT-VALUE}).")
    int lmc;

    @Option(names = {"-r", "--reassign_lids"}, description = "Give every port a new LID.")
    boolean reassignLids;

    @Option(names = "--guid2lid", paramLabel = "<file>",
            description = "Load and save the LIDs in this guid2lid file (OpenSM's format).")
    Path guid2lid;

    @Option(names = {"-n", "--maxsmps"}, paramLabel = "<n>", defaultValue = "4",
            description = "SMPs in flight at once (default: ${DEFAULT-VALUE}).")
    int maxSmps;

    @Option(names = {"-t", "--timeout"}, paramLabel = "<ms>", defaultValue = "200",
            description = "SMP timeout in milliseconds (default: ${DEFAULT-VALUE}).")
    int timeoutMs;

    @Option(names = "--retries", paramLabel = "<n>", defaultValue = "3",
            description = "SMP retries after the first attempt (default: ${DEFAULT-VALUE}).")
    int retries;

    @Option(names = "--check-routes",
            description = "Follow every programmed CA route and check for credit loops after routing.")
    boolean checkRoutes;

    @Option(names = {"-P", "--Pconfig"}, paramLabel = "<file>",
            description = "Partitions to program, OpenSM's partitions.conf (default: every port a full member of "
                    + "the Default partition 0x7fff).")
    Path partitionsFile;

    @Option(names = "--strict",
            description = "Refuse a partitions file that leaves the SM's own port without full membership of the "
                    + "Default partition, or takes ports out of partitions they are in (default: warn and apply).")
    boolean strict;

    @Option(names = {"-F", "--config"}, paramLabel = "<file>",
            description = "Read OpenSM's opensm.conf: the options ibtwin implements (" + IMPLEMENTED_TEXT + ") "
                    + "where the command line does not give them; any other option is named in a warning.")
    Path config;

    @Option(names = {"-c", "--create-config"}, paramLabel = "<file>",
            description = "Write ibtwin's defaults as an opensm.conf (the options ibtwin implements) and exit.")
    Path createConfig;

    @Option(names = "--m_key", paramLabel = "<key>",
            description = "M_Key (64-bit) to set on every port the SM manages and carry in every SMP; 0: none "
                    + "(default: opensm.conf's m_key, else 0).")
    String mKey;

    @Option(names = "--m_key_protection_level", paramLabel = "<0-3>",
            description = "M_KeyProtectBits with the M_Key: 0 a Get shows the key, 1 a Get hides it, 2 and 3 a Get "
                    + "without the key fails; a Set without it always fails (default: opensm.conf's, else 0).")
    Integer mKeyProtect;

    @Option(names = "--m_key_lease_period", paramLabel = "<s>",
            description = "Seconds a port stays protected after a refused SMP with no SMP carrying the key; 0: for "
                    + "ever (default: opensm.conf's, else 0).")
    Integer mKeyLease;

    @Option(names = {"-Q", "--qos"},
            description = "QoS: program SL2VL tables, VL arbitration and VLHighLimit on every port from opensm.conf's "
                    + "qos_* options (OpenSM's defaults where not given).")
    boolean qos;

    @Option(names = {"-Y", "--qos_policy_file"}, paramLabel = "<file>",
            description = "With QoS: OpenSM's qos-policy.conf (port groups, qos-levels, match rules, qos-ulps) "
                    + "for the SLs, MTU and rate limits, packet lifetimes and P_Keys of PathRecords (default: opensm.conf's qos_policy_file when that file exists).")
    Path qosPolicyFile;

    @Option(names = "--perfmgr",
            description = "Run the performance manager: read every port's counters each PerfMgr sweep, keep 64-bit "
                    + "totals, clear counters near their limit, log error counter rises (OpenSM's ERR 5431..).")
    boolean perfmgr;

    @Option(names = "--perfmgr_sweep_time_s", paramLabel = "<s>",
            description = "Seconds between PerfMgr sweeps (default: 180, OpenSM's).")
    Integer perfmgrSweep;

    @Option(names = "--perfmgr-dump", paramLabel = "<file>",
            description = "Write the counters (the console's perfmgr print_counters) to this file after every "
                    + "PerfMgr sweep.")
    Path perfmgrDump;

    /** The running PerfMgr (null: none). */
    org.ibtwin.sm.PerfManager perfManager;

    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    /** The opensm.conf options ibtwin implements, in the order -c writes them. */
    static final List<String> IMPLEMENTED = List.of("sm_key", "sa_key", "lmc", "max_op_vls", "subnet_timeout",
            "partition_config_file", "sweep_interval", "reassign_lids", "routing_engine", "root_guid_file",
            "sm_priority", "sminfo_polling_timeout", "polling_retry_number", "max_wire_smps", "transaction_timeout",
            "transaction_retries", "m_key", "m_key_lease_period", "m_key_protection_level",
            "perfmgr", "perfmgr_sweep_time_s", "perfmgr_max_outstanding_queries",
            "perfmgr_ignore_cas", "perfmgr_log_errors", "perfmgr_query_cpi", "perfmgr_xmit_wait_log",
            "perfmgr_xmit_wait_threshold", "perfmgr_rm_nodes", "qos", "qos_policy_file", "qos_max_vls", "qos_high_limit",
            "qos_vlarb_high", "qos_vlarb_low", "qos_sl2vl", "qos_ca_max_vls", "qos_ca_high_limit", "qos_ca_vlarb_high",
            "qos_ca_vlarb_low", "qos_ca_sl2vl", "qos_sw0_max_vls", "qos_sw0_high_limit", "qos_sw0_vlarb_high",
            "qos_sw0_vlarb_low", "qos_sw0_sl2vl", "qos_swe_max_vls", "qos_swe_high_limit", "qos_swe_vlarb_high",
            "qos_swe_vlarb_low", "qos_swe_sl2vl", "qos_rtr_max_vls", "qos_rtr_high_limit", "qos_rtr_vlarb_high",
            "qos_rtr_vlarb_low", "qos_rtr_sl2vl");
    private static final String IMPLEMENTED_TEXT = "sm_key, sa_key, lmc, max_op_vls, subnet_timeout, "
            + "partition_config_file, sweep_interval, reassign_lids, routing_engine, root_guid_file, sm_priority, "
            + "sminfo_polling_timeout, polling_retry_number, max_wire_smps, transaction_timeout, "
            + "transaction_retries, m_key, m_key_lease_period, m_key_protection_level, qos, qos_policy_file and the qos_ options of each port class, perfmgr and its perfmgr_ options "
            + "but perfmgr_redir";

    /** -F's file as read (null before {@link #config} or without -F). */
    private OpensmConf conf;

    /**
     * The partitions file read (-P, else opensm.conf's partition_config_file when that file exists), or null:
     * every port in Default; bad input is a {@link FormatException} (file:line).
     */
    PartitionsConf partitions() {
        if (partitionsFile != null) {
            return PartitionsConf.read(partitionsFile);
        }
        OpensmConf.Entry e = conf == null ? null : conf.get("partition_config_file");
        if (e == null || e.valueOrNull() == null || !java.nio.file.Files.exists(Path.of(e.value()))) {
            return null;
        }
        return PartitionsConf.read(Path.of(e.value()));
    }

    /** opensm.conf's setting of {@code name} when the command line did not give {@code cliOption}; else null. */
    OpensmConf.Entry fromFile(String name, String cliOption) {
        if (conf == null) {
            return null;
        }
        if (cliOption != null && mixee != null && mixee.findOption(cliOption) != null
                && mixee.commandLine().getParseResult() != null
                && mixee.commandLine().getParseResult().hasMatchedOption(cliOption)) {
            return null;
        }
        return conf.get(name);
    }

    /** opensm.conf's number for {@code name} (in [min, max]) when the command line did not give it; else {@code cli}. */
    long number(String name, String cliOption, long min, long max, long cli) {
        OpensmConf.Entry e = fromFile(name, cliOption);
        return e == null ? cli : conf.number(e, min, max);
    }

    /** The key that makes an SA query trusted: opensm.conf's sa_key, else OpenSM's default, 1. */
    long saKey() {
        OpensmConf.Entry e = fromFile("sa_key", null);
        return e == null ? 1 : conf.number(e, 0, -1);
    }

    /**
     * The M_Key, its protect level and lease: the command line's, else opensm.conf's m_key,
     * m_key_protection_level and m_key_lease_period, else none (OpenSM's defaults).
     */
    org.ibtwin.sm.MKeys mkeys() {
        long key = mKey != null ? parseKey("--m_key", mKey) : number("m_key", null, 0, -1, 0);
        int protect = mKeyProtect != null ? mKeyProtect : (int) number("m_key_protection_level", null, 0, 3, 0);
        int lease = mKeyLease != null ? mKeyLease : (int) number("m_key_lease_period", null, 0, 0xffff, 0);
        if (protect < 0 || protect > 3) {
            throw new IllegalArgumentException("--m_key_protection_level must be 0..3, not " + protect);
        }
        if (lease < 0 || lease > 0xffff) {
            throw new IllegalArgumentException("--m_key_lease_period must be 0..65535 seconds, not " + lease);
        }
        return new org.ibtwin.sm.MKeys(key, protect, lease);
    }

    private static long parseKey(String option, String s) {
        String t = s.strip().toLowerCase(java.util.Locale.ROOT);
        try {
            return t.startsWith("0x") ? Long.parseUnsignedLong(t.substring(2), 16) : Long.parseUnsignedLong(t);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " " + s + ": not a 64-bit key (like 0x00000000000000ff)");
        }
    }

    /** -c: writes ibtwin's default opensm.conf to {@code createConfig}. */
    void writeDefaultConfig(PrintWriter out) {
        List<OpensmConf.Option> options = new java.util.ArrayList<>();
        SmConfig d = SmConfig.defaults();
        options.add(opt("sm_key", "0x0000000000000001", "SM_Key in SMInfo: SMs with another key ignore each other"));
        options.add(opt("sa_key", "0x0000000000000001", "The SM_Key of a trusted SA query (MCMemberRecords of every "
                + "member)"));
        options.add(opt("lmc", Integer.toString(d.lmc()), "LIDs per end port as a power of two (0..7)"));
        options.add(opt("max_op_vls", Integer.toString(d.maxOpVls()), "The most operational VLs to set (1: VL0, "
                + "2: VL0-1, 3: VL0-3, 4: VL0-7, 5: VL0-14)"));
        options.add(opt("subnet_timeout", Integer.toString(d.subnetTimeout()), "PortInfo SubnetTimeout of the "
                + "end ports (4.096 us x 2^value)"));
        options.add(opt("partition_config_file", "/etc/opensm/partitions.conf", "The partitions (read when the "
                + "file exists; otherwise every port is a full member of Default)"));
        options.add(opt("sweep_interval", Long.toString(d.sweepInterval().toSeconds()), "Seconds between light "
                + "sweeps; 0: none after the first"));
        options.add(opt("reassign_lids", "FALSE", "Give every port a new LID"));
        options.add(opt("routing_engine", "(null)", "Routing engines to try in order, comma separated: minhop, "
                + "updn, ftree, dor, dfsssp; (null): minhop"));
        options.add(opt("root_guid_file", "(null)", "Switch GUIDs for updn's roots, one a line; (null): found"));
        options.add(opt("sm_priority", Integer.toString(d.priority()), "SMInfo priority (0..15)"));
        options.add(opt("sminfo_polling_timeout", "10000", "A standby polls the master's SMInfo every so many ms"));
        options.add(opt("polling_retry_number", "4", "Unanswered polls in a row before a standby takes over"));
        options.add(opt("max_wire_smps", Integer.toString(d.maxSmps()), "SMPs in flight at once"));
        options.add(opt("transaction_timeout", Long.toString(d.timeout().toMillis()), "Milliseconds each SMP "
                + "attempt waits for its answer"));
        options.add(opt("transaction_retries", Integer.toString(d.retries()), "Attempts after the first"));
        options.add(opt("m_key", "0x0000000000000000", "M_Key set on every port the SM manages and carried in "
                + "every SMP; 0: none"));
        options.add(opt("m_key_lease_period", "0", "Seconds a port stays protected after a refused SMP with no SMP "
                + "carrying the M_Key; 0: for ever"));
        options.add(opt("m_key_protection_level", "0", "M_KeyProtectBits (0: a Get shows the M_Key, 1: hides it, "
                + "2 and 3: a Get without it fails)"));
        options.add(opt("perfmgr", "FALSE", "The performance manager (--perfmgr)"));
        options.add(opt("perfmgr_sweep_time_s", "180", "Seconds between PerfMgr sweeps"));
        options.add(opt("perfmgr_max_outstanding_queries", "500", "PMA queries in flight at once"));
        options.add(opt("perfmgr_ignore_cas", "FALSE", "Leave CAs' counters alone"));
        options.add(opt("perfmgr_log_errors", "TRUE", "Log every rise of an error counter (ERR 5431..543C)"));
        options.add(opt("perfmgr_query_cpi", "TRUE", "Read each PMA's ClassPortInfo (needed for "
                + "PortCountersExtended)"));
        options.add(opt("perfmgr_xmit_wait_log", "FALSE", "Log XmitWait rises of the threshold or more (ERR 543D)"));
        options.add(opt("perfmgr_xmit_wait_threshold", "65535", "The XmitWait rise that is logged"));
        options.add(opt("perfmgr_rm_nodes", "TRUE", "Forget nodes that left the subnet"));
        options.add(opt("qos", "FALSE", "QoS (-Q): SL2VL, VL arbitration and VLHighLimit on every port"));
        options.add(opt("qos_policy_file", "/etc/opensm/qos-policy.conf", "With QoS: the PathRecords' SLs and limits "
                + "from this policy (read when the file exists)"));
        for (String prefix : List.of("qos", "qos_ca", "qos_sw0", "qos_swe", "qos_rtr")) {
            String whose = prefix.equals("qos") ? "every port class (the qos_ca_, qos_sw0_, qos_swe_ and qos_rtr_ "
                    + "options override them for CAs, switch port 0, switch external ports, routers)"
                    : prefix.substring(4) + " ports (else the qos_ option)";
            options.add(opt(prefix + "_max_vls", "0", "QoS for " + whose + ": max VLs (0: OpenSM's default, 15)"));
            options.add(opt(prefix + "_high_limit", "-1", "VLHighLimit (-1: the default, 0)"));
            options.add(opt(prefix + "_vlarb_high", "(null)", "High-priority VL arbitration, VL:weight,... "
                    + "((null): 0:4,1:0,2:0,...,14:0)"));
            options.add(opt(prefix + "_vlarb_low", "(null)", "Low-priority VL arbitration ((null): "
                    + "0:0,1:4,2:4,...,14:4)"));
            options.add(opt(prefix + "_sl2vl", "(null)", "The VL of each SL 0..15 ((null): 0,1,2,...,14,7)"));
        }
        String text = OpensmConf.write("ibtwin's subnet manager: the opensm.conf options it implements, at its "
                + "defaults (OpenSM's).\nibtwin sm -F FILE and ibtwin up -F FILE read this file, or one written by "
                + "opensm -c.", options);
        try {
            java.nio.file.Files.writeString(createConfig, text);
        } catch (java.nio.file.NoSuchFileException e) {
            throw new IllegalArgumentException("-c " + createConfig + ": cannot write: no such directory");
        } catch (java.nio.file.AccessDeniedException e) {
            throw new IllegalArgumentException("-c " + createConfig + ": cannot write: permission denied");
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("-c " + createConfig + ": cannot write: " + e.getMessage());
        }
        out.println("Created config file template '" + createConfig + "'.");
    }

    private static OpensmConf.Option opt(String name, String value, String comment) {
        return new OpensmConf.Option(List.of(comment), name, value);
    }

    /**
     * Reads -F's opensm.conf: every option ibtwin implements applies where the command line does not give it;
     * each option OpenSM knows but ibtwin does not use, set to another value than OpenSM's default, is one warning
     * line (file:line), and so is each name OpenSM does not know; the unused ones at their defaults are named
     * together in one note line.
     */
    private void readConfig(PrintWriter err, String command) {
        if (config == null || conf != null) {
            return;
        }
        conf = OpensmConf.read(config);
        List<String> atDefault = new java.util.ArrayList<>();
        for (OpensmConf.Entry e : conf.entries()) {
            if (IMPLEMENTED.contains(e.name())) {
                continue;
            }
            String dflt = OpensmConf.opensmDefault(e.name());
            if (dflt == null) {
                err.println(command + ": warning: " + conf.file() + ":" + e.line() + ": unknown option " + e.name()
                        + "; ignored");
            } else if (dflt.equalsIgnoreCase(e.value())) {
                atDefault.add(e.name());
            } else {
                err.println(command + ": warning: " + conf.file() + ":" + e.line() + ": " + e.name() + " "
                        + e.value() + ": not supported by ibtwin; ignored");
            }
        }
        if (!atDefault.isEmpty()) {
            err.println(command + ": note: " + conf.file() + ": " + atDefault.size() + " options at OpenSM's "
                    + "defaults that ibtwin does not use: " + String.join(", ", atDefault));
        }
    }

    /**
     * Hands the partitions read by {@link #partitions()} to the SM, its warnings to {@code err}: with --strict, a
     * file with problems is refused (one line, exit 2), else they are warned (by the SM's log) and it is applied.
     */
    void apply(SubnetManager manager, PartitionsConf conf, PrintWriter err, String command) {
        if (conf != null) {
            conf.warnings().forEach(w -> err.println(command + ": warning: " + w));
            err.flush();
        }
        List<String> problems = manager.partitions(conf, strict);
        if (strict && !problems.isEmpty()) {
            throw new IllegalArgumentException("--strict: refusing " + String.join("; ", problems));
        }
        org.ibtwin.sm.QosConfig q = qos(err, command);
        manager.qos(q);
        manager.sa().qosPolicy(q == null ? null : qosPolicy(err, command, conf));
        org.ibtwin.sm.PerfManager.Options pm = perfmgrOptions(err, command);
        if (pm != null) {
            perfManager = new org.ibtwin.sm.PerfManager(manager, pm);
            perfManager.start();
        }
    }

    /**
     * The PerfMgr options of --perfmgr, --perfmgr_sweep_time_s and opensm.conf's perfmgr* (null: PerfMgr off): a
     * bad value is one warning line (file:line) and OpenSM's default is used, as OpenSM does.
     */
    org.ibtwin.sm.PerfManager.Options perfmgrOptions(PrintWriter err, String command) {
        org.ibtwin.sm.PerfManager.Options d = org.ibtwin.sm.PerfManager.Options.defaults();
        boolean on = perfmgr || bool("perfmgr", "--perfmgr", false, err, command);
        if (!on) {
            return null;
        }
        long sweep = perfmgrSweep != null ? perfmgrSweep : number("perfmgr_sweep_time_s", 1, Integer.MAX_VALUE,
                d.sweep().toSeconds(), err, command);
        if (sweep < 1) {
            throw new IllegalArgumentException("--perfmgr_sweep_time_s must be at least 1 s");
        }
        int outstanding = (int) number("perfmgr_max_outstanding_queries", 1, 65535, d.maxOutstanding(), err,
                command);
        long threshold = number("perfmgr_xmit_wait_threshold", 0, 0xffffffffL, d.xmitWaitThreshold(), err, command);
        if (perfmgrDump != null) {
            FileArgs.notDirectory("--perfmgr-dump", perfmgrDump);
        }
        return new org.ibtwin.sm.PerfManager.Options(Duration.ofSeconds(sweep), outstanding,
                bool("perfmgr_ignore_cas", null, d.ignoreCas(), err, command),
                bool("perfmgr_log_errors", null, d.logErrors(), err, command),
                bool("perfmgr_query_cpi", null, d.queryCpi(), err, command),
                bool("perfmgr_xmit_wait_log", null, d.xmitWaitLog(), err, command), threshold,
                bool("perfmgr_rm_nodes", null, d.rmNodes(), err, command), perfmgrDump);
    }

    /** opensm.conf's TRUE/FALSE for {@code name}, or {@code dflt}; a bad value warned (file:line), the default used. */
    private boolean bool(String name, String cliOption, boolean dflt, PrintWriter err, String command) {
        OpensmConf.Entry e = fromFile(name, cliOption);
        if (e == null) {
            return dflt;
        }
        try {
            return conf.bool(e);
        } catch (FormatException x) {
            err.println(command + ": warning: " + x.getMessage() + "; using the default, " + (dflt ? "TRUE"
                    : "FALSE"));
            err.flush();
            return dflt;
        }
    }

    /** opensm.conf's number for {@code name} in [min, max], or {@code dflt}; a bad value warned, the default used. */
    private long number(String name, long min, long max, long dflt, PrintWriter err, String command) {
        OpensmConf.Entry e = fromFile(name, null);
        if (e == null) {
            return dflt;
        }
        try {
            return conf.number(e, min, max);
        } catch (FormatException x) {
            err.println(command + ": warning: " + x.getMessage() + "; using the default, " + dflt);
            err.flush();
            return dflt;
        }
    }

    /**
     * The console's {@code perfmgr [print_counters|print_errors [node [port]] | clear_counters | sweep]}, as
     * OpenSM's console has it: the text to print.
     */
    String perfmgrCommand(String line) {
        if (perfManager == null) {
            return "PerfMgr is not running (start with --perfmgr, or perfmgr TRUE in opensm.conf)\n";
        }
        String[] w = line.strip().split("\\s+");
        String sub = w.length > 1 ? w[1].toLowerCase(java.util.Locale.ROOT) : "";
        String node = w.length > 2 ? w[2] : null;
        String port = w.length > 3 ? w[3] : null;
        return switch (sub) {
            case "" -> perfManager.status();
            case "print_counters", "pc" -> perfManager.printCounters(node, port, false);
            case "print_errors", "pe" -> perfManager.printCounters(node, port, true);
            case "clear_counters" -> {
                perfManager.clearCounters();
                yield "PerfMgr counters cleared\n";
            }
            case "sweep" -> {
                perfManager.requestSweep();
                yield "PerfMgr sweep requested\n";
            }
            default -> "perfmgr: unknown subcommand \"" + w[1] + "\" (print_counters, print_errors, "
                    + "clear_counters, sweep)\n";
        };
    }

    /**
     * QoS as -Q and opensm.conf's qos and qos_* options ask (null: off): a bad qos_* value is one warning line
     * (file:line) and that option is left out (its class falls back to the general option, then OpenSM's default).
     */
    org.ibtwin.sm.QosConfig qos(PrintWriter err, String command) {
        boolean on = qos;
        java.util.Map<String, String> options = new java.util.HashMap<>();
        if (conf != null) {
            OpensmConf.Entry e = fromFile("qos", "--qos");
            if (e != null) {
                try {
                    on |= conf.bool(e);
                } catch (FormatException x) {
                    err.println(command + ": warning: " + x.getMessage() + "; QoS off");
                }
            }
            for (OpensmConf.Entry o : conf.entries()) {
                if (!o.name().startsWith("qos_") || !IMPLEMENTED.contains(o.name())) {
                    continue;
                }
                String problem = org.ibtwin.sm.QosConfig.check(o.name(), o.value());
                if (problem != null) {
                    err.println(command + ": warning: " + conf.file() + ":" + o.line() + ": " + problem + "; ignored");
                } else {
                    options.put(o.name(), o.value());
                }
            }
            err.flush();
        }
        return on ? org.ibtwin.sm.QosConfig.of(options) : null;
    }

    /**
     * The QoS policy of -Y, else of opensm.conf's qos_policy_file when that file exists (one warning when it does
     * not, unless it is OpenSM's default path), or null; its warnings one line each, bad syntax a
     * {@link FormatException} (file:line, exit 2), as is a port group's partition the partitions file
     * {@code partitions} (null: none, the Default partition alone) does not name.
     */
    org.ibtwin.sm.sa.QosPolicy qosPolicy(PrintWriter err, String command, PartitionsConf partitions) {
        Path file = qosPolicyFile;
        if (file == null) {
            OpensmConf.Entry e = fromFile("qos_policy_file", "--qos_policy_file");
            if (e == null || e.value().equals("(null)") || e.value().isBlank()) {
                return null;
            }
            file = Path.of(e.value());
            if (!java.nio.file.Files.isRegularFile(file)) {
                if (!e.value().equals(OpensmConf.opensmDefault("qos_policy_file"))) {
                    err.println(command + ": warning: " + conf.file() + ":" + e.line() + ": qos_policy_file "
                            + e.value() + ": no such file; no QoS policy");
                    err.flush();
                }
                return null;
            }
        }
        org.ibtwin.format.QosPolicyFile f = org.ibtwin.format.QosPolicyFile.read(file);
        f.warnings().forEach(w -> err.println(command + ": warning: " + w));
        err.flush();
        if (partitions == null) {
            return org.ibtwin.sm.sa.QosPolicy.of(f);
        }
        java.util.Map<String, Integer> names = new java.util.HashMap<>(java.util.Map.of("Default", 0x7fff));
        java.util.Map<String, Integer> keys = partitions.pkeys();
        for (PartitionsConf.Partition p : partitions.partitions()) {
            Integer k = keys.get(p.key());
            if (k != null) {
                names.put(p.name(), k);
            }
        }
        return org.ibtwin.sm.sa.QosPolicy.of(f, names);
    }

    /**
     * Rereads the partitions file (SIGHUP, the console's reread) and asks for a heavy sweep, as OpenSM does on
     * SIGHUP; what happened is one line to {@code out} (bad file, --strict refusal: the partitions stay).
     */
    String reread(SubnetManager manager, PrintWriter err, String command) {
        if (partitionsFile == null) {
            manager.requestSweep();
            return "no partitions file (-P) to reread; heavy sweep requested";
        }
        PartitionsConf conf;
        try {
            conf = PartitionsConf.read(partitionsFile);
        } catch (FormatException e) {
            return e.getMessage() + "; the partitions stay as they were";
        }
        conf.warnings().forEach(w -> err.println(command + ": warning: " + w));
        List<String> problems = manager.partitions(conf, strict);
        if (strict && !problems.isEmpty()) {
            return "--strict: refusing " + String.join("; ", problems) + "; the partitions stay as they were";
        }
        manager.requestSweep();
        return "partitions reread from " + partitionsFile + " (" + conf.partitions().size() + " partitions); heavy "
                + "sweep requested";
    }

    /** The configuration these options and {@code sweep} (the sweep interval) make; warnings go to {@code err}. */
    SmConfig config(Duration sweep, int priority, PrintWriter err, String command) {
        if (createConfig != null) {
            throw new IllegalArgumentException("-c/--create-config: only ibtwin sm writes opensm.conf (ibtwin sm -c "
                    + createConfig + ")");
        }
        readConfig(err, command);
        OpensmConf.Entry e;
        if ((e = fromFile("sweep_interval", "--sweep")) != null) {
            sweep = Duration.ofSeconds(conf.number(e, 0, Integer.MAX_VALUE));
        }
        if ((e = fromFile("sm_priority", "--priority")) != null) {
            priority = (int) conf.number(e, 0, 15);
        }
        if ((e = fromFile("lmc", "--lmc")) != null) {
            lmc = (int) conf.number(e, 0, 7);
        }
        if ((e = fromFile("max_wire_smps", "--maxsmps")) != null) {
            maxSmps = (int) conf.number(e, 1, 65535);
        }
        if ((e = fromFile("transaction_timeout", "--timeout")) != null) {
            timeoutMs = (int) conf.number(e, 1, Integer.MAX_VALUE);
        }
        if ((e = fromFile("transaction_retries", "--retries")) != null) {
            retries = (int) conf.number(e, 0, 1000);
        }
        if ((e = fromFile("reassign_lids", "--reassign_lids")) != null) {
            reassignLids |= conf.bool(e);
        }
        if ((e = fromFile("root_guid_file", "--root_guid_file")) != null && e.valueOrNull() != null) {
            rootGuidFile = Path.of(e.value());
        }
        if ((e = fromFile("routing_engine", "--routing_engine")) != null && e.valueOrNull() != null) {
            try {
                RoutingEngines.chain(e.value(), RoutingEngines.Options.none());
            } catch (IllegalArgumentException x) {
                throw new FormatException(conf.file(), e.line(), "routing_engine: " + x.getMessage());
            }
            engines = e.value();
        }
        OpensmConf.Entry pc = fromFile("partition_config_file", "--Pconfig");
        if (pc != null && pc.valueOrNull() != null && !java.nio.file.Files.exists(Path.of(pc.value()))
                && !pc.value().equals(OpensmConf.opensmDefault("partition_config_file"))) {
            err.println(command + ": warning: " + conf.file() + ":" + pc.line() + ": partition_config_file "
                    + pc.value() + ": no such file; every port a full member of Default");
        }
        if (timeoutMs < 1) {
            throw new IllegalArgumentException("--timeout must be at least 1 ms");
        }
        if (guid2lid != null) {
            FileArgs.notDirectory("--guid2lid", guid2lid);
        }
        String chain = engines == null ? "minhop" : engines;
        RoutingEngines.chain(chain, RoutingEngines.Options.none());   // unknown names: exit 2 before anything runs
        List<Long> roots = List.of();
        if (rootGuidFile != null) {
            try {
                roots = GuidListFile.read(rootGuidFile);
            } catch (FormatException x) {
                err.println(command + ": warning: " + x.getMessage() + "; updn finds its roots itself");
            }
        }
        SmConfig c = SmConfig.defaults().withMaxSmps(maxSmps).withTimeout(Duration.ofMillis(timeoutMs), retries)
                .withLmc(lmc).withRouting(chain, roots).withGuid2lid(guid2lid).withReassignLids(reassignLids)
                .withPriority(priority).withSweepInterval(sweep).withCheckRoutes(checkRoutes);
        int vls = c.maxOpVls();
        int timeout = c.subnetTimeout();
        if ((e = fromFile("max_op_vls", null)) != null) {
            vls = (int) conf.number(e, 1, 5);
        }
        if ((e = fromFile("subnet_timeout", null)) != null) {
            timeout = (int) conf.number(e, 0, 31);
        }
        return new SmConfig(c.maxSmps(), c.timeout(), c.retries(), c.lmc(), c.routingEngines(), c.rootGuids(),
                c.guid2lid(), c.priority(), c.reassignLids(), vls, timeout, c.sweepInterval(), c.checkRoutes());
    }
}
