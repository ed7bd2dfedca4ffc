package org.ibtwin.sm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Locale;
import java.util.function.BiConsumer;
import org.ibtwin.model.LinkWidth;
import org.ibtwin.model.NodeType;
import org.ibtwin.sm.routing.Lfts;
import org.ibtwin.sm.routing.RoutingBalance;
import org.ibtwin.sm.routing.SwitchGraph;

/**
 * The files OpenSM leaves in its dump directory after a sweep, in its formats, from what our SM discovered, assigned
 * and routed: {@value #SUBNET_LST} (every link, both ends, as OpenSM's {@code opensm-subnet.lst}) and
 * {@value #LFTS} (every switch's unicast LFT, as OpenSM's {@code opensm-lfts.dump} with routing logging on); and
 * one of ibtwin's own, {@value #BALANCE}: how many CA LIDs each switch port carries ({@link RoutingBalance}).
 *
 * <p>OpenSM lists nodes and switches in the order of its GUID maps: by the GUID's bytes as a little-endian number
 * (the map keys are the GUIDs in network order); so do these.
 */
public final class SmDumps {
    public static final String SUBNET_LST = "opensm-subnet.lst";
    public static final String LFTS = "opensm-lfts.dump";
    public static final String BALANCE = "ibtwin-routing-balance.txt";

    /** IsExtendedSpeedsSupported in PortInfo CapabilityMask. */
    private static final long CAP_EXT_SPEEDS = 0x4000;

    private SmDumps() {
    }

    /** A hook for {@link SubnetManager#onSweep}: the three files, written into {@code dir} after each sweep. */
    public static BiConsumer<SubnetManager, SweepReport> writer(Path dir, SmLog log) {
        return (sm, r) -> {
            try {
                write(dir, sm.topology(), sm.lids(), sm.switchGraph(), sm.lfts(), r.subnetUp());
            } catch (UncheckedIOException e) {
                log.warn("dumps: cannot write into " + dir + ": " + e.getCause().getMessage());
            }
        };
    }

