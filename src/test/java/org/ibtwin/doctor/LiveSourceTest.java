package org.ibtwin.doctor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.assertj.core.groups.Tuple;
import org.ibtwin.format.FabricFiles;
import org.ibtwin.model.Cable;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.LinkWidth;
import org.ibtwin.model.Node;
import org.ibtwin.model.PortCounter;
import org.junit.jupiter.api.Test;

/** Live discovery over MADs finds what the model path finds. */
class LiveSourceTest {

    private static FabricState live(Fabric f, Node sm) {
        List<String> progress = new ArrayList<>();
        Consumer<String> p = progress::add;
        try (ModelTransport t = new ModelTransport(f, f.cas().get(0).port(1), sm)) {
            FabricState s = LiveSource.discover(t, null, p, "model");
            assertThat(progress).anyMatch(l -> l.startsWith("discovered " + f.size() + " nodes, " + f.links().size()
                    + " links"));
            return s;
        }
    }

    private static List<Tuple> findings(Report r) {
        return r.findings().stream().map(x -> tuple(x.id(), x.where())).toList();
    }

    @Test
    void defaultFabricLiveWithItsHostFacts() {
        Fabric f = FabricFiles.loadDefault();
        for (Node n : f.nodes()) {
            for (int i = 0; i <= n.numPorts(); i++) {
                if (n.port(i) != null) {
                    n.port(i).setSmLid(1);      // as the SM on leaf01 leaves them
                }
            }
        }
        FabricState s = live(f, Lab.node(f, "leaf01"));
        assertThat(s.fabric().size()).isEqualTo(65);
        assertThat(s.fabric().links()).hasSize(120);
        Sources.addFacts(s, FabricFiles.DEFAULT_NAME);
        Report r = Doctor.examine(s, new Thresholds());
        assertThat(findings(r)).as(r.toText()).containsExactly(tuple("T04", "leaf02/33 <-> spine01/17"),
                tuple("T14", "node033"), tuple("T07", "node017"), tuple("T09", "leaf01/0"));
        assertThat(r.findings().get(3).evidence().get(0)).contains("master (SMInfo at leaf01/0)");
    }

    @Test
    void injectedFaultsAreSeenAsTheModelSeesThem() {
        Fabric f = Lab.healthy();
        Lab.link(f, "node003/1").setCable(Cable.UNRATED.withMaxWidth(LinkWidth.X1));
        Lab.link(f, "leaf02/25").setCable(Cable.UNRATED.withMaxSpeed(org.ibtwin.model.LinkSpeed.DDR));
        Lab.port(f, "node010/1").setLid(Lab.port(f, "node011/1").lid());
        Lab.port(f, "leaf03/2").setCounter(PortCounter.SYMBOL_ERROR, 500);
        Lab.port(f, "node050/1").setCounter(PortCounter.LINK_DOWNED, 9);
        f.disconnect(Lab.link(f, "leaf01/30"));
        Lab.port(f, "node020/1").setPkeys(new int[] {0x8005});
        Report model = Lab.examine(f);
        FabricState s = live(f, null);
        Report r = Doctor.examine(s, new Thresholds());
        assertThat(findings(r)).as(r.toText()).containsExactly(tuple("T08", "subnet"), tuple("T20",
                "node[010-011]/1"), tuple("T04", "leaf02/25 <-> spine01/13"), tuple("T05", "node003/1 <-> leaf01/3"),
                tuple("T11", "node020"), tuple("T16", "leaf03/2"), tuple("T23", "leaf01"), tuple("T24", "node050/1"));
        // the model path sees the same, but for the SM: a fabric file says nothing of SMs
        assertThat(findings(model)).containsExactlyElementsOf(findings(r).subList(1, findings(r).size()));
    }

    @Test
    void liveTheSmHostAFullDefaultMemberDoesNotJoinTwoTenants() {
        Fabric f = Lab.healthy();
        Node smHost = Lab.node(f, "node001");
        StringBuilder a = new StringBuilder();
        StringBuilder b = new StringBuilder();
        for (int i = 2; i <= 60; i++) {
            long g = Lab.port(f, String.format("node%03d/1", i)).guid();
            (i <= 30 ? a : b).append(String.format(", 0x%016x=full", g));
        }
        org.ibtwin.format.PartitionsConf conf = org.ibtwin.format.PartitionsConf.parse("Default=0x7fff : ALL=limited, "
                + "SELF=full ;\nA=0x0001 : " + a.substring(2) + " ;\nB=0x0002 : " + b.substring(2) + " ;\n", "p");
        for (Node n : f.cas()) {
            n.port(1).setPkeys(conf.table(n.port(1).guid(), n.type(), smHost.port(1).guid()));
        }
        // the tables read over MADs: A and B cannot reach each other, though both reach the SM's host
        Report r = Doctor.examine(live(f, smHost), new Thresholds().suppress("T09"));
        assertThat(findings(r)).as(r.toText()).contains(tuple("T11", "node[002-030]"));
        assertThat(r.findings()).filteredOn(x -> x.id().equals("T11")).singleElement().satisfies(x -> assertThat(
                x.title()).isEqualTo("hosts share no partition with the other 30 hosts (node[031-060]): RDMA "
                + "connections time out"));
    }

    @Test
    void twoReadingsAnIntervalApartGiveRisingErrors() {
        Fabric f = Lab.healthy();
        Lab.port(f, "leaf03/2").setCounter(PortCounter.SYMBOL_ERROR, 40);
        FabricState s;
        try (ModelTransport t = new ModelTransport(f, f.cas().get(0).port(1), Lab.node(f, "leaf01"))) {
            // the errors rise while doctor waits between its two readings
            s = LiveSource.discover(t, java.time.Duration.ofSeconds(1), line -> {
                if (line.startsWith("waiting")) {
                    Lab.port(f, "leaf03/2").setCounter(PortCounter.SYMBOL_ERROR, 90);
                }
            }, "model");
        }
        Report r = Doctor.examine(s, new Thresholds());
        org.ibtwin.doctor.Finding t16 = r.findings().stream().filter(x -> x.id().equals("T16")).findFirst()
                .orElseThrow();
        assertThat(t16.where()).isEqualTo("leaf03/2");
        assertThat(t16.severity()).isEqualTo(org.ibtwin.doctor.Severity.ERROR);
        assertThat(t16.evidence().get(0)).contains("SymbolErrorCounter rose by 50 in 1 s");
    }
}
