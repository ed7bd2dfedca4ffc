package org.ibtwin.diag;

import java.util.ArrayList;
import java.util.List;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.PortId;
import org.ibtwin.mad.SmpAttributes;

/**
 * The local device as the host's kernel shows it in sysfs and verbs (what ibstat, ibstatus and ibv_devinfo read),
 * found by SMPs to the local node: NodeInfo and PortInfo by the zero-hop directed route.
 *
 * <p>Two views: {@link View#KERNEL}, what a Linux host with the real driver shows (CA type "MT" and the device id,
 * the kernel's rate strings, link layer "InfiniBand", every port of the CA), and {@link View#UMAD2SIM}, what
 * libumad2sim makes up for a client of ibsim (device "ibsim0", CA type "simulator", firmware "1", only the port the
 * client is attached at, its own rate arithmetic, no link_layer file): on an ibsim the real tools see the latter,
 * so ours print it there too. Neither view knows the firmware version (no SMP carries it): the kernel view prints
 * none.
 *
 * @param name     the device name ("mlx5_0", "ibsim0")
 * @param view     which host view the sysfs strings follow
 * @param nodeInfo the NodeInfo attribute (64 bytes) of the local node
 * @param ports    the ports the host shows, in order
 */
public record LocalDevice(String name, View view, byte[] nodeInfo, List<Port> ports) {
    /** Whose sysfs the strings follow. */
    public enum View { KERNEL, UMAD2SIM }

