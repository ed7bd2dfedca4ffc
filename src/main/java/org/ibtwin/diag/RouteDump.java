package org.ibtwin.diag;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.PortId;
import org.ibtwin.mad.SmpAttributes;

/**
 * ibroute's work: a switch's unicast (LinearForwardingTable) or multicast (MulticastForwardingTable) routes over a
 * LID range, each unicast destination described by asking the LID itself (NodeDescription, PortInfo, NodeInfo, with
 * ibroute's 100 ms timeout), as infiniband-diags' ibroute prints them.
 */
public final class RouteDump {
    /** The first multicast LID. */
    public static final int MCAST_BASE = 0xc000;
    /** The highest multicast LID. */
    public static final int MCAST_MAX = 0xfffe;
    private static final Duration DEST_TIMEOUT = Duration.ofMillis(100);

    private final MadQuery q;
    private final boolean all;
    private final boolean brief;
    private final Consumer<String> warn;
    private final Consumer<String> stderr;

    // dump_lid's memory of the last LMC range seen
    private int lastPortLid;
    private int basePortLid;
    private long rangeGuid;

    /**
     * @param all   -a: every LID, invalid out ports too
     * @param brief -n: no destination resolving (multicast: the port masks in hex)
     * @param warn  IBWARN lines ("function: text")
     * @param stderr other lines ibroute prints on stderr
     */
    private java.util.function.BiFunction<Long, String, String> names = (guid, desc) -> desc;

    public RouteDump(MadQuery q, boolean all, boolean brief, Consumer<String> warn, Consumer<String> stderr) {
        this.stderr = stderr;
        this.q = q;
        this.all = all;
        this.brief = brief;
        this.warn = warn;
    }

    /**
     * How a node is named in the output, from its GUID and description: the node name map's name, else the
     * description (the tools' remap_node_name); the description itself by default.
     */
    public RouteDump names(java.util.function.BiFunction<Long, String, String> byGuid) {
        this.names = byGuid;
        return this;
    }

    /** The switch's NodeInfo, NodeDescription and SwitchInfo, or ibroute's complaint. */
    private record Switch(int ports, long guid, String desc, byte[] switchInfo) {
    }

    private Switch checkSwitch(PortId dest) {
        byte[] ni;
        byte[] nd;
        try {
            ni = q.smpGet(dest, AttributeIds.NODE_INFO, 0);
        } catch (QueryException e) {
            throw new OpFailure("dump tables: node info failed: valid addr?", e);
        }
        try {
            nd = q.smpGet(dest, AttributeIds.NODE_DESC, 0);
        } catch (QueryException e) {
            throw new OpFailure("dump tables: node desc failed", e);
        }
        if (SmpAttributes.NODE_INFO.get(ni, 0, "NodeType") != 2) {
            throw new OpFailure("dump tables: not a switch");
        }
        byte[] si;
        try {
            si = q.smpGet(dest, AttributeIds.SWITCH_INFO, 0);
        } catch (QueryException e) {
            throw new OpFailure("dump tables: switch info failed: is a switch node?", e);
        }
        long guid = SmpAttributes.NODE_INFO.get(ni, 0, "Guid");
        return new Switch((int) SmpAttributes.NODE_INFO.get(ni, 0, "NumPorts"), guid, names.apply(guid, desc(nd)),
                si);
    }

