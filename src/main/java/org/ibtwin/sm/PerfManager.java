package org.ibtwin.sm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.Field;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.MadHeaders;
import org.ibtwin.mad.MadStatus;
import org.ibtwin.mad.Methods;
import org.ibtwin.mad.MgmtClasses;
import org.ibtwin.mad.PerfAttributes;
import org.ibtwin.model.CounterTotals;
import org.ibtwin.transport.MadAddress;
import org.ibtwin.transport.MadTransport;

/**
 * The performance manager, as OpenSM's PerfMgr ({@code --perfmgr}): every sweep interval it reads the PMA of every
 * port of the subnet the SM knows (as master, or as standby from its own discovery; CAs left out with
 * {@code perfmgr_ignore_cas}): ClassPortInfo once per node ({@code perfmgr_query_cpi}), PortCounters for the error
 * counters, PortCountersExtended for the data counters where the CapabilityMask announces them, else PortCounters'
 * 32-bit ones. It keeps 64-bit running totals across resets ({@link CounterTotals}, the exporter's accumulator),
 * clears a port's PortCounters when one of them passes three quarters of its range (PortCountersExtended likewise),
 * and says so when someone else cleared them (OpenSM's ERR 540A and 540B). With {@code perfmgr_log_errors} every rise
 * of an error counter since the last reading is one line, OpenSM's ERR 5431..543C, and with
 * {@code perfmgr_xmit_wait_log} a rise of XmitWait by the threshold or more ERR 543D. {@link #printCounters} is
 * OpenSM's console {@code perfmgr print_counters}.
 */
public final class PerfManager {
    /**
     * The PerfMgr options, OpenSM's names and defaults.
     *
     * @param sweep             perfmgr_sweep_time_s (180 s)
     * @param maxOutstanding    perfmgr_max_outstanding_queries (500)
     * @param ignoreCas         perfmgr_ignore_cas (FALSE)
     * @param logErrors         perfmgr_log_errors (TRUE)
     * @param queryCpi          perfmgr_query_cpi (TRUE): without it, PortCountersExtended is not used
     * @param xmitWaitLog       perfmgr_xmit_wait_log (FALSE)
     * @param xmitWaitThreshold perfmgr_xmit_wait_threshold (65535)
     * @param rmNodes           perfmgr_rm_nodes (TRUE): forget nodes that left the subnet
     * @param dumpFile          where to write print_counters after every sweep (null: nowhere)
     */
    public record Options(Duration sweep, int maxOutstanding, boolean ignoreCas, boolean logErrors, boolean queryCpi,
                          boolean xmitWaitLog, long xmitWaitThreshold, boolean rmNodes, Path dumpFile) {
        public Options {
            if (sweep.isNegative() || sweep.isZero()) {
                throw new IllegalArgumentException("the PerfMgr sweep time must be at least 1 s");
            }
            if (maxOutstanding < 1) {
                throw new IllegalArgumentException("perfmgr_max_outstanding_queries must be at least 1");
            }
        }

        public static Options defaults() {
            return new Options(Duration.ofSeconds(180), 500, false, true, true, false, 0xffff, true, null);
        }
    }

