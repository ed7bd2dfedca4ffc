package org.ibtwin.diag;

import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.Dumps;
import org.ibtwin.mad.Field;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.PerfAttributes;
import org.ibtwin.mad.PortId;
import org.ibtwin.mad.SmpAttributes;

/**
 * perfquery's work once its arguments are read: ClassPortInfo first (for CapabilityMask and CapabilityMask2), then
 * PortCounters or PortCountersExtended of one port, a list of ports or all ports (with AllPortSelect, or emulating it
 * by reading each port and adding up, saturating as the counters do), the discard and error details, and the resets
 * (a Set with CounterSelect and CounterSelect2 from the reset mask). Output is appended as it is made; a failure is
 * an {@link OpFailure} with perfquery's words ("classportinfo query", "perfquery", "perf reset", ...).
 */
public final class PerfQueries {
    /** PortSelect 255: every port (AllPortSelect). */
    public static final int ALL_PORTS = 0xff;
    private static final int NODE_TYPE_SWITCH = 2;

    /**
     * What to do, as perfquery's options and arguments say.
     *
     * @param lid        the PMA's LID
     * @param port       the port (the first of {@code ports} when a list was given; 255 with -a)
     * @param ports      the port list ("1,4,8" or "1-10"); used when it has more than one port
     * @param mask       the reset mask (argument 3, or 0xffff)
     * @param maskGiven  whether argument 3 was given (perfquery then adds no PortXmitWait/QP1Dropped bits)
     */
    public record Request(int lid, int port, List<Integer> ports, int mask, boolean maskGiven, boolean extended,
                          boolean reset, boolean resetOnly, boolean allPorts, boolean loopPorts,
                          boolean xmitDiscardDetails, boolean rcvErrorDetails) {
        public Request {
            ports = List.copyOf(ports);
        }
    }

    private final MadQuery q;
    private final Consumer<String> warn;

    /** {@code warn} receives libibmad's warning lines (without "ibwarn: [pid] "). */
    public PerfQueries(MadQuery q, Consumer<String> warn) {
        this.q = Objects.requireNonNull(q, "q");
        this.warn = Objects.requireNonNull(warn, "warn");
    }

    /** Runs {@code r}, appending perfquery's output to {@code out}. */
    public void run(Request r, StringBuilder out) {
        PortId dest = PortId.lid(r.lid());
        byte[] cpi = pma(r.lid(), AttributeIds.CLASS_PORT_INFO, r.port(), "classportinfo query");
        int cap = ((cpi[2] & 0xff) << 8) | (cpi[3] & 0xff);
        int cap2 = (int) ((((cpi[4] & 0xffL) << 24) | ((cpi[5] & 0xff) << 16) | ((cpi[6] & 0xff) << 8)
                | (cpi[7] & 0xff)) >>> 5);
        boolean allPortsLoop = false;
        if ((cap & PerfAttributes.CAP_ALL_PORT_SELECT) == 0) {
            if (!r.allPorts() && r.port() == ALL_PORTS) {
                throw new OpFailure("AllPortSelect not supported");
            }
            allPortsLoop = r.allPorts() && r.port() == ALL_PORTS;
        }

        if (r.xmitDiscardDetails() || r.rcvErrorDetails()) {
            runDetails(r, out);
            return;
        }

        boolean eachPort = allPortsLoop || r.loopPorts() && (r.allPorts() || r.port() == ALL_PORTS);
        int startPort = 1;
        int numPorts = 0;
        if (eachPort) {
            byte[] ni = smp(dest, AttributeIds.NODE_INFO);
            numPorts = (int) SmpAttributes.NODE_INFO.get(ni, 0, "NumPorts");
            if (numPorts == 0) {
                throw new OpFailure("smp query nodeinfo: num ports invalid");
            }
            if (SmpAttributes.NODE_INFO.get(ni, 0, "NodeType") == NODE_TYPE_SWITCH) {
                byte[] si = smp(dest, AttributeIds.SWITCH_INFO);
                if (SmpAttributes.SWITCH_INFO.get(si, 0, "EnhancedPort0") != 0) {
                    startPort = 0;
                }
            }
            if (allPortsLoop && !r.loopPorts()) {
                warn.accept("main: Emulating AllPortSelect by iterating through all ports");
            }
        }

        StringBuilder dump = out;
        if (!r.resetOnly()) {
            Sum sum = new Sum(r.extended(), cap, cap2);
            boolean aggregate;
            if (eachPort) {
                aggregate = allPortsLoop && !r.loopPorts();
                for (int p = startPort; p <= numPorts; p++) {
                    counters(r.extended(), cap, cap2, dest, p, aggregate ? sum : null, dump);
                }
            } else if (r.ports().size() > 1) {
                aggregate = r.allPorts() && !r.loopPorts();
                for (int p : r.ports()) {
                    counters(r.extended(), cap, cap2, dest, p, aggregate ? sum : null, dump);
                }
            } else {
                aggregate = false;
                counters(r.extended(), cap, cap2, dest, r.port(), null, dump);
            }
            if (aggregate) {
                dump.append(sum.output(dest));
            }
            if (!r.reset()) {
                return;
            }
        }

        int mask = r.mask();
        if (!r.maskGiven() && !r.extended()) {
            if ((cap & PerfAttributes.CAP_PORT_XMIT_WAIT) != 0) {
                mask |= 1 << 16;
            }
            if ((cap & PerfAttributes.CAP_QP1_DROPPED) != 0) {
                mask |= 1 << 17;
            }
        }
        if (r.extended()) {
            mask |= 0xfff0000;
            if ((cap & PerfAttributes.CAP_PORT_XMIT_WAIT) != 0) {
                mask |= 1 << 28;
            }
            if ((cap & PerfAttributes.CAP_QP1_DROPPED) != 0) {
                mask |= 1 << 29;
            }
        }
        if (eachPort) {
            for (int p = startPort; p <= numPorts; p++) {
                reset(r.extended(), mask, r.lid(), p);
            }
        } else if (r.ports().size() > 1) {
            for (int p : r.ports()) {
                reset(r.extended(), mask, r.lid(), p);
            }
        } else {
            reset(r.extended(), mask, r.lid(), r.port());
        }
    }

