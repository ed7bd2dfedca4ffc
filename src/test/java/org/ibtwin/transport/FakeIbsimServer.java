package org.ibtwin.transport;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;

/**
 * A stand-in for {@code ibsim -r} speaking its wire protocol on loopback, with one client slot, canned port data and
 * a scriptable answer to each MAD: enough to test the client's handshake, matching, retries and robustness without
 * ibsim. Ports are ephemeral: the control socket at P, the slot's data socket at P+1.
 */
final class FakeIbsimServer implements AutoCloseable {
    static final long NODE_GUID = 0x0011223344556600L;
    static final int SLOT = 3;

    final DatagramSocket ctl;
    final DatagramSocket data;
    final List<Integer> ctlTypes = new CopyOnWriteArrayList<>();
    final List<byte[]> received = new CopyOnWriteArrayList<>();
    final List<Integer> issmValues = new CopyOnWriteArrayList<>();
    volatile InetSocketAddress client;
    /** What to do with each MAD datagram (288 bytes as received); default: answer it. */
    volatile BiConsumer<FakeIbsimServer, byte[]> onMad = (s, d) -> s.sendToClient(answer(d));
    private final Thread ctlThread;
    private final Thread dataThread;

    FakeIbsimServer() throws IOException {
        DatagramSocket c = null;
        DatagramSocket d = null;
        for (int i = 0; i < 50 && d == null; i++) {
            c = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            try {
                d = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(),
                        c.getLocalPort() + 1 + SLOT));
            } catch (SocketException e) {
                c.close();
                c = null;
            }
        }
        if (d == null) {
            throw new IOException("no two free ports");
        }
        ctl = c;
        data = d;
        ctlThread = new Thread(this::ctlLoop, "fake-ibsim-ctl");
        dataThread = new Thread(this::dataLoop, "fake-ibsim-data");
        ctlThread.setDaemon(true);
        dataThread.setDaemon(true);
        ctlThread.start();
        dataThread.start();
    }

    int port() {
        return ctl.getLocalPort();
    }

    /** The response ibsim would give: R bit and GetResp, NodeInfo-ish data, header swapped, status 0. */
    static byte[] answer(byte[] d) {
        byte[] r = d.clone();
        ByteBuffer b = ByteBuffer.wrap(r);
        int dl = b.getInt(0);
        b.putInt(0, b.getInt(4));
        b.putInt(4, dl);
        int dq = b.getInt(8);
        b.putInt(8, b.getInt(12));
        b.putInt(12, dq);
        b.putInt(16, 0);
        r[32 + 3] = (byte) 0x81;
        if ((r[32 + 1] & 0xff) == 0x81) {
            r[32 + 4] |= (byte) 0x80;
        }
        b.putLong(32 + 64 + 12, NODE_GUID);
        return r;
    }

    /** The request bounced the way ibsim bounces an undeliverable MAD: unchanged, status 110. */
    static byte[] bounce(byte[] d) {
        byte[] r = d.clone();
        ByteBuffer.wrap(r).putInt(16, IbsimWire.STATUS_TIMEOUT);
        return r;
    }

    void sendToClient(byte[] datagram) {
        try {
            data.send(new DatagramPacket(datagram, datagram.length, client));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The next datagram s receives into buf; null once s is closed (or fails). */
    private static DatagramPacket next(DatagramSocket s, byte[] buf) {
        if (s.isClosed()) {
            return null;
        }
        DatagramPacket p = new DatagramPacket(buf, buf.length);
        try {
            s.receive(p);
            return p;
        } catch (IOException e) {
            return null;
        }
    }

    private void ctlLoop() {
        byte[] buf = new byte[512];
        for (DatagramPacket p = next(ctl, buf); p != null; p = next(ctl, buf)) {
            if (p.getLength() != IbsimWire.CTL_SIZE) {
                continue;
            }
            IbsimWire.Ctl m = IbsimWire.decodeCtl(buf, p.getLength());
            ctlTypes.add(m.type());
            byte[] out = m.data().clone();
            int type = m.type();
            switch (m.type()) {
                case IbsimWire.TYPE_CONNECT -> {
                    IbsimWire.ClientInfo info = IbsimWire.decodeClientInfo(m.data());
                    if (info.nodeId().equals("refuse")) {
                        type = IbsimWire.TYPE_ERROR;
                    } else {
                        client = new InetSocketAddress(p.getAddress(), info.id());
                        out = IbsimWire.encodeClientInfo(new IbsimWire.ClientInfo(SLOT, info.qp(), info.issm(),
                                info.nodeId().isEmpty() ? "Fake1" : info.nodeId()));
                    }
                }
                case IbsimWire.TYPE_GET_NODEINFO -> out = nodeInfo();
                case IbsimWire.TYPE_GET_PORTINFO -> out = portInfo();
                case IbsimWire.TYPE_GET_PKEYS -> {
                    out = new byte[64];
                    out[0] = (byte) 0xff;
                    out[1] = (byte) 0xff;
                    out[2] = (byte) 0x80;
                    out[3] = 0x01;
                }
                case IbsimWire.TYPE_SET_ISSM -> issmValues.add(IbsimWire.hostInt(m.data(), 0));
                default -> {
                }
            }
            byte[] reply = IbsimWire.encodeCtl(m.clientId(), type, Arrays.copyOf(out, 64));
            try {
                ctl.send(new DatagramPacket(reply, reply.length, p.getSocketAddress()));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void dataLoop() {
        byte[] buf = new byte[1024];
        for (DatagramPacket p = next(data, buf); p != null; p = next(data, buf)) {
            byte[] d = Arrays.copyOf(buf, p.getLength());
            received.add(d);
            onMad.accept(this, d);
        }
    }

    /** A CA with 2 ports, attached at port 2. */
    static byte[] nodeInfo() {
        ByteBuffer b = ByteBuffer.allocate(64);
        b.put(0, (byte) 1).put(1, (byte) 1).put(2, (byte) 1).put(3, (byte) 2);
        b.putLong(4, NODE_GUID).putLong(12, NODE_GUID).putLong(20, NODE_GUID);
        return b.array();
    }

    /** LID 0x1234, SM LID 0x42, LMC 2, Active, local port 2. */
    static byte[] portInfo() {
        ByteBuffer b = ByteBuffer.allocate(64);
        b.putShort(16, (short) 0x1234).putShort(18, (short) 0x42);
        b.put(28, (byte) 2).put(32, (byte) 0x24).put(33, (byte) 0x52).put(34, (byte) 2);
        return b.array();
    }

    @Override
    public void close() {
        ctl.close();
        data.close();
        try {
            ctlThread.join(2000);
            dataThread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
