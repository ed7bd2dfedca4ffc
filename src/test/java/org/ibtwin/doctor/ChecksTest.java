package org.ibtwin.doctor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.ibtwin.format.PartitionsConf;
import org.ibtwin.model.Cable;
import org.ibtwin.model.CableKind;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.HostFacts;
import org.ibtwin.model.IpoibMode;
import org.ibtwin.model.Link;
import org.ibtwin.model.LinkLayer;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.LinkWidth;
import org.ibtwin.model.Mtu;
import org.ibtwin.model.Node;
import org.ibtwin.model.PcieGen;
import org.ibtwin.model.PortCounter;
import org.ibtwin.model.PortState;
import org.junit.jupiter.api.Test;

/** Each check on its scenario, injected into a healthy fat tree: the right id on the right node, port or link. */
class ChecksTest {

    private static void assertOnly(Report r, String id, String where) {
        assertThat(r.findings()).as(r.toText()).extracting(Finding::id, Finding::where)
                .containsExactly(tuple(id, where));
    }

    /** The healthy lab with {@code fault} planted in it: its one finding, which must be {@code id} at {@code where}. */
    private static Finding onlyFinding(Consumer<Fabric> fault, String id, String where) {
        Fabric f = Lab.healthy();
        fault.accept(f);
        Report r = Lab.examine(f);
        assertOnly(r, id, where);
        return r.findings().get(0);
    }

    private static HostFacts facts(Fabric f, String host) {
        return Lab.node(f, host).hostFacts();
    }

    private static void setFacts(Fabric f, String host, HostFacts h) {
        Lab.node(f, host).setHostFacts(h);
    }

    private static HostFacts with(HostFacts h, boolean driver, boolean gpu, boolean gpuDirect) {
        return new HostFacts(h.pcieGen(), h.pcieLanes(), h.maxPayload(), h.hcaNumaNode(), h.sockets(), h.numaNodes(),
                h.coresPerNuma(), h.ipoibMode(), h.ipoibMtu(), driver, gpu, gpuDirect);
    }

    @Test
    void healthyLabIsClean() {
        Report r = Lab.examine(Lab.healthy());
        assertThat(r.findings()).as(r.toText()).isEmpty();
        assertThat(r.checked()).contains("T08", "T20", "T23", "T13", "T11");
    }

    @Test
    void t01UnpluggedHostCable() {
        onlyFinding(f -> f.disconnect(Lab.link(f, "node005/1")), "T01", "node005");
    }

    @Test
    void t01LinkThatCannotTrain() {
        onlyFinding(f -> {
            Link l = Lab.link(f, "node007/1");
            l.a().setSpeeds(LinkSpeed.maskOf(LinkSpeed.SDR), LinkSpeed.maskOf(LinkSpeed.SDR));
            l.b().setSpeeds(LinkSpeed.maskOf(LinkSpeed.EDR), LinkSpeed.maskOf(LinkSpeed.EDR));
            l.train();
        }, "T01", "node007/1 <-> leaf01/7");
    }

    @Test
    void t02DriverMissing() {
        onlyFinding(f -> setFacts(f, "node009", with(facts(f, "node009"), false, false, false)), "T02", "node009");
    }

    @Test
    void t03EthernetPort() {
        Finding x = onlyFinding(f -> {
            Lab.port(f, "node005/1").setLinkLayer(LinkLayer.ETHERNET);
            Lab.link(f, "node005/1").train();
        }, "T03", "node005/1");
        assertThat(x.severity()).isEqualTo(Severity.ERROR);
    }

    @Test
    void t04DegradedInterSwitchCable() {
        Finding x = onlyFinding(f -> {
            Link l = Lab.link(f, "leaf02/25");
            l.setCable(Cable.UNRATED.withMaxSpeed(LinkSpeed.DDR));
            assertThat(l.activeSpeed()).isEqualTo(LinkSpeed.DDR);
        }, "T04", "leaf02/25 <-> spine01/13");
        assertThat(x.evidence().get(0)).contains("4xDDR (16 Gb/s)").contains("4xHDR (200 Gb/s)");
    }

    @Test
    void t05OneLaneLink() {
        Finding x = onlyFinding(f -> Lab.link(f, "node003/1").setCable(Cable.UNRATED.withMaxWidth(LinkWidth.X1)),
                "T05", "node003/1 <-> leaf01/3");
        assertThat(x.title()).isEqualTo("link trained at 1X, could be 4X");
    }