    /** The counters in print_counters' order: the 13 error counters, then the 8 data counters. */
    private static final String[] FIELDS = {"SymbolErrorCounter", "LinkErrorRecoveryCounter", "LinkDownedCounter",
        "PortRcvErrors", "PortRcvRemotePhysicalErrors", "PortRcvSwitchRelayErrors", "PortXmitDiscards",
        "PortXmitConstraintErrors", "PortRcvConstraintErrors", "LocalLinkIntegrityErrors",
        "ExcessiveBufferOverrunErrors", "VL15Dropped", "PortXmitWait", "PortXmitData", "PortRcvData", "PortXmitPkts",
        "PortRcvPkts", "PortUnicastXmitPkts", "PortUnicastRcvPkts", "PortMulticastXmitPkts", "PortMulticastRcvPkts"};
    private static final String[] NAMES = {"symbol_err_cnt", "link_err_recover", "link_downed", "rcv_err",
        "rcv_rem_phys_err", "rcv_switch_relay_err", "xmit_discards", "xmit_constraint_err", "rcv_constraint_err",
        "link_integrity_err", "buf_overrun_err", "vl15_dropped", "xmit_wait", "xmit_data", "rcv_data", "xmit_pkts",
        "rcv_pkts", "unicast_xmit_pkts", "unicast_rcv_pkts", "multicast_xmit_pkts", "multicast_rcv_pkts"};
    /** OpenSM's error code for a rise of each error counter (ERR 5431 .. 543C); XmitWait's is 543D. */
    private static final String[] CODES = {"5431", "5432", "5433", "5434", "5435", "5436", "5437", "5438", "5439",
        "543A", "543B", "543C"};
    private static final int ERRORS = 13;
    private static final int XMIT_WAIT = 12;
    private static final int DATA = 13;
    private static final long ERROR_BITS = (1L << ERRORS) - 1;
    private static final DateTimeFormatter CTIME = DateTimeFormatter.ofPattern("EEE MMM ppd HH:mm:ss yyyy",
            Locale.ROOT);

    /** One port to read: its node, where it is, what it faces. */
    record Target(long guid, String name, boolean isSwitch, boolean esp0, int lid, int port, String remoteName,
                  long remoteGuid, int remotePort) {
    }

    /** A port's PerfMgr state (print_counters' times and totals). */
    private static final class PortState {
        long lastReset;
        long lastErrUpdate;
        long lastDataUpdate;
        long[] totals = new long[FIELDS.length];
        boolean seen;
    }

    private static final class NodeState {
        final String name;
        final boolean esp0;
        boolean active = true;
        Integer cap;
        final TreeMap<Integer, PortState> ports = new TreeMap<>();

        NodeState(String name, boolean esp0) {
            this.name = name;
            this.esp0 = esp0;
        }
    }

    private final SubnetManager sm;
    private final MadTransport transport;
    private final Options options;
    private final SmLog log;
    private final CounterTotals totals = new CounterTotals();
    private final TreeMap<Long, NodeState> nodes = new TreeMap<>(Long::compareUnsigned);
    private final AtomicBoolean sweepNow = new AtomicBoolean();
    private volatile long sweeps;
    private volatile String state = "Sleeping";
    private Thread thread;

    public PerfManager(SubnetManager sm, Options options) {
        this.sm = Objects.requireNonNull(sm, "sm");
        this.transport = sm.transport();
        this.options = Objects.requireNonNull(options, "options");
        this.log = sm.log();
    }

    public Options options() {
        return options;
    }

    /** PerfMgr sweeps so far. */
    public long sweeps() {
        return sweeps;
    }

    /** Starts sweeping every sweep time on a daemon thread of its own (the SM master or standby alike). */
    public synchronized void start() {
        if (thread != null) {
            return;
        }
        thread = new Thread(this::loop, "ibtwin-perfmgr");
        thread.setDaemon(true);
        thread.start();
    }

    /** Stops the thread (a sweep under way is finished first). */
    public synchronized void stop() {
        if (thread != null) {
            thread.interrupt();
            thread = null;
        }
    }

    /** Asks the thread for a sweep now. */
    public void requestSweep() {
        sweepNow.set(true);
        Thread t = thread;
        if (t != null) {
            synchronized (sweepNow) {
                sweepNow.notifyAll();
            }
        }
    }

    private void loop() {
        long interval = options.sweep().toMillis();
        while (!Thread.currentThread().isInterrupted()) {
            try {
                synchronized (sweepNow) {
                    long until = System.currentTimeMillis() + interval;
                    while (!sweepNow.get() && System.currentTimeMillis() < until) {
                        sweepNow.wait(Math.max(1, until - System.currentTimeMillis()));
                    }
                }
            } catch (InterruptedException e) {
                return;
            }
            sweepNow.set(false);
            try {
                sweep();
            } catch (RuntimeException e) {
                log.warn("PerfMgr: sweep failed: " + e);
            }
        }
    }

