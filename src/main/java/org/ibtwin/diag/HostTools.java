package org.ibtwin.diag;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What ibstat, ibstatus and ibv_devinfo print about a {@link LocalDevice}, line for line as the real tools print
 * what sysfs and verbs tell them (ibstat: libibumad's reading of sysfs; ibstatus: the sysfs files as the script
 * echoes them; ibv_devinfo: the verbs device and port attributes).
 */
public final class HostTools {
    private static final String[] NODE_TYPES = {"???", "CA", "Switch", "Router", "iWARP RNIC"};
    private static final String[] STATES = {"???", "Down", "Initializing", "Armed", "Active"};
    private static final String[] PHYS = {"No state change", "Sleep", "Polling", "Disabled",
        "PortConfigurationTraining", "LinkUp", "LinkErrorRecovery", "PhyTest"};
    private static final String[] VERBS_STATES = {"invalid state", "PORT_DOWN", "PORT_INIT", "PORT_ARMED",
        "PORT_ACTIVE"};

    private HostTools() {
    }

    private static String nodeType(LocalDevice d) {
        int t = d.nodeType();
        return t >= 0 && t < NODE_TYPES.length ? NODE_TYPES[t] : "???";
    }

    private static String nodeType(SysfsDevice d) {
        long t = SysfsDevice.number(d.file("node_type"));
        return t >= 0 && t < NODE_TYPES.length ? NODE_TYPES[(int) t] : "???";
    }

    /** A string attribute as libibumad keeps it: its first line, at most 19 characters; "" when missing. */
    private static String attr(SysfsDevice.File f) {
        String s = f.line();
        return s == null ? "" : s.length() > 19 ? s.substring(0, 19) : s;
    }

    // ---- ibstat

    /** {@code ibstat <ca>}: the CA header, then every port (none with {@code shortFormat}). */
    public static String ibstat(LocalDevice d, boolean shortFormat) {
        return ibstat(d.sysfs(), shortFormat);
    }

    /**
     * {@code ibstat <ca>} from the device's sysfs files: the CA header, then every port (none with
     * {@code shortFormat}).
     *
     * @throws IllegalArgumentException one line naming a file ibstat needs that is missing or unreadable
     */
    public static String ibstat(SysfsDevice d, boolean shortFormat) {
        StringBuilder sb = new StringBuilder();
        String type = nodeType(d);
        long nodeGuid = SysfsDevice.guid(d.file("node_guid"));
        long sysGuid = SysfsDevice.guid(d.file("sys_image_guid"));
        List<String> ports = new java.util.ArrayList<>();
        for (SysfsDevice.Port p : d.ports()) {
            StringBuilder ps = new StringBuilder();
            ibstatPort(p, "\t", "\t\t", ps);
            ports.add(ps.toString());
        }
        sb.append(type).append(" '").append(d.name()).append("'\n");
        sb.append('\t').append(type).append(" type: ").append(attr(d.file("hca_type"))).append('\n');
        sb.append("\tNumber of ports: ").append(d.numPorts()).append('\n');
        sb.append("\tFirmware version: ").append(attr(d.file("fw_ver"))).append('\n');
        sb.append("\tHardware version: ").append(attr(d.file("hw_rev"))).append('\n');
        sb.append(String.format("\tNode GUID: 0x%016x%n", nodeGuid));
        sb.append(String.format("\tSystem image GUID: 0x%016x%n", sysGuid));
        if (!shortFormat) {
            ports.forEach(sb::append);
        }
        return sb.toString();
    }

    /** {@code ibstat <ca> <port>}: "CA: 'name'" and the port unindented. */
    public static String ibstatPort(LocalDevice d, LocalDevice.Port p) {
        SysfsDevice s = d.sysfs();
        return ibstatPort(s, s.port(p.number()));
    }

    /** {@code ibstat <ca> <port>} from sysfs: "CA: 'name'" and the port unindented. */
    public static String ibstatPort(SysfsDevice d, SysfsDevice.Port p) {
        StringBuilder sb = new StringBuilder();
        String type = nodeType(d);
        ibstatPort(p, "", "", sb);
        return type + ": '" + d.name() + "'\n" + sb;
    }

    /** The warning ibstat gives for a port the CA does not have. */
    public static String noSuchPort(LocalDevice d, int port) {
        return noSuchPort(d.sysfs(), port);
    }

