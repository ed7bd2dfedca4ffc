package org.ibtwin.format;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Link;
import org.ibtwin.model.Node;
import org.ibtwin.model.NodeType;
import org.ibtwin.model.Port;

/**
 * Writes a fabric in ibnetdiscover's topology format, as the real tool prints it: the header, then one record per
 * node (switches, then CAs, then routers), each opened by an empty line, ports in ascending order, only connected
 * ports. Real ibsim loads this output, width and speed tags included.
 */
public final class TopologyWriter {
    private static final DateTimeFormatter CTIME = DateTimeFormatter.ofPattern("EEE MMM ppd HH:mm:ss yyyy",
            Locale.ROOT);

    private TopologyWriter() {
    }

    /** Writes to a file, stamped with the current time. */
    public static void write(Fabric f, Path file) {
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            write(f, w, ZonedDateTime.now());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The whole topology as text with a fixed timestamp (tests, snapshots). */
    public static String toString(Fabric f, ZonedDateTime when) {
        java.io.StringWriter sw = new java.io.StringWriter();
        try {
            write(f, sw, when);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return sw.toString();
    }

    public static void write(Fabric f, Writer out, ZonedDateTime when) throws IOException {
        StringBuilder sb = new StringBuilder(4096);
        header(when, sb);
        Node origin = null;
        for (Node n : f.nodes()) {
            if (n.type() == NodeType.CA) {
                origin = n;
                break;
            }
        }
        if (origin == null && !f.nodes().isEmpty()) {
            origin = f.nodes().get(0);
        }
        if (origin != null) {
            origin(origin.guid(), (origin.isSwitch() ? origin.port(0) : origin.port(1)).guid(), sb);
        }
        out.append(sb);
        for (NodeType t : new NodeType[] {NodeType.SWITCH, NodeType.CA, NodeType.ROUTER}) {
            for (Node n : f.nodes()) {
                if (n.type() == t) {
                    sb.setLength(0);
                    record(n, sb);
                    out.append(sb);
                }
            }
        }
    }

    private static void record(Node n, StringBuilder sb) {
        ids("", n.vendorId(), n.deviceId(), n.systemImageGuid(), sb);
        guidLine("", n.type(), n.guid(), n.isSwitch() ? n.port(0).guid() : 0, false, sb);
        if (n.isSwitch()) {
            switchLine("", n.numPorts(), n.guid(), n.description(), n.enhancedPort0(), n.port(0).lid(),
                    n.port(0).lmc(), sb);
        } else {
            caLine("", n.type(), n.numPorts(), n.guid(), n.description(), sb);
        }
        sb.append('\n');
        for (int i = 1; i <= n.numPorts(); i++) {
            Port p = n.port(i);
            Link l = p.link();
            if (l == null) {
                continue;
            }
            Port r = p.remote();
            Node rn = r.node();
            portLine("", n.isSwitch(), i, p.guid(), p.lid(), p.lmc(), rn.type(), rn.guid(), r.number(), r.guid(),
                    rn.description(), rn.isSwitch() ? rn.port(0).lid() : r.lid(),
                    l.isUp() ? l.activeWidth().lanes() + "x" + l.activeSpeed().label() : "??x???", sb);
            sb.append('\n');
        }
    }

    // ---------------------------------------------------------------- the lines, for every writer of the format
    // (a model fabric here, a discovered fabric in diag's ibnetdiscover and ibnetdiscover --diff)

    /** The file's first three lines, stamped with {@code when} in ctime's form. */
    public static void header(ZonedDateTime when, StringBuilder out) {
        out.append("#\n# Topology file: generated on ").append(CTIME.format(when)).append("\n#\n");
    }

    /** "# Initiated from node ... port ...": the node and port the walk started from. */
    public static void origin(long nodeGuid, long portGuid, StringBuilder out) {
        out.append("# Initiated from node ");
        hex16(nodeGuid, out);
        out.append(" port ");
        hex16(portGuid, out);
        out.append('\n');
    }

    /** A record's opening: an empty line, vendid, devid and (when set) sysimgguid, each after {@code prefix}. */
    public static void ids(String prefix, int vendorId, int deviceId, long systemImageGuid, StringBuilder out) {
        out.append('\n').append(prefix).append("vendid=0x").append(Integer.toHexString(vendorId)).append('\n');
        out.append(prefix).append("devid=0x").append(Integer.toHexString(deviceId)).append('\n');
        if (systemImageGuid != 0) {
            out.append(prefix).append("sysimgguid=0x").append(Long.toHexString(systemImageGuid)).append('\n');
        }
    }

    /**
     * "switchguid=0x...(port 0 GUID)", "caguid=0x..." or "rtguid=0x..." ("???guid" for a type the format has no
     * name for, {@code null}); {@code group} (ibnetdiscover -g) ends a switch's line with an empty chassis comment.
     */
    public static void guidLine(String prefix, NodeType type, long guid, long port0Guid, boolean group,
                                StringBuilder out) {
        out.append(prefix);
        if (type == NodeType.SWITCH) {
            out.append("switchguid=0x").append(Long.toHexString(guid)).append('(')
                    .append(Long.toHexString(port0Guid)).append(')').append(group ? "\t# \n" : "\n");
            return;
        }
        out.append(type == NodeType.ROUTER ? "rt" : type == NodeType.CA ? "ca" : "???").append("guid=0x")
                .append(Long.toHexString(guid)).append('\n');
    }

    /** "Switch\tN \"S-...\"\t\t# \"name\" enhanced port 0 lid L lmc M", without the newline. */
    public static void switchLine(String prefix, int numPorts, long guid, String name, boolean enhancedPort0,
                                  int lid, int lmc, StringBuilder out) {
        out.append(prefix).append("Switch\t").append(numPorts).append(" \"");
        id(NodeType.SWITCH, guid, out);
        out.append("\"\t\t# \"").append(name).append("\" ").append(enhancedPort0 ? "enhanced" : "base")
                .append(" port 0 lid ").append(lid).append(" lmc ").append(lmc);
    }

    /** "Ca\tN \"H-...\"\t\t# \"name\"" (or Rt, or ??? for {@code null}), without the newline. */
    public static void caLine(String prefix, NodeType type, int numPorts, long guid, String name, StringBuilder out) {
        out.append(prefix).append(type == null ? "???" : type.keyword()).append('\t').append(numPorts)
                .append(" \"");
        id(type, guid, out);
        out.append("\"\t\t# \"").append(name).append('"');
    }

    /**
     * One connected port, without the newline: "[n]" (a CA's port with its GUID), the remote's id and port (a CA's
     * with its port GUID), then the comment: a CA's own LID and LMC, the remote's name and LID, and {@code rate}
     * ("4xEDR").
     */
    public static void portLine(String prefix, boolean fromSwitch, int number, long guid, int lid, int lmc,
                                NodeType remoteType, long remoteNodeGuid, int remoteNumber, long remoteGuid,
                                String remoteName, int remoteLid, String rate, StringBuilder out) {
        out.append(prefix).append('[').append(number).append(']');
        if (!fromSwitch) {
            out.append('(').append(Long.toHexString(guid)).append(") ");
        }
        out.append("\t\"");
        id(remoteType, remoteNodeGuid, out);
        out.append("\"[").append(remoteNumber).append(']');
        if (remoteType != NodeType.SWITCH) {
            if (!fromSwitch) {
                out.append(' ');
            }
            out.append('(').append(Long.toHexString(remoteGuid)).append(") ");
        }
        out.append("\t\t# ");
        if (!fromSwitch) {
            out.append("lid ").append(lid).append(" lmc ").append(lmc).append(' ');
        }
        out.append('"').append(remoteName).append("\" lid ").append(remoteLid).append(' ').append(rate);
    }

    /** "S-0002c90300000001": the type letter and the zero-padded node GUID. */
    public static String id(Node n) {
        StringBuilder sb = new StringBuilder(18);
        id(n.type(), n.guid(), sb);
        return sb.toString();
    }

    /** The type letter (S, H, R; ? for {@code null}), a dash and the zero-padded node GUID. */
    public static void id(NodeType type, long guid, StringBuilder sb) {
        sb.append(type == null ? '?' : switch (type) {
            case SWITCH -> 'S';
            case CA -> 'H';
            case ROUTER -> 'R';
        }).append('-');
        hex16(guid, sb);
    }

    private static void hex16(long v, StringBuilder out) {
        String h = Long.toHexString(v);
        out.append("0000000000000000", 0, 16 - h.length()).append(h);
    }
}
