package org.ibtwin.doctor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;
import org.ibtwin.format.FormatException;
import org.ibtwin.format.PartitionsConf;
import org.ibtwin.format.TopologyReader;
import org.ibtwin.format.tools.CounterOutputs;
import org.ibtwin.format.tools.DiscoveryOutputs;
import org.ibtwin.format.tools.HostOutputs;
import org.ibtwin.format.tools.PortLine;
import org.ibtwin.format.tools.SmOutputs;
import org.ibtwin.format.tools.ToolOutputs;
import org.ibtwin.format.tools.ToolOutputs.Kind;
import org.ibtwin.model.DeviceCatalog;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.IpoibMode;
import org.ibtwin.model.Link;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.LinkWidth;
import org.ibtwin.model.Node;
import org.ibtwin.model.NodeType;
import org.ibtwin.model.Port;
import org.ibtwin.model.PortCounter;

/**
 * Builds a {@link FabricState} from a directory of saved real-tool outputs, each file recognised by its content
 * ({@link ToolOutputs}). Fabric-wide outputs (ibnetdiscover, iblinkinfo, ibnetdiscover -p, perfquery,
 * ibqueryerrors, sminfo, saquery, ibroute, partitions.conf) may have any name. Host outputs (ibstat, ibstatus,
 * ibv_devinfo, lspci -vv, ip -d link, ifcfg-ib0, lsmod, numactl --show, numa_node, ib0's mode) belong to the host
 * their path names: {@code <dir>/<host>/<anything>} or {@code <dir>/<host>.<anything>}; ibstat, ibstatus and
 * ibv_devinfo also find their host by the HCA's GUIDs when the topology has them. Files nothing recognises are
 * listed as ignored; a recognised file that is malformed is a {@link FormatException} ({@code file:line}).
 */
public final class OfflineSource {
    /** File stems that name a tool, not a host: "lspci-vv.txt" says nothing of whose it is. */
    private static final java.util.regex.Pattern TOOL_NAME = java.util.regex.Pattern.compile(
            "(?i)(ibstat|ibstatus|ibv_devinfo|devinfo|lspci.*|ip|ip[-_].*|ifcfg.*|lsmod|numactl.*|numa.*|mode|ib0.*)");
    private final Path dir;
    private final Map<Kind, List<Parsed>> byKind = new EnumMap<>(Kind.class);
    private final List<String> read = new ArrayList<>();
    private final List<String> ignored = new ArrayList<>();

    private record Parsed(String rel, String host, String text, Instant mtime) {
    }

    private OfflineSource(Path dir) {
        this.dir = dir;
    }

