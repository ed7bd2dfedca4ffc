package org.ibtwin.mad;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The declarative description of one MAD header or attribute: its name, its size in bytes and its fields. Encoding,
 * decoding and the dump all come from this one table.
 *
 * <p>Every accessor takes the buffer and the byte offset at which the attribute starts, checks once that the whole
 * attribute lies inside the buffer, then works on the bytes in place. Any problem (truncated buffer, wrong size,
 * value too large, unknown field) is a {@link MadFormatException} naming this layout and the field.
 *
 * <p>Bits no field covers are reserved: encoding writes them as zero and decoding ignores them.
 */
public final class Layout {
    private final String name;
    private final int size;
    private final List<Field> fields;
    private final List<Field> dumpFields;
    private final Map<String, Field> byName;

    private Layout(String name, int size, List<Field> fields, List<Field> dumpFields) {
        this.name = name;
        this.size = size;
        this.fields = List.copyOf(fields);
        this.dumpFields = List.copyOf(dumpFields);
        Map<String, Field> m = new HashMap<>();
        for (Field f : fields) {
            m.put(f.name(), f);
        }
        this.byName = Collections.unmodifiableMap(m);
    }

    /** Starts a layout of {@code size} bytes. */
    public static Builder builder(String name, int size) {
        return new Builder(name, size);
    }

    public String name() {
        return name;
    }

    /** The attribute's size in bytes. */
    public int size() {
        return size;
    }

    /** The fields, in table order (the order decode lists them). */
    public List<Field> fields() {
        return fields;
    }

    /**
     * The fields {@link #dump} prints, in the order the real tools print them. Usually {@link #fields()}; it leaves
     * out what libibmad does not print and may hold a field libibmad reads from elsewhere than the specification
     * says (see {@link PerfAttributes#PORT_COUNTERS}).
     */
    public List<Field> dumpFields() {
        return dumpFields;
    }

    /** The field called {@code fieldName}. */
    public Field field(String fieldName) {
        Field f = byName.get(fieldName);
        if (f == null) {
            throw new MadFormatException(name, fieldName, "no such field");
        }
        return f;
    }

    /** The field called {@code fieldName}, if there is one. */
    public Optional<Field> find(String fieldName) {
        return Optional.ofNullable(byName.get(fieldName));
    }

    // ---- single fields

    /** A numeric field's value in the attribute at {@code buf[offset]}. */
    public long get(byte[] buf, int offset, Field f) {
        checkFits(buf, offset, f);
        f.checkNumeric(name);
        return f.read(buf, offset);
    }

    /** A numeric field's value, by name. */
    public long get(byte[] buf, int offset, String fieldName) {
        return get(buf, offset, field(fieldName));
    }

    /** Stores a numeric field, leaving every other bit alone. */
    public void set(byte[] buf, int offset, Field f, long value) {
        checkFits(buf, offset, f);
        f.checkNumeric(name);
        f.checkValue(name, value);
        f.write(buf, offset, value);
    }

    /** Stores a numeric field, by name. */
    public void set(byte[] buf, int offset, String fieldName, long value) {
        set(buf, offset, field(fieldName), value);
    }

    /** A copy of an array field's bytes. */
    public byte[] getBytes(byte[] buf, int offset, Field f) {
        checkFits(buf, offset, f);
        f.checkArray(name);
        return Arrays.copyOfRange(buf, offset + f.byteOffset(), offset + f.byteEnd());
    }

    /** A copy of an array field's bytes, by name. */
    public byte[] getBytes(byte[] buf, int offset, String fieldName) {
        return getBytes(buf, offset, field(fieldName));
    }

    /** Stores an array field; {@code value} must have exactly its length. */
    public void setBytes(byte[] buf, int offset, Field f, byte[] value) {
        checkFits(buf, offset, f);
        f.checkArray(name);
        f.checkLength(name, value);
        System.arraycopy(value, 0, buf, offset + f.byteOffset(), value.length);
    }

    /** Stores an array field, by name. */
    public void setBytes(byte[] buf, int offset, String fieldName, byte[] value) {
        setBytes(buf, offset, field(fieldName), value);
    }

    // ---- whole attribute

    /**
     * A new buffer of {@link #size()} bytes holding {@code values} by field name. Numbers may be any
     * {@link Number} (a {@link BigInteger} up to 2^64-1 for a 64-bit field; a negative {@code long} there is its
     * two's-complement bit pattern) or a {@link Boolean}; array fields take a {@code byte[]} of their exact length
     * or, padded with zeros, a {@link String}. Fields left out are zero.
     */
    public byte[] encode(Map<String, ?> values) {
        byte[] buf = new byte[size];
        encodeInto(values, buf, 0);
        return buf;
    }

