package org.ibtwin.model;

/** PCIe generations: transfer rate per lane in GT/s and line encoding. */
public enum PcieGen {
    GEN1(1, 2.5, Encoding.B8B10B),
    GEN2(2, 5.0, Encoding.B8B10B),
    GEN3(3, 8.0, Encoding.B128B130B),
    GEN4(4, 16.0, Encoding.B128B130B),
    GEN5(5, 32.0, Encoding.B128B130B),
    GEN6(6, 64.0, Encoding.FLIT);

    private final int number;
    private final double gtPerSecond;
    private final Encoding encoding;

    PcieGen(int number, double gtPerSecond, Encoding encoding) {
        this.number = number;
        this.gtPerSecond = gtPerSecond;
        this.encoding = encoding;
    }

    public int number() {
        return number;
    }

    public double gtPerSecond() {
        return gtPerSecond;
    }

    public Encoding encoding() {
        return encoding;
    }

    /** Raw data rate of one lane after line encoding, Gb/s (before TLP overheads). */
    public double laneGbps() {
        return gtPerSecond * encoding.efficiency();
    }

    public static PcieGen of(int number) {
        for (PcieGen g : values()) {
            if (g.number == number) {
                return g;
            }
        }
        return null;
    }
}
