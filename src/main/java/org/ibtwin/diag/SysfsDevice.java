package org.ibtwin.diag;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.ibtwin.transport.UmadLibc;
import org.ibtwin.transport.UmadSysfs;

/**
 * One HCA as its sysfs directory shows it ({@code /sys/class/infiniband/<ca>}): the text of each file ibstat,
 * ibstatus and ibv_devinfo read, as it was read (a file that is not there, or that could not be read, is recorded as
 * such), and the same for each port under {@code ports/}. Read from a host's sysfs by {@link #read}, or made up from
 * SMP answers by {@link LocalDevice#sysfs()} where there is no sysfs to read (the twin, an ibsim client), so the
 * tools print both the same way.
 *
 * <p>The numbers are taken from the text as libibumad takes them: the leading number ({@code strtoul} with base 0:
 * "0x1b", "27", "4: ACTIVE" → 4), GUIDs as four groups of hex digits, a port GUID as the low 64 bits of
 * {@code gids/0}. A file ibstat cannot do without ({@link #require}) that is missing or unreadable is one line naming
 * it.
 *
 * @param name  the device name ("mlx5_0")
 * @param dir   its directory ("/sys/class/infiniband/mlx5_0", under the sysfs root in use)
 * @param files the device's files by name ("node_guid", "device/vendor")
 * @param ports its ports in port-number order
 */
public record SysfsDevice(String name, String dir, Map<String, File> files, List<Port> ports) {
    /** The files of a device that are read. */
    public static final List<String> DEVICE_FILES = List.of("node_type", "fw_ver", "hw_rev", "hca_type", "node_guid",
            "sys_image_guid", "board_id", "device/vendor", "device/device");
    /** The files of a port that are read. */
    public static final List<String> PORT_FILES = List.of("state", "phys_state", "rate", "lid", "sm_lid",
            "lid_mask_count", "cap_mask", "link_layer", "gids/0");

    /**
     * One file: its path and its text (null when it is not there); {@code error}, when it could not be read (then
     * text is null too).
     */
    public record File(String path, String text, String error) {
        public boolean present() {
            return text != null;
        }

        /** The text as a shell's {@code `cat file`} leaves it unquoted: words joined by single spaces. */
        public String words() {
            return text == null ? null : String.join(" ", text.strip().split("\\s+"));
        }

        /** The text without its trailing newline (as libibumad reads a string attribute). */
        public String line() {
            if (text == null) {
                return null;
            }
            int nl = text.indexOf('\n');
            return nl < 0 ? text : text.substring(0, nl);
        }
    }

    /** One port: its number, its directory and its files by name ("rate", "gids/0"). */
    public record Port(int number, String dir, Map<String, File> files) {
        public File file(String name) {
            File f = files.get(name);
            return f != null ? f : new File(dir + "/" + name, null, null);
        }
    }

    public File file(String name) {
        File f = files.get(name);
        return f != null ? f : new File(dir + "/" + name, null, null);
    }

    /** The port numbered {@code n}, or null. */
    public Port port(int n) {
        for (Port p : ports) {
            if (p.number() == n) {
                return p;
            }
        }
        return null;
    }

    /** The port names under {@code ports/} as a shell's {@code *} lists them (byte order: "1", "10", "2"). */
    public List<Port> portsInGlobOrder() {
        List<Port> l = new ArrayList<>(ports);
        l.sort(Comparator.comparing(p -> Integer.toString(p.number())));
        return l;
    }

    /** The number of ports as libibumad counts them: the highest port number under {@code ports/}. */
    public int numPorts() {
        int n = 0;
        for (Port p : ports) {
            n = Math.max(n, p.number());
        }
        return n;
    }

    /** Whether a file libibumad reads (a device's, or one of its ports') is not there: its errno is then ENOENT. */
    public boolean anyMissing() {
        for (String f : List.of("fw_ver", "hw_rev", "hca_type")) {
            if (!file(f).present()) {
                return true;
            }
        }
        for (Port p : ports) {
            if (!p.file("link_layer").present()) {
                return true;
            }
        }
        return false;
    }

