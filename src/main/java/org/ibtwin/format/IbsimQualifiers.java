package org.ibtwin.format;

import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.LinkWidth;

/**
 * ibsim's port qualifiers: {@code w=} LinkWidthEnabled (1 1x, 2 4x, 4 8x, 8 12x, 16 2x), {@code s=}
 * LinkSpeedEnabled (1 SDR, 2 DDR, 4 QDR) and {@code e=} LinkSpeedExtEnabled (1 FDR, 2 EDR, 4 HDR, 8 NDR, 16 XDR),
 * each a bit mask. Masks are returned over {@link LinkWidth} / {@link LinkSpeed} ordinals, or -1 when invalid.
 */
final class IbsimQualifiers {
    static final String WIDTH_HINT = "(a mask of 1=1x 2=4x 4=8x 8=12x 16=2x)";
    static final String SPEED_HINT = "(a mask of 1=SDR 2=DDR 4=QDR)";
    static final String EXT_SPEED_HINT = "(a mask of 1=FDR 2=EDR 4=HDR 8=NDR 16=XDR)";

    /** ibsim's defaults for a port with no qualifiers and no width/speed tag: 4x, SDR. */
    static final int DEFAULT_WIDTHS = LinkWidth.maskOf(LinkWidth.X4);
    static final int DEFAULT_SPEEDS = LinkSpeed.maskOf(LinkSpeed.SDR);

    private static final LinkWidth[] WIDTH_BITS = {LinkWidth.X1, LinkWidth.X4, LinkWidth.X8, LinkWidth.X12,
        LinkWidth.X2};
    private static final LinkSpeed[] SPEED_BITS = {LinkSpeed.SDR, LinkSpeed.DDR, LinkSpeed.QDR};
    private static final LinkSpeed[] EXT_BITS = {LinkSpeed.FDR, LinkSpeed.EDR, LinkSpeed.HDR, LinkSpeed.NDR,
        LinkSpeed.XDR};

    private IbsimQualifiers() {
    }

    static int widthMask(String v) {
        return mask(v, WIDTH_BITS);
    }

    static int speedMask(String v) {
        return mask(v, SPEED_BITS);
    }

    static int extSpeedMask(String v) {
        return mask(v, EXT_BITS);
    }

    private static <T extends Enum<T>> int mask(String v, T[] bits) {
        int raw;
        try {
            raw = v.startsWith("0x") ? Integer.parseInt(v.substring(2), 16) : Integer.parseInt(v);
        } catch (NumberFormatException e) {
            return -1;
        }
        if (raw <= 0 || raw >= 1 << bits.length) {
            return -1;
        }
        int m = 0;
        for (int i = 0; i < bits.length; i++) {
            if ((raw & (1 << i)) != 0) {
                m |= 1 << bits[i].ordinal();
            }
        }
        return m;
    }
}