    /** The ports of the subnet the SM knows now (none before its first discovery). */
    List<Target> targets() {
        Topology t = sm.topology();
        List<Target> out = new ArrayList<>();
        if (t == null) {
            return out;
        }
        LidAssignment l = sm.lids();
        boolean assigned = l != null && l.lids().length == t.portSlots();
        for (int n = 0; n < t.nodeCount(); n++) {
            boolean sw = t.isSwitch(n);
            if (!sw && options.ignoreCas()) {
                continue;
            }
            boolean esp0 = sw && t.enhancedPort0(t.switchIndex(n));
            String name = t.description(n);
            for (int p = sw ? 0 : 1; p <= t.numPorts(n); p++) {
                int g = t.port(n, p);
                if (p == 0 && !esp0 || p != 0 && t.remote(g) < 0 || !t.hasPortInfo(sw ? t.port(n, 0) : g)) {
                    continue;
                }
                int end = sw ? t.port(n, 0) : g;
                // the LID this SM assigned in its last heavy sweep, else as discovered (a standby's view)
                int lid = assigned ? l.lid(end) : 0;
                lid = lid != 0 ? lid : t.lid(end);
                if (lid == 0) {
                    continue;
                }
                int r = t.remote(g);
                out.add(new Target(t.nodeGuid(n), name, sw, esp0, lid, p,
                        r < 0 ? null : t.description(t.portNode(r)), r < 0 ? 0 : t.nodeGuid(t.portNode(r)),
                        r < 0 ? 0 : t.portNumber(r)));
            }
        }
        return out;
    }

    /** One sweep over every port: read, total, clear near the limit, log. */
    public synchronized void sweep() {
        state = "Active";
        List<Target> targets = targets();
        java.util.Set<Long> present = new java.util.HashSet<>();
        for (Target t : targets) {
            present.add(t.guid());
            NodeState ns = nodes.computeIfAbsent(t.guid(), g -> new NodeState(t.name(), t.esp0()));
            ns.active = true;
        }
        for (var it = nodes.entrySet().iterator(); it.hasNext(); ) {
            var e = it.next();
            if (!present.contains(e.getKey())) {
                if (options.rmNodes()) {
                    it.remove();
                    totals.remove(e.getKey());
                } else {
                    e.getValue().active = false;
                }
            }
        }
        // ClassPortInfo of the nodes not asked yet, a window at a time
        Map<Long, Target> firstPort = new TreeMap<>(Long::compareUnsigned);
        for (Target t : targets) {
            firstPort.putIfAbsent(t.guid(), t);
        }
        List<Target> ask = new ArrayList<>();
        for (Target t : firstPort.values()) {
            if (options.queryCpi() && nodes.get(t.guid()).cap == null) {
                ask.add(t);
            }
        }
        List<byte[]> cpis = batch(ask, t -> pma(t.lid(), Methods.GET, AttributeIds.CLASS_PORT_INFO, t.port(), null));
        for (int i = 0; i < ask.size(); i++) {
            if (cpis.get(i) != null) {
                nodes.get(ask.get(i).guid()).cap = (int) PerfAttributes.CLASS_PORT_INFO.get(cpis.get(i), 0,
                        "CapabilityMask");
            }
        }
        List<byte[]> pcs = batch(targets, t -> pma(t.lid(), Methods.GET, AttributeIds.PORT_COUNTERS, t.port(), null));
        List<byte[]> pcxs = batch(targets, t -> ext(t) ? pma(t.lid(), Methods.GET,
                AttributeIds.PORT_COUNTERS_EXTENDED, t.port(), null) : CompletableFuture.completedFuture(null));
        long now = System.currentTimeMillis();
        for (int i = 0; i < targets.size(); i++) {
            if (pcs.get(i) != null) {
                reading(targets.get(i), pcs.get(i), pcxs.get(i), now);
            }
        }
        sweeps++;
        state = "Sleeping";
        if (options.dumpFile() != null) {
            try {
                Files.writeString(options.dumpFile(), printCounters(null, null, false));
            } catch (IOException e) {
                log.warn("PerfMgr: cannot write " + options.dumpFile() + ": " + e.getMessage());
            }
        }
    }

