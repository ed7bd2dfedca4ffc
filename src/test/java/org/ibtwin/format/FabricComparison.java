package org.ibtwin.format;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Link;
import org.ibtwin.model.Node;
import org.ibtwin.model.Port;

/** A canonical text of what a topology file can say about a fabric, for comparing two fabrics in tests. */
public final class FabricComparison {
    private FabricComparison() {
    }

    public static List<String> canonical(Fabric f) {
        TreeSet<String> lines = new TreeSet<>();
        for (Node n : f.nodes()) {
            StringBuilder sb = new StringBuilder();
            sb.append(n.type()).append(' ').append(Long.toHexString(n.guid())).append(" sys=")
                    .append(Long.toHexString(n.systemImageGuid())).append(" ports=").append(n.numPorts())
                    .append(" ven=").append(n.vendorId()).append(" dev=").append(n.deviceId())
                    .append(" desc=").append(n.description());
            if (n.isSwitch()) {
                sb.append(" lid=").append(n.port(0).lid()).append(" lmc=").append(n.port(0).lmc())
                        .append(" enh=").append(n.enhancedPort0());
            } else {
                for (int i = 1; i <= n.numPorts(); i++) {
                    Port p = n.port(i);
                    if (p.link() != null) {
                        sb.append(" p").append(i).append('=').append(Long.toHexString(p.guid())).append("/lid")
                                .append(p.lid());
                    }
                }
            }
            lines.add(sb.toString());
        }
        for (Link l : f.links()) {
            String a = Long.toHexString(l.a().node().guid()) + "[" + l.a().number() + "]";
            String b = Long.toHexString(l.b().node().guid()) + "[" + l.b().number() + "]";
            String ends = a.compareTo(b) < 0 ? a + "-" + b : b + "-" + a;
            lines.add("link " + ends + " " + l.activeWidth() + " " + l.activeSpeed());
        }
        return new ArrayList<>(lines);
    }
}