    private void counters(boolean extended, int cap, int cap2, PortId dest, int port, Sum sum, StringBuilder out) {
        if (!extended) {
            byte[] pc = pma(dest.lid(), AttributeIds.PORT_COUNTERS, port, "perfquery");
            if ((cap & PerfAttributes.CAP_PORT_XMIT_WAIT) == 0) {
                PerfAttributes.PORT_COUNTERS.set(pc, 0, "PortXmitWait", 0);
            }
            if (sum != null) {
                sum.add(pc);
            } else {
                out.append(Dumps.portCounters(dest, port, cap, pc, 0));
            }
        } else {
            if ((cap & (PerfAttributes.CAP_EXT_WIDTH_SUPPORTED | PerfAttributes.CAP_EXT_WIDTH_NOIETF)) == 0) {
                warn.accept(String.format("dump_perfcounters: PerfMgt ClassPortInfo CapMask 0x%02X; No extended "
                        + "counter support indicated%n", cap));
            }
            byte[] pc = pma(dest.lid(), AttributeIds.PORT_COUNTERS_EXTENDED, port, "perfextquery");
            if (sum != null) {
                sum.add(pc);
            } else {
                out.append(Dumps.portCountersExtended(dest, port, cap, cap2, pc, 0));
            }
        }
    }

    /** -D / -E: the discard or receive error details of {@code r.port()}, then their reset if asked. */
    private void runDetails(Request r, StringBuilder out) {
        boolean disc = r.xmitDiscardDetails();
        String name = disc ? "PortXmitDiscardDetails" : "PortRcvErrorDetails";
        int attr = disc ? AttributeIds.PORT_XMIT_DISCARD_DETAILS : AttributeIds.PORT_RCV_ERROR_DETAILS;
        PortId dest = PortId.lid(r.lid());
        if (!r.resetOnly()) {
            byte[] d = pma(r.lid(), attr, r.port(), "cannot query " + name);
            out.append(disc ? Dumps.portXmitDiscardDetails(dest, r.port(), d, 0)
                    : Dumps.portRcvErrorDetails(dest, r.port(), d, 0));
        }
        if (r.resetOnly() || r.reset()) {
            resetAttr(attr, r.mask(), r.lid(), r.port(), "cannot reset " + name);
        }
    }

    private void reset(boolean extended, int mask, int lid, int port) {
        if (extended) {
            resetAttr(AttributeIds.PORT_COUNTERS_EXTENDED, mask, lid, port, "perf ext reset");
        } else {
            resetAttr(AttributeIds.PORT_COUNTERS, mask, lid, port, "perf reset");
        }
    }

