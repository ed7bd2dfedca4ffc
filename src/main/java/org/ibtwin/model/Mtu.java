package org.ibtwin.model;

/** InfiniBand MTUs with their PortInfo codes. */
public enum Mtu {
    MTU256(256, 1),
    MTU512(512, 2),
    MTU1024(1024, 3),
    MTU2048(2048, 4),
    MTU4096(4096, 5);

    private final int bytes;
    private final int code;

    Mtu(int bytes, int code) {
        this.bytes = bytes;
        this.code = code;
    }

    public int bytes() {
        return bytes;
    }

    public int code() {
        return code;
    }

    public static Mtu ofBytes(int bytes) {
        for (Mtu m : values()) {
            if (m.bytes == bytes) {
                return m;
            }
        }
        return null;
    }

    public static Mtu ofCode(int code) {
        for (Mtu m : values()) {
            if (m.code == code) {
                return m;
            }
        }
        return null;
    }

    public static Mtu min(Mtu a, Mtu b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}
