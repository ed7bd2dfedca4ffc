package org.ibtwin.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.ibtwin.sm.SmConfig;
import org.ibtwin.sm.SmDumps;
import org.ibtwin.sm.SmStateMachine;
import org.ibtwin.sm.SubnetManager;
import org.ibtwin.sm.SweepReport;
import org.ibtwin.sm.Topology;
import org.ibtwin.transport.IbsimClient;
import org.ibtwin.transport.LocalPort;
import org.ibtwin.transport.MadTransportException;
import org.ibtwin.transport.UmadTransport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ibtwin sm}: ibtwin's subnet manager as a client of a running ibsim in remote mode ({@code ibsim -r}) or of
 * {@code ibtwin sim}/{@code ibtwin up}'s ibsim endpoint, attached as the port's SM, run by its {@link SmStateMachine}
 * (DISCOVERING, then MASTER or STANDBY). Options are opensm's where they overlap (and its opensm.conf names for
 * sminfo_polling_timeout, polling_retry_number, sm_key); {@code -o} discovers once and exits 0 when the subnet came
 * up, or went STANDBY under another master.
 */
@Command(name = "sm", mixinStandardHelpOptions = true,
        description = "Run ibtwin's subnet manager at a running `ibsim -r` (or ibtwin sim): LIDs, routes, ports up.",
        footer = {"", "Attaches at --ibsim HOST:PORT (or @NAME, an ibsim in local mode), else "
                + "IBSIM_SERVER_NAME/IBSIM_SERVER_PORT (127.0.0.1:7070), else IBSIM_SOCKNAME, at the node --sim-host "
                + "or SIM_HOST names (else ibsim's first node), or at the port -g names."})
public final class SmCommand extends CliCommand {

    @Mixin
    SmOptions sm;

    @Option(names = "--ibsim", paramLabel = "HOST:PORT", description = "The ibsim to attach to (@NAME: one in local "
            + "mode).")
    String ibsim;

    @Option(names = "--sim-host", paramLabel = "NODE", description = "The node to attach at (default: SIM_HOST).")
    String simHost;

    @Option(names = "--umad", paramLabel = "CA[:PORT]", arity = "0..1", fallbackValue = "",
            description = "Run on this host's HCA through the kernel's user_mad interface (the default when sysfs "
                    + "shows an HCA and no ibsim is named).")
    String umad;

    @Option(names = {"-g", "--guid"}, paramLabel = "<port guid>",
            description = "Attach at the port with this GUID (found by a discovery from the default node).")
    String guid;

    @Option(names = {"-o", "--once"}, description = "One sweep, then exit (0 when the subnet came up).")
    boolean once;

    @Option(names = {"-p", "--priority"}, paramLabel = "<0-15>", defaultValue = "0",
            description = "SMInfo priority (default: ${DEFAULT-VALUE}).")
    int priority;

    @Option(names = {"-s", "--sweep"}, paramLabel = "<seconds>", defaultValue = "10",
            description = "Seconds between light sweeps; 0: no sweeping after the first (default: ${DEFAULT-VALUE}).")
    int sweepSeconds;

    @Option(names = {"-q", "--quiet"}, description = "Only warnings, and SUBNET UP or NOT UP at the end.")
    boolean quiet;

    @Option(names = "--sminfo_polling_timeout", paramLabel = "<ms>", defaultValue = "10000",
            description = "A standby polls the master's SMInfo this often (default: ${DEFAULT-VALUE}).")
    int pollingMs;

    @Option(names = "--polling_retry_number", paramLabel = "<n>", defaultValue = "4",
            description = "Unanswered polls in a row before a standby takes over (default: ${DEFAULT-VALUE}).")
    int pollingRetries;

    @Option(names = "--sm_key", paramLabel = "<key>", defaultValue = "0x0000000000000001",
            description = "SM_Key (64-bit): SMs with another key ignore each other (default: OpenSM's, "
                    + "${DEFAULT-VALUE}).")
    String smKey;

    @Option(names = "--dump-dir", paramLabel = "<dir>",
            description = "Write OpenSM's dumps there after each sweep as master: " + SmDumps.SUBNET_LST + ", "
                    + SmDumps.LFTS + ", " + SmDumps.BALANCE + ".")
    java.nio.file.Path dumpDir;

    /** The environment; tests replace it. */
    java.util.Map<String, String> env = System.getenv();

    /** Whether this host shows an HCA (null: sysfs says); tests replace it. */
    java.util.function.BooleanSupplier hcaHere;

