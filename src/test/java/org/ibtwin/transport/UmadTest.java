package org.ibtwin.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The user_mad ABI's bytes, sysfs as libibumad reads it, and what the transport says when a port cannot be used. */
class UmadTest {
    /** A sysfs tree and device nodes in memory; open fails with {@code openErrno} unless 0. */
    static final class FakeLibc implements UmadLibc {
        final Map<String, String> files = new TreeMap<>();
        final List<byte[]> written = new ArrayList<>();
        int openErrno;
        /** libibumad's umad_size() in the process (libumad2sim's layout), null: libibumad not loaded. */
        Integer umadSize;

        FakeLibc hca(String ca, int port, int umad, long nodeGuid, String lid) {
            files.put(UmadSysfs.CLASS + "/" + ca + "/node_guid", guid(nodeGuid) + "\n");
            String p = UmadSysfs.CLASS + "/" + ca + "/ports/" + port + "/";
            files.put(p + "lid", lid + "\n");
            files.put(p + "sm_lid", "0x1\n");
            files.put(p + "lid_mask_count", "0\n");
            files.put(p + "state", "4: ACTIVE\n");
            files.put(p + "cap_mask", "0x2651e84a\n");
            files.put(p + "gids/0", "fe80:0000:0000:0000:" + guid(nodeGuid + port) + "\n");
            files.put(UmadSysfs.MAD_CLASS + "/umad" + umad + "/ibdev", ca + "\n");
            files.put(UmadSysfs.MAD_CLASS + "/umad" + umad + "/port", port + "\n");
            files.put(UmadSysfs.MAD_CLASS + "/abi_version", "5\n");
            return this;
        }

        static String guid(long g) {
            String h = String.format("%016x", g);
            return h.substring(0, 4) + ":" + h.substring(4, 8) + ":" + h.substring(8, 12) + ":" + h.substring(12);
        }

        @Override
        public int open(String path, int flags) throws CallFailed {
            if (openErrno != 0) {
                throw new CallFailed("open " + path + ": " + (openErrno == EACCES ? "Permission denied"
                        : "errno " + openErrno), openErrno);
            }
            return 7;
        }

        @Override
        public void close(int fd) {
        }

        @Override
        public void ioctl(int fd, long request, byte[] arg) {
        }

        @Override
        public void ioctl(int fd, long request) {
        }

        @Override
        public int write(int fd, byte[] data, int length) {
            written.add(java.util.Arrays.copyOf(data, length));
            return length;
        }

        @Override
        public Integer umadSize() {
            return umadSize;
        }

        @Override
        public int read(int fd, byte[] buf, int timeoutMillis) {
            return 0;
        }

        @Override
        public String readFile(String path) {
            return files.get(path);
        }

        @Override
        public List<String> list(String dir) {
            List<String> names = new ArrayList<>();
            String prefix = dir + "/";
            for (String f : files.keySet()) {
                if (f.startsWith(prefix)) {
                    String rest = f.substring(prefix.length());
                    String name = rest.contains("/") ? rest.substring(0, rest.indexOf('/')) : rest;
                    if (!names.contains(name)) {
                        names.add(name);
                    }
                }
            }
            return names.isEmpty() ? null : names;
        }

        @Override
        public String boundIn(String symbol) {
            return "fake";
        }

        @Override
        public String lookup() {
            return "fake";
        }
    }

    @Test
    void theHeaderIsTheKernelsOldLayoutWithBigEndianAddressFields() {
        byte[] mad = new byte[256];
        mad[0] = 1;
        byte[] m = UmadAbi.encode(UmadAbi.Header.send(3, MadAddress.gsi(0xbeef), 250), mad);
        assertThat(m).hasSize(56 + 256);
        ByteBuffer le = ByteBuffer.wrap(m).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(le.getInt(0)).isEqualTo(3);
        assertThat(le.getInt(8)).isEqualTo(250);
        ByteBuffer be = ByteBuffer.wrap(m);
        assertThat(be.getInt(20)).isEqualTo(1);
        assertThat(be.getInt(24)).isEqualTo(0x80010000);
        assertThat(be.getShort(28) & 0xffff).isEqualTo(0xbeef);
        assertThat(m[56]).isEqualTo((byte) 1);
        UmadAbi.Header back = UmadAbi.decode(m);
        assertThat(back.from()).isEqualTo(new MadAddress(0xbeef, 1, 0x80010000, 0, 0));
    }

    @Test
    void ioctlNumbersAndTheRegisterRequest() {
        assertThat(UmadAbi.REGISTER_AGENT).isEqualTo(0xc01c1b01L);
        assertThat(UmadAbi.UNREGISTER_AGENT).isEqualTo(0x40041b02L);
        byte[] r = UmadAbi.registerRequest(1, 0x03, 2, 0x01, 0x12, 0x7f);
        assertThat(r).hasSize(28);
        assertThat(r[4]).isEqualTo((byte) 0x02);          // method 1
        assertThat(r[4 + 2]).isEqualTo((byte) 0x04);      // method 0x12 = 18: byte 2, bit 2
        assertThat(r[4 + 15]).isEqualTo((byte) 0x80);     // method 127
        assertThat(r[20]).isEqualTo((byte) 1);
        assertThat(r[21]).isEqualTo((byte) 0x03);
        assertThat(r[22]).isEqualTo((byte) 2);
        assertThat(r[26]).isZero();
    }

