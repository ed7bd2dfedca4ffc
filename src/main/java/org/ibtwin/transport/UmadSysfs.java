package org.ibtwin.transport;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The HCAs and their ports as Linux's sysfs shows them, read as libibumad reads them: {@code /sys/class/infiniband/<ca>}
 * (node_type, node_guid, sys_image_guid, fw_ver, hca_type, hw_rev, board_id, node_desc; {@code ports/<n>/} lid,
 * lid_mask_count, sm_lid, sm_sl, state, phys_state, rate, cap_mask, link_layer, gids/0) and
 * {@code /sys/class/infiniband_mad/umad<k>} (ibdev, port: which device node serves which port). Every read goes
 * through {@link UmadLibc}, so under libumad2sim it is that library's view.
 *
 * <p>The tree is read under a root that stands for {@code /sys}: {@code /sys} itself, unless the system property
 * {@code ibtwin.sysfs} or the environment's {@code IBTWIN_SYSFS} names another directory (a copy of a host's tree, or
 * a hand-made one), whose {@code class/infiniband} and {@code class/infiniband_mad} are read instead. The device
 * nodes ({@code /dev/infiniband}) are not moved with it.
 */
public final class UmadSysfs {
    public static final String CLASS = "/sys/class/infiniband";
    public static final String MAD_CLASS = "/sys/class/infiniband_mad";
    public static final String DEV = "/dev/infiniband";

    /** The system property and the environment variable that move the root from {@code /sys}. */
    public static final String ROOT_PROPERTY = "ibtwin.sysfs";
    public static final String ROOT_ENV = "IBTWIN_SYSFS";

    private final UmadLibc libc;
    private final String root;

    /** The sysfs at {@link #root()}. */
    public UmadSysfs(UmadLibc libc) {
        this(libc, root());
    }

    /** The sysfs whose {@code /sys} is the directory {@code root}. */
    public UmadSysfs(UmadLibc libc, String root) {
        this.libc = libc;
        this.root = root.endsWith("/") && root.length() > 1 ? root.substring(0, root.length() - 1) : root;
    }

    /** The directory that stands for {@code /sys}: {@code ibtwin.sysfs}, else {@code IBTWIN_SYSFS}, else /sys. */
    public static String root() {
        String r = System.getProperty(ROOT_PROPERTY);
        if (r == null || r.isBlank()) {
            r = System.getenv(ROOT_ENV);
        }
        return r == null || r.isBlank() ? "/sys" : r.strip();
    }

    /** {@code /sys/class/infiniband} under this root. */
    public String classDir() {
        return root + CLASS.substring("/sys".length());
    }

    /** {@code /sys/class/infiniband_mad} under this root. */
    public String madClassDir() {
        return root + MAD_CLASS.substring("/sys".length());
    }

    /** {@code ca}'s directory under this root. */
    public String caDir(String ca) {
        return classDir() + "/" + ca;
    }

    /** {@code p}'s directory under this root. */
    public String dir(Port p) {
        return caDir(p.ca()) + "/ports/" + p.port();
    }

    /** A file's content as read (null when it does not exist), for the tools that echo sysfs. */
    public String read(String path) throws UmadLibc.CallFailed {
        return libc.readFile(path);
    }

    /** A directory's entries, sorted (null when it does not exist). */
    public List<String> list(String path) throws UmadLibc.CallFailed {
        return libc.list(path);
    }

    /**
     * The index of {@code pkey} in port {@code p}'s P_Key table ({@code ports/N/pkeys/<index>}), matched on its 15
     * low bits with a full member preferred, as a port sends on it; -1 when the table does not hold it.
     */
    public int pkeyIndex(Port p, int pkey) throws UmadLibc.CallFailed {
        String dir = dir(p) + "/pkeys";
        List<String> entries = libc.list(dir);
        if (entries == null) {
            return -1;
        }
        int partial = -1;
        int best = Integer.MAX_VALUE;
        for (String e : entries) {
            int index;
            try {
                index = Integer.parseInt(e);
            } catch (NumberFormatException x) {
                continue;
            }
            int v = (int) number(trim(libc.readFile(dir + "/" + e)));
            if ((v & 0x7fff) != (pkey & 0x7fff) || (v & 0x7fff) == 0) {
                continue;
            }
            if ((v & 0x8000) != 0 && index < best) {
                best = index;
            } else if ((v & 0x8000) == 0 && (partial < 0 || index < partial)) {
                partial = index;
            }
        }
        return best != Integer.MAX_VALUE ? best : partial;
    }

    /** One port of a CA and the umad device that serves it. */
    public record Port(String ca, int port, int umad) {
        public String device() {
            return DEV + "/umad" + umad;
        }

        public String issm() {
            return DEV + "/issm" + umad;
        }

        public String dir() {
            return CLASS + "/" + ca + "/ports/" + port;
        }
    }

    /** The CAs sysfs shows, sorted by name; empty when there are none (or no sysfs class at all). */
    public List<String> cas() throws UmadLibc.CallFailed {
        List<String> l = libc.list(classDir());
        return l == null ? List.of() : l;
    }

