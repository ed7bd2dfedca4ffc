package org.ibtwin.exporter;

import java.util.List;

/**
 * One port counter as the exporter publishes it: the PMA field it is read from (PortCounters and
 * PortCountersExtended share the names), the metric's name after {@code infiniband_switch_} or
 * {@code infiniband_hca_} (without the {@code _total} the exposition adds to a counter), and whether it counts
 * 32-bit words (the data counters), which the exporter multiplies by 4 into bytes as the reference exporter does.
 *
 * @param field    the PMA field
 * @param name     the metric name's tail, e.g. {@code port_transmit_data_bytes}
 * @param words    whether the field counts 4-byte words
 * @param extended whether PortCountersExtended carries it as a data or packet counter (read there whenever
 *                 ClassPortInfo announces extended width counters; the error counters only when it announces the
 *                 additional extended counters too)
 */
public record CounterMetric(String field, String name, boolean words, boolean extended) {
    /** Every counter, in the reference exporter's order. */
    public static final List<CounterMetric> ALL = List.of(
            new CounterMetric("PortXmitData", "port_transmit_data_bytes", true, true),
            new CounterMetric("PortRcvData", "port_receive_data_bytes", true, true),
            new CounterMetric("PortXmitPkts", "port_transmit_packets", false, true),
            new CounterMetric("PortRcvPkts", "port_receive_packets", false, true),
            new CounterMetric("PortUnicastXmitPkts", "port_unicast_transmit_packets", false, true),
            new CounterMetric("PortUnicastRcvPkts", "port_unicast_receive_packets", false, true),
            new CounterMetric("PortMulticastXmitPkts", "port_multicast_transmit_packets", false, true),
            new CounterMetric("PortMulticastRcvPkts", "port_multicast_receive_packets", false, true),
            new CounterMetric("SymbolErrorCounter", "port_symbol_error", false, false),
            new CounterMetric("LinkErrorRecoveryCounter", "port_link_error_recovery", false, false),
            new CounterMetric("LinkDownedCounter", "port_link_downed", false, false),
            new CounterMetric("PortRcvErrors", "port_receive_errors", false, false),
            new CounterMetric("PortRcvRemotePhysicalErrors", "port_receive_remote_physical_errors", false, false),
            new CounterMetric("PortRcvSwitchRelayErrors", "port_receive_switch_relay_errors", false, false),
            new CounterMetric("PortXmitDiscards", "port_transmit_discards", false, false),
            new CounterMetric("PortXmitConstraintErrors", "port_transmit_constraint_errors", false, false),
            new CounterMetric("PortRcvConstraintErrors", "port_receive_constraint_errors", false, false),
            new CounterMetric("LocalLinkIntegrityErrors", "port_local_link_integrity_errors", false, false),
            new CounterMetric("ExcessiveBufferOverrunErrors", "port_excessive_buffer_overrun_errors", false, false),
            new CounterMetric("VL15Dropped", "port_vl15_dropped", false, false),
            new CounterMetric("PortXmitWait", "port_transmit_wait", false, false),
            new CounterMetric("QP1Dropped", "port_qp1_dropped", false, false));

    /** The bit in PortCounters' CounterSelect (bits 0-15) and CounterSelect2 (from 16) that clears this counter. */
    public int resetBit() {
        return switch (field) {
            case "SymbolErrorCounter" -> 0;
            case "LinkErrorRecoveryCounter" -> 1;
            case "LinkDownedCounter" -> 2;
            case "PortRcvErrors" -> 3;
            case "PortRcvRemotePhysicalErrors" -> 4;
            case "PortRcvSwitchRelayErrors" -> 5;
            case "PortXmitDiscards" -> 6;
            case "PortXmitConstraintErrors" -> 7;
            case "PortRcvConstraintErrors" -> 8;
            case "LocalLinkIntegrityErrors" -> 9;
            case "ExcessiveBufferOverrunErrors" -> 10;
            case "VL15Dropped" -> 11;
            case "PortXmitData" -> 12;
            case "PortRcvData" -> 13;
            case "PortXmitPkts" -> 14;
            case "PortRcvPkts" -> 15;
            case "PortXmitWait" -> 16;
            case "QP1Dropped" -> 17;
            default -> -1;   // the unicast/multicast counters exist only in PortCountersExtended
        };
    }

    /** The counters (bit i: {@link #ALL}'s i-th) a PortCounters CounterSelect mask (CounterSelect2 from bit 16) clears. */
    public static long counters(int mask) {
        long m = 0;
        for (int i = 0; i < ALL.size(); i++) {
            int b = ALL.get(i).resetBit();
            if (b >= 0 && (mask & (1 << b)) != 0) {
                m |= 1L << i;
            }
        }
        return m;
    }
}