    @Override
    public Integer call() {
        PrintWriter out = out();
        PrintWriter err = err();
        if (sm.createConfig != null) {
            sm.writeDefaultConfig(out);
            return 0;
        }
        if (sweepSeconds < 0) {
            throw new IllegalArgumentException("--sweep must be 0 or more seconds");
        }
        if (priority < 0 || priority > 15) {
            throw new IllegalArgumentException("-p/--priority must be 0..15, not " + priority);
        }
        SmConfig cfg = sm.config(Duration.ofSeconds(sweepSeconds), priority, err, "ibtwin sm");
        org.ibtwin.sm.MKeys mkeys = sm.mkeys();
        pollingMs = (int) sm.number("sminfo_polling_timeout", "--sminfo_polling_timeout", 1, Integer.MAX_VALUE,
                pollingMs);
        pollingRetries = (int) sm.number("polling_retry_number", "--polling_retry_number", 1, Integer.MAX_VALUE,
                pollingRetries);
        long fileKey = sm.number("sm_key", "--sm_key", 0, -1, parseKey(smKey));
        if (pollingMs < 1) {
            throw new IllegalArgumentException("--sminfo_polling_timeout must be at least 1 ms");
        }
        if (pollingRetries < 1) {
            throw new IllegalArgumentException("--polling_retry_number must be at least 1");
        }
        SmStateMachine.Polling polling = new SmStateMachine.Polling(Duration.ofMillis(pollingMs), pollingRetries);
        long key = fileKey;
        var partitions = sm.partitions();
        TransportOptions where = new TransportOptions();
        where.ibsim = ibsim;
        where.simHost = simHost;
        where.umad = umad;
        where.env = env;
        if (hcaHere != null) {
            where.hcaHere = hcaHere;
        }
        TransportOptions.Target target = where.target();
        if (target.isUmad()) {
            return onUmad(target, cfg, polling, key, partitions, mkeys, out, err);
        }
        if (target.isInProcess()) {   // the SM manages a fabric outside it: ibsim's default address
            target = new TransportOptions.Target("127.0.0.1", 7070, target.simHost());
        }
        Long wanted = guid == null ? null : parseGuid(guid);
        // attached without IsSM: the bit goes on once the SM answers SMInfo (another SM sweeping on the trap the bit
        // sends must find an answer there, OpenSM waits for one)
        IbsimClient client = connect(target, target.simHost(), false);
        if (wanted != null && client.localPort().portGuid() != wanted) {
            String node;
            try {
                node = nodeOfPort(client, cfg, wanted);
            } finally {
                client.close();
            }
            client = connect(target, node, false);
            if (client.localPort().portGuid() != wanted) {
                client.close();
                throw new IllegalArgumentException(String.format("-g 0x%016x: attaching at node \"%s\" gave port "
                        + "GUID 0x%016x; ibsim attaches a client at a node's first port only", wanted, node,
                        client.localPort().portGuid()));
            }
        }
        try (IbsimClient t = client) {
            refuseAnotherSmHere(t, target);
            return run(t, target.address() + " node \"" + t.attachedNode() + "\"", t::setIsSm, cfg, polling, key,
                    partitions, mkeys, out, err);
        }
    }

    /** {@code ibtwin sm} on this host's HCA, through umad; -g picks the port of that GUID. */
    private int onUmad(TransportOptions.Target target, SmConfig cfg, SmStateMachine.Polling polling, long key,
                       org.ibtwin.format.PartitionsConf partitions, org.ibtwin.sm.MKeys mkeys, PrintWriter out,
                       PrintWriter err) {
        TransportOptions.Target at = target;
        if (guid != null) {
            long wanted = parseGuid(guid);
            at = TransportOptions.Target.umadPortOfGuid(wanted);
        }
        UmadTransport t;
        try {
            t = at.openUmad(true);
        } catch (org.ibtwin.transport.MadTransportException | IllegalArgumentException e) {
            throw new IllegalArgumentException("cannot attach as SM to " + at + ": " + e.getMessage());
        }
        try (t) {
            if (t.portHasSm()) {
                throw new IllegalArgumentException(String.format("another SM already runs at %s port %d (its "
                        + "IsSM bit is set); attach this one at another port (--umad CA:PORT or -g GUID)",
                        t.port().ca(), t.port().port()));
            }
            return run(t, "umad " + t.port().ca(), t::setIsSm, cfg, polling, key, partitions, mkeys, out, err);
        }
    }

