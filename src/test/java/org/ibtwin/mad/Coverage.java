package org.ibtwin.mad;

/** Test helper: which bits of a layout its fields cover (the rest are reserved). */
final class Coverage {
    private Coverage() {
    }

    /** A mask of the layout's size: 1 bits where a field is, 0 where the bits are reserved. */
    static byte[] mask(Layout l) {
        byte[] m = new byte[l.size()];
        for (Field f : l.fields()) {
            for (int b = f.bitOffset(); b < f.bitOffset() + f.bitLength(); b++) {
                m[b >>> 3] |= (byte) (0x80 >>> (b & 7));
            }
        }
        return m;
    }

    /** A copy of {@code buf} with the layout's reserved bits (at {@code off}) cleared. */
    static byte[] clearReserved(Layout l, byte[] buf, int off) {
        byte[] m = mask(l);
        byte[] out = buf.clone();
        for (int i = 0; i < m.length; i++) {
            out[off + i] &= m[i];
        }
        return out;
    }
}
