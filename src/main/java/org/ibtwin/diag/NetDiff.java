package org.ibtwin.diag;

import java.util.Arrays;
import java.util.List;

/**
 * ibnetdiscover's and iblinkinfo's {@code --diff}: a cached fabric against the one just found, node by node,
 * lines of the old marked "< " and of the new "> ", as the real tools print them. The checks are the real tools'
 * {@code --diffcheck} keys.
 */
public final class NetDiff {
    /** ibnetdiscover's keys. */
    public static final int SWITCH = 0x01;
    public static final int CA = 0x02;
    public static final int ROUTER = 0x04;
    public static final int PORT = 0x08;
    public static final int LID = 0x10;
    public static final int NODEDESC = 0x20;
    /** iblinkinfo's keys (its own numbering). */
    public static final int L_PORT = 0x01;
    public static final int L_STATE = 0x02;
    public static final int L_LID = 0x04;
    public static final int L_NODEDESC = 0x08;

    private final NetOutputs o;

    public NetDiff(NetOutputs o) {
        this.o = o;
    }

    /** ibnetdiscover's --diffcheck: the flags, or -1 for a bad key (its message on stderr is the caller's). */
    public static int ibnetdiscoverFlags(String keys) {
        if (keys == null) {
            return SWITCH | CA | ROUTER | PORT;
        }
        int f = 0;
        for (String k : keys.split(",")) {
            if (k.isEmpty()) {
                continue;
            }
            switch (k.toLowerCase(java.util.Locale.ROOT)) {
                case "sw" -> f |= SWITCH;
                case "ca" -> f |= CA;
                case "router" -> f |= ROUTER;
                case "port" -> f |= PORT;
                case "lid" -> f |= LID;
                case "nodedesc" -> f |= NODEDESC;
                default -> {
                    return -1;
                }
            }
        }
        return f;
    }

    /** iblinkinfo's --diffcheck: the flags, or -1 for a bad key. */
    public static int iblinkinfoFlags(String keys) {
        if (keys == null) {
            return L_PORT | L_STATE;
        }
        int f = 0;
        for (String k : keys.split(",")) {
            if (k.isEmpty()) {
                continue;
            }
            switch (k.toLowerCase(java.util.Locale.ROOT)) {
                case "port" -> f |= L_PORT;
                case "state" -> f |= L_STATE;
                case "lid" -> f |= L_LID;
                case "nodedesc" -> f |= L_NODEDESC;
                default -> {
                    return -1;
                }
            }
        }
        return f;
    }

    /** The first bad key of a --diffcheck list, for the message. */
    public static String badKey(String keys, boolean linkinfo) {
        for (String k : keys.split(",")) {
            if (!k.isEmpty() && (linkinfo ? iblinkinfoFlags(k) : ibnetdiscoverFlags(k)) < 0) {
                return k;
            }
        }
        return keys;
    }

    // ------------------------------------------------------------------ ibnetdiscover

    public void ibnetdiscover(NetFabric orig, NetFabric now, int flags, StringBuilder out) {
        if ((flags & SWITCH) != 0) {
            common(orig, now, NetNode.SWITCH, flags, out);
        }
        if ((flags & CA) != 0) {
            common(orig, now, NetNode.CA, flags, out);
        }
        if ((flags & ROUTER) != 0) {
            common(orig, now, NetNode.ROUTER, flags, out);
        }
    }

    private void common(NetFabric orig, NetFabric now, int type, int flags, StringBuilder out) {
        for (NetNode n : orig.nodes(type)) {
            node(n, now, flags, "< ", "> ", out);
        }
        int back = flags & ~(PORT | LID | NODEDESC);
        for (NetNode n : now.nodes(type)) {
            node(n, orig, back, "> ", "< ", out);
        }
    }

    private void header(NetNode n, String idPrefix, String prefix, StringBuilder out) {
        if (n.isSwitch()) {
            o.switchRecord(n, idPrefix, false, out);
        } else {
            o.caRecord(n, idPrefix, out);
        }
        out.append('\n');
    }