    /** The SM attached at {@code t} ({@code where} names it), its IsSM bit set by {@code isSm} once it answers. */
    private int run(org.ibtwin.transport.MadTransport t, String where, java.util.function.Consumer<Boolean> isSm,
                    SmConfig cfg, SmStateMachine.Polling polling, long key,
                    org.ibtwin.format.PartitionsConf partitions, org.ibtwin.sm.MKeys mkeys, PrintWriter out,
                    PrintWriter err) {
        SmLogPrinter log = new SmLogPrinter(out, err, "ibtwin sm", !quiet, true);
        {
            LocalPort lp = t.localPort();
            log.info(String.format("ibtwin sm: attached at %s port %d (port GUID 0x%016x), priority %d, "
                    + "routing %s", where, lp.portNumber(), lp.portGuid(),
                    cfg.priority(), cfg.routingEngines()));
            SubnetManager manager = new SubnetManager(t, cfg, log);
            manager.sa().saKey(sm.saKey());
            manager.mkeys(mkeys);
            SmStateMachine machine = new SmStateMachine(manager, polling, key, log);
            isSm.accept(true);
            if (dumpDir != null) {
                manager.onSweep(SmDumps.writer(dumpDir, log));
            }
            sm.apply(manager, partitions, err, "ibtwin sm");
            if (once) {
                SweepReport r = machine.once();
                if (r == null) {
                    SmStateMachine.RemoteSm m = machine.master();
                    if (quiet) {
                        out.println("STANDBY" + (m == null ? "" : ": master " + m));
                    }
                    out.flush();
                    manager.detach();
                    return 0;
                }
                if (quiet) {
                    out.println(r.subnetUp() ? "SUBNET UP" : "SUBNET NOT UP");
                }
                out.flush();
                manager.detach();
                return r.subnetUp() ? 0 : 1;
            }
            AtomicBoolean stop = new AtomicBoolean();
            Thread main = Thread.currentThread();
            Thread hook = new Thread(() -> {
                stop.set(true);
                try {
                    main.join(3000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            Runtime.getRuntime().addShutdownHook(hook);
            if (!Hangup.install(() -> log.info("ibtwin sm: SIGHUP: " + sm.reread(manager, err, "ibtwin sm")))) {
                log.warn("SIGHUP cannot be handled on this JVM; it ends the process");
            }
            machine.run(stop);
            manager.detach();
            return 0;
        }
    }

    /**
     * Refuses a port where an SM already runs (its PortInfo has IsSM set, as {@code ibtwin up}'s SM sets it): two
     * SMs on one port cannot tell each other apart by SMInfo and both go MASTER. Real OpenSM refuses the same way,
     * failing to bind the port's SM class; an admin wants this one at another port, where the two would elect a
     * master and this one would go STANDBY.
     */
    private static void refuseAnotherSmHere(IbsimClient t, TransportOptions.Target target) {
        if (t.refreshLocalPort() != null && t.portHasSm()) {
            throw new IllegalArgumentException(String.format("another SM already runs at %s node \"%s\" port %d "
                    + "(its IsSM bit is set); attach this one at another port (--sim-host NODE or -g GUID)",
                    target.address(), t.attachedNode(), t.localPort().portNumber()));
        }
    }

    private static IbsimClient connect(TransportOptions.Target target, String node, boolean sm) {
        try {
            return target.connect(node, sm);
        } catch (MadTransportException e) {
            throw new IllegalArgumentException("cannot attach as SM to " + target + (node == null ? ""
                    : " node \"" + node + "\"") + ": " + e.getMessage());
        }
    }

    /** The description of the node that has port GUID {@code wanted}, found by a discovery. */
    private static String nodeOfPort(IbsimClient client, SmConfig cfg, long wanted) {
        SubnetManager probe = new SubnetManager(client, cfg.withGuid2lid(null), null);
        Topology t = probe.discover();
        probe.detach();
        for (int g = 0; g < t.portSlots(); g++) {
            if (t.portGuid(g) == wanted && t.hasPortInfo(g)) {
                return t.description(t.portNode(g));
            }
        }
        throw new IllegalArgumentException(String.format("-g 0x%016x: no port with that GUID in the subnet "
                + "(%d nodes discovered)", wanted, t.nodeCount()));
    }

    private static long parseKey(String s) {
        String t = s.strip().toLowerCase(java.util.Locale.ROOT);
        try {
            return t.startsWith("0x") ? Long.parseUnsignedLong(t.substring(2), 16) : Long.parseUnsignedLong(t);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--sm_key " + s + ": not a 64-bit key (like 0x0000000000000001)");
        }
    }

    static long parseGuid(String s) {
        String t = s.strip().toLowerCase(java.util.Locale.ROOT);
        try {
            return t.startsWith("0x") ? Long.parseUnsignedLong(t.substring(2), 16) : Long.parseUnsignedLong(t, 16);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("-g " + s + ": not a port GUID (like 0x0002c90300000003)");
        }
    }
}
