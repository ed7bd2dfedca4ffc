package org.ibtwin.format.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.ibtwin.fixture.TestResources;
import org.ibtwin.format.FormatException;
import org.ibtwin.format.tools.ToolOutputs.Kind;
import org.ibtwin.model.LinkLayer;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.LinkWidth;
import org.ibtwin.model.Mtu;
import org.ibtwin.model.NodeType;
import org.ibtwin.model.PcieGen;
import org.ibtwin.model.PhysState;
import org.ibtwin.model.PortState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

/** The tool-output readers on real outputs (ibsim + infiniband-diags) and on samples written from the tools' formats. */
class ToolOutputsTest {

    static String text(String name) {
        return TestResources.text("/doctor/" + name);
    }

    /** Every kind, found by the content alone (the name given is "x"). */
    @ParameterizedTest(name = "{0}: {1}")
    @CsvFileSource(resources = "/doctor/tool-output-kinds.csv")
    void detectsEveryKindByContent(String file, Kind kind) {
        assertThat(ToolOutputs.detect(text(file), "x")).isEqualTo(kind);
    }

    /** Where the content is too bare to tell, the file's name does. */
    @Test
    void detectsByNameWhereTheContentCannotTell() {
        assertThat(ToolOutputs.detect("1\n", "node010.numa_node")).isEqualTo(Kind.NUMA_NODE);
        assertThat(ToolOutputs.detect("1\n", "node010.txt")).isNull();
        assertThat(ToolOutputs.detect("connected\n", "mode")).isEqualTo(Kind.IPOIB_MODE);
    }

    @Test
    void iblinkinfoTreeForm() {
        List<PortLine> l = DiscoveryOutputs.iblinkinfo(text("ibsim-lab/iblinkinfo.txt"), "iblinkinfo.txt");
        assertThat(l).hasSize(4 * 8 + 4);
        PortLine ddr = l.stream().filter(p -> p.desc().equals("spine02") && p.port() == 1).findFirst().orElseThrow();
        assertThat(ddr.type()).isEqualTo(NodeType.SWITCH);
        assertThat(ddr.nodeGuid()).isEqualTo(0x0002c90380000004L);
        assertThat(ddr.width()).isEqualTo(LinkWidth.X4);
        assertThat(ddr.speed()).isEqualTo(LinkSpeed.DDR);
        assertThat(ddr.state()).isEqualTo(PortState.ACTIVE);
        assertThat(ddr.remoteLid()).isEqualTo(1);
        assertThat(ddr.remotePort()).isEqualTo(6);
        assertThat(ddr.remoteDesc()).isEqualTo("leaf01");
        assertThat(ddr.couldBeWidth()).isEqualTo(LinkWidth.X12);
        assertThat(ddr.couldBeSpeed()).isEqualTo(LinkSpeed.QDR);
        PortLine down = l.stream().filter(p -> p.desc().equals("leaf02") && p.port() == 3).findFirst().orElseThrow();
        assertThat(down.state()).isEqualTo(PortState.DOWN);
        assertThat(down.physState()).isEqualTo(PhysState.POLLING);
        assertThat(down.connected()).isFalse();
        PortLine ca = l.stream().filter(p -> p.desc().equals("node003 mlx5_0")).findFirst().orElseThrow();
        assertThat(ca.type()).isEqualTo(NodeType.CA);
        assertThat(ca.portGuid()).isEqualTo(0x0002c90300000007L);
        assertThat(ca.width()).isEqualTo(LinkWidth.X1);
        assertThat(ca.lid()).isEqualTo(8);
    }

    @Test
    void iblinkinfoLineForm() {
        String line = "0x0002c90380000002 \"                        leaf02\"      2    1[  ] ==( 1X        53.125 Gbps "
                + "Active/  LinkUp)==>  0x0002c90300000007      8    1[  ] \"node003 mlx5_0\" ( )\n";
        List<PortLine> l = DiscoveryOutputs.iblinkinfo(line, "f");
        assertThat(l).hasSize(1);
        assertThat(l.get(0).desc()).isEqualTo("leaf02");
        assertThat(l.get(0).remoteGuid()).isEqualTo(0x0002c90300000007L);
        assertThat(l.get(0).speed()).isEqualTo(LinkSpeed.HDR);
    }

