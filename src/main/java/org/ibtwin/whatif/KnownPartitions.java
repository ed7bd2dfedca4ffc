package org.ibtwin.whatif;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.ibtwin.format.PartitionsConf;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Node;
import org.ibtwin.model.Partitions;
import org.ibtwin.model.Port;

/**
 * The partitions a fabric's ports hold (a snapshot's P_Key tables, or those read from a live fabric), as the
 * partitions.conf that makes ibtwin's SM program them again: without it the SM of the copy would put every port
 * back into the Default partition alone, and the rehearsal would start from a fabric that is not the one there.
 */
public final class KnownPartitions {
    private KnownPartitions() {
    }

    /** The partitions.conf of the ports' tables, or null when every CA port holds the default table only. */
    public static PartitionsConf of(Fabric f, String source) {
        String text = text(f);
        return text == null ? null : PartitionsConf.parse(text, source);
    }

    /** {@link #of}'s partitions.conf as text (for an SM that reads a file: real OpenSM's -P), or null. */
    public static String text(Fabric f) {
        Map<Integer, List<String>> members = new TreeMap<>((a, b) -> a == Partitions.DEFAULT ? -1
                : b == Partitions.DEFAULT ? 1 : Integer.compare(a, b));
        boolean any = false;
        for (Node n : f.nodes()) {
            for (int i = n.isSwitch() ? 0 : 1; i <= (n.isSwitch() ? 0 : n.numPorts()); i++) {
                Port p = n.port(i);
                if (p == null || p.guid() == 0) {
                    continue;
                }
                int[] k = p.pkeys();
                if (!(k.length == 1 && k[0] == 0xffff)) {
                    any = true;
                }
                for (int key : k) {
                    if ((key & Partitions.DEFAULT) == 0) {
                        continue;
                    }
                    members.computeIfAbsent(key & Partitions.DEFAULT, z -> new ArrayList<>()).add(String.format(
                            Locale.ROOT, "0x%016x=%s", p.guid(), (key & Partitions.FULL) != 0 ? "full" : "limited"));
                }
            }
        }
        if (!any) {
            return null;
        }
        StringBuilder b = new StringBuilder();
        for (Map.Entry<Integer, List<String>> e : members.entrySet()) {
            int k = e.getKey();
            b.append(k == Partitions.DEFAULT ? "Default" : String.format(Locale.ROOT, "p%04x", k))
                    .append(String.format(Locale.ROOT, "=0x%04x", k)).append(k == Partitions.DEFAULT ? ", ipoib" : "")
                    .append(" : ").append(String.join(", ", e.getValue())).append(" ;\n");
        }
        return b.toString();
    }
}
