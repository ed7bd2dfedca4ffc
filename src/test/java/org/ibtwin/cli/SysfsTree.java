package org.ibtwin.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A hand-made sysfs tree with real-looking values, written under a directory that stands for {@code /sys}: mlx5_0, a
 * ConnectX-7 (MT4129) on 4X NDR, and mlx5_1, a ConnectX-6 (MT4123) whose port 1 runs 4X HDR and whose port 2 is Down;
 * GUIDs with the high OUIs real HCAs carry (0xec0d9a…, 0xb8599f…), P_Key tables with a second partition, and the
 * umad devices of {@code class/infiniband_mad}.
 */
public final class SysfsTree {
    private SysfsTree() {
    }

    /** Writes the tree under {@code sys} (its {@code class/infiniband} and {@code class/infiniband_mad}). */
    public static Path write(Path sys) throws IOException {
        ca(sys, "mlx5_0", "28.39.1002", "MT4129", "ec0d:9a03:00a4:5e10", "MT_0000000838");
        port(sys, "mlx5_0", 1, "4: ACTIVE", "5: LinkUp", "400 Gb/sec (4X NDR)", "0x1b", "0x1", "0xa751e848",
                "fe80:0000:0000:0000:ec0d:9a03:00a4:5e10", "0xffff", "0x8001", "0x0000");
        ca(sys, "mlx5_1", "20.37.1014", "MT4123", "b859:9f03:0012:3456", "MT_0000000223");
        port(sys, "mlx5_1", 1, "4: ACTIVE", "5: LinkUp", "200 Gb/sec (4X HDR)", "0x2c", "0x1", "0xa651e848",
                "fe80:0000:0000:0000:b859:9f03:0012:3456", "0x7fff", "0x0000", "0x8002");
        port(sys, "mlx5_1", 2, "1: DOWN", "3: Disabled", "10 Gb/sec (4X)", "0xffff", "0x0", "0xa651e84a",
                "fe80:0000:0000:0000:b859:9f03:0012:3457", "0xffff", "0x0000", "0x0000");
        file(sys, "class/infiniband_mad/abi_version", "5");
        String[][] umads = {{"mlx5_0", "1"}, {"mlx5_1", "1"}, {"mlx5_1", "2"}};
        for (int i = 0; i < umads.length; i++) {
            file(sys, "class/infiniband_mad/umad" + i + "/ibdev", umads[i][0]);
            file(sys, "class/infiniband_mad/umad" + i + "/port", umads[i][1]);
        }
        return sys;
    }

    private static void ca(Path sys, String ca, String fw, String type, String guid, String board) throws IOException {
        String d = "class/infiniband/" + ca + "/";
        file(sys, d + "node_type", "1: CA");
        file(sys, d + "fw_ver", fw);
        file(sys, d + "hw_rev", "0x0");
        file(sys, d + "hca_type", type);
        file(sys, d + "node_guid", guid);
        file(sys, d + "sys_image_guid", guid);
        file(sys, d + "board_id", board);
        file(sys, d + "node_desc", "gpu001 " + ca);
        file(sys, d + "device/vendor", "0x15b3");
        file(sys, d + "device/device", "0x" + Integer.toHexString(Integer.parseInt(type.substring(2))));
    }

    private static void port(Path sys, String ca, int n, String state, String phys, String rate, String lid,
                             String smLid, String cap, String gid, String... pkeys) throws IOException {
        String d = "class/infiniband/" + ca + "/ports/" + n + "/";
        file(sys, d + "state", state);
        file(sys, d + "phys_state", phys);
        file(sys, d + "rate", rate);
        file(sys, d + "lid", lid);
        file(sys, d + "sm_lid", smLid);
        file(sys, d + "lid_mask_count", "0");
        file(sys, d + "sm_sl", "0");
        file(sys, d + "cap_mask", cap);
        file(sys, d + "link_layer", "InfiniBand");
        file(sys, d + "gids/0", gid);
        for (int i = 0; i < pkeys.length; i++) {
            file(sys, d + "pkeys/" + i, pkeys[i]);
        }
    }

    /** Writes {@code text} and a newline at {@code sys/relative}, as sysfs ends its values. */
    public static void file(Path sys, String relative, String text) throws IOException {
        Path p = sys.resolve(relative);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text + "\n");
    }
}
