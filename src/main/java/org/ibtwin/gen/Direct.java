package org.ibtwin.gen;

import java.util.Locale;
import org.ibtwin.model.Cable;
import org.ibtwin.model.DeviceCatalog;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.Node;

/**
 * Direct networks: every switch carries hosts and switches link to switches by a rule rather than in levels. Tori
 * and meshes, hypercubes, dragonflies and HyperX (flattened butterflies). Built with the fat-tree conventions (host
 * names "node001 mlx5_0", the default GUID base, 4x at the given speed); switches come first in the node list, then
 * the hosts, host {@code i} (0-based) on switch {@code i / t} where {@code t} is the hosts per switch, on the ports
 * after the switch-to-switch ones.
 *
 * <p><b>Port order.</b> As tori are cabled (and as OpenSM's torus-2QoS expects every switch of a torus to use the
 * same port for the same direction): dimension {@code d} (x, y, z) uses ports {@code 2d+1} towards the next
 * coordinate (+) and {@code 2d+2} towards the previous one (-), so x+ is port 1, x- 2, y+ 3, y- 4, z+ 5, z- 6; a
 * mesh leaves its edge switches' outward ports unlinked; hosts start at port {@code 2*dims+1}. A ring of 2 links the
 * pair twice (x+ to x-, and x- to x+). A hypercube's port {@code d+1} leads across dimension {@code d}. A
 * dragonfly router's ports are its {@code a-1} local links (to the group's other routers, in router order), then its
 * {@code h} global links, then its hosts. A HyperX switch's ports are, dimension by dimension, one to each other
 * switch along that dimension in coordinate order, then its hosts.
 */
public final class Direct {
    /** Global-link arrangements of a dragonfly. */
    public enum Arrangement {
        /**
         * Absolute (consecutive): group {@code i}'s global ports, router by router, go to groups 0, 1, ... skipping
         * {@code i}; with fewer groups than ports the round repeats (parallel links between groups).
         */
        CONSECUTIVE,
        /** Palm tree (relative): global port {@code k} of group {@code i} goes to group {@code (i - k - 1) mod g}. */
        PALMTREE;

        public static Arrangement parse(String s) {
            for (Arrangement a : values()) {
                if (a.name().equalsIgnoreCase(s.strip())) {
                    return a;
                }
            }
            throw new IllegalArgumentException("arrangement must be consecutive or palmtree, got '" + s + "'");
        }

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private Direct() {
    }

    /** The radix to use: the speed's switch when 0, and never fewer ports than a switch needs. */
    static int radix(LinkSpeed speed, int radix, int needed, String what) {
        FabricBuilder.checkSpeed(speed);
        int r = radix == 0 ? DeviceCatalog.switchFor(speed).ports() : radix;
        if (r < 1 || r > FatTreeSpec.MAX_RADIX) {
            throw new IllegalArgumentException("radix must be 1.." + FatTreeSpec.MAX_RADIX + ", got " + r);
        }
        if (needed > r) {
            throw new IllegalArgumentException(what + " needs " + needed + " ports a switch, more than radix " + r);
        }
        return r;
    }

    private static FabricBuilder builder(LinkSpeed speed, int radix) {
        if (speed == null) {
            throw new IllegalArgumentException("speed is required");
        }
        return new FabricBuilder(speed, FatTreeSpec.DEFAULT_GUID_BASE,
                n -> String.format(Locale.ROOT, FatTreeSpec.DEFAULT_HOST_NAME, n), radix);
    }

    private static void checkHosts(int hostsPerSwitch) {
        if (hostsPerSwitch < 0) {
            throw new IllegalArgumentException("hosts per switch must be at least 0, got " + hostsPerSwitch);
        }
    }

    private static int[] checkDims(int[] dims, int most, String what) {
        if (dims == null || dims.length < 1 || dims.length > most) {
            throw new IllegalArgumentException(what + " takes 1 to " + most + " dimensions");
        }
        long n = 1;
        for (int d : dims) {
            if (d < 2 || d > 4096) {
                throw new IllegalArgumentException("every dimension must be 2..4096, got " + d);
            }
            n *= d;
            if (n > 65536) {
                throw new IllegalArgumentException(what + ": more than 65536 switches");
            }
        }
        return dims.clone();
    }