    @Test
    void t06CableRatedBelowThePorts() {
        Finding x = onlyFinding(f -> Lab.link(f, "node011/1").setCable(new Cable(CableKind.PASSIVE_COPPER, 2,
                LinkSpeed.EDR, LinkWidth.X4)), "T06", "node011/1 <-> leaf01/11");
        assertThat(x.title()).isEqualTo("EDR-rated cable between HDR ports");
    }

    @Test
    void t07SlowPcieSlot() {
        Finding x = onlyFinding(f -> setFacts(f, "node017", facts(f, "node017").withPcie(PcieGen.GEN3, 16)),
                "T07", "node017");
        assertThat(x.title()).contains("Gen3 x16").contains("200 Gb/s port");
    }

    @Test
    void t08PortWithoutLid() {
        Finding x = onlyFinding(f -> Lab.port(f, "node021/1").setLid(0), "T08", "node021/1");
        assertThat(x.severity()).isEqualTo(Severity.ERROR);
    }

    @Test
    void t08NoSmAndSmLidZero() {
        Fabric f = Lab.healthy();
        for (Node n : f.nodes()) {
            for (int i = n.isSwitch() ? 0 : 1; i <= n.numPorts(); i++) {
                n.port(i).setSmLid(0);
                if (n.port(i).link() != null) {
                    n.port(i).setState(PortState.INIT);
                }
            }
        }
        f.nodes().get(0).port(0).setSmLid(1);     // keeps smLidsKnown: this port heard from an SM once
        FabricState s = Lab.state(f).sms(List.of());
        Report r = Lab.examine(s);
        assertThat(r.findings()).extracting(Finding::id).containsOnly("T08");
        assertThat(r.findings()).extracting(Finding::severity, Finding::where).contains(
                tuple(Severity.CRITICAL, "subnet"));
        assertThat(r.findings()).extracting(Finding::title).anyMatch(t -> t.endsWith("SM LID 0, stuck in Init"));
    }

    @Test
    void t09OneSmNoStandby() {
        Fabric f = Lab.healthy();
        long sw = f.switches().get(0).guid();
        FabricState s = Lab.state(f).sms(List.of(new SmInfo(sw, 1, 0, SmInfo.MASTER, "test"))).smsComplete(true);
        assertOnly(Lab.examine(s), "T09", "leaf01/0");
        s.addSm(new SmInfo(f.switches().get(1).guid(), 2, 0, SmInfo.STANDBY, "test"));
        assertThat(Lab.examine(s).findings()).isEmpty();
        FabricState onlySminfo = Lab.state(f).sms(List.of(new SmInfo(sw, 1, 0, SmInfo.MASTER, "sminfo.txt")));
        assertThat(Lab.examine(onlySminfo).notChecked()).extracting(Report.Skipped::id).contains("T09");
        // saquery -s names the IsSM ports without their states: neither "no master" nor "no standby"
        FabricState isSmOnly = Lab.state(f).sms(List.of(new SmInfo(sw, 1, -1, -1, "saquery-s.txt"))).smsComplete(true);
        assertThat(Lab.examine(isSmOnly).findings()).isEmpty();
    }

    @Test
    void t11HostInAPartitionOfItsOwn() {
        Finding x = onlyFinding(f -> Lab.port(f, "node005/1").setPkeys(new int[] {0x8002}), "T11", "node005");
        assertThat(x.evidence().get(0)).contains("node005: 0x0002 full");
    }

    @Test
    void t11ReachabilityIsPairwiseTheSmHostDoesNotJoinTwoTenants() {
        Fabric f = Lab.healthy();
        Node smHost = Lab.node(f, "node001");
        long sm = smHost.port(1).guid();
        StringBuilder a = new StringBuilder();
        StringBuilder b = new StringBuilder();
        for (int i = 2; i <= 60; i++) {
            long g = Lab.port(f, String.format("node%03d/1", i)).guid();
            (i <= 30 ? a : b).append(String.format(", 0x%016x=full", g));
        }
        PartitionsConf conf = PartitionsConf.parse("Default=0x7fff : ALL=limited, SELF=full ;\n"
                + "A=0x0001 : " + a.substring(2) + " ;\nB=0x0002 : " + b.substring(2) + " ;\n", "partitions.conf");
        // live: the tables as the SM programmed them, the SM host a full Default member
        for (Node n : f.cas()) {
            n.port(1).setPkeys(conf.table(n.port(1).guid(), n.type(), sm));
        }
        FabricState live = Lab.state(f).sms(List.of(new SmInfo(sm, 1, 0, SmInfo.MASTER, "t"))).smsComplete(true);
        live.addSm(new SmInfo(f.switches().get(1).guid(), 2, 0, SmInfo.STANDBY, "t"));
        Report r = Lab.examine(live);
        assertThat(r.findings()).as(r.toText()).extracting(Finding::id, Finding::where)
                .containsExactly(tuple("T11", "node[002-030]"));
        assertThat(r.findings().get(0).title()).isEqualTo("hosts share no partition with the other 30 hosts "
                + "(node[031-060]): RDMA connections time out");
        // offline: the file, the one SM known from sminfo: the same answer, no false alarm about the SM's host
        FabricState offline = Lab.state(f).partitions(conf).sms(List.of(new SmInfo(sm, 1, -1, -1, "sminfo.txt")));
        Report o = Lab.examine(offline);
        assertThat(o.findings()).as(o.toText()).extracting(Finding::id, Finding::where)
                .containsExactly(tuple("T11", "node[002-030]"));
    }

