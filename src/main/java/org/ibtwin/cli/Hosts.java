package org.ibtwin.cli;

import org.ibtwin.model.Fabric;
import org.ibtwin.model.Node;
import org.ibtwin.model.NodeType;
import org.ibtwin.model.Port;
import org.ibtwin.perf.Names;

/** Finding hosts on a fabric by the names admins use. */
final class Hosts {
    private Hosts() {
    }

    /**
     * The CA named {@code name}: by host name ("node001"), whole node description ("node001 mlx5_0") or topology
     * name ("H-0002c90300000002"). Unknown names are a usage error.
     */
    static Node find(Fabric f, String name) {
        Node first = null;
        for (Node n : f.nodes()) {
            if (n.type() != NodeType.CA) {
                continue;
            }
            if (first == null) {
                first = n;
            }
            if (Names.node(n).equals(name) || n.description().equals(name) || n.name().equals(name)) {
                return n;
            }
        }
        throw new IllegalArgumentException("unknown host \"" + name + "\""
                + (first == null ? ": the fabric has no hosts" : " (hosts are named like " + Names.node(first) + ")"));
    }

    /** Port {@code number} of a host; a usage error when it has no such port. */
    static Port port(Node host, int number) {
        Port p = host.port(number);
        if (p == null || number < 1) {
            throw new IllegalArgumentException(Names.node(host) + " has no port " + number + " (it has "
                    + host.numPorts() + ")");
        }
        return p;
    }

    /** The verbs device name of a host's HCA: the second word of its description ("mlx5_0"), else "mlx5_0". */
    static String device(Node host, String prefix) {
        return Names.device(host, prefix);
    }
}
