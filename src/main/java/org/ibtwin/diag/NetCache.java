package org.ibtwin.diag;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * libibnetdisc's fabric cache file ({@code ibnetdiscover --cache FILE}, read back by {@code --load-cache} and
 * {@code --diff} of ibnetdiscover and iblinkinfo), byte for byte: a little-endian header (magic 0x8FE7832B, version
 * 1, node and port counts, the starting node's GUID, the hops discovered), one record per node in the library's
 * list order (its SMA LID, LMC and enhanced-port-0 flag, SwitchInfo, GUID, type, port count, NodeInfo and
 * NodeDescription, then the GUID and number of each port stored), then one record per port that answered PortInfo,
 * in the order of the library's port hash table (its LID and LMC, PortInfo, its node's GUID and the port at the
 * other end). The Mellanox extended port info is not in the format, so FDR10 does not survive a cache.
 */
public final class NetCache {
    private static final int MAGIC = 0x8FE7832B;
    private static final int VERSION = 1;
    private static final int HTSZ = 137;
    private static final int DATA = 64;

    private NetCache() {
    }

    /** A cache file that cannot be read: its reason, for a one-line message. */
    public static final class BadCache extends Exception {
        private static final long serialVersionUID = 1L;

        BadCache(String message) {
            super(message);
        }
    }

    /** libibnetdisc's HASHGUID, bucket of its 137-entry tables. */
    static int bucket(long guid) {
        int lo = (int) guid * 101;
        int hi = (int) (guid >>> 32) * 103;
        return Integer.remainderUnsigned(lo ^ hi, HTSZ);
    }

    public static void write(NetFabric f, Path file) throws IOException {
        List<NetPort> stored = new ArrayList<>();
        for (NetNode n : f.nodesInDiscoveryOrder()) {
            for (NetPort p : n.ports) {
                if (p != null && p.indexed >= 0) {
                    stored.add(p);
                }
            }
        }
        // the library walks its hash table bucket by bucket, newest first within one
        stored.sort(Comparator.comparingInt((NetPort p) -> bucket(p.guid)).thenComparing(p -> -p.indexed));
        List<NetNode> nodes = f.nodes();
        ByteBuffer b = ByteBuffer.allocate(28 + nodes.size() * (207 + 9 * 256) + stored.size() * 95)
                .order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(MAGIC).putInt(VERSION).putInt(nodes.size()).putInt(stored.size())
                .putLong(f.from().guid()).putInt(f.maxHopsDiscovered());
        for (NetNode n : nodes) {
            b.putShort((short) n.smaLid()).put((byte) n.smaLmc()).put((byte) (n.enhancedPort0() ? 1 : 0));
            b.put(pad(n.switchInfo()));
            b.putLong(n.guid()).put((byte) n.type()).put((byte) n.numPorts());
            b.put(pad(n.nodeInfo())).put(pad(n.nodeDescBytes()));
            int countAt = b.position();
            b.put((byte) 0);
            int count = 0;
            for (int i = 0; i <= n.numPorts(); i++) {
                NetPort p = n.port(i);
                if (p != null && p.indexed >= 0) {
                    b.putLong(p.guid).put((byte) p.number());
                    count++;
                }
            }
            b.put(countAt, (byte) count);
        }
        for (NetPort p : stored) {
            b.putLong(p.guid).put((byte) p.number()).put((byte) p.extPortNum).putShort((short) p.baseLid)
                    .put((byte) p.lmc).put(pad(p.info)).putLong(p.node().guid());
            NetPort r = p.remote;
            if (r != null && r.indexed >= 0) {
                b.put((byte) 1).putLong(r.guid).put((byte) r.number());
            } else {
                b.put((byte) 0).putLong(0).put((byte) 0);
            }
        }
        Files.write(file, Arrays.copyOf(b.array(), b.position()));
    }

    private static byte[] pad(byte[] data) {
        return data == null ? new byte[DATA] : Arrays.copyOf(data, DATA);
    }

