package org.ibtwin.format.tools;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ibtwin.format.FormatException;
import org.ibtwin.model.LinkLayer;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.LinkWidth;
import org.ibtwin.model.Mtu;
import org.ibtwin.model.PcieGen;
import org.ibtwin.model.PhysState;
import org.ibtwin.model.PortState;

/**
 * Readers for what a host says about its HCA: ibstat, ibstatus and ibv_devinfo (device, firmware, ports), lspci -vv
 * (the HCA's PCIe LnkCap/LnkSta, max payload, NUMA node), {@code ip -d link} and ifcfg-ib0 (IPoIB mode and MTU),
 * lsmod (drivers, nvidia_peermem), numactl --show (where the job runs), and single sysfs values (numa_node, ib0's
 * mode).
 */
public final class HostOutputs {
    /** One HCA port as the host sees it; unknown fields null. */
    public record HcaPort(int port, PortState state, PhysState physState, Double rateGbps, LinkWidth width,
                          LinkSpeed speed, Integer lid, Integer smLid, Long portGuid, LinkLayer linkLayer,
                          Mtu activeMtu, Mtu maxMtu, int line) {
    }

    /**
     * One HCA.
     *
     * @param device "MT4123" (ibstat CA type, or MT and ibv_devinfo's vendor_part_id), null when not printed
     */
    public record Hca(String name, String device, String firmware, Long nodeGuid, List<HcaPort> ports, int line) {
    }

    /** The HCA's PCIe link from lspci -vv. */
    public record Pcie(String address, String description, PcieGen capGen, Integer capLanes, PcieGen gen,
                       Integer lanes, Integer maxPayload, Integer numaNode, int line) {
    }

    /** IPoIB settings of an interface. */
    public record Ipoib(String device, Boolean connected, Integer mtu, int line) {
    }

    private HostOutputs() {
    }

    // ------------------------------------------------------------------------------------------------ ibstat

    private static final Pattern CA_HEAD = Pattern.compile("^(CA|Switch|Router) '(.*)'\\s*$");
    private static final Pattern KV = Pattern.compile("^\\s+([A-Za-z_][A-Za-z _]*?):\\s*(.*?)\\s*$");
    private static final Pattern PORT_HEAD = Pattern.compile("^\\s*Port (\\d+):\\s*$");

    public static List<Hca> ibstat(String text, String file) {
        return caBlocks(text, file, CA_HEAD, 2, PORT_HEAD, (ca, port, k, v, no) -> {
            if (port == null) {
                switch (k) {
                    case "CA type", "Switch type", "Router type" -> ca.device = v.isEmpty() ? null : v;
                    case "Firmware version" -> ca.firmware = v;
                    case "Node GUID" -> ca.nodeGuid = Text.guid(v, file, no);
                    default -> { }
                }
                return;
            }
            switch (k) {
                case "State" -> port.state = state(Text.portState(v), v, file, no);
                case "Physical state" -> port.phys = phys(Text.physState(v), v, file, no);
                case "Rate" -> {
                    try {
                        port.rate = Double.parseDouble(v.replace("(FDR10)", "").trim());
                    } catch (NumberFormatException e) {
                        throw new FormatException(file, no, "rate \"" + v + "\" is not a number");
                    }
                }
                case "Base lid" -> port.lid = Text.integer(v, file, no, "base lid");
                case "SM lid" -> port.smLid = Text.integer(v, file, no, "SM lid");
                case "Port GUID" -> port.guid = Text.guid(v, file, no);
                case "Link layer" -> port.layer = layer(v);
                default -> { }
            }
        });
    }

    /** One "key: value" line of an ibstat or ibv_devinfo block: the CA's own when port is null, else the port's. */
    private interface Field {
        void set(Builder ca, PortBuilder port, String k, String v, int no);
    }