    /** Encodes into {@code buf} at {@code offset}: the attribute's bytes are cleared first, the rest left alone. */
    public void encode(Map<String, ?> values, byte[] buf, int offset) {
        Objects.requireNonNull(values, "values");
        checkRange(buf, offset);
        // check everything before touching the buffer
        for (Map.Entry<String, ?> e : values.entrySet()) {
            Field f = field(e.getKey());
            if (f.isArray()) {
                arrayValue(f, e.getValue());
            } else {
                f.checkValue(name, numericValue(f, e.getValue()));
            }
        }
        Arrays.fill(buf, offset, offset + size, (byte) 0);
        encodeInto(values, buf, offset);
    }

    private void encodeInto(Map<String, ?> values, byte[] buf, int offset) {
        for (Map.Entry<String, ?> e : values.entrySet()) {
            Field f = field(e.getKey());
            if (f.isArray()) {
                byte[] b = arrayValue(f, e.getValue());
                System.arraycopy(b, 0, buf, offset + f.byteOffset(), b.length);
            } else {
                long v = numericValue(f, e.getValue());
                f.checkValue(name, v);
                f.write(buf, offset, v);
            }
        }
    }

    /** Decodes a buffer that is exactly this attribute: {@code buf.length} must be {@link #size()}. */
    public LinkedHashMap<String, Object> decode(byte[] buf) {
        Objects.requireNonNull(buf, "buf");
        if (buf.length != size) {
            throw new MadFormatException(name, null, "wrong buffer size: the attribute is " + size
                    + " bytes, the buffer " + buf.length);
        }
        return decode(buf, 0);
    }

    /**
     * Every field of the attribute at {@code buf[offset]}, in table order: a {@link Long} for a number, a
     * {@code byte[]} for an array.
     */
    public LinkedHashMap<String, Object> decode(byte[] buf, int offset) {
        checkRange(buf, offset);
        LinkedHashMap<String, Object> out = LinkedHashMap.newLinkedHashMap(fields.size());
        for (Field f : fields) {
            if (f.isArray()) {
                out.put(f.name(), Arrays.copyOfRange(buf, offset + f.byteOffset(), offset + f.byteEnd()));
            } else {
                out.put(f.name(), f.read(buf, offset));
            }
        }
        return out;
    }

    /** A copy of the attribute's bytes at {@code buf[offset]}. */
    public byte[] copy(byte[] buf, int offset) {
        checkRange(buf, offset);
        return Arrays.copyOfRange(buf, offset, offset + size);
    }

    // ---- dump

    /**
     * The attribute as libibmad's {@code mad_dump_*} prints it: one "Name:....value" line per field of
     * {@link #dumpFields()}, the value in column 34, each line ending in a newline.
     */
    public String dump(byte[] buf, int offset) {
        checkRange(buf, offset);
        StringBuilder sb = new StringBuilder(dumpFields.size() * 48);
        for (Field f : dumpFields) {
            sb.append(line(f.name(), value(f, buf, offset))).append('\n');
        }
        return sb.toString();
    }

    /** One field's dump line, without the newline. */
    public String dumpLine(Field f, byte[] buf, int offset) {
        checkRange(buf, offset);
        return line(f.name(), value(f, buf, offset));
    }

    /** One field's value as the dump prints it. */
    public String format(byte[] buf, int offset, Field f) {
        checkFits(buf, offset, f);
        return value(f, buf, offset);
    }

    /**
     * "Name:" padded with dots to 33 columns, then the value: libibmad's dump line. A name of 32 characters or more
     * gets no dots.
     */
    public static String line(String fieldName, String value) {
        int dots = Math.max(0, 32 - fieldName.length());
        return fieldName + ":" + ".".repeat(dots) + value;
    }

    private static String value(Field f, byte[] buf, int offset) {
        if (f.isArray()) {
            return f.printer().format(Arrays.copyOfRange(buf, offset + f.byteOffset(), offset + f.byteEnd()));
        }
        return f.printer().format(f.read(buf, offset), f.bitLength());
    }

    // ---- checks

    private void checkRange(byte[] buf, int offset) {
        Objects.requireNonNull(buf, "buf");
        if (offset < 0 || offset > buf.length - size) {
            throw new MadFormatException(name, null, "buffer truncated: the attribute needs " + size
                    + " bytes at offset " + offset + ", the buffer holds " + buf.length);
        }
    }

    private void checkFits(byte[] buf, int offset, Field f) {
        Objects.requireNonNull(f, "field");
        checkRange(buf, offset);
        if (f.byteEnd() > size) {
            throw new MadFormatException(name, f.name(), "lies outside this " + size + "-byte layout");
        }
    }

