package org.ibtwin.format;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ibtwin.format.YamlTree.YEntry;
import org.ibtwin.format.YamlTree.YList;
import org.ibtwin.format.YamlTree.YMap;
import org.ibtwin.format.YamlTree.YNode;
import org.ibtwin.format.YamlTree.YScalar;
import org.ibtwin.model.Cable;
import org.ibtwin.model.CableKind;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.HostFacts;
import org.ibtwin.model.IpoibMode;
import org.ibtwin.model.Link;
import org.ibtwin.model.LinkLayer;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.LinkWidth;
import org.ibtwin.model.Node;
import org.ibtwin.model.NodeNames;
import org.ibtwin.model.PcieGen;
import org.ibtwin.model.Port;

/**
 * A fabric description: a YAML file that adds to a fabric what ibnetdiscover cannot say — the hosts around the
 * CAs, the cables, the link layer of ports.
 *
 * <pre>{@code
 * # ibtwin fabric description
 * topology: cluster.topo        # optional: ibnetdiscover or ibsim net file, path relative to this file
 * defaults:
 *   host:                        # applied to every CA
 *     pcie: gen4 x16
 *     ipoib: connected
 *   cable:
 *     kind: passive-copper
 *     length: 2
 * hosts:                         # overrides, applied in order, matched against the host name
 *   - match: "node[001-064]"
 *     gpu: true
 * ports:                         # per-port overrides: "<host or switch name>/<port>"
 *   - match: "node005/1"
 *     link_layer: ethernet
 * cables:                        # per-link cables, by one end "<name>/<port>" (either end)
 *   - end: "leaf01/33"
 *     kind: active-optical
 *     length: 10
 *     max_speed: DDR
 *     max_width: 4x
 * }</pre>
 *
 * <h2>Keys</h2>
 * Every section is optional; an empty file is a description that sets the built-in host facts
 * ({@link HostFacts#DEFAULT}) on every CA and leaves the cables alone.
 * <dl>
 *   <dt>{@code topology}</dt>
 *   <dd>The topology file (ibnetdiscover output or an ibsim net file) the description belongs to, relative to the
 *       description's directory; see {@link #topologyPath()}.</dd>
 *   <dt>{@code defaults.host}</dt>
 *   <dd>Host facts for every CA, on top of {@link HostFacts#DEFAULT}; keys left out keep the built-in value:
 *     <ul>
 *       <li>{@code pcie}: negotiated generation and lanes, {@code gen1..gen6} and {@code x1, x2, x4, x8, x16}, as
 *           in {@code gen4 x16}</li>
 *       <li>{@code max_payload}: PCIe max payload size in bytes, a power of two in 128..4096</li>
 *       <li>{@code numa_node}: the NUMA node the HCA hangs off, below {@code numa_nodes}</li>
 *       <li>{@code numa_nodes}, {@code sockets}, {@code cores_per_numa}: NUMA nodes, CPU sockets and cores per
 *           NUMA node of the host, each 1 or more</li>
 *       <li>{@code ipoib}: IPoIB mode, {@code connected} or {@code datagram}</li>
 *       <li>{@code ipoib_mtu}: IPoIB interface MTU, 256..65520 in connected mode, 256..4092 in datagram mode</li>
 *       <li>{@code driver}: {@code loaded} or {@code missing} (mlx5_core / mlx5_ib)</li>
 *       <li>{@code gpu}: {@code true} when the host has GPUs</li>
 *       <li>{@code gpudirect}: {@code true} when nvidia_peermem is loaded (GPUDirect RDMA)</li>
 *       <li>{@code gpus}: GPUs in the host, 1..16 (default 8; only meaningful with {@code gpu})</li>
 *       <li>{@code nvlink}: each GPU's NVLink bandwidth in one direction, GB/s (default 450, NVLink 4; 0 for GPUs
 *           that talk over PCIe)</li>
 *       <li>{@code nvls}: {@code true} when the GPUs hang off an NVSwitch with multicast and in-switch reduction
 *           (NVLink SHARP; default true)</li>
 *       <li>{@code gpu_numa_node}: the NUMA node the GPUs hang off, below {@code numa_nodes} (default 0); when it
 *           is not {@code numa_node} the GPU-to-NIC path crosses the inter-socket link</li>
 *     </ul></dd>
 *   <dt>{@code defaults.cable}</dt>
 *   <dd>When present, the cable of every link is replaced by this one: {@code kind} ({@code passive-copper},
 *       {@code active-copper}, {@code active-optical}, {@code transceiver-fibre}, or {@code unknown}, the
 *       default), {@code length} in metres (0 or more, default 0), {@code max_speed} the fastest speed it carries
 *       ({@code SDR} .. {@code XDR}, default XDR: no limit) and {@code max_width} the widest width it carries
 *       ({@code 1x} .. {@code 12x}, default 12x: no limit). When absent, links keep their cables.</dd>
 *   <dt>{@code hosts}</dt>
 *   <dd>A list of overrides. Each has {@code match}, a {@link NamePattern} matched against the
 *       {@linkplain #hostName(Node) host name} of every CA, and any of the {@code defaults.host} keys. They are
 *       applied in order, each over what came before; a {@code match} that matches no CA is an error.</dd>
 *   <dt>{@code ports}</dt>
 *   <dd>A list of per-port overrides. {@code match} is {@code <name>/<port>}: a name pattern matched against the
 *       host name or the topology name ({@link Node#name()}) of every node, a slash, and a port number or a
 *       pattern of port numbers ({@code leaf01/[1-4]}, {@code node00[1-4]/1}). {@code link_layer} is
 *       {@code infiniband} or {@code ethernet}; the port's link trains again (a link with an Ethernet end stays
 *       down).</dd>
 *   <dt>{@code cables}</dt>
 *   <dd>A list of per-link cables. {@code end} names one end of each link, {@code <name>/<port>} as in
 *       {@code ports}; either end will do. The other keys are those of {@code defaults.cable} and replace only
 *       what they give, over the default cable (or over the link's own cable when there is no
 *       {@code defaults.cable}). The links train again.</dd>
 * </dl>
 *
 * <h2>Errors</h2>
 * Every problem is a {@link FormatException} naming the file, the line of the offending key and the key's path
 * ({@code hosts[1].pcie}, counting list entries from 0). {@link #read} checks everything that does not need a
 * fabric; {@link #applyTo} reports patterns that match nothing and host facts that contradict each other only
 * in combination, and changes nothing in the fabric when it fails.
 */
