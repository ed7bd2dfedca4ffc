package org.ibtwin.diag;

import java.time.ZonedDateTime;
import java.util.List;
import org.ibtwin.format.NodeNameMap;
import org.ibtwin.format.TopologyWriter;
import org.ibtwin.mad.Printer;
import org.ibtwin.model.LinkWidth;
import org.ibtwin.model.NodeType;

/**
 * What ibnetdiscover and iblinkinfo print for a {@link NetFabric}, line for line as infiniband-diags 44 prints it:
 * the topology (ibnetdiscover's default, also with -f and -m), the ports report (-p), the node lists (-l, -H, -S,
 * -R), and iblinkinfo's per-port lines (tree and -l line mode, -d, -p), with its "Could be" hints.
 */
public final class NetOutputs {
    private static final int STATE_DOWN = 1;

    private final NodeNameMap names;

    public NetOutputs(NodeNameMap names) {
        this.names = names == null ? NodeNameMap.empty() : names;
    }

    private String name(NetNode n) {
        return names.name(n.guid(), n.description());
    }

    // ---------------------------------------------------------------- ibnetdiscover

    /** ibnetdiscover's compatible speed names: SDR, DDR, QDR, FDR10, FDR, EDR, HDR, NDR, XDR, ???. */
    static String speedCompat(int speed, int espeed, boolean fdr10) {
        if (speed != 4 && espeed == 0) {
            return baseSpeedCompat(speed);
        }
        return switch (espeed) {
            case 0 -> fdr10 ? "FDR10" : baseSpeedCompat(speed);
            case 1 -> "FDR";
            case 2 -> "EDR";
            case 4 -> "HDR";
            case 8 -> "NDR";
            case 32 -> "XDR";
            default -> "???";
        };
    }

    private static String baseSpeedCompat(int speed) {
        return switch (speed) {
            case 1 -> "SDR";
            case 2 -> "DDR";
            case 4 -> "QDR";
            default -> "???";
        };
    }

    static String widthCompat(int width) {
        return LinkWidth.labelOfCode(width);
    }

    /**
     * The topology as ibnetdiscover writes it; {@code group} (-g) for a fabric without chassis (see
     * {@link #chassisNodes}): every node under "Non-Chassis Nodes".
     */
    public void topology(NetFabric f, ZonedDateTime when, boolean full, boolean reportMaxHops, boolean group,
                         StringBuilder out) {
        TopologyWriter.header(when, out);
        if (reportMaxHops) {
            out.append("# Reported max hops discovered: ").append(f.maxHopsDiscovered())
                    .append("\n# Total MADs used: ").append(f.smps()).append('\n');
        }
        TopologyWriter.origin(f.from().guid(), f.from().portGuid(), out);
        if (group) {
            out.append("\nNon-Chassis Nodes\n");
        }
        for (NetNode n : f.switches()) {
            switchRecord(n, "", group, out);
            out.append('\n');
            for (int p = 1; p <= n.numPorts(); p++) {
                NetPort port = n.port(p);
                if (port != null && port.remote() != null) {
                    switchPort(port, full, "", out);
                }
            }
        }
        for (List<NetNode> l : List.of(f.cas(), f.routers())) {
            for (NetNode n : l) {
                caRecord(n, "", out);
                out.append('\n');
                for (int p = 1; p <= n.numPorts(); p++) {
                    NetPort port = n.port(p);
                    if (port != null && port.remote() != null) {
                        caPort(port, full, "", out);
                    }
                }
            }
        }
    }

    /**
     * Nodes libibnetdisc would group into chassis (-g): those sharing a system image GUID with another node, and
     * Voltaire switches. Empty for most fabrics; ibtwin prints -g only for those.
     */
    public static List<NetNode> chassisNodes(NetFabric f) {
        java.util.Map<Long, Integer> count = new java.util.HashMap<>();
        for (NetNode n : f.nodes()) {
            if (n.systemImageGuid() != 0) {
                count.merge(n.systemImageGuid(), 1, Integer::sum);
            }
        }
        List<NetNode> out = new java.util.ArrayList<>();
        for (NetNode n : f.nodes()) {
            if ((n.isSwitch() && n.vendorId() == 0x08f1)
                    || (n.systemImageGuid() != 0 && count.get(n.systemImageGuid()) > 1)) {
                out.add(n);
            }
        }
        return out;
    }

