package org.ibtwin.gen;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Link;
import org.ibtwin.model.LinkWidth;
import org.ibtwin.model.Node;
import org.ibtwin.model.Port;

/** Structural checks on generated fat trees, shared by the example and property tests. */
final class TreeChecks {
    private TreeChecks() {
    }

    /** Level of a switch from its description: 1 leaf, 2 spine, 3 core; 0 for a CA. */
    static int level(Node n) {
        if (!n.isSwitch()) {
            return 0;
        }
        String d = n.description();
        if (d.contains("leaf")) {
            return 1;
        }
        if (d.contains("spine")) {
            return 2;
        }
        if (d.contains("core")) {
            return 3;
        }
        throw new AssertionError("unexpected switch " + d);
    }

    static List<Node> atLevel(Fabric f, int level) {
        return f.nodes().stream().filter(n -> level(n) == level).toList();
    }

    /** Links from {@code n} to nodes of a higher level. */
    static int upLinks(Node n) {
        return linksTowards(n, +1);
    }

    /** Links from {@code n} to nodes of a lower level. */
    static int downLinks(Node n) {
        return linksTowards(n, -1);
    }

    private static int linksTowards(Node n, int direction) {
        int count = 0;
        for (int i = 1; i <= n.numPorts(); i++) {
            Port r = n.port(i).remote();
            if (r != null && Integer.signum(level(r.node()) - level(n)) == direction) {
                count++;
            }
        }
        return count;
    }

    /** Distinct neighbours of a switch among the switches, with the number of parallel links to each. */
    static Map<Node, Integer> switchNeighbours(Node n) {
        Map<Node, Integer> m = new HashMap<>();
        for (int i = 1; i <= n.numPorts(); i++) {
            Port r = n.port(i).remote();
            if (r != null && r.node().isSwitch()) {
                m.merge(r.node(), 1, Integer::sum);
            }
        }
        return m;
    }

    /** Every invariant a generated fat tree keeps. */
    static void checkAll(FatTreeSpec spec, Fabric f) {
        FatTree.Plan plan = FatTree.plan(spec);
        int r = spec.radix();
        int d = spec.downPorts();
        int u = spec.upPorts();
        List<Node> leaves = atLevel(f, 1);
        List<Node> spines = atLevel(f, 2);
        List<Node> cores = atLevel(f, 3);

        // counts
        assertThat(f.cas()).hasSize(spec.hosts());
        assertThat(leaves).hasSize(plan.leaves()).hasSize((spec.hosts() + d - 1) / d);
        assertThat(spines).hasSize(plan.spines());
        assertThat(cores).hasSize(plan.cores());
        assertThat(f.switches()).hasSize(plan.switches()).allSatisfy(s -> assertThat(s.numPorts()).isEqualTo(r));
        int expectedLinks = spec.hosts() + leaves.size() * u + (spec.levels() == 3 ? spines.size() * (r / 2) : 0);
        assertThat(f.links()).hasSize(expectedLinks);

        // every CA: one port, one link to a leaf, on a host port
        for (Node ca : f.cas()) {
            assertThat(ca.numPorts()).isEqualTo(1);
            Port remote = ca.port(1).remote();
            assertThat(remote).as("link of %s", ca.description()).isNotNull();
            assertThat(level(remote.node())).isEqualTo(1);
            assertThat(remote.number()).isBetween(1, d);
            assertThat(ca.hostFacts()).isNotNull();
        }

        // no port used twice, links consistent with their ports, all up at the spec speed and 4x
        Set<Port> used = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Link l : f.links()) {
            assertThat(used.add(l.a())).as("port %s used twice", l.a()).isTrue();
            assertThat(used.add(l.b())).as("port %s used twice", l.b()).isTrue();
            assertThat(l.a().link()).isSameAs(l);
            assertThat(l.b().link()).isSameAs(l);
            assertThat(l.a().isSwitchPort0() || l.b().isSwitchPort0()).isFalse();
            assertThat(l.isUp()).as("%s up", l).isTrue();
            assertThat(l.activeSpeed()).isEqualTo(spec.speed());
            assertThat(l.activeWidth()).isEqualTo(LinkWidth.X4);
            assertThat(l.isDegraded()).isFalse();
        }

        // GUIDs: node GUIDs and port GUIDs unique across the fabric, system image GUID = node GUID
        Set<Long> guids = new HashSet<>();
        for (Node n : f.nodes()) {
            assertThat(guids.add(n.guid())).as("node guid of %s", n).isTrue();
            assertThat(n.systemImageGuid()).isEqualTo(n.guid());
            assertThat(n.name()).isEqualTo((n.isSwitch() ? "S-" : "H-") + String.format("%016x", n.guid()));
            if (!n.isSwitch()) {
                assertThat(guids.add(n.port(1).guid())).as("port guid of %s", n).isTrue();
            }
        }