    private void detail(NetNode n, String prefix, StringBuilder out) {
        if (n.isSwitch()) {
            o.switchDetail(n, prefix, out);
        } else {
            o.caDetail(n, prefix, out);
        }
    }

    private void port(NetPort p, String prefix, StringBuilder out) {
        if (p == null || p.remote() == null) {
            return;         // the real tool dereferences the missing remote here and crashes
        }
        if (p.node().isSwitch()) {
            o.switchPort(p, false, prefix, out);
        } else {
            o.caPort(p, false, prefix, out);
        }
    }

    private void node(NetNode n1, NetFabric f2, int flags, String p1, String p2, StringBuilder out) {
        NetNode n2 = f2.node(n1.guid());
        if (n2 == null) {
            headerPrefixed(n1, p1, out);
            for (int p = 1; p <= n1.numPorts(); p++) {
                NetPort port = n1.port(p);
                if (port != null && port.remote() != null) {
                    port(port, p1, out);
                }
            }
            return;
        }
        if ((flags & (PORT | LID | NODEDESC)) == 0) {
            return;
        }
        boolean[] shown = {false};
        if (((flags & LID) != 0 && n1.smaLid() != n2.smaLid())
                || ((flags & NODEDESC) != 0 && !Arrays.equals(n1.nodeDescBytes(), n2.nodeDescBytes()))) {
            idsAndDetail(n1, p1, out);
            detail(n2, p2, out);
            out.append('\n');
            shown[0] = true;
        }
        if (n1.numPorts() != n2.numPorts()) {
            once(n1, shown, out);
            out.append(p1).append("numports = ").append(n1.numPorts()).append('\n');
            out.append(p2).append("numports = ").append(n2.numPorts()).append('\n');
            return;
        }
        if ((flags & (PORT | LID)) == 0) {
            return;
        }
        for (int p = 1; p <= n1.numPorts(); p++) {
            NetPort a = n1.port(p);
            NetPort b = n2.port(p);
            int out1 = 0;
            int out2 = 0;
            if ((flags & PORT) != 0) {
                if ((a != null && b == null) || (a != null && a.remote() != null && b.remote() == null)) {
                    out1++;
                } else if ((a == null && b != null) || (a != null && a.remote() == null && b.remote() != null)) {
                    out2++;
                } else if (a != null && (a.guid() != b.guid() || (a.remote() != null && b.remote() != null
                        && a.remote().guid() != b.remote().guid()))) {
                    out1++;
                    out2++;
                }
            }
            if ((flags & LID) != 0 && a != null && b != null && a.baseLid() != b.baseLid()) {
                out1++;
                out2++;
            }
            boolean remotes = a != null && b != null && a.remote() != null && b.remote() != null;
            if ((flags & PORT) != 0 && (flags & NODEDESC) != 0 && remotes
                    && !Arrays.equals(a.remote().node().nodeDescBytes(), b.remote().node().nodeDescBytes())) {
                out1++;
                out2++;
            }
            if ((flags & PORT) != 0 && (flags & LID) != 0 && remotes
                    && a.remote().baseLid() != b.remote().baseLid()) {
                out1++;
                out2++;
            }
            if (out1 > 0) {
                once(n1, shown, out);
                port(a, p1, out);
            }
            if (out2 > 0) {
                once(n1, shown, out);
                port(b, p2, out);
            }
        }
    }

    /** out_switch/out_ca with both the id and detail prefixed (a node only one fabric has). */
    private void headerPrefixed(NetNode n, String prefix, StringBuilder out) {
        if (n.isSwitch()) {
            o.switchRecord(n, prefix, false, out);
        } else {
            o.caRecord(n, prefix, out);
        }
        // switchRecord/caRecord prefix the ids with idPrefix and the detail line with the same prefix
        out.append('\n');
    }

