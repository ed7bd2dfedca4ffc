package org.ibtwin.format;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Link;
import org.ibtwin.model.NaturalOrder;
import org.ibtwin.model.Node;
import org.ibtwin.model.NodeNames;
import org.ibtwin.model.NodeType;
import org.ibtwin.model.Port;

/**
 * A fabric as Slurm's topology plugins take it, and the one writer of their files: {@code topology.conf} for
 * topology/tree ({@code SwitchName=... Nodes=...} for a leaf, {@code SwitchName=... Switches=...} above),
 * {@code topology.conf} for topology/block ({@code BlockName=... Nodes=...} per leaf, then {@code BlockSizes}), and
 * {@code topology.yaml} holding both (the tree the cluster default).
 *
 * <p>Hosts are grouped exactly as the cabling does: a host sits under the leaf switch its HCA port is cabled to
 * (a host with HCAs on several leaves, as on a rail-optimised GPU fabric, under the leaf of its first HCA in name
 * order; the others are reported). A switch's level is 1 when a CA is cabled to it, else one more than the lowest
 * level among the switches it is cabled to; a switch lists the switches one level below it that it is cabled to.
 * Host names are {@link NodeNames#hostName}'s (a CA's first word of its description, or of the name the node name
 * map gives it). Hosts left out ({@code include} false: storage, management) leave out the switches that then
 * serve no host. Switch names are the switch's description where that is a valid, unique Slurm name, else
 * {@code S-<guid>} as ibnetdiscover names a switch.
 *
 * <p>Block sizes follow topology/block's rules: the first is the base block (the fewest hosts on a leaf, as no
 * block may hold fewer), each next one is the base times a power of two, up to all the blocks together; blocks
 * are aggregated in file order, so leaves are listed by the switch above them and then by name.
 *
 * @param switches the switches that serve an included host, lowest level first, each level in name order
 * @param blocks   the leaves (as blocks), in aggregation order
 */
public record SlurmTopology(List<Switch> switches, List<Switch> blocks, List<Integer> blockSizes) {
    /** Slurm's hostlist syntax takes only these characters in a name (and a name must not be empty). */
    private static final Pattern SLURM_NAME = Pattern.compile("[A-Za-z0-9._-]+");

    /**
     * A switch as Slurm sees it.
     *
     * @param name     its Slurm name
     * @param guid     its node GUID
     * @param level    1 for a leaf
     * @param hosts    a leaf's hosts, in natural order (empty above the leaves)
     * @param children the names of the switches below it, in natural order (empty for a leaf)
     */
    public record Switch(String name, long guid, int level, List<String> hosts, List<String> children) {
        public Switch {
            hosts = List.copyOf(hosts);
            children = List.copyOf(children);
        }
    }

    public SlurmTopology {
        switches = List.copyOf(switches);
        blocks = List.copyOf(blocks);
        blockSizes = List.copyOf(blockSizes);
    }