    /** Reads every file under {@code dir} (and its host subdirectories) into a state. */
    public static FabricState load(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new FormatException(dir.toString(), 0, Files.exists(dir) ? "not a directory" : "no such directory");
        }
        OfflineSource o = new OfflineSource(dir);
        o.scan();
        return o.build();
    }

    private void scan() {
        List<Path> files;
        try (Stream<Path> s = Files.walk(dir, 2)) {
            files = s.filter(Files::isRegularFile).filter(p -> !dir.relativize(p).toString().startsWith(".")
                    && !p.getFileName().toString().startsWith(".")).sorted().toList();
        } catch (IOException e) {
            throw new FormatException(dir.toString(), 0, "cannot list: " + e.getMessage());
        } catch (UncheckedIOException e) {
            throw new FormatException(dir.toString(), 0, "cannot list: " + e.getCause().getMessage());
        }
        for (Path p : files) {
            String rel = dir.relativize(p).toString();
            String text;
            Instant mtime;
            try {
                byte[] bytes = Files.readAllBytes(p);
                text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
                mtime = Files.getLastModifiedTime(p).toInstant();
            } catch (CharacterCodingException e) {
                ignored.add(rel + ": not a text file");
                continue;
            } catch (IOException e) {
                ignored.add(rel + ": cannot read (" + e.getMessage() + ")");
                continue;
            }
            Kind k = ToolOutputs.detect(text, p.getFileName().toString());
            if (k == null) {
                ignored.add(rel + ": not a tool output doctor reads");
                continue;
            }
            Path parent = dir.relativize(p).getParent();
            String name = p.getFileName().toString();
            String stem = name.indexOf('.') > 0 ? name.substring(0, name.indexOf('.')) : null;
            String host = parent != null ? parent.getFileName().toString()
                    : stem != null && !TOOL_NAME.matcher(stem).matches() ? stem : null;
            byKind.computeIfAbsent(k, x -> new ArrayList<>()).add(new Parsed(rel, host, text, mtime));
            read.add(rel + " (" + k.label() + ")");
        }
    }

    private List<Parsed> all(Kind k) {
        return byKind.getOrDefault(k, List.of());
    }

    private FabricState build() {
        Fabric fabric = null;
        List<Parsed> topo = all(Kind.IBNETDISCOVER);
        if (!topo.isEmpty()) {
            Parsed t = topo.get(0);
            fabric = TopologyReader.read(t.text(), t.rel());
            for (Parsed other : topo.subList(1, topo.size())) {
                ignore(other, "another topology dump: doctor reads one (compare two with ibtwin snapshot diff)");
            }
        }
        List<PortLine> linkinfo = new ArrayList<>();
        for (Parsed p : all(Kind.IBLINKINFO)) {
            linkinfo.addAll(DiscoveryOutputs.iblinkinfo(p.text(), p.rel()));
        }
        List<PortLine> ports = new ArrayList<>();
        for (Parsed p : all(Kind.IBNETDISCOVER_PORTS)) {
            ports.addAll(DiscoveryOutputs.ports(p.text(), p.rel()));
        }
        boolean statesKnown = false;
        if (fabric == null && (!linkinfo.isEmpty() || !ports.isEmpty())) {
            fabric = fromPortLines(linkinfo.isEmpty() ? ports : linkinfo);
            statesKnown = !linkinfo.isEmpty();
        } else if (fabric != null && !linkinfo.isEmpty()) {
            statesKnown = applyStates(fabric, linkinfo);
        }
        boolean topologyKnown = fabric != null;
        if (fabric == null) {
            fabric = new Fabric();
        }
        FabricState s = new FabricState(fabric, dir.toString());
        s.topologyKnown(topologyKnown);
        boolean lids = false;
        for (Node n : fabric.nodes()) {
            lids |= n.managementPort().lid() > 0;
        }
        s.lidsKnown(lids).portStatesKnown(statesKnown);
        saquery(s);
        counters(s);
        sms(s);
        routes(s);
        partitions(s);
        hosts(s);
        s.read().addAll(read);
        s.ignored().addAll(ignored.stream().sorted().toList());
        return s;
    }

    private void ignore(Parsed p, String why) {
        read.remove(read.stream().filter(r -> r.startsWith(p.rel() + " (")).findFirst().orElse(""));
        ignored.add(p.rel() + ": " + why);
    }

    // ------------------------------------------------------------------------------------------------ topology

    /** A model from iblinkinfo or ibnetdiscover -p lines alone. */
    static Fabric fromPortLines(List<PortLine> lines) {
        Map<String, List<PortLine>> byNode = new LinkedHashMap<>();
        for (PortLine l : lines) {
            byNode.computeIfAbsent(l.nodeKey(), k -> new ArrayList<>()).add(l);
        }
        Fabric f = new Fabric();
        Map<String, Node> nodes = new HashMap<>();
        Map<Long, Port> byPortGuid = new HashMap<>();
        Map<Integer, Node> byLid = new HashMap<>();
        Map<Integer, Port> caByLid = new HashMap<>();
        for (Map.Entry<String, List<PortLine>> e : byNode.entrySet()) {
            List<PortLine> ls = e.getValue();
            PortLine first = ls.get(0);
            NodeType type = first.type();
            if (type == null) {
                type = ls.stream().map(PortLine::port).distinct().count() > 1 ? NodeType.SWITCH : NodeType.CA;
            }
            int maxPort = ls.stream().mapToInt(PortLine::port).max().orElse(1);
            // GUIDs are unsigned: the lowest port GUID is the unsigned minimum, and "none printed" is null
            Long given = type == NodeType.SWITCH && first.nodeGuid() != null ? first.nodeGuid()
                    : ls.stream().map(PortLine::portGuid).filter(Objects::nonNull).min(Long::compareUnsigned)
                            .orElse(null);
            long guid;
            if (given == null || f.byGuid(given) != null) {
                guid = 0x0002c9ff00000000L + f.size();
            } else {
                guid = given;
            }
            Node n = new Node(type, guid, (type == NodeType.SWITCH ? "S-" : "H-") + String.format("%016x", guid),
                    Math.max(1, maxPort));
            if (first.desc() != null && !first.desc().isBlank()) {
                n.setDescription(first.desc());
            }
            f.add(n);
            nodes.put(e.getKey(), n);
            if (type == NodeType.SWITCH) {
                n.port(0).setLid(Math.max(0, first.lid()));
                byLid.put(first.lid(), n);
                byPortGuid.put(guid, n.port(0));
            }
            for (PortLine l : ls) {
                Port p = n.port(l.port());
                if (type != NodeType.SWITCH) {
                    if (l.portGuid() != null) {
                        p.setGuid(l.portGuid());
                        byPortGuid.put(l.portGuid(), p);
                    }
                    if (l.lid() > 0) {
                        p.setLid(l.lid());
                        caByLid.put(l.lid(), p);
                    }
                }
            }
        }
        // capabilities: the fastest and widest each node shows, or what iblinkinfo says it could be
        Map<Node, LinkSpeed> topSpeed = new HashMap<>();
        Map<Node, LinkWidth> topWidth = new HashMap<>();
        for (PortLine l : lines) {
            Node n = nodes.get(l.nodeKey());
            for (LinkSpeed s : new LinkSpeed[] {l.speed(), l.couldBeSpeed()}) {
                if (s != null) {
                    topSpeed.merge(n, s, (a, b) -> a.compareTo(b) >= 0 ? a : b);
                }
            }
            for (LinkWidth w : new LinkWidth[] {l.width(), l.couldBeWidth()}) {
                if (w != null) {
                    topWidth.merge(n, w, (a, b) -> a.lanes() >= b.lanes() ? a : b);
                }
            }
        }
        for (Node n : f.nodes()) {
            DeviceCatalog.setCapabilities(n, topSpeed.getOrDefault(n, LinkSpeed.SDR), topWidth.getOrDefault(n,
                    LinkWidth.X4));
        }
        for (PortLine l : lines) {
            if (!l.connected()) {
                continue;
            }
            Port a = nodes.get(l.nodeKey()).port(l.port());
            Port b = null;
            if (l.remoteGuid() != null) {
                Port r = byPortGuid.get(l.remoteGuid());
                b = r == null ? null : r.isSwitchPort0() ? r.node().port(l.remotePort()) : r;
            }
            if (b == null) {
                Node sw = byLid.get(l.remoteLid());
                b = sw != null ? sw.port(l.remotePort()) : caByLid.get(l.remoteLid());
            }
            if (b == null || a.link() != null || b.link() != null || a == b) {
                continue;
            }
            // the remote end may have said it could be more: that widens the node's capability too
            ModelBuilder.link(f, a, b, l.width(), l.speed());
        }
        applyStates(f, lines);
        return f;
    }

    /** Port states from iblinkinfo onto the model; true when any applied. */
    private static boolean applyStates(Fabric f, List<PortLine> lines) {
        Map<Long, Port> caPorts = new HashMap<>();
        for (Node n : f.cas()) {
            for (int i = 1; i <= n.numPorts(); i++) {
                caPorts.put(n.port(i).guid(), n.port(i));
            }
        }
        boolean any = false;
        for (PortLine l : lines) {
            if (l.state() == null) {
                continue;
            }
            Port p;
            if (l.type() == NodeType.SWITCH && l.nodeGuid() != null) {
                Node n = f.byGuid(l.nodeGuid());
                p = n == null ? null : n.port(l.port());
            } else {
                p = l.portGuid() == null ? null : caPorts.get(l.portGuid());
            }
            if (p == null) {
                continue;
            }
            Link link = p.link();
            if (link != null && link.isUp()) {
                p.setState(l.state());
                if (l.physState() != null) {
                    p.setPhysState(l.physState());
                }
                any = true;
            }
        }
        return any;
    }

    private void saquery(FabricState s) {
        for (Parsed p : all(Kind.SAQUERY)) {
            SmOutputs.Saquery q = SmOutputs.saquery(p.text(), p.rel());
            for (SmOutputs.NodeRecord r : q.nodes()) {
                Node n = s.fabric().byGuid(r.nodeGuid());
                if (n != null && n.vendorId() == 0 && n.deviceId() == 0) {
                    n.setIds(r.vendorId(), r.deviceId(), n.revision());
                }
            }
            for (SmOutputs.Sm sm : q.sms()) {
                long guid = sm.guid();
                if (guid == 0) {
                    Port port = portByLid(s.fabric(), sm.lid());
                    guid = port == null ? 0xffff_0000_0000_0000L | sm.lid() : port.guid();
                }
                s.addSm(new SmInfo(guid, sm.lid(), sm.priority(), sm.state(), p.rel() + ":" + sm.line()));
            }
            if (q.smList()) {
                s.smsComplete(true);
            }
        }
    }

    private void sms(FabricState s) {
        for (Parsed p : all(Kind.SMINFO)) {
            SmOutputs.Sm sm = SmOutputs.sminfo(p.text(), p.rel());
            s.addSm(new SmInfo(sm.guid(), sm.lid(), sm.priority(), sm.state(), p.rel() + ":" + sm.line()));
        }
    }

    private void routes(FabricState s) {
        for (Parsed p : all(Kind.IBROUTE)) {
            for (SmOutputs.Routes r : SmOutputs.ibroute(p.text(), p.rel())) {
                Node sw = s.fabric().byGuid(r.switchGuid());
                if (sw != null) {
                    s.routes().put(sw, r.lft());
                }
            }
        }
    }

    private void partitions(FabricState s) {
        List<Parsed> ps = all(Kind.PARTITIONS_CONF);
        if (!ps.isEmpty()) {
            s.partitions(PartitionsConf.parse(ps.get(0).text(), ps.get(0).rel()));
            for (Parsed other : ps.subList(1, ps.size())) {
                ignore(other, "another partitions.conf: doctor reads one");
            }
        }
    }

    // ------------------------------------------------------------------------------------------------ counters

    private void counters(FabricState s) {
        Fabric f = s.fabric();
        for (Parsed p : all(Kind.PERFQUERY)) {
            for (CounterOutputs.PerfBlock b : CounterOutputs.perfquery(p.text(), p.rel())) {
                if (b.port() == 255) {
                    continue;           // the -a sum over a switch's ports
                }
                Map<PortCounter, Long> values = values(b.fields());
                if (values.isEmpty()) {
                    continue;
                }
                Port port = portAt(f, b.lid(), b.port());
                PortCounters pc = port != null ? s.counters(port) : s.counters("lid " + b.lid() + "/" + b.port());
                pc.add(new CounterReading(b.time() != null ? b.time() : p.mtime(), values, p.rel() + ":" + b.line(),
                        "perfquery"));
            }
        }
        for (Parsed p : all(Kind.IBQUERYERRORS)) {
            for (CounterOutputs.ErrorLine e : CounterOutputs.ibqueryerrors(p.text(), p.rel())) {
                if (e.port() < 0) {
                    continue;           // "port ALL": the sum again
                }
                Map<PortCounter, Long> values = values(e.counters());
                if (values.isEmpty()) {
                    continue;
                }
                Port port = null;
                if (e.switchGuid() != null) {
                    Node n = f.byGuid(e.switchGuid());
                    port = n == null ? null : n.port(e.port());
                } else {
                    Port byGuid = PortByGuid.find(f, e.portGuid());
                    port = byGuid != null && !byGuid.isSwitchPort0() ? byGuid : null;
                }
                PortCounters pc = port != null ? s.counters(port) : s.counters(e.nodeDesc() + "/" + e.port());
                pc.add(new CounterReading(e.time() != null ? e.time() : p.mtime(), values, p.rel() + ":" + e.line(),
                        "ibqueryerrors"));
            }
        }
    }

    private static Map<PortCounter, Long> values(Map<String, Long> fields) {
        Map<PortCounter, Long> m = new EnumMap<>(PortCounter.class);
        fields.forEach((k, v) -> {
            PortCounter c = Thresholds.counter(k);
            if (c != null) {
                m.put(c, v);
            }
        });
        return m;
    }

    /** The port {@code port} of the node at {@code lid}: a switch's LID is its port 0's, a CA port's its own. */
    static Port portAt(Fabric f, int lid, int port) {
        for (Node n : f.nodes()) {
            if (n.isSwitch()) {
                if (n.port(0).lid() == lid) {
                    return n.port(port);
                }
            } else {
                for (int i = 1; i <= n.numPorts(); i++) {
                    Port p = n.port(i);
                    if (p.lid() > 0 && lid >= p.lid() && lid < p.lid() + (1 << p.lmc())) {
                        return n.port(port) != null ? n.port(port) : p;
                    }
                }
            }
        }
        return null;
    }

    private static Port portByLid(Fabric f, int lid) {
        Port p = portAt(f, lid, 0);
        return p;
    }

    /** GUID lookups over the model's ports. */
    static final class PortByGuid {
        private PortByGuid() {
        }

        static Port find(Fabric f, long guid) {
            Node n = f.byGuid(guid);
            if (n != null && n.isSwitch()) {
                return n.port(0);
            }
            for (Node c : f.nodes()) {
                if (c.isSwitch()) {
                    continue;
                }
                for (int i = 1; i <= c.numPorts(); i++) {
                    if (c.port(i).guid() == guid) {
                        return c.port(i);
                    }
                }
            }
            return null;
        }
    }

    // ------------------------------------------------------------------------------------------------ hosts

    private void hosts(FabricState s) {
        Fabric f = s.fabric();
        for (Kind k : new Kind[] {Kind.IBSTAT, Kind.IBSTATUS, Kind.IBV_DEVINFO}) {
            for (Parsed p : all(k)) {
                List<HostOutputs.Hca> hcas = switch (k) {
                    case IBSTAT -> HostOutputs.ibstat(p.text(), p.rel());
                    case IBSTATUS -> HostOutputs.ibstatus(p.text(), p.rel());
                    default -> HostOutputs.ibvDevinfo(p.text(), p.rel());
                };
                if (hcas.isEmpty() && k == Kind.IBV_DEVINFO) {
                    if (p.host() == null) {
                        ignore(p, "no host in its name (name it <host>.<anything> or put it in <host>/)");
                    } else {
                        s.host(p.host()).set(HostInfo.Key.NO_DEVICE, Boolean.TRUE, p.rel());
                    }
                    continue;
                }
                for (int i = 0; i < hcas.size(); i++) {
                    HostOutputs.Hca h = hcas.get(i);
                    Node node = nodeOf(f, h);
                    String host = node != null ? s.name(node) : p.host() == null ? null
                            : i == 0 ? hostKey(s, p.host()) : p.host() + " " + h.name();
                    if (host == null) {
                        ignore(p, "no host in its name and its HCA is not in the topology");
                        break;
                    }
                    HostInfo hi = s.host(host);
                    if (node != null) {
                        hi.setNode(node);
                    }
                    String src = p.rel() + ":" + h.line();
                    hi.set(HostInfo.Key.FIRMWARE, h.firmware(), src);
                    hi.set(HostInfo.Key.DEVICE, device(h.device()), src);
                    hi.set(HostInfo.Key.NODE_GUID, h.nodeGuid(), src);
                    for (HostOutputs.HcaPort hp : h.ports()) {
                        HostInfo.PortFacts pf = hi.port(hp.port());
                        pf.state = or(hp.state(), pf.state);
                        pf.physState = or(hp.physState(), pf.physState);
                        pf.rateGbps = or(hp.rateGbps(), pf.rateGbps);
                        pf.width = or(hp.width(), pf.width);
                        pf.speed = or(hp.speed(), pf.speed);
                        pf.lid = or(hp.lid(), pf.lid);
                        pf.smLid = or(hp.smLid(), pf.smLid);
                        pf.portGuid = or(hp.portGuid(), pf.portGuid);
                        pf.linkLayer = or(hp.linkLayer(), pf.linkLayer);
                        pf.activeMtu = or(hp.activeMtu(), pf.activeMtu);
                        pf.maxMtu = or(hp.maxMtu(), pf.maxMtu);
                        pf.source = p.rel() + ":" + hp.line();
                    }
                }
            }
        }
        for (Kind k : new Kind[] {Kind.LSPCI, Kind.IP_LINK, Kind.IFCFG, Kind.IPOIB_MODE, Kind.NUMA_NODE,
            Kind.NUMACTL, Kind.LSMOD}) {
            for (Parsed p : all(k)) {
                if (p.host() == null) {
                    ignore(p, k.label() + " output with no host in its name (name it <host>.<anything> or put it in "
                            + "<host>/)");
                    continue;
                }
                hostFile(s, s.host(hostKey(s, p.host())), k, p);
            }
        }
        // bind hosts named by files to the topology's nodes
        Map<String, Node> byName = new HashMap<>();
        for (Node n : f.cas()) {
            byName.put(s.name(n), n);
            byName.putIfAbsent(org.ibtwin.format.FabricDescription.hostName(n), n);
        }
        for (HostInfo h : s.hosts().values()) {
            if (h.node() == null && byName.containsKey(h.host())) {
                h.setNode(byName.get(h.host()));
            }
        }
    }

    /** The host key a file name maps to: the model's name for that host when the topology has it. */
    private static String hostKey(FabricState s, String fileHost) {
        for (Node n : s.fabric().cas()) {
            if (org.ibtwin.format.FabricDescription.hostName(n).equals(fileHost)) {
                return s.name(n);
            }
        }
        return fileHost;
    }

    private static void hostFile(FabricState s, HostInfo h, Kind k, Parsed p) {
        switch (k) {
            case LSPCI -> {
                List<HostOutputs.Pcie> devs = HostOutputs.lspci(p.text(), p.rel());
                if (devs.isEmpty()) {
                    return;
                }
                HostOutputs.Pcie d = devs.get(0);
                String src = p.rel() + ":" + d.line();
                h.set(HostInfo.Key.PCIE_GEN, d.gen(), src);
                h.set(HostInfo.Key.PCIE_LANES, d.lanes(), src);
                h.set(HostInfo.Key.PCIE_CAP_GEN, d.capGen(), src);
                h.set(HostInfo.Key.PCIE_CAP_LANES, d.capLanes(), src);
                h.set(HostInfo.Key.MAX_PAYLOAD, d.maxPayload(), src);
                if (d.numaNode() != null && d.numaNode() >= 0 && !h.has(HostInfo.Key.HCA_NUMA)) {
                    h.set(HostInfo.Key.HCA_NUMA, d.numaNode(), src);
                }
            }
            case IP_LINK -> {
                List<HostOutputs.Ipoib> ifs = HostOutputs.ipLink(p.text(), p.rel());
                HostOutputs.Ipoib i = ifs.stream().filter(x -> x.device().equals("ib0")).findFirst()
                        .orElse(ifs.isEmpty() ? null : ifs.get(0));
                if (i != null) {
                    ipoib(h, i, p.rel());
                }
            }
            case IFCFG -> ipoib(h, HostOutputs.ifcfg(p.text(), p.rel()), p.rel());
            case IPOIB_MODE -> h.set(HostInfo.Key.IPOIB_MODE, p.text().strip().equals("connected")
                    ? IpoibMode.CONNECTED : IpoibMode.DATAGRAM, p.rel() + ":1");
            case NUMA_NODE -> h.set(HostInfo.Key.HCA_NUMA, HostOutputs.numaNode(p.text(), p.rel()), p.rel() + ":1");
            case NUMACTL -> h.set(HostInfo.Key.APP_NUMA, HostOutputs.numactl(p.text(), p.rel()), p.rel());
            case LSMOD -> {
                java.util.Set<String> mods = HostOutputs.lsmod(p.text());
                boolean mlx = mods.contains("mlx5_ib") || mods.contains("mlx4_ib");
                h.set(HostInfo.Key.DRIVER_LOADED, mlx, p.rel());
                boolean gpu = mods.contains("nvidia");
                h.set(HostInfo.Key.GPU, gpu, p.rel());
                if (gpu) {
                    h.set(HostInfo.Key.GPUDIRECT, mods.contains("nvidia_peermem") || mods.contains("nv_peer_mem"),
                            p.rel());
                }
            }
            default -> throw new IllegalStateException(k.toString());
        }
    }

    private static void ipoib(HostInfo h, HostOutputs.Ipoib i, String rel) {
        String src = rel + ":" + i.line();
        if (i.connected() != null) {
            h.set(HostInfo.Key.IPOIB_MODE, i.connected() ? IpoibMode.CONNECTED : IpoibMode.DATAGRAM, src);
        }
        h.set(HostInfo.Key.IPOIB_MTU, i.mtu(), src);
    }

    /** "ConnectX-6" for MT4123 when the catalog knows the part, else the part as printed. */
    private static String device(String part) {
        if (part == null) {
            return null;
        }
        if (part.startsWith("MT")) {
            try {
                int id = Integer.parseInt(part.substring(2));
                for (DeviceCatalog.Device d : DeviceCatalog.all()) {
                    if (d.deviceId() == id && d.type() == NodeType.CA) {
                        return d.name();
                    }
                }
            } catch (NumberFormatException e) {
                return part;
            }
        }
        return part;
    }

    private static Node nodeOf(Fabric f, HostOutputs.Hca h) {
        if (h.nodeGuid() != null) {
            Node n = f.byGuid(h.nodeGuid());
            if (n != null) {
                return n;
            }
        }
        for (HostOutputs.HcaPort p : h.ports()) {
            if (p.portGuid() != null) {
                Port port = PortByGuid.find(f, p.portGuid());
                if (port != null) {
                    return port.node();
                }
            }
        }
        return null;
    }

    private static <T> T or(T a, T b) {
        return a != null ? a : b;
    }
}