    /** out_switch/out_ca with unprefixed ids and a prefixed detail line. */
    private void idsAndDetail(NetNode n, String prefix, StringBuilder out) {
        StringBuilder ids = new StringBuilder();
        if (n.isSwitch()) {
            o.switchRecord(n, "", false, ids);
        } else {
            o.caRecord(n, "", ids);
        }
        // replace the unprefixed detail line (the record's last line) by the prefixed one
        int cut = ids.lastIndexOf("\n") + 1;
        ids.setLength(cut);
        out.append(ids);
        detail(n, prefix, out);
        out.append('\n');
    }

    private void once(NetNode n, boolean[] shown, StringBuilder out) {
        if (!shown[0]) {
            header(n, "", "", out);
            shown[0] = true;
        }
    }

    // ------------------------------------------------------------------ iblinkinfo

    /** iblinkinfo --diff over {@code nodes1} (of {@code orig}) and then the new fabric's {@code nodes2}. */
    public void iblinkinfo(NetFabric orig, List<NetNode> nodes1, NetFabric now, List<NetNode> nodes2, int flags,
                           NetOutputs.LinkOptions lo, StringBuilder out) {
        for (NetNode n : nodes1) {
            linkNode(n, now, flags, lo, "< ", "> ", out);
        }
        int back = flags & ~(L_PORT | L_STATE | L_LID | L_NODEDESC);
        for (NetNode n : nodes2) {
            linkNode(n, orig, back, lo, "> ", "< ", out);
        }
    }

    private void linkNode(NetNode n1, NetFabric f2, int flags, NetOutputs.LinkOptions lo, String p1, String p2,
                          StringBuilder out) {
        NetNode n2 = f2.node(n1.guid());
        if (n2 == null) {
            o.linkNode(n1, lo, p1, out);
            return;
        }
        if ((flags & (L_PORT | L_STATE | L_LID | L_NODEDESC)) == 0) {
            return;
        }
        boolean[] shown = {false};
        if ((n1.isSwitch() && (flags & L_LID) != 0 && n1.smaLid() != n2.smaLid())
                || ((flags & L_NODEDESC) != 0 && !Arrays.equals(n1.nodeDescBytes(), n2.nodeDescBytes()))) {
            o.linkHeader(n1, lo, p1, out);
            o.linkHeader(n2, lo, p2, out);
            shown[0] = true;
        }
        if (n1.numPorts() != n2.numPorts()) {
            linkOnce(n1, lo, shown, out);
            out.append(p1).append("numports = ").append(n1.numPorts()).append('\n');
            out.append(p2).append("numports = ").append(n2.numPorts()).append('\n');
            return;
        }
        for (int i = 1; i <= n1.numPorts(); i++) {
            NetPort a = n1.port(i);
            NetPort b = n2.port(i);
            if (a == null && b == null) {
                continue;
            }
            int diff = 0;
            if ((flags & L_PORT) != 0) {
                if (a == null || b == null || (a.remote() != null) != (b.remote() != null)
                        || (a.remote() != null && a.remote().guid() != b.remote().guid())) {
                    diff++;
                }
            }
            if ((flags & L_STATE) != 0 && a != null && b != null && a.state() != b.state()) {
                diff++;
            }
            boolean remotes = a != null && b != null && a.remote() != null && b.remote() != null;
            if ((flags & L_PORT) != 0 && (flags & L_LID) != 0 && remotes
                    && a.remote().baseLid() != b.remote().baseLid()) {
                diff++;
            }
            if ((flags & L_PORT) != 0 && (flags & L_NODEDESC) != 0 && remotes
                    && !Arrays.equals(a.remote().node().nodeDescBytes(), b.remote().node().nodeDescBytes())) {
                diff++;
            }
            if (diff > 0 && a != null) {
                linkOnce(n1, lo, shown, out);
                o.linkPort(n1, a, lo, p1, out);
            }
            if (diff > 0 && b != null) {
                linkOnce(n1, lo, shown, out);
                o.linkPort(n2, b, lo, p2, out);
            }
        }
    }

    private void linkOnce(NetNode n, NetOutputs.LinkOptions lo, boolean[] shown, StringBuilder out) {
        if (!shown[0]) {
            o.linkHeader(n, lo, "", out);
            shown[0] = true;
        }
    }
}