    private boolean ext(Target t) {
        Integer cap = nodes.get(t.guid()).cap;
        return cap != null && (cap & (PerfAttributes.CAP_EXT_WIDTH_SUPPORTED | PerfAttributes.CAP_EXT_WIDTH_NOIETF))
                != 0;
    }

    private boolean ietf(Target t) {
        Integer cap = nodes.get(t.guid()).cap;
        return cap != null && (cap & PerfAttributes.CAP_EXT_WIDTH_SUPPORTED) != 0;
    }

    private boolean xmitWaitSupported(Target t) {
        Integer cap = nodes.get(t.guid()).cap;
        return cap != null && (cap & PerfAttributes.CAP_PORT_XMIT_WAIT) != 0;
    }

    private void reading(Target t, byte[] pc, byte[] pcx, long now) {
        long[] values = new long[FIELDS.length];
        int[] bits = new int[FIELDS.length];
        Layout l = PerfAttributes.PORT_COUNTERS;
        boolean xw = xmitWaitSupported(t);
        for (int i = 0; i < DATA + 4; i++) {
            if (i == XMIT_WAIT && !xw) {
                continue;
            }
            boolean fromExt = i >= DATA && pcx != null;
            Layout src = fromExt ? PerfAttributes.PORT_COUNTERS_EXTENDED : l;
            Field f = src.field(FIELDS[i]);
            values[i] = src.get(fromExt ? pcx : pc, 0, f);
            bits[i] = f.bitLength();
        }
        if (pcx != null && ietf(t)) {
            Layout x = PerfAttributes.PORT_COUNTERS_EXTENDED;
            for (int i = DATA + 4; i < FIELDS.length; i++) {
                Field f = x.field(FIELDS[i]);
                values[i] = x.get(pcx, 0, f);
                bits[i] = 64;
            }
        }
        NodeState ns = nodes.get(t.guid());
        PortState ps = ns.ports.computeIfAbsent(t.port(), p -> new PortState());
        CounterTotals.Update u = totals.update(t.guid(), t.port(), values, bits);
        long[] before = ps.totals;
        boolean first = !ps.seen;
        if (first) {
            ps.seen = true;
            ps.lastReset = now;
        }
        if ((u.resetsSeen() & ERROR_BITS) != 0) {
            log.warn(String.format(Locale.ROOT, "PerfMgr: ERR 540A: Detected an out of band error clear on %s "
                    + "(0x%x) port %d", t.name(), t.guid(), t.port()));
            ps.lastReset = now;
        }
        if ((u.resetsSeen() & ~ERROR_BITS) != 0) {
            log.warn(String.format(Locale.ROOT, "PerfMgr: ERR 540B: Detected an out of band data counter clear on "
                    + "node %s (0x%x) port %d", t.name(), t.guid(), t.port()));
            ps.lastReset = now;
        }
        if (options.logErrors() && !first) {
            for (int i = 0; i < CODES.length; i++) {
                long d = u.totals()[i] - before[i];
                if (d > 0) {
                    log.warn(errorLine(CODES[i], FIELDS[i], d, t));
                }
            }
            long w = u.totals()[XMIT_WAIT] - before[XMIT_WAIT];
            if (options.xmitWaitLog() && w > 0 && w >= options.xmitWaitThreshold()) {
                log.warn(String.format(Locale.ROOT, "ERR 543D: XmitWait : %d : node \"%s\" (NodeGUID: 0x%x) : port "
                        + "%d", w, t.name(), t.guid(), t.port()));
            }
        }
        ps.totals = u.totals();
        ps.lastErrUpdate = now;
        ps.lastDataUpdate = now;
        clearNearLimit(t, values, bits, pcx != null, xw, ps, now);
    }

