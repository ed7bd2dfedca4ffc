package org.ibtwin.sim;

import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.MadHeaders;
import org.ibtwin.mad.Methods;
import org.ibtwin.mad.MgmtClasses;
import org.ibtwin.model.PortCounter;
import org.ibtwin.transport.MadAddress;

/**
 * How MADs move: directed-route SMPs by the hop-pointer rules of IBA 14.2.2 (C14-9 outbound, C14-13 on the way
 * back), LID-routed MADs switch by switch through the LFTs. Works in place on the twin's work buffer; every method
 * runs under the twin's lock.
 *
 * <h2>Links</h2>
 * A MAD crosses a link only when both ends are LinkUp. SMPs (VL15) cross in any logical state from Init up; other
 * MADs need an Active egress port and an Armed or Active ingress port. Each crossing counts one packet and
 * {@link Twin#WORDS_PER_MAD} words out of one port and into the other. A MAD that cannot leave a port counts a
 * PortXmitDiscard there; one a switch cannot route counts a PortRcvSwitchRelayError on its ingress port.
 *
 * <h2>Drop rates</h2>
 * With fault injection's drop rates set ({@link DropRules}), a MAD may be lost where it enters a port from its link,
 * and where it reaches a switch's agents (the rates of port 0); it counts nothing, as a packet lost to a bad link
 * whose errors the PMA is told separately ({@link Twin#setCounter}).
 */
final class Forwarding {
    // directed-route SMP header bytes
    static final int STATUS = 4;
    static final int HOP_PTR = 6;
    static final int HOP_CNT = 7;
    static final int DR_SLID = 32;
    static final int DR_DLID = 34;
    static final int INITIAL_PATH = 128;
    static final int RETURN_PATH = 192;

    /** Where directed-route MADs come from: the permissive LID. */
    private static final MadAddress DIRECTED = MadAddress.directed();

    private final TwinState t;
    private final Sma sma;
    private final Pma pma;
    /** The switch at the end of the DR segment when a LID-routed segment follows it (DrDLID not permissive). */
    private int drEndSwitch = -1;
    /** The attribute id of the MAD being moved, for the drop rates of fault injection. */
    int attr;

    Forwarding(TwinState t, Sma sma, Pma pma) {
        this.t = t;
        this.sma = sma;
        this.pma = pma;
    }

    static int u16(byte[] b, int off) {
        return ((b[off] & 0xff) << 8) | (b[off + 1] & 0xff);
    }

    // =====================================================================================================
    // directed route

    /** A directed-route SMP sent by {@code a}: a request going out, or a client's response coming back. */
    boolean directed(TwinAttachment a, byte[] w, MadAddress to) {
        attr = u16(w, 16);
        int method = w[3] & 0xff;
        boolean response = Methods.isResponse(method);
        boolean d = (w[STATUS] & 0x80) != 0;
        int hopCnt = w[HOP_CNT] & 0xff;
        if (hopCnt >= TwinState.MAX_HOPS) {
            return t.drop(DropReason.BAD_DIRECTED_ROUTE);
        }
        if (!d) {
            if (response || (w[HOP_PTR] & 0xff) != 0) {
                return t.drop(DropReason.BAD_DIRECTED_ROUTE);
            }
            int at = outbound(a.gp, w, to.lid());
            return at >= 0 && arriveDirected(at, w);
        }
        if (!response && method != Methods.TRAP_REPRESS) {
            return t.drop(DropReason.BAD_DIRECTED_ROUTE);
        }
        if (hopCnt > 0 && (w[HOP_PTR] & 0xff) == 0) {
            w[HOP_PTR] = (byte) (hopCnt + 1);   // a client that left the hop pointer as ibsim hands it over
        }
        int back = returnPath(a.gp, w, to.lid());
        return back >= 0 && deliverResponse(back, w, DIRECTED);
    }

