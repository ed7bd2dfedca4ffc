package org.ibtwin.format;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Guids;
import org.ibtwin.model.Mtu;
import org.ibtwin.model.Node;
import org.ibtwin.model.Port;

/**
 * An ibtwin snapshot (written by {@code ibtwin snapshot save}) loaded back as a fabric: the ibnetdiscover topology
 * it embeds, then each port's P_Key table and MTUs where the snapshot knows them, so a twin started from it has the
 * partitions that were programmed. The snapshot's record types live in {@code doctor} (which writes it from a
 * fabric's state); format cannot depend on them, so this reader takes only the fields a fabric needs from the JSON
 * tree (format, topology, nodes[].guid, nodes[].ports[].port/pkeys/mtuCap/mtuActive, lfts[].guid/ports). The
 * switches' forwarding tables are loaded too ({@link Node#linearForwarding}): the twin starts with them.
 */
public final class SnapshotFabric {
    /** The snapshot format's name, in its "format" field. */
    public static final String FORMAT = "ibtwin-snapshot/1";
    private static final ObjectMapper JSON = new ObjectMapper();

    private SnapshotFabric() {
    }

    /** Whether a file's text starts like a snapshot (a JSON object naming the format): read no further. */
    static boolean looksLike(Path file) {
        try (var in = Files.newInputStream(file)) {
            byte[] head = in.readNBytes(256);
            String t = new String(head, StandardCharsets.UTF_8).stripLeading();
            return t.startsWith("{") && t.contains("\"format\"") && t.contains(FORMAT);
        } catch (IOException e) {
            return false;
        }
    }

    /** Reads a snapshot as a fabric; bad input is a {@link FormatException} naming the file (and line). */
    public static Fabric read(Path file) {
        String text = TextFiles.read(file);
        JsonNode root;
        try {
            root = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            int line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
            throw new FormatException(file.toString(), line, "not an ibtwin snapshot: " + e.getOriginalMessage());
        }
        if (root == null || !FORMAT.equals(root.path("format").asText(null))) {
            throw new FormatException(file.toString(), 0, "not an ibtwin snapshot (no \"format\": \"" + FORMAT
                    + "\")");
        }
        String topo = root.path("topology").asText("");
        if (topo.isBlank()) {
            throw new FormatException(file.toString(), 0, "the snapshot holds no topology (it was saved from "
                    + "outputs without an ibnetdiscover dump), so it cannot be loaded as a fabric");
        }
        Fabric f = TopologyReader.read(topo, file + " (embedded topology)");
        for (JsonNode n : root.path("nodes")) {
            Node node;
            try {
                node = f.byGuid(Guids.parse(n.path("guid").asText("")));
            } catch (NumberFormatException e) {
                throw new FormatException(file.toString(), 0, "bad node GUID \"" + TopologyReader.abbreviate(
                        n.path("guid").asText("")) + "\"");
            }
            if (node == null) {
                continue;
            }
            for (JsonNode p : n.path("ports")) {
                int number = p.path("port").asInt(-1);
                if (number < 0 || number > node.numPorts()) {
                    continue;
                }
                apply(file, node, node.port(number), p);
            }
        }
        for (JsonNode l : root.path("lfts")) {
            lft(file, f, l);
        }
        return f;
    }

    /** A switch's saved LFT ({@code lfts[]}: guid, name, ports from LID 0 up, -1 unrouted) onto its node. */
    private static void lft(Path file, Fabric f, JsonNode l) {
        String g = l.path("guid").asText("");
        Node node;
        try {
            node = f.byGuid(Guids.parse(g));
        } catch (NumberFormatException e) {
            throw new FormatException(file.toString(), 0, "lfts: bad switch GUID \"" + TopologyReader.abbreviate(g)
                    + "\"");
        }
        if (node == null || !node.isSwitch()) {
            throw new FormatException(file.toString(), 0, "lfts: " + TopologyReader.abbreviate(g) + " is not a "
                    + "switch of the snapshot's topology");
        }
        JsonNode ports = l.path("ports");
        byte[] t = new byte[ports.size()];
        for (int lid = 0; lid < t.length; lid++) {
            JsonNode v = ports.get(lid);
            int port = v.isInt() ? v.asInt() : -2;
            if (port < -1 || port > node.numPorts()) {
                throw new FormatException(file.toString(), 0, "lfts: " + node.description() + " LID " + lid
                        + ": port " + TopologyReader.abbreviate(v.asText()) + " is not one of its ports (0.."
                        + node.numPorts() + ", -1 unrouted)");
            }
            t[lid] = (byte) (port < 0 ? 0xff : port);
        }
        node.setLinearForwarding(t.length == 0 ? null : t);
    }

    private static void apply(Path file, Node node, Port port, JsonNode p) {
        JsonNode keys = p.get("pkeys");
        if (keys != null && keys.isArray()) {
            List<Integer> t = new ArrayList<>();
            for (JsonNode k : keys) {
                String s = k.asText("");
                int v;
                try {
                    v = Integer.parseInt(s.startsWith("0x") ? s.substring(2) : s, 16);
                } catch (NumberFormatException e) {
                    v = -1;
                }
                if (v < 0 || v > 0xffff) {
                    throw new FormatException(file.toString(), 0, "bad P_Key \"" + TopologyReader.abbreviate(s)
                            + "\" at " + node.description() + " port " + port.number());
                }
                t.add(v);
            }
            port.setPkeys(t.stream().mapToInt(Integer::intValue).toArray());
        }
        Mtu cap = Mtu.ofBytes(p.path("mtuCap").asInt(0));
        if (cap != null) {
            port.setMtuCap(cap);
        }
        Mtu active = Mtu.ofBytes(p.path("mtuActive").asInt(0));
        if (active != null) {
            port.setMtuActive(active);
        }
    }
}