    /**
     * The CA blocks of ibstat or ibv_devinfo: a CA head line (its name in group nameGroup), port head lines (the
     * number in group 1) and "key: value" lines, each handed to field; lines before the first head are passed over.
     */
    private static List<Hca> caBlocks(String text, String file, Pattern caHead, int nameGroup, Pattern portHead,
                                      Field field) {
        Blocks b = new Blocks();
        for (String l : Text.lines(text)) {
            b.no++;
            Matcher h = caHead.matcher(l);
            if (h.matches()) {
                b.startCa(h.group(nameGroup), b.no);
                continue;
            }
            if (b.ca == null) {
                continue;
            }
            Matcher p = portHead.matcher(l);
            if (p.matches()) {
                b.startPort(Text.integer(p.group(1), file, b.no, "port"), b.no);
                continue;
            }
            Matcher kv = KV.matcher(l);
            if (kv.matches()) {
                field.set(b.ca, b.port, kv.group(1).trim(), kv.group(2), b.no);
            }
        }
        return b.done();
    }

    // ------------------------------------------------------------------------------------------------ ibstatus

    private static final Pattern STATUS_HEAD = Pattern.compile("^Infiniband device '(.*)' port (\\d+) status:\\s*$");
    private static final Pattern RATE = Pattern.compile("^([0-9.]+) Gb/sec \\((\\d+)X(?: (\\w+))?\\)\\s*$");

    public static List<Hca> ibstatus(String text, String file) {
        Blocks b = new Blocks();
        String[] lines = Text.lines(text);
        for (int i = 0; i < lines.length; i++) {
            int no = i + 1;
            Matcher h = STATUS_HEAD.matcher(lines[i]);
            if (h.matches()) {
                if (b.ca == null || !b.ca.name.equals(h.group(1))) {
                    b.startCa(h.group(1), no);
                }
                b.startPort(Text.integer(h.group(2), file, no, "port"), no);
                continue;
            }
            PortBuilder port = b.port;
            Matcher kv = KV.matcher(lines[i]);
            if (port == null || !kv.matches()) {
                continue;
            }
            String v = kv.group(2);
            switch (kv.group(1).trim()) {
                case "default gid" -> {
                    String[] g = v.split(":");
                    if (g.length == 8) {
                        port.guid = Text.guid(String.join("", g[4], g[5], g[6], g[7]), file, no);
                    }
                }
                case "base lid" -> port.lid = Text.integer(v, file, no, "base lid");
                case "sm lid" -> port.smLid = Text.integer(v, file, no, "sm lid");
                case "state" -> port.state = state(Text.portState(v), v, file, no);
                case "phys state" -> port.phys = phys(Text.physState(v), v, file, no);
                case "rate" -> {
                    Matcher r = RATE.matcher(v);
                    if (!r.matches()) {
                        throw new FormatException(file, no, "rate \"" + v + "\" not understood (expected like "
                                + "\"200 Gb/sec (4X HDR)\")");
                    }
                    port.rate = Double.parseDouble(r.group(1));
                    port.width = LinkWidth.ofLanes(Text.integer(r.group(2), file, no, "width"));
                    port.speed = r.group(3) == null ? LinkSpeed.SDR : LinkSpeed.parse(r.group(3));
                }
                case "link_layer" -> port.layer = layer(v);
                default -> { }
            }
        }
        return b.done();
    }

    // ------------------------------------------------------------------------------------------------ ibv_devinfo

    private static final Pattern DEV_HEAD = Pattern.compile("^hca_id:\\s*(\\S+)\\s*$");
    private static final Pattern DEV_PORT = Pattern.compile("^\\s+port:\\s*(\\d+)\\s*$");

    /** ibv_devinfo (with or without -v); "No IB devices found" gives an empty list. */
    public static List<Hca> ibvDevinfo(String text, String file) {
        return caBlocks(text, file, DEV_HEAD, 1, DEV_PORT, (ca, port, k, v, no) -> {
            String head = v.replaceFirst("\\s*\\(\\d+\\)$", "");
            if (port == null) {
                switch (k) {
                    case "fw_ver" -> ca.firmware = v;
                    case "node_guid" -> ca.nodeGuid = Text.guid(v, file, no);
                    case "vendor_part_id" -> ca.device = "MT" + Text.integer(v, file, no, "vendor_part_id");
                    default -> { }
                }
                return;
            }
            switch (k) {
                case "state" -> port.state = state(Text.portState(head), v, file, no);
                case "phys_state" -> port.phys = phys(Text.physState(head), v, file, no);
                case "max_mtu" -> port.maxMtu = mtu(head, file, no);
                case "active_mtu" -> port.activeMtu = mtu(head, file, no);
                case "sm_lid" -> port.smLid = Text.integer(v, file, no, "sm_lid");
                case "port_lid" -> port.lid = Text.integer(v, file, no, "port_lid");
                case "link_layer" -> port.layer = layer(v);
                case "active_width" -> port.width = Text.width(head);
                case "active_speed" -> port.speed = nominalSpeed(head);
                default -> { }
            }
        });
    }

