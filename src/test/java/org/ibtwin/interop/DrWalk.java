package org.ibtwin.interop;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.ibtwin.diag.MadQuery;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.PortId;
import org.ibtwin.mad.SmpAttributes;
import org.ibtwin.transport.IbsimClient;

/**
 * The nodes of a running ibsim (real or ibtwin's), found by directed route from where clients attach (its first
 * node): switches once each, CA ports once each, with the LIDs the SM gave them. What the interop tests that query
 * every node (smpquery/perfquery's, the diag tools') walk.
 */
final class DrWalk {
    /** A node reached: the port it was reached by ({@code port}), the path there, what NodeInfo/PortInfo say. */
    record Found(boolean isSwitch, int lid, int numPorts, int port, boolean enhancedPort0, int[] path, long portGuid,
                 String desc) {
    }

    /** The walk: where its client attached, and what it found in breadth-first order. */
    record Walk(String attachedNode, List<Found> found) {
    }

    private DrWalk() {
    }

    static Walk of(int ibsimPort) {
        List<Found> found = new ArrayList<>();
        try (IbsimClient c = IbsimClient.connect("127.0.0.1", ibsimPort, null, false)) {
            MadQuery q = new MadQuery(c);
            Set<Long> seen = new HashSet<>();
            Deque<int[]> queue = new ArrayDeque<>();
            queue.add(new int[] {0});
            while (!queue.isEmpty()) {
                int[] path = queue.poll();
                PortId dest = PortId.directed(path);
                byte[] ni = q.smpGet(dest, AttributeIds.NODE_INFO, 0);
                boolean sw = SmpAttributes.NODE_INFO.get(ni, 0, "NodeType") == 2;
                int n = (int) SmpAttributes.NODE_INFO.get(ni, 0, "NumPorts");
                long portGuid = SmpAttributes.NODE_INFO.get(ni, 0, "PortGuid");
                int local = (int) SmpAttributes.NODE_INFO.get(ni, 0, "LocalPort");
                if (!seen.add(portGuid)) {
                    continue;
                }
                int lid = (int) SmpAttributes.PORT_INFO.get(q.smpGet(dest, AttributeIds.PORT_INFO, 0), 0, "Lid");
                String desc = new String(q.smpGet(dest, AttributeIds.NODE_DESC, 0), StandardCharsets.UTF_8)
                        .replace("\0", "");
                boolean enhanced = sw && SmpAttributes.SWITCH_INFO.get(q.smpGet(dest, AttributeIds.SWITCH_INFO, 0),
                        0, "EnhancedPort0") == 1;
                found.add(new Found(sw, lid, n, local, enhanced, path, portGuid, desc));
                if (sw || path.length == 1) {
                    for (int p = sw ? 1 : local; p <= (sw ? n : local); p++) {
                        byte[] pi = q.smpGet(dest, AttributeIds.PORT_INFO, p);
                        if (SmpAttributes.PORT_INFO.get(pi, 0, "LinkState") >= 2) {
                            int[] next = Arrays.copyOf(path, path.length + 1);
                            next[path.length] = p;
                            queue.add(next);
                        }
                    }
                }
            }
            return new Walk(c.attachedNode(), found);
        }
    }
}
