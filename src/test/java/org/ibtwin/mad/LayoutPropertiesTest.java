package org.ibtwin.mad;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/** Every layout: round trips both ways, bit isolation, and the errors for bad buffers and values. */
class LayoutPropertiesTest {

    record Sample(Layout layout, Map<String, Object> values) {
        @Override
        public String toString() {
            return layout.name();
        }
    }

    record Bytes(Layout layout, byte[] bytes) {
        @Override
        public String toString() {
            return layout.name() + " " + java.util.HexFormat.of().formatHex(bytes);
        }
    }

    static Arbitrary<Object> valueOf(Field f) {
        if (f.isArray()) {
            return Arbitraries.bytes().array(byte[].class).ofSize(f.bitLength() / 8).map(b -> b);
        }
        if (f.bitLength() == 64) {
            return Arbitraries.longs().map(v -> v);
        }
        return Arbitraries.longs().between(0, f.maxValue()).map(v -> v);
    }

    static Arbitrary<Map<String, Object>> valuesOf(Layout l) {
        List<Arbitrary<Object>> parts = new ArrayList<>();
        for (Field f : l.fields()) {
            parts.add(valueOf(f));
        }
        return Combinators.combine(parts).as(vs -> {
            Map<String, Object> m = new LinkedHashMap<>();
            for (int i = 0; i < vs.size(); i++) {
                m.put(l.fields().get(i).name(), vs.get(i));
            }
            return m;
        });
    }

    @Provide
    Arbitrary<Layout> layouts() {
        return Arbitraries.of(Attributes.all());
    }

    @Provide
    Arbitrary<Sample> samples() {
        return layouts().flatMap(l -> valuesOf(l).map(v -> new Sample(l, v)));
    }

    @Provide
    Arbitrary<Bytes> randomBytes() {
        return layouts().flatMap(l -> Arbitraries.bytes().array(byte[].class).ofSize(l.size())
                .map(b -> new Bytes(l, b)));
    }

    static void assertSameValues(Layout l, Map<String, Object> actual, Map<String, Object> expected) {
        assertThat(actual.keySet()).containsExactlyElementsOf(expected.keySet());
        for (Map.Entry<String, Object> e : expected.entrySet()) {
            Object a = actual.get(e.getKey());
            if (e.getValue() instanceof byte[] b) {
                assertThat((byte[]) a).as(l.name() + "." + e.getKey()).isEqualTo(b);
            } else {
                assertThat(a).as(l.name() + "." + e.getKey()).isEqualTo(e.getValue());
            }
        }
    }

    @Property(tries = 600)
    void encodeThenDecodeGivesTheValuesBack(@ForAll("samples") Sample s) {
        byte[] buf = s.layout().encode(s.values());
        assertThat(buf).hasSize(s.layout().size());
        assertSameValues(s.layout(), s.layout().decode(buf), s.values());
        for (Field f : s.layout().fields()) {
            Object v = s.values().get(f.name());
            if (f.isArray()) {
                assertThat(s.layout().getBytes(buf, 0, f)).isEqualTo((byte[]) v);
            } else {
                assertThat(s.layout().get(buf, 0, f)).isEqualTo(v);
                assertThat(f.get(buf, 0)).isEqualTo(v);
            }
        }
    }

    @Property(tries = 600)
    void decodeThenEncodeGivesTheBytesBackLessReservedBits(@ForAll("randomBytes") Bytes b) {
        Layout l = b.layout();
        byte[] again = l.encode(l.decode(b.bytes()));
        assertThat(again).isEqualTo(Coverage.clearReserved(l, b.bytes(), 0));
        // and the dump never fails on any bytes
        assertThat(l.dump(b.bytes(), 0)).isNotNull();
    }