public final class FabricDescription {

    /** The keys of a host section, in the order the writer emits them. */
    private enum HostKey {
        PCIE("pcie"), MAX_PAYLOAD("max_payload"), NUMA_NODE("numa_node"), NUMA_NODES("numa_nodes"),
        SOCKETS("sockets"), CORES_PER_NUMA("cores_per_numa"), IPOIB("ipoib"), IPOIB_MTU("ipoib_mtu"),
        DRIVER("driver"), GPU("gpu"), GPUDIRECT("gpudirect"), GPUS("gpus"), NVLINK("nvlink"), NVLS("nvls"),
        GPU_NUMA_NODE("gpu_numa_node");

        final String key;

        HostKey(String key) {
            this.key = key;
        }

        static HostKey of(String key) {
            for (HostKey k : values()) {
                if (k.key.equals(key)) {
                    return k;
                }
            }
            return null;
        }
    }

    /** The GPU board's keys, written in {@code defaults.host} only where they differ from the built-in board. */
    private static final Set<HostKey> GPU_BOARD = Set.of(HostKey.GPUS, HostKey.NVLINK, HostKey.NVLS,
            HostKey.GPU_NUMA_NODE);

    private static final List<String> HOST_KEYS = Arrays.stream(HostKey.values()).map(k -> k.key).toList();
    private static final List<String> CABLE_KEYS = List.of("kind", "length", "max_speed", "max_width");
    private static final List<String> TOP_KEYS = List.of("topology", "defaults", "hosts", "ports", "cables");
    private static final List<String> DEFAULTS_KEYS = List.of("host", "cable");
    private static final List<String> PORT_KEYS = List.of("match", "link_layer");

    /** Host keys that constrain each other; the writer keeps each group together. */
    private static final List<List<HostKey>> UNITS = List.of(List.of(HostKey.PCIE), List.of(HostKey.MAX_PAYLOAD),
            List.of(HostKey.NUMA_NODE, HostKey.NUMA_NODES, HostKey.GPU_NUMA_NODE), List.of(HostKey.SOCKETS),
            List.of(HostKey.CORES_PER_NUMA), List.of(HostKey.IPOIB, HostKey.IPOIB_MTU), List.of(HostKey.DRIVER),
            List.of(HostKey.GPU), List.of(HostKey.GPUDIRECT), List.of(HostKey.GPUS), List.of(HostKey.NVLINK),
            List.of(HostKey.NVLS));

    private static final Pattern PCIE = Pattern.compile("(?i)\\s*gen\\s*(\\d{1,2})\\s*x\\s*(\\d{1,3})\\s*");
    private static final Pattern PORT_PART = Pattern.compile("[0-9\\[\\],*-]+");

    private record Pcie(PcieGen gen, int lanes) {
        String label() {
            return "gen" + gen.number() + " x" + lanes;
        }
    }

    /** One host key as written: its value, where it is, and its path for messages. */
    private record Setting(HostKey key, Object value, String path, int line) {
    }

    private record HostRule(String path, NamePattern match, int matchLine, List<Setting> settings) {
    }

    /** A {@code <name>/<port>} pattern. */
    private record PortMatch(String text, String path, int line, NamePattern node, NamePattern port) {
        boolean matches(Port p) {
            return p.number() > 0 && port.matches(Integer.toString(p.number())) && matchesNode(node, p.node());
        }
    }

    private record PortRule(PortMatch match, LinkLayer layer) {
    }

    /** Cable keys as written; null where not given. */
    private record CableSpec(CableKind kind, Double length, LinkSpeed maxSpeed, LinkWidth maxWidth) {
        Cable over(Cable base) {
            return new Cable(kind != null ? kind : base.kind(), length != null ? length : base.lengthMetres(),
                    maxSpeed != null ? maxSpeed : base.maxSpeed(), maxWidth != null ? maxWidth : base.maxWidth());
        }
    }

    private record CableRule(PortMatch end, CableSpec spec) {
    }

    private final String file;
    private final String topology;
    private final Path topologyPath;
    private final int topologyLine;
    private final Facts hostDefaults;
    private final Cable cableDefault;
    private final List<HostRule> hostRules;
    private final List<PortRule> portRules;
    private final List<CableRule> cableRules;

    private FabricDescription(String file, String topology, Path topologyPath, int topologyLine, Facts hostDefaults,
                              Cable cableDefault, List<HostRule> hostRules, List<PortRule> portRules,
                              List<CableRule> cableRules) {
        this.file = file;
        this.topology = topology;
        this.topologyPath = topologyPath;
        this.topologyLine = topologyLine;
        this.hostDefaults = hostDefaults;
        this.cableDefault = cableDefault;
        this.hostRules = hostRules;
        this.portRules = portRules;
        this.cableRules = cableRules;
    }

    // ------------------------------------------------------------------------------------------------ reading

    /**
     * Reads and checks a description file. Messages name the file as given.
     *
     * @throws FormatException when the file cannot be read or is wrong in any way
     */
    public static FabricDescription read(Path file) {
        long bytes;
        try {
            bytes = Files.size(file);
        } catch (IOException e) {
            throw TextFiles.failure(file, file.toString(), e);
        }
        // a code point is at most 4 bytes: a file this large is over the limit without reading it
        if (bytes > 4L * YamlTree.MAX_CODE_POINTS) {
            throw YamlTree.tooLarge(file.toString());
        }
        return parse(TextFiles.read(file), file);
    }