    /** The switch's id lines and its "Switch ..." line, without the final newline (diff adds to it). */
    void switchRecord(NetNode n, String prefix, boolean group, StringBuilder out) {
        TopologyWriter.ids(prefix, n.vendorId(), n.deviceId(), n.systemImageGuid(), out);
        TopologyWriter.guidLine(prefix, NodeType.SWITCH, n.guid(), n.portGuid(), group, out);
        switchDetail(n, prefix, out);
    }

    void switchDetail(NetNode n, String prefix, StringBuilder out) {
        TopologyWriter.switchLine(prefix, n.numPorts(), n.guid(), name(n), n.enhancedPort0(), n.smaLid(), n.smaLmc(),
                out);
    }

    void caRecord(NetNode n, String prefix, StringBuilder out) {
        TopologyWriter.ids(prefix, n.vendorId(), n.deviceId(), n.systemImageGuid(), out);
        TopologyWriter.guidLine(prefix, NodeType.ofCode(n.type()), n.guid(), 0, false, out);
        caDetail(n, prefix, out);
    }

    void caDetail(NetNode n, String prefix, StringBuilder out) {
        TopologyWriter.caLine(prefix, NodeType.ofCode(n.type()), n.numPorts(), n.guid(),
                NodeNameMap.clean(n.description()), out);
    }

    void switchPort(NetPort port, boolean full, String prefix, StringBuilder out) {
        int width = port.widthActive();
        int speed = port.speedActive();
        int espeed;
        if (port.node().port(0) == null) {
            speed = 0;
            espeed = 0;
        } else {
            espeed = port.speedExtActive();
        }
        portLine(port, full, width, speed, espeed, prefix, out);
    }

    void caPort(NetPort port, boolean full, String prefix, StringBuilder out) {
        portLine(port, full, port.widthActive(), port.speedActive(), port.speedExtActive(), prefix, out);
    }

    private void portLine(NetPort port, boolean full, int width, int speed, int espeed, String prefix,
                          StringBuilder out) {
        NetPort r = port.remote();
        NetNode rn = r.node();
        TopologyWriter.portLine(prefix, port.node().isSwitch(), port.number(), port.guid(), port.baseLid(),
                port.lmc(), NodeType.ofCode(rn.type()), rn.guid(), r.number(), r.guid(), name(rn),
                rn.isSwitch() ? rn.smaLid() : r.baseLid(), widthCompat(width) + speedCompat(speed, espeed,
                        port.fdr10()), out);
        if (full) {
            out.append(" s=").append(speed).append(" w=").append(width).append(" v=").append(port.get(NetPort.VL_CAP));
        }
        out.append('\n');
    }

    private static String typeShort(NetNode n) {
        return switch (n.type()) {
            case NetNode.SWITCH -> "SW";
            case NetNode.CA -> "CA";
            case NetNode.ROUTER -> "RT";
            default -> "??";
        };
    }

    /** ibnetdiscover -p: every port known, node by node (newest first), highest port first. */
    public void ports(NetFabric f, StringBuilder out) {
        for (NetNode n : f.nodes()) {
            for (int p = n.numPorts(); p > 0; p--) {
                NetPort port = n.port(p);
                if (port == null) {
                    continue;
                }
                Active a = Active.of(n, port);
                out.append(String.format("%2s %5d %2d 0x%016x %s %s", typeShort(n),
                        n.isSwitch() ? n.smaLid() : port.baseLid(), port.number(), port.guid(), widthCompat(a.width()),
                        speedCompat(a.speed(), a.espeed(), port.fdr10())));
                NetPort r = port.remote();
                if (r != null) {
                    out.append(String.format(" - %2s %5d %2d 0x%016x ( '%s' - '%s' )%n", typeShort(r.node()),
                            r.node().isSwitch() ? r.node().smaLid() : r.baseLid(), r.number(), r.guid(), name(n),
                            name(r.node())));
                } else {
                    out.append(String.format("%36s'%s'%n", "", name(n)));
                }
            }
        }
    }

    /** ibnetdiscover -l/-H/-S/-R: CAs, then switches, then routers, as {@code types} (1 CA, 2 switch, 3 router). */
    public void list(NetFabric f, boolean cas, boolean switches, boolean routers, StringBuilder out) {
        if (cas) {
            listNodes(f.cas(), "Ca", out);
        }
        if (switches) {
            listNodes(f.switches(), "Switch", out);
        }
        if (routers) {
            listNodes(f.routers(), "Router", out);
        }
    }