    @Test
    void iblinkinfoBadLineIsAnError() {
        assertThatThrownBy(() -> DiscoveryOutputs.iblinkinfo("Switch: 0x0002c90380000002 leaf02:\n"
                + "           2    1[  ] ==( 1X  53.125 Gbps Active/)==>       8    1[  ] \"x\" ( )\n", "l.txt"))
                .isInstanceOf(FormatException.class).hasMessageStartingWith("l.txt:2: link state");
    }

    @Test
    void ibnetdiscoverPorts() {
        List<PortLine> l = DiscoveryOutputs.ports(text("ibsim-lab/ibnetdiscover-p.txt"), "p");
        assertThat(l).hasSize(4 * 8 + 4);
        PortLine p = l.get(0);
        assertThat(p.type()).isEqualTo(NodeType.CA);
        assertThat(p.portGuid()).isEqualTo(0x0002c90300000009L);
        assertThat(p.remoteType()).isEqualTo(NodeType.SWITCH);
        assertThat(p.remoteGuid()).isEqualTo(0x0002c90380000002L);
        assertThat(p.desc()).isEqualTo("node004 mlx5_0");
        assertThat(l.stream().filter(x -> !x.connected()).count()).isEqualTo(4 * 8 - 12);
    }

    @Test
    void perfqueryBlocksAndTimes() {
        List<CounterOutputs.PerfBlock> b = CounterOutputs.perfquery(text("ibsim-lab/perfquery-switches.txt"), "p");
        assertThat(b).hasSize(4 * 9);
        CounterOutputs.PerfBlock leaf02p1 = b.stream().filter(x -> x.lid() == 2 && x.port() == 1).findFirst()
                .orElseThrow();
        assertThat(leaf02p1.fields()).containsEntry("SymbolErrorCounter", 1234L).containsEntry("PortXmitWait", 0L);
        assertThat(leaf02p1.time()).isNull();
        List<CounterOutputs.PerfBlock> x = CounterOutputs.perfquery("2026-11-30T05:00:00Z\n# Port extended counters: "
                + "Lid 6 port 1 (CapMask: 0x1200 CapMask2: 0x0000000)\nPortXmitData:....................2016\n", "x");
        assertThat(x).singleElement().satisfies(e -> {
            assertThat(e.extended()).isTrue();
            assertThat(e.time()).isEqualTo(Instant.parse("2026-11-30T05:00:00Z"));
        });
        assertThat(CounterOutputs.timestamp("Mon Nov 30 05:00:00 UTC 2026"))
                .isEqualTo(Instant.parse("2026-11-30T05:00:00Z"));
        assertThat(CounterOutputs.timestamp("# Tue Dec  1 07:08:09 +0100 2026"))
                .isEqualTo(Instant.parse("2026-12-01T06:08:09Z"));
        assertThat(CounterOutputs.timestamp("PortSelect:......1")).isNull();
    }

    @Test
    void ibqueryerrorsLines() {
        List<CounterOutputs.ErrorLine> l = CounterOutputs.ibqueryerrors(text("ibsim-lab/ibqueryerrors.txt"), "q");
        assertThat(l).hasSize(5);
        assertThat(l.get(0).nodeDesc()).isEqualTo("node003 mlx5_0");
        assertThat(l.get(0).switchGuid()).isNull();
        assertThat(l.get(0).counters()).containsEntry("LinkDownedCounter", 7L);
        assertThat(l.get(1).port()).isEqualTo(-1);
        assertThat(l.get(2).switchGuid()).isEqualTo(0x0002c90380000002L);
        List<CounterOutputs.ErrorLine> ext = CounterOutputs.ibqueryerrors("Errors for \"h\"\n   GUID 0x1 port 1: "
                + "[PortXmitWait == 99999 (97.655K)] [SymbolErrorCounter == 3]\n", "q");
        assertThat(ext.get(0).counters()).containsEntry("PortXmitWait", 99999L).containsEntry("SymbolErrorCounter", 3L);
    }

