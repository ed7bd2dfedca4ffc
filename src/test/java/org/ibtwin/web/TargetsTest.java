package org.ibtwin.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.ibtwin.doctor.Doctor;
import org.ibtwin.doctor.FabricState;
import org.ibtwin.doctor.Finding;
import org.ibtwin.doctor.Thresholds;
import org.ibtwin.format.FabricFiles;
import org.ibtwin.model.Fabric;
import org.junit.jupiter.api.Test;

/**
 * The targets of a finding from {@link Targets}' indexes are exactly those a pass over every link, node and port
 * finds ({@link #scan}, the meaning written out plainly): on the doctor's findings, on every link, node and port name
 * in either order, and on places made of pieces of them.
 */
class TargetsTest {

    /** The node the doctor calls {@code host} (its description's first word). */
    private static org.ibtwin.model.Node node(Fabric f, String host) {
        return f.nodes().stream().filter(n -> n.description().split(" ")[0].equals(host)).findFirst().orElseThrow();
    }

    /** The meaning, one pass over the view per place. */
    private static List<String> scan(FabricView v, String where) {
        List<String> out = new ArrayList<>();
        for (FabricView.LinkRow l : v.links()) {
            if (where.contains(l.name()) || where.contains(l.b() + " <-> " + l.a())) {
                out.add(l.id());
            }
        }
        if (out.isEmpty()) {
            for (FabricView.NodeRow n : v.nodes()) {
                if (where.equals(n.name()) || where.startsWith(n.name() + "/") || where.startsWith(n.name() + " ")
                        || where.startsWith(n.name() + ":")) {
                    out.add(n.id());
                }
            }
        }
        if (out.isEmpty()) {
            for (FabricView.PortRow p : v.ports()) {
                if (where.contains(p.node() + "/" + p.port()) && !p.linkId().isEmpty()) {
                    out.add(p.linkId());
                    break;
                }
            }
        }
        return out;
    }

    @Test
    void theIndexesFindWhatAPassOverTheFabricFinds() {
        Fabric f = FabricFiles.loadDefault();
        f.disconnect(node(f, "leaf01").port(21).link());   // a port without a link
        FabricState s = FabricState.of(f, "default", "default.yaml");
        FabricView v = FabricView.of("default", false, s, null, 1, null);
        List<String> places = new ArrayList<>();
        for (Finding x : Doctor.examine(s, new Thresholds()).findings()) {
            places.add(x.where());
        }
        for (FabricView.LinkRow l : v.links()) {
            places.add(l.name());
            places.add(l.b() + " <-> " + l.a());
            places.add("between " + l.name() + " and more");
            places.add(l.a());
        }
        for (FabricView.NodeRow n : v.nodes()) {
            places.add(n.name());
            places.add(n.name() + ": a note");
            places.add(n.name() + " mlx5_0");
            places.add(n.name() + "x");
        }
        for (FabricView.PortRow p : v.ports()) {
            places.add(p.node() + "/" + p.port() + "7");
            places.add("port " + p.node() + "/0" + p.port());
            places.add("[" + p.node() + "/" + p.port() + "]");
        }
        places.addAll(List.of("", "/", " <-> ", "node[001-004]/1", "leaf01/21 <-> spine01/1", "leaf01/21",
                "node001/1,node002/1", "spine01/17 <-> leaf02/33, leaf02/33 <-> spine01/17"));
        Random r = new Random(19);
        String all = String.join(" | ", places.subList(0, 400));
        for (int i = 0; i < 2000; i++) {
            int a = r.nextInt(all.length());
            places.add(all.substring(a, Math.min(all.length(), a + 1 + r.nextInt(60))));
        }
        int named = 0;
        for (String w : places) {
            List<String> got = v.targets(w);
            assertThat(got).as("targets of \"%s\"", w).isEqualTo(scan(v, w));
            named += got.isEmpty() ? 0 : 1;
        }
        assertThat(named).isGreaterThan(places.size() / 2);
    }
}
