package org.ibtwin.perf;

import java.util.List;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.gen.Shapes;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.HostFacts;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.LinkWidth;
import org.ibtwin.model.Node;
import org.ibtwin.model.PcieGen;
import org.ibtwin.model.Port;

/** A test bench: a fabric, its routes, and the two hosts a test runs between. */
final class Bench {
    final Fabric fabric;
    final Routes routes;
    PerfParams params = PerfParams.DEFAULT;
    Node server;
    Node client;
    boolean far;

    Bench(Fabric fabric, String server, String client) {
        this.fabric = fabric;
        this.routes = new MinHopRoutes(fabric);
        this.server = host(fabric, server);
        this.client = host(fabric, client);
    }

    /** Two hosts cabled back to back at 4x {@code speed}, both in {@code gen} x{@code lanes} slots. */
    static Bench backToBack(LinkSpeed speed, PcieGen gen, int lanes) {
        Bench b = new Bench(Shapes.backToBack(speed), "node001", "node002");
        b.pcie(gen, lanes);
        return b;
    }

    /** Two hosts on one switch. */
    static Bench oneSwitch(LinkSpeed speed, PcieGen gen, int lanes) {
        Bench b = new Bench(Shapes.singleSwitch(2, 36, speed), "node001", "node002");
        b.pcie(gen, lanes);
        return b;
    }

    /** A two-level fat tree of {@code hosts}; the test runs between the first and the last host. */
    static Bench fatTree(LinkSpeed speed, int radix, int hosts) {
        Fabric f = FatTree.build(FatTreeSpec.of(2, radix, hosts).withSpeed(speed));
        return new Bench(f, "node001", String.format("node%03d", hosts));
    }

    Bench pcie(PcieGen gen, int lanes) {
        for (Node n : fabric.cas()) {
            n.setHostFacts(facts(n).withPcie(gen, lanes));
        }
        return this;
    }

    /** Narrows every host link to {@code w} (an HDR100 card is 2x HDR). */
    Bench hostWidth(LinkWidth w) {
        for (Node n : fabric.cas()) {
            var l = n.port(1).link();
            l.setCable(l.cable().withMaxWidth(w));
        }
        return this;
    }

    static HostFacts facts(Node n) {
        return n.hostFacts() == null ? HostFacts.DEFAULT : n.hostFacts();
    }

    Endpoint serverEnd() {
        return Endpoint.of(server.port(1), far);
    }

    Endpoint clientEnd() {
        return Endpoint.of(client.port(1), far);
    }

    Route toServer() {
        return routes.route(client.port(1), server.port(1));
    }

    Route toClient() {
        return routes.route(server.port(1), client.port(1));
    }

    Perftest.Bandwidth bw(Spec s) {
        return Perftest.bandwidth(params, s, clientEnd(), serverEnd(), toServer(), toClient());
    }

    Latency.Result lat(Spec s) {
        return Perftest.latency(params, s, clientEnd(), serverEnd(), toServer(), toClient());
    }

    static Node host(Fabric f, String name) {
        for (Node n : f.cas()) {
            if (Names.node(n).equals(name)) {
                return n;
            }
        }
        throw new IllegalArgumentException("no host " + name);
    }

    static Port port(Fabric f, String name) {
        return host(f, name).port(1);
    }

    List<Endpoint> endpoints() {
        return fabric.cas().stream().map(n -> Endpoint.of(n.port(1), far)).toList();
    }
}