    @Property(tries = 400)
    void encodingAtAnOffsetTouchesOnlyTheAttribute(@ForAll("samples") Sample s,
            @ForAll @IntRange(max = 300) int offset, @ForAll @IntRange(max = 40) int tail, @ForAll byte fill) {
        Layout l = s.layout();
        byte[] buf = new byte[offset + l.size() + tail];
        Arrays.fill(buf, fill);
        l.encode(s.values(), buf, offset);
        assertThat(Arrays.copyOfRange(buf, offset, offset + l.size())).isEqualTo(l.encode(s.values()));
        for (int i = 0; i < buf.length; i++) {
            if (i < offset || i >= offset + l.size()) {
                assertThat(buf[i]).isEqualTo(fill);
            }
        }
        assertSameValues(l, l.decode(buf, offset), s.values());
    }

    @Property(tries = 600)
    void settingOneFieldLeavesEveryOtherBitAlone(@ForAll("randomBytes") Bytes b, @ForAll long random,
            @ForAll @IntRange(max = 10_000) int pick) {
        Layout l = b.layout();
        Field f = l.fields().get(pick % l.fields().size());
        byte[] buf = b.bytes().clone();
        if (f.isArray()) {
            byte[] v = new byte[f.bitLength() / 8];
            Arrays.fill(v, (byte) random);
            l.setBytes(buf, 0, f, v);
            assertThat(l.getBytes(buf, 0, f)).isEqualTo(v);
        } else {
            long v = f.bitLength() == 64 ? random : random & f.maxValue();
            l.set(buf, 0, f, v);
            assertThat(l.get(buf, 0, f)).isEqualTo(v);
        }
        for (int bit = 0; bit < l.size() * 8; bit++) {
            if (bit < f.bitOffset() || bit >= f.bitOffset() + f.bitLength()) {
                assertThat(bitAt(buf, bit)).as("bit " + bit).isEqualTo(bitAt(b.bytes(), bit));
            }
        }
    }

    static int bitAt(byte[] buf, int bit) {
        return (buf[bit >>> 3] >>> (7 - (bit & 7))) & 1;
    }

    // ---- errors

    @Property(tries = 300)
    void truncatedBuffersAreRejectedNamingTheLayout(@ForAll("layouts") Layout l, @ForAll @IntRange(max = 255) int n,
            @ForAll @IntRange(max = 64) int offset) {
        int len = n % l.size();
        byte[] shortBuf = new byte[len];
        assertThatThrownBy(() -> l.decode(shortBuf))
                .isInstanceOf(MadFormatException.class)
                .hasMessageStartingWith(l.name() + ": wrong buffer size")
                .hasMessageContaining(Integer.toString(l.size()));
        assertThatThrownBy(() -> l.decode(shortBuf, 0))
                .isInstanceOf(MadFormatException.class)
                .hasMessageStartingWith(l.name() + ": buffer truncated");
        // an offset that leaves too little room
        byte[] buf = new byte[l.size() + offset];
        int bad = offset + 1 + n % 8;
        assertThatThrownBy(() -> l.decode(buf, bad)).isInstanceOf(MadFormatException.class)
                .hasMessageContaining(l.name());
        assertThatThrownBy(() -> l.dump(buf, bad)).isInstanceOf(MadFormatException.class);
        assertThatThrownBy(() -> l.decode(buf, -1 - n)).isInstanceOf(MadFormatException.class);
        Field f = l.fields().get(n % l.fields().size());
        if (f.isArray()) {
            assertThatThrownBy(() -> l.getBytes(shortBuf, 0, f)).isInstanceOf(MadFormatException.class)
                    .hasMessageContaining(l.name());
            assertThatThrownBy(() -> f.getBytes(new byte[f.byteEnd() - 1], 0)).isInstanceOf(MadFormatException.class)
                    .hasMessageContaining(f.name());
        } else {
            assertThatThrownBy(() -> l.get(shortBuf, 0, f)).isInstanceOf(MadFormatException.class)
                    .hasMessageContaining(l.name());
            assertThatThrownBy(() -> l.set(shortBuf, 0, f, 0)).isInstanceOf(MadFormatException.class);
            assertThatThrownBy(() -> f.get(new byte[f.byteEnd() - 1], 0)).isInstanceOf(MadFormatException.class)
                    .hasMessageContaining(f.name());
            assertThatThrownBy(() -> f.get(new byte[f.byteEnd()], 1)).isInstanceOf(MadFormatException.class);
        }
        if (len > 0) {
            assertThatThrownBy(() -> l.encode(Map.of(), shortBuf, 0)).isInstanceOf(MadFormatException.class);
        }
    }