    private long numericValue(Field f, Object v) {
        if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return ((Number) v).longValue();
        }
        if (v instanceof Boolean b) {
            return b ? 1 : 0;
        }
        if (v instanceof BigInteger b) {
            if (b.signum() < 0 || b.bitLength() > Math.min(64, f.bitLength())) {
                throw new MadFormatException(name, f.name(), "value " + b + " does not fit in " + f.bitLength()
                        + " bits");
            }
            return b.longValue();
        }
        throw new MadFormatException(name, f.name(), "expected a whole number, got "
                + (v == null ? "null" : v.getClass().getSimpleName()));
    }

    private byte[] arrayValue(Field f, Object v) {
        int len = f.bitLength() / 8;
        if (v instanceof byte[] b) {
            f.checkLength(name, b);
            return b;
        }
        if (v instanceof String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            if (b.length > len) {
                throw new MadFormatException(name, f.name(), "string of " + b.length + " bytes does not fit in "
                        + len);
            }
            return Arrays.copyOf(b, len);
        }
        throw new MadFormatException(name, f.name(), "expected byte[" + len + "] or a String, got "
                + (v == null ? "null" : v.getClass().getSimpleName()));
    }

    @Override
    public String toString() {
        return name + " (" + size + " bytes, " + fields.size() + " fields)";
    }

    /** Builds a layout; {@link #build()} checks names are unique and fields neither overlap nor overflow. */
    public static final class Builder {
        private final String name;
        private final int size;
        private final List<Field> fields = new ArrayList<>();
        private final List<Field> dump = new ArrayList<>();

        private Builder(String name, int size) {
            this.name = Objects.requireNonNull(name, "name");
            if (size < 1) {
                throw new IllegalArgumentException(name + ": size " + size);
            }
            this.size = size;
        }

        /** Adds a field, dumped in declaration order. */
        public Builder field(String fieldName, int bitOffset, int bitLength, Printer printer) {
            Field f = new Field(fieldName, bitOffset, bitLength, printer);
            fields.add(f);
            dump.add(f);
            return this;
        }

        public Builder uint(String fieldName, int bitOffset, int bitLength) {
            return field(fieldName, bitOffset, bitLength, Printer.UINT);
        }

        public Builder hex(String fieldName, int bitOffset, int bitLength) {
            return field(fieldName, bitOffset, bitLength, Printer.HEX);
        }

        public Builder array(String fieldName, int bitOffset, int bitLength) {
            return field(fieldName, bitOffset, bitLength, Printer.ARRAY);
        }

        /** Adds a field the codec knows but the dump does not print. */
        public Builder hidden(String fieldName, int bitOffset, int bitLength, Printer printer) {
            fields.add(new Field(fieldName, bitOffset, bitLength, printer));
            return this;
        }

        /**
         * Adds a line to the dump alone: a field libibmad prints from other bits than the specification gives
         * it. The codec does not know it.
         */
        public Builder dumpOnly(String fieldName, int bitOffset, int bitLength, Printer printer) {
            dump.add(new Field(fieldName, bitOffset, bitLength, printer));
            return this;
        }

        /** Adds every field of {@code inner} moved {@code bitOffset} bits in (records holding an attribute). */
        public Builder include(Layout inner, int bitOffset) {
            List<Field> moved = new ArrayList<>();
            for (Field f : inner.fields) {
                moved.add(new Field(f.name(), f.bitOffset() + bitOffset, f.bitLength(), f.printer()));
            }
            for (Field f : inner.dumpFields) {
                Field m = new Field(f.name(), f.bitOffset() + bitOffset, f.bitLength(), f.printer());
                dump.add(m);
            }
            fields.addAll(moved);
            return this;
        }

        public Layout build() {
            BitSet used = new BitSet(size * 8);
            Map<String, Field> seen = new HashMap<>();
            for (Field f : fields) {
                if (seen.put(f.name(), f) != null) {
                    throw new IllegalStateException(name + ": two fields named " + f.name());
                }
                check(f);
                if (used.get(f.bitOffset(), f.bitOffset() + f.bitLength()).cardinality() != 0) {
                    throw new IllegalStateException(name + "." + f.name() + " overlaps another field");
                }
                used.set(f.bitOffset(), f.bitOffset() + f.bitLength());
            }
            for (Field f : dump) {
                check(f);
            }
            return new Layout(name, size, fields, dump);
        }

        private void check(Field f) {
            if (f.bitOffset() + f.bitLength() > size * 8) {
                throw new IllegalStateException(name + "." + f.name() + " runs past the layout's " + size
                        + " bytes");
            }
        }
    }
}