    @Test
    void ibstatIbstatusAndDevinfo() {
        HostOutputs.Hca a = HostOutputs.ibstat(text("hosts-offline/node005.ibstat"), "s").get(0);
        assertThat(a.name()).isEqualTo("mlx5_0");
        assertThat(a.device()).isEqualTo("MT4123");
        assertThat(a.firmware()).isEqualTo("20.31.1014");
        assertThat(a.nodeGuid()).isEqualTo(0x0c42a10300160500L);
        HostOutputs.HcaPort p = a.ports().get(0);
        assertThat(p.state()).isEqualTo(PortState.DOWN);
        assertThat(p.physState()).isEqualTo(PhysState.POLLING);
        assertThat(p.rateGbps()).isEqualTo(10.0);
        assertThat(p.linkLayer()).isEqualTo(LinkLayer.INFINIBAND);
        HostOutputs.HcaPort st = HostOutputs.ibstatus(text("hosts-offline/node013.ibstatus"), "s").get(0).ports().get(0);
        assertThat(st.width()).isEqualTo(LinkWidth.X4);
        assertThat(st.speed()).isEqualTo(LinkSpeed.DDR);
        assertThat(st.lid()).isEqualTo(13);
        assertThat(st.portGuid()).isEqualTo(0x0c42a10300161301L);
        HostOutputs.Hca d = HostOutputs.ibvDevinfo(text("hosts-offline/node012.ibv_devinfo"), "d").get(0);
        assertThat(d.device()).isEqualTo("MT4123");
        assertThat(d.nodeGuid()).isEqualTo(0x0c42a10300161200L);
        assertThat(d.ports().get(0).activeMtu()).isEqualTo(Mtu.MTU2048);
        assertThat(d.ports().get(0).maxMtu()).isEqualTo(Mtu.MTU4096);
        assertThat(d.ports().get(0).state()).isEqualTo(PortState.ACTIVE);
        assertThat(HostOutputs.ibvDevinfo(text("hosts-offline/node007.ibv_devinfo"), "d")).isEmpty();
        // the simulator's own ibstat (a real output under libumad2sim)
        HostOutputs.Hca sim = HostOutputs.ibstat("CA 'ibsim0'\n\tCA type: simulator\n\tNumber of ports: 1\n\t"
                + "Firmware version: 1\n\tHardware version: a1\n\tNode GUID: 0x0002c90300000006\n\tSystem image GUID: "
                + "0x0002c90300000006\n\tPort 1:\n\t\tState: Active\n\t\tPhysical state: LinkUp\n\t\tRate: 26\n\t\t"
                + "Base lid: 8\n\t\tLMC: 0\n\t\tSM lid: 1\n\t\tCapability mask: 0x0050c048\n\t\tPort GUID: "
                + "0x0002c90300000007\n\t\tLink layer: IB\n", "sim").get(0);
        assertThat(sim.ports().get(0).linkLayer()).isEqualTo(LinkLayer.INFINIBAND);
        assertThat(sim.ports().get(0).smLid()).isEqualTo(1);
    }

    @Test
    void lspciPicksTheHcaAndItsLink() {
        List<HostOutputs.Pcie> l = HostOutputs.lspci(text("default-offline/node017/lspci-vv.txt"), "l");
        assertThat(l).singleElement().satisfies(p -> {
            assertThat(p.address()).isEqualTo("3b:00.0");
            assertThat(p.capGen()).isEqualTo(PcieGen.GEN4);
            assertThat(p.capLanes()).isEqualTo(16);
            assertThat(p.gen()).isEqualTo(PcieGen.GEN3);
            assertThat(p.lanes()).isEqualTo(8);
            assertThat(p.maxPayload()).isEqualTo(256);
            assertThat(p.numaNode()).isEqualTo(0);
        });
    }

    @Test
    void ipoibSettings() {
        HostOutputs.Ipoib ip = HostOutputs.ipLink(text("default-offline/node033/ip-d-link-ib0.txt"), "i").get(0);
        assertThat(ip.device()).isEqualTo("ib0");
        assertThat(ip.connected()).isFalse();
        assertThat(ip.mtu()).isEqualTo(2044);
        HostOutputs.Ipoib cfg = HostOutputs.ifcfg(text("default-offline/node002.ifcfg-ib0"), "c");
        assertThat(cfg.connected()).isTrue();
        assertThat(cfg.mtu()).isEqualTo(65520);
        assertThat(HostOutputs.ifcfg("DEVICE=ib0\nTYPE=InfiniBand\n", "c").connected()).isFalse();
        assertThatThrownBy(() -> HostOutputs.ifcfg("DEVICE=ib0\nCONNECTED_MODE=maybe\n", "ifcfg-ib0"))
                .hasMessage("ifcfg-ib0:2: CONNECTED_MODE=maybe: expected yes or no");
    }