    private static String errorLine(String code, String field, long delta, Target t) {
        String where = String.format(Locale.ROOT, "node \"%s\" (NodeGUID: 0x%x) : port %d", t.name(), t.guid(),
                t.port());
        if (t.remoteName() != null) {
            where += String.format(Locale.ROOT, " connected to \"%s\" (NodeGUID: 0x%x) : port %d", t.remoteName(),
                    t.remoteGuid(), t.remotePort());
        }
        return "ERR " + code + ": " + field + " : " + delta + " : " + where;
    }

    /** Whether a counter of {@code bits} width has passed three quarters of its range (OpenSM's "close"). */
    static boolean nearLimit(long v, int bits) {
        if (bits == 4) {
            return v >= 10;
        }
        if (bits == 64) {
            return Long.compareUnsigned(v, -1L - (-1L >>> 2)) >= 0;
        }
        long max = (1L << bits) - 1;
        return v >= max - max / 4;
    }

    private void clearNearLimit(Target t, long[] values, int[] bits, boolean ext, boolean xw, PortState ps, long now) {
        boolean pcNear = false;
        for (int i = 0; i < DATA + 4; i++) {
            if (bits[i] > 0 && bits[i] < 64 && nearLimit(values[i], bits[i])) {
                pcNear = true;
            }
        }
        if (pcNear) {
            // a clear of the 32-bit data counters may clear the extended ones on some hardware: OpenSM leaves them
            int select = ext ? 0x0fff : 0xffff;
            byte[] data = new byte[MadHeaders.PERF_DATA_SIZE];
            Layout l = PerfAttributes.PORT_COUNTERS;
            l.set(data, 0, "CounterSelect", select);
            l.set(data, 0, "CounterSelect2", xw ? 1 : 0);
            long counters = ext ? 0xfffL : 0x1fffL;   // bit i: FIELDS[i] (error counters; 32-bit data without ext)
            if (!ext) {
                counters |= 0xfL << DATA;
            }
            if (!xw) {
                counters &= ~(1L << XMIT_WAIT);
            }
            log.info(String.format(Locale.ROOT, "PerfMgr: Counter overflow: %s (0x%x) port %d; clearing counters",
                    t.name(), t.guid(), t.port()));
            if (join(pma(t.lid(), Methods.SET, AttributeIds.PORT_COUNTERS, t.port(), data)) == null) {
                log.warn(String.format(Locale.ROOT, "PerfMgr: ERR 5411: Failed to send clear counters MAD for %s "
                        + "(0x%x) port %d", t.name(), t.guid(), t.port()));
            } else {
                totals.cleared(t.guid(), t.port(), counters);
                ps.lastReset = now;
            }
        }
        boolean pcxNear = false;
        for (int i = DATA; i < FIELDS.length; i++) {
            if (bits[i] == 64 && nearLimit(values[i], 64)) {
                pcxNear = true;
            }
        }
        if (pcxNear) {
            byte[] data = new byte[MadHeaders.PERF_DATA_SIZE];
            PerfAttributes.PORT_COUNTERS_EXTENDED.set(data, 0, "CounterSelect", 0xff);
            log.info(String.format(Locale.ROOT, "PerfMgr: PortCountersExtended overflow: %s (0x%x) port %d; "
                    + "clearing counters", t.name(), t.guid(), t.port()));
            if (join(pma(t.lid(), Methods.SET, AttributeIds.PORT_COUNTERS_EXTENDED, t.port(), data)) == null) {
                log.warn(String.format(Locale.ROOT, "PerfMgr: ERR 5419: Failed to send clear counters MAD for %s "
                        + "(0x%x) port %d", t.name(), t.guid(), t.port()));
            } else {
                totals.cleared64(t.guid(), t.port(), 0xffL << DATA);
                ps.lastReset = now;
            }
        }
    }

