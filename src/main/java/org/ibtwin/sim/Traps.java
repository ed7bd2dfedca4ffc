package org.ibtwin.sim;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.MadHeaders;
import org.ibtwin.mad.Methods;
import org.ibtwin.mad.MgmtClasses;
import org.ibtwin.mad.SmpAttributes;
import org.ibtwin.transport.MadAddress;

/**
 * The traps the twin's SMAs send their SM (IBA 14.2.5), and their repetition until repressed.
 *
 * <ul>
 * <li><b>128</b> (link state change; generic, urgent, producer switch): a switch whose port's link went down or came
 *     up by itself (a fault, a neighbour's Set: not the port's own Set, as SwitchInfo PortStateChange counts it).
 *     Data: the switch's LID.</li>
 * <li><b>144</b> (local changes; generic, informational, producer the node's type): a port whose CapabilityMask
 *     changed (IsSM set or cleared by an attachment, or the host's {@link Twin#setCapabilityMask}). Data: the port's
 *     LID, its new CapabilityMask and CapabilityMask2, no change flags.</li>
 * </ul>
 *
 * A trap is a SubnTrap(Notice), LID-routed (class 0x01) from the issuing port (a switch's port 0) to the SM LID in
 * that port's PortInfo, SL = its SMSL, to QP0 of the port the LID leads to, where the SM attachment takes it; the
 * MAD carries the port's M_Key. A port sends none while it has no LID or no SM LID (an SM that has not configured
 * it yet has not asked for traps). A trap that finds no route or no SM is lost, as on a fabric.
 *
 * <p>Until the SM answers with a TrapRepress (matched by the issuing node and the TID, or failing that the trap
 * number in the Notice it sends back) a trap stays pending and goes out again, same TID, whenever its issuing
 * port's SubnetTimeout (4.096 µs × 2^SubnetTimeout) has passed since it last went: the twin checks after each MAD
 * and fault it processes, and {@link TrapTimer} checks on a quiet fabric. One trap of a number is pending per
 * issuing port: further link changes at a switch with an unrepressed 128 add none (the pending one already says
 * "look here"); a new capability change replaces a pending 144 (new TID, new data, sent at once).
 */
final class Traps {
    static final int LINK_STATE_CHANGE = 128;
    static final int LOCAL_CHANGES = 144;
    static final int BAD_M_KEY = 256;
    private static final int D = MadHeaders.SMP_DATA_OFFSET;
    private static final Layout HDR = MadHeaders.SMP_LID;
    private static final Layout PI = SmpAttributes.PORT_INFO;
    /** The high bits of the TIDs the twin's SMAs use (the low ones count). */
    private static final long TID_BASE = 0x7a1b_0000_0000_0000L;

    private static final class Pending {
        final int issuer;
        final int number;
        long tid;
        boolean due = true;
        long lastSent;
        int sends;
        /** Trap 256: the offending SMP's details, laid out as NoticeDataDetails (54 bytes at Notice byte 10). */
        byte[] details;

        Pending(int issuer, int number, long tid) {
            this.issuer = issuer;
            this.number = number;
            this.tid = tid;
        }
    }

    private final TwinState t;
    /** How traps travel: set once, after the twin has built its forwarding (which needs the SMA, which traps). */
    private Forwarding fwd;
    private final Map<Long, Pending> pending = new LinkedHashMap<>();
    private long nextTid;
    long sent;
    long delivered;
    long repressed;

    Traps(TwinState t) {
        this.t = t;
    }

    void routeBy(Forwarding f) {
        fwd = f;
    }

    private static long key(int issuer, int number) {
        return ((long) issuer << 16) | number;
    }

    private long newTid() {
        return TID_BASE | ++nextTid;
    }

    /** Whether the port may trap: it has a LID and knows its SM's. */
    private boolean armed(int g) {
        return t.lid[g] != 0 && smLid(g) != 0;
    }

