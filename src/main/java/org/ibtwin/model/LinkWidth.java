package org.ibtwin.model;

import java.util.Locale;

/** Link widths with their lane counts and PortInfo LinkWidth codes. */
public enum LinkWidth {
    X1(1, 1),
    X2(2, 16),
    X4(4, 2),
    X8(8, 4),
    X12(12, 8);

    private final int lanes;
    private final int code;

    LinkWidth(int lanes, int code) {
        this.lanes = lanes;
        this.code = code;
    }

    public int lanes() {
        return lanes;
    }

    /** PortInfo LinkWidthActive code. */
    public int code() {
        return code;
    }

    /** "4x" as ibnetdiscover prints it. */
    public String label() {
        return lanes + "x";
    }

    /** "4X" as iblinkinfo and ibstat print it. */
    public String upperLabel() {
        return lanes + "X";
    }

    public static LinkWidth ofLanes(int lanes) {
        for (LinkWidth w : values()) {
            if (w.lanes == lanes) {
                return w;
            }
        }
        return null;
    }

    public static LinkWidth ofCode(int code) {
        for (LinkWidth w : values()) {
            if (w.code == code) {
                return w;
            }
        }
        return null;
    }

    /** The {@link #label()} of a PortInfo LinkWidthActive code, "??" for a code of no width (as the tools print). */
    public static String labelOfCode(int code) {
        LinkWidth w = ofCode(code);
        return w == null ? "??" : w.label();
    }

    /** Parses "4x", "4X" or "4"; null when unknown. */
    public static LinkWidth parse(String s) {
        String t = s.trim().toLowerCase(Locale.ROOT);
        if (t.endsWith("x")) {
            t = t.substring(0, t.length() - 1);
        }
        try {
            return ofLanes(Integer.parseInt(t));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    public static int maskOf(LinkWidth... widths) {
        int m = 0;
        for (LinkWidth w : widths) {
            m |= 1 << w.ordinal();
        }
        return m;
    }

    /** Mask of every width with at most {@code top}'s lanes. */
    public static int upTo(LinkWidth top) {
        int m = 0;
        for (LinkWidth w : values()) {
            if (w.lanes <= top.lanes) {
                m |= 1 << w.ordinal();
            }
        }
        return m;
    }

    /** The widest width in a mask, or null. */
    public static LinkWidth widest(int mask) {
        LinkWidth[] all = values();
        for (int i = all.length - 1; i >= 0; i--) {
            if ((mask & (1 << i)) != 0) {
                return all[i];
            }
        }
        return null;
    }
}