    // ---- reading

    /** The device {@code name} under {@code sysfs}'s root, or null when it has no directory there. */
    public static SysfsDevice read(UmadSysfs sysfs, String name) throws UmadLibc.CallFailed {
        String dir = sysfs.caDir(name);
        List<String> portNames = sysfs.list(dir + "/ports");
        if (portNames == null && sysfs.list(dir) == null) {
            return null;
        }
        Map<String, File> files = new LinkedHashMap<>();
        for (String f : DEVICE_FILES) {
            files.put(f, readFile(sysfs, dir + "/" + f));
        }
        List<Port> ports = new ArrayList<>();
        for (String p : portNames == null ? List.<String>of() : portNames) {
            int n;
            try {
                n = Integer.parseInt(p);
            } catch (NumberFormatException e) {
                continue;
            }
            String pd = dir + "/ports/" + p;
            Map<String, File> pf = new LinkedHashMap<>();
            for (String f : PORT_FILES) {
                pf.put(f, readFile(sysfs, pd + "/" + f));
            }
            ports.add(new Port(n, pd, pf));
        }
        ports.sort(Comparator.comparingInt(Port::number));
        return new SysfsDevice(name, dir, files, List.copyOf(ports));
    }

    private static File readFile(UmadSysfs sysfs, String path) {
        try {
            return new File(path, sysfs.read(path), null);
        } catch (UmadLibc.CallFailed e) {
            String m = e.getMessage();
            int colon = m.lastIndexOf(": ");
            return new File(path, null, colon < 0 ? m : m.substring(colon + 2));
        }
    }

    // ---- numbers as libibumad reads them

    /**
     * The text of {@code f}, which ibstat cannot do without.
     *
     * @throws IllegalArgumentException one line naming the file, when it is missing or unreadable
     */
    public static String require(File f) {
        if (f.error() != null) {
            throw new IllegalArgumentException(f.path() + ": " + f.error());
        }
        if (f.text() == null) {
            throw new IllegalArgumentException(f.path() + ": No such file or directory");
        }
        return f.text();
    }

    /** strtoul(text, NULL, 0) of a required file. */
    public static long number(File f) {
        return leadingNumber(require(f));
    }

    /** strtoul(s, NULL, 0): the leading number in C's notation (0x hex, 0 octal, else decimal), 0 when none. */
    public static long leadingNumber(String s) {
        String t = s.stripLeading().toLowerCase(Locale.ROOT);
        int radix = 10;
        int i = 0;
        if (t.startsWith("0x")) {
            radix = 16;
            i = 2;
        } else if (t.startsWith("0")) {
            radix = 8;
        }
        long v = 0;
        for (; i < t.length(); i++) {
            int d = Character.digit(t.charAt(i), radix);
            if (d < 0) {
                break;
            }
            v = v * radix + d;
        }
        return v;
    }

    /**
     * A GUID file ("ec0d:9a03:00a4:5e10") of a required file.
     *
     * @throws IllegalArgumentException one line naming the file, when it is not four groups of hex digits
     */
    public static long guid(File f) {
        return groups(f, 4);
    }

    /** The interface id (low 64 bits) of a GID file ("fe80:0000:0000:0000:ec0d:9a03:00a4:5e10"). */
    public static long gidGuid(File f) {
        return groups(f, 8);
    }

    private static long groups(File f, int count) {
        String[] g = require(f).strip().split(":");
        if (g.length != count) {
            throw new IllegalArgumentException(f.path() + ": not " + (count == 4 ? "a GUID" : "a GID") + ": '"
                    + f.line() + "'");
        }
        long v = 0;
        try {
            for (int i = count - 4; i < count; i++) {
                int x = Integer.parseInt(g[i], 16);
                if (x < 0 || x > 0xffff) {
                    throw new NumberFormatException(g[i]);
                }
                v = v << 16 | x;
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(f.path() + ": not " + (count == 4 ? "a GUID" : "a GID") + ": '"
                    + f.line() + "'");
        }
        return v;
    }
}