        // leaves: hosts on 1..d, exactly u uplinks on d+1..radix
        for (Node leaf : leaves) {
            assertThat(upLinks(leaf)).as("uplinks of %s", leaf.description()).isEqualTo(u);
            for (int p = d + 1; p <= r; p++) {
                assertThat(level(leaf.port(p).remote().node())).isEqualTo(2);
            }
            assertThat(downLinks(leaf)).isBetween(1, d);
        }
        // no switch above the leaves carries more than radix links (implied by ports) and spines hold up
        if (spec.levels() == 2) {
            for (Node leaf : leaves) {
                assertThat(switchNeighbours(leaf).keySet()).as("spines of %s", leaf.description())
                        .containsExactlyInAnyOrderElementsOf(spines);
            }
        } else {
            int k = r / 2;
            for (Node spine : spines) {
                assertThat(upLinks(spine)).isEqualTo(k);
                assertThat(downLinks(spine)).isBetween(1, k);
                for (int p = 1; p <= r; p++) {
                    Port remote = spine.port(p).remote();
                    if (remote != null) {
                        assertThat(level(remote.node())).isEqualTo(p <= k ? 1 : 3);
                    }
                }
            }
            for (Node leaf : leaves) {
                String pod = pod(leaf);
                assertThat(switchNeighbours(leaf)).as("spines of %s", leaf.description()).hasSize(u)
                        .allSatisfy((s, n) -> {
                            assertThat(pod(s)).isEqualTo(pod);
                            assertThat(n).isEqualTo(1);
                        });
            }
            for (Node core : cores) {
                assertThat(upLinks(core)).isZero();
                assertThat(downLinks(core)).isEqualTo(r - countFree(core)).isPositive();
                Set<String> pods = new HashSet<>();
                for (Node s : switchNeighbours(core).keySet()) {
                    pods.add(pod(s));
                }
                assertThat(pods).as("pods under %s", core.description()).hasSize(plan.pods());
            }
        }

        // 1:1 keeps as many up as down ports on every leaf and pod spine
        if (spec.blocking() == 1) {
            assertThat(u).isEqualTo(d);
        }

        // connectivity: every leaf reaches every other leaf within 2 (or 4) switch hops
        int maxHops = 2 * (spec.levels() - 1);
        List<Node> switches = f.switches();
        Map<Node, Integer> index = new IdentityHashMap<>();
        for (Node s : switches) {
            index.put(s, index.size());
        }
        int[][] adjacent = new int[switches.size()][];
        for (Node s : switches) {
            adjacent[index.get(s)] = switchNeighbours(s).keySet().stream().mapToInt(index::get).toArray();
        }
        for (Node leaf : leaves) {
            int[] dist = hops(adjacent, index.get(leaf));
            for (Node other : leaves) {
                int h = dist[index.get(other)];
                if (h < 0 || h > maxHops) {
                    throw new AssertionError(leaf.description() + " reaches " + other.description() + " in " + h
                            + " hops, not within " + maxHops);
                }
            }
        }
    }

    /** When every leaf (and pod) is full, up links equal down links at each level below the top. */
    static void checkBalancedWhenFull(FatTreeSpec spec, Fabric f) {
        for (int level = 1; level < spec.levels(); level++) {
            for (Node n : atLevel(f, level)) {
                assertThat(upLinks(n)).as("up = down at %s", n.description()).isEqualTo(downLinks(n));
            }
        }
    }

    private static String pod(Node n) {
        return n.description().substring(0, n.description().indexOf('-'));
    }

    private static int countFree(Node n) {
        int free = 0;
        for (int i = 1; i <= n.numPorts(); i++) {
            if (n.port(i).link() == null) {
                free++;
            }
        }
        return free;
    }

    /** Hop distances from switch {@code start} over an adjacency list, -1 where unreachable. */
    private static int[] hops(int[][] adjacent, int start) {
        int[] dist = new int[adjacent.length];
        Arrays.fill(dist, -1);
        int[] queue = new int[adjacent.length];
        int head = 0;
        int tail = 0;
        dist[start] = 0;
        queue[tail++] = start;
        while (head < tail) {
            int n = queue[head++];
            for (int next : adjacent[n]) {
                if (dist[next] < 0) {
                    dist[next] = dist[n] + 1;
                    queue[tail++] = next;
                }
            }
        }
        return dist;
    }
}