    /** A node description as the tools print it: up to the first NUL, non-printing bytes as spaces. */
    public static String desc(byte[] nd) {
        int n = 0;
        while (n < nd.length && nd[n] != 0) {
            n++;
        }
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = nd[i] < 0x20 || nd[i] > 0x7e ? (byte) ' ' : nd[i];
        }
        return new String(b, StandardCharsets.ISO_8859_1);
    }

    /** One unicast route. */
    public record Route(int lid, int port, String info) {
    }

    /** Unicast routes of {@code dest} from {@code startLid} to {@code endLid} (0: LinearFDBTop). */
    public List<Route> unicast(PortId dest, int startLid, int endLid, StringBuilder out) {
        Switch sw = checkSwitch(dest);
        return unicast(dest, sw, startLid, endLid, out, this::destination,
                "SubnGet() failed; MAD status 0x%x AM 0x%x");
    }

    /**
     * dump_fts's unicast table of a switch found by {@link NetDiscovery}: destinations from the scan, not asked;
     * {@code desc} the name to show (the node name map's or the description).
     */
    public List<Route> unicast(NetFabric fabric, NetNode node, String desc, int startLid, int endLid,
            StringBuilder out) {
        Switch sw = new Switch(node.numPorts(), node.guid(), desc, node.switchInfo());
        int[] lmcRange = new int[3];
        long[] guid = new long[1];
        String failure = "SubnGet(LFT) failed on switch '" + desc.replace("%", "%%") + "' " + pathOf(node)
                + " Node GUID 0x" + Long.toHexString(node.guid()) + " SMA LID " + node.smaLid()
                + "; MAD status 0x%x AM 0x%x";
        return unicast(pathOf(node), sw, startLid, endLid, out,
                (lid, valid) -> scanned(fabric, lid, valid, lmcRange, guid), failure);
    }

    /** The directed route to a scanned node as libibnetdisc keeps it (DrSLID and DrDLID 0). */
    public static PortId pathOf(NetNode node) {
        byte[] p = node.path();
        int[] path = new int[p.length + 1];
        for (int i = 0; i < p.length; i++) {
            path[i + 1] = p[i] & 0xff;
        }
        return new PortId(0, 0, 0, path);
    }

    /** dump_fts's dump_lid: the port with that LID in the scan. */
    private String scanned(NetFabric fabric, int lid, boolean valid, int[] range, long[] guid) {
        if (brief) {
            return "";
        }
        if (lid <= range[1]) {
            if (!valid) {
                return ": (path #" + (lid - range[0]) + " - illegal port)";
            } else if (guid[0] == 0) {
                return ": (path #" + (lid - range[0] + 1) + " out of " + (range[1] - range[0] + 1) + ")";
            }
            return String.format(": (path #%d out of %d: portguid 0x%016x)", lid - range[0] + 1,
                    range[1] - range[0] + 1, guid[0]);
        }
        if (!valid) {
            return ": (illegal port)";
        }
        guid[0] = 0;
        NetPort port = fabric.portByLid(lid);
        if (port == null) {
            return ": (node info not available fabric scan)";
        }
        guid[0] = port.guid();
        if (port.lmc() > 0) {
            range[0] = port.baseLid();
            range[1] = port.baseLid() + (1 << port.lmc()) - 1;
        }
        return String.format(": (%s portguid 0x%016x: '%s')", typeName(port.node().type()), guid[0],
                port.node().description());
    }

    private interface Destinations {
        String at(int lid, boolean valid);
    }

    private List<Route> unicast(PortId dest, Switch sw, int startLid, int endLid, StringBuilder out,
            Destinations dests, String failure) {
        int top = (int) SmpAttributes.SWITCH_INFO.get(sw.switchInfo(), 0, "LinearFdbTop");
        if (endLid == 0 || endLid > top) {
            endLid = top;
        }
        if (endLid > Addresses.MAX_UCAST_LID) {
            warn.accept("dump_unicast_tables: illegal lft top " + endLid + ", truncate to "
                    + Addresses.MAX_UCAST_LID);
            endLid = Addresses.MAX_UCAST_LID;
        }
        out.append(String.format("Unicast lids [0x%x-0x%x] of switch %s guid 0x%016x (%s):%n", startLid, endLid,
                dest, sw.guid(), sw.desc()));
        out.append("  Lid  Out   Destination\n");
        out.append("       Port     Info \n");
        List<Route> routes = new ArrayList<>();
        int startBlock = startLid / 64;
        int endBlock = (endLid + 63) / 64;
        byte[] last = new byte[64];
        for (int block = startBlock; block < endBlock; block++) {
            byte[] lft;
            try {
                lft = q.smpGet(dest, AttributeIds.LINEAR_FWD_TABLE, block);
                last = lft;
            } catch (QueryException e) {
                stderr.accept(String.format(failure, e.status(), block));
                if (failure.startsWith("SubnGet()")) {
                    return routes;
                }
                lft = last;
            }
            int i = Math.max(block * 64, startLid);
            int e = Math.min(block * 64 + 64, endLid + 1);
            for (; i < e; i++) {
                int port = lft[i % 64] & 0xff;
                boolean valid = port <= sw.ports();
                if (!valid && !all) {
                    continue;
                }
                String info = dests.at(i, valid);
                out.append(String.format("0x%04x %03d %s%n", i, port, info));
                routes.add(new Route(i, port, info));
            }
        }
        out.append(String.format("%d %slids dumped %n", routes.size(), all ? "" : "valid "));
        return routes;
    }

    /** dump_lid: what is at {@code lid}, remembering the last LMC range. */
    private String destination(int lid, boolean valid) {
        if (brief) {
            return "";
        }
        if (lid <= lastPortLid) {
            if (!valid) {
                return ": (path #" + (lid - basePortLid) + " - illegal port)";
            } else if (rangeGuid == 0) {
                return ": (path #" + (lid - basePortLid + 1) + " out of " + (lastPortLid - basePortLid + 1) + ")";
            }
            return String.format(": (path #%d out of %d: portguid 0x%016x)", lid - basePortLid + 1,
                    lastPortLid - basePortLid + 1, rangeGuid);
        }
        if (!valid) {
            return ": (illegal port)";
        }
        rangeGuid = 0;
        Duration saved = q.timeout();
        q.timeout(DEST_TIMEOUT);
        byte[] nd;
        byte[] pi;
        byte[] ni;
        try {
            PortId at = PortId.lid(lid);
            nd = q.smpGet(at, AttributeIds.NODE_DESC, 0);
            pi = q.smpGet(at, AttributeIds.PORT_INFO, 0);
            ni = q.smpGet(at, AttributeIds.NODE_INFO, 0);
        } catch (QueryException e) {
            if (e.alwaysWarned()) {
                warn.accept(e.warning());
            }
            return ": (unknown node and type)";
        } finally {
            q.timeout(saved);
        }
        rangeGuid = SmpAttributes.NODE_INFO.get(ni, 0, "PortGuid");
        int type = (int) SmpAttributes.NODE_INFO.get(ni, 0, "NodeType");
        int base = (int) SmpAttributes.PORT_INFO.get(pi, 0, "Lid");
        int lmc = (int) SmpAttributes.PORT_INFO.get(pi, 0, "LMC");
        if (lmc > 0) {
            basePortLid = base;
            lastPortLid = base + (1 << lmc) - 1;
        }
        return String.format(": (%s portguid 0x%016x: '%s')", typeName(type), rangeGuid,
                names.apply(SmpAttributes.NODE_INFO.get(ni, 0, "Guid"), desc(nd)));
    }

    private static String typeName(int type) {
        return switch (type) {
            case 1 -> "Channel Adapter";
            case 2 -> "Switch";
            case 3 -> "Router";
            default -> "?(" + type + ")";
        };
    }

    /** Multicast routes of {@code dest} from {@code startLid} to {@code endLid} (0: the table's end). */
    public int multicast(PortId dest, int startLid, int endLid, StringBuilder out) {
        return multicast(dest, checkSwitch(dest), startLid, endLid, out, null);
    }

    /** dump_fts -M: the multicast table of a scanned switch. */
    public int multicast(NetNode node, String desc, int startLid, int endLid, StringBuilder out) {
        Switch sw = new Switch(node.numPorts(), node.guid(), desc, node.switchInfo());
        return multicast(pathOf(node), sw, startLid, endLid, out, "SubnGet(MFT) failed on switch '"
                + desc.replace("%", "%%") + "' " + pathOf(node) + " Node GUID 0x" + Long.toHexString(node.guid())
                + " SMA LID " + node.smaLid() + "; MAD status 0x%x AM 0x%x");
    }

    private int multicast(PortId dest, Switch sw, int startLid, int endLid, StringBuilder out, String failure) {
        int cap = (int) SmpAttributes.SWITCH_INFO.get(sw.switchInfo(), 0, "McastFdbCap");
        int top = (int) SmpAttributes.SWITCH_INFO.get(sw.switchInfo(), 0, "MulticastFDBTop");
        int nports = sw.ports();
        if (endLid == 0 || endLid > MCAST_BASE + cap - 1) {
            endLid = MCAST_BASE + cap - 1;
        }
        if (!all && top != 0 && top < endLid) {
            if (top < MCAST_BASE - 1) {
                warn.accept("dump_multicast_tables: illegal top mlid " + Integer.toHexString(top));
            } else {
                endLid = top;
            }
        }
        if (startLid == 0) {
            startLid = MCAST_BASE;
        } else if (startLid < MCAST_BASE) {
            warn.accept("dump_multicast_tables: illegal start mlid " + Integer.toHexString(startLid) + ", set to "
                    + Integer.toHexString(MCAST_BASE));
            startLid = MCAST_BASE;
        }
        if (endLid > MCAST_MAX) {
            warn.accept("dump_multicast_tables: illegal end mlid " + Integer.toHexString(endLid) + ", truncate to "
                    + Integer.toHexString(MCAST_MAX));
            endLid = MCAST_MAX;
        }
        out.append(String.format("Multicast mlids [0x%x-0x%x] of switch %s guid 0x%016x (%s):%n", startLid, endLid,
                dest, sw.guid(), sw.desc()));
        if (brief) {
            out.append(" MLid       Port Mask\n");
        } else {
            StringBuilder s = new StringBuilder();
            if (nports > 9) {
                for (int i = 0; i <= nports; i++) {
                    s.append(i % 10 != 0 ? ' ' : (char) ('0' + i / 10)).append(' ');
                }
                out.append("            ").append(s).append('\n');
                s.setLength(0);
            }
            for (int i = 0; i <= nports; i++) {
                s.append(i % 10).append(' ');
            }
            out.append("     Ports: ").append(s).append('\n');
            out.append(" MLid\n");
        }
        int chunks = (nports + 1 + 15) / 16;
        int n = 0;
        byte[][] mft = new byte[chunks][];
        for (int j = 0; j < chunks; j++) {
            mft[j] = new byte[64];
        }
        for (int block = startLid / 32; block <= endLid / 32; block++) {
            for (int j = 0; j < chunks; j++) {
                long mod = (block - MCAST_BASE / 32) | ((long) j << 28);
                try {
                    mft[j] = q.smpGet(dest, AttributeIds.MCAST_FWD_TABLE, mod);
                } catch (QueryException e) {
                    if (failure == null) {
                        stderr.accept(String.format("SubnGet() failed; MAD status 0x%x AM 0x%x", e.status(), mod));
                        return n;
                    }
                    stderr.accept(String.format(failure, e.status(), mod));
                }
            }
            int i = Math.max(block * 32, startLid);
            int e = Math.min(block * 32 + 32, endLid + 1);
            for (; i < e; i++) {
                String line = mlid(i, nports, mft);
                if (line.isEmpty()) {
                    continue;
                }
                out.append(String.format("0x%04x      %s%n", i, line));
                n++;
            }
        }
        out.append(String.format("%d %smlids dumped %n", n, all ? "" : "valid "));
        return n;
    }

    private String mlid(int mlid, int nports, byte[][] mft) {
        int idx = mlid % 32;
        boolean nonzero = false;
        StringBuilder sb = new StringBuilder();
        if (brief) {
            for (byte[] chunk : mft) {
                int mask = ((chunk[2 * idx] & 0xff) << 8) | (chunk[2 * idx + 1] & 0xff);
                nonzero |= mask != 0;
                sb.append(String.format("%04x", mask));
            }
        } else {
            for (int i = 0; i <= nports; i++) {
                byte[] chunk = mft[i / 16];
                int mask = ((chunk[2 * idx] & 0xff) << 8) | (chunk[2 * idx + 1] & 0xff);
                nonzero |= mask != 0;
                sb.append((mask & (1 << (i % 16))) != 0 ? 'x' : ' ').append(' ');
            }
        }
        return !nonzero && !all ? "" : sb.toString();
    }
}
