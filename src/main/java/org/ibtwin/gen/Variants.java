package org.ibtwin.gen;

import java.util.ArrayList;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Link;
import org.ibtwin.model.Node;
import org.ibtwin.model.Port;

/**
 * Changes to a generated fabric that make the variants real machines are: switch-to-switch links missing (pulled,
 * failed) or extra (cabled into free ports), a switch failed, and dual-rail hosts. Random choices come from a
 * seeded generator, so the same arguments give the same fabric.
 */
public final class Variants {
    private Variants() {
    }

    /**
     * Pulls {@code count} switch-to-switch links chosen at random ({@code seed}), never one whose loss would cut the
     * switches in two; fails when fewer can go.
     */
    public static List<String> removeLinks(Fabric f, int count, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        List<String> removed = new ArrayList<>();
        List<Link> candidates = new ArrayList<>(interSwitch(f));
        while (removed.size() < count) {
            if (candidates.isEmpty()) {
                throw new IllegalArgumentException("missing links: only " + removed.size() + " of " + count
                        + " switch links can be removed without cutting the fabric in two");
            }
            Link l = candidates.remove(rnd.nextInt(candidates.size()));
            f.disconnect(l);
            if (switchesConnected(f)) {
                removed.add(l.a() + " <-> " + l.b());
            } else {
                f.connect(l.a(), l.b(), l.cable());
            }
        }
        return removed;
    }

    /**
     * Cables {@code count} extra links between free ports of two different switches chosen at random
     * ({@code seed}); fails when the free ports run out.
     */
    public static List<String> addLinks(Fabric f, int count, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        List<String> added = new ArrayList<>();
        List<Port> free = new ArrayList<>();
        for (Node n : f.switches()) {
            for (int p = 1; p <= n.numPorts(); p++) {
                if (n.port(p).link() == null) {
                    free.add(n.port(p));
                }
            }
        }
        Link template = interSwitch(f).isEmpty() ? null : interSwitch(f).get(0);
        if (template == null) {
            throw new IllegalArgumentException("extra links: the fabric has no switch link to copy the cable of");
        }
        int tries = 0;
        while (added.size() < count) {
            if (free.size() < 2 || ++tries > 100 * count + 1000) {
                throw new IllegalArgumentException("extra links: only " + added.size() + " of " + count
                        + " fit in the switches' free ports");
            }
            Port a = free.get(rnd.nextInt(free.size()));
            Port b = free.get(rnd.nextInt(free.size()));
            if (a.node() == b.node()) {
                continue;
            }
            free.remove(a);
            free.remove(b);
            f.connect(a, b, template.cable());
            added.add(a + " <-> " + b);
        }
        return added;
    }

    /** Pulls every cable of the switch named by its description's first word (or topology name). */
    public static int failSwitch(Fabric f, String name) {
        Node sw = null;
        for (Node n : f.switches()) {
            if (n.description().split(" ")[0].equals(name) || n.name().equals(name)) {
                sw = n;
            }
        }
        if (sw == null) {
            throw new IllegalArgumentException("fail-switch: no switch named '" + name + "'");
        }
        int pulled = 0;
        for (int p = 1; p <= sw.numPorts(); p++) {
            Link l = sw.port(p).link();
            if (l != null) {
                f.disconnect(l);
                pulled++;
            }
        }
        return pulled;
    }

    /**
     * Dual rail: a fat tree of twice the hosts whose CAs {@code n+1..2n} become the second adapter
     * ({@code mlx5_1}) of hosts {@code 1..n}; as hosts fill leaves in order, a host's two rails land on different
     * leaves whenever it has more than one leaf's worth of hosts.
     */
    public static Fabric dualRail(FatTreeSpec spec) {
        Fabric f = FatTree.build(spec.withHosts(spec.hosts() * 2));
        List<Node> cas = f.cas();
        int n = spec.hosts();
        FabricBuilder names = new FabricBuilder(spec.speed(), spec.guidBase(), spec::hostName);
        for (int i = 0; i < cas.size(); i++) {
            cas.get(i).setDescription(spec.hostName(i % n + 1) + " " + names.caPortName(i / n));
        }
        return f;
    }

    private static List<Link> interSwitch(Fabric f) {
        List<Link> l = new ArrayList<>();
        for (Link k : f.links()) {
            if (k.a().node().isSwitch() && k.b().node().isSwitch()) {
                l.add(k);
            }
        }
        return l;
    }

    /** Whether the switches that have any link are all one component. */
    static boolean switchesConnected(Fabric f) {
        Map<Node, List<Node>> adj = new HashMap<>();
        for (Link k : interSwitch(f)) {
            adj.computeIfAbsent(k.a().node(), x -> new ArrayList<>()).add(k.b().node());
            adj.computeIfAbsent(k.b().node(), x -> new ArrayList<>()).add(k.a().node());
        }
        long withLinks = f.switches().stream().filter(s -> {
            for (int p = 1; p <= s.numPorts(); p++) {
                if (s.port(p).link() != null) {
                    return true;
                }
            }
            return false;
        }).count();
        if (adj.isEmpty()) {
            return withLinks <= 1;
        }
        Node start = adj.keySet().iterator().next();
        ArrayDeque<Node> q = new ArrayDeque<>(List.of(start));
        java.util.Set<Node> seen = new java.util.HashSet<>(List.of(start));
        while (!q.isEmpty()) {
            for (Node m : adj.getOrDefault(q.poll(), List.of())) {
                if (seen.add(m)) {
                    q.add(m);
                }
            }
        }
        return seen.size() == withLinks;
    }
}
