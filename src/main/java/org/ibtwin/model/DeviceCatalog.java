package org.ibtwin.model;

import java.util.List;

/**
 * Known adapters and switches: what a device id supports. Used when a topology dump names the device but not its
 * capabilities, and by the generators.
 */
public final class DeviceCatalog {
    /** Mellanox / NVIDIA Networking. */
    public static final int MELLANOX = 0x02c9;

    /** One device: ids, name, fastest speed, widest width, ports, whether switch port 0 is enhanced. */
    public record Device(int vendorId, int deviceId, NodeType type, String name, LinkSpeed maxSpeed,
                         LinkWidth maxWidth, int ports, boolean enhancedPort0, String firmware) {
    }

    public static final Device INFINIHOST = new Device(MELLANOX, 0x5a44, NodeType.CA, "MT23108 InfiniHost",
            LinkSpeed.SDR, LinkWidth.X4, 2, false, "3.5.0");
    public static final Device CONNECTX_DDR = new Device(MELLANOX, 0x634a, NodeType.CA, "ConnectX (MT25418)",
            LinkSpeed.DDR, LinkWidth.X4, 2, false, "2.9.1000");
    public static final Device CONNECTX2 = new Device(MELLANOX, 0x673c, NodeType.CA, "ConnectX-2 (MT26428)",
            LinkSpeed.QDR, LinkWidth.X4, 2, false, "2.9.1000");
    public static final Device CONNECTX3 = new Device(MELLANOX, 0x1003, NodeType.CA, "ConnectX-3",
            LinkSpeed.FDR, LinkWidth.X4, 2, false, "2.42.5000");
    public static final Device CONNECTX4 = new Device(MELLANOX, 0x1013, NodeType.CA, "ConnectX-4",
            LinkSpeed.EDR, LinkWidth.X4, 1, false, "12.28.2006");
    public static final Device CONNECTX5 = new Device(MELLANOX, 0x1017, NodeType.CA, "ConnectX-5",
            LinkSpeed.EDR, LinkWidth.X4, 1, false, "16.35.2000");
    public static final Device CONNECTX6 = new Device(MELLANOX, 0x101b, NodeType.CA, "ConnectX-6",
            LinkSpeed.HDR, LinkWidth.X4, 1, false, "20.39.1002");
    public static final Device CONNECTX7 = new Device(MELLANOX, 0x1021, NodeType.CA, "ConnectX-7",
            LinkSpeed.NDR, LinkWidth.X4, 1, false, "28.39.1002");
    public static final Device INFINISCALE = new Device(MELLANOX, 0xa87c, NodeType.SWITCH, "InfiniScale",
            LinkSpeed.SDR, LinkWidth.X4, 8, false, "1.0.5");
    public static final Device INFINISCALE3 = new Device(MELLANOX, 0xb924, NodeType.SWITCH, "InfiniScale III",
            LinkSpeed.DDR, LinkWidth.X4, 24, false, "5.9.0");
    public static final Device INFINISCALE4 = new Device(MELLANOX, 0xbd36, NodeType.SWITCH, "InfiniScale IV",
            LinkSpeed.QDR, LinkWidth.X4, 36, false, "7.4.3000");
    public static final Device SWITCHX = new Device(MELLANOX, 0xc738, NodeType.SWITCH, "SwitchX",
            LinkSpeed.FDR, LinkWidth.X4, 36, true, "9.4.2000");
    public static final Device SWITCHIB = new Device(MELLANOX, 0xcb20, NodeType.SWITCH, "Switch-IB",
            LinkSpeed.EDR, LinkWidth.X4, 36, true, "11.2008.2102");
    public static final Device SWITCHIB2 = new Device(MELLANOX, 0xcf08, NodeType.SWITCH, "Switch-IB 2",
            LinkSpeed.EDR, LinkWidth.X4, 36, true, "15.2008.2102");
    public static final Device QUANTUM = new Device(MELLANOX, 0xd2f0, NodeType.SWITCH, "Quantum",
            LinkSpeed.HDR, LinkWidth.X4, 40, true, "27.2010.6102");
    public static final Device QUANTUM2 = new Device(MELLANOX, 0xd2f2, NodeType.SWITCH, "Quantum-2",
            LinkSpeed.NDR, LinkWidth.X4, 64, true, "31.2012.1024");

    private static final List<Device> ALL = List.of(INFINIHOST, CONNECTX_DDR, CONNECTX2, CONNECTX3, CONNECTX4, CONNECTX5, CONNECTX6,
            CONNECTX7, INFINISCALE, INFINISCALE3, INFINISCALE4, SWITCHX, SWITCHIB, SWITCHIB2, QUANTUM, QUANTUM2);

    private DeviceCatalog() {
    }

    /** The device with these ids, or null. */
    public static Device find(int vendorId, int deviceId) {
        for (Device d : ALL) {
            if (d.vendorId() == vendorId && d.deviceId() == deviceId) {
                return d;
            }
        }
        return null;
    }

    public static List<Device> all() {
        return ALL;
    }

    /** The CA of a generation: the first adapter whose top speed is {@code speed}. */
    public static Device caFor(LinkSpeed speed) {
        return pick(NodeType.CA, speed, CONNECTX6);
    }

    /** The switch of a generation. */
    public static Device switchFor(LinkSpeed speed) {
        return pick(NodeType.SWITCH, speed, QUANTUM);
    }

    private static Device pick(NodeType type, LinkSpeed speed, Device fallback) {
        Device best = null;
        for (Device d : ALL) {
            if (d.type() == type && d.maxSpeed().compareTo(speed) >= 0
                    && (best == null || d.maxSpeed().compareTo(best.maxSpeed()) < 0)) {
                best = d;
            }
        }
        return best == null ? fallback : best;
    }

    /**
     * The width a switch's ports run at when it has {@code radix} ports: its own, or 2x when a switch whose 4x ports
     * split in two (Quantum, Quantum-2) has more ports than it has 4x ones, up to twice as many: an 80-port Quantum
     * runs HDR100 (2x HDR), a 128-port Quantum-2 NDR200 (2x NDR).
     */
    public static LinkWidth widthAt(Device sw, int radix) {
        boolean splits = sw.equals(QUANTUM) || sw.equals(QUANTUM2);
        return splits && radix > sw.ports() && radix <= 2 * sw.ports() ? LinkWidth.X2 : sw.maxWidth();
    }

    /** Applies a device's identity and port capabilities to a node. */
    public static void apply(Node n, Device d) {
        n.setIds(d.vendorId(), d.deviceId(), n.revision());
        n.setFirmware(d.firmware());
        n.setEnhancedPort0(d.type() == NodeType.SWITCH && d.enhancedPort0());
        setCapabilities(n, d.maxSpeed(), widthAt(d, n.numPorts()));
    }

    /** Sets every physical port of a node to support and enable up to a speed and width. */
    public static void setCapabilities(Node n, LinkSpeed speed, LinkWidth width) {
        int speeds = LinkSpeed.upTo(speed);
        int widths = LinkWidth.upTo(width);
        for (int i = 1; i <= n.numPorts(); i++) {
            Port p = n.port(i);
            p.setSpeeds(speeds, speeds);
            p.setWidths(widths, widths);
        }
    }
}
