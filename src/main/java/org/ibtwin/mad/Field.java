package org.ibtwin.mad;

import java.util.Objects;

/**
 * One field of a MAD layout: its name as the tools print it, where it sits and how it prints.
 *
 * <p>{@code bitOffset} counts from the start of the attribute (or header) in the IBA specification's big-endian bit
 * numbering: bit 0 is the most significant bit of byte 0, bit 8 the most significant bit of byte 1. A field of at
 * most 64 bits is a number ({@link #get}, {@link #set}); a longer one must start and end on byte boundaries and is a
 * byte array ({@link #getBytes}, {@link #setBytes}).
 *
 * <p>The accessors work directly on the caller's {@code byte[]}: no allocation for numeric fields. {@code base} is
 * the byte offset of the attribute's start within {@code buf}. Prefer {@link Layout#get} and {@link Layout#set}, which
 * check the whole attribute is present and name the layout in their errors.
 */
public record Field(String name, int bitOffset, int bitLength, Printer printer) {

    public Field {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(printer, "printer");
        if (name.isBlank()) {
            throw new IllegalArgumentException("field name is blank");
        }
        if (bitOffset < 0 || bitLength < 1) {
            throw new IllegalArgumentException(name + ": bad position " + bitOffset + "+" + bitLength);
        }
        if (bitLength > 64) {
            if (bitOffset % 8 != 0 || bitLength % 8 != 0) {
                throw new IllegalArgumentException(name + ": a field over 64 bits must be whole bytes");
            }
            if (!printer.forArrays()) {
                throw new IllegalArgumentException(name + ": a field over 64 bits prints as ARRAY or STRING");
            }
        } else {
            if ((bitOffset & 7) + bitLength > 64) {
                throw new IllegalArgumentException(name + ": a numeric field must lie within 8 bytes");
            }
            if (printer.forArrays()) {
                throw new IllegalArgumentException(name + ": " + printer + " is for fields over 64 bits");
            }
        }
    }

    /** Whether this field is a byte array (longer than 64 bits) rather than a number. */
    public boolean isArray() {
        return bitLength > 64;
    }

    /** The largest value the field holds, as an unsigned number (-1 for a 64-bit field: all ones). */
    public long maxValue() {
        return bitLength >= 64 ? -1L : (1L << bitLength) - 1;
    }

    /** The first byte the field touches, from the attribute's start. */
    public int byteOffset() {
        return bitOffset >>> 3;
    }

    /** How many bytes the field touches. */
    public int byteSpan() {
        return ((bitOffset & 7) + bitLength + 7) >>> 3;
    }

    /** The byte just past the field, from the attribute's start. */
    public int byteEnd() {
        return byteOffset() + byteSpan();
    }

    /** Whether {@code value} fits this numeric field (any value fits a 64-bit field). */
    public boolean fits(long value) {
        return bitLength >= 64 || (value >= 0 && value <= maxValue());
    }

    /** The field's value in the attribute starting at {@code buf[base]}. */
    public long get(byte[] buf, int base) {
        checkNumeric(null);
        checkBounds(null, buf, base);
        return read(buf, base);
    }

    /** Stores {@code value} in the attribute starting at {@code buf[base]}, leaving the neighbouring bits alone. */
    public void set(byte[] buf, int base, long value) {
        checkNumeric(null);
        checkValue(null, value);
        checkBounds(null, buf, base);
        write(buf, base, value);
    }

    /** A copy of this array field's bytes. */
    public byte[] getBytes(byte[] buf, int base) {
        checkArray(null);
        checkBounds(null, buf, base);
        byte[] out = new byte[bitLength >>> 3];
        System.arraycopy(buf, base + byteOffset(), out, 0, out.length);
        return out;
    }

    /** Stores an array field: {@code value} must have exactly the field's length. */
    public void setBytes(byte[] buf, int base, byte[] value) {
        checkArray(null);
        checkLength(null, value);
        checkBounds(null, buf, base);
        System.arraycopy(value, 0, buf, base + byteOffset(), value.length);
    }

    /** The field's value as a dump prints it (after "Name:....."). */
    public String format(byte[] buf, int base) {
        return isArray() ? printer.format(getBytes(buf, base)) : printer.format(get(buf, base), bitLength);
    }

    // ---- unchecked access for Layout, which checks once per call

    long read(byte[] buf, int base) {
        int start = base + (bitOffset >>> 3);
        int n = ((bitOffset & 7) + bitLength + 7) >>> 3;
        long v = 0;
        for (int i = 0; i < n; i++) {
            v = (v << 8) | (buf[start + i] & 0xffL);
        }
        int shift = (n << 3) - (bitOffset & 7) - bitLength;
        v >>>= shift;
        return bitLength >= 64 ? v : v & ((1L << bitLength) - 1);
    }

    void write(byte[] buf, int base, long value) {
        int start = base + (bitOffset >>> 3);
        int n = ((bitOffset & 7) + bitLength + 7) >>> 3;
        int shift = (n << 3) - (bitOffset & 7) - bitLength;
        if (shift == 0 && (bitOffset & 7) == 0) {
            for (int i = n - 1; i >= 0; i--, value >>>= 8) {
                buf[start + i] = (byte) value;
            }
            return;
        }
        long mask = (bitLength >= 64 ? -1L : (1L << bitLength) - 1) << shift;
        long cur = 0;
        for (int i = 0; i < n; i++) {
            cur = (cur << 8) | (buf[start + i] & 0xffL);
        }
        cur = (cur & ~mask) | ((value << shift) & mask);
        for (int i = n - 1; i >= 0; i--, cur >>>= 8) {
            buf[start + i] = (byte) cur;
        }
    }

    void checkNumeric(String layout) {
        if (isArray()) {
            throw new MadFormatException(layout, name, "is a " + bitLength / 8 + "-byte array, not a number");
        }
    }

    void checkArray(String layout) {
        if (!isArray()) {
            throw new MadFormatException(layout, name, "is a " + bitLength + "-bit number, not a byte array");
        }
    }

    void checkValue(String layout, long value) {
        if (!fits(value)) {
            throw new MadFormatException(layout, name, "value " + value + " (0x" + Long.toHexString(value)
                    + ") does not fit in " + bitLength + " bits (0.." + maxValue() + ")");
        }
    }

    void checkLength(String layout, byte[] value) {
        Objects.requireNonNull(value, "value");
        if (value.length != bitLength / 8) {
            throw new MadFormatException(layout, name, "needs exactly " + bitLength / 8 + " bytes, got "
                    + value.length);
        }
    }

    private void checkBounds(String layout, byte[] buf, int base) {
        Objects.requireNonNull(buf, "buf");
        if (base < 0 || base > buf.length - byteEnd()) {
            throw new MadFormatException(layout, name, "buffer truncated: the field ends at byte " + byteEnd()
                    + " of an attribute at offset " + base + ", but the buffer holds " + buf.length + " bytes");
        }
    }
}
