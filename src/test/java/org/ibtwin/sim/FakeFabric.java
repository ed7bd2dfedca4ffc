package org.ibtwin.sim;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.ibtwin.transport.MadAddress;

/**
 * A stand-in for the twin, enough to exercise {@link IbsimServer}: three nodes in a row, one switch and two CAs,
 *
 * <pre>
 *   host1 (CA, 2 ports) [1] --- [1] sw1 (switch, 8 ports, LID 1) [2] --- [1] host2 (CA, 1 port)
 *        LID 11, port 2 down                                                  LID 12
 * </pre>
 * every node answering Get(NodeInfo), Get(PortInfo) and Get(NodeDescription) SMPs, directed-route or LID-routed,
 * dropping Get(SMInfo) without an answer and answering any other attribute with status "unsupported".
 * A GMP request to a LID goes to an attachment at that node that is an SM (as ibsim forwards QP1 requests to the
 * port's SM client), and its response back to the asker; what cannot be delivered is reported to the sender's
 * {@link MadSink#undeliverable}. MADs are processed one at a time on a thread of the fabric's own, which calls the
 * sinks, as the twin does.
 */
final class FakeFabric implements AttachPoint, AutoCloseable {
    static final long SW1 = 0x0008f10400000100L;
    static final long HOST1 = 0x0002c90300000200L;
    static final long HOST2 = 0x0002c90300000210L;
    static final int SW1_LID = 1;
    static final int HOST1_LID = 11;
    static final int HOST2_LID = 12;
    static final int SM_LID = 1;
    static final long GID_PREFIX = 0xfe80000000000000L;
    static final int CAP_IS_SM = 0x2;

    /** A node of the fake. Ports 1..n; {@code peer[p]} is the node across port p, {@code peerPort[p]} its port. */
    static final class Node {
        final String id;
        final String desc;
        final int type;
        final long guid;
        final int ports;
        final int deviceId;
        final int vendorId;
        final Node[] peer;
        final int[] peerPort;
        final int[] lid;
        final int[] capMask;

        Node(String id, String desc, int type, long guid, int ports, int deviceId, int vendorId) {
            this.id = id;
            this.desc = desc;
            this.type = type;
            this.guid = guid;
            this.ports = ports;
            this.deviceId = deviceId;
            this.vendorId = vendorId;
            this.peer = new Node[ports + 1];
            this.peerPort = new int[ports + 1];
            this.lid = new int[ports + 1];
            this.capMask = new int[ports + 1];
        }

        boolean isSwitch() {
            return type == 2;
        }

        long portGuid(int port) {
            return isSwitch() ? guid : guid + port;
        }

        /** The port that holds the LID and the SM bit: 0 on a switch. */
        int mgmtPort(int port) {
            return isSwitch() ? 0 : port;
        }
    }

    final Node sw1 = new Node("S-0008f10400000100", "sw1", 2, SW1, 8, 0xc738, 0x0008f1);
    final Node host1 = new Node("H-0002c90300000200", "host1 HCA-1", 1, HOST1, 2, 0x101b, 0x0002c9);
    final Node host2 = new Node("H-0002c90300000210", "host2 HCA-1", 1, HOST2, 1, 0x101b, 0x0002c9);
    final List<Node> nodes = List.of(sw1, host1, host2);

