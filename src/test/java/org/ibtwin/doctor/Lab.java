package org.ibtwin.doctor;

import org.ibtwin.format.FabricDescription;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Link;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.Node;
import org.ibtwin.model.Port;
import org.ibtwin.model.PortState;

/** Fabrics for check tests: a healthy HDR fat tree as an SM leaves it (LIDs, Active ports, SM LID 1). */
final class Lab {
    private Lab() {
    }

    /** 60 hosts node001..node060 on 3 leaves (leaf01..leaf03, 20 uplinks each) and 2 spines; LIDs from 1. */
    static Fabric healthy() {
        Fabric f = FatTree.build(FatTreeSpec.of(2, 40, 60).withSpeed(LinkSpeed.HDR));
        assignLids(f);
        return f;
    }

    /** LIDs as an SM hands them out: switches first, then CAs; linked ports Active; SM LID 1. */
    static void assignLids(Fabric f) {
        int lid = 1;
        for (Node n : f.switches()) {
            n.port(0).setLid(lid++);
            n.port(0).setState(PortState.ACTIVE);
        }
        for (Node n : f.cas()) {
            for (int i = 1; i <= n.numPorts(); i++) {
                n.port(i).setLid(lid++);
            }
        }
        for (Node n : f.nodes()) {
            for (int i = n.isSwitch() ? 0 : 1; i <= n.numPorts(); i++) {
                Port p = n.port(i);
                p.setSmLid(1);
                if (p.link() != null && p.link().isUp()) {
                    p.setState(PortState.ACTIVE);
                }
            }
        }
    }

    static Node node(Fabric f, String host) {
        for (Node n : f.nodes()) {
            if (FabricDescription.hostName(n).equals(host)) {
                return n;
            }
        }
        throw new IllegalArgumentException("no node " + host);
    }

    static Port port(Fabric f, String hostPort) {
        int slash = hostPort.lastIndexOf('/');
        return node(f, hostPort.substring(0, slash)).port(Integer.parseInt(hostPort.substring(slash + 1)));
    }

    static Link link(Fabric f, String hostPort) {
        return port(f, hostPort).link();
    }

    static FabricState state(Fabric f) {
        return FabricState.of(f, "lab", "lab.yaml");
    }

    static Report examine(FabricState s) {
        return Doctor.examine(s, new Thresholds());
    }

    static Report examine(Fabric f) {
        return examine(state(f));
    }
}
