package org.ibtwin.gen;

import java.nio.charset.StandardCharsets;
import java.util.IllegalFormatException;
import java.util.Locale;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.Node;

/**
 * What a folded-Clos fat tree looks like: two levels (leaves and spines) or three (pods of leaves and spines, joined
 * by cores). Every link runs 4x at {@code speed}.
 *
 * <p>A leaf gives {@link #downPorts()} ports to hosts and {@link #upPorts()} to the level above; with blocking
 * {@code b} (the ratio b:1) that is {@code radix*b/(b+1)} down, rounded down, and the rest up. Above the leaves the
 * tree is non-blocking. A 2-level tree holds at most {@code radix} leaves; a 3-level tree holds {@code radix} pods
 * of {@code radix/2} leaves, so {@code radix^3/4} hosts at 1:1.
 *
 * @param levels          2 or 3
 * @param radix           ports per switch: even, 4..254 (36 EDR Switch-IB, 40 HDR Quantum, 64 NDR Quantum-2)
 * @param hosts           hosts (one single-port CA each), at least 1 and at most {@link #maxHosts()}
 * @param blocking        down:up oversubscription at the leaves, {@code b} for b:1; 1 is non-blocking
 * @param speed           lane speed of every link; the device catalog must have a switch and a CA that run it
 * @param hostNamePattern {@link String#format} pattern applied to the host number (1, 2, ...): "node%03d"
 * @param guidBase        the GUIDs of the fabric lie in {@code guidBase .. guidBase + 0xffffffff}
 */