    /** The switch coordinates' product: the switch count. */
    static int product(int[] dims) {
        int n = 1;
        for (int d : dims) {
            n *= d;
        }
        return n;
    }

    /** Switch {@code s}'s coordinate along dimension {@code d} (x fastest). */
    static int coord(int s, int[] dims, int d) {
        for (int i = 0; i < d; i++) {
            s /= dims[i];
        }
        return s % dims[d];
    }

    /** The switch at {@code s} with its coordinate along {@code d} set to {@code c}. */
    static int with(int s, int[] dims, int d, int c) {
        int stride = 1;
        for (int i = 0; i < d; i++) {
            stride *= dims[i];
        }
        return s + (c - coord(s, dims, d)) * stride;
    }

    private static String coords(int s, int[] dims) {
        StringBuilder sb = new StringBuilder("sw");
        for (int d = 0; d < dims.length; d++) {
            String c = Integer.toString(coord(s, dims, d));
            int w = Integer.toString(dims[d] - 1).length();
            sb.append('-').append("0".repeat(w - c.length())).append(c);
        }
        return sb.toString();
    }

    private static void hosts(FabricBuilder b, Node[] sws, int firstPort, int perSwitch) {
        for (Node sw : sws) {
            for (int i = 0; i < perSwitch; i++) {
                b.connect(b.addHost().port(1), sw.port(firstPort + i), b.hostCable);
            }
        }
    }

    /**
     * A torus ({@code wrap}) or mesh of {@code dims} switches (x first, 1 to 3 dimensions) with {@code hostsPerSwitch}
     * hosts each. {@code radix} 0 takes the speed's switch.
     */
    public static Fabric torus(int[] dims, boolean wrap, int hostsPerSwitch, int radix, LinkSpeed speed) {
        int[] ds = checkDims(dims, 3, wrap ? "a torus" : "a mesh");
        checkHosts(hostsPerSwitch);
        int r = radix(speed, radix, 2 * ds.length + hostsPerSwitch, wrap ? "this torus" : "this mesh");
        FabricBuilder b = builder(speed, r);
        int n = product(ds);
        Node[] sws = new Node[n];
        for (int s = 0; s < n; s++) {
            sws[s] = b.addSwitch(coords(s, ds), r);
        }
        for (int s = 0; s < n; s++) {
            for (int d = 0; d < ds.length; d++) {
                int c = coord(s, ds, d);
                if (c + 1 < ds[d]) {
                    b.connect(sws[s].port(2 * d + 1), sws[with(s, ds, d, c + 1)].port(2 * d + 2), b.switchCable);
                } else if (wrap) {
                    b.connect(sws[s].port(2 * d + 1), sws[with(s, ds, d, 0)].port(2 * d + 2), b.coreCable);
                }
            }
        }
        hosts(b, sws, 2 * ds.length + 1, hostsPerSwitch);
        return b.fabric();
    }

    /** A hypercube of {@code 2^dim} switches, port {@code d+1} across dimension {@code d}, hosts after. */
    public static Fabric hypercube(int dim, int hostsPerSwitch, int radix, LinkSpeed speed) {
        if (dim < 1 || dim > 16) {
            throw new IllegalArgumentException("dimension must be 1..16, got " + dim);
        }
        checkHosts(hostsPerSwitch);
        int r = radix(speed, radix, dim + hostsPerSwitch, "this hypercube");
        FabricBuilder b = builder(speed, r);
        int n = 1 << dim;
        Node[] sws = new Node[n];
        for (int s = 0; s < n; s++) {
            String bits = Integer.toBinaryString(s);
            sws[s] = b.addSwitch("hc-" + "0".repeat(dim - bits.length()) + bits, r);
        }
        for (int s = 0; s < n; s++) {
            for (int d = 0; d < dim; d++) {
                int t = s ^ (1 << d);
                if (s < t) {
                    b.connect(sws[s].port(d + 1), sws[t].port(d + 1), b.switchCable);
                }
            }
        }
        hosts(b, sws, dim + 1, hostsPerSwitch);
        return b.fabric();
    }

