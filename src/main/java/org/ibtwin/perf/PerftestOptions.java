package org.ibtwin.perf;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.ibtwin.model.Mtu;
import org.ibtwin.model.Node;
import org.ibtwin.model.Port;
import org.ibtwin.perf.PerftestReport.Kind;

/**
 * perftest's option rules: from the options as given and the two hosts' ports, the run perftest would make (its
 * defaults, the limits it clamps to, the dependencies between options) and the notices it prints on the way; an
 * option perftest refuses is an {@link IllegalArgumentException} in one line. Two steps, as perftest takes them:
 * {@link #settle} reads the options alone (perftest's parser), {@link #resolve} then weighs them against the
 * devices (active MTU, outstanding reads, NUMA nodes). Pure functions: the command parses and prints.
 */
public final class PerftestOptions {
    /** perftest's limits. */
    public static final int MIN_ITER = 5;
    public static final int MAX_ITER = 100_000_000;
    public static final int MAX_QP = 16384;
    public static final int MAX_TX = 15000;
    public static final int MAX_INLINE = 912;
    public static final int MAX_INLINE_UD = 884;
    public static final long MAX_SIZE_ALL = 1L << 23;
    public static final long MAX_SIZE = 0x7fffffffL;

    private PerftestOptions() {
    }

    /** The options as the command line gave them: null (or false) where not given, text as typed. */
    public record Given(String size, boolean all, String iters, String duration, String margin, String qps,
                        String mtu, String connection, String inline, boolean bidirectional, String txDepth,
                        String cqMod, String outs, String atomicType, String gidIndex, boolean noPeak,
                        boolean reportGbits, String numa, String ibPort, String device, String plot) {
    }

    /** What perftest prints on the way: text for stdout and for stderr (either may be empty), in that order. */
    public record Notice(String out, String err) {
    }

    /** The options read and checked, before the devices are looked at. */
    public record Settings(String atomic, boolean farNuma, Transport transport, int qps, long iters,
                           int durationSec, int marginSec, int port, int gidIndex, int requestedMtu, long firstSize,
                           boolean sizeGiven, int inline, int txDepth, int cqMod, List<Notice> notices) {
    }

    /** The run: every figure perftest settles on for the two hosts, and the notices it printed deciding them. */
    public record Resolved(Endpoint clientEnd, Endpoint serverEnd, String device, List<Long> sizes, int qps,
                           int txDepth, int cqMod, int rxDepth, int inline, int outReads, int mtu,
                           Transport transport, long iters, int durationSec, int measuredSec, boolean peak,
                           boolean gid, String atomic, List<Notice> notices) {
    }

    /** A host's port has no link: perftest cannot connect (the command says so and exits 1). */
    public static final class NoLink extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final transient Port port;

        NoLink(Port port) {
            super(Names.port(port) + " is down (physical state Polling): no link, perftest cannot connect", null,
                    false, false);
            this.port = port;
        }

