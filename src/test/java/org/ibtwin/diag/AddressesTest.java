package org.ibtwin.diag;

import static org.assertj.core.api.Assertions.assertThat;

import org.ibtwin.mad.PortId;
import org.junit.jupiter.api.Test;

/** The tools' way of reading numbers and destinations, quirks included (each case checked against smpquery 44). */
class AddressesTest {
    @Test
    void numbersReadAsStrtolReadsThem() {
        assertThat(Addresses.number("17")).isEqualTo(17);
        assertThat(Addresses.number("0x1f")).isEqualTo(31);
        assertThat(Addresses.number("0X1F")).isEqualTo(31);
        assertThat(Addresses.number("017")).isEqualTo(15);
        assertThat(Addresses.number("08")).isZero();          // octal: the 8 ends it
        assertThat(Addresses.number("4x")).isEqualTo(4);
        assertThat(Addresses.number("0x")).isZero();
        assertThat(Addresses.number("  -3")).isEqualTo(-3);
        assertThat(Addresses.number("abc")).isZero();
        assertThat(Addresses.number("")).isZero();
        assertThat(Addresses.number("99999999999999999999999")).isEqualTo(Long.MAX_VALUE);
        assertThat(Addresses.strtol("12ab").end()).isEqualTo(2);
        assertThat(Addresses.strtol("12").whole("12")).isTrue();
        assertThat(Addresses.strtol("x").whole("x")).isFalse();
        assertThat(Addresses.unsigned("0xffffffffffffffff")).isEqualTo(-1L);
        assertThat(Addresses.unsigned("0x2C9000100D051")).isEqualTo(0x2C9000100D051L);
        assertThat(Addresses.atoi(" 12x")).isEqualTo(12);
        assertThat(Addresses.atoi("x")).isZero();
    }

    @Test
    void lidsMustBeUnicast() {
        assertThat(Addresses.lid("3")).contains(PortId.lid(3));
        assertThat(Addresses.lid("0x4")).contains(PortId.lid(4));
        assertThat(Addresses.lid("04")).contains(PortId.lid(4));
        assertThat(Addresses.lid("0xbfff")).contains(PortId.lid(0xbfff));
        assertThat(Addresses.lid("0")).isEmpty();
        assertThat(Addresses.lid("abc")).isEmpty();
        assertThat(Addresses.lid("0xc000")).isEmpty();
        assertThat(Addresses.lid("-1")).isEmpty();
    }

    @Test
    void directedPathsAsStr2drpathReadsThem() {
        assertThat(Addresses.directed("0,1,3")).contains(PortId.directed(0, 1, 3));
        assertThat(Addresses.directed("0")).contains(PortId.directed(0));
        assertThat(Addresses.directed("1")).contains(PortId.directed(1));       // hop count 0, entry 0 as typed
        assertThat(Addresses.directed(",1")).contains(PortId.directed(0, 1));
        assertThat(Addresses.directed("0,x")).contains(PortId.directed(0, 0));
        assertThat(Addresses.directed("0,1,")).contains(PortId.directed(0, 1));
        assertThat(Addresses.directed("0,,1")).contains(PortId.directed(0, 0, 1));
        assertThat(Addresses.directed("0,257")).contains(PortId.directed(0, 1));
        assertThat(Addresses.directed("")).isEmpty();
        assertThat(Addresses.directed("0,1,3").orElseThrow().toString())
                .isEqualTo("DR path slid 65535; dlid 65535; 0,1,3");
    }

    @Test
    void combinedRoutesStartAtALid() {
        PortId c = Addresses.combined("3", "0,1", 7).orElseThrow();
        assertThat(c.lid()).isEqualTo(3);
        assertThat(c.drSlid()).isEqualTo(7);
        assertThat(c.drDlid()).isEqualTo(PortId.PERMISSIVE_LID);
        assertThat(c.path()).containsExactly(0, 1);
        assertThat(c.toString()).isEqualTo("Lid 3 DR path slid 7; dlid 65535; 0,1");
        assertThat(Addresses.combined("1", "0", 7).orElseThrow().toString()).isEqualTo("Lid 1");
        assertThat(Addresses.combined("0", "0,1", 7)).isEmpty();
        assertThat(Addresses.combined("3", null, 7).orElseThrow().path()).containsExactly(0);
    }

    @Test
    void guids() {
        assertThat(Addresses.guid("0x0002c90300000001")).hasValue(0x0002c90300000001L);
        assertThat(Addresses.guid("0")).isEmpty();
        assertThat(Addresses.guid("zz")).isEmpty();
    }
}