    private static LinkSpeed nominalSpeed(String s) {
        String t = s.replace("Gbps", "").trim();
        try {
            double g = Double.parseDouble(t);
            for (LinkSpeed v : LinkSpeed.values()) {
                if (v != LinkSpeed.FDR10 && Math.floor(v.nominalGbps()) == Math.floor(g)) {
                    return v;
                }
            }
        } catch (NumberFormatException e) {
            return null;
        }
        return null;
    }

    private static Mtu mtu(String s, String file, int no) {
        Mtu m = Mtu.ofBytes(Text.integer(s, file, no, "mtu"));
        if (m == null) {
            throw new FormatException(file, no, "\"" + s + "\" is not an InfiniBand MTU");
        }
        return m;
    }

    // ------------------------------------------------------------------------------------------------ lspci

    private static final Pattern PCI_HEAD = Pattern.compile(
            "^((?:[0-9a-fA-F]{4}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.[0-7]) ([^:]+): (.*)$");
    private static final Pattern LNK = Pattern.compile("^\\s+Lnk(Cap|Sta):\\s*(.*)$");
    private static final Pattern SPEED = Pattern.compile("Speed ([0-9.]+)GT/s");
    private static final Pattern WIDTH = Pattern.compile("Width x(\\d+)");
    private static final Pattern SECTION = Pattern.compile("^\\t\\t(\\w+):");
    private static final Pattern MPS = Pattern.compile("MaxPayload (\\d+) bytes");
    private static final Pattern NUMA = Pattern.compile("^\\s+NUMA node: (-?\\d+)\\s*$");

    /** The InfiniBand HCAs (and Mellanox/NVIDIA network functions) of lspci -vv, virtual functions left out. */
    public static List<Pcie> lspci(String text, String file) {
        List<Pcie> out = new ArrayList<>();
        String[] lines = Text.lines(text);
        String addr = null;
        String desc = null;
        int head = 0;
        PcieGen capGen = null;
        PcieGen gen = null;
        Integer capLanes = null;
        Integer lanes = null;
        Integer mps = null;
        Integer numa = null;
        String section = "";
        for (int i = 0; i <= lines.length; i++) {
            String l = i < lines.length ? lines[i] : "";
            int no = i + 1;
            Matcher h = PCI_HEAD.matcher(l);
            if (h.matches() || i == lines.length) {
                if (addr != null && wanted(desc) && (gen != null || capGen != null)) {
                    out.add(new Pcie(addr, desc, capGen, capLanes, gen, lanes, mps, numa, head));
                }
                addr = null;
                if (i == lines.length) {
                    break;
                }
                addr = h.group(1);
                desc = h.group(2) + ": " + h.group(3);
                head = no;
                capGen = null;
                gen = null;
                capLanes = null;
                lanes = null;
                mps = null;
                numa = null;
                section = "";
                continue;
            }
            if (addr == null) {
                continue;
            }
            Matcher sec = SECTION.matcher(l);
            if (sec.find()) {
                section = sec.group(1);
            }
            Matcher n = NUMA.matcher(l);
            if (n.matches()) {
                numa = Text.integer(n.group(1), file, no, "NUMA node");
            }
            if (section.equals("DevCtl")) {
                Matcher mp = MPS.matcher(l);
                if (mp.find()) {
                    mps = Text.integer(mp.group(1), file, no, "MaxPayload");
                }
            }
            Matcher lk = LNK.matcher(l);
            if (lk.matches()) {
                Matcher s = SPEED.matcher(lk.group(2));
                Matcher w = WIDTH.matcher(lk.group(2));
                PcieGen g = s.find() ? gen(s.group(1)) : null;
                Integer x = w.find() ? Integer.valueOf(Text.integer(w.group(1), file, no, "PCIe width")) : null;
                if (g == null && lk.group(2).contains("Speed") && !lk.group(2).contains("unknown")) {
                    throw new FormatException(file, no, "PCIe speed in \"" + lk.group(2).strip()
                            + "\" not understood");
                }
                if (lk.group(1).equals("Cap")) {
                    capGen = g;
                    capLanes = x;
                } else {
                    gen = g;
                    lanes = x;
                }
            }
        }
        return out;
    }