    /** Writes the three files into {@code dir} (created when missing), each whole or not at all. */
    public static void write(Path dir, Topology t, LidAssignment l, SwitchGraph g, Lfts lfts, boolean up) {
        try {
            Files.createDirectories(dir);
            replace(dir.resolve(SUBNET_LST), subnetList(t, l, up));
            replace(dir.resolve(LFTS), lftDump(t, l, lfts));
            replace(dir.resolve(BALANCE), RoutingBalance.of(g, lfts).report());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void replace(Path file, String text) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Node indexes in OpenSM's map order. */
    static Integer[] mapOrder(Topology t, int[] nodes) {
        Integer[] order = Arrays.stream(nodes).boxed().toArray(Integer[]::new);
        Arrays.sort(order, Comparator.comparing((Integer n) -> Long.reverseBytes(t.nodeGuid(n)),
                Long::compareUnsigned));
        return order;
    }

    /** {@code opensm-subnet.lst}: one line per port with a link, from each end, nodes in OpenSM's order. */
    public static String subnetList(Topology t, LidAssignment l, boolean up) {
        int smLid = l.lid(t.smPort());
        int[] all = new int[t.nodeCount()];
        Arrays.setAll(all, i -> i);
        StringBuilder sb = new StringBuilder();
        for (int n : mapOrder(t, all)) {
            for (int p = 1; p <= t.numPorts(n); p++) {
                int g = t.port(n, p);
                int r = t.remote(g);
                if (r < 0) {
                    continue;
                }
                end(sb, t, l, smLid, g, false);
                end(sb, t, l, smLid, r, true);
                int state = up ? Topology.ACTIVE : t.linkState(g);
                long cap = t.capabilityMask(defaultPort(t, g));
                sb.append("PHY=").append(LinkWidth.labelOfCode((int) t.portInfoField(g, Topology.PI_LWA)))
                        .append(" LOG=").append(switch (state) {
                            case Topology.ACTIVE -> "ACT";
                            case Topology.ARMED -> "ARM";
                            case Topology.INIT -> "INI";
                            default -> "DWN";
                        }).append(" SPD=").append(speed(t, g, (cap & CAP_EXT_SPEEDS) != 0)).append('\n');
            }
        }
        return sb.toString();
    }

    /** A switch port's PortInfo that speaks for the node (its port 0), else the port itself. */
    private static int defaultPort(Topology t, int g) {
        int n = t.portNode(g);
        return t.isSwitch(n) ? t.port(n, 0) : g;
    }

    /**
     * One end of a link. OpenSM prints the far end's VendorID with 8 digits, and its DeviceID, a 16-bit field,
     * after a 32-bit byte swap (so 0xd2f0 shows as D2F00000); both kept, byte for byte.
     */
    private static void end(StringBuilder sb, Topology t, LidAssignment l, int smLid, int g, boolean far) {
        int n = t.portNode(g);
        int lid = l.lid(defaultPort(t, g));
        NodeType type = t.nodeType(n);
        String ty = type == NodeType.SWITCH ? "SW" : type == NodeType.CA ? "CA" : type == NodeType.ROUTER ? "Rt"
                : "**";
        sb.append(String.format(Locale.ROOT, "{ %s%s Ports:%02X SystemGUID:%016x NodeGUID:%016x PortGUID:%016x VenID:"
                        + (far ? "%08X" : "%06X") + " DevID:%04X Rev:%08X {%s} LID:%04X PN:%02X } ", ty,
                lid != 0 && lid == smLid ? "-SM" : "", t.numPorts(n), t.systemImageGuid(n), t.nodeGuid(n),
                t.portGuid(g), t.vendorId(n), far ? (long) t.deviceId(n) << 16 : t.deviceId(n), t.revision(n),
                t.description(n), lid,
                t.portNumber(g)));
    }


    private static String speed(Topology t, int g, boolean ext) {
        String s = switch ((int) t.portInfoField(g, Topology.PI_LSA)) {
            case 1 -> "2.5";
            case 2 -> "5";
            case 4 -> "10";
            default -> "??";
        };
        if (ext) {
            int e = (int) t.portInfoField(g, Topology.PI_LSEA);
            s = switch (e) {
                case 0 -> s;
                case 1 -> "14";
                case 2 -> "25";
                case 4 -> "50";
                default -> "??";
            };
        }
        return s;
    }

    /** {@code opensm-lfts.dump}: each switch's routed LIDs 0..top, switches in OpenSM's order. */
    public static String lftDump(Topology t, LidAssignment l, Lfts lfts) {
        int top = lfts.top();
        int[] byLid = new int[top + 1];
        Arrays.fill(byLid, -1);
        for (int g : t.endPorts()) {
            int lid = l.lid(g);
            if (lid == 0) {
                continue;
            }
            for (int k = 0; k < 1 << l.lmc(g) && lid + k <= top; k++) {
                byLid[lid + k] = g;
            }
        }
        int[] sws = new int[t.switchCount()];
        Arrays.setAll(sws, t::switchNode);
        StringBuilder sb = new StringBuilder();
        for (int n : mapOrder(t, sws)) {
            int s = t.switchIndex(n);
            sb.append(String.format(Locale.ROOT, "Unicast lids [0-%d] of switch Lid %d guid 0x%016x ('%s'):%n", top,
                    l.lid(t.port(n, 0)), t.nodeGuid(n), t.description(n)));
            for (int lid = 0; lid <= top; lid++) {
                int port = lfts.port(s, lid);
                if (port > t.numPorts(n)) {
                    continue;
                }
                sb.append(String.format(Locale.ROOT, "0x%04x %03d # ", lid, port));
                int g = byLid[lid];
                if (g < 0) {
                    sb.append("unknown node and type");
                } else {
                    int d = t.portNode(g);
                    sb.append(String.format(Locale.ROOT, "%s portguid 0x%016x: '%s'", typeName(t.nodeType(d)),
                            t.portGuid(g), t.description(d)));
                }
                sb.append('\n');
            }
            sb.append(top).append(" lids dumped\n");
        }
        return sb.toString();
    }

    private static String typeName(NodeType type) {
        return switch (type) {
            case CA -> "Channel Adapter";
            case SWITCH -> "Switch";
            case ROUTER -> "Router";
            default -> "UNKNOWN";
        };
    }
}