    /**
     * The topology of {@code fabric}.
     *
     * @param names   names for GUIDs (a node name map; its names stand in for descriptions)
     * @param include which host names to put in
     * @param warn    receives a line per host whose HCAs sit on more than one leaf, and per host name Slurm cannot
     *                take
     * @throws IllegalArgumentException when no host is left to put in
     */
    public static SlurmTopology of(Fabric fabric, NodeNameMap names, Predicate<String> include,
                                   Consumer<String> warn) {
        // each included host: its CA ports' leaves, HCAs in name order
        Map<String, List<Node>> hostLeaves = new TreeMap<>(NaturalOrder::compare);
        Map<String, List<String>> hostCas = new HashMap<>();
        Set<Node> leaves = new HashSet<>();
        List<Node> cas = new ArrayList<>(fabric.cas());
        cas.sort(Comparator.comparing((Node n) -> description(n, names), NaturalOrder::compare));
        for (Node ca : cas) {
            Node leaf = null;
            for (int p = 1; p <= ca.numPorts(); p++) {
                Link l = ca.port(p).link();
                if (l != null && l.other(ca.port(p)).node().isSwitch()) {
                    leaf = l.other(ca.port(p)).node();
                    leaves.add(leaf);
                    break;
                }
            }
            String host = NodeNames.hostName(NodeType.CA, description(ca, names), ca.name());
            if (leaf == null || !include.test(host)) {
                continue;
            }
            if (!SLURM_NAME.matcher(host).matches()) {
                warn.accept("host \"" + host + "\" (" + ca.name() + "): not a name Slurm can take; left out");
                continue;
            }
            List<Node> ls = hostLeaves.computeIfAbsent(host, h -> new ArrayList<>());
            if (!ls.contains(leaf)) {
                ls.add(leaf);
            }
            hostCas.computeIfAbsent(host, h -> new ArrayList<>()).add(description(ca, names));
        }
        if (hostLeaves.isEmpty()) {
            throw new IllegalArgumentException("no host left to put in the topology (every CA left out or "
                    + "uncabled)");
        }
        // levels: leaves 1, then breadth-first upwards
        Map<Node, Integer> level = new HashMap<>();
        List<Node> frontier = new ArrayList<>();
        for (Node s : fabric.switches()) {
            if (leaves.contains(s)) {
                level.put(s, 1);
                frontier.add(s);
            }
        }
        while (!frontier.isEmpty()) {
            List<Node> next = new ArrayList<>();
            for (Node s : frontier) {
                for (Node peer : switchPeers(s)) {
                    if (!level.containsKey(peer)) {
                        level.put(peer, level.get(s) + 1);
                        next.add(peer);
                    }
                }
            }
            frontier = next;
        }
        Map<Node, String> switchNames = switchNames(fabric);
        // leaves' hosts
        Map<Node, List<String>> leafHosts = new HashMap<>();
        for (Map.Entry<String, List<Node>> e : hostLeaves.entrySet()) {
            List<Node> ls = e.getValue();
            leafHosts.computeIfAbsent(ls.getFirst(), k -> new ArrayList<>()).add(e.getKey());
            if (ls.size() > 1) {
                List<String> where = new ArrayList<>();
                ls.forEach(l -> where.add(switchNames.get(l)));
                warn.accept("host " + e.getKey() + " has HCAs on " + ls.size() + " leaves (" + String.join(", ", where)
                        + "): listed under " + where.getFirst() + ", the leaf of " + hostCas.get(e.getKey()).getFirst());
            }
        }
        // which switches serve an included host: the leaves with hosts, then upwards
        Set<Node> serving = new HashSet<>(leafHosts.keySet());
        int top = level.values().stream().mapToInt(Integer::intValue).max().orElse(1);
        Map<Node, List<String>> children = new HashMap<>();
        for (int lv = 2; lv <= top; lv++) {
            for (Map.Entry<Node, Integer> e : level.entrySet()) {
                if (e.getValue() != lv) {
                    continue;
                }
                List<String> below = new ArrayList<>();
                for (Node peer : switchPeers(e.getKey())) {
                    if (level.get(peer) == lv - 1 && serving.contains(peer)) {
                        below.add(switchNames.get(peer));
                    }
                }
                if (!below.isEmpty()) {
                    below.sort(NaturalOrder::compare);
                    children.put(e.getKey(), below);
                    serving.add(e.getKey());
                }
            }
        }
        List<Switch> out = new ArrayList<>();
        for (Node s : serving) {
            List<String> hosts = leafHosts.getOrDefault(s, List.of());
            out.add(new Switch(switchNames.get(s), s.guid(), level.get(s), hosts,
                    children.getOrDefault(s, List.of())));
        }
        out.sort(Comparator.comparingInt(Switch::level).thenComparing(Switch::name, NaturalOrder::compare));
        List<Switch> blocks = blockOrder(out, fabric, switchNames);
        return new SlurmTopology(out, blocks, blockSizes(blocks));
    }

    private static String description(Node n, NodeNameMap names) {
        String mapped = names.get(n.guid());
        return mapped != null ? mapped : n.description();
    }

    /** The switches cabled to {@code s}, each once. */
    private static List<Node> switchPeers(Node s) {
        List<Node> out = new ArrayList<>();
        for (int p = 1; p <= s.numPorts(); p++) {
            Port port = s.port(p);
            Link l = port.link();
            if (l != null) {
                Node peer = l.other(port).node();
                if (peer.isSwitch() && peer != s && !out.contains(peer)) {
                    out.add(peer);
                }
            }
        }
        return out;
    }

    /** Each switch's Slurm name: its description when valid and unique among the switches, else S-GUID. */
    private static Map<Node, String> switchNames(Fabric fabric) {
        Map<String, Integer> count = new HashMap<>();
        for (Node s : fabric.switches()) {
            count.merge(s.description().strip(), 1, Integer::sum);
        }
        Map<Node, String> names = new LinkedHashMap<>();
        for (Node s : fabric.switches()) {
            String d = s.description().strip();
            names.put(s, SLURM_NAME.matcher(d).matches() && count.get(d) == 1 ? d
                    : String.format("S-%016x", s.guid()));
        }
        return names;
    }

