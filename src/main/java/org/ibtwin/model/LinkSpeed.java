package org.ibtwin.model;

import java.util.Locale;

/**
 * InfiniBand lane speeds. Signalling rate is per lane in Gb/s on the wire; data rate is what is left per lane
 * after line encoding (and FEC for PAM4 generations). The nominal rate is what ibstat prints for a 1x lane.
 *
 * <p>Wire codes follow PortInfo: {@code LinkSpeedActive} (SDR 1, DDR 2, QDR 4) and {@code LinkSpeedExtActive}
 * (FDR 1, EDR 2, HDR 4, NDR 8, XDR 16); FDR10 is a vendor extension reported through ExtendedPortInfo.
 */
public enum LinkSpeed {
    SDR(2.5, Encoding.B8B10B, 2.0, 2.5, 1, 0, 0),
    DDR(5.0, Encoding.B8B10B, 4.0, 5.0, 2, 0, 0),
    QDR(10.0, Encoding.B8B10B, 8.0, 10.0, 4, 0, 0),
    FDR10(10.3125, Encoding.B64B66B, 10.0, 10.0, 4, 0, 1),
    FDR(14.0625, Encoding.B64B66B, 13.636363636363637, 14.0625, 0, 1, 0),
    EDR(25.78125, Encoding.B64B66B, 25.0, 25.0, 0, 2, 0),
    HDR(53.125, Encoding.PAM4_FEC, 50.0, 50.0, 0, 4, 0),
    NDR(106.25, Encoding.PAM4_FEC, 100.0, 100.0, 0, 8, 0),
    XDR(212.5, Encoding.PAM4_FEC, 200.0, 200.0, 0, 16, 0);

    private final double signallingGbps;
    private final Encoding encoding;
    private final double dataGbps;
    private final double nominalGbps;
    private final int speedCode;
    private final int extSpeedCode;
    private final int fdr10Code;

    LinkSpeed(double signallingGbps, Encoding encoding, double dataGbps, double nominalGbps,
              int speedCode, int extSpeedCode, int fdr10Code) {
        this.signallingGbps = signallingGbps;
        this.encoding = encoding;
        this.dataGbps = dataGbps;
        this.nominalGbps = nominalGbps;
        this.speedCode = speedCode;
        this.extSpeedCode = extSpeedCode;
        this.fdr10Code = fdr10Code;
    }

    /** Signalling rate of one lane, Gb/s. */
    public double signallingGbps() {
        return signallingGbps;
    }

    public Encoding encoding() {
        return encoding;
    }

    /** Data rate of one lane after encoding, Gb/s. */
    public double dataGbps() {
        return dataGbps;
    }

    /** The per-lane rate the tools print (ibstat "Rate" divided by the width). */
    public double nominalGbps() {
        return nominalGbps;
    }

    /** PortInfo LinkSpeed* code (SDR/DDR/QDR; FDR10 reports QDR there), 0 when the speed lives in the extended field. */
    public int speedCode() {
        return speedCode;
    }

    /** PortInfo LinkSpeedExt* code, 0 when not an extended speed. */
    public int extSpeedCode() {
        return extSpeedCode;
    }

    /** ExtendedPortInfo LinkSpeed* code for FDR10, 0 otherwise. */
    public int fdr10Code() {
        return fdr10Code;
    }

    /** Name as the tools print it: "SDR", "FDR10", "HDR". */
    public String label() {
        return name();
    }

    public boolean isAtLeast(LinkSpeed other) {
        return compareTo(other) >= 0;
    }

    /** Parses a speed name, case-insensitively; null when unknown. */
    public static LinkSpeed parse(String s) {
        String u = s.trim().toUpperCase(Locale.ROOT);
        for (LinkSpeed v : values()) {
            if (v.name().equals(u)) {
                return v;
            }
        }
        return null;
    }

    /** Bit mask of the given speeds, one bit per ordinal. */
    public static int maskOf(LinkSpeed... speeds) {
        int m = 0;
        for (LinkSpeed s : speeds) {
            m |= 1 << s.ordinal();
        }
        return m;
    }

    /** Mask of every speed up to and including {@code top}, leaving out FDR10 unless it is the top. */
    public static int upTo(LinkSpeed top) {
        int m = 0;
        for (LinkSpeed s : values()) {
            if (s.compareTo(top) <= 0 && (s != FDR10 || top == FDR10)) {
                m |= 1 << s.ordinal();
            }
        }
        return m;
    }

    /** The fastest speed in a mask, or null for an empty mask. */
    public static LinkSpeed highest(int mask) {
        LinkSpeed[] all = values();
        for (int i = all.length - 1; i >= 0; i--) {
            if ((mask & (1 << i)) != 0) {
                return all[i];
            }
        }
        return null;
    }
}
