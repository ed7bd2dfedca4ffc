package org.ibtwin.exporter;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ibtwin.diag.MadQuery;
import org.ibtwin.diag.NetDiscovery;
import org.ibtwin.format.FabricFiles;
import org.ibtwin.format.NodeNameMap;
import org.ibtwin.lab.LabTransport;
import org.ibtwin.fixture.InterceptedTransport;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.MadHeaders;
import org.ibtwin.mad.MgmtClasses;
import org.ibtwin.model.Node;
import org.ibtwin.model.PortCounter;
import org.ibtwin.sim.ExtCounter;
import org.ibtwin.sim.Twin;
import org.ibtwin.transport.MadTimeoutException;
import org.ibtwin.transport.MadTransport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The exporter on the built-in fabric's twin: the reference exporter's metric names and labels, data counters in
 * bytes, 64-bit running totals across resets by others and by itself (only when asked), and a port whose PMA does
 * not answer reported as a metric while the scrape goes on.
 */
class FabricExporterTest {
    /** infiniband_exporter's metric names (switch and HCA collectors, base metrics, and the exporter's own). */
    static final List<String> COUNTERS = List.of("port_transmit_data_bytes_total", "port_receive_data_bytes_total",
            "port_transmit_packets_total", "port_receive_packets_total", "port_unicast_transmit_packets_total",
            "port_unicast_receive_packets_total", "port_multicast_transmit_packets_total",
            "port_multicast_receive_packets_total", "port_symbol_error_total", "port_link_error_recovery_total",
            "port_link_downed_total", "port_receive_errors_total", "port_receive_remote_physical_errors_total",
            "port_receive_switch_relay_errors_total", "port_transmit_discards_total",
            "port_transmit_constraint_errors_total", "port_receive_constraint_errors_total",
            "port_local_link_integrity_errors_total", "port_excessive_buffer_overrun_errors_total",
            "port_vl15_dropped_total", "port_transmit_wait_total");
    static final List<String> SWITCH_ONLY = List.of("port_rate_bytes_per_second", "port_raw_rate_bytes_per_second");
    static final List<String> HCA_ONLY = List.of("rate_bytes_per_second", "raw_rate_bytes_per_second");
    static final List<String> DEVICE = List.of("collect_duration_seconds", "collect_error", "collect_timeout",
            "uplink_info", "info");
    static final List<String> EXPORTER = List.of("infiniband_exporter_collect_errors",
            "infiniband_exporter_collect_timeouts", "infiniband_exporter_collector_duration_seconds");
    /** The metric of a switch port's SymbolErrorCounter. */
    static final String SWITCH_SYMBOL_ERRORS = "infiniband_switch_port_symbol_error_total";
    static final Pattern SAMPLE = Pattern.compile("^(\\w+)\\{([^}]*)} (\\S+)( \\d+)?$", Pattern.MULTILINE);

    LabTransport lab;
    Twin twin;
    FabricExporter exporter;

    @BeforeEach
    void up() {
        lab = LabTransport.open(FabricFiles.loadDefault(), "the default fabric", null);
        twin = lab.lab().twin();
    }

    @AfterEach
    void down() {
        if (exporter != null) {
            exporter.close();
        }
        lab.close();
    }

    private FabricExporter exporter(MadTransport t, boolean reset, boolean runOnce) {
        return exporter(t, reset, runOnce, false);
    }

    private FabricExporter exporter(MadTransport t, boolean reset, boolean runOnce, boolean timestamps) {
        return new FabricExporter(t, new MadQuery(t).timeout(Duration.ofMillis(50)).attempts(1),
                new FabricExporter.Options(true, true, 2, reset, runOnce, timestamps, NodeNameMap.empty(),
                        NetDiscovery.Config.defaults()), line -> { });
    }