    private void listNodes(List<NetNode> nodes, String type, StringBuilder out) {
        for (NetNode n : nodes) {
            out.append(String.format("%s\t : 0x%016x ports %d devid 0x%x vendid 0x%x \"%s\"%n", type, n.guid(),
                    n.numPorts(), n.deviceId(), n.vendorId(), name(n)));
        }
    }

    // ---------------------------------------------------------------- iblinkinfo

    /**
     * iblinkinfo's options that shape its lines: -d, -l, -p, and --filterdownports' fabric (null: none), whose down
     * ports are left out when they are down here too.
     */
    public record LinkOptions(boolean downOnly, boolean lineMode, boolean additional, NetFabric filter) {
        private boolean filtered(NetNode n, NetPort port) {
            if (filter == null) {
                return false;
            }
            NetNode f = filter.node(n.guid());
            if (f == null || port.number() > f.numPorts()) {
                return false;
            }
            NetPort fp = f.port(port.number());
            return fp != null && fp.state() == STATE_DOWN;
        }
    }

    /** iblinkinfo's lines for one node (nothing when -d and no port is down). */
    public void linkNode(NetNode n, LinkOptions o, String prefix, StringBuilder out) {
        boolean header = false;
        for (int i = 1; i <= n.numPorts(); i++) {
            NetPort port = n.port(i);
            if (port == null) {
                continue;
            }
            if (!o.downOnly() || port.state() == STATE_DOWN) {
                if (!header) {
                    linkHeader(n, o, prefix, out);
                    header = true;
                }
                linkPort(n, port, o, prefix, out);
            }
        }
    }

    void linkHeader(NetNode n, LinkOptions o, String prefix, StringBuilder out) {
        if (o.lineMode()) {
            return;
        }
        if (n.isSwitch()) {
            NetPort p0 = n.port(0);
            long guid = p0 != null ? p0.guid() : n.portGuid();
            out.append(String.format("%s%s: 0x%016x %s:%n", prefix, "Switch", guid, name(n)));
        } else {
            out.append(String.format("%s%s: %s:%n", prefix, n.type() == NetNode.CA ? "CA" : n.type()
                    == NetNode.ROUTER ? "Router" : "??", name(n)));
        }
    }

    /**
     * A port's active width, speed and extended speed as the listings show them: all 0 on a switch port whose
     * switch gave no capability information.
     */
    private record Active(int width, int speed, int espeed) {
        static Active of(NetNode n, NetPort port) {
            if (port.capInfo() != null || !n.isSwitch()) {
                return new Active(port.widthActive(), port.speedActive(), port.speedExtActive());
            }
            return new Active(0, 0, 0);
        }
    }

    void linkPort(NetNode n, NetPort port, LinkOptions o, String prefix, StringBuilder out) {
        Active a = Active.of(n, port);
        boolean fdr10 = port.fdr10();
        int state = port.state();
        int phys = port.physState();
        if (state == STATE_DOWN && o.filtered(n, port)) {
            return;
        }
        // the line is built by hand (String.format is the cost of a 16k-host fabric's listing)
        if (o.lineMode()) {
            out.append(prefix).append("0x");
            hex16(port.guid(), out);
            out.append(" \"");
            pad(name(n), 30, out);
            out.append("\" ");
        } else {
            out.append(prefix).append("      ");
        }
        if (!n.isSwitch() && !o.lineMode()) {
            out.append("0x");
            hex16(port.guid(), out);
            out.append(' ');
        }
        pad(Integer.toString(n.isSwitch() ? n.smaLid() : port.baseLid()), 6, out);
        out.append(' ');
        pad(Integer.toString(port.number()), 4, out);
        out.append("[  ] ==(");
        if (state != STATE_DOWN) {
            String sp;
            if (a.espeed() == 0) {
                sp = fdr10 ? "10.0 Gbps (FDR10)" : Printer.LINK_SPEED.format(a.speed(), 4);
            } else {
                sp = aggSpeed(a.espeed());
            }
            pad(Printer.LINK_WIDTH.format(a.width(), 8), 3, out);
            out.append(' ');
            pad(sp, 18, out);
            out.append(' ');
        } else {
            out.append("              ");
        }
        pad(Printer.PORT_STATE.format(state, 4), 6, out);
        out.append('/');
        pad(Printer.PHYS_PORT_STATE.format(phys, 4), 8, out);
        out.append(')');
        if (o.additional() && state != STATE_DOWN) {
            out.append(" (HOQ:").append(port.get(NetPort.HOQ_LIFE)).append(" VL_Stall:")
                    .append(port.get(NetPort.VL_STALL)).append(')');
        }
        out.append("==>  ");
        NetPort r = port.remote();
        if (r != null) {
            String[] msg = couldBe(port);
            if (o.lineMode()) {
                out.append("0x");
                hex16(r.guid(), out);
                out.append(' ');
            }
            pad(Integer.toString(r.baseLid() != 0 ? r.baseLid() : r.node().smaLid()), 6, out);
            out.append(' ');
            pad(Integer.toString(r.number()), 4, out);
            out.append("[  ] \"").append(name(r.node())).append("\" (").append(msg[0]).append(' ').append(msg[1])
                    .append(")\n");
        } else if (state == STATE_DOWN) {
            out.append("           [  ] \"\" ( )\n");
        } else {
            out.append("    \"Port not available\"\n");
        }
    }

