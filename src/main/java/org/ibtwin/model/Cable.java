package org.ibtwin.model;

/**
 * The cable of a link: its kind, length in metres, and the highest speed and width it carries. A damaged cable
 * is described by lowering what it carries (a cable that only holds one lane has {@code maxWidth} 1x).
 */
public record Cable(CableKind kind, double lengthMetres, LinkSpeed maxSpeed, LinkWidth maxWidth) {

    /** A cable nothing is known about: it limits nothing. */
    public static final Cable UNRATED = new Cable(CableKind.UNKNOWN, 0, LinkSpeed.XDR, LinkWidth.X12);

    public Cable {
        if (kind == null || maxSpeed == null || maxWidth == null) {
            throw new IllegalArgumentException("cable kind, speed and width are required");
        }
        if (lengthMetres < 0 || Double.isNaN(lengthMetres)) {
            throw new IllegalArgumentException("cable length must be >= 0: " + lengthMetres);
        }
    }

    public Cable withMaxSpeed(LinkSpeed s) {
        return new Cable(kind, lengthMetres, s, maxWidth);
    }

    public Cable withMaxWidth(LinkWidth w) {
        return new Cable(kind, lengthMetres, maxSpeed, w);
    }

    /** One-way propagation delay, about 5 ns per metre. */
    public double propagationNanos() {
        return lengthMetres * 5.0;
    }
}