    static String text(MetricSnapshots m) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrometheusTextFormatWriter.create().write(out, m);
        return out.toString(StandardCharsets.UTF_8);
    }

    /** name{labels} -> value, the labels as written. */
    static Map<String, Double> samples(String text) {
        Map<String, Double> m = new HashMap<>();
        Matcher x = SAMPLE.matcher(text);
        while (x.find()) {
            m.put(x.group(1) + "{" + x.group(2) + "}", Double.parseDouble(x.group(3)));
        }
        return m;
    }

    static Set<String> names(String text) {
        Set<String> s = new TreeSet<>();
        Matcher x = SAMPLE.matcher(text);
        while (x.find()) {
            s.add(x.group(1));
        }
        return s;
    }

    private static String guid(Node n, int port) {
        return String.format("0x%016x", n.port(port).guid());
    }

    /** A new scrape's SymbolErrorCounter total of switch sw's port. */
    private double scrapedSymbolErrors(Node sw, int port) throws IOException {
        return value(text(exporter.collect()), SWITCH_SYMBOL_ERRORS, guid(sw, 0), port);
    }

    private Node node(String name) {
        return lab.lab().fabric().nodes().stream().filter(n -> n.description().strip().split(" ")[0].equals(name)).findFirst().orElseThrow();
    }

    private double value(String text, String metric, String guid, int port) {
        Double v = samples(text).get(metric + "{guid=\"" + guid + "\",port=\"" + port + "\"}");
        assertThat(v).as(metric + " of " + guid + " port " + port).isNotNull();
        return v;
    }

    @Test
    void publishesTheReferenceExportersMetricNamesAndLabels() throws IOException {
        exporter = exporter(lab, false, true);
        String t = text(exporter.collect());
        Set<String> expected = new TreeSet<>(EXPORTER);
        expected.add("infiniband_exporter_last_execution");
        for (String kind : List.of("switch", "hca")) {
            COUNTERS.forEach(c -> expected.add("infiniband_" + kind + "_" + c));
            DEVICE.forEach(c -> expected.add("infiniband_" + kind + "_" + c));
            (kind.equals("switch") ? SWITCH_ONLY : HCA_ONLY).forEach(c -> expected.add("infiniband_" + kind + "_" + c));
        }
        assertThat(names(t)).isEqualTo(expected);
        assertThat(t).contains("# TYPE infiniband_switch_port_transmit_data_bytes_total counter")
                .contains("infiniband_exporter_collect_errors{collector=\"switch-runonce\"} 0")
                .contains("infiniband_exporter_collect_errors{collector=\"ibnetdiscover-runonce\"} 0");
        Node leaf = node("leaf01");
        Node host = node("node001");
        String lg = guid(leaf, 0);
        assertThat(t).contains("infiniband_switch_info{guid=\"" + lg + "\",lid=\"" + leaf.port(0).lid()
                + "\",switch=\"" + leaf.description() + "\"} 1");
        assertThat(t).contains("infiniband_switch_uplink_info{guid=\"" + lg + "\",port=\"1\",switch=\""
                + leaf.description() + "\",uplink=\"" + host.description() + "\",uplink_guid=\"" + guid(host, 1)
                + "\",uplink_lid=\"" + host.port(1).lid() + "\",uplink_port=\"1\",uplink_type=\"CA\"} 1");
        assertThat(t).contains("infiniband_hca_info{guid=\"" + guid(host, 1) + "\",hca=\"" + host.description()
                + "\",lid=\"" + host.port(1).lid() + "\"} 1");
        // 4x EDR: 100 Gb/s of data, 103.125 Gb/s signalled
        assertThat(samples(t).get("infiniband_hca_rate_bytes_per_second{guid=\"" + guid(host, 1) + "\"}"))
                .isEqualTo(host.port(1).link().activeWidth().lanes()
                        * host.port(1).link().activeSpeed().dataGbps() * 1e9 / 8);
        // one series per cabled switch port, per cabled HCA port
        long cabledSwitchPorts = 0;
        for (Node n : lab.lab().fabric().switches()) {
            for (int p = 1; p <= n.numPorts(); p++) {
                cabledSwitchPorts += n.port(p).link() != null ? 1 : 0;
            }
        }
        assertThat(samples(t).keySet().stream().filter(k -> k.startsWith(SWITCH_SYMBOL_ERRORS + "{"))
                .count()).isEqualTo(cabledSwitchPorts);
        assertThat(samples(t).keySet().stream().filter(k -> k.startsWith("infiniband_hca_port_symbol_error_total{"))
                .count()).isEqualTo(lab.lab().fabric().cas().size());
    }

    @Test
    void dataCountersAreWordsTimesFourFromTheExtendedCounters() throws IOException {
        exporter = exporter(lab, false, false);
        Node host = node("node040");
        long words = 5_000_000_000_000L;   // past 32 bits: only PortCountersExtended holds it
        twin.setExtendedCounter(host.name(), 1, ExtCounter.RCV_DATA, words);
        twin.setExtendedCounter(host.name(), 1, ExtCounter.XMIT_PKTS, 7_000_000_000L);
        String t = text(exporter.collect());
        assertThat(value(t, "infiniband_hca_port_receive_data_bytes_total", guid(host, 1), 1))
                .isBetween(4.0 * words, 4.0 * words + 1e6);
        assertThat(value(t, "infiniband_hca_port_transmit_packets_total", guid(host, 1), 1))
                .isBetween(7e9, 7e9 + 1e3);
    }

    @Test
    void servedCountersCarryTheTimeTheirPmaAnswered() throws IOException {
        exporter = exporter(lab, false, false, true);
        long before = System.currentTimeMillis();
        String t = text(exporter.collect());
        long after = System.currentTimeMillis();
        Matcher m = Pattern.compile("^infiniband_hca_port_transmit_data_bytes_total\\{[^}]*} \\S+ (\\d+)$",
                Pattern.MULTILINE).matcher(t);
        int n = 0;
        while (m.find()) {
            assertThat(Long.parseLong(m.group(1))).isBetween(before, after);
            n++;
        }
        assertThat(n).isEqualTo(lab.lab().fabric().cas().size());
        assertThat(t).containsPattern("(?m)^infiniband_hca_info\\{[^}]*} 1$");
    }

    @Test
    void runningTotalsSurviveResetsAndTheExporterNeverResetsUnlessAsked() throws IOException {
        exporter = exporter(lab, false, false);
        Node leaf = node("leaf02");
        twin.setCounter(leaf.name(), 3, PortCounter.SYMBOL_ERROR, 100);
        assertThat(scrapedSymbolErrors(leaf, 3)).isEqualTo(100);
        twin.setCounter(leaf.name(), 3, PortCounter.SYMBOL_ERROR, 250);
        assertThat(scrapedSymbolErrors(leaf, 3)).isEqualTo(250);
        twin.setCounter(leaf.name(), 3, PortCounter.SYMBOL_ERROR, 30);   // someone cleared it; 30 since
        assertThat(scrapedSymbolErrors(leaf, 3)).isEqualTo(280);
        twin.setCounter(leaf.name(), 3, PortCounter.SYMBOL_ERROR, 60000);   // past half its 16 bits
        assertThat(scrapedSymbolErrors(leaf, 3)).isEqualTo(280 + 60000 - 30);
        assertThat(twin.counter(leaf.name(), 3, PortCounter.SYMBOL_ERROR)).as("not reset unless asked")
                .isEqualTo(60000);
    }

    @Test
    void resetCountersClearsA16BitCounterPastHalfItsRangeAndKeepsTheTotal() throws IOException {
        exporter = exporter(lab, true, false);
        Node leaf = node("leaf03");
        twin.setCounter(leaf.name(), 2, PortCounter.SYMBOL_ERROR, 40000);
        twin.setCounter(leaf.name(), 4, PortCounter.SYMBOL_ERROR, 7);
        assertThat(scrapedSymbolErrors(leaf, 2)).isEqualTo(40000);
        assertThat(twin.counter(leaf.name(), 2, PortCounter.SYMBOL_ERROR)).as("cleared by the exporter").isZero();
        assertThat(twin.counter(leaf.name(), 4, PortCounter.SYMBOL_ERROR)).as("far from saturation").isEqualTo(7);
        twin.setCounter(leaf.name(), 2, PortCounter.SYMBOL_ERROR, 40000);
        String t = text(exporter.collect());
        String g = guid(leaf, 0);
        assertThat(value(t, SWITCH_SYMBOL_ERRORS, g, 2)).isEqualTo(80000);
        assertThat(value(t, SWITCH_SYMBOL_ERRORS, g, 4)).isEqualTo(7);
    }

    @Test
    void aPortWhosePmaDoesNotAnswerIsAMetricNotAFailedScrape() throws IOException {
        Node leaf = node("leaf01");
        int lid = leaf.port(0).lid();
        MadTransport dropping = dropping(lab, lid, 5);
        exporter = exporter(dropping, false, false);
        String t = text(exporter.collect());
        String g = guid(leaf, 0);
        assertThat(samples(t)).containsEntry("infiniband_switch_port_collect_error{guid=\"" + g + "\",port=\"5\"}",
                1.0);
        assertThat(samples(t)).containsEntry("infiniband_switch_collect_timeout{collector=\"switch\",guid=\"" + g
                + "\"}", 1.0);
        assertThat(samples(t)).containsEntry("infiniband_exporter_collect_timeouts{collector=\"switch\"}", 1.0);
        assertThat(samples(t)).doesNotContainKey(SWITCH_SYMBOL_ERRORS + "{guid=\"" + g
                + "\",port=\"5\"}");
        assertThat(value(t, SWITCH_SYMBOL_ERRORS, g, 6)).isZero();
        assertThat(exporter.lastScrape().failedPorts()).isEqualTo(1);
        assertThat(samples(t).keySet().stream().filter(k -> k.startsWith("infiniband_switch_port_collect_error"))
                .toList()).hasSize(1);
    }

    /** A transport whose PortCounters queries of one port at one LID are lost. */
    static MadTransport dropping(MadTransport t, int lid, int port) {
        return InterceptedTransport.of(t, false, (wire, mad, to, timeout, retries) -> {
            int attr = MadHeaders.attributeId(mad);
            if (to.lid() == lid && MadHeaders.mgmtClass(mad) == MgmtClasses.PERF
                    && (attr == AttributeIds.PORT_COUNTERS || attr == AttributeIds.PORT_COUNTERS_EXTENDED)
                    && (mad[MadHeaders.PERF_DATA_OFFSET + 1] & 0xff) == port) {
                return CompletableFuture.failedFuture(new MadTimeoutException("lost " + Arrays.toString(
                        new int[] {lid, port})));
            }
            return wire.request(mad, to, timeout, retries);
        });
    }
}