    /**
     * libibmad's performance_reset_via: a Set with PortSelect, CounterSelect the mask's low 16 bits and
     * CounterSelect2 the rest (PortCountersExtended's 32-bit one, else the 8 bits at byte 18); mask 0 means all.
     */
    private void resetAttr(int attr, int mask, int lid, int port, String failure) {
        int m = mask == 0 ? ~0 : mask;
        byte[] data = new byte[192];
        data[1] = (byte) port;
        data[2] = (byte) (m >>> 8);
        data[3] = (byte) m;
        int rest = m >>> 16;
        if (attr == AttributeIds.PORT_COUNTERS_EXTENDED) {
            PerfAttributes.PORT_COUNTERS_EXTENDED.set(data, 0, "CounterSelect2", rest & 0xffffffffL);
        } else {
            data[18] = (byte) rest;
        }
        try {
            q.pmaSet(lid, attr, data);
        } catch (QueryException e) {
            throw new OpFailure(failure, e);
        }
    }

    private byte[] pma(int lid, int attr, int port, String failure) {
        try {
            return q.pmaGet(lid, attr, port);
        } catch (QueryException e) {
            throw new OpFailure(failure, e);
        }
    }

    private byte[] smp(PortId dest, int attr) {
        try {
            return q.smpGet(dest, attr, 0);
        } catch (QueryException e) {
            throw new OpFailure("smp query nodeinfo failed", e);
        }
    }

    /**
     * The running totals of perfquery's aggregation: each counter added up, stuck at its field's largest value
     * once it would overflow. The output is the last port's response with the totals written over it and
     * PortSelect 255, as perfquery prints it.
     */
    private static final class Sum {
        private final boolean extended;
        private final int cap;
        private final int cap2;
        private final Layout layout;
        private final List<Field> fields;
        private final long[] totals;
        private byte[] last;

        Sum(boolean extended, int cap, int cap2) {
            this.extended = extended;
            this.cap = cap;
            this.cap2 = cap2;
            this.layout = extended ? PerfAttributes.PORT_COUNTERS_EXTENDED : PerfAttributes.PORT_COUNTERS;
            this.fields = extended ? extendedFields(cap, cap2) : layout.dumpFields().stream()
                    .filter(f -> !f.name().startsWith("PortSelect") && !f.name().startsWith("CounterSelect"))
                    .toList();
            this.totals = new long[fields.size()];
        }

        private static List<Field> extendedFields(int cap, int cap2) {
            Layout l = PerfAttributes.PORT_COUNTERS_EXTENDED;
            List<Field> all = l.dumpFields();
            int base = all.indexOf(l.field("PortUnicastXmitPkts"));
            int err = all.indexOf(l.field("CounterSelect2"));
            java.util.ArrayList<Field> out = new java.util.ArrayList<>();
            for (int i = 0; i < all.size(); i++) {
                Field f = all.get(i);
                if (f.name().equals("PortSelect") || f.name().startsWith("CounterSelect")) {
                    continue;
                }
                boolean use = i < base
                        || i < err && (cap & PerfAttributes.CAP_EXT_WIDTH_SUPPORTED) != 0
                        || i > err && (cap2 & PerfAttributes.CAP2_ADDL_PORT_COUNTERS_EXT) != 0;
                if (use) {
                    out.add(f);
                }
            }
            return out;
        }

        void add(byte[] pc) {
            for (int i = 0; i < fields.size(); i++) {
                Field f = fields.get(i);
                long v = layout.get(pc, 0, f);
                long max = f.bitLength() >= 64 ? -1L : (1L << f.bitLength()) - 1;
                long s = totals[i] + v;
                boolean over = f.bitLength() >= 64 ? Long.compareUnsigned(s, totals[i]) < 0
                        : s > max || s < totals[i];
                totals[i] = over ? max : s;
            }
            last = pc.clone();
        }

        String output(PortId dest) {
            byte[] pc = last == null ? new byte[192] : last.clone();
            for (int i = 0; i < fields.size(); i++) {
                layout.set(pc, 0, fields.get(i), totals[i]);
            }
            layout.set(pc, 0, "PortSelect", ALL_PORTS);
            return extended ? Dumps.portCountersExtended(dest, ALL_PORTS, cap, cap2, pc, 0)
                    : Dumps.portCounters(dest, ALL_PORTS, cap, pc, 0);
        }
    }
}
