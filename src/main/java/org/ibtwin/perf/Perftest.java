package org.ibtwin.perf;

import java.util.ArrayList;
import java.util.List;
import org.ibtwin.model.Mtu;
import org.ibtwin.model.Port;

/**
 * perftest's figures between two hosts: the bandwidth tests (ib_*_bw) through {@link Traffic}, the latency tests
 * (ib_*_lat) through {@link Latency}. The client is perftest's client, the requester; the server its responder.
 */
public final class Perftest {
    /** MiB per second in one Gb/s (perftest's MB/sec is 2^20 bytes; --report_gbits is 10^9 bits). */
    public static final double MIB_PER_GBPS = 1e9 / 8 / (1 << 20);

    private Perftest() {
    }

    /**
     * A bandwidth figure: payload Gb/s averaged over the run, the peak perftest reports beside it, messages per second
     * (millions), and the bottleneck. The peak is the average plus the jitter a real run shows: 0.02% when a link or
     * slot limits, 2% when the message rate or window does.
     */
    public record Bandwidth(long size, double gbps, double peakGbps, double mpps, Bottleneck why) {
        public double mibPerSec() {
            return gbps * MIB_PER_GBPS;
        }

        public double peakMibPerSec() {
            return peakGbps * MIB_PER_GBPS;
        }
    }

    /** One bandwidth test: one stream, or two in opposite directions when {@code spec.bidirectional()}. */
    public static Bandwidth bandwidth(PerfParams p, Spec spec, Endpoint client, Endpoint server, Route toServer,
                                      Route toClient) {
        List<Traffic.Demand> demands = new ArrayList<>(2);
        demands.add(new Traffic.Demand(spec, client, server, toServer, toClient));
        if (spec.bidirectional()) {
            demands.add(new Traffic.Demand(spec, server, client, toClient, toServer));
        }
        List<Traffic.Outcome> out = Traffic.solve(p, demands);
        double gbps = 0;
        double mpps = 0;
        Traffic.Outcome least = out.get(0);
        for (Traffic.Outcome o : out) {
            gbps += o.gbps();
            mpps += o.mpps();
            if (o.gbps() < least.gbps()) {
                least = o;
            }
        }
        Bottleneck why = least.why();
        boolean rate = why.kind() == Bottleneck.Kind.MESSAGE_RATE || why.kind() == Bottleneck.Kind.WINDOW;
        return new Bandwidth(spec.payload(), gbps, gbps * (rate ? 1.02 : 1.0002), mpps, why);
    }

    /** One latency test: what perftest reports as t_typical, with its terms. */
    public static Latency.Result latency(PerfParams p, Spec spec, Endpoint client, Endpoint server, Route toServer,
                                         Route toClient) {
        return Latency.of(p, spec, client, server, toServer, toClient);
    }

    /** The active MTU of a CA port: {@link Route#portMtu}. */
    public static Mtu activeMtu(Port p) {
        return Route.portMtu(p);
    }

    /**
     * When the QPs use a larger MTU than some port on the path carries, packets above the path MTU are dropped
     * there: the port that drops them, or null when every packet fits.
     */
    public static Port dropsAt(Spec spec, Route path) {
        int pathMtu = path.mtu().bytes();
        if (spec.mtu() <= pathMtu) {
            return null;
        }
        long largest = spec.op() == Op.ATOMIC ? 0 : Math.min(spec.size(), spec.mtu());
        return largest > pathMtu ? path.mtuLimiter() : null;
    }
}
