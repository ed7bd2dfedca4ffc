package org.ibtwin.diag;

import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.Consumer;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.SmpAttributes;
import org.ibtwin.transport.MadTransport;
import org.ibtwin.transport.Smp;
import org.ibtwin.transport.SmpPipe;

/**
 * Fabric discovery by directed-route SMPs, as libibnetdisc does it for ibnetdiscover, iblinkinfo and the scripts
 * over them: a breadth-first walk from the attached port (or from a directed route, for a partial scan), several
 * SMPs in flight ({@link Config#maxSmps}, 2 by default as the library's), each node asked NodeInfo, NodeDescription,
 * SwitchInfo (a switch), PortInfo of every port (a switch; port 0 first, then the others once it answers) or of
 * the port it was reached at (a CA or router), and, on devices that have it, the Mellanox ExtendedPortInfo of a
 * QDR link (FDR10 shows there). Every switch port whose physical link is up, other than the one the SMP came in
 * by, is probed one hop further with a NodeInfo; a node seen again is linked, not asked again. A CA or router port
 * reached a second time (its link leads back into its own node) is reported once and not followed again: the walk
 * would otherwise go round for ever, as libibnetdisc's does, printing "Duplicate Port".
 *
 * <p>The order of requests is the library's, so with a simulator that answers in order the nodes come out in the
 * order the real tools print them. SMPs go through {@link SmpPipe}, the SM's directed-route pipe. Failed SMPs (a
 * timeout after the retries, an error status) leave their part unexplored and are reported in
 * {@link NetFabric}'s company, as the library's error lines.
 */
public final class NetDiscovery {
    /** How a scan runs. */
    public record Config(int maxSmps, Duration timeout, int retries, int maxHops, long mkey, boolean mlnxExtPortInfo,
                         Consumer<String> progress, Consumer<String> errors) {
        public Config {
            if (maxSmps < 1) {
                throw new IllegalArgumentException("outstanding SMPs must be at least 1, not " + maxSmps);
            }
            Objects.requireNonNull(timeout, "timeout");
        }

        /** libibnetdisc's defaults: 2 SMPs in flight, 1000 ms timeout, 3 retries, no hop limit, MLX_EPI on. */
        public static Config defaults() {
            return new Config(2, Duration.ofMillis(1000), 3, 0, 0, true, null, null);
        }

        public Config withMaxSmps(int n) {
            return new Config(n, timeout, retries, maxHops, mkey, mlnxExtPortInfo, progress, errors);
        }

        public Config withTimeout(Duration t) {
            return new Config(maxSmps, t, retries, maxHops, mkey, mlnxExtPortInfo, progress, errors);
        }

        public Config withRetries(int r) {
            return new Config(maxSmps, timeout, r, maxHops, mkey, mlnxExtPortInfo, progress, errors);
        }

        /** At most this many hops from the start (0: no limit), as iblinkinfo's -n. */
        public Config withMaxHops(int h) {
            return new Config(maxSmps, timeout, retries, h, mkey, mlnxExtPortInfo, progress, errors);
        }

        public Config withMkey(long k) {
            return new Config(maxSmps, timeout, retries, maxHops, k, mlnxExtPortInfo, progress, errors);
        }

        public Config withMlnxExtPortInfo(boolean on) {
            return new Config(maxSmps, timeout, retries, maxHops, mkey, on, progress, errors);
        }

        /** Receives ibnetdiscover -s's lines ("DR path slid 0; dlid 0; 0,1 -> new Switch {...} ..."). */
        public Config withProgress(Consumer<String> p) {
            return new Config(maxSmps, timeout, retries, maxHops, mkey, mlnxExtPortInfo, p, errors);
        }

        /** Receives a line per failed SMP. */
        public Config withErrors(Consumer<String> e) {
            return new Config(maxSmps, timeout, retries, maxHops, mkey, mlnxExtPortInfo, progress, e);
        }
    }

    private static final int SPEED_QDR = 4;