    @Test
    void t11PartitionsConfLocksOutTheSm() {
        Fabric f = Lab.healthy();
        long sm = f.switches().get(0).guid();
        PartitionsConf conf = PartitionsConf.parse("""
                # everyone limited, by mistake the SM too
                Default=0x7fff, ipoib : ALL=limited;
                Compute=0x0001 : ALL_CAS=full;
                """, "partitions.conf");
        FabricState s = Lab.state(f).partitions(conf).sms(List.of(new SmInfo(sm, 1, 0, SmInfo.MASTER, "t")))
                .smsComplete(true);
        s.addSm(new SmInfo(f.switches().get(1).guid(), 2, 0, SmInfo.STANDBY, "t"));
        Report r = Lab.examine(s);
        assertOnly(r, "T11", "leaf01/0");
        assertThat(r.findings().get(0).severity()).isEqualTo(Severity.CRITICAL);
        assertThat(r.findings().get(0).evidence().get(0)).isEqualTo(
                "partitions.conf:2: Default partition member ALL=limited");
        PartitionsConf fixed = PartitionsConf.parse("Default=0x7fff : ALL=limited, SELF=full;\nCompute=0x0001 : ALL_CAS=full;\n", "p.conf");
        assertThat(Lab.examine(Lab.state(f).partitions(fixed).sms(s.sms())).findings()).isEmpty();
    }

    @Test
    void t13SwitchPortCappedAt2048() {
        onlyFinding(f -> {
            Link l = Lab.link(f, "leaf03/21");
            l.b().setMtuCap(Mtu.MTU2048);
        }, "T13", "leaf03/21 <-> spine01/21");
    }

    @Test
    void t14AndT15IpoibModes() {
        Fabric f = Lab.healthy();
        setFacts(f, "node040", facts(f, "node040").withIpoib(IpoibMode.DATAGRAM, 2044));
        setFacts(f, "node041", facts(f, "node041").withIpoib(IpoibMode.DATAGRAM, 2044));
        assertOnly(Lab.examine(f), "T14", "node[040-041]");
        for (Node n : f.cas()) {
            n.setHostFacts(n.hostFacts().withIpoib(IpoibMode.DATAGRAM, 2044));
        }
        Report r = Lab.examine(f);
        assertOnly(r, "T15", "node[001-060]");
    }

    @Test
    void t16ErrorsRisingBetweenTwoReadings() {
        Fabric f = Lab.healthy();
        FabricState s = Lab.state(f);
        PortCounters pc = s.counters(Lab.port(f, "leaf02/3"));
        Instant t0 = Instant.parse("2026-11-30T05:00:00Z");
        pc.add(new CounterReading(t0, counters(PortCounter.SYMBOL_ERROR, 40), "before.txt:3"));
        pc.add(new CounterReading(t0.plusSeconds(600), counters(PortCounter.SYMBOL_ERROR, 540), "after.txt:3"));
        Report r = Lab.examine(s);
        assertOnly(r, "T16", "leaf02/3");
        Finding fd = r.findings().get(0);
        assertThat(fd.severity()).isEqualTo(Severity.ERROR);
        assertThat(fd.evidence().get(0)).contains("rose by 500 in 10 min (3000/hour): 40 -> 540");
    }

    @Test
    void t16OneReadingOverThreshold() {
        Finding x = onlyFinding(f -> Lab.port(f, "node004/1").setCounter(PortCounter.LOCAL_LINK_INTEGRITY_ERRORS, 9),
                "T16", "node004/1");
        assertThat(x.severity()).isEqualTo(Severity.WARNING);
    }