    private static boolean wanted(String desc) {
        String d = desc.toLowerCase(Locale.ROOT);
        if (d.contains("virtual function")) {
            return false;
        }
        return d.contains("infiniband") || ((d.contains("mellanox") || d.contains("nvidia"))
                && (d.contains("ethernet controller") || d.contains("network controller")));
    }

    private static PcieGen gen(String gts) {
        double g = Double.parseDouble(gts);
        for (PcieGen p : PcieGen.values()) {
            if (Math.abs(p.gtPerSecond() - g) < 0.01) {
                return p;
            }
        }
        return null;
    }

    // ------------------------------------------------------------------------------------------------ IPoIB

    private static final Pattern IP_HEAD = Pattern.compile("^\\d+: ([^:@]+)(?:@[^:]+)?: <[^>]*> mtu (\\d+)\\b.*$");
    private static final Pattern IPOIB = Pattern.compile("^\\s+ipoib\\b.*\\bmode\\s+(\\w+)\\b.*$");

    /** ip -d link show: the IPoIB interfaces (those with an ipoib line, or link/infiniband). */
    public static List<Ipoib> ipLink(String text, String file) {
        List<Ipoib> out = new ArrayList<>();
        String[] lines = Text.lines(text);
        String dev = null;
        Integer mtu = null;
        int head = 0;
        boolean ib = false;
        Boolean connected = null;
        for (int i = 0; i <= lines.length; i++) {
            String l = i < lines.length ? lines[i] : "";
            int no = i + 1;
            Matcher h = IP_HEAD.matcher(l);
            if (h.matches() || i == lines.length) {
                if (dev != null && ib) {
                    out.add(new Ipoib(dev, connected, mtu, head));
                }
                if (i == lines.length) {
                    break;
                }
                dev = h.group(1);
                mtu = Text.integer(h.group(2), file, no, "mtu");
                head = no;
                ib = false;
                connected = null;
                continue;
            }
            if (l.contains("link/infiniband")) {
                ib = true;
            }
            Matcher m = IPOIB.matcher(l);
            if (m.matches()) {
                ib = true;
                connected = switch (m.group(1)) {
                    case "connected" -> Boolean.TRUE;
                    case "datagram" -> Boolean.FALSE;
                    default -> throw new FormatException(file, no, "IPoIB mode \"" + m.group(1) + "\" is neither "
                            + "datagram nor connected");
                };
            }
        }
        return out;
    }

    /** ifcfg-ib0: CONNECTED_MODE (absent means datagram) and MTU. */
    public static Ipoib ifcfg(String text, String file) {
        String dev = null;
        Boolean connected = Boolean.FALSE;
        Integer mtu = null;
        int line = 1;
        String[] lines = Text.lines(text);
        for (int i = 0; i < lines.length; i++) {
            String t = lines[i].strip();
            if (t.isEmpty() || t.startsWith("#") || !t.contains("=")) {
                continue;
            }
            String k = t.substring(0, t.indexOf('=')).strip();
            String v = t.substring(t.indexOf('=') + 1).strip().replaceAll("^[\"']|[\"']$", "");
            switch (k) {
                case "DEVICE" -> dev = v;
                case "CONNECTED_MODE" -> {
                    connected = switch (v.toLowerCase(Locale.ROOT)) {
                        case "yes", "true", "1" -> Boolean.TRUE;
                        case "no", "false", "0" -> Boolean.FALSE;
                        default -> throw new FormatException(file, i + 1, "CONNECTED_MODE=" + v
                                + ": expected yes or no");
                    };
                    line = i + 1;
                }
                case "MTU" -> mtu = Text.integer(v, file, i + 1, "MTU");
                default -> { }
            }
        }
        return new Ipoib(dev, connected, mtu, line);
    }

