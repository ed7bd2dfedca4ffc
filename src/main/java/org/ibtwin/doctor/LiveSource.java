package org.ibtwin.doctor;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.ibtwin.diag.MadQuery;
import org.ibtwin.diag.NetDiscovery;
import org.ibtwin.diag.NetFabric;
import org.ibtwin.diag.NetNode;
import org.ibtwin.diag.NetPort;
import org.ibtwin.diag.QueryException;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.PerfAttributes;
import org.ibtwin.mad.PortId;
import org.ibtwin.mad.SmpAttributes;
import org.ibtwin.model.DeviceCatalog;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Guids;
import org.ibtwin.model.LinkLayer;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.LinkWidth;
import org.ibtwin.model.Mtu;
import org.ibtwin.model.Node;
import org.ibtwin.model.NodeType;
import org.ibtwin.model.PhysState;
import org.ibtwin.model.Port;
import org.ibtwin.model.PortCounter;
import org.ibtwin.model.PortState;
import org.ibtwin.transport.MadTransport;

/**
 * Builds a {@link FabricState} over MADs, as the diagnostic tools see a fabric: their walk ({@link NetDiscovery}:
 * NodeInfo, NodeDescription, SwitchInfo, PortInfo by directed route from the port the transport is attached at),
 * the nodes listed breadth first from there, the PortInfo of every CA port the walk did not reach asked too, then the ports' P_Key tables, the SMs (SMInfo of every port whose CapabilityMask says IsSM), the
 * switches' linear forwarding tables, and the PMA counters of every linked port (twice, {@code interval} apart,
 * when asked). A port's capabilities are what its device supports when the device catalog knows it (as for a
 * topology dump), else what its PortInfo says it supports; links are judged against those, as iblinkinfo's
 * "Could be" judges, not against the enabled masks (a simulator trains a link through them).
 */
public final class LiveSource {
    private static final int CAP_IS_SM = 0x2;
    private static final int CAP_HAS_EXT_SPEEDS = 0x4000;
    private static final Layout PI = SmpAttributes.PORT_INFO;

    private final MadTransport t;
    private final MadQuery q;
    private final Consumer<String> progress;
    private final Clock clock;
    private final Fabric fabric = new Fabric();
    private final Map<Node, int[]> paths = new HashMap<>();
    private final Map<Port, byte[]> portInfo = new HashMap<>();
    private final List<String> duplicates = new ArrayList<>();

    private LiveSource(MadTransport t, Consumer<String> progress, Clock clock) {
        this.t = t;
        this.q = new MadQuery(t).timeout(Duration.ofMillis(500)).attempts(2);
        this.progress = progress;
        this.clock = clock;
    }

    /**
     * Discovers the fabric behind {@code t}.
     *
     * @param interval  null for one counter reading; else the time between two
     * @param progress  receives a line per stage ("discovered 12 nodes")
     * @param source    what to call the state ("ibsim 127.0.0.1:7070")
     */
    public static FabricState discover(MadTransport t, Duration interval, Consumer<String> progress, String source) {
        LiveSource l = new LiveSource(t, progress, Clock.systemUTC());
        return l.run(interval, source);
    }