    /** printf's %Ns: right-aligned in {@code width}, longer text as it is. */
    private static void pad(String s, int width, StringBuilder out) {
        for (int i = s.length(); i < width; i++) {
            out.append(' ');
        }
        out.append(s);
    }

    private static void hex16(long v, StringBuilder out) {
        String h = Long.toHexString(v);
        for (int i = h.length(); i < 16; i++) {
            out.append('0');
        }
        out.append(h);
    }

    /** libibnetdisc's names of the aggregated extended speeds. */
    static String aggSpeed(int espeed) {
        return switch (espeed) {
            case 0 -> "No Extended Speed";
            case 1 -> "14.0625 Gbps";
            case 2 -> "25.78125 Gbps";
            case 4 -> "53.125 Gbps";
            case 8 -> "106.25 Gbps";
            case 32 -> "212.5 Gbps";
            default -> "undefined (" + espeed + ")";
        };
    }

    /** iblinkinfo's hints: what width and speed the link could run at, when both ends support more. */
    static String[] couldBe(NetPort port) {
        NetPort r = port.remote();
        String widthMsg = "";
        String speedMsg = "";
        int maxWidth = maxWidth((int) (port.get(NetPort.WIDTH_SUPPORTED) & r.get(NetPort.WIDTH_SUPPORTED)));
        if ((maxWidth & port.widthActive()) == 0) {
            widthMsg = "Could be " + Printer.LINK_WIDTH.format(maxWidth, 8);
        }
        long cap = capMask(port);
        long remCap = capMask(r);
        if ((cap & 0x4000) != 0 && (remCap & 0x4000) != 0) {
            int e1 = port.speedExtSupported();
            int e2 = r.speedExtSupported();
            if (e1 != 0 && e2 != 0) {
                int max = highestBit(e1 & e2);
                if ((max & port.speedExtActive()) == 0) {
                    speedMsg = "Could be " + aggSpeed(max);
                }
                return new String[] {widthMsg, speedMsg};
            }
        }
        if (port.fdr10Supported() && r.fdr10Supported()) {
            if (!port.fdr10()) {
                speedMsg = port.speedActive() == 4
                        ? "Could be FDR10 (Found link at QDR but expected speed is FDR10)" : "Could be FDR10";
            }
            return new String[] {widthMsg, speedMsg};
        }
        int max = highestBit((int) (port.get(NetPort.SPEED_SUPPORTED) & r.get(NetPort.SPEED_SUPPORTED)));
        if ((max & port.speedActive()) == 0) {
            speedMsg = "Could be " + Printer.LINK_SPEED.format(max, 4);
        }
        return new String[] {widthMsg, speedMsg};
    }

    private static long capMask(NetPort p) {
        byte[] info = p.capInfo();
        return info == null ? 0 : NetPort.CAP_MASK.get(info, 0);
    }

    private static int maxWidth(int mask) {
        int r;
        if ((mask & 8) != 0) {
            r = 3;
        } else if ((mask & 4) != 0) {
            r = 2;
        } else if ((mask & 2) != 0) {
            r = 1;
        } else if ((mask & 0x10) != 0) {
            r = 4;
        } else {
            r = 0;
        }
        return 1 << r;
    }

    /** 1 << floor(log2(mask)), and 1 for 0, as ibdiag_common's get_max. */
    private static int highestBit(int mask) {
        return mask == 0 ? 1 : Integer.highestOneBit(mask);
    }
}
