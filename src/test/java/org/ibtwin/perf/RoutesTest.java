package org.ibtwin.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.ibtwin.format.FabricFiles;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.gen.Shapes;
import org.ibtwin.model.Cable;
import org.ibtwin.model.DeviceCatalog;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Link;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.Node;
import org.ibtwin.model.NodeType;
import org.ibtwin.model.Port;
import org.junit.jupiter.api.Test;

class RoutesTest {

    private static List<Port> hosts(Fabric f) {
        return f.cas().stream().map(n -> n.port(1)).toList();
    }

    /** Every path starts and ends where asked, each hop joins the previous one, and no switch is visited twice. */
    private static void assertWellFormed(Route p, Port src, Port dst) {
        assertThat(p).isNotNull();
        assertThat(p.src()).isSameAs(src);
        assertThat(p.dst()).isSameAs(dst);
        assertThat(p.hops().get(0).from()).isSameAs(src);
        assertThat(p.hops().get(p.hops().size() - 1).to()).isSameAs(dst);
        for (int i = 1; i < p.hops().size(); i++) {
            assertThat(p.hops().get(i).from().node()).isSameAs(p.hops().get(i - 1).to().node());
        }
        assertThat(p.hops().stream().map(h -> h.to().node()).distinct().count()).isEqualTo(p.hops().size());
    }

    /** A shift pattern puts at most one flow on each directed link. */
    private static int worstLinkLoad(Fabric f, Routes r, int shift) {
        List<Port> h = hosts(f);
        Map<Hop, Integer> load = new HashMap<>();
        for (int i = 0; i < h.size(); i++) {
            Route p = r.route(h.get(i), h.get((i + shift) % h.size()));
            assertWellFormed(p, h.get(i), h.get((i + shift) % h.size()));
            for (Hop hop : p.hops()) {
                load.merge(hop, 1, Integer::sum);
            }
        }
        return load.values().stream().mapToInt(Integer::intValue).max().orElse(0);
    }

    @Test
    void shiftIsContentionFreeOnCompleteFatTrees() {
        Fabric two = FatTree.build(FatTreeSpec.of(2, 8, 32));
        Fabric three = FatTree.build(FatTreeSpec.of(3, 8, 128));
        Fabric parallel = FatTree.build(FatTreeSpec.of(3, 8, 32));
        Fabric def = FabricFiles.loadDefault();
        for (Fabric f : List.of(two, three, parallel, def)) {
            MinHopRoutes r = new MinHopRoutes(f);
            assertThat(r.isTree()).isTrue();
            int n = f.cas().size();
            for (int shift : new int[] {1, 3, n / 2, n - 1}) {
                assertThat(worstLinkLoad(f, r, shift)).as(n + " hosts, shift " + shift).isEqualTo(1);
            }
        }
    }

    @Test
    void routesAreMinHop() {
        Fabric f = FatTree.build(FatTreeSpec.of(3, 8, 128));
        MinHopRoutes r = new MinHopRoutes(f);
        List<Port> h = hosts(f);
        // same leaf: 2 links; same pod: 4; across pods: 6
        assertThat(r.route(h.get(0), h.get(1)).hops()).hasSize(2);
        assertThat(r.route(h.get(0), h.get(5)).hops()).hasSize(4);
        assertThat(r.route(h.get(0), h.get(127)).hops()).hasSize(6);
        assertThat(r.route(h.get(0), h.get(0)).isLoopback()).isTrue();
    }

    /** Like forwarding tables: at each switch the way to a destination does not depend on the source. */
    @Test
    void routesDependOnlyOnSwitchAndDestination() {
        for (Fabric f : List.of(FatTree.build(FatTreeSpec.of(3, 8, 100)), FabricFiles.loadDefault())) {
            MinHopRoutes r = new MinHopRoutes(f);
            List<Port> h = hosts(f);
            for (Port dst : h) {
                Map<Node, Port> egress = new IdentityHashMap<>();
                for (Port src : h) {
                    if (src == dst) {
                        continue;
                    }
                    for (Hop hop : r.route(src, dst).hops()) {
                        if (hop.from().node().isSwitch()) {
                            Port before = egress.putIfAbsent(hop.from().node(), hop.from());
                            assertThat(before == null || before == hop.from())
                                    .as("%s toward %s", hop.from().node().description(), Names.port(dst)).isTrue();
                        }
                    }
                }
            }
        }
    }