    /** The ports that have a umad device, in CA then port order. */
    public List<Port> ports() throws UmadLibc.CallFailed {
        List<String> devs = libc.list(madClassDir());
        List<Port> ports = new ArrayList<>();
        if (devs == null) {
            return ports;
        }
        for (String d : devs) {
            if (!d.startsWith("umad")) {
                continue;
            }
            int k;
            try {
                k = Integer.parseInt(d.substring(4));
            } catch (NumberFormatException e) {
                continue;
            }
            String ca = trim(libc.readFile(madClassDir() + "/" + d + "/ibdev"));
            String port = trim(libc.readFile(madClassDir() + "/" + d + "/port"));
            if (ca == null || port == null) {
                continue;
            }
            try {
                ports.add(new Port(ca, Integer.parseInt(port), k));
            } catch (NumberFormatException e) {
                // not a port number: not a device we can use
            }
        }
        ports.sort((a, b) -> a.ca().equals(b.ca()) ? Integer.compare(a.port(), b.port()) : a.ca().compareTo(b.ca()));
        return ports;
    }

    /**
     * The port {@code ca}/{@code port} name (either null: the first, as libibumad picks: the first CA, its first
     * active port, else its first port).
     *
     * @throws IllegalArgumentException one line naming what is not there
     */
    public Port find(String ca, Integer port) throws UmadLibc.CallFailed {
        List<Port> all = ports();
        if (all.isEmpty()) {
            throw new IllegalArgumentException((ca == null ? "" : "CA " + ca + " not found: ")
                    + "no InfiniBand port with a umad device here (" + madClassDir() + " lists none)");
        }
        List<Port> ofCa = new ArrayList<>();
        String wanted = ca != null ? ca : all.get(0).ca();
        for (Port p : all) {
            if (p.ca().equals(wanted)) {
                ofCa.add(p);
            }
        }
        if (ofCa.isEmpty()) {
            List<String> names = new ArrayList<>();
            for (Port p : all) {
                if (!names.contains(p.ca())) {
                    names.add(p.ca());
                }
            }
            throw new IllegalArgumentException("CA " + ca + " not found (this host has " + String.join(", ", names)
                    + ")");
        }
        if (port != null) {
            for (Port p : ofCa) {
                if (p.port() == port) {
                    return p;
                }
            }
            List<String> nums = new ArrayList<>();
            for (Port p : ofCa) {
                nums.add(Integer.toString(p.port()));
            }
            throw new IllegalArgumentException("CA " + wanted + " has no port " + port + " (its ports: "
                    + String.join(", ", nums) + ")");
        }
        for (Port p : ofCa) {
            if (stateNumber(attribute(p, "state")) == 4) {
                return p;
            }
        }
        return ofCa.get(0);
    }

    /** A CA attribute's text, trimmed; null when the file is missing. */
    public String caAttribute(String ca, String name) throws UmadLibc.CallFailed {
        return trim(libc.readFile(caDir(ca) + "/" + name));
    }

    /** A port attribute's text, trimmed; null when the file is missing. */
    public String attribute(Port p, String name) throws UmadLibc.CallFailed {
        return trim(libc.readFile(dir(p) + "/" + name));
    }

    /** The local port as {@link LocalPort}, read afresh (the LID and SM LID change when an SM sweeps). */
    public LocalPort localPort(Port p, boolean isSm) throws UmadLibc.CallFailed {
        long nodeGuid = guid(caAttribute(p.ca(), "node_guid"));
        String gid = attribute(p, "gids/0");
        long portGuid = gid == null ? nodeGuid : guidOfGid(gid);
        return new LocalPort(p.ca(), p.port(), nodeGuid, portGuid, (int) number(attribute(p, "lid")),
                (int) number(attribute(p, "lid_mask_count")), (int) number(attribute(p, "sm_lid")),
                stateNumber(attribute(p, "state")), isSm);
    }

    /** "4: ACTIVE" → 4; 0 when unreadable. */
    public static int stateNumber(String s) {
        if (s == null) {
            return 0;
        }
        int colon = s.indexOf(':');
        try {
            return Integer.parseInt((colon < 0 ? s : s.substring(0, colon)).trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** A sysfs number: "0x1b", "12"; 0 when missing or unreadable. */
    public static long number(String s) {
        if (s == null || s.isEmpty()) {
            return 0;
        }
        try {
            String t = s.trim().toLowerCase(Locale.ROOT);
            return t.startsWith("0x") ? Long.parseUnsignedLong(t.substring(2), 16) : Long.parseLong(t);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** A GUID as sysfs writes it, "ec0d:9a03:00ec:8480"; 0 when missing. */
    public static long guid(String s) {
        if (s == null || s.isEmpty()) {
            return 0;
        }
        try {
            return Long.parseUnsignedLong(s.trim().replace(":", ""), 16);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** The interface id (low 64 bits) of a GID as sysfs writes it, "fe80:0000:0000:0000:ec0d:9a03:00ec:8481". */
    public static long guidOfGid(String gid) {
        String[] g = gid.trim().split(":");
        if (g.length != 8) {
            return 0;
        }
        return guid(g[4] + g[5] + g[6] + g[7]);
    }

    private static String trim(String s) {
        return s == null ? null : s.strip();
    }
}