    /**
     * Parses description text as though read from {@code file}, which names it in messages and anchors the
     * topology path; the file itself is not read.
     *
     * @throws FormatException when the text is wrong in any way
     */
    public static FabricDescription parse(String yaml, Path file) {
        return new Reader(file.toString()).read(yaml, file);
    }

    /** Turns the YAML tree into a description, checking as it goes. */
    private static final class Reader {
        private final String file;

        Reader(String file) {
            this.file = file;
        }

        FabricDescription read(String yaml, Path path) {
            YNode root = YamlTree.parse(yaml, file);
            if (root != null && !(root instanceof YMap)) {
                throw fail(root.line(), "expected a mapping with keys " + String.join(", ", TOP_KEYS)
                        + " at the top, found " + root.describe());
            }
            YMap top = root == null ? new YMap(1, List.of()) : (YMap) root;
            checkKeys(top, "", TOP_KEYS);
            String topology = null;
            Path topologyPath = null;
            int topologyLine = 0;
            YEntry t = entry(top, "topology");
            if (t != null) {
                topologyLine = t.line();
                topology = text(t, "topology");
                if (topology.isBlank()) {
                    throw fail(t.line(), "topology: empty file name");
                }
                try {
                    topologyPath = path.resolveSibling(topology);
                } catch (InvalidPathException e) {
                    throw fail(t.line(), "topology: \"" + topology + "\" is not a file name");
                }
            }
            Facts defaults = Facts.of(HostFacts.DEFAULT);
            Cable cable = null;
            YEntry d = entry(top, "defaults");
            if (d != null) {
                YMap dm = section(d, "defaults");
                checkKeys(dm, "defaults", DEFAULTS_KEYS);
                YEntry h = entry(dm, "host");
                if (h != null) {
                    YMap hm = section(h, "defaults.host");
                    checkKeys(hm, "defaults.host", HOST_KEYS);
                    for (Setting s : settings(hm, "defaults.host")) {
                        defaults.set(s);
                    }
                    defaults.check(file, "");
                }
                YEntry c = entry(dm, "cable");
                if (c != null) {
                    YMap cm = section(c, "defaults.cable");
                    checkKeys(cm, "defaults.cable", CABLE_KEYS);
                    cable = cableSpec(cm, "defaults.cable").over(Cable.UNRATED);
                }
            }
            List<HostRule> hosts = new ArrayList<>();
            forEachItem(top, "hosts", (m, p) -> {
                checkKeys(m, p, with("match", HOST_KEYS));
                YEntry match = required(m, p, "match");
                NamePattern pattern = pattern(match, p + ".match", text(match, p + ".match"));
                List<Setting> settings = settings(m, p);
                Facts check = defaults.copy();
                for (Setting s : settings) {
                    check.set(s);
                }
                check.check(file, "");
                hosts.add(new HostRule(p, pattern, match.line(), settings));
            });
            List<PortRule> ports = new ArrayList<>();
            forEachItem(top, "ports", (m, p) -> {
                checkKeys(m, p, PORT_KEYS);
                PortMatch match = portMatch(required(m, p, "match"), p + ".match");
                YEntry layer = required(m, p, "link_layer");
                String v = text(layer, p + ".link_layer");
                LinkLayer ll = switch (v.trim().toLowerCase(Locale.ROOT)) {
                    case "infiniband", "ib" -> LinkLayer.INFINIBAND;
                    case "ethernet", "eth" -> LinkLayer.ETHERNET;
                    default -> throw fail(layer.line(), p + ".link_layer: \"" + v
                            + "\" is not a link layer (expected infiniband or ethernet)");
                };
                ports.add(new PortRule(match, ll));
            });
            List<CableRule> cables = new ArrayList<>();
            forEachItem(top, "cables", (m, p) -> {
                checkKeys(m, p, with("end", CABLE_KEYS));
                PortMatch end = portMatch(required(m, p, "end"), p + ".end");
                cables.add(new CableRule(end, cableSpec(m, p)));
            });
            return new FabricDescription(file, topology, topologyPath, topologyLine, defaults, cable,
                    List.copyOf(hosts), List.copyOf(ports), List.copyOf(cables));
        }

        private interface ItemReader {
            void read(YMap item, String path);
        }

        /** Reads each mapping of a list section ({@code hosts}, {@code ports}, {@code cables}). */
        private void forEachItem(YMap top, String key, ItemReader reader) {
            YEntry e = entry(top, key);
            if (e == null || e.value() instanceof YScalar s && s.isNull()) {
                return;
            }
            if (!(e.value() instanceof YList list)) {
                throw fail(e.line(), key + ": expected a list, found " + e.value().describe());
            }
            for (int i = 0; i < list.items().size(); i++) {
                YNode item = list.items().get(i);
                String path = key + "[" + i + "]";
                if (!(item instanceof YMap m)) {
                    throw fail(item.line(), path + ": expected a mapping, found " + item.describe());
                }
                reader.read(m, path);
            }
        }

        private List<Setting> settings(YMap m, String path) {
            List<Setting> out = new ArrayList<>();
            for (YEntry e : m.entries()) {
                HostKey k = HostKey.of(e.key());
                if (k != null) {
                    String p = path + "." + e.key();
                    out.add(new Setting(k, hostValue(k, e, p), p, e.line()));
                }
            }
            return List.copyOf(out);
        }

