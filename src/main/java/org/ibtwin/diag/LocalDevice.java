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
}