    /** The kernel's (and umad2sim's) words for sysfs state and phys_state. */
    private static final String[] SYS_STATES = {"NOP", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER"};
    private static final String[] SYS_PHYS = {"<unknown>", "Sleep", "Polling", "Disabled",
        "PortConfigurationTraining", "LinkUp", "LinkErrorRecovery", "Phy Test"};
    private static final String[] SYS_NODE_TYPES = {"0: <unknown>", "1: CA", "2: SWITCH", "3: ROUTER", "4: RNIC"};

    /** PortInfo:CapabilityMask IsExtendedSpeedsSupported. */
    static final int CAP_EXT_SPEEDS = 1 << 14;

    /** One port: its number, its PortInfo and its port GUID. */
    public record Port(int number, byte[] portInfo, long guid) {
        long field(String name) {
            return SmpAttributes.PORT_INFO.get(portInfo, 0, name);
        }

        public int state() {
            return (int) field("LinkState");
        }

        public int physState() {
            return (int) field("PhysLinkState");
        }

        public int lid() {
            return (int) field("Lid");
        }

        public int lmc() {
            return (int) field("LMC");
        }

        public int smLid() {
            return (int) field("SMLid");
        }

        public int smSl() {
            return (int) field("SMSL");
        }

        public long capMask() {
            return field("CapMask");
        }

        public long gidPrefix() {
            return field("GidPrefix");
        }

        /** NeighborMTU (verbs' active_mtu), as the MTU enum 1..5. */
        public int activeMtu() {
            return (int) field("NeighborMTU");
        }

        /** MtuCap (verbs' max_mtu). */
        public int maxMtu() {
            return (int) field("MtuCap");
        }

        /** The active width in lanes (1, 2, 4, 8, 12; 0 when the field holds none of them). */
        public int lanes() {
            return switch ((int) field("LinkWidthActive")) {
                case 1 -> 1;
                case 2 -> 4;
                case 4 -> 8;
                case 8 -> 12;
                case 16 -> 2;
                default -> 0;
            };
        }

        /** The active speed's name, "SDR" .. "XDR", from the extended fields when the port has them. */
        public String speed() {
            if ((capMask() & CAP_EXT_SPEEDS) != 0) {
                int ext = (int) field("LinkSpeedExtActive");
                String s = switch (ext) {
                    case 1 -> "FDR";
                    case 2 -> "EDR";
                    case 4 -> "HDR";
                    case 8 -> "NDR";
                    default -> null;
                };
                if (s != null) {
                    return s;
                }
                if (field("LinkSpeedExtActive2") == 1) {
                    return "XDR";
                }
            }
            return switch ((int) field("LinkSpeedActive")) {
                case 2 -> "DDR";
                case 4 -> "QDR";
                default -> "SDR";
            };
        }
    }

    /**
     * Reads the local device through {@code q}: NodeInfo, then the PortInfo of every port the view shows (a switch:
     * port 0; a CA in the kernel view: ports 1..NumPorts; in the umad2sim view: the port the query leaves by).
     *
     * @throws QueryException when the local node does not answer
     */
    public static LocalDevice read(MadQuery q, String name, View view) {
        PortId self = PortId.directed(0);
        byte[] ni = q.smpGet(self, AttributeIds.NODE_INFO, 0);
        int type = (int) SmpAttributes.NODE_INFO.get(ni, 0, "NodeType");
        int numPorts = (int) SmpAttributes.NODE_INFO.get(ni, 0, "NumPorts");
        int local = (int) SmpAttributes.NODE_INFO.get(ni, 0, "LocalPort");
        long portGuid = SmpAttributes.NODE_INFO.get(ni, 0, "PortGuid");
        List<Port> ports = new ArrayList<>();
        if (type == 2) {
            ports.add(new Port(0, q.smpGet(self, AttributeIds.PORT_INFO, 0), portGuid));
        } else if (view == View.UMAD2SIM) {
            ports.add(new Port(local, q.smpGet(self, AttributeIds.PORT_INFO, local), portGuid));
        } else {
            for (int p = 1; p <= numPorts; p++) {
                // the other ports' GUIDs are not in any SMP to this port: the usual numbering (base + port) stands in
                ports.add(new Port(p, q.smpGet(self, AttributeIds.PORT_INFO, p), portGuid - local + p));
            }
        }
        return new LocalDevice(name, view, ni, List.copyOf(ports));
    }

    long node(String field) {
        return SmpAttributes.NODE_INFO.get(nodeInfo, 0, field);
    }

    /** 1 CA, 2 switch, 3 router. */
    public int nodeType() {
        return (int) node("NodeType");
    }

    public long nodeGuid() {
        return node("Guid");
    }

    public long systemGuid() {
        return node("SystemGuid");
    }

    public int deviceId() {
        return (int) node("DevId");
    }

    public int vendorId() {
        return (int) node("VendorId");
    }

    public long revision() {
        return node("Revision");
    }

    /** The number of ports as libibumad counts them: the highest port number the view shows. */
    public int numPorts() {
        if (view == View.KERNEL) {
            return nodeType() == 2 ? 0 : (int) node("NumPorts");
        }
        return ports.stream().mapToInt(Port::number).max().orElse(0);
    }

    /** The port numbered {@code n}, or null when the view does not show it. */
    public Port port(int n) {
        for (Port p : ports) {
            if (p.number() == n) {
                return p;
            }
        }
        return null;
    }

    /** sysfs hca_type: "simulator" for umad2sim, "MT" and the device id in decimal for the kernel (mlx5's). */
    public String caType() {
        return view == View.UMAD2SIM ? "simulator" : "MT" + deviceId();
    }

    /** sysfs fw_ver: umad2sim's "1" (ibsim's vendor answer); the kernel's is unknown to SMPs: null. */
    public String firmware() {
        return view == View.UMAD2SIM ? "1" : null;
    }

    /** sysfs hw_rev: NodeInfo's Revision in hex. */
    public String hardware() {
        return Long.toHexString(revision());
    }

    /** sysfs link_layer: "InfiniBand" in the kernel; null where there is no such file (umad2sim). */
    public String linkLayer() {
        return view == View.UMAD2SIM ? null : "InfiniBand";
    }

    /**
     * sysfs rate: the kernel's "200 Gb/sec (4X HDR)" ("2.5 Gb/sec (1X)" for SDR), or umad2sim's own arithmetic
     * (26 Gb/s a lane for EDR and faster, 14 for FDR, no speed name for SDR).
     */
    public String rate(Port p) {
        int lanes = p.lanes();
        String speed = p.speed();
        if (view == View.UMAD2SIM) {
            boolean ext = (p.capMask() & CAP_EXT_SPEEDS) != 0 && p.field("LinkSpeedExtActive") != 0;
            if (!ext) {
                int code = (int) p.field("LinkSpeedActive");
                int tenths = lanes * code * 25;
                String name = code == 2 ? " DDR" : code == 4 ? " QDR" : "";
                return tenths / 10 + (tenths % 10 != 0 ? ".5" : "") + " Gb/sec (" + lanes + "X" + name + ")";
            }
            int code = (int) p.field("LinkSpeedExtActive");
            String name = switch (code) {
                case 1 -> " FDR";
                case 2 -> " EDR";
                case 4 -> " HDR";
                case 8 -> " NDR";
                default -> "";
            };
            return (code == 1 ? 14 * lanes : 26 * lanes) + " Gb/sec (" + lanes + "X" + name + ")";
        }
        int perLane = switch (speed) {
            case "DDR" -> 50;
            case "QDR" -> 100;
            case "FDR" -> 140;
            case "EDR" -> 250;
            case "HDR" -> 500;
            case "NDR" -> 1000;
            case "XDR" -> 2000;
            default -> 25;
        };
        int tenths = perLane * lanes;
        return tenths / 10 + (tenths % 10 != 0 ? ".5" : "") + " Gb/sec (" + lanes + "X"
                + (speed.equals("SDR") ? "" : " " + speed) + ")";
    }

    /** The rate as libibumad reads it (strtoul of the sysfs string: the whole Gb/s). */
    public int rateWhole(Port p) {
        String r = rate(p);
        int i = 0;
        while (i < r.length() && Character.isDigit(r.charAt(i))) {
            i++;
        }
        return i == 0 ? 0 : Integer.parseInt(r.substring(0, i));
    }

    /** sysfs gids/0: the subnet prefix and the port GUID (umad2sim: the node GUID plus the port number). */
    public long gidGuid(Port p) {
        return view == View.UMAD2SIM ? nodeGuid() + p.number() : p.guid();
    }

    /**
     * The sysfs files the host would show for this device (under {@code /sys/class/infiniband/<name>}), made up from
     * the SMP answers as the view's kernel (or umad2sim) writes them, so that ibstat and ibstatus print from them as
     * they print from a real sysfs.
     */
    public SysfsDevice sysfs() {
        String dir = "/sys/class/infiniband/" + name;
        java.util.Map<String, SysfsDevice.File> files = new java.util.LinkedHashMap<>();
        int t = nodeType();
        put(files, dir, "node_type", (t >= 0 && t < SYS_NODE_TYPES.length ? SYS_NODE_TYPES[t] : t + ": <unknown>"));
        put(files, dir, "fw_ver", firmware());
        put(files, dir, "hw_rev", hardware());
        put(files, dir, "hca_type", caType());
        put(files, dir, "node_guid", sysfsGuid(nodeGuid()));
        put(files, dir, "sys_image_guid", sysfsGuid(systemGuid()));
        List<SysfsDevice.Port> list = new ArrayList<>();
        for (Port p : ports) {
            String pd = dir + "/ports/" + p.number();
            java.util.Map<String, SysfsDevice.File> pf = new java.util.LinkedHashMap<>();
            int s = p.state();
            int ph = p.physState();
            long prefix = p.gidPrefix();
            long guid = gidGuid(p);
            put(pf, pd, "state", s + ": " + (s < SYS_STATES.length ? SYS_STATES[s] : "<unknown>"));
            put(pf, pd, "phys_state", ph + ": " + (ph < SYS_PHYS.length ? SYS_PHYS[ph] : "<unknown>"));
            put(pf, pd, "rate", rate(p));
            put(pf, pd, "lid", "0x" + Integer.toHexString(p.lid()));
            put(pf, pd, "sm_lid", "0x" + Integer.toHexString(p.smLid()));
            put(pf, pd, "lid_mask_count", Integer.toString(p.lmc()));
            put(pf, pd, "cap_mask", String.format("0x%08x", p.capMask()));
            put(pf, pd, "link_layer", linkLayer());
            put(pf, pd, "gids/0", sysfsGuid(prefix) + ":" + sysfsGuid(guid));
            list.add(new SysfsDevice.Port(p.number(), pd, pf));
        }
        return new SysfsDevice(name, dir, files, List.copyOf(list));
    }

    private static void put(java.util.Map<String, SysfsDevice.File> m, String dir, String file, String text) {
        m.put(file, new SysfsDevice.File(dir + "/" + file, text == null ? null : text + "\n", null));
    }

    /** A 64-bit value as sysfs writes a GUID: four groups of four hex digits. */
    static String sysfsGuid(long g) {
        return String.format("%04x:%04x:%04x:%04x", g >>> 48, (g >>> 32) & 0xffff, (g >>> 16) & 0xffff,
                g & 0xffff);
    }
}