    @Test
    void t17ApplicationOnTheFarNumaNode() {
        Fabric f = Lab.healthy();
        FabricState s = Lab.state(f);
        s.host("node012").set(HostInfo.Key.APP_NUMA, Set.of(1), "node012/numactl.txt:3");
        Report r = Lab.examine(s);
        assertOnly(r, "T17", "node012");
    }

    @Test
    void t19GpuWithoutGpuDirect() {
        onlyFinding(f -> {
            setFacts(f, "node030", with(facts(f, "node030"), true, true, false));
            setFacts(f, "node031", with(facts(f, "node031"), true, true, true));
        }, "T19", "node030");
    }

    @Test
    void t20DuplicateLidAndGuid() {
        Fabric f = Lab.healthy();
        Lab.port(f, "node010/1").setLid(Lab.port(f, "node011/1").lid());
        assertOnly(Lab.examine(f), "T20", "node[010-011]/1");
        Fabric g = Lab.healthy();
        Lab.port(g, "node020/1").setGuid(Lab.port(g, "node021/1").guid());
        Report r = Lab.examine(g);
        assertOnly(r, "T20", "node[020-021]/1");
        assertThat(r.findings().get(0).severity()).isEqualTo(Severity.CRITICAL);
    }

    @Test
    void t21MixedFirmware() {
        Finding x = onlyFinding(f -> {
            Lab.node(f, "node005").setFirmware("20.28.2006");
            Lab.node(f, "node009").setFirmware("20.28.2006");
        }, "T21", "node[005,009]");
        assertThat(x.title()).isEqualTo("ConnectX-6 firmware 20.28.2006 where the others run "
                + "20.39.1002");
    }

    @Test
    void t22XmitWaitAndUnbalancedRoutes() {
        Fabric f = Lab.healthy();
        FabricState s = Lab.state(f);
        s.counters(Lab.port(f, "spine02/4")).add(new CounterReading(null, counters(PortCounter.XMIT_WAIT, 900_000),
                "perfquery.txt:21"));
        assertOnly(Lab.examine(s), "T22", "spine02/4");
        // leaf01 sends every remote host out of port 21 (its first uplink)
        Node leaf01 = Lab.node(f, "leaf01");
        int[] lft = new int[100];
        java.util.Arrays.fill(lft, -1);
        for (Node n : f.cas()) {
            int lid = n.port(1).lid();
            lft[lid] = n.port(1).remote().node() == leaf01 ? n.port(1).remote().number() : 21;
        }
        FabricState s2 = Lab.state(f);
        s2.routes().put(leaf01, lft);
        Report r = Lab.examine(s2);
        assertOnly(r, "T22", "leaf01");
        assertThat(r.findings().get(0).evidence().get(0)).isEqualTo("leaf01/21: routes to 40 host LIDs");
    }

    @Test
    void t23MissingUplink() {
        Finding x = onlyFinding(f -> f.disconnect(Lab.link(f, "leaf02/30")), "T23", "leaf02");
        assertThat(x.title()).isEqualTo("1 uplink missing: 19 where its peers have 20");
    }

    @Test
    void t24LinkDownedRising() {
        Fabric f = Lab.healthy();
        FabricState s = Lab.state(f);
        PortCounters pc = s.counters(Lab.port(f, "node050/1"));
        pc.add(new CounterReading(Instant.parse("2026-11-30T05:00:00Z"), counters(PortCounter.LINK_DOWNED, 2), "a"));
        pc.add(new CounterReading(Instant.parse("2026-11-30T06:00:00Z"), counters(PortCounter.LINK_DOWNED, 4), "b"));
        Report r = Lab.examine(s);
        assertOnly(r, "T24", "node050/1");
        assertThat(r.findings().get(0).severity()).isEqualTo(Severity.ERROR);
    }

    @Test
    void suppressedChecksAreListedNotRun() {
        Fabric f = Lab.healthy();
        Lab.port(f, "node005/1").setPkeys(new int[] {0x8002});
        Report r = Doctor.examine(Lab.state(f), new Thresholds().suppress("T11"));
        assertThat(r.findings()).isEmpty();
        assertThat(r.notChecked()).extracting(Report.Skipped::id, Report.Skipped::reason)
                .contains(tuple("T11", "suppressed in the thresholds file"));
    }

    private static Map<PortCounter, Long> counters(PortCounter c, long v) {
        Map<PortCounter, Long> m = new EnumMap<>(PortCounter.class);
        m.put(c, v);
        return m;
    }
}
