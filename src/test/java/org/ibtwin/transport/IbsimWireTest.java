package org.ibtwin.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** The byte layouts of ibsim's datagrams. */
class IbsimWireTest {

    @Test
    void controlMessageIs80HostOrderBytes() {
        byte[] m = IbsimWire.encodeCtl(7, IbsimWire.TYPE_GET_PORTINFO, new byte[] {5});
        assertThat(m).hasSize(80);
        assertThat(Arrays.copyOfRange(m, 0, 17)).containsExactly(
                0xef, 0xbe, 0xad, 0xde,   // magic, little-endian
                7, 0, 0, 0,               // client id
                8, 0, 0, 0,               // type GET_PORTINFO
                1, 0, 0, 0,               // len
                5);                       // data[0]: port number
        IbsimWire.Ctl back = IbsimWire.decodeCtl(m, m.length);
        assertThat(back.clientId()).isEqualTo(7);
        assertThat(back.type()).isEqualTo(8);
        assertThat(back.data()).hasSize(64).startsWith(5);
    }

    @Test
    void badControlMessagesAreRejected() {
        byte[] m = IbsimWire.encodeCtl(0, 1, new byte[0]);
        assertThatThrownBy(() -> IbsimWire.decodeCtl(m, 79)).isInstanceOf(IllegalArgumentException.class);
        m[0] = 0;
        assertThatThrownBy(() -> IbsimWire.decodeCtl(m, 80)).hasMessageContaining("magic");
        assertThatThrownBy(() -> IbsimWire.encodeCtl(0, 1, new byte[65])).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void clientInfoIs44Bytes() {
        byte[] d = IbsimWire.encodeClientInfo(new IbsimWire.ClientInfo(0x1234, 0, true, "Hca1"));
        assertThat(d).hasSize(44);
        assertThat(Arrays.copyOfRange(d, 0, 17)).containsExactly(0x34, 0x12, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,
                'H', 'c', 'a', '1', 0);
        assertThat(IbsimWire.decodeClientInfo(Arrays.copyOf(d, 64)))
                .isEqualTo(new IbsimWire.ClientInfo(0x1234, 0, true, "Hca1"));
        String full = "x".repeat(31);
        assertThat(IbsimWire.decodeClientInfo(Arrays.copyOf(
                IbsimWire.encodeClientInfo(new IbsimWire.ClientInfo(1, 0, false, full)), 64)).nodeId()).isEqualTo(full);
    }

    @Test
    void madMessageIs288BytesWithTheMadAt32() {
        byte[] mad = new byte[256];
        mad[0] = 1;
        mad[255] = 9;
        byte[] d = IbsimWire.encodeRequest(new IbsimWire.Header(0xabcd, 0x0001, 0x010203, 1, 110, 256), mad);
        assertThat(d).hasSize(288);
        assertThat(Arrays.copyOfRange(d, 0, 32)).containsExactly(
                0xab, 0xcd, 0, 0, 0x00, 0x01, 0, 0, 0, 1, 2, 3, 0, 0, 0, 1, 0, 0, 0, 110, 0, 0, 0, 0,
                0, 0, 0, 0, 0, 0, 1, 0);
        assertThat(d[32]).isEqualTo((byte) 1);
        assertThat(d[287]).isEqualTo((byte) 9);
        assertThatThrownBy(() -> IbsimWire.decodeHeader(d, 287)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> IbsimWire.encodeRequest(new IbsimWire.Header(0, 0, 0, 0, 0, 0), new byte[255]))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Property
    void headersRoundTrip(@ForAll @IntRange(max = 0xffff) int dlid, @ForAll @IntRange(max = 0xffff) int slid,
                          @ForAll int dqp, @ForAll int sqp, @ForAll int status, @ForAll long length,
                          @ForAll byte fill) {
        byte[] mad = new byte[256];
        Arrays.fill(mad, fill);
        IbsimWire.Header h = new IbsimWire.Header(dlid, slid, dqp, sqp, status, length);
        byte[] d = IbsimWire.encodeRequest(h, mad);
        assertThat(IbsimWire.decodeHeader(d, d.length)).isEqualTo(h);
        assertThat(IbsimWire.mad(d)).isEqualTo(mad);
    }

    @Property
    void serverTidKeepsTheLow48Bits(@ForAll long tid, @ForAll @IntRange(max = 9) int slot) {
        long t = IbsimWire.serverTid(tid, slot);
        assertThat(t >>> 48).isEqualTo(slot);
        assertThat(t << 16).isEqualTo(tid << 16);
    }
}
