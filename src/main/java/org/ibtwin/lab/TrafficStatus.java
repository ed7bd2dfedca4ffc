package org.ibtwin.lab;

import java.util.List;
import java.util.Locale;

/**
 * What the traffic engine runs: the pattern, the simulated time, every flow (its rate, bottleneck, path length and
 * MTU, and what it has sent), the ports that wait and the events (re-routes, flows without a path).
 *
 * @param seconds        simulated seconds since the engine was made
 * @param runSeconds     simulated seconds since the pattern started
 * @param aggregateGbps  the payload Gb/s of every routed flow together
 * @param collective     all-to-all's figures, null for the other patterns
 * @param unrouted       flows (all-to-all: pairs) without a path
 */
public record TrafficStatus(String pattern, boolean running, double seconds, double runSeconds, long messageSize,
                            List<FlowStatus> flows, Collective collective, double aggregateGbps, int unrouted, List<PortWait> waits,
                            List<String> events) {

    /**
     * One flow. {@code wireBytes} counts what PortXmitData counts of its data (4 x words: headers and ICRC, no
     * VCRC), {@code ackBytes} the same of its RC ACKs.
     */
    public record FlowStatus(String src, String dst, boolean routed, double gbps, String bottleneck, int switches,
                             int mtu, long messages, long payloadBytes, long wireBytes, long ackBytes) {
    }

    /** All-to-all, one collective: its pairs, the rate each gets and why, the messages each has sent. */
    public record Collective(int hosts, long pairs, long unroutedPairs, double perPairGbps, double aggregateGbps,
                             String bottleneck, int mtu, long messagesPerPair, long payloadBytesPerPair) {
    }

    /** A port where packets queue: its PortXmitWait ticks a simulated second. */
    public record PortWait(String port, double ticksPerSecond) {
    }

    /** The console's {@code traffic status}: a header, the flows (the first {@code maxFlows}), waits, events. */
    public String text(int maxFlows) {
        StringBuilder sb = new StringBuilder();
        if (pattern.isEmpty()) {
            return String.format(Locale.ROOT, "traffic: idle (t=%.3f s simulated)%n", seconds);
        }
        sb.append(String.format(Locale.ROOT, "traffic: %s %s, %,d flows (%d without a path), %.1f Gb/s aggregate; "
                        + "t=%.3f s simulated (%.3f s of this pattern), %,d B RDMA WRITEs%n", pattern,
                running ? "running" : "stopped", collective != null ? collective.pairs() : flows.size(), unrouted,
                aggregateGbps, seconds, runSeconds, messageSize));
        if (collective != null) {
            sb.append(String.format(Locale.ROOT, "  all-to-all over %,d hosts: %.4f Gb/s a pair, MTU %d, %,d messages "
                            + "(%,d payload bytes) a pair; %s%n", collective.hosts(), collective.perPairGbps(),
                    collective.mtu(), collective.messagesPerPair(), collective.payloadBytesPerPair(),
                    collective.bottleneck()));
        }
        if (!flows.isEmpty()) {
            sb.append(String.format(Locale.ROOT, "  %-16s %-16s %9s %4s %5s %14s %18s  %s%n", "src", "dst", "Gb/s",
                    "sw", "mtu", "messages", "payload bytes", "bottleneck"));
        }
        for (int i = 0; i < Math.min(maxFlows, flows.size()); i++) {
            FlowStatus f = flows.get(i);
            sb.append(String.format(Locale.ROOT, "  %-16s %-16s %9.2f %4d %5d %,14d %,18d  %s%n", f.src(), f.dst(),
                    f.gbps(), f.switches(), f.mtu(), f.messages(), f.payloadBytes(), f.bottleneck()));
        }
        if (flows.size() > maxFlows) {
            sb.append(String.format(Locale.ROOT, "  ... and %,d more flows%n", flows.size() - maxFlows));
        }
        for (PortWait w : waits) {
            sb.append(String.format(Locale.ROOT, "  waits: %s, PortXmitWait +%,.0f a second%n", w.port(),
                    w.ticksPerSecond()));
        }
        for (String e : events) {
            sb.append("  ").append(e).append('\n');
        }
        return sb.toString();
    }
}