        private Object hostValue(HostKey k, YEntry e, String p) {
            return switch (k) {
                case PCIE -> {
                    String v = text(e, p);
                    Matcher mm = PCIE.matcher(v);
                    PcieGen gen = mm.matches() ? PcieGen.of(Integer.parseInt(mm.group(1))) : null;
                    if (gen == null) {
                        throw fail(e.line(), p + ": \"" + v + "\" is not a PCIe link (expected like \"gen4 x16\")");
                    }
                    int lanes = Integer.parseInt(mm.group(2));
                    if (Integer.bitCount(lanes) != 1 || lanes > 16) {
                        throw fail(e.line(), p + ": \"" + v + "\" has " + lanes
                                + " lanes (expected x1, x2, x4, x8 or x16)");
                    }
                    yield new Pcie(gen, lanes);
                }
                case MAX_PAYLOAD -> {
                    int v = integer(e, p);
                    if (v < 128 || v > 4096 || Integer.bitCount(v) != 1) {
                        throw fail(e.line(), p + ": " + v
                                + " is not a PCIe max payload (expected 128, 256, 512, 1024, 2048 or 4096)");
                    }
                    yield v;
                }
                case NUMA_NODE -> atLeast(e, p, 0);
                case NUMA_NODES, SOCKETS, CORES_PER_NUMA -> atLeast(e, p, 1);
                case IPOIB -> {
                    String v = text(e, p);
                    yield switch (v.trim().toLowerCase(Locale.ROOT)) {
                        case "connected" -> IpoibMode.CONNECTED;
                        case "datagram" -> IpoibMode.DATAGRAM;
                        default -> throw fail(e.line(), p + ": \"" + v
                                + "\" is not an IPoIB mode (expected connected or datagram)");
                    };
                }
                case IPOIB_MTU -> {
                    int v = integer(e, p);
                    if (v < 256 || v > IpoibMode.CONNECTED.defaultMtu()) {
                        throw fail(e.line(), p + ": " + v + " is outside 256.." + IpoibMode.CONNECTED.defaultMtu());
                    }
                    yield v;
                }
                case DRIVER -> {
                    String v = text(e, p);
                    yield switch (v.trim().toLowerCase(Locale.ROOT)) {
                        case "loaded" -> true;
                        case "missing" -> false;
                        default -> throw fail(e.line(), p + ": \"" + v
                                + "\" is not a driver state (expected loaded or missing)");
                    };
                }
                case GPU, GPUDIRECT, NVLS -> bool(e, p);
                case GPUS -> {
                    int v = integer(e, p);
                    if (v < 1 || v > HostFacts.MAX_GPUS) {
                        throw fail(e.line(), p + ": " + v + " is outside 1.." + HostFacts.MAX_GPUS);
                    }
                    yield v;
                }
                case NVLINK -> atLeast(e, p, 0);
                case GPU_NUMA_NODE -> atLeast(e, p, 0);
            };
        }

        private CableSpec cableSpec(YMap m, String path) {
            CableKind kind = null;
            Double length = null;
            LinkSpeed speed = null;
            LinkWidth width = null;
            for (YEntry e : m.entries()) {
                String p = path + "." + e.key();
                switch (e.key()) {
                    case "kind" -> {
                        String v = text(e, p);
                        kind = CableKind.parse(v);
                        if (kind == null) {
                            throw fail(e.line(), p + ": \"" + v + "\" is not a cable kind (expected passive-copper,"
                                    + " active-copper, active-optical, transceiver-fibre or unknown)");
                        }
                    }
                    case "length" -> {
                        double v = number(e, p);
                        if (v < 0 || !Double.isFinite(v)) {
                            throw fail(e.line(), p + ": " + ((YScalar) e.value()).text()
                                    + " is not a cable length (expected metres, 0 or more)");
                        }
                        length = v;
                    }
                    case "max_speed" -> {
                        String v = text(e, p);
                        speed = LinkSpeed.parse(v);
                        if (speed == null) {
                            throw fail(e.line(), p + ": \"" + v + "\" is not a link speed (expected "
                                    + orList(Arrays.stream(LinkSpeed.values()).map(LinkSpeed::label).toList()) + ")");
                        }
                    }
                    case "max_width" -> {
                        String v = text(e, p);
                        width = LinkWidth.parse(v);
                        if (width == null) {
                            throw fail(e.line(), p + ": \"" + v + "\" is not a link width (expected "
                                    + orList(Arrays.stream(LinkWidth.values()).map(LinkWidth::label).toList()) + ")");
                        }
                    }
                    default -> {
                        // "end" and checked elsewhere
                    }
                }
            }
            return new CableSpec(kind, length, speed, width);
        }

        private PortMatch portMatch(YEntry e, String p) {
            String v = text(e, p);
            int slash = v.lastIndexOf('/');
            if (slash <= 0 || slash == v.length() - 1) {
                throw fail(e.line(), p + ": \"" + v + "\" is not <name>/<port> (expected like \"node005/1\")");
            }
            String portText = v.substring(slash + 1);
            if (!PORT_PART.matcher(portText).matches()) {
                throw fail(e.line(), p + ": \"" + v + "\" ends in \"" + portText + "\", not a port number");
            }
            return new PortMatch(v, p, e.line(), pattern(e, p, v.substring(0, slash)), pattern(e, p, portText));
        }

        private NamePattern pattern(YEntry e, String p, String text) {
            try {
                return NamePattern.parse(text);
            } catch (IllegalArgumentException ex) {
                throw fail(e.line(), p + ": " + ex.getMessage());
            }
        }

        // ---------------------------------------------------------------------------------- shapes and types

        private void checkKeys(YMap m, String path, List<String> allowed) {
            Map<String, Integer> seen = new HashMap<>();
            for (YEntry e : m.entries()) {
                String where = path.isEmpty() ? "" : path + ": ";
                Integer first = seen.putIfAbsent(e.key(), e.line());
                if (first != null) {
                    throw fail(e.line(), where + "duplicate key \"" + e.key() + "\" (first at line " + first + ")");
                }
                if (!allowed.contains(e.key())) {
                    throw fail(e.line(), where + "unknown key \"" + e.key() + "\" (allowed: "
                            + String.join(", ", allowed) + ")");
                }
            }
        }