    /** The warning ibstat gives for a port the CA does not have (sysfs). */
    public static String noSuchPort(SysfsDevice d, int port) {
        return "ca_stat: " + nodeType(d) + ": '" + d.name() + "' has no port number " + port + " - max ("
                + d.numPorts() + ")";
    }

    private static void ibstatPort(SysfsDevice.Port p, String hdr, String pre, StringBuilder sb) {
        long state = SysfsDevice.number(p.file("state"));
        long phys = SysfsDevice.number(p.file("phys_state"));
        long rate = SysfsDevice.number(p.file("rate"));
        long lid = SysfsDevice.number(p.file("lid"));
        long lmc = SysfsDevice.number(p.file("lid_mask_count"));
        long smLid = SysfsDevice.number(p.file("sm_lid"));
        long cap = SysfsDevice.number(p.file("cap_mask"));
        long guid = SysfsDevice.gidGuid(p.file("gids/0"));
        SysfsDevice.File ll = p.file("link_layer");
        sb.append(hdr).append("Port ").append(p.number()).append(":\n");
        sb.append(pre).append("State: ").append(state >= 0 && state <= 4 ? STATES[(int) state] : "???")
                .append('\n');
        sb.append(pre).append("Physical state: ").append(phys >= 0 && phys <= 7 ? PHYS[(int) phys] : "???")
                .append('\n');
        sb.append(pre).append("Rate: ").append(rate == 2 ? "2.5" : Long.toString(rate)).append('\n');
        sb.append(pre).append("Base lid: ").append(lid & 0xffffffffL).append('\n');
        sb.append(pre).append("LMC: ").append(lmc & 0xffffffffL).append('\n');
        sb.append(pre).append("SM lid: ").append(smLid & 0xffffffffL).append('\n');
        sb.append(pre).append(String.format("Capability mask: 0x%08x%n", cap & 0xffffffffL));
        sb.append(pre).append(String.format("Port GUID: 0x%016x%n", guid));
        sb.append(pre).append("Link layer: ").append(ll.present() ? attr(ll) : "IB").append('\n');
    }

    /** {@code ibstat -p}: the port GUIDs, one a line. */
    public static String ibstatGuids(LocalDevice d) {
        return ibstatGuids(d.sysfs());
    }

    /** {@code ibstat -p} from sysfs: the port GUIDs but zero, one a line. */
    public static String ibstatGuids(SysfsDevice d) {
        StringBuilder sb = new StringBuilder();
        for (SysfsDevice.Port p : d.ports()) {
            long g = SysfsDevice.gidGuid(p.file("gids/0"));
            if (g != 0) {
                sb.append(String.format("0x%016x%n", g));
            }
        }
        return sb.toString();
    }

    // ---- ibstatus

    /** {@code ibstatus [dev[:port]]}: one block per port, as the script echoes the sysfs files. */
    public static String ibstatus(LocalDevice d, List<LocalDevice.Port> ports) {
        SysfsDevice s = d.sysfs();
        List<String> names = new java.util.ArrayList<>();
        for (LocalDevice.Port p : ports) {
            names.add(Integer.toString(p.number()));
        }
        return ibstatus(s, names);
    }

