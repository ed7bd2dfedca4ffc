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