        private static List<String> with(String first, List<String> rest) {
            List<String> out = new ArrayList<>();
            out.add(first);
            out.addAll(rest);
            return out;
        }

        private static YEntry entry(YMap m, String key) {
            for (YEntry e : m.entries()) {
                if (e.key().equals(key)) {
                    return e;
                }
            }
            return null;
        }

        private YEntry required(YMap m, String path, String key) {
            YEntry e = entry(m, key);
            if (e == null) {
                throw fail(m.line(), path + ": missing key \"" + key + "\"");
            }
            return e;
        }

        /** A mapping section; an empty value counts as an empty mapping. */
        private YMap section(YEntry e, String path) {
            if (e.value() instanceof YMap m) {
                return m;
            }
            if (e.value() instanceof YScalar s && s.isNull()) {
                return new YMap(e.line(), List.of());
            }
            throw fail(e.line(), path + ": expected a mapping, found " + e.value().describe());
        }

        private YScalar scalar(YEntry e, String p, String expected) {
            if (e.value() instanceof YScalar s && !s.isNull() && !(s.isString() && s.text().isBlank())) {
                return s;
            }
            if (e.value() instanceof YScalar) {
                throw fail(e.line(), p + ": missing value (expected " + expected + ")");
            }
            String hint = e.value() instanceof YList && "text".equals(expected)
                    ? " (quote patterns that start with \"[\")" : "";
            throw fail(e.line(), p + ": expected " + expected + ", found " + e.value().describe() + hint);
        }

        private String text(YEntry e, String p) {
            YScalar s = scalar(e, p, "text");
            if (s.token() == JsonToken.VALUE_TRUE || s.token() == JsonToken.VALUE_FALSE) {
                throw fail(e.line(), p + ": expected text, found " + s.describe());
            }
            return s.text();
        }

        private int integer(YEntry e, String p) {
            YScalar s = scalar(e, p, "a whole number");
            if (s.token() != JsonToken.VALUE_NUMBER_INT) {
                throw fail(e.line(), p + ": expected a whole number, found " + s.describe());
            }
            long v = s.number().longValue();
            if (v != s.number().doubleValue() || v > Integer.MAX_VALUE || v < Integer.MIN_VALUE) {
                throw fail(e.line(), p + ": " + s.text() + " is out of range");
            }
            return (int) v;
        }

        private int atLeast(YEntry e, String p, int min) {
            int v = integer(e, p);
            if (v < min) {
                throw fail(e.line(), p + ": " + v + " is out of range (expected " + min + " or more)");
            }
            return v;
        }

        private double number(YEntry e, String p) {
            YScalar s = scalar(e, p, "a number");
            if (s.token() != JsonToken.VALUE_NUMBER_INT && s.token() != JsonToken.VALUE_NUMBER_FLOAT) {
                throw fail(e.line(), p + ": expected a number, found " + s.describe());
            }
            return s.number().doubleValue();
        }

        private boolean bool(YEntry e, String p) {
            YScalar s = scalar(e, p, "true or false");
            if (s.token() == JsonToken.VALUE_TRUE) {
                return true;
            }
            if (s.token() == JsonToken.VALUE_FALSE) {
                return false;
            }
            throw fail(e.line(), p + ": expected true or false, found " + s.describe());
        }

        private FormatException fail(int line, String message) {
            return new FormatException(file, line, message);
        }
    }

    private static String orList(List<String> items) {
        return String.join(", ", items.subList(0, items.size() - 1)) + " or " + items.get(items.size() - 1);
    }

    /**
     * Host facts being put together key by key, remembering which setting gave each key so that a contradiction
     * is blamed on the key written last.
     */
    private static final class Facts {
        private final EnumMap<HostKey, Object> values = new EnumMap<>(HostKey.class);
        private final EnumMap<HostKey, Setting> origin = new EnumMap<>(HostKey.class);
        private final EnumMap<HostKey, Integer> order = new EnumMap<>(HostKey.class);
        private int counter;

        static Facts of(HostFacts h) {
            Facts f = new Facts();
            f.values.putAll(valuesOf(h));
            return f;
        }

        Facts copy() {
            Facts f = new Facts();
            f.values.putAll(values);
            f.origin.putAll(origin);
            f.order.putAll(order);
            f.counter = counter;
            return f;
        }

        void set(Setting s) {
            values.put(s.key(), s.value());
            origin.put(s.key(), s);
            order.put(s.key(), ++counter);
        }

        private int integer(HostKey k) {
            return (Integer) values.get(k);
        }

        /** Throws when keys contradict each other; {@code where} is appended to the message. */
        void check(String file, String where) {
            int node = integer(HostKey.NUMA_NODE);
            int nodes = integer(HostKey.NUMA_NODES);
            if (node >= nodes) {
                Setting s = later(HostKey.NUMA_NODE, HostKey.NUMA_NODES);
                String range = nodes == 1 ? "0" : "0.." + (nodes - 1);
                throw new FormatException(file, s.line(), s.key() == HostKey.NUMA_NODE
                        ? s.path() + ": " + node + " is outside " + range + " (numa_nodes is " + nodes + ")" + where
                        : s.path() + ": " + nodes + " leaves numa_node " + node + " outside " + range + where);
            }
            int gpuNode = integer(HostKey.GPU_NUMA_NODE);
            if (gpuNode >= nodes) {
                Setting s = later(HostKey.GPU_NUMA_NODE, HostKey.NUMA_NODES);
                String range = nodes == 1 ? "0" : "0.." + (nodes - 1);
                throw new FormatException(file, s.line(), s.key() == HostKey.GPU_NUMA_NODE
                        ? s.path() + ": " + gpuNode + " is outside " + range + " (numa_nodes is " + nodes + ")" + where
                        : s.path() + ": " + nodes + " leaves gpu_numa_node " + gpuNode + " outside " + range
                                + where);
            }
            IpoibMode mode = (IpoibMode) values.get(HostKey.IPOIB);
            int mtu = integer(HostKey.IPOIB_MTU);
            if (mtu > maxMtu(mode)) {
                Setting s = later(HostKey.IPOIB, HostKey.IPOIB_MTU);
                int max = maxMtu(mode);
                throw new FormatException(file, s.line(), s.key() == HostKey.IPOIB_MTU
                        ? s.path() + ": " + mtu + " is above " + max + ", the most datagram mode allows" + where
                        : s.path() + ": datagram mode allows an ipoib_mtu of at most " + max + ", not " + mtu
                                + where);
            }
        }