        public Port port() {
            return port;
        }
    }

    /** Reads and checks the options of tool {@code op}/{@code kind} as perftest's parser does. */
    public static Settings settle(Op op, Kind kind, Given g) {
        boolean bw = kind == Kind.BW;
        if (!bw) {
            for (Object[] o : new Object[][] {{g.qps(), "-q"}, {g.txDepth(), "-t"}, {g.cqMod(), "-Q"},
                {g.bidirectional() ? "" : null, "-b"}, {g.reportGbits() ? "" : null, "--report_gbits"}}) {
                if (o[0] != null) {
                    throw new IllegalArgumentException(o[1] + " is an option of the bandwidth tests");
                }
            }
        }
        if (op == Op.ATOMIC && (g.size() != null || g.all())) {
            throw new IllegalArgumentException("Message size cannot be changed for Atomic tests");
        }
        if ((op == Op.READ || op == Op.ATOMIC) && g.inline() != null) {
            throw new IllegalArgumentException("Inline feature not available on READ/Atomic verbs");
        }
        if (op != Op.READ && op != Op.ATOMIC && g.outs() != null) {
            throw new IllegalArgumentException("Setting Outstanding reads only available on READ verb");
        }
        if (op != Op.ATOMIC && g.atomicType() != null) {
            throw new IllegalArgumentException("-A is an option of the atomic tests");
        }
        String atomic = "FETCH_AND_ADD";
        if (g.atomicType() != null) {
            atomic = g.atomicType().trim().toUpperCase(Locale.ROOT);
            if (!atomic.equals("FETCH_AND_ADD") && !atomic.equals("CMP_AND_SWAP")) {
                throw new IllegalArgumentException("Invalid Atomic type! please choose from {CMP_AND_SWAP,FETCH_AND_ADD}");
            }
        }
        if (g.all() && g.duration() != null) {
            throw new IllegalArgumentException("Duration mode currently doesn't support running on all sizes.");
        }
        if (g.plot() != null && !g.all()) {
            throw new IllegalArgumentException("--plot draws a curve over message sizes: add -a");
        }
        if (g.plot() != null && !g.plot().toLowerCase(Locale.ROOT).matches(".*\\.(svg|png)")) {
            throw new IllegalArgumentException("--plot: name a .svg or .png file, got '" + g.plot() + "'");
        }
        String numaMode = g.numa().trim().toLowerCase(Locale.ROOT);
        if (!numaMode.equals("near") && !numaMode.equals("far")) {
            throw new IllegalArgumentException("--numa must be near or far, got '" + g.numa() + "'");
        }
        Transport transport = Transport.RC;
        if (g.connection() != null) {
            transport = Transport.parse(g.connection());
            if (transport == null) {
                throw new IllegalArgumentException("-c: connection type must be RC, UC or UD, got '" + g.connection()
                        + "' (XRC, DC and SRD are not modelled)");
            }
            if (!transport.supports(op)) {
                throw new IllegalArgumentException("-c " + transport + ": " + op.label() + " does not run over "
                        + transport);
            }
        }
        int q = g.qps() == null ? 1 : intIn("-q", g.qps(), 1, MAX_QP);
        long n = g.iters() == null ? (bw && op == Op.WRITE ? 5000 : 1000) : intIn("-n", g.iters(), MIN_ITER, MAX_ITER);
        int dur = g.duration() == null ? 0 : intIn("-D", g.duration(), 1, Integer.MAX_VALUE);
        int marg = g.margin() == null ? dur / 4 : intIn("-f", g.margin(), 0, Integer.MAX_VALUE);
        if (g.duration() != null && !(dur > 2 * marg)) {
            throw new IllegalArgumentException("please check that DURATION > 2*MARGIN");
        }
        int port = g.ibPort() == null ? 1 : intIn("-i", g.ibPort(), 1, 254);
        int gid = g.gidIndex() == null ? -1 : intIn("-x", g.gidIndex(), 0, 64);
        int requestedMtu = 0;
        if (g.mtu() != null) {
            requestedMtu = intIn("-m", g.mtu(), 256, 4096);
            if (Mtu.ofBytes(requestedMtu) == null) {
                throw new IllegalArgumentException("-m: Invalid MTU - " + requestedMtu
                        + " (choose from {256,512,1024,2048,4096})");
            }
        }
        long firstSize = op == Op.ATOMIC ? Headers.ATOMIC_SIZE : bw ? 65536 : 2;
        boolean sizeGiven = g.size() != null;
        if (sizeGiven) {
            firstSize = parseSize(g.size());
        }
        int inl = g.inline() == null ? -1 : intIn("-I", g.inline(), 0, MAX_INLINE);
        int tx = g.txDepth() == null ? (bw ? 128 : 1) : intIn("-t", g.txDepth(), 1, MAX_TX);
        int cq = g.cqMod() == null ? 100 : intIn("-Q", g.cqMod(), 1, 1024);
        List<Notice> notices = new ArrayList<>();
        // perftest's parser warns about the inline size before it looks at the devices
        if (transport == Transport.UD && inl > MAX_INLINE_UD) {
            notices.add(new Notice(PerftestReport.RESULT_LINE, "Setting inline size to " + MAX_INLINE_UD
                    + " (Max inline size in UD)\n"));
            inl = MAX_INLINE_UD;
        }
        return new Settings(atomic, numaMode.equals("far"), transport, q, n, dur, marg, port, gid, requestedMtu,
                firstSize, sizeGiven, inl, tx, cq, List.copyOf(notices));
    }

    /**
     * The run of {@code s} between the client's port {@code cp} and the server's {@code sp}: refuses what the
     * devices refuse (-d naming another device, --numa far on a single NUMA node, a UD message over the MTU), throws
     * {@link NoLink} when a port has no link, and settles the MTU, the sizes and the options that depend on others.
     */
    public static Resolved resolve(Op op, Kind kind, Given g, Settings s, Port cp, Port sp) {
        boolean bw = kind == Kind.BW;
        Node client = cp.node();
        Node server = sp.node();
        Endpoint cEnd = Endpoint.of(cp, s.farNuma());
        Endpoint sEnd = Endpoint.of(sp, s.farNuma());
        if (s.farNuma()) {
            for (Endpoint e : new Endpoint[] {cEnd, sEnd}) {
                if (e.facts().numaNodes() < 2) {
                    throw new IllegalArgumentException("--numa far: " + e.name() + " has a single NUMA node");
                }
            }
        }
        String dev = Names.device(client, cEnd.hca().verbsPrefix());
        for (Node h : new Node[] {client, server}) {
            String hd = Names.device(h, Endpoint.of(h.port(1), false).hca().verbsPrefix());
            if (g.device() != null && !g.device().equals(hd)) {
                throw new IllegalArgumentException("-d: " + Names.node(h) + " has no device " + g.device()
                        + " (it has " + hd + ")");
            }
        }
        for (Port pt : new Port[] {cp, sp}) {
            if (pt.link() == null || !pt.link().isUp()) {
                throw new NoLink(pt);
            }
        }
        List<Notice> notices = new ArrayList<>();
        Transport transport = s.transport();
        long n = s.iters();
        // The MTU: each side's active MTU (or -m), the smaller of the two after perftest exchanges them.
        int active = Math.min(Perftest.activeMtu(cp).bytes(), Perftest.activeMtu(sp).bytes());
        int m = active;
        if (s.requestedMtu() > 0) {
            m = s.requestedMtu();
            if (s.requestedMtu() > active) {
                notices.add(new Notice("Requested mtu is higher than active mtu \n"
                        + "Changing to active mtu - " + Mtu.ofBytes(active).code() + "\n", ""));
                m = active;
            }
        }
        long firstSize = s.firstSize();
        List<Long> sizes = new ArrayList<>();
        if (g.all()) {
            long top = transport == Transport.UD ? m : MAX_SIZE_ALL;
            for (long size = 2; size <= top; size *= 2) {
                sizes.add(size);
            }
        } else {
            if (transport == Transport.UD && firstSize > m) {
                if (s.sizeGiven()) {
                    throw new IllegalArgumentException("Max message size in UD cannot be greater than MTU ("
                            + m + ")");
                }
                notices.add(new Notice("", " Max msg size in UD is MTU " + m + "\n Changing to this MTU\n"));
                firstSize = m;
            }
            sizes.add(firstSize);
        }
        // perftest's dependencies between options
        int tx = s.txDepth();
        if (g.duration() == null && tx > n) {
            tx = (int) n;
        }
        int cq = s.cqMod();
        if (bw && g.cqMod() == null && firstSize > 8192 && transport != Transport.UD && !g.all()) {
            cq = 1;
        }
        if (cq > tx) {
            cq = tx;
        }
        int rx = 0;
        if (op == Op.SEND && g.bidirectional()) {
            rx = 512;
            if (g.duration() == null && rx > n) {
                rx = (int) n;
            }
            if (transport != Transport.RC && rx == 512) {
                rx = (int) Math.min(n, 16000);
            }
            if (rx % 2 == 1) {
                rx++;
            }
        }
        int inl = s.inline();
        if (inl < 0) {
            inl = 0;
            if (!bw) {
                if (op == Op.WRITE) {
                    inl = 220;
                } else if (op == Op.SEND) {
                    inl = transport == Transport.UD ? 188 : 236;
                }
            }
        }
        int maxOut = cEnd.hca().maxOutReads();
        int outReads = maxOut;
        if (g.outs() != null) {
            outReads = intIn("-o", g.outs(), 1, Integer.MAX_VALUE);
            if (outReads > maxOut) {
                notices.add(new Notice(PerftestReport.RESULT_LINE, " Number of outstanding reads is above max = "
                        + maxOut + "\n Changing to that max value\n"));
                outReads = maxOut;
            }
        }
        boolean peak = !g.noPeak() && g.duration() == null && !(n > 20000 && bw);
        int dur = s.durationSec();
        return new Resolved(cEnd, sEnd, dev, List.copyOf(sizes), bw ? s.qps() : 1, tx, cq, rx, inl, outReads, m,
                transport, n, dur, dur - 2 * s.marginSec(), peak, s.gidIndex() >= 0, s.atomic(),
                List.copyOf(notices));
    }

    /** A whole number in {@code [lo, hi]}: decimal, 0x hex or 0 octal, as strtol reads it. */
    private static int intIn(String option, String text, long lo, long hi) {
        long v;
        try {
            v = strtol(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " must be a whole number, got '" + text + "'");
        }
        if (v < lo || v > hi) {
            throw new IllegalArgumentException(option + " must be " + lo + ".." + hi + ", got " + text.trim());
        }
        return (int) v;
    }

    private static long strtol(String s) {
        if (s.matches("(?i)0x[0-9a-f]+")) {
            return Long.parseLong(s.substring(2), 16);
        }
        if (s.matches("0[0-7]+")) {
            return Long.parseLong(s.substring(1), 8);
        }
        if (s.matches("[+-]?\\d{1,18}")) {
            return Long.parseLong(s);
        }
        throw new NumberFormatException(s);
    }

    /** -s: a number with an optional K or M suffix, 1 .. 2^31-1 bytes. */
    public static long parseSize(String text) {
        String t = text.trim();
        long factor = 1;
        if (t.endsWith("K")) {
            factor = 1024;
            t = t.substring(0, t.length() - 1);
        } else if (t.endsWith("M")) {
            factor = 1024 * 1024;
            t = t.substring(0, t.length() - 1);
        }
        long v;
        try {
            v = strtol(t) * factor;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("-s: Message Size should be between 1 and " + MAX_SIZE + ", got '"
                    + text + "'");
        }
        if (v < 1 || v > MAX_SIZE) {
            throw new IllegalArgumentException("-s: Message Size should be between 1 and " + MAX_SIZE + ", got '"
                    + text + "'");
        }
        return v;
    }
}