    // ------------------------------------------------------------------------------------------------ the rest

    /** lsmod: the module names. */
    public static Set<String> lsmod(String text) {
        Set<String> mods = new LinkedHashSet<>();
        String[] lines = Text.lines(text);
        for (int i = 1; i < lines.length; i++) {
            String t = lines[i].strip();
            if (!t.isEmpty()) {
                mods.add(t.split("\\s+")[0]);
            }
        }
        return mods;
    }

    /** numactl --show: the nodebind set. */
    public static Set<Integer> numactl(String text, String file) {
        String[] lines = Text.lines(text);
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].startsWith("nodebind:")) {
                Set<Integer> s = new TreeSet<>();
                for (String w : lines[i].substring(9).trim().split("\\s+")) {
                    if (!w.isEmpty()) {
                        s.add(Text.integer(w, file, i + 1, "NUMA node"));
                    }
                }
                return s;
            }
        }
        throw new FormatException(file, 0, "numactl --show output without a nodebind: line");
    }

    /** A numa_node value: a lone number, or the first "…/numa_node:N" line (grep . output). */
    public static int numaNode(String text, String file) {
        String[] lines = Text.lines(text);
        for (int i = 0; i < lines.length; i++) {
            String t = lines[i].strip();
            if (t.isEmpty()) {
                continue;
            }
            int colon = t.lastIndexOf(':');
            return Text.integer(colon >= 0 ? t.substring(colon + 1) : t, file, i + 1, "numa_node");
        }
        throw new FormatException(file, 0, "empty numa_node file");
    }

    // ------------------------------------------------------------------------------------------------ plumbing

    private static PortState state(PortState s, String v, String file, int no) {
        if (s == null) {
            throw new FormatException(file, no, "port state \"" + v + "\" not understood");
        }
        return s;
    }

    private static PhysState phys(PhysState s, String v, String file, int no) {
        if (s == null) {
            throw new FormatException(file, no, "physical state \"" + v + "\" not understood");
        }
        return s;
    }

    private static LinkLayer layer(String v) {
        String t = v.trim().toLowerCase(Locale.ROOT);
        return t.startsWith("eth") ? LinkLayer.ETHERNET : t.startsWith("infiniband") || t.equals("ib")
                ? LinkLayer.INFINIBAND : null;
    }

    /** The CAs of ibstat, ibstatus or ibv_devinfo read so far, and the CA and port being read. */
    private static final class Blocks {
        final List<Hca> out = new ArrayList<>();
        Builder ca;
        PortBuilder port;
        /** The number of the line being read (counted by the reader that walks the lines). */
        int no;

        /** A CA's first line: the one being read, with its last port, is done. */
        void startCa(String name, int line) {
            endCa();
            port = null;
            ca = new Builder(name, line);
        }

        /** A port's first line: the port being read is done. */
        void startPort(int number, int line) {
            if (port != null) {
                ca.ports.add(port.build());
            }
            port = new PortBuilder(number, line);
        }

        List<Hca> done() {
            endCa();
            return out;
        }

        private void endCa() {
            if (ca == null) {
                return;
            }
            if (port != null) {
                ca.ports.add(port.build());
            }
            out.add(new Hca(ca.name, ca.device, ca.firmware, ca.nodeGuid, List.copyOf(ca.ports), ca.line));
        }
    }

    private static final class Builder {
        final String name;
        final int line;
        String device;
        String firmware;
        Long nodeGuid;
        final List<HcaPort> ports = new ArrayList<>();

        Builder(String name, int line) {
            this.name = name;
            this.line = line;
        }
    }

    private static final class PortBuilder {
        final int port;
        final int line;
        PortState state;
        PhysState phys;
        Double rate;
        LinkWidth width;
        LinkSpeed speed;
        Integer lid;
        Integer smLid;
        Long guid;
        LinkLayer layer;
        Mtu activeMtu;
        Mtu maxMtu;

        PortBuilder(int port, int line) {
            this.port = port;
            this.line = line;
        }

        HcaPort build() {
            return new HcaPort(port, state, phys, rate, width, speed, lid, smLid, guid, layer, activeMtu, maxMtu, line);
        }
    }
}
