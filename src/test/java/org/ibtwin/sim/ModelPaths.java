package org.ibtwin.sim;

import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.Map;
import org.ibtwin.model.Node;
import org.ibtwin.model.Port;

/** Directed-route paths through the model, computed from its links: the answer key for the twin. */
final class ModelPaths {
    private ModelPaths() {
    }

    /** A shortest directed route (egress ports) from {@code start}'s port {@code port} to every node. */
    static Map<Node, int[]> from(Node start, int port) {
        Map<Node, int[]> paths = new LinkedHashMap<>();
        paths.put(start, new int[0]);
        ArrayDeque<Node> q = new ArrayDeque<>();
        Port first = start.port(port);
        if (first.remote() != null && first.link().isUp()) {
            Node n = first.remote().node();
            paths.putIfAbsent(n, new int[] {port});
            q.add(n);
        }
        if (start.isSwitch()) {
            q.add(start);
        }
        while (!q.isEmpty()) {
            Node n = q.poll();
            if (!n.isSwitch()) {
                continue;
            }
            int[] base = paths.get(n);
            for (int p = 1; p <= n.numPorts(); p++) {
                Port r = n.port(p).remote();
                if (r == null || !n.port(p).link().isUp() || paths.containsKey(r.node())) {
                    continue;
                }
                paths.put(r.node(), MiniSm.append(base, p));
                q.add(r.node());
            }
        }
        return paths;
    }
}