    /** The leaves in aggregation order: grouped by the first switch above them (in name order), then by name. */
    private static List<Switch> blockOrder(List<Switch> switches, Fabric fabric, Map<Node, String> names) {
        Map<String, String> parent = new HashMap<>();
        for (Switch s : switches) {
            for (String c : s.children()) {
                if (s.level() == 2) {
                    parent.merge(c, s.name(), (a, b) -> NaturalOrder.compare(a, b) <= 0 ? a : b);
                }
            }
        }
        // a leaf's group: the lowest-named level-2 switch above it whose children are the leaf's pod
        Map<String, String> group = new HashMap<>();
        Map<String, Switch> byName = new HashMap<>();
        switches.forEach(s -> byName.put(s.name(), s));
        for (Switch s : switches) {
            if (s.level() == 1) {
                String p = parent.get(s.name());
                Switch ps = p == null ? null : byName.get(p);
                group.put(s.name(), ps == null ? "" : ps.children().getFirst());
            }
        }
        List<Switch> leaves = new ArrayList<>();
        for (Switch s : switches) {
            if (s.level() == 1) {
                leaves.add(s);
            }
        }
        leaves.sort(Comparator.comparing((Switch s) -> group.get(s.name()), NaturalOrder::compare)
                .thenComparing(Switch::name, NaturalOrder::compare));
        return leaves;
    }

    /** topology/block's BlockSizes: the fewest hosts on a block, then it times 2, 4, ... up to every block. */
    private static List<Integer> blockSizes(List<Switch> blocks) {
        int base = Integer.MAX_VALUE;
        for (Switch b : blocks) {
            base = Math.min(base, b.hosts().size());
        }
        List<Integer> sizes = new ArrayList<>();
        sizes.add(base);
        for (int k = 2; k <= blocks.size() && sizes.size() < 16; k *= 2) {
            sizes.add(base * k);
        }
        return sizes;
    }

    /** A hostlist expression of {@code names}, as Slurm's parser reads it ({@code node[001-016,018]}). */
    public static String hostlist(List<String> names) {
        List<String> numbered = new ArrayList<>();
        List<String> parts = new ArrayList<>();
        for (String n : names) {
            if (Character.isDigit(n.charAt(n.length() - 1))) {
                numbered.add(n);
            } else {
                parts.add(n);   // Slurm's brackets end a name; one with a suffix goes as it is
            }
        }
        if (!numbered.isEmpty()) {
            parts.addFirst(NamePattern.compress(numbered));
        }
        return String.join(",", parts);
    }

    /** topology.conf for topology/tree. */
    public String treeConf(String header) {
        StringBuilder sb = new StringBuilder();
        comment(sb, header, "TopologyPlugin=topology/tree");
        for (Switch s : switches) {
            sb.append("SwitchName=").append(s.name());
            if (s.level() == 1) {
                sb.append(" Nodes=").append(hostlist(s.hosts()));
            } else {
                sb.append(" Switches=").append(hostlist(s.children()));
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /** topology.conf for topology/block. */
    public String blockConf(String header) {
        StringBuilder sb = new StringBuilder();
        comment(sb, header, "TopologyPlugin=topology/block");
        for (Switch b : blocks) {
            sb.append("BlockName=").append(b.name()).append(" Nodes=").append(hostlist(b.hosts())).append('\n');
        }
        sb.append("BlockSizes=").append(join(blockSizes)).append('\n');
        return sb.toString();
    }

    /** topology.yaml: the tree (the cluster's default) and the blocks, named {@code name}-tree and -block. */
    public String yaml(String header, String name) {
        StringBuilder sb = new StringBuilder();
        comment(sb, header, "topology.yaml (Slurm 25.05 and later)");
        sb.append("---\n");
        sb.append("- topology: ").append(name).append("-tree\n");
        sb.append("  cluster_default: true\n");
        sb.append("  tree:\n");
        sb.append("    switches:\n");
        for (Switch s : switches) {
            sb.append("      - switch: ").append(s.name()).append('\n');
            if (s.level() == 1) {
                sb.append("        nodes: ").append(hostlist(s.hosts())).append('\n');
            } else {
                sb.append("        children: ").append(hostlist(s.children())).append('\n');
            }
        }
        sb.append("- topology: ").append(name).append("-block\n");
        sb.append("  cluster_default: false\n");
        sb.append("  block:\n");
        sb.append("    block_sizes: [").append(join(blockSizes).replace(",", ", ")).append("]\n");
        sb.append("    blocks:\n");
        for (Switch b : blocks) {
            sb.append("      - block: ").append(b.name()).append('\n');
            sb.append("        nodes: ").append(hostlist(b.hosts())).append('\n');
        }
        return sb.toString();
    }

    private static void comment(StringBuilder sb, String header, String what) {
        if (header != null) {
            for (String line : header.split("\n")) {
                sb.append("# ").append(line).append('\n');
            }
        }
        sb.append("# ").append(what).append('\n');
    }

    private static String join(List<Integer> sizes) {
        StringBuilder sb = new StringBuilder();
        for (int s : sizes) {
            if (!sb.isEmpty()) {
                sb.append(',');
            }
            sb.append(s);
        }
        return sb.toString();
    }
}
