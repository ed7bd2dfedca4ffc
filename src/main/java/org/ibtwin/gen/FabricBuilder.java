package org.ibtwin.gen;

import java.util.function.IntFunction;
import org.ibtwin.model.Cable;
import org.ibtwin.model.CableKind;
import org.ibtwin.model.DeviceCatalog;
import org.ibtwin.model.DeviceCatalog.Device;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.HostFacts;
import org.ibtwin.model.Link;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.LinkWidth;
import org.ibtwin.model.Node;
import org.ibtwin.model.NodeType;
import org.ibtwin.model.PcieGen;
import org.ibtwin.model.Port;

/**
 * Creates the nodes and cables of a generated fabric: one speed and one width everywhere (4x, or 2x on switches
 * split to twice their ports: {@link DeviceCatalog#widthAt}), GUIDs handed out from a base.
 *
 * <p>GUID layout, all within {@code base .. base + GUID_SPAN}: CA {@code i} (0-based) has node GUID
 * {@code base + 2(i+1)} and port GUID one above it; switch {@code i} has {@code base + SWITCH_OFFSET + i} on the
 * node and every port. The two ranges cannot meet below 2^30 nodes of either kind.
 */
final class FabricBuilder {
    /** Width of every generated link unless the switches run split. */
    static final LinkWidth WIDTH = LinkWidth.X4;
    /** Where switch GUIDs start above the base. */
    static final long SWITCH_OFFSET = 0x8000_0000L;
    /** All GUIDs of a fabric lie within this distance of the base. */
    static final long GUID_SPAN = 0xffff_ffffL;
    /** Longest name {@link #caPortName} gives, for checking description lengths. */
    static final String LONGEST_CA_PORT_NAME = "mthca0";

    static final double HOST_CABLE_METRES = 2;
    static final double SWITCH_CABLE_METRES = 10;
    static final double CORE_CABLE_METRES = 30;

    private final Fabric fabric = new Fabric();
    private final LinkSpeed speed;
    private final long guidBase;
    private final IntFunction<String> hostName;
    private final Device switchDevice;
    private final Device caDevice;
    private final String caPortName;
    private final HostFacts hostFacts;
    private final int speedsEnabled;
    private final int switchSpeedsSupported;
    private final int caSpeedsSupported;
    private final LinkWidth width;
    private final int widths;
    final Cable hostCable;
    final Cable switchCable;
    final Cable coreCable;
    private int switches;
    private int hosts;

    /**
     * @param hostName the human name of host {@code n}, 1-based
     */
    FabricBuilder(LinkSpeed speed, long guidBase, IntFunction<String> hostName) {
        this(speed, guidBase, hostName, 0);
    }

    /**
     * @param radix the switches' port count, which sets the width ({@link DeviceCatalog#widthAt}); 0 for no switch
     */
    FabricBuilder(LinkSpeed speed, long guidBase, IntFunction<String> hostName, int radix) {
        checkSpeed(speed);
        this.speed = speed;
        this.guidBase = guidBase;
        this.hostName = hostName;
        this.switchDevice = DeviceCatalog.switchFor(speed);
        this.caDevice = DeviceCatalog.caFor(speed);
        this.caPortName = caPortName(caDevice);
        this.hostFacts = HostFacts.DEFAULT.withPcie(pcieFor(speed), 16);
        this.speedsEnabled = LinkSpeed.upTo(speed);
        this.switchSpeedsSupported = LinkSpeed.upTo(switchDevice.maxSpeed()) | speedsEnabled;
        this.caSpeedsSupported = LinkSpeed.upTo(caDevice.maxSpeed()) | speedsEnabled;
        this.width = radix == 0 ? WIDTH : DeviceCatalog.widthAt(switchDevice, radix);
        this.widths = LinkWidth.upTo(width);
        this.hostCable = new Cable(CableKind.PASSIVE_COPPER, HOST_CABLE_METRES, speed, width);
        this.switchCable = new Cable(CableKind.ACTIVE_OPTICAL, SWITCH_CABLE_METRES, speed, width);
        this.coreCable = new Cable(CableKind.ACTIVE_OPTICAL, CORE_CABLE_METRES, speed, width);
    }

