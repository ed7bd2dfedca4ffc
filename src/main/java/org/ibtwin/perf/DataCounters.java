package org.ibtwin.perf;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.ibtwin.model.Link;
import org.ibtwin.model.Port;

/**
 * What traffic does to the PMA counters, as the performance model counts the wire: per message, the 4-octet words
 * and packets of the data direction and of the way back (RC ACKs, READ requests, ATOMIC responses); per port, the
 * PortXmitWait ticks a second where packets wait.
 *
 * <p>Words: PortXmitData and PortRcvData count "the octets between the start-of-packet delimiter and the VCRC,
 * divided by 4" (IBA 16.1.3.5): a packet's wire bytes ({@link Headers}) less its 2-byte VCRC, which is always a
 * multiple of 4 (LRH, BTH, the extension headers and ICRC are, and the payload is padded). A MAD is 288 such bytes,
 * 72 words.
 *
 * <p>PortXmitWait: IBA leaves the tick to the implementation; ibtwin's PMA ticks every {@link #XMIT_WAIT_TICK_NANOS}
 * ns (1 us, 1,000,000 ticks a second, so the 32-bit counter saturates after 71 minutes of congestion). The wait is
 * counted where packets queue, at the root of the congestion: a flow is held back at the last directed link of its
 * data path that is full (what crosses it fills its capacity), unless that is its first link (the source then
 * limits itself). There it is offered what its source would inject (its first link's capacity over the flows
 * sharing it), and carries less; the port transmitting onto that link waits the share {@code 1 - carried/offered}
 * of its ticks. So an 8-to-1 incast waits at the sink's leaf port alone (8 line rates offered, one carried: 7/8 of
 * the ticks; the full spine link before it is not where the flows queue), a DDR inter-switch link under HDR flows
 * waits at the port feeding it, and a shift on a non-blocking fat tree waits nowhere.
 */
public final class DataCounters {
    /** The PortXmitWait tick of ibtwin's PMA, ns. */
    public static final long XMIT_WAIT_TICK_NANOS = 1000;
    /** PortXmitWait ticks in a second. */
    public static final double XMIT_WAIT_TICKS_PER_SECOND = 1e9 / XMIT_WAIT_TICK_NANOS;

    private DataCounters() {
    }

    /** Packets of one message in its data direction. */
    public static long dataPackets(Spec s) {
        return s.op() == Op.ATOMIC ? 1 : Headers.packets(s.size(), s.mtu());
    }

    /** PortXmitData / PortRcvData words of one message in its data direction. */
    public static long dataWords(Spec s) {
        long bytes = Headers.dataBytes(s.op(), s.transport(), s.size(), s.mtu(), s.grh());
        return (bytes - Headers.VCRC * dataPackets(s)) / 4;
    }

    /** Packets of one message against its data: one ACK, READ request or ATOMIC response; none for UC and UD. */
    public static long reversePackets(Spec s) {
        return Headers.reverseBytes(s.op(), s.transport(), s.size(), s.mtu(), s.grh()) > 0 ? 1 : 0;
    }

    /** Words of one message against its data. */
    public static long reverseWords(Spec s) {
        long bytes = Headers.reverseBytes(s.op(), s.transport(), s.size(), s.mtu(), s.grh());
        return bytes == 0 ? 0 : (bytes - Headers.VCRC) / 4;
    }

    /** A flow as the counters see it: its paths, its spec (at its path MTU) and its messages a second. */
    public record Flow(Route data, Route reverse, Spec spec, double messagesPerSecond) {
        /** Wire Gb/s the flow puts on each link of its data path. */
        public double dataWireGbps() {
            return messagesPerSecond * Headers.dataBytes(spec.op(), spec.transport(), spec.size(), spec.mtu(),
                    spec.grh()) * 8 / 1e9;
        }

        /** Wire Gb/s the flow puts on each link of its way back. */
        public double reverseWireGbps() {
            return messagesPerSecond * Headers.reverseBytes(spec.op(), spec.transport(), spec.size(), spec.mtu(),
                    spec.grh()) * 8 / 1e9;
        }
    }

    /** A port that waits: its PortXmitWait ticks a second, the wire Gb/s it carries and is offered. */
    public record Wait(Port port, double ticksPerSecond, double carriedGbps, double offeredGbps) {
    }

    private record LinkDir(Link link, boolean aToB) {
        static LinkDir of(Hop h) {
            return new LinkDir(h.link(), h.aToB());
        }
    }

    private static final class Load {
        final Port from;
        final double capacity;
        double carried;
        double extra;
        int users;

        Load(Hop h, PerfParams p) {
            from = h.from();
            capacity = LinkRates.dataGbps(h.link()) * p.linkEfficiency();
        }

        boolean full() {
            return carried >= capacity * (1 - 1e-6);
        }
    }

    /** The ports that wait under {@code flows}, in the order their links are first crossed. */
    public static List<Wait> waits(PerfParams p, List<Flow> flows) {
        Map<LinkDir, Load> loads = new LinkedHashMap<>();
        for (Flow f : flows) {
            double data = f.dataWireGbps();
            for (Hop h : f.data().hops()) {
                Load l = loads.computeIfAbsent(LinkDir.of(h), k -> new Load(h, p));
                l.carried += data;
                l.users++;
            }
            double rev = f.reverseWireGbps();
            if (rev > 0) {
                for (Hop h : f.reverse().hops()) {
                    loads.computeIfAbsent(LinkDir.of(h), k -> new Load(h, p)).carried += rev;
                }
            }
        }
        for (Flow f : flows) {
            List<Hop> hops = f.data().hops();
            Load root = null;
            for (int j = hops.size() - 1; j > 0 && root == null; j--) {
                Load l = loads.get(LinkDir.of(hops.get(j)));
                if (l.full()) {
                    root = l;
                }
            }
            if (root != null) {
                Load first = loads.get(LinkDir.of(hops.getFirst()));
                root.extra += Math.max(0, first.capacity / first.users - f.dataWireGbps());
            }
        }
        List<Wait> out = new ArrayList<>();
        for (Load l : loads.values()) {
            if (l.extra > l.carried * 1e-9) {
                double offered = l.carried + l.extra;
                out.add(new Wait(l.from, (1 - l.carried / offered) * XMIT_WAIT_TICKS_PER_SECOND, l.carried, offered));
            }
        }
        return out;
    }
}
