package org.ibtwin.perf;

import org.ibtwin.model.Link;
import org.ibtwin.model.Node;
import org.ibtwin.model.NodeNames;
import org.ibtwin.model.Port;

/** How results name hosts, ports and links: "node017", "leaf02/33", "leaf02/33 <-> spine01/17". */
public final class Names {
    private Names() {
    }

    /** A CA by its host name (the first word of its description), a switch by its description: {@link NodeNames}. */
    public static String node(Node n) {
        return NodeNames.hostName(n.type(), n.description(), n.name());
    }

    /**
     * The verbs device name of a host's HCA: the second word of its description ("mlx5_0"), else the first device
     * of {@code prefix} ("mlx5_0").
     */
    public static String device(Node host, String prefix) {
        String[] words = host.description() == null ? new String[0] : host.description().trim().split("\\s+");
        return words.length >= 2 ? words[1] : prefix + "_0";
    }

    /** "leaf02/33". */
    public static String port(Port p) {
        return node(p.node()) + "/" + p.number();
    }

    /**
     * "node001/1 -> leaf01 1/33 -> spine01 17/5 -> leaf03 33/2 -> node017/1": the switch ports a route crosses
     * (in, then out, at each switch).
     */
    public static String route(Route r) {
        StringBuilder sb = new StringBuilder(port(r.src()));
        java.util.List<Hop> h = r.hops();
        for (int i = 0; i + 1 < h.size(); i++) {
            Port in = h.get(i).to();
            Port out = h.get(i + 1).from();
            sb.append(" -> ").append(node(in.node())).append(' ').append(in.number()).append('/')
                    .append(out.number());
        }
        return sb.append(" -> ").append(port(r.dst())).toString();
    }

    /** "leaf02/33 <-> spine01/17", ends in the link's own order. */
    public static String link(Link l) {
        return port(l.a()) + " <-> " + port(l.b());
    }
}