    /**
     * A dragonfly: {@code groups} groups of {@code routers} routers, all-to-all within a group; each router with
     * {@code global} global links, placed by {@code arrangement}, and {@code hostsPerRouter} hosts. The canonical,
     * balanced dragonfly has {@code routers = 2*hosts = 2*global} and {@code groups = routers*global + 1}.
     */
    public static Fabric dragonfly(int groups, int routers, int hostsPerRouter, int global, Arrangement arrangement,
                                   int radix, LinkSpeed speed) {
        if (routers < 1 || global < 1 || groups < 2) {
            throw new IllegalArgumentException("a dragonfly needs at least 2 groups, 1 router a group and 1 global link "
                    + "a router");
        }
        checkHosts(hostsPerRouter);
        int globalPorts = routers * global;
        if (groups > globalPorts + 1) {
            throw new IllegalArgumentException("groups: " + groups + " groups cannot all be joined by " + globalPorts
                    + " global links a group (at most " + (globalPorts + 1) + " groups)");
        }
        int r = radix(speed, radix, routers - 1 + global + hostsPerRouter, "this dragonfly");
        FabricBuilder b = builder(speed, r);
        Node[][] sw = new Node[groups][routers];
        for (int g = 0; g < groups; g++) {
            for (int a = 0; a < routers; a++) {
                sw[g][a] = b.addSwitch(FabricBuilder.numbered("g", g + 1, groups) + "-"
                        + FabricBuilder.numbered("r", a + 1, routers), r);
            }
        }
        for (int g = 0; g < groups; g++) {
            for (int a = 0; a < routers; a++) {
                for (int c = a + 1; c < routers; c++) {
                    // router a's local port to c: c's index among a's peers
                    b.connect(sw[g][a].port(c), sw[g][c].port(a + 1), b.switchCable);
                }
            }
        }
        int firstGlobal = routers;   // ports 1..routers-1 local
        Cable cable = b.coreCable;
        for (int g = 0; g < groups; g++) {
            for (int k = 0; k < globalPorts; k++) {
                int peer;
                int peerPort;
                if (arrangement == Arrangement.PALMTREE) {
                    if (k >= groups - 1) {
                        continue;
                    }
                    peer = Math.floorMod(g - k - 1, groups);
                    peerPort = groups - k - 2;
                } else {
                    int t = k % (groups - 1);
                    int round = k / (groups - 1);
                    peer = t < g ? t : t + 1;
                    int back = g < peer ? g : g - 1;
                    peerPort = round * (groups - 1) + back;
                    if (peerPort >= globalPorts) {
                        continue;   // an incomplete last round: that port of the peer does not exist
                    }
                }
                if (peer < g || (peer == g)) {
                    continue;   // each link once, from its lower group
                }
                b.connect(sw[g][k / global].port(firstGlobal + k % global),
                        sw[peer][peerPort / global].port(firstGlobal + peerPort % global), cable);
            }
        }
        Node[] all = new Node[groups * routers];
        for (int g = 0; g < groups; g++) {
            System.arraycopy(sw[g], 0, all, g * routers, routers);
        }
        hosts(b, all, routers + global, hostsPerRouter);
        return b.fabric();
    }

    /**
     * HyperX: switches on a grid of {@code dims} (1 to 3 dimensions), each joined to every switch that differs from
     * it in one coordinate. One dimension is a full mesh of switches; a flattened butterfly is a HyperX.
     */
    public static Fabric hyperx(int[] dims, int hostsPerSwitch, int radix, LinkSpeed speed) {
        int[] ds = checkDims(dims, 3, "HyperX");
        checkHosts(hostsPerSwitch);
        int links = 0;
        for (int d : ds) {
            links += d - 1;
        }
        int r = radix(speed, radix, links + hostsPerSwitch, "this HyperX");
        FabricBuilder b = builder(speed, r);
        int n = product(ds);
        Node[] sws = new Node[n];
        for (int s = 0; s < n; s++) {
            sws[s] = b.addSwitch("hx" + coords(s, ds).substring(2), r);
        }
        int first = 1;
        for (int d = 0; d < ds.length; d++) {
            for (int s = 0; s < n; s++) {
                int c = coord(s, ds, d);
                for (int o = c + 1; o < ds[d]; o++) {
                    // the port towards coordinate o skips the switch's own coordinate
                    b.connect(sws[s].port(first + o - 1), sws[with(s, ds, d, o)].port(first + c), b.switchCable);
                }
            }
            first += ds[d] - 1;
        }
        hosts(b, sws, first, hostsPerSwitch);
        return b.fabric();
    }
}
