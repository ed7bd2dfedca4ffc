package org.ibtwin.sm.routing;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.ibtwin.model.Cable;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Link;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.LinkWidth;
import org.ibtwin.model.Node;
import org.ibtwin.model.NodeType;
import org.ibtwin.model.Port;

/**
 * Tests only: switch graphs straight from a model fabric (LIDs: switches 1..S in node order, then each linked CA
 * port a range of 2^lmc, aligned), and small fabrics of any shape.
 */
final class Graphs {
    private Graphs() {
    }

    static SwitchGraph of(Fabric f) {
        return of(f, 0);
    }

    static SwitchGraph of(Fabric f, int lmc) {
        return of(f, lmc, null);
    }

    /**
     * As an SM may number things: the switches, and the CA ports their LIDs are given in, in an order shuffled by
     * {@code random} (discovery order varies from sweep to sweep).
     */
    static SwitchGraph shuffled(Fabric f, java.util.Random random) {
        return of(f, 0, random);
    }

    private static SwitchGraph of(Fabric f, int lmc, java.util.Random random) {
        List<Node> switches = new ArrayList<>(f.switches());
        List<Node> caNodes = new ArrayList<>(f.cas());
        if (random != null) {
            java.util.Collections.shuffle(switches, random);
            java.util.Collections.shuffle(caNodes, random);
        }
        Map<Node, Integer> index = new HashMap<>();
        for (int i = 0; i < switches.size(); i++) {
            index.put(switches.get(i), i);
        }
        int size = 1 << lmc;
        List<int[]> cas = new ArrayList<>();   // base, switch, port
        int next = switches.size() + 1;
        for (Node ca : caNodes) {
            for (int p = 1; p <= ca.numPorts(); p++) {
                Port port = ca.port(p);
                if (!linked(port) || !index.containsKey(port.remote().node())) {
                    continue;
                }
                int base = (next + size - 1) / size * size;
                cas.add(new int[] {base, index.get(port.remote().node()), port.remote().number()});
                next = base + size;
            }
        }
        SwitchGraph.Builder b = SwitchGraph.builder(switches.size(), next - 1);
        for (int i = 0; i < switches.size(); i++) {
            Node s = switches.get(i);
            b.setSwitch(i, s.guid(), s.description().split(" ")[0], s.numPorts());
            b.dest(i + 1, 1, i, 0, false);
        }
        for (Link l : f.links()) {
            Integer a = index.get(l.a().node());
            Integer c = index.get(l.b().node());
            if (l.isUp() && a != null && c != null) {
                b.link(a, l.a().number(), c, l.b().number());
            }
        }
        for (int[] ca : cas) {
            b.dest(ca[0], size, ca[1], ca[2], true);
        }
        return b.build();
    }

    private static boolean linked(Port p) {
        return p.link() != null && p.link().isUp();
    }

    /** A fabric of {@code switches} switches of {@code radix} ports, {@code hosts} CAs on each (ports 1..hosts). */
    static final class Shape {
        final Fabric fabric = new Fabric();
        final Node[] sw;
        final int[] nextPort;

        Shape(int switches, int radix, int hosts) {
            sw = new Node[switches];
            nextPort = new int[switches];
            for (int i = 0; i < switches; i++) {
                sw[i] = add(new Node(NodeType.SWITCH, 0x0008f10000000100L + i, String.format("sw%02d", i + 1),
                        radix));
                nextPort[i] = 1;
            }
            int h = 0;
            for (int i = 0; i < switches; i++) {
                for (int k = 0; k < hosts; k++) {
                    Node ca = add(new Node(NodeType.CA, 0x0002c90300001000L + 2L * h, String.format("h%03d", ++h), 1));
                    connect(ca, 1, i);
                }
            }
        }

        private Node add(Node n) {
            for (int p = n.isSwitch() ? 0 : 1; p <= n.numPorts(); p++) {
                n.port(p).setWidths(LinkWidth.maskOf(LinkWidth.X4), LinkWidth.maskOf(LinkWidth.X4));
                n.port(p).setSpeeds(LinkSpeed.maskOf(LinkSpeed.EDR), LinkSpeed.maskOf(LinkSpeed.EDR));
            }
            return fabric.add(n);
        }

        private void connect(Node ca, int port, int s) {
            fabric.connect(ca.port(port), sw[s].port(nextPort[s]++), Cable.UNRATED);
        }

        /** A cable between switches a and b, on their next free ports. */
        Shape link(int a, int b) {
            fabric.connect(sw[a].port(nextPort[a]++), sw[b].port(nextPort[b]++), Cable.UNRATED);
            return this;
        }

        /** Switches in a ring. */
        static Shape ring(int switches, int hosts) {
            Shape s = new Shape(switches, hosts + 4, hosts);
            for (int i = 0; i < switches; i++) {
                s.link(i, (i + 1) % switches);
            }
            return s;
        }

        SwitchGraph graph() {
            return Graphs.of(fabric);
        }
    }
}