    @Property(tries = 400)
    void oversizedBuffersAreTheWrongSizeToo(@ForAll("layouts") Layout l, @ForAll @IntRange(min = 1, max = 64) int extra) {
        assertThatThrownBy(() -> l.decode(new byte[l.size() + extra]))
                .isInstanceOf(MadFormatException.class).hasMessageContaining("wrong buffer size");
        assertThat(l.decode(new byte[l.size() + extra], extra)).hasSize(l.fields().size());
    }

    @Property(tries = 600)
    void valuesTooLargeForTheirBitsAreRejectedNamingLayoutAndField(@ForAll("samples") Sample s,
            @ForAll @IntRange(max = 10_000) int pick, @ForAll long big) {
        Layout l = s.layout();
        List<Field> narrow = l.fields().stream().filter(f -> !f.isArray() && f.bitLength() < 64).toList();
        if (narrow.isEmpty()) {
            return;
        }
        Field f = narrow.get(pick % narrow.size());
        long bad = big >= 0 && big <= f.maxValue() ? big + f.maxValue() + 1 : big;
        Map<String, Object> values = new LinkedHashMap<>(s.values());
        values.put(f.name(), bad);
        assertThatThrownBy(() -> l.encode(values))
                .isInstanceOf(MadFormatException.class)
                .hasMessageStartingWith(l.name() + "." + f.name() + ": value " + bad)
                .hasMessageContaining(f.bitLength() + " bits");
        byte[] buf = new byte[l.size()];
        byte[] before = buf.clone();
        assertThatThrownBy(() -> l.encode(values, buf, 0)).isInstanceOf(MadFormatException.class);
        assertThat(buf).as("a rejected encode writes nothing").isEqualTo(before);
        assertThatThrownBy(() -> l.set(buf, 0, f, bad)).isInstanceOf(MadFormatException.class)
                .hasMessageContaining(l.name()).hasMessageContaining(f.name());
        assertThatThrownBy(() -> f.set(buf, 0, bad)).isInstanceOf(MadFormatException.class)
                .hasMessageContaining(f.name());
        assertThat(buf).isEqualTo(before);
    }

    @Property(tries = 200)
    void wrongKindsOfValuesAreRejected(@ForAll("layouts") Layout l, @ForAll @IntRange(max = 10_000) int pick) {
        Field f = l.fields().get(pick % l.fields().size());
        assertThatThrownBy(() -> l.encode(Map.of("NoSuchField" + pick, 1)))
                .isInstanceOf(MadFormatException.class).hasMessageContaining(l.name()).hasMessageContaining("no such");
        if (f.isArray()) {
            assertThatThrownBy(() -> l.encode(Map.of(f.name(), new byte[f.bitLength() / 8 + 1])))
                    .isInstanceOf(MadFormatException.class).hasMessageContaining(f.name());
            assertThatThrownBy(() -> l.encode(Map.of(f.name(), "x".repeat(f.bitLength() / 8 + 1))))
                    .isInstanceOf(MadFormatException.class);
            assertThatThrownBy(() -> l.get(new byte[l.size()], 0, f)).isInstanceOf(MadFormatException.class);
        } else {
            assertThatThrownBy(() -> l.encode(Map.of(f.name(), "7")))
                    .isInstanceOf(MadFormatException.class).hasMessageContaining(f.name());
            assertThatThrownBy(() -> l.encode(Map.of(f.name(), 1.5)))
                    .isInstanceOf(MadFormatException.class);
            assertThatThrownBy(() -> l.getBytes(new byte[l.size()], 0, f)).isInstanceOf(MadFormatException.class);
        }
    }
}
