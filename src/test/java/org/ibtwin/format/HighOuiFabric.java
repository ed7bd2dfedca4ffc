package org.ibtwin.format;

import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import org.ibtwin.model.Cable;
import org.ibtwin.model.DeviceCatalog;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.Node;
import org.ibtwin.model.NodeType;

/**
 * A small EDR fabric with the GUIDs real NVIDIA/Mellanox hardware carries: OUIs whose top bit is set (0xec0d9a,
 * 0xb8599f, 0x98039b, 0x506b4b) beside one old 0x0002c9, so every GUID but one is a negative {@code long}. As on
 * real clusters, all six switches share one description, "SwitchIB Mellanox Technologies", and one inter-switch
 * cable trained at 4xDDR. Four leaves with two hosts each, two spines; leaf {@code i} port 11 goes to spine 1 port
 * {@code i+1}, port 12 to spine 2 port {@code i+1}; hosts on leaf ports 1 and 2.
 */
public final class HighOuiFabric {
    public static final String SWITCH_DESCRIPTION = "SwitchIB Mellanox Technologies";
    /** Leaves 1..4, then spines 1 and 2. */
    public static final long[] SWITCH_GUIDS = {0xec0d9a0300ec8480L, 0xb8599f0300a1b2c0L, 0x98039b03009fe1a0L,
        0x506b4b0300c0ff00L, 0xec0d9a0300ec8500L, 0x0002c90300d5e6f0L};
    /** Host node GUIDs; each host's port GUID is one above. */
    public static final long[] CA_GUIDS = {0xec0d9a0300123450L, 0xb8599f0300a1b2c2L, 0x98039b03009fe1b0L,
        0x506b4b03000a0b0cL, 0xec0d9a0300123460L, 0xb8599f0300a1b2d2L, 0x98039b03009fe1c0L, 0x0002c90300abcdeeL};
    /** The degraded link, as the naming of a node whose description is shared prints it. */
    public static final String DEGRADED = "SwitchIB Mellanox Technologies (0xec0d9a0300ec8480)/11 <-> "
            + "SwitchIB Mellanox Technologies (0xec0d9a0300ec8500)/1";

    private HighOuiFabric() {
    }

    public static Fabric build() {
        Fabric f = new Fabric();
        List<Node> switches = new ArrayList<>();
        for (long g : SWITCH_GUIDS) {
            Node n = new Node(NodeType.SWITCH, g, String.format("S-%016x", g), 36);
            n.setDescription(SWITCH_DESCRIPTION);
            DeviceCatalog.apply(n, DeviceCatalog.SWITCHIB);
            switches.add(f.add(n));
        }
        Cable cable = Cable.UNRATED.withMaxSpeed(LinkSpeed.EDR);
        for (int i = 0; i < CA_GUIDS.length; i++) {
            long g = CA_GUIDS[i];
            Node h = new Node(NodeType.CA, g, String.format("H-%016x", g), 1);
            h.setDescription(String.format("host%02d mlx5_0", i + 1));
            DeviceCatalog.apply(h, i % 2 == 0 ? DeviceCatalog.CONNECTX4 : DeviceCatalog.CONNECTX5);
            f.add(h);
            f.connect(h.port(1), switches.get(i / 2).port(1 + i % 2), cable);
        }
        for (int leaf = 0; leaf < 4; leaf++) {
            f.connect(switches.get(leaf).port(11), switches.get(4).port(leaf + 1),
                    leaf == 0 ? Cable.UNRATED.withMaxSpeed(LinkSpeed.DDR) : cable);
            f.connect(switches.get(leaf).port(12), switches.get(5).port(leaf + 1), cable);
        }
        return f;
    }

    /** The fabric as ibnetdiscover would dump it, written by the project's writer. */
    public static Path write(Path file) {
        TopologyWriter.write(build(), file);
        return file;
    }

    public static String text(ZonedDateTime when) {
        return TopologyWriter.toString(build(), when);
    }

    /** Every node GUID and every CA port GUID, as the tools print them (0x and 16 digits). */
    public static List<String> allGuids() {
        List<String> out = new ArrayList<>();
        for (long g : SWITCH_GUIDS) {
            out.add(String.format("0x%016x", g));
        }
        for (long g : CA_GUIDS) {
            out.add(String.format("0x%016x", g));
            out.add(String.format("0x%016x", g + 1));
        }
        return out;
    }
}