    /** Reads a cache file as libibnetdisc rebuilds it: nodes listed in the file's order. */
    public static NetFabric read(Path file) throws IOException, BadCache {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        try {
            if (b.getInt() != MAGIC) {
                throw new BadCache("not a fabric cache file (bad magic)");
            }
            int version = b.getInt();
            if (version != VERSION) {
                throw new BadCache("fabric cache version " + version + ", not " + VERSION);
            }
            long nodeCount = Integer.toUnsignedLong(b.getInt());
            long portCount = Integer.toUnsignedLong(b.getInt());
            long fromGuid = b.getLong();
            int maxHops = b.getInt();
            NetFabric f = new NetFabric();
            List<NetNode> fileOrder = new ArrayList<>();
            Map<NetNode, long[][]> keys = new HashMap<>();
            for (long i = 0; i < nodeCount; i++) {
                int smaLid = Short.toUnsignedInt(b.getShort());
                int smaLmc = Byte.toUnsignedInt(b.get());
                boolean enh = b.get() != 0;
                byte[] si = bytes(b, DATA);
                long guid = b.getLong();
                int type = Byte.toUnsignedInt(b.get());
                int ports = Byte.toUnsignedInt(b.get());
                byte[] ni = bytes(b, DATA);
                byte[] desc = bytes(b, DATA);
                int stored = Byte.toUnsignedInt(b.get());
                long[][] k = new long[stored][2];
                for (int s = 0; s < stored; s++) {
                    k[s][0] = b.getLong();
                    k[s][1] = Byte.toUnsignedInt(b.get());
                }
                NetNode n = new NetNode(ni, new byte[0], guid, type, ports);
                n.smaLid = smaLid;
                n.smaLmc = smaLmc;
                n.enhancedPort0 = enh;
                n.switchInfo = type == NetNode.SWITCH ? Arrays.copyOf(si, 20) : null;
                n.nodeDesc = desc;
                fileOrder.add(n);
                keys.put(n, k);
            }
            Map<String, NetPort> ports = new HashMap<>();
            Map<NetPort, String> remotes = new HashMap<>();
            Map<NetPort, Long> owners = new HashMap<>();
            List<NetPort> portOrder = new ArrayList<>();
            for (long i = 0; i < portCount; i++) {
                long guid = b.getLong();
                int num = Byte.toUnsignedInt(b.get());
                int ext = Byte.toUnsignedInt(b.get());
                int lid = Short.toUnsignedInt(b.getShort());
                int lmc = Byte.toUnsignedInt(b.get());
                byte[] info = bytes(b, DATA);
                long nodeGuid = b.getLong();
                boolean hasRemote = b.get() != 0;
                long rg = b.getLong();
                int rn = Byte.toUnsignedInt(b.get());
                String key = guid + ":" + num;
                NetPort placeholder = new NetPort(null, num);
                placeholder.guid = guid;
                placeholder.extPortNum = ext;
                placeholder.baseLid = lid;
                placeholder.lmc = lmc;
                placeholder.info = info;
                ports.putIfAbsent(key, placeholder);
                owners.put(placeholder, nodeGuid);
                if (hasRemote) {
                    remotes.put(placeholder, rg + ":" + rn);
                }
                portOrder.add(placeholder);
            }
            // the library stacks the records it reads, then rebuilds its node list from that stack by prepending
            // again: its lists come out in the file's order, as they were when cached; its port table is filled
            // in the stack's order
            List<NetNode> stack = new ArrayList<>(fileOrder);
            java.util.Collections.reverse(stack);
            Map<Long, NetNode> byGuid = new HashMap<>();
            for (NetNode n : stack) {
                byGuid.putIfAbsent(n.guid(), n);
                f.add(n);
            }
            Map<NetPort, NetPort> real = new HashMap<>();
            for (NetNode n : stack) {
                for (long[] k : keys.get(n)) {
                    NetPort ph = ports.get(k[0] + ":" + k[1]);
                    int num = (int) k[1];
                    if (ph == null || real.containsKey(ph) || num > n.numPorts()) {
                        continue;       // an incomplete record: the library skips it too
                    }
                    NetPort p = new NetPort(n, num);
                    p.guid = ph.guid;
                    p.extPortNum = ph.extPortNum;
                    p.baseLid = ph.baseLid;
                    p.lmc = ph.lmc;
                    p.info = ph.info;
                    n.ports[num] = p;
                    real.put(ph, p);
                    f.index(p);
                }
            }
            for (int i = portOrder.size() - 1; i >= 0; i--) {
                NetPort ph = portOrder.get(i);
                NetPort p = real.get(ph);
                if (p == null) {
                    continue;
                }
                if (byGuid.get(owners.get(ph)) == null) {
                    throw new BadCache(String.format("port 0x%016x:%d belongs to node 0x%016x, which has no record",
                            ph.guid, ph.number(), owners.get(ph)));
                }
                String rk = remotes.get(ph);
                if (rk != null) {
                    p.remote = real.get(ports.get(rk));
                }
            }
            NetNode from = byGuid.get(fromGuid);
            if (from == null) {
                throw new BadCache(String.format("the starting node 0x%016x has no record", fromGuid));
            }
            f.from = from;
            f.maxHops = maxHops;
            return f;
        } catch (java.nio.BufferUnderflowException e) {
            throw new BadCache("truncated");
        }
    }

    private static byte[] bytes(ByteBuffer b, int n) {
        byte[] a = new byte[n];
        b.get(a);
        return a;
    }
}