    @Test
    void forwardingTablesGiveTheSamePaths() {
        Fabric f = FabricFiles.loadDefault();
        MinHopRoutes min = new MinHopRoutes(f);
        Map<Node, Map<Port, Integer>> lft = new IdentityHashMap<>();
        List<Port> h = hosts(f);
        for (Port src : h) {
            for (Port dst : h) {
                for (Hop hop : min.route(src, dst).hops()) {
                    if (hop.from().node().isSwitch()) {
                        lft.computeIfAbsent(hop.from().node(), k -> new IdentityHashMap<>())
                                .put(dst, hop.from().number());
                    }
                }
            }
        }
        LftRoutes tables = new LftRoutes((sw, dst) -> lft.getOrDefault(sw, Map.of()).getOrDefault(dst, 0));
        for (Port src : h) {
            for (Port dst : h) {
                assertThat(tables.route(src, dst)).isEqualTo(min.route(src, dst));
            }
        }
        // a hole in a table is no route
        assertThat(new LftRoutes((sw, dst) -> 0).route(h.get(0), h.get(1))).isNull();
    }

    @Test
    void backToBackAndUnreachable() {
        Fabric b2b = Shapes.backToBack(LinkSpeed.HDR);
        MinHopRoutes r = new MinHopRoutes(b2b);
        Port a = b2b.cas().get(0).port(1);
        Port b = b2b.cas().get(1).port(1);
        assertThat(r.route(a, b).hops()).hasSize(1);
        assertThat(r.route(a, b).switches()).isZero();
        b2b.disconnect(b2b.links().get(0));
        assertThat(new MinHopRoutes(b2b).route(a, b)).isNull();
    }

    /** A ring of four switches is no tree: routes fall back to a breadth-first min-hop walk. */
    @Test
    void nonTreeFabricsGetMinHopRoutes() {
        Fabric f = new Fabric();
        Node[] sw = new Node[4];
        for (int i = 0; i < 4; i++) {
            sw[i] = f.add(new Node(NodeType.SWITCH, 0x100 + i, "S" + i, 8));
            sw[i].setDescription("sw" + i);
            DeviceCatalog.apply(sw[i], DeviceCatalog.QUANTUM);
        }
        Node[] ca = new Node[4];
        for (int i = 0; i < 4; i++) {
            ca[i] = f.add(new Node(NodeType.CA, 0x200 + 2 * i, "H" + i, 1));
            ca[i].setDescription("h" + i + " mlx5_0");
            DeviceCatalog.apply(ca[i], DeviceCatalog.CONNECTX6);
            f.connect(ca[i].port(1), sw[i].port(1), Cable.UNRATED);
        }
        for (int i = 0; i < 4; i++) {
            f.connect(sw[i].port(2), sw[(i + 1) % 4].port(3), Cable.UNRATED);
        }
        MinHopRoutes r = new MinHopRoutes(f);
        assertThat(r.isTree()).isFalse();
        Route p = r.route(ca[0].port(1), ca[2].port(1));
        assertWellFormed(p, ca[0].port(1), ca[2].port(1));
        assertThat(p.switches()).isEqualTo(3);
        assertThat(r.route(ca[0].port(1), ca[1].port(1)).switches()).isEqualTo(2);
    }

    @Test
    void aMissingUplinkIsRoutedAround() {
        Fabric f = FatTree.build(FatTreeSpec.of(3, 8, 128));
        // remove every link between pod01-leaf01 and pod01-spine01
        Node leaf = f.nodes().stream().filter(n -> n.description().equals("pod01-leaf01")).findFirst().orElseThrow();
        for (Link l : List.copyOf(f.links())) {
            Node other = l.a().node() == leaf ? l.b().node() : l.b().node() == leaf ? l.a().node() : null;
            if (other != null && other.description().equals("pod01-spine01")) {
                f.disconnect(l);
            }
        }
        MinHopRoutes r = new MinHopRoutes(f);
        List<Port> h = hosts(f);
        for (int i = 0; i < 4; i++) {
            for (Port dst : h) {
                if (dst != h.get(i)) {
                    Route p = r.route(h.get(i), dst);
                    assertWellFormed(p, h.get(i), dst);
                    assertThat(p.hops()).noneMatch(hop -> hop.link().a().node() == leaf
                            && hop.link().b().node().description().equals("pod01-spine01"));
                }
            }
        }
    }
}