    private int smLid(int g) {
        return (int) PI.get(t.portInfo, g * 64, "SMLid");
    }

    /** A port of switch node {@code n} changed state by itself. */
    void linkStateChanged(int n) {
        int g = t.portBase[n];
        if (armed(g)) {
            pending.computeIfAbsent(key(g, LINK_STATE_CHANGE), k -> new Pending(g, LINK_STATE_CHANGE, newTid()));
        }
    }

    /** The CapabilityMask of management port {@code g} changed. */
    void capabilityChanged(int g) {
        if (!armed(g)) {
            return;
        }
        Pending p = pending.get(key(g, LOCAL_CHANGES));
        if (p == null) {
            pending.put(key(g, LOCAL_CHANGES), new Pending(g, LOCAL_CHANGES, newTid()));
        } else {
            p.tid = newTid();
            p.due = true;
        }
    }

    /**
     * An SMP failed the M_Key check at management port {@code g}: a trap 256 with the SMP's LID ({@code lid}, a
     * directed-route SMP's DrSLID), method, attribute, modifier and M_Key, and for a directed-route SMP its hop count
     * and return path. A newer failure replaces a pending one (the latest offender, sent at once).
     */
    void badMkey(int g, byte[] w, int lid) {
        if (!armed(g)) {
            return;
        }
        Layout n = SmpAttributes.NOTICE_TRAP_256;
        byte[] d = new byte[64];
        n.set(d, 0, "NoticeDataTrap256LID", lid);
        n.set(d, 0, "NoticeDataTrap256Method", w[3] & 0xff);
        n.set(d, 0, "NoticeDataTrap256AttrId", ((w[16] & 0xff) << 8) | (w[17] & 0xff));
        n.set(d, 0, "NoticeDataTrap256AttrMod", MadHeaders.attributeModifier(w));
        n.set(d, 0, "NoticeDataTrap256Mkey", Sma.getLong(w, 24));
        if ((w[1] & 0xff) == MgmtClasses.SUBN_DIRECTED) {
            int hops = w[7] & 0x3f;
            n.set(d, 0, "NoticeDataTrap256DrSlid", lid);
            n.set(d, 0, "NoticeDataTrap256DrNotice", 1);
            n.set(d, 0, "NoticeDataTrap256DrTrunc", hops > 30 ? 1 : 0);
            n.set(d, 0, "NoticeDataTrap256DrHopCnt", Math.min(hops, 30));
            System.arraycopy(w, 192, d, 34, Math.min(hops + 1, 30));
        }
        Pending p = pending.get(key(g, BAD_M_KEY));
        if (p == null) {
            p = new Pending(g, BAD_M_KEY, newTid());
            pending.put(key(g, BAD_M_KEY), p);
        } else {
            p.tid = newTid();
            p.due = true;
        }
        p.details = d;
    }

    /** Sends the traps that are due: new ones, and pending ones whose timeout has passed. */
    void flush() {
        if (pending.isEmpty()) {
            return;
        }
        long now = t.clock.getAsLong();
        for (Pending p : pending.values().toArray(new Pending[0])) {
            if (!armed(p.issuer)) {
                pending.remove(key(p.issuer, p.number));
            } else if (p.due || now - p.lastSent >= timeoutNanos(p.issuer)) {
                send(p, now);
            }
        }
    }

    /** Marks every pending trap due now; returns how many. */
    int markAllDue() {
        for (Pending p : pending.values()) {
            p.due = true;
        }
        return pending.size();
    }

    /** IBA 14.2.5.1: traps repeat after the port's SubnetTimeout, 4.096 µs × 2^SubnetTimeout. */
    private long timeoutNanos(int g) {
        long st = PI.get(t.portInfo, g * 64, "SubnetTimeout");
        return 4096L << st;
    }