    /** The scan could not start: the first node does not answer. */
    public static final class Failed extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public Failed(String message) {
            super(message);
        }
    }

    private final SmpPipe pipe;
    private final Config cfg;
    private final NetFabric fabric = new NetFabric();
    private final int initialHops;
    private long failed;
    /** The CA and router ports reached a second time, reported once each. */
    private final java.util.Set<String> revisited = new java.util.HashSet<>();

    private NetDiscovery(MadTransport t, Config cfg, int initialHops) {
        this.cfg = cfg;
        this.pipe = new SmpPipe(t, cfg.maxSmps(), cfg.timeout(), cfg.retries());
        pipe.answerInOrder(true);
        if (cfg.mkey() != 0) {
            pipe.mkey(cfg.mkey());
        }
        this.initialHops = initialHops;
    }

    /** Discovers the whole fabric from the attached port. */
    public static NetFabric discover(MadTransport t, Config cfg) {
        return discover(t, new byte[0], cfg);
    }

    /**
     * Discovers from the node at directed route {@code from} (egress port per hop; empty: the attached port).
     *
     * @throws Failed when the starting node does not answer NodeInfo
     */
    public static NetFabric discover(MadTransport t, byte[] from, Config cfg) {
        if (from.length > Smp.MAX_HOPS) {
            throw new IllegalArgumentException("directed route of " + from.length + " hops (at most " + Smp.MAX_HOPS
                    + ")");
        }
        NetDiscovery d = new NetDiscovery(t, cfg, from.length);
        return d.run(from.clone());
    }

    private NetFabric run(byte[] from) {
        queryNodeInfo(from, null, 0);
        pipe.drain();
        if (fabric.from == null) {
            throw new Failed("the node at " + drString(from) + " does not answer NodeInfo");
        }
        fabric.smps = pipe.sent();
        fabric.maxHops += initialHops;
        return fabric;
    }

    /** SMPs that failed (timeouts, error statuses). */
    long failed() {
        return failed;
    }

    private void queryNodeInfo(byte[] path, NetNode from, int fromPort) {
        pipe.get(path, AttributeIds.NODE_INFO, 0, r -> {
            if (ok(r, path, AttributeIds.NODE_INFO, 0)) {
                nodeInfo(path, r.data(), from, fromPort);
            }
        });
    }

    private void nodeInfo(byte[] path, byte[] ni, NetNode remNode, int remPort) {
        long guid = NetNode.NI_GUID.get(ni, 0);
        long portGuid = NetNode.NI_PORT_GUID.get(ni, 0);
        int portNum = (int) NetNode.NI_LOCAL_PORT.get(ni, 0);
        NetNode node = fabric.node(guid);
        boolean isNew = node == null;
        if (isNew) {
            node = new NetNode(Arrays.copyOf(ni, SmpAttributes.NODE_INFO.size()), path);
            fabric.add(node);
        }
        if (portNum > node.numPorts() || (!node.isSwitch() && portNum == 0)) {
            error("node 0x" + Long.toHexString(guid) + " at " + drString(path) + " answers from port " + portNum
                    + " of " + node.numPorts());
            return;
        }
        if (!isNew && remNode != null && (node.type() != (int) NetNode.NI_TYPE.get(ni, 0)
                || node.numPorts() != (int) NetNode.NI_PORTS.get(ni, 0))) {
            fabric.clash(new NetFabric.Clash(node, path, remNode.ports[remPort]));
        }
        NetPort port = node.ports[portNum];
        // a CA or router port is reached once, from the one port its cable leads to: reached again, the way out of
        // it led back into the same node (a port cabled to itself, or a fabric that answers every route alike), and
        // asking again would go round for ever
        boolean revisit = !isNew && !node.isSwitch() && port != null;
        if (port == null) {
            port = node.ports[portNum] = new NetPort(node, portNum);
        }
        port.guid = portGuid;
        if (cfg.progress() != null) {
            cfg.progress().accept(String.format("%s -> %s %s {%016x} portnum %d lid %d-%d \"%s\"", drString(path),
                    isNew ? "new" : "known", typeName(node.type()), node.guid(),
                    node.isSwitch() ? 0 : port.number(), port.baseLid, port.baseLid + (1 << port.lmc) - 1,
                    node.description()));
        }
        if (remNode == null) {
            fabric.from = node;
            fabric.fromPort = portNum;
        } else {
            NetPort rp = remNode.ports[remPort];
            if ((port.remote != null && port.remote != rp) || (rp.remote != null && rp.remote != port)) {
                fabric.rewire(new NetFabric.Rewire(port, rp, port.remote != null ? port.remote : rp.remote));
            }
            if (port.remote != null) {
                port.remote.remote = null;
            }
            if (rp.remote != null) {
                rp.remote.remote = null;
            }
            port.remote = rp;
            rp.remote = port;
        }
        if (revisit) {
            if (revisited.add(node.guid() + ":" + portNum)) {
                error(String.format("Duplicate Port: node 0x%016x port %d reached again at %s (it leads back to "
                        + "itself): not explored further", node.guid(), portNum, drString(path)));
            }
            return;
        }
        NetNode n = node;
        if (isNew) {
            pipe.get(path, AttributeIds.NODE_DESC, 0, r -> {
                if (ok(r, path, AttributeIds.NODE_DESC, 0)) {
                    n.nodeDesc = r.data();
                }
            });
            if (node.isSwitch()) {
                n.enhancedPort0 = false;
                pipe.get(path, AttributeIds.SWITCH_INFO, 0, r -> {
                    if (ok(r, path, AttributeIds.SWITCH_INFO, 0)) {
                        n.switchInfo = Arrays.copyOf(r.data(), SmpAttributes.SWITCH_INFO.size());
                        n.enhancedPort0 = SmpAttributes.SWITCH_INFO.get(n.switchInfo, 0, "EnhancedPort0") != 0;
                    }
                });
                queryPortInfo(n, 0, path);
            }
        }
        if (!node.isSwitch()) {
            queryPortInfo(n, portNum, path);
        }
    }

    private void queryPortInfo(NetNode node, int portNum, byte[] path) {
        pipe.get(path, AttributeIds.PORT_INFO, portNum, r -> {
            if (ok(r, path, AttributeIds.PORT_INFO, portNum)) {
                portInfo(node, portNum, path, r.data());
            }
            if (portNum == 0) {
                for (int i = 1; i <= node.numPorts(); i++) {
                    queryPortInfo(node, i, path);
                }
            }
        });
    }

    private void portInfo(NetNode node, int portNum, byte[] path, byte[] pi) {
        NetPort port = node.ports[portNum];
        if (port == null) {
            port = node.ports[portNum] = new NetPort(node, portNum);
            port.guid = node.portGuid();
        }
        port.info = pi;
        port.baseLid = (int) NetPort.LID.get(pi, 0);
        port.lmc = (int) NetPort.LMC.get(pi, 0);
        if (portNum == 0) {
            node.smaLid = port.baseLid;
            node.smaLmc = port.lmc;
        } else if (node.isSwitch()) {
            port.baseLid = node.smaLid;
            port.lmc = node.smaLmc;
        }
        fabric.index(port);
        if (cfg.mlnxExtPortInfo() && MlnxDevices.hasExtPortInfo(node.vendorId(), node.deviceId())
                && port.physState() == NetPort.PHYS_LINK_UP && port.speedActive() == SPEED_QDR
                && port.speedExtActive() == 0) {
            NetPort p = port;
            pipe.get(path, AttributeIds.MLNX_EXT_PORT_INFO, portNum, r -> {
                if (ok(r, path, AttributeIds.MLNX_EXT_PORT_INFO, portNum)) {
                    p.extInfo = r.data();
                }
                probe(node, p, path);
            });
            return;
        }
        probe(node, port, path);
    }

    /** One hop further out of {@code port} when its link is up and it is not where we came in. */
    private void probe(NetNode node, NetPort port, byte[] path) {
        int portNum = port.number();
        int local = (int) NetPort.LOCAL_PORT.get(port.info, 0);
        boolean out = (node.isSwitch() && portNum != local) || (node == fabric.from && portNum == fabric.fromPort);
        if (portNum == 0 || port.physState() != NetPort.PHYS_LINK_UP || !out) {
            return;
        }
        byte[] next;
        if (!node.isSwitch() && node == fabric.from && path.length > 1) {
            // a partial scan from a CA: step back to the node it hangs off
            if (cfg.maxHops() > 0 && fabric.maxHops > cfg.maxHops()) {
                return;
            }
            fabric.maxHops++;
            next = Arrays.copyOf(path, path.length - 1);
        } else {
            if (cfg.maxHops() > 0 && fabric.maxHops > cfg.maxHops()) {
                return;
            }
            if (path.length >= Smp.MAX_HOPS) {
                error("add port " + portNum + " to DR path failed; " + drString(path));
                return;
            }
            next = Smp.append(path, portNum);
            if (next.length - initialHops > fabric.maxHops) {
                fabric.maxHops++;
            }
        }
        queryNodeInfo(next, node, portNum);
    }

    private boolean ok(SmpPipe.Reply r, byte[] path, int attr, int mod) {
        if (r.ok()) {
            return true;
        }
        failed++;
        if (r.mad() == null) {
            error(String.format("umad (%s Attr 0x%x:%d) bad status 110; Connection timed out", drString(path), attr,
                    mod));
        } else {
            error(String.format("mad (%s Attr 0x%x:%d) bad status 0x%x", drString(path), attr, mod, r.status()));
        }
        return false;
    }

    private void error(String line) {
        if (cfg.errors() != null) {
            cfg.errors().accept(line);
        }
    }

    /** libibmad's portid2str for a directed route from the local port: "DR path slid 0; dlid 0; 0,1,3". */
    public static String drString(byte[] path) {
        return "DR path slid 0; dlid 0; " + Smp.pathString(path);
    }

    /** libibmad's node type names. */
    public static String typeName(int type) {
        return switch (type) {
            case NetNode.CA -> "Channel Adapter";
            case NetNode.SWITCH -> "Switch";
            case NetNode.ROUTER -> "Router";
            default -> "?(" + type + ")";
        };
    }
}