        private Setting later(HostKey a, HostKey b) {
            int oa = order.getOrDefault(a, 0);
            int ob = order.getOrDefault(b, 0);
            return oa >= ob ? origin.get(a) : origin.get(b);
        }

        HostFacts build() {
            Pcie pcie = (Pcie) values.get(HostKey.PCIE);
            return new HostFacts(pcie.gen(), pcie.lanes(), integer(HostKey.MAX_PAYLOAD),
                    integer(HostKey.NUMA_NODE), integer(HostKey.SOCKETS), integer(HostKey.NUMA_NODES),
                    integer(HostKey.CORES_PER_NUMA), (IpoibMode) values.get(HostKey.IPOIB),
                    integer(HostKey.IPOIB_MTU), (Boolean) values.get(HostKey.DRIVER),
                    (Boolean) values.get(HostKey.GPU), (Boolean) values.get(HostKey.GPUDIRECT),
                    integer(HostKey.GPUS), integer(HostKey.NVLINK), (Boolean) values.get(HostKey.NVLS),
                    integer(HostKey.GPU_NUMA_NODE));
        }
    }

    private static int maxMtu(IpoibMode mode) {
        return mode == IpoibMode.CONNECTED ? 65520 : 4092;
    }

    private static EnumMap<HostKey, Object> valuesOf(HostFacts h) {
        EnumMap<HostKey, Object> v = new EnumMap<>(HostKey.class);
        v.put(HostKey.PCIE, new Pcie(h.pcieGen(), h.pcieLanes()));
        v.put(HostKey.MAX_PAYLOAD, h.maxPayload());
        v.put(HostKey.NUMA_NODE, h.hcaNumaNode());
        v.put(HostKey.NUMA_NODES, h.numaNodes());
        v.put(HostKey.SOCKETS, h.sockets());
        v.put(HostKey.CORES_PER_NUMA, h.coresPerNuma());
        v.put(HostKey.IPOIB, h.ipoibMode());
        v.put(HostKey.IPOIB_MTU, h.ipoibMtu());
        v.put(HostKey.DRIVER, h.driverLoaded());
        v.put(HostKey.GPU, h.gpu());
        v.put(HostKey.GPUDIRECT, h.gpuDirect());
        v.put(HostKey.GPUS, h.gpus());
        v.put(HostKey.NVLINK, h.nvlinkGBps());
        v.put(HostKey.NVLS, h.nvls());
        v.put(HostKey.GPU_NUMA_NODE, h.gpuNumaNode());
        return v;
    }

    // ------------------------------------------------------------------------------------------------ queries

    /** The file as named when read, used in messages. */
    public String file() {
        return file;
    }

    /** The {@code topology} value as written, or null. */
    public String topology() {
        return topology;
    }

    /** The topology file resolved against the description's directory, or null when there is none. */
    public Path topologyPath() {
        return topologyPath;
    }

    /** The line of the {@code topology} key, 0 when there is none. */
    public int topologyLine() {
        return topologyLine;
    }

    /** The host facts of a CA no {@code hosts} entry matches: the built-in defaults with {@code defaults.host}. */
    public HostFacts hostDefaults() {
        return hostDefaults.build();
    }

    /** The cable {@code defaults.cable} puts on every link, or null when the description has none. */
    public Cable defaultCable() {
        return cableDefault;
    }

    /**
     * The name descriptions match a node by. For a CA, the first word of its node description ({@code node017}
     * for {@code "node017 mlx5_0"}); for a switch or router the whole description. A node with a blank
     * description goes by its topology name.
     */
    public static String hostName(Node n) {
        return NodeNames.hostName(n.type(), n.description(), n.name());
    }

    /** Ports and cables name a node by its host name or by its topology name. */
    private static boolean matchesNode(NamePattern p, Node n) {
        return p.matches(hostName(n)) || p.matches(n.name());
    }

    // ------------------------------------------------------------------------------------------------ applying

