package org.ibtwin.whatif;

import org.ibtwin.model.Fabric;
import org.ibtwin.model.Guids;
import org.ibtwin.model.Node;
import org.ibtwin.model.Port;
import org.ibtwin.perf.Names;

/**
 * Finds the node a change names, as the tools name nodes: its host name ("node017"), its whole description
 * ("node017 mlx5_0", "leaf02"), its topology id ("S-0002c90380000001"), a node or port GUID ({@code 0x} and more
 * than four hex digits; unsigned, so 0xec0d9a0300ec8480 is a GUID), or a LID (decimal, or {@code 0x} with up to four
 * hex digits). An unknown name is one line naming it.
 */
public final class NodeRef {
    private NodeRef() {
    }

    /**
     * The node {@code name} names on {@code f}.
     *
     * @throws IllegalArgumentException "unknown node \"x\"" when none does
     */
    public static Node find(Fabric f, String name) {
        String s = name.strip();
        Node n = f.byName(s);
        if (n != null) {
            return n;
        }
        for (Node m : f.nodes()) {
            if (m.description().strip().equals(s) || Names.node(m).equals(s)) {
                return m;
            }
        }
        String hex = s.startsWith("0x") || s.startsWith("0X") ? s.substring(2) : null;
        if (hex != null && hex.length() > 4 && hex.length() <= 16 && hex.chars().allMatch(c -> Character.digit(c, 16)
                >= 0)) {
            long g = Guids.parse(s);
            Node byNode = f.byGuid(g);
            if (byNode != null) {
                return byNode;
            }
            for (Node m : f.nodes()) {
                for (int p = m.isSwitch() ? 0 : 1; p <= m.numPorts(); p++) {
                    Port pt = m.port(p);
                    if (pt != null && pt.guid() == g) {
                        return m;
                    }
                }
            }
            throw new IllegalArgumentException("unknown node \"" + name + "\": no node or port has GUID "
                    + Guids.hex(g));
        }
        int lid = -1;
        try {
            lid = hex != null && !hex.isEmpty() && hex.length() <= 4 ? Integer.parseInt(hex, 16)
                    : s.chars().allMatch(Character::isDigit) && !s.isEmpty() && s.length() <= 5 ? Integer.parseInt(s)
                    : -1;
        } catch (NumberFormatException e) {
            lid = -1;
        }
        if (lid > 0) {
            for (Node m : f.nodes()) {
                for (int p = m.isSwitch() ? 0 : 1; p <= (m.isSwitch() ? 0 : m.numPorts()); p++) {
                    Port pt = m.port(p);
                    if (pt != null && pt.lid() > 0 && lid >= pt.lid() && lid < pt.lid() + (1 << pt.lmc())) {
                        return m;
                    }
                }
            }
            throw new IllegalArgumentException("unknown node \"" + name + "\": no port has LID " + lid);
        }
        throw new IllegalArgumentException("unknown node \"" + name + "\"");
    }

    /** Port {@code number} of {@code n}; a usage error when it has none (or, for a port that must link, no link). */
    public static Port port(Node n, int number, boolean linked) {
        Port p = n.port(number);
        if (p == null || number < 1) {
            throw new IllegalArgumentException(Names.node(n) + " has no port " + number + " (it has "
                    + n.numPorts() + ")");
        }
        if (linked && p.link() == null) {
            throw new IllegalArgumentException(Names.port(p) + " has no cable");
        }
        return p;
    }
}