    /** Runs {@code send} for each target, at most {@code perfmgr_max_outstanding_queries} in flight. */
    private List<byte[]> batch(List<Target> targets, java.util.function.Function<Target, CompletableFuture<byte[]>>
            send) {
        List<byte[]> out = new ArrayList<>(targets.size());
        int w = options.maxOutstanding();
        for (int i = 0; i < targets.size(); i += w) {
            List<CompletableFuture<byte[]>> fs = new ArrayList<>();
            for (int j = i; j < Math.min(targets.size(), i + w); j++) {
                fs.add(send.apply(targets.get(j)));
            }
            for (CompletableFuture<byte[]> f : fs) {
                out.add(join(f));
            }
        }
        return out;
    }

    private static byte[] join(CompletableFuture<byte[]> f) {
        try {
            return f.get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            return null;
        }
    }

    /** A PerfMgt request to the PMA at {@code lid}: its 192 bytes of data, or null (timeout, error status). */
    private CompletableFuture<byte[]> pma(int lid, int method, int attr, int port, byte[] data) {
        byte[] mad = new byte[MadHeaders.MAD_SIZE];
        Layout h = MadHeaders.MAD;
        h.set(mad, 0, "MadBaseVersion", 1);
        h.set(mad, 0, "MadMgmtClass", MgmtClasses.PERF);
        h.set(mad, 0, "MadClassVersion", 1);
        h.set(mad, 0, "MadMethod", method);
        h.set(mad, 0, "MadAttr", attr);
        h.set(mad, 0, "MadTRID", transport.nextTid());
        if (data != null) {
            System.arraycopy(data, 0, mad, MadHeaders.PERF_DATA_OFFSET, data.length);
        }
        mad[MadHeaders.PERF_DATA_OFFSET + 1] = (byte) port;
        SmConfig c = sm.config();
        CompletableFuture<byte[]> f;
        try {
            f = transport.request(mad, MadAddress.gsi(lid), c.timeout(), c.retries());
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(null);
        }
        return f.handle((resp, err) -> {
            if (err != null || resp == null || resp.length < MadHeaders.MAD_SIZE
                    || (h.get(resp, 0, "MadStatus") & ~MadStatus.DR_DIRECTION) != MadStatus.OK) {
                return null;
            }
            return java.util.Arrays.copyOfRange(resp, MadHeaders.PERF_DATA_OFFSET, MadHeaders.PERF_DATA_OFFSET
                    + MadHeaders.PERF_DATA_SIZE);
        });
    }

    /** OpenSM's console {@code perfmgr clear_counters}: the totals start again from zero. */
    public synchronized void clearCounters() {
        long now = System.currentTimeMillis();
        for (NodeState n : nodes.values()) {
            for (PortState p : n.ports.values()) {
                p.totals = new long[FIELDS.length];
                p.lastReset = now;
            }
        }
        totals.clearTotals();
        log.info("PerfMgr counters cleared");
    }

    /** A line of state for the console's {@code perfmgr}. */
    public String status() {
        return String.format(Locale.ROOT, "Performance Manager status:%nstate                   : Enabled%n"
                + "sweep state             : %s%nsweep time              : %ds%noutstanding queries/max : 0/%d%n"
                + "remove missing nodes    : %s%nlog error counters      : %s%nquery ClassPortInfo     : %s%n"
                + "ignore CAs              : %s%nsweeps                  : %d%n", state, options.sweep().toSeconds(),
                options.maxOutstanding(), en(options.rmNodes()), en(options.logErrors()), en(options.queryCpi()),
                en(options.ignoreCas()), sweeps);
    }

    private static String en(boolean b) {
        return b ? "ENABLED" : "DISABLED";
    }