    /**
     * Walks a request out along its initial path (C14-9), filling in the return path; sets the hop pointer to
     * hop count + 1. Returns the port at which it arrives at the node that is to process it, or -1.
     */
    int outbound(int src, byte[] w, int lrhDlid) {
        int hopCnt = w[HOP_CNT] & 0xff;
        int drSlid = u16(w, DR_SLID);
        int drDlid = u16(w, DR_DLID);
        drEndSwitch = -1;
        int at = src;
        if (drSlid != TwinState.PERMISSIVE) {
            // a LID-routed segment first, to the switch where the directed route begins (the LRH DLID)
            at = lidRoute(src, lrhDlid, true, true);
            if (at < 0) {
                return -1;
            }
            if (!t.isSwitch(t.portNode[at])) {
                return t.dropPort(DropReason.BAD_DIRECTED_ROUTE);
            }
        }
        int hp = 1;
        if (hopCnt > 0) {
            int node = t.portNode[at];
            int out = w[INITIAL_PATH + 1] & 0xff;
            if (t.isSwitch(node) ? out == 0 || out > t.numPorts[node] : out != t.portNumber(at)) {
                return t.dropPort(DropReason.BAD_DIRECTED_ROUTE);
            }
            int egress = t.portBase[node] + out;
            while (true) {
                int q = cross(egress, true);
                if (q < 0) {
                    return -1;
                }
                int n2 = t.portNode[q];
                w[RETURN_PATH + hp] = (byte) t.portNumber(q);
                if (hp == hopCnt) {
                    hp++;
                    at = q;
                    break;
                }
                if (!t.isSwitch(n2)) {
                    return t.dropPort(DropReason.BAD_DIRECTED_ROUTE);   // C14-9:2, only switches relay
                }
                hp++;
                int o = w[INITIAL_PATH + hp] & 0xff;
                if (o == 0 || o > t.numPorts[n2]) {
                    t.addPc(q, PortCounter.RCV_SWITCH_RELAY_ERRORS.ordinal(), 1);
                    return t.dropPort(DropReason.BAD_DIRECTED_ROUTE);
                }
                egress = t.portBase[n2] + o;
            }
        }
        w[HOP_PTR] = (byte) hp;
        if (drDlid != TwinState.PERMISSIVE) {
            // C14-9:3: the switch at the end of the directed route sends it on LID-routed to DrDLID
            int n = t.portNode[at];
            if (!t.isSwitch(n)) {
                return t.dropPort(DropReason.BAD_DIRECTED_ROUTE);
            }
            drEndSwitch = n;
            at = lidRoute(at, drDlid, true, false);
        }
        return at;
    }

    /** A directed-route request arrived at port {@code at}: the SMA answers it, or the SM there takes it. */
    private boolean arriveDirected(int at, byte[] w) {
        int method = w[3] & 0xff;
        int endSwitch = drEndSwitch;
        int endLid = endSwitch < 0 ? TwinState.PERMISSIVE : t.lid[t.portBase[endSwitch]];
        if (attr == AttributeIds.SM_INFO && (method == Methods.GET || method == Methods.SET)) {
            TwinAttachment sm = t.smAt(at);
            if (sm == null) {
                return t.drop(DropReason.NO_RECEIVER);
            }
            t.deliver(sm, w, endSwitch < 0 ? DIRECTED : MadAddress.smp(endLid));
            return true;
        }
        if (lostAtAgent(t.portNode[at])) {
            return false;
        }
        sma.requesterLid = u16(w, 32);   // DrSLID
        int st = sma.handle(t.portNode[at], at, w, method);
        if (st == Sma.DROP) {
            return false;
        }
        if (st == Sma.CONSUMED) {
            return true;
        }
        w[3] = (byte) Methods.GET_RESP;
        w[STATUS] = (byte) (0x80 | ((st >> 8) & 0x7f));
        w[STATUS + 1] = (byte) st;
        int back = returnPath(at, w, endLid);
        return back >= 0 && deliverResponse(back, w, DIRECTED);
    }

