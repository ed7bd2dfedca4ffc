package org.ibtwin.sm;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * QoS as OpenSM's {@code -Q} and opensm.conf's {@code qos_*} options set it: for each port class (CAs:
 * {@code qos_ca_}, switch external ports: {@code qos_swe_}, switch port 0: {@code qos_sw0_}, routers:
 * {@code qos_rtr_}) a class option where given, else the general {@code qos_} one, else OpenSM's default:
 * max_vls 15, high_limit 0, vlarb_high {@code 0:4,1:0,...,14:0}, vlarb_low {@code 0:0,1:4,...,14:4}, sl2vl
 * {@code 0,1,...,14,7}.
 *
 * <p>As in OpenSM, max_vls is read and checked but programs nothing: each port's tables are masked to the VLs
 * operational on it (a VL beyond them wraps into range, as OpenSM's mask does; VL15 stays VL15).
 */
public final class QosConfig {
    /** The port classes, with their opensm.conf prefixes. */
    public enum PortClass {
        CA("qos_ca"), SWITCH_EXTERNAL("qos_swe"), SWITCH_PORT0("qos_sw0"), ROUTER("qos_rtr");

        private final String prefix;

        PortClass(String prefix) {
            this.prefix = prefix;
        }

        public String prefix() {
            return prefix;
        }
    }

    /** The option suffixes, after {@code qos_} or a class prefix. */
    public static final List<String> SUFFIXES = List.of("max_vls", "high_limit", "vlarb_high", "vlarb_low", "sl2vl");

    static final String DEFAULT_VLARB_HIGH = "0:4,1:0,2:0,3:0,4:0,5:0,6:0,7:0,8:0,9:0,10:0,11:0,12:0,13:0,14:0";
    static final String DEFAULT_VLARB_LOW = "0:0,1:4,2:4,3:4,4:4,5:4,6:4,7:4,8:4,9:4,10:4,11:4,12:4,13:4,14:4";
    static final String DEFAULT_SL2VL = "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,7";
    static final int DEFAULT_MAX_VLS = 15;
    static final int DEFAULT_HIGH_LIMIT = 0;

    /**
     * One class's settings as programmed.
     *
     * @param maxVls    qos_*_max_vls (1..15)
     * @param highLimit PortInfo VLHighLimit (0..255)
     * @param high      the high-priority VLArbitration table: 64 entries of (VL, weight), 128 bytes as on the wire
     * @param low       the low-priority table, likewise
     * @param sl2vl     the SLtoVLMappingTable: 8 bytes, SL 2i in the high nibble of byte i
     */
    public record Tables(int maxVls, int highLimit, byte[] high, byte[] low, byte[] sl2vl) {
        /** The VL SL {@code sl} maps to. */
        public int vl(int sl) {
            int b = sl2vl[sl / 2] & 0xff;
            return sl % 2 == 0 ? b >> 4 : b & 0xf;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Tables t && maxVls == t.maxVls && highLimit == t.highLimit
                    && Arrays.equals(high, t.high) && Arrays.equals(low, t.low) && Arrays.equals(sl2vl, t.sl2vl);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(sl2vl) * 31 + highLimit;
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder();
            for (int sl = 0; sl < 16; sl++) {
                sb.append(sl == 0 ? "" : ",").append(vl(sl));
            }
            return "max_vls " + maxVls + ", high_limit " + highLimit + ", sl2vl " + sb;
        }
    }

    private final Map<PortClass, Tables> tables;

    private QosConfig(Map<PortClass, Tables> tables) {
        this.tables = tables;
    }

    /** OpenSM's defaults for every class. */
    public static QosConfig defaults() {
        return of(Map.of());
    }

    /**
     * The tables {@code options} ask for ({@code qos_max_vls}, {@code qos_ca_sl2vl}, ...: name to value; a value
     * of {@code (null)} or a negative number is not given, as in opensm.conf). Values must have passed
     * {@link #check}.
     */
    public static QosConfig of(Map<String, String> options) {
        Map<PortClass, Tables> m = new HashMap<>();
        for (PortClass c : PortClass.values()) {
            int maxVls = (int) number(pick(options, c, "max_vls", v -> parse(v) > 0), DEFAULT_MAX_VLS);
            int limit = (int) number(pick(options, c, "high_limit", v -> parse(v) >= 0),
                    DEFAULT_HIGH_LIMIT);
            byte[] high = vlArb(pick(options, c, "vlarb_high", v -> true), DEFAULT_VLARB_HIGH);
            byte[] low = vlArb(pick(options, c, "vlarb_low", v -> true), DEFAULT_VLARB_LOW);
            byte[] sl2vl = sl2vl(pick(options, c, "sl2vl", v -> true), DEFAULT_SL2VL);
            m.put(c, new Tables(maxVls, limit, high, low, sl2vl));
        }
        return new QosConfig(m);
    }

    /** The VLHighLimit of class {@code c}. */
    public int highLimit(PortClass c) {
        return tables.get(c).highLimit();
    }

    /** The tables of class {@code c}. */
    public Tables tables(PortClass c) {
        Tables t = tables.get(c);
        return new Tables(t.maxVls(), t.highLimit(), t.high().clone(), t.low().clone(), t.sl2vl().clone());
    }

    /**
     * What is wrong with option {@code name} set to {@code value} (a {@code qos_} option of OpenSM's), or null when
     * it is good (or not a table option: qos, qos_policy_file).
     */
    public static String check(String name, String value) {
        String suffix = suffix(name);
        if (suffix == null || value == null || value.equals("(null)")) {
            return null;
        }
        try {
            switch (suffix) {
                case "max_vls" -> {
                    long v = parse(value);
                    if (v != 0 && (v < 1 || v > 15)) {
                        return name + " " + value + ": out of range (1..15; 0: the default, " + DEFAULT_MAX_VLS + ")";
                    }
                }
                case "high_limit" -> {
                    long v = parse(value);
                    if (v > 255 || v < -1) {
                        return name + " " + value + ": out of range (0..255; -1: the default, " + DEFAULT_HIGH_LIMIT
                                + ")";
                    }
                }
                case "vlarb_high", "vlarb_low" -> vlArb(value, null);
                case "sl2vl" -> sl2vl(value, null);
                default -> {
                    return null;
                }
            }
        } catch (IllegalArgumentException e) {
            return name + " " + value + ": " + e.getMessage();
        }
        return null;
    }

    private static String suffix(String name) {
        for (String s : SUFFIXES) {
            if (name.equals("qos_" + s)) {
                return s;
            }
            for (PortClass c : PortClass.values()) {
                if (name.equals(c.prefix() + "_" + s)) {
                    return s;
                }
            }
        }
        return null;
    }

    /** The class option where given, else the general one, else null (the default). */
    private static String pick(Map<String, String> options, PortClass c, String suffix,
                               java.util.function.Predicate<String> given) {
        for (String name : List.of(c.prefix() + "_" + suffix, "qos_" + suffix)) {
            String v = options.get(name);
            if (v != null && !v.equals("(null)") && given.test(v)) {
                return v;
            }
        }
        return null;
    }

    private static long number(String v, long dflt) {
        return v == null ? dflt : parse(v);
    }

    /** An integer as OpenSM's strtol with base 0 reads it: 0x hex, a leading 0 octal, else decimal. */
    private static long parse(String v) {
        String t = v.strip();
        boolean neg = t.startsWith("-");
        String u = neg ? t.substring(1) : t;
        long x;
        try {
            if (u.startsWith("0x") || u.startsWith("0X")) {
                x = Long.parseLong(u.substring(2), 16);
            } else if (u.length() > 1 && u.startsWith("0")) {
                x = Long.parseLong(u.substring(1), 8);
            } else {
                x = Long.parseLong(u);
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("\"" + t + "\" is not a number");
        }
        return neg ? -x : x;
    }

    /** A vlarb list, "VL:weight,..." (at most 64 pairs; VL 0..14, weight 0..255), as the table's 128 bytes. */
    static byte[] vlArb(String text, String dflt) {
        String s = text == null ? dflt : text;
        byte[] out = new byte[128];
        String[] pairs = s.strip().split(",");
        if (pairs.length > 64) {
            throw new IllegalArgumentException("more than 64 VL:weight pairs");
        }
        for (int i = 0; i < pairs.length; i++) {
            String p = pairs[i].strip();
            int colon = p.indexOf(':');
            if (colon < 0) {
                throw new IllegalArgumentException("\"" + p + "\" is not VL:weight");
            }
            long vl = parse(p.substring(0, colon));
            long w = parse(p.substring(colon + 1));
            if (vl < 0 || vl > 14) {
                throw new IllegalArgumentException(String.format(Locale.ROOT, "VL %d out of range (0..14)", vl));
            }
            if (w < 0 || w > 255) {
                throw new IllegalArgumentException(String.format(Locale.ROOT, "weight %d out of range (0..255)", w));
            }
            out[2 * i] = (byte) vl;
            out[2 * i + 1] = (byte) w;
        }
        return out;
    }

    /** An sl2vl list, 16 VLs (0..15) for SL 0..15, as the table's 8 bytes. */
    static byte[] sl2vl(String text, String dflt) {
        String s = text == null ? dflt : text;
        String[] vls = s.strip().split(",");
        if (vls.length != 16) {
            throw new IllegalArgumentException(vls.length + " VLs listed, not 16 (one for each SL)");
        }
        byte[] out = new byte[8];
        for (int sl = 0; sl < 16; sl++) {
            long vl = parse(vls[sl]);
            if (vl < 0 || vl > 15) {
                throw new IllegalArgumentException(String.format(Locale.ROOT, "VL %d for SL %d out of range (0..15)",
                        vl, sl));
            }
            out[sl / 2] |= (byte) (sl % 2 == 0 ? vl << 4 : vl);
        }
        return out;
    }
}
