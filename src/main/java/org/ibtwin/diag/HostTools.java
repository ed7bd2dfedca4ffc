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
    private static final String[] SYS_STATES = {"NOP", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER"};
    private static final String[] SYS_PHYS = {"<unknown>", "Sleep", "Polling", "Disabled",
        "PortConfigurationTraining", "LinkUp", "LinkErrorRecovery", "Phy Test"};
    private static final String[] VERBS_STATES = {"invalid state", "PORT_DOWN", "PORT_INIT", "PORT_ARMED",
        "PORT_ACTIVE"};

    private HostTools() {
    }

    private static String nodeType(LocalDevice d) {
        int t = d.nodeType();
        return t >= 0 && t < NODE_TYPES.length ? NODE_TYPES[t] : "???";
    }

    // ---- ibstat

    /** {@code ibstat <ca>}: the CA header, then every port (none with {@code shortFormat}). */
    public static String ibstat(LocalDevice d, boolean shortFormat) {
        StringBuilder sb = new StringBuilder();
        String type = nodeType(d);
        sb.append(type).append(" '").append(d.name()).append("'\n");
        sb.append('\t').append(type).append(" type: ").append(d.caType()).append('\n');
        sb.append("\tNumber of ports: ").append(d.numPorts()).append('\n');
        sb.append("\tFirmware version: ").append(d.firmware() == null ? "" : d.firmware()).append('\n');
        sb.append("\tHardware version: ").append(d.hardware()).append('\n');
        sb.append(String.format("\tNode GUID: 0x%016x%n", d.nodeGuid()));
        sb.append(String.format("\tSystem image GUID: 0x%016x%n", d.systemGuid()));
        if (!shortFormat) {
            for (LocalDevice.Port p : d.ports()) {
                ibstatPort(d, p, "\t", "\t\t", sb);
            }
        }
        return sb.toString();
    }

    /** {@code ibstat <ca> <port>}: "CA: 'name'" and the port unindented. */
    public static String ibstatPort(LocalDevice d, LocalDevice.Port p) {
        StringBuilder sb = new StringBuilder();
        sb.append(nodeType(d)).append(": '").append(d.name()).append("'\n");
        ibstatPort(d, p, "", "", sb);
        return sb.toString();
    }

    /** The warning ibstat gives for a port the CA does not have. */
    public static String noSuchPort(LocalDevice d, int port) {
        return "ca_stat: " + nodeType(d) + ": '" + d.name() + "' has no port number " + port + " - max ("
                + d.numPorts() + ")";
    }

    private static void ibstatPort(LocalDevice d, LocalDevice.Port p, String hdr, String pre, StringBuilder sb) {
        int state = p.state();
        int phys = p.physState();
        sb.append(hdr).append("Port ").append(p.number()).append(":\n");
        sb.append(pre).append("State: ").append(state <= 4 ? STATES[state] : "???").append('\n');
        sb.append(pre).append("Physical state: ").append(phys <= 7 ? PHYS[phys] : "???").append('\n');
        int rate = d.rateWhole(p);
        sb.append(pre).append("Rate: ").append(rate == 2 ? "2.5" : Integer.toString(rate)).append('\n');
        sb.append(pre).append("Base lid: ").append(p.lid()).append('\n');
        sb.append(pre).append("LMC: ").append(p.lmc()).append('\n');
        sb.append(pre).append("SM lid: ").append(p.smLid()).append('\n');
        sb.append(pre).append(String.format("Capability mask: 0x%08x%n", p.capMask()));
        sb.append(pre).append(String.format("Port GUID: 0x%016x%n", p.guid()));
        sb.append(pre).append("Link layer: ").append(d.linkLayer() == null ? "IB" : d.linkLayer()).append('\n');
    }

    /** {@code ibstat -p}: the port GUIDs, one a line. */
    public static String ibstatGuids(LocalDevice d) {
        StringBuilder sb = new StringBuilder();
        for (LocalDevice.Port p : d.ports()) {
            if (p.guid() != 0) {
                sb.append(String.format("0x%016x%n", p.guid()));
            }
        }
        return sb.toString();
    }

    // ---- ibstatus

    /** {@code ibstatus [dev[:port]]}: one block per port, as the script echoes the sysfs files. */
    public static String ibstatus(LocalDevice d, List<LocalDevice.Port> ports) {
        StringBuilder sb = new StringBuilder();
        for (LocalDevice.Port p : ports) {
            long prefix = p.gidPrefix();
            long guid = d.gidGuid(p);
            sb.append("Infiniband device '").append(d.name()).append("' port ").append(p.number())
                    .append(" status:\n");
            sb.append("\tdefault gid:\t ").append(String.format("%04x:%04x:%04x:%04x:%04x:%04x:%04x:%04x",
                    prefix >>> 48, (prefix >>> 32) & 0xffff, (prefix >>> 16) & 0xffff, prefix & 0xffff,
                    guid >>> 48, (guid >>> 32) & 0xffff, (guid >>> 16) & 0xffff, guid & 0xffff)).append('\n');
            sb.append("\tbase lid:\t 0x").append(Integer.toHexString(p.lid())).append('\n');
            sb.append("\tsm lid:\t\t 0x").append(Integer.toHexString(p.smLid())).append('\n');
            int s = p.state();
            sb.append("\tstate:\t\t ").append(s).append(": ").append(s < SYS_STATES.length ? SYS_STATES[s]
                    : "<unknown>").append('\n');
            int ph = p.physState();
            sb.append("\tphys state:\t ").append(ph).append(": ").append(ph < SYS_PHYS.length ? SYS_PHYS[ph]
                    : "<unknown>").append('\n');
            sb.append("\trate:\t\t ").append(d.rate(p)).append('\n');
            sb.append("\tlink_layer:\t ").append(d.linkLayer() == null ? "IB" : d.linkLayer()).append('\n');
            sb.append('\n');
        }
        return sb.toString();
    }

    // ---- ibv_devinfo

    /** {@code ibv_devinfo [-i port]}: the device and its ports (port 0: every port). */
    public static String ibvDevinfo(LocalDevice d, int port) {
        StringBuilder sb = new StringBuilder();
        sb.append("hca_id:\t").append(d.name()).append('\n');
        sb.append("\ttransport:\t\t\tInfiniBand (0)\n");
        if (d.firmware() != null) {
            sb.append("\tfw_ver:\t\t\t\t").append(d.firmware()).append('\n');
        }
        sb.append("\tnode_guid:\t\t\t").append(guidStr(d.nodeGuid())).append('\n');
        sb.append("\tsys_image_guid:\t\t\t").append(guidStr(d.systemGuid())).append('\n');
        sb.append(String.format("\tvendor_id:\t\t\t0x%04x%n", d.vendorId()));
        sb.append("\tvendor_part_id:\t\t\t").append(d.deviceId()).append('\n');
        sb.append(String.format("\thw_ver:\t\t\t\t0x%X%n", d.revision()));
        sb.append("\tphys_port_cnt:\t\t\t").append(d.numPorts()).append('\n');
        for (LocalDevice.Port p : d.ports()) {
            if ((port != 0 && p.number() != port) || p.number() < 1 || p.number() > d.numPorts()) {
                continue;
            }
            int s = p.state();
            sb.append("\t\tport:\t").append(p.number()).append('\n');
            sb.append("\t\t\tstate:\t\t\t").append(s < VERBS_STATES.length ? VERBS_STATES[s] : "invalid state")
                    .append(" (").append(s).append(")\n");
            sb.append("\t\t\tmax_mtu:\t\t").append(mtu(p.maxMtu())).append(" (").append(p.maxMtu()).append(")\n");
            sb.append("\t\t\tactive_mtu:\t\t").append(mtu(p.activeMtu())).append(" (").append(p.activeMtu())
                    .append(")\n");
            sb.append("\t\t\tsm_lid:\t\t\t").append(p.smLid()).append('\n');
            sb.append("\t\t\tport_lid:\t\t").append(p.lid()).append('\n');
            sb.append(String.format("\t\t\tport_lmc:\t\t0x%02x%n", p.lmc()));
            sb.append("\t\t\tlink_layer:\t\tInfiniBand\n");
            sb.append('\n');
        }
        return sb.toString();
    }

    private static String mtu(int code) {
        return code >= 1 && code <= 5 ? Integer.toString(128 << code) : "invalid MTU";
    }

    private static String guidStr(long g) {
        return String.format("%04x:%04x:%04x:%04x", g >>> 48, (g >>> 32) & 0xffff, (g >>> 16) & 0xffff,
                g & 0xffff);
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
}
