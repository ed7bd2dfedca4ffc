package org.ibtwin.diag;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.ibtwin.format.tools.HostOutputs;
import org.ibtwin.mad.SmpAttributes;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.LinkWidth;
import org.ibtwin.model.PortState;
import org.junit.jupiter.api.Test;

/**
 * The local device's sysfs strings (the kernel's and umad2sim's), GIDs as inet_ntop prints them, ibportstate's
 * argument checks, and the host tools' output read back by the doctor's readers.
 */
class HostToolsTest {
    private static byte[] nodeInfo(int type, int ports) {
        byte[] ni = new byte[64];
        SmpAttributes.NODE_INFO.set(ni, 0, "NodeType", type);
        SmpAttributes.NODE_INFO.set(ni, 0, "NumPorts", ports);
        SmpAttributes.NODE_INFO.set(ni, 0, "Guid", 0x0002c90300000002L);
        SmpAttributes.NODE_INFO.set(ni, 0, "SystemGuid", 0x0002c90300000002L);
        SmpAttributes.NODE_INFO.set(ni, 0, "PortGuid", 0x0002c90300000003L);
        SmpAttributes.NODE_INFO.set(ni, 0, "DevId", 0x101b);
        SmpAttributes.NODE_INFO.set(ni, 0, "VendorId", 0x2c9);
        SmpAttributes.NODE_INFO.set(ni, 0, "LocalPort", 1);
        return ni;
    }

    /** PortInfo with the given width code and speed (ext: LinkSpeedExtActive, 0 for none). */
    private static byte[] portInfo(int widthCode, int speed, int ext) {
        byte[] pi = new byte[64];
        SmpAttributes.PORT_INFO.set(pi, 0, "GidPrefix", 0xfe80_0000_0000_0000L);
        SmpAttributes.PORT_INFO.set(pi, 0, "Lid", 6);
        SmpAttributes.PORT_INFO.set(pi, 0, "SMLid", 1);
        SmpAttributes.PORT_INFO.set(pi, 0, "CapMask", ext != 0 ? 0x0250_4848L : 0x0250_0848L);
        SmpAttributes.PORT_INFO.set(pi, 0, "LinkWidthActive", widthCode);
        SmpAttributes.PORT_INFO.set(pi, 0, "LinkSpeedActive", speed);
        SmpAttributes.PORT_INFO.set(pi, 0, "LinkSpeedExtActive", ext);
        SmpAttributes.PORT_INFO.set(pi, 0, "LinkState", 4);
        SmpAttributes.PORT_INFO.set(pi, 0, "PhysLinkState", 5);
        SmpAttributes.PORT_INFO.set(pi, 0, "NeighborMTU", 5);
        SmpAttributes.PORT_INFO.set(pi, 0, "MtuCap", 5);
        return pi;
    }

    private static LocalDevice device(LocalDevice.View view, int widthCode, int speed, int ext) {
        return new LocalDevice(view == LocalDevice.View.KERNEL ? "mlx5_0" : "ibsim0", view, nodeInfo(1, 1),
                List.of(new LocalDevice.Port(1, portInfo(widthCode, speed, ext), 0x0002c90300000003L)));
    }

    @Test
    void ratesAsTheKernelAndAsUmad2simWriteThem() {
        LocalDevice.View k = LocalDevice.View.KERNEL;
        LocalDevice.View u = LocalDevice.View.UMAD2SIM;
        assertThat(rate(k, 2, 1, 0)).isEqualTo("10 Gb/sec (4X)");
        assertThat(rate(k, 1, 1, 0)).isEqualTo("2.5 Gb/sec (1X)");
        assertThat(rate(k, 2, 4, 0)).isEqualTo("40 Gb/sec (4X QDR)");
        assertThat(rate(k, 2, 1, 1)).isEqualTo("56 Gb/sec (4X FDR)");
        assertThat(rate(k, 2, 1, 2)).isEqualTo("100 Gb/sec (4X EDR)");
        assertThat(rate(k, 2, 1, 4)).isEqualTo("200 Gb/sec (4X HDR)");
        assertThat(rate(k, 8, 1, 8)).isEqualTo("1200 Gb/sec (12X NDR)");
        assertThat(rate(u, 2, 1, 0)).isEqualTo("10 Gb/sec (4X)");
        assertThat(rate(u, 2, 2, 0)).isEqualTo("20 Gb/sec (4X DDR)");
        assertThat(rate(u, 2, 1, 4)).isEqualTo("104 Gb/sec (4X HDR)");
        assertThat(rate(u, 2, 1, 1)).isEqualTo("56 Gb/sec (4X FDR)");
    }

    private static String rate(LocalDevice.View v, int w, int s, int e) {
        LocalDevice d = device(v, w, s, e);
        return d.rate(d.ports().get(0));
    }