    /**
     * Applies the description to a fabric: host facts on every CA (built-in defaults, {@code defaults.host},
     * then each matching {@code hosts} entry in order), the link layer of the ports {@code ports} names, and the
     * cables ({@code defaults.cable} on every link, then each {@code cables} entry in order); links whose cable
     * or port link layer changed train again. Everything is checked before anything changes.
     *
     * @throws FormatException when a pattern matches nothing or a CA's facts contradict each other
     */
    public void applyTo(Fabric f) {
        Map<Node, HostFacts> facts = new LinkedHashMap<>();
        boolean[] used = new boolean[hostRules.size()];
        List<Node> cas = f.cas();
        for (Node ca : cas) {
            String name = hostName(ca);
            Facts b = hostDefaults.copy();
            for (int i = 0; i < hostRules.size(); i++) {
                HostRule r = hostRules.get(i);
                if (r.match().matches(name)) {
                    used[i] = true;
                    for (Setting s : r.settings()) {
                        b.set(s);
                    }
                    b.check(file, " (host " + name + ")");
                }
            }
            facts.put(ca, b.build());
        }
        for (int i = 0; i < used.length; i++) {
            if (!used[i]) {
                HostRule r = hostRules.get(i);
                throw new FormatException(file, r.matchLine(), r.path() + ".match: \"" + r.match().text()
                        + "\" matches no host");
            }
        }

        Map<Port, LinkLayer> layers = new IdentityHashMap<>();
        for (PortRule r : portRules) {
            boolean any = false;
            for (Node n : f.nodes()) {
                for (int i = 1; i <= n.numPorts(); i++) {
                    Port p = n.port(i);
                    if (r.match().matches(p)) {
                        layers.put(p, r.layer());
                        any = true;
                    }
                }
            }
            if (!any) {
                throw noMatch(r.match(), "port");
            }
        }

        Map<Link, Cable> cables = new IdentityHashMap<>();
        if (cableDefault != null) {
            for (Link l : f.links()) {
                cables.put(l, cableDefault);
            }
        }
        for (CableRule r : cableRules) {
            boolean any = false;
            for (Link l : f.links()) {
                if (r.end().matches(l.a()) || r.end().matches(l.b())) {
                    cables.put(l, r.spec().over(cables.getOrDefault(l, l.cable())));
                    any = true;
                }
            }
            if (!any) {
                throw noMatch(r.end(), "cabled port");
            }
        }

        facts.forEach(Node::setHostFacts);
        Set<Link> retrain = new LinkedHashSet<>();
        layers.forEach((p, layer) -> {
            if (p.linkLayer() != layer) {
                p.setLinkLayer(layer);
                if (p.link() != null) {
                    retrain.add(p.link());
                }
            }
        });
        for (Link l : f.links()) {
            Cable c = cables.get(l);
            if (c != null && !c.equals(l.cable())) {
                l.setCable(c);
                retrain.remove(l);
            }
        }
        retrain.forEach(Link::train);
    }

    private FormatException noMatch(PortMatch m, String what) {
        return new FormatException(file, m.line(), m.path() + ": \"" + m.text() + "\" matches no " + what);
    }

    // ------------------------------------------------------------------------------------------------ writing

    /**
     * Writes a description that reproduces the fabric's host facts, Ethernet ports and cables. The defaults are
     * the most common host facts and the most common cable; {@code hosts} entries give what differs from them,
     * one entry per set of hosts that differ alike, named with {@link NamePattern#compress}; {@code cables}
     * entries name the links whose cable differs from the default, by their switch end where the name is
     * unique. CAs without host facts are left out (reading the description back gives them the defaults); a
     * host with several HCAs of different facts is written with its first HCA's facts, and noted in a comment.
     *
     * @param topologyRef the {@code topology} value to write, or null for none
     */
    public static String write(Fabric f, String topologyRef) {
        List<String> notes = new ArrayList<>();
        Map<String, Object> root = new LinkedHashMap<>();
        if (topologyRef != null) {
            root.put("topology", topologyRef);
        }

        Map<String, HostFacts> hosts = new LinkedHashMap<>();
        for (Node ca : f.cas()) {
            HostFacts h = ca.hostFacts();
            if (h != null) {
                String name = hostName(ca);
                HostFacts first = hosts.putIfAbsent(name, h);
                if (first != null && !first.equals(h)) {
                    notes.add("host " + name + " has HCAs with different facts; " + ca.description()
                            + " is written with those of the first");
                }
            }
        }
        Map<String, Object> defaults = new LinkedHashMap<>();
        HostFacts def = mostCommon(hosts.values());
        if (def != null) {
            Map<String, Object> hm = new LinkedHashMap<>();
            EnumMap<HostKey, Object> builtIn = valuesOf(HostFacts.DEFAULT);
            valuesOf(def).forEach((k, v) -> {
                // the GPU board's keys only where they differ from the built-in board
                if (!GPU_BOARD.contains(k) || !v.equals(builtIn.get(k))) {
                    hm.put(k.key, yamlValue(k, v));
                }
            });
            defaults.put("host", hm);
        }
        Cable defCable = mostCommon(f.links().stream().map(Link::cable).toList());
        if (defCable != null) {
            defaults.put("cable", cableMap(defCable, null));
        }
        if (!defaults.isEmpty()) {
            root.put("defaults", defaults);
        }

        List<Map<String, Object>> hostEntries = hostOverrides(hosts, def);
        if (!hostEntries.isEmpty()) {
            root.put("hosts", hostEntries);
        }

        Map<String, Integer> nameUses = new HashMap<>();
        for (Node n : f.nodes()) {
            for (String name : new HashSet<>(List.of(hostName(n), n.name()))) {
                nameUses.merge(name, 1, Integer::sum);
            }
        }
        Map<String, TreeSet<Integer>> ethernet = new LinkedHashMap<>();
        for (Node n : f.nodes()) {
            for (int i = 1; i <= n.numPorts(); i++) {
                if (n.port(i).linkLayer() == LinkLayer.ETHERNET) {
                    String name = uniqueName(n, nameUses);
                    if (name == null) {
                        notes.add("port " + n.port(i) + " runs Ethernet but its node has no unique name; left out");
                    } else {
                        ethernet.computeIfAbsent(name, k -> new TreeSet<>()).add(i);
                    }
                }
            }
        }
        if (!ethernet.isEmpty()) {
            List<Map<String, Object>> ports = new ArrayList<>();
            ethernet.forEach((name, nums) -> {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("match", portRef(name, nums));
                m.put("link_layer", "ethernet");
                ports.add(m);
            });
            root.put("ports", ports);
        }

        record CableGroup(String node, Cable cable) {
        }
        Map<CableGroup, TreeSet<Integer>> cableGroups = new LinkedHashMap<>();
        for (Link l : f.links()) {
            if (l.cable().equals(defCable)) {
                continue;
            }
            boolean bFirst = l.b().node().isSwitch() && !l.a().node().isSwitch();
            Port first = bFirst ? l.b() : l.a();
            Port second = bFirst ? l.a() : l.b();
            Port end = uniqueName(first.node(), nameUses) != null ? first
                    : uniqueName(second.node(), nameUses) != null ? second : null;
            if (end == null) {
                notes.add("the cable of " + l + " differs from the default but neither end has a unique name;"
                        + " left out");
                continue;
            }
            cableGroups.computeIfAbsent(new CableGroup(uniqueName(end.node(), nameUses), l.cable()),
                    k -> new TreeSet<>()).add(end.number());
        }
        if (!cableGroups.isEmpty()) {
            List<Map<String, Object>> cables = new ArrayList<>();
            cableGroups.forEach((g, nums) -> {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("end", portRef(g.node(), nums));
                m.putAll(cableMap(g.cable(), defCable));
                cables.add(m);
            });
            root.put("cables", cables);
        }

        StringBuilder out = new StringBuilder("# ibtwin fabric description\n");
        for (String note : notes) {
            out.append("# note: ").append(note.replace('\n', ' ')).append('\n');
        }
        if (!root.isEmpty()) {
            try {
                out.append(WRITER.writeValueAsString(root));
            } catch (JsonProcessingException e) {
                throw new UncheckedIOException(e);
            }
        }
        return out.toString();
    }

