package org.ibtwin.sim;

import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.LinkWidth;

/**
 * Conversions between the model's width and speed masks (one bit per {@link LinkWidth} / {@link LinkSpeed}
 * ordinal) and the PortInfo codes: LinkWidth* (1x=1, 4x=2, 8x=4, 12x=8, 2x=16), LinkSpeed* (SDR=1, DDR=2,
 * QDR=4), LinkSpeedExt* (FDR=1, EDR=2, HDR=4, NDR=8), LinkSpeedExt*2 (XDR=1) and the Mellanox ExtendedPortInfo
 * LinkSpeed* bit for FDR10.
 */
final class PortCodes {
    private static final LinkWidth[] WIDTHS = LinkWidth.values();
    private static final LinkSpeed[] SPEEDS = LinkSpeed.values();

    /** Model speed-mask bits by PortInfo field. */
    static final int LEGACY_BITS = 0x7;      // SDR, DDR, QDR
    static final int FDR10_SHIFT = 3;
    static final int EXT_SHIFT = 4;         // FDR, EDR, HDR, NDR
    static final int EXT_BITS = 0xf << EXT_SHIFT;
    static final int EXT2_SHIFT = 8;        // XDR

    private PortCodes() {
    }

    /** PortInfo width code of a model width mask. */
    static int widthCode(int mask) {
        int c = 0;
        for (LinkWidth w : WIDTHS) {
            if ((mask & (1 << w.ordinal())) != 0) {
                c |= w.code();
            }
        }
        return c;
    }

    /** Model width mask of a PortInfo width code (unknown bits dropped). */
    static int widthMask(int code) {
        int m = 0;
        for (LinkWidth w : WIDTHS) {
            if ((code & w.code()) != 0) {
                m |= 1 << w.ordinal();
            }
        }
        return m;
    }

    /** Whether every bit of a PortInfo width code names a width. */
    static boolean validWidthCode(int code) {
        return (code & ~0x1f) == 0;
    }

    static int legacyCode(int speedMask) {
        return speedMask & LEGACY_BITS;
    }

    static int extCode(int speedMask) {
        return (speedMask >>> EXT_SHIFT) & 0xf;
    }

    static int ext2Code(int speedMask) {
        return (speedMask >>> EXT2_SHIFT) & 0x1;
    }

    static int fdr10Code(int speedMask) {
        return (speedMask >>> FDR10_SHIFT) & 0x1;
    }

    /** The model width of a stored "active + 1" byte, or null. */
    static LinkWidth width(int activePlusOne) {
        return activePlusOne == 0 ? null : WIDTHS[activePlusOne - 1];
    }

    static LinkSpeed speed(int activePlusOne) {
        return activePlusOne == 0 ? null : SPEEDS[activePlusOne - 1];
    }
}