    /** Every attachment ever made, in order. */
    final List<Att> attachments = new CopyOnWriteArrayList<>();
    /** Every MAD sent into the fabric (as the server handed it over). */
    final List<Sent> sent = new CopyOnWriteArrayList<>();
    /** Node names asked for, including unknown ones. */
    final List<String> asked = new CopyOnWriteArrayList<>();
    private final Map<Long, Att> pendingGmps = new ConcurrentHashMap<>();
    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "fake-fabric");
        t.setDaemon(true);
        return t;
    });

    record Sent(Att from, byte[] mad, MadAddress to) {
    }

    FakeFabric() {
        link(host1, 1, sw1, 1);
        link(sw1, 2, host2, 1);
        sw1.lid[0] = SW1_LID;
        host1.lid[1] = HOST1_LID;
        host2.lid[1] = HOST2_LID;
        sw1.capMask[0] = 0x00000008;     // IsSNMP-less switch port 0: IsTrapSupported
        host1.capMask[1] = 0x02510868;
        host1.capMask[2] = 0x02510868;
        host2.capMask[1] = 0x02510868;
    }

    private static void link(Node a, int pa, Node b, int pb) {
        a.peer[pa] = b;
        a.peerPort[pa] = pb;
        b.peer[pb] = a;
        b.peerPort[pb] = pa;
    }

    @Override
    public Attachment attach(String nodeName) {
        asked.add(String.valueOf(nodeName));
        Node n = nodeName == null ? sw1 : nodes.stream()
                .filter(x -> x.id.equals(nodeName)).findFirst()
                .or(() -> nodes.stream().filter(x -> x.desc.equals(nodeName)).findFirst())
                .orElseThrow(() -> new NoSuchElementException("no node \"" + nodeName + "\""));
        Att a = new Att(n, n.isSwitch() ? 0 : 1);
        attachments.add(a);
        return a;
    }

    /** The live attachments at {@code node}. */
    List<Att> attachedAt(Node node) {
        List<Att> out = new ArrayList<>();
        for (Att a : attachments) {
            if (a.node == node && !a.detached) {
                out.add(a);
            }
        }
        return out;
    }

    /** Hands {@code mad} to {@code a}'s sink from the fabric's thread, as a trap or request would arrive. */
    void push(Att a, byte[] mad, MadAddress from) {
        worker.execute(() -> {
            MadSink s = a.sink;
            if (s != null) {
                s.receive(mad.clone(), from);
            }
        });
    }

    /** Waits until every MAD handed in so far has been processed. */
    void settle() throws Exception {
        worker.submit(() -> { }).get(5, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        worker.shutdownNow();
    }

    /** An attachment of the fake. */
    final class Att implements Attachment {
        final Node node;
        final int port;
        volatile MadSink sink;
        volatile boolean detached;
        volatile boolean sm;

        Att(Node node, int port) {
            this.node = node;
            this.port = port;
        }

        @Override
        public String nodeName() {
            return node.id;
        }

        @Override
        public int portNumber() {
            return port;
        }

        @Override
        public long nodeGuid() {
            return node.guid;
        }

        @Override
        public long portGuid() {
            return node.portGuid(port);
        }

        @Override
        public byte[] nodeInfo() {
            return FakeFabric.nodeInfo(node, port);
        }

        @Override
        public byte[] portInfo() {
            return FakeFabric.portInfo(node, port);
        }

        @Override
        public int[] pkeys() {
            return new int[] {0xffff, 0x8001};
        }

        @Override
        public void setIsSm(boolean isSm) {
            synchronized (FakeFabric.this) {
                sm = isSm;
                int mp = node.mgmtPort(port);
                node.capMask[mp] = isSm ? node.capMask[mp] | CAP_IS_SM : node.capMask[mp] & ~CAP_IS_SM;
            }
        }

        @Override
        public void send(byte[] mad, MadAddress to) {
            if (detached) {
                throw new IllegalStateException("detached");
            }
            byte[] copy = mad.clone();
            sent.add(new Sent(this, copy.clone(), to));
            worker.execute(() -> process(this, copy, to));
        }

        @Override
        public void onReceive(MadSink sink) {
            this.sink = sink;
        }

        @Override
        public void detach() {
            detached = true;
            if (sm) {
                setIsSm(false);
            }
        }
    }

    // ---- the fabric's work ----

    private void process(Att from, byte[] mad, MadAddress to) {
        MadSink back = from.sink;
        if (back == null) {
            return;
        }
        int cls = mad[1] & 0xff;
        boolean response = (mad[3] & 0x80) != 0;
        if (cls == 0x81 && !response) {
            int hops = mad[7] & 0xff;
            Node n = from.node;
            int in = from.port;
            for (int i = 1; i <= hops; i++) {
                int out = mad[128 + i] & 0xff;
                if (out < 1 || out > n.ports || n.peer[out] == null) {
                    back.undeliverable(mad, to);
                    return;
                }
                mad[192 + i] = (byte) out;
                Node next = n.peer[out];
                in = n.peerPort[out];
                n = next;
            }
            if (!answer(n, in, mad)) {
                return;
            }
            mad[4] |= (byte) 0x80;  // D bit: returning
            mad[6] = (byte) hops;
            back.receive(mad, MadAddress.directed());
        } else if (cls == 0x01 && !response) {
            Node n = byLid(to.lid());
            if (n == null) {
                back.undeliverable(mad, to);
                return;
            }
            int port = n.isSwitch() ? 0 : lidPort(n, to.lid());
            if (answer(n, port, mad)) {
                back.receive(mad, new MadAddress(to.lid(), 0, 0, 0, 0));
            }
        } else if (cls != 0x01 && cls != 0x81 && !response) {
            Node n = byLid(to.lid());
            Att sm = null;
            if (n != null) {
                for (Att a : attachedAt(n)) {
                    if (a.sm) {
                        sm = a;
                    }
                }
            }
            if (sm == null || sm.sink == null) {
                back.undeliverable(mad, to);
                return;
            }
            pendingGmps.put(ByteBuffer.wrap(mad).getLong(8), from);
            sm.sink.receive(mad, new MadAddress(lidOf(from), 1, MadAddress.GSI_QKEY, 0, 0));
        } else if (response && cls != 0x01 && cls != 0x81) {
            Att asker = pendingGmps.remove(ByteBuffer.wrap(mad).getLong(8));
            if (asker != null && asker.sink != null && !asker.detached) {
                asker.sink.receive(mad, new MadAddress(lidOf(from), 1, MadAddress.GSI_QKEY, 0, 0));
            }
        }
    }

    private Node byLid(int lid) {
        for (Node n : nodes) {
            for (int p = 0; p <= n.ports; p++) {
                if (n.lid[p] == lid && lid != 0) {
                    return n;
                }
            }
        }
        return null;
    }

    private static int lidPort(Node n, int lid) {
        for (int p = 0; p <= n.ports; p++) {
            if (n.lid[p] == lid) {
                return p;
            }
        }
        return 1;
    }

    private static int lidOf(Att a) {
        return a.node.lid[a.node.mgmtPort(a.port)];
    }

    /** Turns the request into its response in place; false when the method is not Get (dropped). */
    private static boolean answer(Node n, int inPort, byte[] mad) {
        if ((mad[3] & 0x7f) != 0x01) {
            return false;
        }
        mad[3] = (byte) 0x81;
        int attr = ((mad[16] & 0xff) << 8) | (mad[17] & 0xff);
        int mod = ByteBuffer.wrap(mad).getInt(20);
        byte[] data;
        switch (attr) {
            case 0x0010 -> {
                data = new byte[64];
                byte[] d = n.desc.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
                System.arraycopy(d, 0, data, 0, d.length);
            }
            case 0x0011 -> data = nodeInfo(n, inPort);
            case 0x0020 -> {
                return false;       // SMInfo: no SM answers here; dropped, the asker waits out its timeout
            }
            case 0x0015 -> {
                int p = mod == 0 ? (n.isSwitch() ? 0 : inPort) : mod;
                if (p > n.ports) {
                    setStatus(mad, 7 << 2);
                    return true;
                }
                data = portInfo(n, p);
            }
            default -> {
                setStatus(mad, 3 << 2);
                return true;
            }
        }
        System.arraycopy(data, 0, mad, 64, 64);
        return true;
    }

    private static void setStatus(byte[] mad, int status) {
        mad[4] = (byte) ((mad[4] & 0x80) | ((status >> 8) & 0x7f));
        mad[5] = (byte) status;
    }

    static byte[] nodeInfo(Node n, int port) {
        ByteBuffer b = ByteBuffer.allocate(64);
        b.put(0, (byte) 1).put(1, (byte) 1).put(2, (byte) n.type).put(3, (byte) n.ports);
        b.putLong(4, n.guid).putLong(12, n.guid).putLong(20, n.portGuid(port));
        b.putShort(28, (short) (n.isSwitch() ? 8 : 128));
        b.putShort(30, (short) n.deviceId);
        b.putInt(32, 0xa0);
        b.putInt(36, (port << 24) | n.vendorId);
        return b.array();
    }

    static byte[] portInfo(Node n, int port) {
        ByteBuffer b = ByteBuffer.allocate(64);
        int mp = n.mgmtPort(port);
        b.putLong(8, GID_PREFIX);
        b.putShort(16, (short) n.lid[mp]);
        b.putShort(18, (short) SM_LID);
        b.putInt(20, n.capMask[mp]);
        b.put(28, (byte) port);
        b.put(29, (byte) 3).put(30, (byte) 3).put(31, (byte) 2);   // widths: 1x|4x enabled and supported, 4x active
        boolean up = port == 0 || n.peer[port] != null;
        b.put(32, (byte) ((4 << 4) | (up ? 4 : 1)));                // speed supported SDR..QDR, state Active/Down
        b.put(33, (byte) ((up ? 5 : 2) << 4 | 2));                  // phys LinkUp/Polling, default Polling
        b.put(34, (byte) 0);                                        // LMC 0
        b.put(35, (byte) 0x44);                                     // speed active/enabled QDR
        b.put(36, (byte) 0x40);                                     // NeighborMTU 2048, MasterSMSL 0
        return b.array();
    }
}
