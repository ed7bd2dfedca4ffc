package org.ibtwin.perf;

import java.util.List;
import org.ibtwin.model.Mtu;
import org.ibtwin.model.Port;

/**
 * A routed path from one CA port to another: the links crossed, in order. An empty path is a loopback inside one
 * HCA. The path MTU is the smallest MTU of every port on the way ({@link #portMtu}: the neighbour MTU the SM set,
 * else what the port and its neighbour can both carry); the slowest hop is the link with the lowest data rate.
 */
public record Route(Port src, Port dst, List<Hop> hops) {
    public Route {
        hops = List.copyOf(hops);
    }

    /** Switches crossed: one fewer than the links, none for back-to-back or loopback. */
    public int switches() {
        return Math.max(0, hops.size() - 1);
    }

    public boolean isLoopback() {
        return hops.isEmpty();
    }

    /** The hop with the lowest data rate (the first of equals), null for a loopback. */
    public Hop slowest() {
        Hop best = null;
        for (Hop h : hops) {
            if (best == null || LinkRates.dataGbps(h.link()) < LinkRates.dataGbps(best.link())) {
                best = h;
            }
        }
        return best;
    }

    /** Data rate of the slowest link, Gb/s; infinite for a loopback. */
    public double slowestGbps() {
        Hop s = slowest();
        return s == null ? Double.POSITIVE_INFINITY : LinkRates.dataGbps(s.link());
    }

    /**
     * The MTU a port runs at: the neighbour MTU the SM set in its PortInfo (a fabric learnt through MADs), else the
     * smaller MTU capability of it and its neighbour. The one place a port's and a path's MTU are computed.
     */
    public static Mtu portMtu(Port p) {
        if (p.mtuActive() != null) {
            return p.mtuActive();
        }
        Port r = p.remote();
        return r == null ? p.mtuCap() : Mtu.min(p.mtuCap(), r.mtuCap());
    }

    /** The MTU a port itself holds to: the one the SM set, else its capability. */
    private static Mtu own(Port p) {
        return p.mtuActive() != null ? p.mtuActive() : p.mtuCap();
    }

    /** The path MTU: the smallest {@link #portMtu} of every port on the path. */
    public Mtu mtu() {
        Mtu m = portMtu(src);
        for (Hop h : hops) {
            m = Mtu.min(m, Mtu.min(portMtu(h.from()), portMtu(h.to())));
        }
        return m;
    }

    /** The first port on the path that holds to {@link #mtu()}, for naming the limit. */
    public Port mtuLimiter() {
        Mtu m = mtu();
        if (own(src) == m) {
            return src;
        }
        for (Hop h : hops) {
            if (own(h.from()) == m) {
                return h.from();
            }
            if (own(h.to()) == m) {
                return h.to();
            }
        }
        return src;
    }

    /** Cable propagation along the path, ns (about 5 ns per metre). */
    public double propagationNanos() {
        double ns = 0;
        for (Hop h : hops) {
            ns += h.link().cable().propagationNanos();
        }
        return ns;
    }
}