    @Test
    void outputsReadBackByTheDoctorsReaders() {
        LocalDevice d = device(LocalDevice.View.KERNEL, 2, 1, 4);
        String ibstat = HostTools.ibstat(d, false);
        assertThat(ibstat).startsWith("CA 'mlx5_0'\n\tCA type: MT4123\n\tNumber of ports: 1\n")
                .contains("\t\tRate: 200\n\t\tBase lid: 6\n").endsWith("\t\tLink layer: InfiniBand\n");
        HostOutputs.Hca a = HostOutputs.ibstat(ibstat, "ibstat").get(0);
        assertThat(a.name()).isEqualTo("mlx5_0");
        assertThat(a.device()).isEqualTo("MT4123");
        assertThat(a.nodeGuid()).isEqualTo(0x0002c90300000002L);
        assertThat(a.ports().get(0).state()).isEqualTo(PortState.ACTIVE);
        assertThat(a.ports().get(0).rateGbps()).isEqualTo(200.0);
        assertThat(a.ports().get(0).lid()).isEqualTo(6);

        String status = HostTools.ibstatus(d, d.ports());
        assertThat(status).isEqualTo("Infiniband device 'mlx5_0' port 1 status:\n"
                + "\tdefault gid:\t fe80:0000:0000:0000:0002:c903:0000:0003\n\tbase lid:\t 0x6\n"
                + "\tsm lid:\t\t 0x1\n\tstate:\t\t 4: ACTIVE\n\tphys state:\t 5: LinkUp\n"
                + "\trate:\t\t 200 Gb/sec (4X HDR)\n\tlink_layer:\t InfiniBand\n\n");
        HostOutputs.HcaPort p = HostOutputs.ibstatus(status, "ibstatus").get(0).ports().get(0);
        assertThat(p.width()).isEqualTo(LinkWidth.X4);
        assertThat(p.speed()).isEqualTo(LinkSpeed.HDR);
        assertThat(p.portGuid()).isEqualTo(0x0002c90300000003L);

        String devinfo = HostTools.ibvDevinfo(d, 0);
        assertThat(devinfo).contains("\tvendor_part_id:\t\t\t4123\n", "\t\t\tstate:\t\t\tPORT_ACTIVE (4)\n",
                "\t\t\tactive_mtu:\t\t4096 (5)\n");
        HostOutputs.Hca v = HostOutputs.ibvDevinfo(devinfo, "ibv_devinfo").get(0);
        assertThat(v.device()).isEqualTo("MT4123");
        assertThat(v.ports().get(0).lid()).isEqualTo(6);
        assertThat(v.ports().get(0).activeMtu().bytes()).isEqualTo(4096);
    }

    @Test
    void gidsAsInetNtop() {
        assertThat(Gids.ntop(0xfe80_0000_0000_0000L, 0x0000_0000_0010_0001L)).isEqualTo("fe80::10:1");
        assertThat(Gids.ntop(0xfe80_0000_0000_0000L, 0x0002_c903_0000_0003L)).isEqualTo("fe80::2:c903:0:3");
        assertThat(Gids.ntop(0, 0x0000_0000_0010_0004L)).isEqualTo("::0.16.0.4");
        assertThat(Gids.ntop(0, 0)).isEqualTo("::");
        assertThat(Gids.ntop(0x1_0000_0001L, 1L << 48)).isEqualTo("0:1:0:1:1::");
        assertThat(Gids.ntop(0xfe80_0000_0000_0000L, 0x0001_0000_0000_0001L)).isEqualTo("fe80::1:0:0:1");
    }

    @Test
    void portStateArgumentsCheckedAsIbportstateDoes() {
        assertThat(PortStateOps.parse(List.of()).op()).isEqualTo(PortStateOps.Arg.QUERY);
        assertThat(PortStateOps.parse(List.of("speed", "5", "disable")).op()).isEqualTo(PortStateOps.Arg.DISABLE);
        assertThatThrownBy(() -> PortStateOps.parse(List.of("bogus"))).hasMessage("invalid operation: bogus");
        assertThatThrownBy(() -> PortStateOps.parse(List.of("width"))).hasMessage(
                "width requires an additional parameter");
        assertThatThrownBy(() -> PortStateOps.parse(List.of("width", "32"))).hasMessage("invalid width value 32");
        assertThat(PortStateOps.parse(List.of("width", "255")).op()).isEqualTo(PortStateOps.Arg.QUERY);
        assertThatThrownBy(() -> PortStateOps.parse(List.of("lid", "0xc000"))).hasMessage(
                "invalid lid value 0xc000");
        assertThatThrownBy(() -> PortStateOps.parse(List.of("reset", "down"))).hasMessage(
                "down only one of: query, enable, disable, reset, down, arm, active, can be specified");
    }
}