    private static final ObjectMapper WRITER = new ObjectMapper(YAMLFactory.builder()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .enable(YAMLGenerator.Feature.INDENT_ARRAYS_WITH_INDICATOR)
            .disable(YAMLGenerator.Feature.SPLIT_LINES)
            .build());

    /** One entry per set of hosts that differ from the defaults alike, broadest first. */
    private static List<Map<String, Object>> hostOverrides(Map<String, HostFacts> hosts, HostFacts def) {
        if (def == null) {
            return List.of();
        }
        EnumMap<HostKey, Object> base = valuesOf(def);
        // (unit, differing keys and values) -> hosts; keys of a unit travel together so each entry stands alone
        Map<Map<HostKey, Object>, List<String>> byChange = new LinkedHashMap<>();
        for (List<HostKey> unit : UNITS) {
            hosts.forEach((name, h) -> {
                EnumMap<HostKey, Object> v = valuesOf(h);
                EnumMap<HostKey, Object> change = new EnumMap<>(HostKey.class);
                for (HostKey k : unit) {
                    if (!v.get(k).equals(base.get(k))) {
                        change.put(k, v.get(k));
                    }
                }
                if (!change.isEmpty()) {
                    byChange.computeIfAbsent(change, c -> new ArrayList<>()).add(name);
                }
            });
        }
        Map<List<String>, Map<String, Object>> byHosts = new LinkedHashMap<>();
        byChange.forEach((change, names) -> {
            Map<String, Object> m = byHosts.computeIfAbsent(names, n -> new LinkedHashMap<>());
            change.forEach((k, v) -> m.put(k.key, yamlValue(k, v)));
        });
        List<String> order = new ArrayList<>(hosts.keySet());
        List<Map.Entry<List<String>, Map<String, Object>>> entries = new ArrayList<>(byHosts.entrySet());
        entries.sort(Comparator.<Map.Entry<List<String>, Map<String, Object>>>comparingInt(e -> -e.getKey().size())
                .thenComparingInt(e -> order.indexOf(e.getKey().get(0))));
        List<Map<String, Object>> out = new ArrayList<>();
        for (Map.Entry<List<String>, Map<String, Object>> e : entries) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("match", NamePattern.compress(e.getKey()));
            m.putAll(e.getValue());
            out.add(m);
        }
        return out;
    }

    private static Object yamlValue(HostKey k, Object v) {
        return switch (k) {
            case PCIE -> ((Pcie) v).label();
            case IPOIB -> ((IpoibMode) v).label();
            case DRIVER -> (Boolean) v ? "loaded" : "missing";
            default -> v;
        };
    }

    /** The cable's keys; against a base only those that differ, else all but limits that limit nothing. */
    private static Map<String, Object> cableMap(Cable c, Cable base) {
        Map<String, Object> m = new LinkedHashMap<>();
        if (base == null || c.kind() != base.kind()) {
            m.put("kind", c.kind().label());
        }
        if (base == null || c.lengthMetres() != base.lengthMetres()) {
            double len = c.lengthMetres();
            m.put("length", len == Math.rint(len) && len < 1e15 ? (Object) (long) len : (Object) len);
        }
        if (base == null ? c.maxSpeed() != Cable.UNRATED.maxSpeed() : c.maxSpeed() != base.maxSpeed()) {
            m.put("max_speed", c.maxSpeed().label());
        }
        if (base == null ? c.maxWidth() != Cable.UNRATED.maxWidth() : c.maxWidth() != base.maxWidth()) {
            m.put("max_width", c.maxWidth().label());
        }
        return m;
    }

    /** The node's host name or topology name, whichever names it alone, or null. */
    private static String uniqueName(Node n, Map<String, Integer> uses) {
        for (String name : List.of(hostName(n), n.name())) {
            if (uses.getOrDefault(name, 0) == 1) {
                return name;
            }
        }
        return null;
    }

    private static String portRef(String node, TreeSet<Integer> ports) {
        String p = ports.size() == 1 ? ports.first().toString()
                : NamePattern.compress(ports.stream().map(String::valueOf).toList());
        return NamePattern.escape(node) + "/" + p;
    }

    private static <T> T mostCommon(Iterable<T> items) {
        Map<T, Integer> counts = new LinkedHashMap<>();
        for (T t : items) {
            counts.merge(Objects.requireNonNull(t), 1, Integer::sum);
        }
        T best = null;
        int bestCount = 0;
        for (Map.Entry<T, Integer> e : counts.entrySet()) {
            if (e.getValue() > bestCount) {
                best = e.getKey();
                bestCount = e.getValue();
            }
        }
        return best;
    }

    @Override
    public String toString() {
        return "FabricDescription[" + file + "]";
    }
}