    /**
     * Walks a response (D bit set, hop pointer at hop count + 1) back from the responder at {@code from} along the
     * return path (C14-13). When the request ended with a LID-routed segment, the response first goes LID-routed
     * to the switch that began it ({@code lrhDlid}); when it began with one, the first switch sends it on to
     * DrSLID. Returns the port where it reaches its requester, or -1.
     */
    int returnPath(int from, byte[] w, int lrhDlid) {
        int hopCnt = w[HOP_CNT] & 0xff;
        int hp = w[HOP_PTR] & 0xff;
        int drSlid = u16(w, DR_SLID);
        int drDlid = u16(w, DR_DLID);
        int at = from;
        if (drDlid != TwinState.PERMISSIVE) {
            at = lidRoute(from, lrhDlid, true, true);
            if (at < 0) {
                return -1;
            }
            if (!t.isSwitch(t.portNode[at])) {
                return t.dropPort(DropReason.BAD_DIRECTED_ROUTE);
            }
        }
        if (hp != hopCnt + 1) {
            return t.dropPort(DropReason.BAD_DIRECTED_ROUTE);   // C14-13:5
        }
        if (hopCnt > 0) {
            int node = t.portNode[at];
            hp = hopCnt;
            int o = w[RETURN_PATH + hp] & 0xff;
            if (o == 0 || o > t.numPorts[node]) {
                return t.dropPort(DropReason.BAD_DIRECTED_ROUTE);
            }
            int egress = t.portBase[node] + o;
            while (true) {
                int q = cross(egress, true);
                if (q < 0) {
                    return -1;
                }
                if (hp == 1) {
                    at = q;             // C14-13:3, back at the start of the directed route
                    break;
                }
                int n2 = t.portNode[q];
                if (!t.isSwitch(n2)) {
                    return t.dropPort(DropReason.BAD_DIRECTED_ROUTE);
                }
                hp--;
                o = w[RETURN_PATH + hp] & 0xff;
                if (o == 0 || o > t.numPorts[n2]) {
                    t.addPc(q, PortCounter.RCV_SWITCH_RELAY_ERRORS.ordinal(), 1);
                    return t.dropPort(DropReason.BAD_DIRECTED_ROUTE);
                }
                egress = t.portBase[n2] + o;
            }
        }
        w[HOP_PTR] = 0;
        if (drSlid != TwinState.PERMISSIVE) {
            if (!t.isSwitch(t.portNode[at])) {
                return t.dropPort(DropReason.BAD_DIRECTED_ROUTE);
            }
            at = lidRoute(at, drSlid, true, false);
        }
        return at;
    }

    // =====================================================================================================
    // LID routed

    /** A LID-routed MAD sent by {@code a}: an SMP (class 0x01) or a GMP to QP1. */
    boolean lidRouted(TwinAttachment a, byte[] w, MadAddress to, int cls) {
        attr = u16(w, 16);
        boolean vl15 = cls == MgmtClasses.SUBN_LID;
        int src = a.gp;
        int slid = t.lid[src];
        int at = lidRoute(src, to.lid(), vl15, true);
        if (at < 0) {
            return false;
        }
        int qp = vl15 ? 0 : 1;
        MadAddress from = new MadAddress(slid, qp, vl15 ? 0 : MadAddress.GSI_QKEY, to.sl(), 0);
        int method = w[3] & 0xff;
        if (Methods.isResponse(method)) {
            return deliverResponse(at, w, from);
        }
        int node = t.portNode[at];
        int st;
        if (vl15) {
            if (method == Methods.TRAP
                    || (attr == AttributeIds.SM_INFO && (method == Methods.GET || method == Methods.SET))) {
                return toSm(at, w, from);
            }
            if (lostAtAgent(node)) {
                return false;
            }
            sma.requesterLid = slid;
            st = sma.handle(node, at, w, method);
        } else if (cls == MgmtClasses.PERF) {
            if (lostAtAgent(node)) {
                return false;
            }
            st = pma.handle(node, at, w, method);
        } else {
            return toSm(at, w, from);
        }
        if (st == Sma.DROP) {
            return false;
        }
        if (st == Sma.CONSUMED) {
            return true;
        }
        w[3] = (byte) Methods.GET_RESP;
        w[STATUS] = (byte) (st >> 8);
        w[STATUS + 1] = (byte) st;
        int responder = t.agentPort(at);
        int back = responder == t.agentPort(src) ? src : lidRoute(responder, slid, vl15, true);
        if (back < 0) {
            return false;
        }
        return deliverResponse(back, w,
                new MadAddress(t.lid[responder], qp, vl15 ? 0 : MadAddress.GSI_QKEY, to.sl(), 0));
    }