public record FatTreeSpec(int levels, int radix, int hosts, int blocking, LinkSpeed speed, String hostNamePattern,
                          long guidBase) {

    /** "node001", "node002", ... */
    public static final String DEFAULT_HOST_NAME = "node%03d";

    /** A Mellanox OUI base: CAs are 0x0002c903000000xx, switches 0x0002c90380000xxx. */
    public static final long DEFAULT_GUID_BASE = 0x0002c90300000000L;

    /** Most physical ports a node may have. */
    public static final int MAX_RADIX = 254;

    public FatTreeSpec {
        if (levels != 2 && levels != 3) {
            throw new IllegalArgumentException("levels must be 2 or 3, got " + levels);
        }
        if (radix < 4 || radix > MAX_RADIX || radix % 2 != 0) {
            throw new IllegalArgumentException("radix must be an even number of ports from 4 to " + MAX_RADIX
                    + ", got " + radix);
        }
        if (blocking < 1 || blocking >= radix) {
            throw new IllegalArgumentException("blocking must be b for b:1 with 1 <= b < radix (" + radix + "), got "
                    + blocking);
        }
        if (speed == null) {
            throw new IllegalArgumentException("speed is required");
        }
        FabricBuilder.checkSpeed(speed);
        if (hosts < 1) {
            throw new IllegalArgumentException("hosts must be at least 1, got " + hosts);
        }
        long max = maxHosts(levels, radix, blocking);
        if (hosts > max) {
            throw new IllegalArgumentException("hosts: " + hosts + " do not fit a " + levels
                    + "-level fat tree of radix " + radix + " at " + blocking + ":1 (at most " + max + ")"
                    + (levels == 2 ? "; use 3 levels" : ""));
        }
        checkHostNamePattern(hostNamePattern, hosts);
        if (Long.compareUnsigned(guidBase, -1L - FabricBuilder.GUID_SPAN) > 0) {
            throw new IllegalArgumentException("guidBase must leave room for 2^32 GUIDs above it, got "
                    + String.format("0x%016x", guidBase));
        }
    }

    /** A non-blocking HDR tree with the default host names and GUID base. */
    public static FatTreeSpec of(int levels, int radix, int hosts) {
        return new FatTreeSpec(levels, radix, hosts, 1, LinkSpeed.HDR, DEFAULT_HOST_NAME, DEFAULT_GUID_BASE);
    }

    public FatTreeSpec withBlocking(int b) {
        return new FatTreeSpec(levels, radix, hosts, b, speed, hostNamePattern, guidBase);
    }

    public FatTreeSpec withSpeed(LinkSpeed s) {
        return new FatTreeSpec(levels, radix, hosts, blocking, s, hostNamePattern, guidBase);
    }

    public FatTreeSpec withHosts(int n) {
        return new FatTreeSpec(levels, radix, n, blocking, speed, hostNamePattern, guidBase);
    }

    public FatTreeSpec withHostNamePattern(String pattern) {
        return new FatTreeSpec(levels, radix, hosts, blocking, speed, pattern, guidBase);
    }

    public FatTreeSpec withGuidBase(long base) {
        return new FatTreeSpec(levels, radix, hosts, blocking, speed, hostNamePattern, base);
    }

    /** Leaf ports that face hosts: {@code radix*b/(b+1)}, rounded down. */
    public int downPorts() {
        return downPorts(radix, blocking);
    }

    /** Leaf ports that face the level above: {@code radix - downPorts()}. */
    public int upPorts() {
        return radix - downPorts();
    }

    /** The most hosts this shape holds: {@code radix*down} for 2 levels, {@code radix*(radix/2)*down} for 3. */
    public long maxHosts() {
        return maxHosts(levels, radix, blocking);
    }

    /** The most hosts a fat tree of this shape holds. */
    public static long maxHosts(int levels, int radix, int blocking) {
        long d = downPorts(radix, blocking);
        return levels == 2 ? (long) radix * d : (long) radix * (radix / 2) * d;
    }

    private static int downPorts(int radix, int blocking) {
        return (int) ((long) radix * blocking / (blocking + 1));
    }

    /** "2:1". */
    public String blockingLabel() {
        return blocking + ":1";
    }

    /** Parses "1:1", "2:1", "3:1" (any b:1) or a bare "2"; throws IllegalArgumentException naming the field. */
    public static int parseBlocking(String s) {
        String t = s == null ? "" : s.trim();
        int colon = t.indexOf(':');
        String down = colon < 0 ? t : t.substring(0, colon).trim();
        String up = colon < 0 ? "1" : t.substring(colon + 1).trim();
        try {
            int d = Integer.parseInt(down);
            int u = Integer.parseInt(up);
            if (d >= 1 && u == 1) {
                return d;
            }
        } catch (NumberFormatException e) {
            // fall through to the message below
        }
        throw new IllegalArgumentException("blocking must be down:up as b:1 (1:1, 2:1, 3:1), got \"" + s + "\"");
    }

    /** The human name of host {@code number} (1-based). */
    public String hostName(int number) {
        return String.format(Locale.ROOT, hostNamePattern, number);
    }

    private static void checkHostNamePattern(String pattern, int hosts) {
        if (pattern == null || pattern.isBlank()) {
            throw new IllegalArgumentException("hostNamePattern is required, e.g. \"" + DEFAULT_HOST_NAME + "\"");
        }
        String first;
        String second;
        String last;
        try {
            first = String.format(Locale.ROOT, pattern, 1);
            second = String.format(Locale.ROOT, pattern, 2);
            last = String.format(Locale.ROOT, pattern, hosts);
        } catch (IllegalFormatException e) {
            throw new IllegalArgumentException("hostNamePattern must format one host number, like \""
                    + DEFAULT_HOST_NAME + "\", got \"" + pattern + "\"", e);
        }
        if (first.equals(second)) {
            throw new IllegalArgumentException("hostNamePattern must contain the host number, like \""
                    + DEFAULT_HOST_NAME + "\", got \"" + pattern + "\"");
        }
        for (String name : new String[] {first, last}) {
            String description = name + " " + FabricBuilder.LONGEST_CA_PORT_NAME;
            if (description.getBytes(StandardCharsets.UTF_8).length > Node.MAX_DESCRIPTION_BYTES) {
                throw new IllegalArgumentException("hostNamePattern makes \"" + description + "\", longer than the "
                        + Node.MAX_DESCRIPTION_BYTES + "-byte node description");
            }
        }
    }
}