    @Test
    void modulesNumaAndSm() {
        assertThat(HostOutputs.lsmod(text("hosts-offline/node008.lsmod"))).contains("nvidia", "mlx5_ib")
                .doesNotContain("nvidia_peermem", "Module");
        assertThat(HostOutputs.numactl(text("hosts-offline/node009.numactl"), "n")).isEqualTo(Set.of(1));
        assertThat(HostOutputs.numaNode(text("hosts-offline/node009.numa"), "n")).isZero();
        SmOutputs.Sm sm = SmOutputs.sminfo(text("ibsim-lab/sminfo.txt"), "s");
        assertThat(sm.guid()).isEqualTo(0x2c90380000001L);
        assertThat(sm.state()).isEqualTo(3);
        SmOutputs.Saquery smir = SmOutputs.saquery(text("ibsim-lab/saquery-smir.txt"), "s");
        assertThat(smir.smList()).isTrue();
        assertThat(smir.sms()).singleElement().satisfies(x -> {
            assertThat(x.lid()).isEqualTo(1);
            assertThat(x.state()).isEqualTo(3);
        });
        SmOutputs.Saquery nr = SmOutputs.saquery(text("ibsim-lab/saquery-noderecords.txt"), "s");
        // saquery through libumad2sim gets the first record only (no RMPP there); the format is the same
        assertThat(nr.nodes()).hasSize(1);
        assertThat(nr.nodes().get(0).deviceId()).isEqualTo(0xd2f0);
        assertThat(nr.nodes().get(0).type()).isEqualTo(NodeType.SWITCH);
        assertThat(nr.nodes().get(0).description()).isEqualTo("leaf01");
        SmOutputs.Saquery issm = SmOutputs.saquery("IsSM ports\nPortInfoRecord dump:\n\t\tEndPortLid..............1\n"
                + "\t\tPortNum.................0\n\t\tbase_lid................1\n\nIsSMdisabled ports\n", "s");
        assertThat(issm.sms()).singleElement().satisfies(x -> assertThat(x.lid()).isEqualTo(1));
        SmOutputs.Routes r = SmOutputs.ibroute(text("ibsim-lab/ibroute-leaf01.txt"), "r").get(0);
        assertThat(r.switchGuid()).isEqualTo(0x0002c90380000001L);
        assertThat(r.lft()[8]).isEqualTo(5);
        assertThat(r.lft()[5]).isEqualTo(-1);
    }

    /** OpenSM's opensm-lfts.dump (as real OpenSM 3.3 writes it with -D 0x41): recognised and read as ibroute's. */
    @Test
    void readsOpensmsLftDump() {
        String dump = "Unicast lids [0-6] of switch Lid 3 guid 0x0000000000200001 ('sw2'):\n"
                + "0x0001 003 # Switch portguid 0x0000000000200000: 'sw1'\n"
                + "0x0003 000 # Switch portguid 0x0000000000200001: 'sw2'\n"
                + "0x0006 002 # Channel Adapter portguid 0x0000000000100007: 'H-4'\n"
                + "6 lids dumped\n"
                + "Unicast lids [0-6] of switch Lid 1 guid 0x0000000000200000 ('sw1'):\n"
                + "0x0002 001 # Channel Adapter portguid 0x0000000000100001: 'H-1'\n"
                + "6 lids dumped\n";
        assertThat(ToolOutputs.detect(dump, "opensm-lfts.dump")).isEqualTo(Kind.IBROUTE);
        List<SmOutputs.Routes> rs = SmOutputs.ibroute(dump, "opensm-lfts.dump");
        assertThat(rs).hasSize(2);
        assertThat(rs.get(0).switchLid()).isEqualTo(3);
        assertThat(rs.get(0).switchGuid()).isEqualTo(0x200001L);
        assertThat(rs.get(0).description()).isEqualTo("sw2");
        assertThat(rs.get(0).lft()).containsExactly(-1, 3, -1, 0, -1, -1, 2);
        assertThat(rs.get(1).lft()[2]).isEqualTo(1);
    }
}