    private void send(Pending p, long now) {
        p.due = false;
        p.lastSent = now;
        p.sends++;
        sent++;
        int g = p.issuer;
        byte[] m = build(p);
        fwd.attr = AttributeIds.NOTICE;
        int at = fwd.lidRoute(g, smLid(g), true, true);
        if (at < 0) {
            return;
        }
        TwinAttachment sm = t.smAt(at);
        if (sm == null) {
            t.drop(DropReason.NO_RECEIVER);
            return;
        }
        delivered++;
        t.deliver(sm, m, new MadAddress(t.lid[g], 0, 0, (int) PI.get(t.portInfo, g * 64, "SMSL"), 0));
    }

    private byte[] build(Pending p) {
        int g = p.issuer;
        int node = t.portNode[g];
        byte[] m = new byte[256];
        HDR.set(m, 0, "MadBaseVersion", 1);
        HDR.set(m, 0, "MadMgmtClass", MgmtClasses.SUBN_LID);
        HDR.set(m, 0, "MadClassVersion", 1);
        HDR.set(m, 0, "MadMethod", Methods.TRAP);
        HDR.set(m, 0, "MadTRID", p.tid);
        HDR.set(m, 0, "MadAttr", AttributeIds.NOTICE);
        HDR.set(m, 0, "MadMkey", PI.get(t.portInfo, g * 64, "Mkey"));
        Layout n = SmpAttributes.noticeFor(p.number);
        int lid = t.lid[g];
        n.set(m, D, "NoticeIsGeneric", 1);
        // urgent; security; informational
        n.set(m, D, "NoticeType", p.number == LINK_STATE_CHANGE ? 1 : p.number == BAD_M_KEY ? 2 : 4);
        n.set(m, D, "NoticeProducerType", t.nodeType[node]);
        n.set(m, D, "NoticeTrapNumber", p.number);
        n.set(m, D, "NoticeIssuerLID", lid);
        if (p.number == LINK_STATE_CHANGE) {
            n.set(m, D, "NoticeDataLID", lid);
        } else if (p.number == BAD_M_KEY) {
            System.arraycopy(p.details, 12, m, D + 12, 52);
        } else {
            n.set(m, D, "NoticeDataTrap144LID", lid);
            n.set(m, D, "NoticeDataTrap144CapMask", PI.get(t.portInfo, g * 64, "CapMask"));
            n.set(m, D, "NoticeDataTrap144CapMask2", PI.get(t.portInfo, g * 64, "CapabilityMask2"));
        }
        return m;
    }

    /**
     * A TrapRepress reached node {@code node}'s SMA at port {@code rx}: the trap with its TID (or, failing that,
     * of the number its Notice names) from that node stops repeating.
     */
    void repressed(int node, int rx, byte[] w) {
        long tid = MadHeaders.tid(w);
        boolean sw = t.isSwitch(node);
        Pending hit = null;
        for (Pending p : pending.values()) {
            if (t.portNode[p.issuer] == node && (sw || p.issuer == rx) && p.tid == tid) {
                hit = p;
                break;
            }
        }
        if (hit == null) {
            int number = ((w[D + 4] & 0xff) << 8) | (w[D + 5] & 0xff);
            for (Pending p : pending.values()) {
                if (t.portNode[p.issuer] == node && (sw || p.issuer == rx) && p.number == number) {
                    hit = p;
                    break;
                }
            }
        }
        if (hit != null) {
            pending.remove(key(hit.issuer, hit.number));
            repressed++;
        }
    }

    /** Forgets the traps node {@code n} had pending (it rebooted). */
    void forget(int n) {
        pending.values().removeIf(p -> t.portNode[p.issuer] == n);
    }

    List<PendingTrap> list() {
        List<PendingTrap> out = new ArrayList<>();
        for (Pending p : pending.values()) {
            out.add(new PendingTrap(t.nodes[t.portNode[p.issuer]].name(), t.portNumber(p.issuer), p.number,
                    p.tid, p.sends));
        }
        return out;
    }
}