    private FabricState run(Duration interval, String source) {
        walk();
        progress.accept("discovered " + fabric.size() + " nodes, " + fabric.links().size() + " links");
        FabricState s = new FabricState(fabric, source);
        s.lidsKnown(true).portStatesKnown(true).smLidsKnown(true).mtusKnown(true).pkeysKnown(true);
        s.duplicateGuids().addAll(duplicates);
        s.time(clock.instant());
        pkeys();
        sms(s);
        routes(s);
        counters(s);
        if (interval != null) {
            progress.accept("waiting " + interval.toSeconds() + " s for a second counter reading");
            try {
                Thread.sleep(interval.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            counters(s);
        }
        return s;
    }

    // ------------------------------------------------------------------------------------------------ the walk

    private void walk() {
        NetFabric net;
        try {
            net = NetDiscovery.discover(t, NetDiscovery.Config.defaults().withTimeout(Duration.ofMillis(500))
                    .withRetries(1).withMlnxExtPortInfo(false));
        } catch (NetDiscovery.Failed e) {
            q.smpGet(PortId.directed(0), AttributeIds.NODE_INFO, 0);     // says why, as a query does
            throw new QueryException(QueryException.Kind.TIMEOUT, 0, e.getMessage(), null);
        }
        java.util.Set<NetPort> clashed = new java.util.HashSet<>();
        net.clashes().forEach(c -> clashed.add(c.from()));
        // breadth first from the attached node, ports in order, as the doctor has always listed the fabric
        NetNode first = net.from();
        List<NetNode> order = new ArrayList<>(List.of(first));
        Map<NetNode, Integer> index = new HashMap<>(Map.of(first, 0));
        List<int[]> pending = new ArrayList<>();     // {node index, port, remote node index, remote port}
        for (int i = 0; i < order.size(); i++) {
            NetNode n = order.get(i);
            if (!n.isSwitch() && n != first) {
                continue;
            }
            for (int p = 1; p <= n.numPorts(); p++) {
                NetPort np = n.port(p);
                if (np == null || np.remote() == null || clashed.contains(np)) {
                    continue;
                }
                NetNode r = np.remote().node();
                if (!index.containsKey(r)) {
                    index.put(r, order.size());
                    order.add(r);
                }
                pending.add(new int[] {i, p, index.get(r), np.remote().number()});
            }
        }
        List<Node> nodes = new ArrayList<>();
        for (NetNode nn : order) {
            Node n = newNode(nn);
            nodes.add(n);
            for (int p = n.isSwitch() ? 0 : 1; p <= n.numPorts(); p++) {
                NetPort np = p <= nn.numPorts() ? nn.port(p) : null;
                byte[] pi = np == null ? null : np.info();
                if (pi == null && !n.isSwitch()) {
                    try {
                        pi = q.smpGet(PortId.directed(paths.get(n)), AttributeIds.PORT_INFO, p);
                    } catch (QueryException e) {
                        continue;
                    }
                }
                if (pi != null) {
                    portInfo.put(n.port(p), pi);
                }
            }
        }
        for (NetFabric.Clash c : net.clashes()) {
            Node known = nodes.get(index.get(c.known()));
            duplicates.add("GUID " + Guids.hex(known.guid()) + " answers as " + describe(known) + " at DR path "
                    + path(paths.get(known)) + " and as another device at DR path " + path(route(c.path())));
        }
        settle(nodes, pending);
        for (NetFabric.Rewire r : net.rewires()) {
            Integer b = index.get(r.reached().node());
            Integer a = index.get(r.from().node());
            Integer before = index.get(r.before().node());
            if (a != null && b != null && before != null) {
                Node bn = nodes.get(b);
                duplicates.add("port " + bn.port(r.reached().number()) + " answers as the neighbour of both "
                        + nodes.get(a).port(r.from().number()) + " and " + nodes.get(before).port(r.before()
                        .number()) + ": two devices share GUID " + Guids.hex(bn.guid()));
            }
        }
    }

    /** A directed route as the doctor writes it: the local hop 0, then the egress ports. */
    private static int[] route(byte[] path) {
        int[] r = new int[path.length + 1];
        for (int i = 0; i < path.length; i++) {
            r[i + 1] = path[i] & 0xff;
        }
        return r;
    }

    private Node newNode(NetNode nn) {
        byte[] ni = nn.nodeInfo();
        int[] path = route(nn.path());
        Layout l = SmpAttributes.NODE_INFO;
        NodeType type = NodeType.ofCode((int) l.get(ni, 0, "NodeType"));
        long guid = l.get(ni, 0, "Guid");
        int ports = Math.max(1, (int) l.get(ni, 0, "NumPorts"));
        Node n = new Node(type == null ? NodeType.CA : type, guid, (type == NodeType.SWITCH ? "S-" : type
                == NodeType.ROUTER ? "R-" : "H-") + String.format("%016x", guid), ports);
        n.setSystemImageGuid(l.get(ni, 0, "SystemGuid"));
        n.setIds((int) l.get(ni, 0, "VendorId"), (int) l.get(ni, 0, "DevId"), (int) l.get(ni, 0, "Revision"));
        if (type != NodeType.SWITCH) {
            n.port((int) Math.max(1, Math.min(ports, l.get(ni, 0, "LocalPort")))).setGuid(l.get(ni, 0, "PortGuid"));
        }
        byte[] nd = nn.nodeDescBytes();
        if (nd != null) {
            String d = new String(nd, 0, Math.min(64, nd.length), StandardCharsets.UTF_8);
            int z = d.indexOf('\0');
            d = (z >= 0 ? d.substring(0, z) : d).replaceAll("[\\p{Cntrl}]", "").strip();
            if (!d.isEmpty()) {
                n.setDescription(d.getBytes(StandardCharsets.UTF_8).length > 64 ? d.substring(0, 60) : d);
            }
        }
        // (no NodeDescription: the topology name stays the description)
        byte[] si = nn.switchInfo();
        if (type == NodeType.SWITCH && si != null) {
            n.setEnhancedPort0(SmpAttributes.SWITCH_INFO.get(si, 0, "EnhancedPort0") == 1);
        }
        DeviceCatalog.Device d = DeviceCatalog.find(n.vendorId(), n.deviceId());
        if (d != null && d.type() == n.type()) {
            n.setFirmware(d.firmware());
        }
        fabric.add(n);
        paths.put(n, path);
        return n;
    }

    /** Port capabilities and LIDs from PortInfo, then the links at the width and speed they run. */
    private void settle(List<Node> order, List<int[]> pending) {
        for (Node n : order) {
            int extCap = n.isSwitch() ? capMask(n.port(0)) : -1;
            DeviceCatalog.Device dev = DeviceCatalog.find(n.vendorId(), n.deviceId());
            if (dev != null && dev.type() != n.type()) {
                dev = null;
            }
            for (int p = n.isSwitch() ? 0 : 1; p <= n.numPorts(); p++) {
                Port port = n.port(p);
                byte[] pi = portInfo.get(port);
                if (pi == null) {
                    continue;
                }
                int cap = n.isSwitch() ? extCap : capMask(port);
                boolean ext = (cap & CAP_HAS_EXT_SPEEDS) != 0;
                if (p == 0 || !n.isSwitch()) {
                    port.setLid((int) PI.get(pi, 0, "Lid"));
                    port.setLmc((int) PI.get(pi, 0, "LMC"));
                }
                port.setSmLid((int) PI.get(pi, 0, "SMLid"));
                port.setCapMask((int) PI.get(pi, 0, "CapMask"));
                Mtu mtu = Mtu.ofCode((int) PI.get(pi, 0, "MtuCap"));
                if (mtu != null) {
                    port.setMtuCap(mtu);
                }
                if (p == 0) {
                    port.setState(state(pi));
                    continue;
                }
                int wSup = widths((int) PI.get(pi, 0, "LinkWidthSupported"));
                int sSup = speeds((int) PI.get(pi, 0, "LinkSpeedSupported"),
                        ext ? (int) PI.get(pi, 0, "LinkSpeedExtSupported") : 0);
                if (dev != null) {
                    // a device the catalog knows supports what the catalog says, as in a topology dump; a
                    // simulator's PortInfo advertises every width and drops the extended speeds of a slow link
                    wSup = LinkWidth.upTo(dev.maxWidth());
                    sSup = LinkSpeed.upTo(dev.maxSpeed());
                }
                // judged as iblinkinfo judges ("Could be"): against what the ports support. Simulators (ibsim)
                // express a link's trained rate through the enabled masks, so those say nothing of a fault.
                port.setWidths(wSup, wSup);
                port.setSpeeds(sSup, sSup);
                port.setLinkLayer(LinkLayer.INFINIBAND);
            }
        }
        for (int[] e : pending) {
            Port a = order.get(e[0]).port(e[1]);
            Port b = order.get(e[2]).port(e[3]);
            if (b == null) {
                continue;
            }
            if (a.link() != null || b.link() != null) {
                if (a.remote() != b) {
                    duplicates.add("port " + b + " answers as the neighbour of both " + a + " and "
                            + (b.remote() != null ? b.remote() : a.remote()) + ": two devices share GUID "
                            + Guids.hex(b.node().guid()));
                }
                continue;
            }
            byte[] pi = portInfo.get(a);
            LinkWidth w = LinkWidth.ofCode((int) PI.get(pi, 0, "LinkWidthActive"));
            boolean ext = ((a.node().isSwitch() ? a.node().port(0).capMask() : a.capMask()) & CAP_HAS_EXT_SPEEDS) != 0;
            LinkSpeed s = speed((int) PI.get(pi, 0, "LinkSpeedActive"), ext ? (int) PI.get(pi, 0,
                    "LinkSpeedExtActive") : 0);
            ModelBuilder.link(fabric, a, b, w, s);
            for (Port x : new Port[] {a, b}) {
                byte[] xi = portInfo.get(x);
                if (xi != null) {
                    x.setState(state(xi));
                    PhysState ps = PhysState.ofCode((int) PI.get(xi, 0, "PhysLinkState"));
                    if (ps != null) {
                        x.setPhysState(ps);
                    }
                }
            }
        }
    }

    private int capMask(Port p) {
        byte[] pi = portInfo.get(p);
        return pi == null ? 0 : (int) PI.get(pi, 0, "CapMask");
    }

    private static PortState state(byte[] pi) {
        PortState s = PortState.ofCode((int) PI.get(pi, 0, "LinkState"));
        return s == null ? PortState.DOWN : s;
    }

    /** PortInfo width bits (1 1x, 2 4x, 4 8x, 8 12x, 16 2x) as a model mask. */
    static int widths(int bits) {
        int m = 0;
        for (LinkWidth w : LinkWidth.values()) {
            if ((bits & w.code()) != 0) {
                m |= 1 << w.ordinal();
            }
        }
        return m;
    }

    /** PortInfo speed bits (SDR 1, DDR 2, QDR 4) and extended bits (FDR 1, EDR 2, HDR 4, NDR 8) as a model mask. */
    static int speeds(int bits, int extBits) {
        int m = 0;
        for (LinkSpeed s : LinkSpeed.values()) {
            if ((s.speedCode() != 0 && (bits & s.speedCode()) != 0 && s.fdr10Code() == 0)
                    || (s.extSpeedCode() != 0 && (extBits & s.extSpeedCode()) != 0)) {
                m |= 1 << s.ordinal();
            }
        }
        return m;
    }

    /** The active speed: the extended one when there is one, else the plain one. */
    static LinkSpeed speed(int active, int extActive) {
        for (LinkSpeed s : LinkSpeed.values()) {
            if (extActive != 0 && s.extSpeedCode() == extActive) {
                return s;
            }
        }
        for (LinkSpeed s : LinkSpeed.values()) {
            if (extActive == 0 && s.speedCode() == active && s.fdr10Code() == 0) {
                return s;
            }
        }
        return null;
    }

    // ------------------------------------------------------------------------------------------------ the rest

    private void pkeys() {
        for (Node n : fabric.cas()) {
            for (int p = 1; p <= n.numPorts(); p++) {
                if (n.port(p).link() == null) {
                    continue;
                }
                try {
                    byte[] t = q.smpGet(PortId.directed(pathTo(n.port(p))), AttributeIds.P_KEY_TABLE, 0);
                    List<Integer> keys = new ArrayList<>();
                    for (int i = 0; i < 32; i++) {
                        int k = ((t[2 * i] & 0xff) << 8) | (t[2 * i + 1] & 0xff);
                        if ((k & 0x7fff) != 0) {
                            keys.add(k);
                        }
                    }
                    n.port(p).setPkeys(keys.stream().mapToInt(Integer::intValue).toArray());
                } catch (QueryException e) {
                    // keep the default table
                }
            }
        }
    }

    /** The DR path to a node, through the port it was reached by. */
    private int[] pathTo(Port p) {
        return paths.get(p.node());
    }

    private void sms(FabricState s) {
        List<SmInfo> found = new ArrayList<>();
        for (Node n : fabric.nodes()) {
            for (int p = n.isSwitch() ? 0 : 1; p <= (n.isSwitch() ? 0 : n.numPorts()); p++) {
                Port port = n.port(p);
                if ((capMask(port) & CAP_IS_SM) == 0) {
                    continue;
                }
                long guid = port.guid();
                try {
                    byte[] si = q.smpGet(PortId.directed(paths.get(n)), AttributeIds.SM_INFO, 0);
                    Layout l = SmpAttributes.SM_INFO;
                    found.add(new SmInfo(l.get(si, 0, "SmInfoGuid"), port.lid(), (int) l.get(si, 0, "SmPriority"),
                            (int) l.get(si, 0, "SmState"), "SMInfo at " + s.portName(port)));
                } catch (QueryException e) {
                    found.add(new SmInfo(guid, port.lid(), -1, -1, "IsSM set at " + s.portName(port)
                            + ", SMInfo unanswered"));
                }
            }
        }
        s.sms(List.of()).smsComplete(true);
        found.forEach(s::addSm);
        progress.accept("found " + found.size() + " SM" + (found.size() == 1 ? "" : "s"));
    }

    private void routes(FabricState s) {
        for (Node sw : fabric.switches()) {
            try {
                byte[] si = q.smpGet(PortId.directed(paths.get(sw)), AttributeIds.SWITCH_INFO, 0);
                int top = (int) SmpAttributes.SWITCH_INFO.get(si, 0, "LinearFdbTop");
                if (top <= 0 || top > 0xbfff) {
                    continue;
                }
                int[] lft = new int[top + 1];
                Arrays.fill(lft, -1);
                for (int block = 0; block <= top / 64; block++) {
                    byte[] b = q.smpGet(PortId.directed(paths.get(sw)), AttributeIds.LINEAR_FWD_TABLE, block);
                    for (int i = 0; i < 64 && block * 64 + i <= top; i++) {
                        int port = b[i] & 0xff;
                        lft[block * 64 + i] = port == 0xff ? -1 : port;
                    }
                }
                s.routes().put(sw, lft);
            } catch (QueryException e) {
                // no table from this switch
            }
        }
    }

    private void counters(FabricState s) {
        Instant now = clock.instant();
        Layout pc = PerfAttributes.PORT_COUNTERS;
        int read = 0;
        for (Node n : fabric.nodes()) {
            for (int p = 1; p <= n.numPorts(); p++) {
                Port port = n.port(p);
                int lid = n.managementPort().lid();
                if (!n.isSwitch()) {
                    lid = port.lid();
                }
                if (port.link() == null || lid == 0) {
                    continue;
                }
                byte[] d;
                try {
                    d = q.pmaGet(lid, AttributeIds.PORT_COUNTERS, p);
                } catch (QueryException e) {
                    continue;
                }
                Map<PortCounter, Long> v = new EnumMap<>(PortCounter.class);
                for (PortCounter c : PortCounter.values()) {
                    pc.find(c.fieldName()).ifPresent(f -> v.put(c, pc.get(d, 0, f)));
                }
                s.counters(port).add(new CounterReading(now, v, "PMA " + now, "PMA"));
                read++;
            }
        }
        progress.accept("read the counters of " + read + " ports");
    }

    private static String describe(Node n) {
        return n.type().keyword() + " \"" + n.description() + "\"";
    }

    private static String path(int[] p) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < p.length; i++) {
            sb.append(i == 0 ? "" : ",").append(p[i]);
        }
        return sb.toString();
    }
}
