package org.ibtwin.sim;

import java.util.Arrays;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.Field;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.MadStatus;
import org.ibtwin.mad.Methods;
import org.ibtwin.mad.PerfAttributes;
import org.ibtwin.model.PortCounter;

/**
 * The performance management agent of every node: ClassPortInfo, PortCounters and PortCountersExtended (Get, and
 * Set to reset the counters CounterSelect names), PortRcvErrorDetails and PortXmitDiscardDetails (all zero: the
 * twin does not break its drops down). PortSelect 0xFF (AllPortSelect, switches only) sums every port, saturating.
 * Statuses as the SMA's: 0x0C for an attribute it lacks or a Set of ClassPortInfo, 0x08 for another method, 0x1C
 * for a PortSelect naming no port.
 */
final class Pma {
    private static final int D = 64;
    private static final int ALL_PORTS = 0xff;
    private static final Layout CPI = PerfAttributes.CLASS_PORT_INFO;
    private static final Layout PC = PerfAttributes.PORT_COUNTERS;
    private static final Layout PCX = PerfAttributes.PORT_COUNTERS_EXTENDED;

    /** PortCounters fields in PortCounter order (CounterSelect bit n resets field n; XmitWait is CounterSelect2). */
    private static final Field[] PC_FIELDS = new Field[PortCounter.values().length];
    private static final Field PC_QP1_DROPPED = PC.field("QP1Dropped");
    private static final Field[] PCX_FIELDS = {PCX.field("PortXmitData"), PCX.field("PortRcvData"),
        PCX.field("PortXmitPkts"), PCX.field("PortRcvPkts"), PCX.field("PortUnicastXmitPkts"),
        PCX.field("PortUnicastRcvPkts"), PCX.field("PortMulticastXmitPkts"), PCX.field("PortMulticastRcvPkts")};
    private static final Field PC_COUNTER_SELECT2 = PC.field("CounterSelect2");

    static {
        for (PortCounter c : PortCounter.values()) {
            PC_FIELDS[c.ordinal()] = PC.field(c.fieldName());
        }
    }

    private final TwinState t;

    Pma(TwinState t) {
        this.t = t;
    }

    int handle(int node, int rx, byte[] w, int method) {
        if ((w[2] & 0xff) != 1) {
            return MadStatus.BAD_VERSION;
        }
        if (method != Methods.GET && method != Methods.SET) {
            return MadStatus.METHOD_NOT_SUPPORTED;
        }
        boolean set = method == Methods.SET;
        int attr = Forwarding.u16(w, 16);
        return switch (attr) {
            case AttributeIds.CLASS_PORT_INFO -> classPortInfo(node, w, set);
            case AttributeIds.PORT_COUNTERS -> portCounters(node, rx, w, set);
            case AttributeIds.PORT_COUNTERS_EXTENDED -> portCountersExtended(node, rx, w, set);
            case AttributeIds.PORT_RCV_ERROR_DETAILS, AttributeIds.PORT_XMIT_DISCARD_DETAILS -> details(node, rx, w);
            default -> MadStatus.METHOD_ATTR_NOT_SUPPORTED;
        };
    }

    private int classPortInfo(int node, byte[] w, boolean set) {
        Arrays.fill(w, D, 256, (byte) 0);
        CPI.set(w, D, "BaseVersion", 1);
        CPI.set(w, D, "ClassVersion", 1);
        int cap = PerfAttributes.CAP_EXT_WIDTH_SUPPORTED | PerfAttributes.CAP_PORT_XMIT_WAIT;
        if (t.isSwitch(node)) {
            cap |= PerfAttributes.CAP_ALL_PORT_SELECT;
        }
        CPI.set(w, D, "CapabilityMask", cap);
        CPI.set(w, D, "RespTimeVal", 0x12);
        return set ? MadStatus.METHOD_ATTR_NOT_SUPPORTED : MadStatus.OK;
    }

    /** The port slots from first (inclusive) to end (exclusive). */
    private record Ports(int first, int end) {
    }

    /** The ports the MAD's PortSelect names, or null: a CA's ports 1..N, a switch's 0..N or all. */
    private Ports selected(int node, int rx, byte[] w) {
        int select = w[D + 1] & 0xff;
        boolean sw = t.isSwitch(node);
        int base = t.portBase[node];
        if (select == ALL_PORTS) {
            return sw ? new Ports(base, base + t.numPorts[node] + 1) : null;
        }
        if (select > t.numPorts[node] || (!sw && select == 0)) {
            return null;
        }
        return new Ports(base + select, base + select + 1);
    }

    private int portCounters(int node, int rx, byte[] w, boolean set) {
        Ports sel = selected(node, rx, w);
        if (sel == null) {
            return MadStatus.INVALID_FIELD;
        }
        int mask = Forwarding.u16(w, D + 2);
        boolean mask2 = PC.get(w, D, PC_COUNTER_SELECT2) != 0;
        int slots = PortCounter.values().length;
        if (set) {
            for (int g = sel.first(); g < sel.end(); g++) {
                for (int c = 0; c < slots; c++) {
                    boolean selected = c == PortCounter.XMIT_WAIT.ordinal() ? mask2 : (mask & (1 << c)) != 0;
                    if (selected) {
                        t.pc[g * TwinState.PC_SLOTS + c] = 0;
                    }
                }
                if (mask2) {
                    t.pc[g * TwinState.PC_SLOTS + TwinState.PC_QP1_DROPPED] = 0;
                }
            }
        }
        for (int c = 0; c < TwinState.PC_SLOTS; c++) {
            long sum = 0;
            long max = TwinState.pcMax(c);
            for (int g = sel.first(); g < sel.end(); g++) {
                sum = Math.min(max, sum + t.pcValue(g, c));
            }
            PC.set(w, D, c < slots ? PC_FIELDS[c] : PC_QP1_DROPPED, sum);
        }
        return MadStatus.OK;
    }

    private int portCountersExtended(int node, int rx, byte[] w, boolean set) {
        Ports sel = selected(node, rx, w);
        if (sel == null) {
            return MadStatus.INVALID_FIELD;
        }
        int mask = Forwarding.u16(w, D + 2);
        if (set) {
            for (int g = sel.first(); g < sel.end(); g++) {
                for (int c = 0; c < TwinState.PCX_SLOTS; c++) {
                    if ((mask & (1 << c)) != 0) {
                        t.pcx[g * TwinState.PCX_SLOTS + c] = 0;
                    }
                }
            }
        }
        for (int c = 0; c < TwinState.PCX_SLOTS; c++) {
            long sum = 0;
            for (int g = sel.first(); g < sel.end(); g++) {
                long v = sum + t.pcx[g * TwinState.PCX_SLOTS + c];
                sum = Long.compareUnsigned(v, sum) < 0 ? -1L : v;
            }
            PCX.set(w, D, PCX_FIELDS[c], sum);
        }
        return MadStatus.OK;
    }

    private int details(int node, int rx, byte[] w) {
        if (selected(node, rx, w) == null) {
            return MadStatus.INVALID_FIELD;
        }
        Arrays.fill(w, D + 4, D + 16, (byte) 0);
        return MadStatus.OK;
    }
}