    /** Rejects a speed the device catalog has no switch or CA for. */
    static void checkSpeed(LinkSpeed speed) {
        for (Device d : new Device[] {DeviceCatalog.switchFor(speed), DeviceCatalog.caFor(speed)}) {
            if (d.maxSpeed().compareTo(speed) < 0) {
                throw new IllegalArgumentException("speed: the device catalog has no "
                        + (d.type() == NodeType.SWITCH ? "switch" : "adapter") + " that runs " + speed.label());
            }
        }
    }

    /** The PCIe slot a generation's HCA sits in: Gen3 up to EDR, Gen4 for HDR, Gen5 beyond. */
    static PcieGen pcieFor(LinkSpeed speed) {
        if (speed.compareTo(LinkSpeed.EDR) <= 0) {
            return PcieGen.GEN3;
        }
        return speed == LinkSpeed.HDR ? PcieGen.GEN4 : PcieGen.GEN5;
    }

    /** The verbs device name the host driver gives the adapter. */
    static String caPortName(Device d) {
        if (d.equals(DeviceCatalog.INFINIHOST)) {
            return "mthca0";
        }
        return d.equals(DeviceCatalog.CONNECTX3) || d.equals(DeviceCatalog.CONNECTX2) || d.equals(DeviceCatalog.CONNECTX_DDR)
                ? "mlx4_0" : "mlx5_0";
    }

    /** A switch of the generation with {@code ports} physical ports, described by its human name. */
    Node addSwitch(String description, int ports) {
        long guid = guidBase + SWITCH_OFFSET + switches++;
        Node n = new Node(NodeType.SWITCH, guid, "S-" + hex16(guid), ports);
        n.setDescription(description);
        DeviceCatalog.apply(n, switchDevice);
        for (int i = 1; i <= ports; i++) {
            n.port(i).setSpeeds(switchSpeedsSupported, speedsEnabled);
            n.port(i).setWidths(widths, widths);
        }
        return fabric.add(n);
    }

    /** The next host: a one-port CA described "node001 mlx5_0". */
    Node addHost() {
        return addCa(hostName.apply(hosts + 1) + " " + caPortName);
    }

    /** The generation's verbs device name with another index: "mlx5_3". */
    String caPortName(int index) {
        return caPortName.replaceFirst("\\d+$", Integer.toString(index));
    }

    /** The host facts every generated CA gets. */
    HostFacts hostFacts() {
        return hostFacts;
    }

    /** The next CA: one port, described as given ("node001 mlx5_3"). */
    Node addCa(String description) {
        int number = ++hosts;
        long guid = guidBase + 2L * number;
        Node n = new Node(NodeType.CA, guid, "H-" + hex16(guid), 1);
        n.setDescription(description);
        DeviceCatalog.apply(n, caDevice);
        n.port(1).setSpeeds(caSpeedsSupported, speedsEnabled);
        n.port(1).setWidths(widths, widths);
        n.setHostFacts(hostFacts);
        return fabric.add(n);
    }

    /** Cables two ports; the link must come up at the fabric's speed and width. */
    Link connect(Port a, Port b, Cable cable) {
        Link l = fabric.connect(a, b, cable);
        if (!l.isUp() || l.activeSpeed() != speed || l.activeWidth() != width) {
            throw new IllegalStateException("generated link " + l + " trained at " + l.activeWidth() + " "
                    + l.activeSpeed() + ", not " + width.label() + " " + speed.label());
        }
        return l;
    }

    Fabric fabric() {
        return fabric;
    }

    /** Two digits, more when {@code count} needs them: leaf01..leaf40, leaf001..leaf400. */
    static String numbered(String prefix, int number, int count) {
        int digits = Math.max(2, Integer.toString(count).length());
        StringBuilder sb = new StringBuilder(prefix.length() + digits).append(prefix);
        String n = Integer.toString(number);
        sb.append("0".repeat(Math.max(0, digits - n.length()))).append(n);
        return sb.toString();
    }

    private static String hex16(long guid) {
        String h = Long.toHexString(guid);
        return "0".repeat(16 - h.length()) + h;
    }
}