    /**
     * OpenSM's console {@code perfmgr print_counters [node [port]]} ({@code errOnly}: {@code print_errors}):
     * {@code node} a node description or a node GUID (0x...), null for every node.
     */
    public synchronized String printCounters(String node, String port, boolean errOnly) {
        StringBuilder sb = new StringBuilder();
        if (node == null) {
            for (var e : nodes.entrySet()) {
                node(sb, e.getKey(), e.getValue(), null, errOnly);
            }
            return sb.toString();
        }
        if (node.startsWith("0x") || node.startsWith("0X")) {
            long guid;
            try {
                guid = Long.parseUnsignedLong(node.substring(2), 16);
            } catch (NumberFormatException e) {
                return "Node " + node + " not found...\n";
            }
            NodeState ns = nodes.get(guid);
            if (ns == null) {
                return String.format(Locale.ROOT, "Node 0x%x not found...%n", guid);
            }
            node(sb, guid, ns, port, errOnly);
            return sb.toString();
        }
        for (var e : nodes.entrySet()) {
            if (e.getValue().name.equals(node)) {
                node(sb, e.getKey(), e.getValue(), port, errOnly);
                return sb.toString();
            }
        }
        return "Node " + node + " not found...\n";
    }

    private static void node(StringBuilder sb, long guid, NodeState ns, String port, boolean errOnly) {
        Integer only = null;
        if (port != null) {
            try {
                only = Integer.decode(port);
            } catch (NumberFormatException e) {
                only = null;
            }
            if (only == null || !ns.ports.containsKey(only)) {
                sb.append("Warning: \"").append(port).append("\" is not a valid port\n");
                only = null;
            }
        }
        for (var e : ns.ports.entrySet()) {
            if (only != null && e.getKey().intValue() != only) {
                continue;
            }
            PortState p = e.getValue();
            long[] v = p.totals;
            boolean anyErr = false;
            for (int i = 0; i < ERRORS; i++) {
                anyErr |= v[i] != 0;
            }
            if (errOnly && !anyErr) {
                continue;
            }
            sb.append(String.format(Locale.ROOT, "\"%s\" 0x%x active %s port %d%n", ns.name, guid,
                    ns.active ? "TRUE" : "FALSE", e.getKey()));
            sb.append("     Last Reset           : ").append(ctime(p.lastReset)).append('\n');
            sb.append("     Last Error Update    : ").append(ctime(p.lastErrUpdate)).append('\n');
            for (int i = 0; i < ERRORS; i++) {
                if (!errOnly || v[i] != 0) {
                    sb.append(String.format(Locale.ROOT, "     %-21s: %s%n", NAMES[i], Long.toUnsignedString(v[i])));
                }
            }
            if (errOnly) {
                continue;
            }
            sb.append("     Last Data Update     : ").append(ctime(p.lastDataUpdate)).append('\n');
            for (int i = DATA; i < FIELDS.length; i++) {
                sb.append(String.format(Locale.ROOT, "     %-21s: %s%s%n", NAMES[i], Long.toUnsignedString(v[i]),
                        human(v[i], i < DATA + 2)));
            }
        }
    }

    /** C's ctime without its newline, in the local zone: "Wed Dec  2 02:20:53 2026". */
    static String ctime(long millis) {
        return CTIME.format(Instant.ofEpochMilli(millis).atZone(ZoneId.systemDefault()));
    }

    /**
     * OpenSM's human-readable figure after a data count: " (1.500KB)", " (12.000)": a power of 1024 with its unit,
     * in single precision as OpenSM computes it; data counters count 4-byte words.
     */
    static String human(long value, boolean data) {
        double v64 = value < 0 ? value + 0x1p64 : value;
        long tmp = Long.divideUnsigned(value, 1024);
        int ui = 0;
        double div = 1;
        while (tmp != 0) {
            ui++;
            tmp = Long.divideUnsigned(tmp, 1024);
            div *= 1024;
        }
        float val = (float) v64;
        if (data) {
            val *= 4;
            if (val / div > 1024) {
                ui++;
                div *= 1024;
            }
        }
        val /= (float) div;
        String unit = switch (ui) {
            case 1 -> "K";
            case 2 -> "M";
            case 3 -> "G";
            case 4 -> "T";
            case 5 -> "P";
            case 6 -> "E";
            default -> "";
        };
        return String.format(Locale.ROOT, " (%5.3f%s%s)", val, unit, data ? "B" : "");
    }
}