    /**
     * {@code ibstatus [dev[:port]]} from sysfs: one block per port name, as the script echoes the files (a missing
     * or unreadable one: "unknown"; no link_layer: "IB"), a port that is not there as all unknown.
     */
    public static String ibstatus(SysfsDevice d, List<String> portNames) {
        StringBuilder sb = new StringBuilder();
        for (String name : portNames) {
            SysfsDevice.Port p = null;
            for (SysfsDevice.Port x : d.ports()) {
                if (Integer.toString(x.number()).equals(name)) {
                    p = x;
                }
            }
            String[][] lines = {{"\tdefault gid:\t", "gids/0", "unknown"}, {"\tbase lid:\t", "lid", "unknown"},
                {"\tsm lid:\t\t", "sm_lid", "unknown"}, {"\tstate:\t\t", "state", "unknown"},
                {"\tphys state:\t", "phys_state", "unknown"}, {"\trate:\t\t", "rate", "unknown"},
                {"\tlink_layer:\t", "link_layer", "IB"}};
            sb.append("Infiniband device '").append(d.name()).append("' port ").append(name).append(" status:\n");
            for (String[] l : lines) {
                SysfsDevice.File f = p == null ? null : p.file(l[1]);
                String v = f != null && f.present() ? f.words() : l[2];
                sb.append(l[0]).append(v.isEmpty() ? "" : " " + v).append('\n');
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /** The port names {@code ibstatus dev} shows: the shell's {@code *} in the ports directory ("*" when empty). */
    public static List<String> ibstatusPorts(SysfsDevice d) {
        List<String> names = new java.util.ArrayList<>();
        for (SysfsDevice.Port p : d.portsInGlobOrder()) {
            names.add(Integer.toString(p.number()));
        }
        return names.isEmpty() ? List.of("*") : names;
    }

    // ---- ibv_devinfo

    /** {@code ibv_devinfo [-i port]}: the device and its ports (port 0: every port). */
    public static String ibvDevinfo(LocalDevice d, int port) {
        return ibvDevinfo(d.sysfs(), d, port);
    }

    /**
     * {@code ibv_devinfo [-i port]} from what verbs takes from the driver: the device's sysfs files (fw_ver, GUIDs,
     * hw_rev, board_id, the ports' state, LIDs and link layer) and, for what only the device tells verbs, its
     * NodeInfo and PortInfo ({@code smp}: vendor and part id, the MTUs). A line whose file is missing is left out
     * (fw_ver, board_id), as is a port past NumPorts.
     */
    public static String ibvDevinfo(SysfsDevice s, LocalDevice smp, int port) {
        StringBuilder sb = new StringBuilder();
        sb.append("hca_id:\t").append(s.name()).append('\n');
        sb.append("\ttransport:\t\t\tInfiniBand (0)\n");
        if (s.file("fw_ver").present()) {
            sb.append("\tfw_ver:\t\t\t\t").append(s.file("fw_ver").line()).append('\n');
        }
        sb.append("\tnode_guid:\t\t\t").append(guidStr(SysfsDevice.guid(s.file("node_guid")))).append('\n');
        sb.append("\tsys_image_guid:\t\t\t").append(guidStr(SysfsDevice.guid(s.file("sys_image_guid"))))
                .append('\n');
        sb.append(String.format("\tvendor_id:\t\t\t0x%04x%n", smp.vendorId()));
        sb.append("\tvendor_part_id:\t\t\t").append(smp.deviceId()).append('\n');
        SysfsDevice.File hw = s.file("hw_rev");
        sb.append(String.format("\thw_ver:\t\t\t\t0x%X%n", hw.present() ? SysfsDevice.leadingNumber(
                hw.text().strip().toLowerCase(java.util.Locale.ROOT).startsWith("0x") ? hw.text()
                        : "0x" + hw.text().strip()) : smp.revision()));
        if (s.file("board_id").present()) {
            sb.append("\tboard_id:\t\t\t").append(s.file("board_id").line()).append('\n');
        }
        int numPorts = s.numPorts();
        sb.append("\tphys_port_cnt:\t\t\t").append(numPorts).append('\n');
        for (SysfsDevice.Port p : s.ports()) {
            if ((port != 0 && p.number() != port) || p.number() < 1 || p.number() > numPorts) {
                continue;
            }
            LocalDevice.Port mp = smp.port(p.number());
            int st = (int) SysfsDevice.number(p.file("state"));
            int maxMtu = mp == null ? 0 : mp.maxMtu();
            int activeMtu = mp == null ? 0 : mp.activeMtu();
            SysfsDevice.File ll = p.file("link_layer");
            sb.append("\t\tport:\t").append(p.number()).append('\n');
            sb.append("\t\t\tstate:\t\t\t").append(st >= 0 && st < VERBS_STATES.length ? VERBS_STATES[st]
                    : "invalid state").append(" (").append(st).append(")\n");
            sb.append("\t\t\tmax_mtu:\t\t").append(mtu(maxMtu)).append(" (").append(maxMtu).append(")\n");
            sb.append("\t\t\tactive_mtu:\t\t").append(mtu(activeMtu)).append(" (").append(activeMtu)
                    .append(")\n");
            sb.append("\t\t\tsm_lid:\t\t\t").append(SysfsDevice.number(p.file("sm_lid"))).append('\n');
            sb.append("\t\t\tport_lid:\t\t").append(SysfsDevice.number(p.file("lid"))).append('\n');
            sb.append(String.format("\t\t\tport_lmc:\t\t0x%02x%n", SysfsDevice.number(p.file("lid_mask_count"))));
            sb.append("\t\t\tlink_layer:\t\t").append(ll.present() && ll.line().equals("Ethernet") ? "Ethernet"
                    : "InfiniBand").append('\n');
            sb.append('\n');
        }
        return sb.toString();
    }

    private static String mtu(int code) {
        return code >= 1 && code <= 5 ? Integer.toString(128 << code) : "invalid MTU";
    }

    private static String guidStr(long g) {
        return LocalDevice.sysfsGuid(g);
    }

    // ---- JSON

    /** The device as a JSON tree: what every one of the three tools shows. */
    public static Map<String, Object> json(LocalDevice d) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", d.name());
        m.put("nodeType", nodeType(d));
        m.put("caType", d.caType());
        m.put("numPorts", d.numPorts());
        m.put("firmware", d.firmware());
        m.put("hardware", d.hardware());
        m.put("nodeGuid", String.format("0x%016x", d.nodeGuid()));
        m.put("systemImageGuid", String.format("0x%016x", d.systemGuid()));
        m.put("vendorId", String.format("0x%04x", d.vendorId()));
        m.put("vendorPartId", d.deviceId());
        List<Map<String, Object>> ports = new java.util.ArrayList<>();
        for (LocalDevice.Port p : d.ports()) {
            Map<String, Object> pm = new LinkedHashMap<>();
            pm.put("port", p.number());
            int s = p.state();
            int ph = p.physState();
            pm.put("state", s <= 4 ? STATES[s] : "???");
            pm.put("physicalState", ph <= 7 ? PHYS[ph] : "???");
            pm.put("rate", d.rate(p));
            pm.put("width", p.lanes() + "X");
            pm.put("speed", p.speed());
            pm.put("lid", p.lid());
            pm.put("lmc", p.lmc());
            pm.put("smLid", p.smLid());
            pm.put("capabilityMask", String.format("0x%08x", p.capMask()));
            pm.put("portGuid", String.format("0x%016x", p.guid()));
            pm.put("linkLayer", d.linkLayer() == null ? "IB" : d.linkLayer());
            pm.put("activeMtu", p.activeMtu() >= 1 && p.activeMtu() <= 5 ? 128 << p.activeMtu() : null);
            pm.put("maxMtu", p.maxMtu() >= 1 && p.maxMtu() <= 5 ? 128 << p.maxMtu() : null);
            ports.add(pm);
        }
        m.put("ports", ports);
        return m;
    }

    /** The device as sysfs shows it, as a JSON tree (what ibstat prints, and the board id). */
    public static Map<String, Object> json(SysfsDevice d) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", d.name());
        m.put("nodeType", nodeType(d));
        m.put("caType", attr(d.file("hca_type")));
        m.put("numPorts", d.numPorts());
        m.put("firmware", attr(d.file("fw_ver")));
        m.put("hardware", attr(d.file("hw_rev")));
        m.put("nodeGuid", String.format("0x%016x", SysfsDevice.guid(d.file("node_guid"))));
        m.put("systemImageGuid", String.format("0x%016x", SysfsDevice.guid(d.file("sys_image_guid"))));
        m.put("boardId", d.file("board_id").line());
        List<Map<String, Object>> ports = new java.util.ArrayList<>();
        for (SysfsDevice.Port p : d.ports()) {
            Map<String, Object> pm = new LinkedHashMap<>();
            long s = SysfsDevice.number(p.file("state"));
            long ph = SysfsDevice.number(p.file("phys_state"));
            pm.put("port", p.number());
            pm.put("state", s >= 0 && s <= 4 ? STATES[(int) s] : "???");
            pm.put("physicalState", ph >= 0 && ph <= 7 ? PHYS[(int) ph] : "???");
            pm.put("rate", SysfsDevice.require(p.file("rate")).strip());
            pm.put("lid", SysfsDevice.number(p.file("lid")));
            pm.put("lmc", SysfsDevice.number(p.file("lid_mask_count")));
            pm.put("smLid", SysfsDevice.number(p.file("sm_lid")));
            pm.put("capabilityMask", String.format("0x%08x", SysfsDevice.number(p.file("cap_mask"))));
            pm.put("portGuid", String.format("0x%016x", SysfsDevice.gidGuid(p.file("gids/0"))));
            SysfsDevice.File ll = p.file("link_layer");
            pm.put("linkLayer", ll.present() ? attr(ll) : "IB");
            ports.add(pm);
        }
        m.put("ports", ports);
        return m;
    }
}
