package org.ibtwin.format.tools;

import java.util.Locale;
import org.ibtwin.format.FormatException;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.LinkWidth;
import org.ibtwin.model.PhysState;
import org.ibtwin.model.PortState;

/** Small helpers the tool-output readers share. */
final class Text {
    private Text() {
    }

    static String[] lines(String text) {
        return text.split("\r?\n", -1);
    }

    /** A decimal or 0x-hex number; a {@link FormatException} naming {@code what} otherwise. */
    static long number(String s, String file, int line, String what) {
        String t = s.trim();
        try {
            if (t.startsWith("0x") || t.startsWith("0X")) {
                return Long.parseUnsignedLong(t.substring(2), 16);
            }
            return Long.parseLong(t);
        } catch (NumberFormatException e) {
            throw new FormatException(file, line, what + " \"" + t + "\" is not a number");
        }
    }

    /** {@link #integer} within {@code min..max}: a LID (0..0xffff), a port number (0..255). */
    static int ranged(String s, String file, int line, String what, int min, int max) {
        int v = integer(s, file, line, what);
        if (v < min || v > max) {
            throw new FormatException(file, line, what + " " + s.trim() + " out of range (" + min + ".." + max + ")");
        }
        return v;
    }

    static int integer(String s, String file, int line, String what) {
        long v = number(s, file, line, what);
        if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
            throw new FormatException(file, line, what + " " + s.trim() + " out of range");
        }
        return (int) v;
    }

    /** "0x0002c90300000003", "2c90300000003" or "0002:c903:0000:0003" (ibv_devinfo). */
    static long guid(String s, String file, int line) {
        String t = s.trim().replace(":", "");
        if (t.startsWith("0x") || t.startsWith("0X")) {
            t = t.substring(2);
        }
        try {
            if (t.isEmpty() || t.length() > 16) {
                throw new NumberFormatException();
            }
            return Long.parseUnsignedLong(t, 16);
        } catch (NumberFormatException e) {
            throw new FormatException(file, line, "\"" + s.trim() + "\" is not a GUID");
        }
    }

    /** Speed from the per-lane signalling rate the diags print ("53.125 Gbps", "10.0 Gbps (FDR10)"); null if unknown. */
    static LinkSpeed speedOfGbps(String text) {
        String t = text.trim();
        if (t.contains("FDR10")) {
            return LinkSpeed.FDR10;
        }
        int sp = t.indexOf(' ');
        String num = sp < 0 ? t : t.substring(0, sp);
        double g;
        try {
            g = Double.parseDouble(num);
        } catch (NumberFormatException e) {
            return null;
        }
        for (LinkSpeed s : LinkSpeed.values()) {
            if (s != LinkSpeed.FDR10 && Math.abs(s.signallingGbps() - g) < 1e-6) {
                return s;
            }
        }
        return null;
    }

    /** "Active", "Initialize" (or "Init"), "Armed", "Down"; also ibv_devinfo's PORT_ACTIVE and sysfs "4: ACTIVE". */
    static PortState portState(String s) {
        String t = s.trim().toUpperCase(Locale.ROOT);
        int colon = t.indexOf(':');
        if (colon >= 0) {
            t = t.substring(colon + 1).trim();
        }
        if (t.startsWith("PORT_")) {
            t = t.substring(5);
        }
        return switch (t) {
            case "DOWN" -> PortState.DOWN;
            case "INITIALIZE", "INITIALIZING", "INIT" -> PortState.INIT;
            case "ARMED" -> PortState.ARMED;
            case "ACTIVE" -> PortState.ACTIVE;
            default -> null;
        };
    }

    /** "LinkUp", "Polling", "Disabled"…; ibv_devinfo's LINK_UP and sysfs "5: LinkUp" too. */
    static PhysState physState(String s) {
        String t = s.trim();
        int colon = t.indexOf(':');
        if (colon >= 0) {
            t = t.substring(colon + 1).trim();
        }
        String u = t.replace("_", "").replace(" ", "").toUpperCase(Locale.ROOT);
        for (PhysState p : PhysState.values()) {
            if (p.label().toUpperCase(Locale.ROOT).equals(u)) {
                return p;
            }
        }
        return switch (u) {
            case "PORTCONFIGURATIONTRAINNING" -> PhysState.PORT_CONFIGURATION_TRAINING;
            default -> null;
        };
    }

    /** "4X", "4x", "12X". */
    static LinkWidth width(String s) {
        return LinkWidth.parse(s.trim());
    }
}
