package org.ibtwin.sm;

import java.util.ArrayList;
import java.util.List;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Node;
import org.ibtwin.model.PhysState;
import org.ibtwin.model.Port;
import org.ibtwin.model.PortState;
import org.ibtwin.sim.Attachment;
import org.ibtwin.sim.Twin;
import org.ibtwin.sim.TwinTransport;
import org.ibtwin.transport.MadTransport;

/**
 * Tests only: a twin with our SM attached, and the checks a test makes through the twin's inspection API (which
 * the SM itself never sees): port states, LIDs, and CA-to-CA routes followed through the twin's LFTs.
 */
final class TwinFabric implements AutoCloseable {
    final Fabric fabric;
    final Twin twin;
    final TwinTransport transport;

    TwinFabric(Fabric fabric, String smNode) {
        this.fabric = fabric;
        this.twin = Twin.of(fabric);
        Attachment a = twin.attach(smNode, 0);
        a.setIsSm(true);
        this.transport = new TwinTransport(a);
    }

    TwinFabric(Fabric fabric) {
        this(fabric, fabric.cas().isEmpty() ? fabric.nodes().get(0).name() : fabric.cas().get(0).name());
    }

    /** A second transport at {@code node} (a restarted SM, another SM). */
    MadTransport attach(String node) {
        Attachment a = twin.attach(node, 0);
        a.setIsSm(true);
        return new TwinTransport(a);
    }

    SubnetManager sm(SmConfig cfg) {
        return new SubnetManager(transport, cfg, SmLog.quiet());
    }

    /** Ports of linked pairs that are not Active, as "node/port state". */
    List<String> notActive() {
        List<String> out = new ArrayList<>();
        for (var l : fabric.links()) {
            if (twin.physState(l.a().node().name(), l.a().number()) != PhysState.LINK_UP) {
                continue;
            }
            for (Port p : new Port[] {l.a(), l.b()}) {
                PortState s = twin.portState(p.node().name(), p.number());
                if (s != PortState.ACTIVE) {
                    out.add(p.node().name() + "/" + p.number() + " " + s);
                }
            }
        }
        return out;
    }

    /** End ports (CA ports with a link, switch port 0s) without a LID. */
    List<String> withoutLid() {
        List<String> out = new ArrayList<>();
        for (Node n : fabric.nodes()) {
            if (n.isSwitch()) {
                if (twin.lid(n.name(), 0) == 0) {
                    out.add(n.name() + "/0");
                }
            } else {
                for (int p = 1; p <= n.numPorts(); p++) {
                    if (n.port(p).link() != null && n.port(p).link().isUp() && twin.lid(n.name(), p) == 0) {
                        out.add(n.name() + "/" + p);
                    }
                }
            }
        }
        return out;
    }

    /** Every ordered pair of CA ports with a link: the failures of following the twin's LFTs from one to the other. */
    List<String> unreachableCaPairs(int limit) {
        List<Port> cas = new ArrayList<>();
        for (Node n : fabric.cas()) {
            for (int p = 1; p <= n.numPorts(); p++) {
                if (n.port(p).link() != null && n.port(p).link().isUp()) {
                    cas.add(n.port(p));
                }
            }
        }
        List<String> out = new ArrayList<>();
        for (Port src : cas) {
            for (Port dst : cas) {
                if (src == dst) {
                    continue;
                }
                String why = route(src, twin.lid(dst.node().name(), dst.number()), dst);
                if (why != null && out.size() < limit) {
                    out.add(src.node().name() + " -> " + dst.node().name() + ": " + why);
                }
            }
        }
        return out;
    }

    /** Follows LFTs from {@code src} to {@code lid}; null when it reaches {@code dst}. */
    String route(Port src, int lid, Port dst) {
        if (lid == 0) {
            return "destination has no LID";
        }
        Port at = src.remote();
        for (int hops = 0; hops < 64; hops++) {
            if (at == null) {
                return "a link leads nowhere";
            }
            if (at == dst) {
                return null;
            }
            Node n = at.node();
            if (!n.isSwitch()) {
                return "arrived at " + n.name() + "/" + at.number();
            }
            int out = twin.lftEntry(n.name(), lid);
            if (out == 0xff || out == 0 || out > n.numPorts()) {
                return "no route at " + n.name() + " (entry " + out + ")";
            }
            at = n.port(out).remote();
        }
        return "loop";
    }

    @Override
    public void close() {
        transport.close();
    }
}
