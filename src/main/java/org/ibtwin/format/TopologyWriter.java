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
        sb.append("#\n# Topology file: generated on ").append(CTIME.format(when)).append("\n#\n");
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
            Port op = origin.isSwitch() ? origin.port(0) : origin.port(1);
            sb.append("# Initiated from node ").append(hex16(origin.guid())).append(" port ")
                    .append(hex16(op.guid())).append('\n');
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
        sb.append("\nvendid=0x").append(Integer.toHexString(n.vendorId()))
                .append("\ndevid=0x").append(Integer.toHexString(n.deviceId())).append('\n');
        if (n.systemImageGuid() != 0) {
            sb.append("sysimgguid=0x").append(Long.toHexString(n.systemImageGuid())).append('\n');
        }
        switch (n.type()) {
            case SWITCH -> sb.append("switchguid=0x").append(Long.toHexString(n.guid())).append('(')
                    .append(Long.toHexString(n.port(0).guid())).append(")\n");
            case CA -> sb.append("caguid=0x").append(Long.toHexString(n.guid())).append('\n');
            case ROUTER -> sb.append("rtguid=0x").append(Long.toHexString(n.guid())).append('\n');
            default -> throw new IllegalStateException();
        }
        sb.append(n.type().keyword()).append('\t').append(n.numPorts()).append(" \"");
        id(n, sb);
        sb.append("\"\t\t# \"").append(n.description()).append('"');
        if (n.isSwitch()) {
            sb.append(n.enhancedPort0() ? " enhanced" : " base").append(" port 0 lid ").append(n.port(0).lid())
                    .append(" lmc ").append(n.port(0).lmc());
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
            sb.append('[').append(i).append(']');
            if (!n.isSwitch()) {
                sb.append('(').append(Long.toHexString(p.guid())).append(") ");
            }
            sb.append("\t\"");
            id(rn, sb);
            sb.append("\"[").append(r.number()).append(']');
            if (!rn.isSwitch()) {
                if (!n.isSwitch()) {
                    sb.append(' ');
                }
                sb.append('(').append(Long.toHexString(r.guid())).append(") ");
            }
            sb.append("\t\t# ");
            if (!n.isSwitch()) {
                sb.append("lid ").append(p.lid()).append(" lmc ").append(p.lmc()).append(' ');
            }
            sb.append('"').append(rn.description()).append("\" lid ").append(rn.isSwitch() ? rn.port(0).lid() : r.lid())
                    .append(' ');
            if (l.isUp()) {
                sb.append(l.activeWidth().lanes()).append('x').append(l.activeSpeed().label());
            } else {
                sb.append("??x???");
            }
            sb.append('\n');
        }
    }

    /** "S-0002c90300000001": the type letter and the zero-padded node GUID. */
    public static String id(Node n) {
        StringBuilder sb = new StringBuilder(18);
        id(n, sb);
        return sb.toString();
    }

    private static void id(Node n, StringBuilder sb) {
        sb.append(switch (n.type()) {
            case SWITCH -> 'S';
            case CA -> 'H';
            case ROUTER -> 'R';
        }).append('-').append(hex16(n.guid()));
    }

    static String hex16(long v) {
        String h = Long.toHexString(v);
        return "0000000000000000".substring(h.length()) + h;
    }
}
