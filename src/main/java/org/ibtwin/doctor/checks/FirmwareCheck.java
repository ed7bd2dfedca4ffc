package org.ibtwin.doctor.checks;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.ibtwin.doctor.Check;
import org.ibtwin.doctor.FabricState;
import org.ibtwin.doctor.Finding;
import org.ibtwin.doctor.HostInfo;
import org.ibtwin.doctor.Severity;
import org.ibtwin.doctor.Thresholds;
import org.ibtwin.model.DeviceCatalog;
import org.ibtwin.model.Node;

/**
 * T21: firmware versions not uniform within one kind of device. The version most devices of a kind run is taken as
 * the fleet's (the newest on a tie); every other version is named with the devices that run it.
 */
public final class FirmwareCheck implements Check {
    static final String FIX = "update them to the vendor's recommended version (mlxup, or flint for HCAs; the switch "
            + "OS for switches), one version across the fleet";

    @Override
    public String id() {
        return "T21";
    }

    @Override
    public String name() {
        return "firmware not uniform";
    }

    @Override
    public String skipReason(FabricState s) {
        if (s.firmwareKnown()) {
            return null;
        }
        for (HostInfo h : s.hosts().values()) {
            if (h.firmware() != null) {
                return null;
            }
        }
        return "no firmware versions (ibstat or ibv_devinfo outputs, or a fabric model)";
    }

    @Override
    public List<Finding> run(FabricState s, Thresholds t) {
        // device kind -> version -> devices (with the source of the version)
        Map<String, Map<String, List<String>>> kinds = new TreeMap<>();
        java.util.Set<Node> fromHosts = new java.util.HashSet<>();
        for (HostInfo h : s.hosts().values()) {
            if (h.firmware() == null) {
                continue;
            }
            String kind = h.device() != null ? h.device() : h.node() != null ? kind(h.node()) : "HCA";
            kinds.computeIfAbsent(kind, k -> new TreeMap<>()).computeIfAbsent(h.firmware(), k -> new ArrayList<>())
                    .add(h.host() + "\u0000" + h.source(HostInfo.Key.FIRMWARE));
            if (h.node() != null) {
                fromHosts.add(h.node());
            }
        }
        if (s.firmwareKnown()) {
            for (Node n : s.fabric().nodes()) {
                if (n.firmware().isEmpty() || fromHosts.contains(n)) {
                    continue;
                }
                kinds.computeIfAbsent(kind(n), k -> new TreeMap<>()).computeIfAbsent(n.firmware(),
                        k -> new ArrayList<>()).add(s.name(n) + "\u0000");
            }
        }
        List<Finding> out = new ArrayList<>();
        for (Map.Entry<String, Map<String, List<String>>> k : kinds.entrySet()) {
            Map<String, List<String>> versions = k.getValue();
            if (versions.size() < 2) {
                continue;
            }
            String common = versions.entrySet().stream().max(Comparator.<Map.Entry<String, List<String>>>comparingInt(
                    e -> e.getValue().size()).thenComparing(Map.Entry::getKey, FirmwareCheck::compareVersions))
                    .orElseThrow().getKey();
            for (Map.Entry<String, List<String>> v : versions.entrySet()) {
                if (v.getKey().equals(common)) {
                    continue;
                }
                List<String> names = v.getValue().stream().map(x -> x.substring(0, x.indexOf('\u0000'))).toList();
                List<String> ev = new ArrayList<>();
                for (String x : v.getValue()) {
                    int z = x.indexOf('\u0000');
                    ev.add(x.substring(0, z) + ": " + k.getKey() + " firmware " + v.getKey() + Words.from(x.substring(
                            z + 1)));
                }
                ev = new ArrayList<>(Words.cap(ev));
                ev.add(Words.plural(versions.get(common).size(), "other " + k.getKey() + " runs", "other "
                        + k.getKey() + "s run") + " " + common);
                out.add(new Finding(id(), Severity.WARNING, Words.names(names), k.getKey() + " firmware " + v.getKey()
                        + " where the others run " + common, ev, FIX));
            }
        }
        return out;
    }

    static String kind(Node n) {
        DeviceCatalog.Device d = DeviceCatalog.find(n.vendorId(), n.deviceId());
        return d != null && d.type() == n.type() ? d.name() : String.format("device 0x%x:0x%x", n.vendorId(),
                n.deviceId());
    }

    /** "20.39.1002" vs "20.28.2006", part by part as numbers where they are. */
    static int compareVersions(String a, String b) {
        String[] x = a.split("[.\\-]");
        String[] y = b.split("[.\\-]");
        for (int i = 0; i < Math.min(x.length, y.length); i++) {
            int c;
            try {
                c = Long.compare(Long.parseLong(x[i]), Long.parseLong(y[i]));
            } catch (NumberFormatException e) {
                c = x[i].compareTo(y[i]);
            }
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(x.length, y.length);
    }
}
