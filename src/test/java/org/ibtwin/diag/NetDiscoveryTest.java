package org.ibtwin.diag;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.ibtwin.fixture.TwinFabric;
import org.ibtwin.format.FabricFiles;
import org.ibtwin.model.Link;
import org.ibtwin.model.Node;
import org.ibtwin.transport.MadTransport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class NetDiscoveryTest {
    private static TwinFabric up;

    @BeforeAll
    static void bringUp() {
        up = TwinFabric.up(FabricFiles.loadDefault());
    }

    @Test
    void findsEveryNodeAndLinkOfTheDefaultFabric() {
        List<String> errors = new ArrayList<>();
        NetFabric f;
        try (MadTransport t = up.tool("node001")) {
            f = NetDiscovery.discover(t, NetDiscovery.Config.defaults().withErrors(errors::add));
        }
        assertThat(errors).isEmpty();
        assertThat(f.size()).isEqualTo(up.fabric.size());
        assertThat(f.switches()).hasSize(up.fabric.switches().size());
        assertThat(f.cas()).hasSize(up.fabric.cas().size());
        assertThat(f.from().description()).startsWith("node001");
        assertThat(f.fromPort()).isEqualTo(1);
        Set<String> want = new HashSet<>();
        for (Link l : up.fabric.links()) {
            want.add(key(l.a().node().guid(), l.a().number(), l.b().node().guid(), l.b().number()));
        }
        Set<String> got = new HashSet<>();
        for (NetPort[] l : f.links()) {
            got.add(key(l[0].node().guid(), l[0].number(), l[1].node().guid(), l[1].number()));
        }
        assertThat(got).isEqualTo(want);
        for (Node n : up.fabric.nodes()) {
            NetNode d = f.node(n.guid());
            assertThat(d.description()).isEqualTo(n.description());
            assertThat(d.numPorts()).isEqualTo(n.numPorts());
            assertThat(d.vendorId()).isEqualTo(n.vendorId());
            if (n.isSwitch()) {
                assertThat(d.smaLid()).isPositive();
                assertThat(d.switchInfo()).isNotNull();
            } else {
                assertThat(d.port(1).baseLid()).isPositive();
                assertThat(f.portByLid(d.port(1).baseLid())).isSameAs(d.port(1));
            }
        }
        // newest first, as libibnetdisc lists them: the starting node comes last
        assertThat(f.nodes().get(f.size() - 1)).isSameAs(f.from());
        assertThat(f.maxHopsDiscovered()).isEqualTo(4);
        assertThat(f.smps()).isPositive();
    }

    @Test
    void progressLinesAreLibibnetdiscs() {
        List<String> lines = new ArrayList<>();
        try (MadTransport t = up.tool("node001")) {
            NetDiscovery.discover(t, NetDiscovery.Config.defaults().withProgress(lines::add));
        }
        assertThat(lines.get(0)).matches("DR path slid 0; dlid 0; 0 -> new Channel Adapter \\{[0-9a-f]{16}\\} "
                + "portnum 1 lid 0-0 \"\"");
        assertThat(lines.get(1)).matches("DR path slid 0; dlid 0; 0,1 -> new Switch \\{[0-9a-f]{16}\\} portnum 0 "
                + "lid 0-0 \"\"");
        assertThat(lines).anyMatch(l -> l.contains(" -> known Switch "));
    }

    @Test
    void aHopLimitAndAPartialScanSeeLess() {
        NetFabric near;
        NetFabric partial;
        try (MadTransport t = up.tool("node001")) {
            near = NetDiscovery.discover(t, NetDiscovery.Config.defaults().withMaxHops(1));
            partial = NetDiscovery.discover(t, new byte[] {1}, NetDiscovery.Config.defaults().withMaxHops(1));
        }
        assertThat(near.size()).isLessThan(up.fabric.size());
        assertThat(near.maxHopsDiscovered()).isEqualTo(2);
        assertThat(partial.from().isSwitch()).isTrue();
        assertThat(partial.size()).isLessThan(up.fabric.size());
    }

    @Test
    void aStartThatDoesNotAnswerFails() {
        try (MadTransport t = up.tool("node001")) {
            assertThatThrownBy(() -> NetDiscovery.discover(t, new byte[] {1, 41},
                    NetDiscovery.Config.defaults().withRetries(0).withTimeout(java.time.Duration.ofMillis(50))))
                    .isInstanceOf(NetDiscovery.Failed.class).hasMessageContaining("0,1,41");
        }
    }

    private static String key(long g1, int p1, long g2, int p2) {
        int c = Long.compareUnsigned(g1, g2);
        return c < 0 || (c == 0 && p1 < p2) ? g1 + "/" + p1 + "-" + g2 + "/" + p2 : g2 + "/" + p2 + "-" + g1 + "/" + p1;
    }
}
