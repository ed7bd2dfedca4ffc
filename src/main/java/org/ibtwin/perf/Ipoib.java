package org.ibtwin.perf;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.ibtwin.model.IpoibMode;

/**
 * IPoIB: the throughput of one TCP stream (a large scp-like copy) between two hosts' ib0 interfaces.
 *
 * <p><b>Mode and MTU on the wire.</b> Datagram mode sends each IP packet as one UD packet, so its MTU is at most the
 * IB path MTU - 4 (the IPoIB header): 2044 at 2048, 4092 at 4096. Connected mode opens an RC connection per peer
 * and carries IP packets up to 65520 bytes, split into IB packets at the path MTU. Both ends in connected mode use the
 * smaller of their MTUs. When the modes differ (T14) the connected host sees no connected-mode flag in its peer's
 * hardware address and reaches it over UD; TCP's MSS, taken from the datagram host's SYN, keeps segments to the
 * datagram MTU - 52, so a stream runs at the datagram figure; what does not negotiate a size (UDP, ICMP, NFS over
 * UDP, or TCP with path MTU discovery blocked) above the datagram MTU is dropped, and those pairs hang.
 *
 * <p><b>Throughput.</b> The stack spends {@code ipoibPacketNanos} per packet (interrupt, protocol, socket) and
 * {@code ipoibByteNanos} per byte (copies, checksums), so a segment of MTU - 52 payload bytes (IPv4 20, TCP 20,
 * timestamps 12) takes {@code packet + MTU x byte} ns: 1.18 GB/s at 2044, 7.0 GB/s at 65520 (P15). A process on the
 * far NUMA node runs the stack {@code 1/numaFarMessageRate} slower. The slowest link on the path caps it too, with
 * the IB headers of the packets the mode uses.
 */
public final class Ipoib {
    /** IPv4 + TCP + TCP timestamp option. */
    public static final int TCP_IP_HEADERS = 52;
    /** The IPoIB encapsulation header. */
    public static final int IPOIB_HEADER = 4;

    private Ipoib() {
    }

    /**
     * A stream's figure.
     *
     * @param wireMode  the mode packets between the two actually use
     * @param mtu       the IP MTU they use
     * @param mixed     the two hosts are set to different modes
     * @param gbytesPerSecond TCP payload, 10^9 bytes per second
     * @param why       what limits it
     * @param notes     what an admin should know (mixed modes, a datagram MTU above the path)
     */
    public record Result(Endpoint a, Endpoint b, IpoibMode wireMode, int mtu, boolean mixed, double gbytesPerSecond,
                         Bottleneck why, List<String> notes) {
        public double gbps() {
            return gbytesPerSecond * 8;
        }
    }

    /** One TCP stream from {@code a} to {@code b} over {@code path}. */
    public static Result stream(PerfParams p, Endpoint a, Endpoint b, Route path) {
        IpoibMode ma = a.facts().ipoibMode();
        IpoibMode mb = b.facts().ipoibMode();
        int ibMtu = path.mtu().bytes();
        int udMtu = ibMtu - IPOIB_HEADER;
        List<String> notes = new ArrayList<>();
        boolean mixed = ma != mb;
        IpoibMode wire;
        int mtu;
        if (ma == IpoibMode.CONNECTED && mb == IpoibMode.CONNECTED) {
            wire = IpoibMode.CONNECTED;
            mtu = Math.min(a.facts().ipoibMtu(), b.facts().ipoibMtu());
        } else {
            wire = IpoibMode.DATAGRAM;
            int dg = Math.min(ma == IpoibMode.DATAGRAM ? a.facts().ipoibMtu() : Integer.MAX_VALUE,
                    mb == IpoibMode.DATAGRAM ? b.facts().ipoibMtu() : Integer.MAX_VALUE);
            if (dg > udMtu) {
                notes.add(String.format(Locale.ROOT, "datagram MTU %d exceeds the path MTU %d - 4: packets above %d "
                        + "bytes cannot be sent", dg, ibMtu, udMtu));
            }
            mtu = Math.min(dg, udMtu);
        }
        if (mixed) {
            Endpoint cm = ma == IpoibMode.CONNECTED ? a : b;
            Endpoint dg = cm == a ? b : a;
            notes.add(String.format(Locale.ROOT, "T14: mixed IPoIB modes: %s runs connected (MTU %d), %s datagram "
                    + "(MTU %d). %s sees no connected-mode flag in %s's address and sends over UD; TCP's MSS from %s's "
                    + "SYN keeps segments to %d bytes, so this stream runs at the datagram figure, but anything that "
                    + "does not negotiate a size (UDP, ICMP, TCP with path MTU discovery blocked) above %d bytes from "
                    + "%s is dropped and hangs. Set one mode (CONNECTED_MODE=yes, MTU 65520) on every node.",
                    cm.name(), cm.facts().ipoibMtu(), dg.name(), dg.facts().ipoibMtu(), cm.name(), dg.name(),
                    dg.name(), mtu - TCP_IP_HEADERS, mtu, cm.name()));
        } else if (wire == IpoibMode.DATAGRAM) {
            notes.add(String.format(Locale.ROOT, "T15: datagram mode at MTU %d; connected mode with MTU 65520 moves "
                    + "about %.1f GB/s where the HCAs support it", mtu, cpuBound(p, a, b, 65520)));
        }
        double cpu = cpuBound(p, a, b, mtu);
        double link = linkBound(p, path, wire, mtu);
        double gbs;
        Bottleneck why;
        if (link < cpu) {
            gbs = link;
            Hop slow = path.slowest();
            why = new Bottleneck(Bottleneck.Kind.LINK, String.format(Locale.ROOT,
                    "limited by link %s at %s (≈ %.2f GB/s of TCP payload)", Names.link(slow.link()),
                    LinkRates.label(slow.link()), gbs));
        } else {
            gbs = cpu;
            why = new Bottleneck(Bottleneck.Kind.CPU, String.format(Locale.ROOT,
                    "limited by the IPoIB stack: %.0f ns per %d-byte packet + %.2f ns per byte%s (%s mode)",
                    p.ipoibPacketNanos(), mtu, p.ipoibByteNanos(), a.farNuma() || b.farNuma()
                            ? ", slower on the far NUMA node" : "", wire.label()));
        }
        return new Result(a, b, wire, mtu, mixed, gbs, why, List.copyOf(notes));
    }

    /** What the stack moves at MTU {@code mtu}, GB/s (bytes per ns). */
    public static double cpuBound(PerfParams p, Endpoint a, Endpoint b, int mtu) {
        double ns = p.ipoibPacketNanos() + mtu * p.ipoibByteNanos();
        if (a.farNuma() || b.farNuma()) {
            ns /= p.numaFarMessageRate();
        }
        return (mtu - TCP_IP_HEADERS) / ns;
    }

    /** What the slowest link carries as TCP payload, GB/s. */
    static double linkBound(PerfParams p, Route path, IpoibMode mode, int mtu) {
        if (path.isLoopback()) {
            return Double.POSITIVE_INFINITY;
        }
        long ip = mtu + IPOIB_HEADER;
        long wire = mode == IpoibMode.CONNECTED
                ? Headers.dataBytes(Op.SEND, Transport.RC, ip, path.mtu().bytes(), false)
                : Headers.dataBytes(Op.SEND, Transport.UD, ip, path.mtu().bytes(), false);
        double linkGBps = path.slowestGbps() * p.linkEfficiency() / 8;
        return linkGBps * (mtu - TCP_IP_HEADERS) / wire;
    }
}