    @Test
    void sysfsGivesPortsAndTheLocalPortWithRealGuids() throws Exception {
        FakeLibc libc = new FakeLibc().hca("mlx5_0", 1, 0, 0xec0d9a0300ec8480L, "0x1b")
                .hca("mlx5_1", 1, 1, 0xb8599f0300aa0010L, "0x1c");
        UmadSysfs s = new UmadSysfs(libc);
        assertThat(s.cas()).containsExactly("mlx5_0", "mlx5_1");
        UmadSysfs.Port p = s.find("mlx5_1", null);
        assertThat(p.device()).isEqualTo("/dev/infiniband/umad1");
        LocalPort lp = s.localPort(p, false);
        assertThat(lp.nodeGuid()).isEqualTo(0xb8599f0300aa0010L);
        assertThat(lp.portGuid()).isEqualTo(0xb8599f0300aa0011L);
        assertThat(lp.lid()).isEqualTo(0x1c);
        assertThat(lp.state()).isEqualTo(4);
        assertThat(s.find(null, null).ca()).isEqualTo("mlx5_0");
    }

    @Test
    void aMissingCaOrPortOrAForbiddenDeviceIsOneLine() {
        FakeLibc libc = new FakeLibc().hca("mlx5_0", 1, 0, 0xec0d9a0300ec8480L, "0x1b");
        assertThatThrownBy(() -> UmadTransport.open(libc, "mlx5_9", null, false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("CA mlx5_9 not found (this host has mlx5_0)");
        assertThatThrownBy(() -> UmadTransport.open(libc, "mlx5_0", 2, false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("CA mlx5_0 has no port 2 (its ports: 1)");
        libc.openErrno = UmadLibc.EACCES;
        assertThatThrownBy(() -> UmadTransport.open(libc, null, null, false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("open /dev/infiniband/umad0: Permission denied (the umad devices need root or the "
                        + "rdma group)");
        assertThatThrownBy(() -> UmadTransport.open(new FakeLibc(), "mlx5_9", null, false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("CA mlx5_9 not found: no InfiniBand port with a umad device here "
                        + "(/sys/class/infiniband_mad lists none)");
    }

    @Test
    void gmpsGoOutAtTheIndexOfTheirPkeyInThePortsTableWithTheKernelsPkeyHeader() {
        FakeLibc libc = new FakeLibc().hca("mlx5_0", 1, 0, 0xec0d9a0300a45e10L, "0x1b");
        String pk = UmadSysfs.CLASS + "/mlx5_0/ports/1/pkeys/";
        libc.files.put(pk + "0", "0xffff\n");
        libc.files.put(pk + "1", "0x0000\n");
        libc.files.put(pk + "2", "0x0001\n");   // 0x8001's limited member
        libc.files.put(pk + "3", "0x8001\n");   // ... and its full member, preferred
        libc.files.put(pk + "4", "0x0002\n");
        try (UmadTransport t = UmadTransport.open(libc, null, null, false)) {
            assertThat(t.headerSize()).isEqualTo(UmadAbi.PKEY_HDR_SIZE);   // ENABLE_PKEY taken, no libibumad here
            assertThat(t.usePkey(0x8001)).isEqualTo(3);
            assertThat(t.usePkey(0x0001)).isEqualTo(3);
            assertThat(t.usePkey(0x8002)).isEqualTo(4);
            assertThat(t.usePkey(0x7fff)).isZero();
            assertThatThrownBy(() -> t.usePkey(0x8003)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("P_Key 0x8003 is not in mlx5_0 port 1's P_Key table ("
                            + UmadSysfs.CLASS + "/mlx5_0/ports/1/pkeys)");
            t.usePkey(0x8001);
            byte[] gmp = new byte[256];
            gmp[0] = 1;
            gmp[1] = 0x04;   // PerfMgt
            gmp[2] = 1;
            gmp[3] = 1;
            t.send(gmp, MadAddress.gsi(0x22));
            byte[] smp = IbsimRoundTripBench.drNodeInfo(7, 0);
            t.send(smp, MadAddress.directed());
            byte[] g = libc.written.get(0);
            assertThat(g).hasSize(64 + 256);
            assertThat(ByteBuffer.wrap(g).order(ByteOrder.nativeOrder()).getShort(56)).isEqualTo((short) 3);
            assertThat(g[64 + 1]).isEqualTo((byte) 0x04);
            assertThat(UmadAbi.decode(g, 64).pkeyIndex()).isEqualTo(3);
            byte[] s = libc.written.get(1);   // an SMP on QP0 keeps index 0
            assertThat(ByteBuffer.wrap(s).order(ByteOrder.nativeOrder()).getShort(56)).isZero();
        }
        // libumad2sim: the layout libibumad's umad_size() gives, 56 bytes, which has no index to carry
        libc.umadSize = 56;
        libc.written.clear();
        try (UmadTransport t = UmadTransport.open(libc, null, null, false)) {
            assertThat(t.headerSize()).isEqualTo(UmadAbi.HDR_SIZE);
            assertThat(t.usePkey(0xffff)).isZero();
            assertThatThrownBy(() -> t.usePkey(0x8001)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("is at index 3 of mlx5_0 port 1's table, but /dev/infiniband/umad0 takes "
                            + "no P_Key index (its header is the 56-byte one)");
        }
    }
}