    private boolean toSm(int at, byte[] w, MadAddress from) {
        TwinAttachment sm = t.smAt(at);
        if (sm == null) {
            return t.drop(DropReason.NO_RECEIVER);
        }
        t.deliver(sm, w, from);
        return true;
    }

    private boolean deliverResponse(int at, byte[] w, MadAddress from) {
        TwinAttachment to = t.responder(at, MadHeaders.tid(w));
        if (to == null) {
            return t.drop(DropReason.NO_RECEIVER);
        }
        t.deliver(to, w, from);
        return true;
    }

    /**
     * Routes a LID-routed packet from port {@code start} to {@code dlid}: out of a CA port, or through the LFT of
     * the switch {@code start} belongs to (its port 0, or the port it came in by), then switch by switch. A packet
     * for the sender's own LID range stays local ({@code origin}). Returns the port where it is accepted: an end
     * port whose LID range holds the DLID, or a switch's port 0 when its LFT says 0 and its LID range holds it.
     */
    int lidRoute(int start, int dlid, boolean vl15, boolean origin) {
        if (dlid == 0 || dlid >= TwinState.MULTICAST_BASE) {
            return t.dropPort(DropReason.DLID_MISMATCH);
        }
        int node = t.portNode[start];
        if (origin && t.inRange(start, dlid)) {
            return start;
        }
        int egress;
        if (t.isSwitch(node)) {
            egress = lookup(node, start, dlid);
            if (egress < 0 || egress == t.portBase[node]) {
                return egress;
            }
        } else {
            egress = start;
        }
        for (int hops = 0; hops < TwinState.MAX_HOPS; hops++) {
            int q = cross(egress, vl15);
            if (q < 0) {
                return -1;
            }
            int n2 = t.portNode[q];
            if (!t.isSwitch(n2)) {
                if (t.inRange(q, dlid)) {
                    return q;
                }
                t.addPc(q, PortCounter.RCV_ERRORS.ordinal(), 1);
                return t.dropPort(DropReason.DLID_MISMATCH);
            }
            egress = lookup(n2, q, dlid);
            if (egress < 0 || egress == t.portBase[n2]) {
                return egress;
            }
        }
        return t.dropPort(DropReason.LOOP);
    }

    /** The egress port a switch's LFT gives {@code dlid} (port 0 if it takes the packet itself), or -1. */
    private int lookup(int node, int ingress, int dlid) {
        int s = t.swIndex[node];
        byte[] table = t.lft[s];
        int e = dlid <= t.lftTop[s] && dlid < table.length ? table[dlid] & 0xff : 0xff;
        if (e > t.numPorts[node]) {
            t.addPc(ingress, PortCounter.RCV_SWITCH_RELAY_ERRORS.ordinal(), 1);
            return t.dropPort(DropReason.NO_ROUTE);
        }
        int g = t.portBase[node] + e;
        if (e == 0 && !t.inRange(g, dlid)) {
            return t.dropPort(DropReason.DLID_MISMATCH);
        }
        return g;
    }

    /**
     * Sends a packet out of {@code out} over its link: the port at the other end, or -1 when it cannot go (no
     * link, a link not up, or, for a non-SMP, ports not Active / Armed).
     */
    int cross(int out, boolean vl15) {
        int in = t.remote[out];
        if (in < 0 || t.phys[out] != TwinState.LINK_UP || t.phys[in] != TwinState.LINK_UP) {
            t.addPc(out, PortCounter.XMIT_DISCARDS.ordinal(), 1);
            return t.dropPort(DropReason.PORT_DOWN);
        }
        if (!vl15 && t.state[out] != TwinState.ACTIVE) {
            t.addPc(out, PortCounter.XMIT_DISCARDS.ordinal(), 1);
            return t.dropPort(DropReason.PORT_NOT_ACTIVE);
        }
        t.countCrossing(out, in);
        if (!vl15 && t.state[in] < TwinState.ARMED) {
            t.addPc(in, PortCounter.RCV_ERRORS.ordinal(), 1);
            return t.dropPort(DropReason.PORT_NOT_ACTIVE);
        }
        if (!t.dropRules.isEmpty() && t.dropRules.drops(in, attr)) {
            return t.dropPort(DropReason.INJECTED);
        }
        return in;
    }

