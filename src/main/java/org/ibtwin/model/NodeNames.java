package org.ibtwin.model;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.function.IntToLongFunction;

/**
 * How a node is named for a human, in one place: every command that names a node or a port in a sentence (topo's
 * degraded links, the doctor's findings, up's and the SM's lines) takes its name from here.
 *
 * <p>A node's <em>host name</em> is a CA's first word of its NodeDescription ("node017" of "node017 mlx5_0") and a
 * switch's or router's whole description ("leaf01", "SwitchIB Mellanox Technologies"); a node without a description
 * is named by its fallback (its topology name, or its GUID). Within a fabric a node is called by its host name when
 * no other node has that host name, else by its whole description when that is unique ("node001 mlx5_1" beside
 * "node001 mlx5_0"), else by its description and its GUID: real clusters ship every switch described
 * "SwitchIB Mellanox Technologies", and only the GUID tells them apart:
 * {@code SwitchIB Mellanox Technologies (0xec0d9a0300ec8480)}.
 */
public final class NodeNames {
    private NodeNames() {
    }

    /** The host name of a node: see the class comment; {@code fallback} when the description is blank. */
    public static String hostName(NodeType type, String description, String fallback) {
        String d = description == null ? "" : description.strip();
        if (d.isEmpty()) {
            return fallback;
        }
        if (type != NodeType.CA) {
            return d;
        }
        int i = 0;
        while (i < d.length() && !Character.isWhitespace(d.charAt(i))) {
            i++;
        }
        return d.substring(0, i);
    }

    /** "SwitchIB Mellanox Technologies (0xec0d9a0300ec8480)". */
    public static String withGuid(String name, long guid) {
        return name + " (" + Guids.hex(guid) + ")";
    }

    /**
     * The names of nodes {@code 0..count-1}, told apart as the class comment says.
     *
     * @param fallback what a node without a description is called
     */
    public static String[] of(int count, IntFunction<NodeType> type, IntFunction<String> description,
                              IntFunction<String> fallback, IntToLongFunction guid) {
        String[] host = new String[count];
        String[] desc = new String[count];
        Map<String, Integer> hostCount = HashMap.newHashMap(count);
        Map<String, Integer> descCount = HashMap.newHashMap(count);
        for (int i = 0; i < count; i++) {
            String d = description.apply(i);
            desc[i] = d == null ? "" : d.strip();
            host[i] = hostName(type.apply(i), desc[i], fallback.apply(i));
            hostCount.merge(host[i], 1, Integer::sum);
            descCount.merge(desc[i], 1, Integer::sum);
        }
        String[] out = new String[count];
        for (int i = 0; i < count; i++) {
            if (hostCount.get(host[i]) == 1) {
                out[i] = host[i];
            } else if (!desc[i].isEmpty() && descCount.get(desc[i]) == 1) {
                out[i] = desc[i];
            } else {
                out[i] = withGuid(desc[i].isEmpty() ? host[i] : desc[i], guid.applyAsLong(i));
            }
        }
        return out;
    }

    /** The names of a fabric's nodes (by identity). */
    public static Map<Node, String> of(Fabric f) {
        List<Node> nodes = f.nodes();
        String[] names = of(nodes.size(), i -> nodes.get(i).type(), i -> nodes.get(i).description(),
                i -> nodes.get(i).name(), i -> nodes.get(i).guid());
        Map<Node, String> m = new IdentityHashMap<>(nodes.size() * 2);
        for (int i = 0; i < names.length; i++) {
            m.put(nodes.get(i), names[i]);
        }
        return m;
    }
}