    // =====================================================================================================
    // multicast

    /**
     * A multicast packet (a UD send to {@code mlid}) sent out of end port {@code src}: it crosses to the switch
     * there, and each switch sends it out of every port its MFT entry for the MLID holds except the one it came in
     * by (IBA 18.2.4.3.3), port 0 taking a copy for the switch itself. Returns the end ports it reached (CA ports
     * and switch ports 0), in the order it reached them; a packet that comes back to a switch it already passed (a
     * loop in the MFTs) goes no further there and counts a LOOP drop.
     */
    int[] multicast(int src, int mlid) {
        attr = 0;
        if (mlid < TwinState.MULTICAST_BASE || mlid >= TwinState.PERMISSIVE) {
            t.dropPort(DropReason.DLID_MISMATCH);
            return new int[0];
        }
        int[] out = new int[16];
        int n = 0;
        boolean[] seen = new boolean[t.switchCount];
        java.util.ArrayDeque<int[]> work = new java.util.ArrayDeque<>();   // {switch node, ingress port}
        int node = t.portNode[src];
        if (t.isSwitch(node)) {
            work.add(new int[] {node, src});
        } else {
            int q = mcastCross(src);
            if (q < 0) {
                return new int[0];
            }
            if (!t.isSwitch(t.portNode[q])) {
                out[n++] = q;       // a CA linked straight to a CA
            } else {
                work.add(new int[] {t.portNode[q], q});
            }
        }
        while (!work.isEmpty()) {
            int[] w = work.poll();
            int sw = w[0];
            int s = t.swIndex[sw];
            if (seen[s]) {
                t.dropPort(DropReason.LOOP);
                continue;
            }
            seen[s] = true;
            int base = t.portBase[sw];
            for (int p = 0; p <= t.numPorts[sw]; p++) {
                int g = base + p;
                if (g == w[1] || !mftHas(sw, mlid, p)) {
                    continue;
                }
                if (p == 0) {
                    out = add(out, n++, g);
                    continue;
                }
                int q = mcastCross(g);
                if (q < 0) {
                    continue;
                }
                if (t.isSwitch(t.portNode[q])) {
                    work.add(new int[] {t.portNode[q], q});
                } else {
                    out = add(out, n++, q);
                }
            }
        }
        return java.util.Arrays.copyOf(out, n);
    }

    private static int[] add(int[] a, int i, int v) {
        int[] b = i < a.length ? a : java.util.Arrays.copyOf(a, a.length * 2);
        b[i] = v;
        return b;
    }

    /** Whether switch {@code node}'s MFT sends {@code mlid} out of port {@code p}. */
    boolean mftHas(int node, int mlid, int p) {
        char[] table = t.mft[t.swIndex[node]];
        int index = mlid - TwinState.MULTICAST_BASE;
        if (table == null || index >= TwinState.MCAST_FDB_CAP) {
            return false;
        }
        int positions = t.numPorts[node] / 16 + 1;
        return (table[((index / 32) * positions + p / 16) * 32 + index % 32] & (1 << (p % 16))) != 0;
    }

    /** A multicast data packet out of {@code out}: the port it reaches, or -1 (counted as {@link #cross}). */
    private int mcastCross(int out) {
        int in = cross(out, false);
        if (in >= 0) {
            t.countMulticast(out, in);
        }
        return in;
    }

    /** A MAD for the agents of a switch meets the drop rates of its port 0 (a CA's met its port's on the way). */
    private boolean lostAtAgent(int node) {
        if (!t.dropRules.isEmpty() && t.isSwitch(node) && t.dropRules.drops(t.portBase[node], attr)) {
            t.drop(DropReason.INJECTED);
            return true;
        }
        return false;
    }
}
