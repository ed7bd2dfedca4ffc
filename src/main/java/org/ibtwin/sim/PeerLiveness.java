package org.ibtwin.sim;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.PortUnreachableException;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import org.ibtwin.transport.LocalAddress;
import org.ibtwin.transport.SlotSocket;

/**
 * Whether an ibsim client's data socket is still there, asked without sending it anything: libumad2sim takes any
 * datagram at its data socket for a MAD (a short one comes out of {@code umad_recv} as a bogus receive), so a probe
 * datagram would disturb a live client. Two questions the system answers instead:
 * <ul>
 * <li>a UDP client on this host (a loopback address): is any UDP socket bound to its port? Linux lists them in
 *     {@code /proc/net/udp} and {@code /proc/net/udp6} (the loopback's clients share this network namespace);</li>
 * <li>a local-mode client (a unix datagram socket in the abstract namespace): does a connect to its name succeed?
 *     A connect sends nothing; it fails with ECONNREFUSED when no socket has the name.</li>
 * </ul>
 * Anything else (a client on another host, a system without {@code /proc}) is {@link Answer#UNKNOWN}: the client is
 * kept, to be noticed when its port refuses a MAD, as ibsim notices it.
 */
final class PeerLiveness {
    enum Answer { ALIVE, GONE, UNKNOWN }

    private static final Path[] UDP_TABLES = {Path.of("/proc/net/udp"), Path.of("/proc/net/udp6")};

    /** The UDP ports bound on this host, read once per sweep; null until asked, empty-and-unknown when unreadable. */
    private BitSet udpPorts;
    private boolean udpUnknown;

    /** One sweep's view: make a new one for the next sweep (the tables change). */
    PeerLiveness() {
    }

    Answer check(SocketAddress peer) {
        if (peer instanceof InetSocketAddress ip) {
            if (!ip.getAddress().isLoopbackAddress()) {
                return Answer.UNKNOWN;
            }
            BitSet bound = udpPorts();
            if (udpUnknown) {
                return Answer.UNKNOWN;
            }
            return bound.get(ip.getPort()) ? Answer.ALIVE : Answer.GONE;
        }
        if (peer instanceof LocalAddress) {
            return localName(peer);
        }
        return Answer.UNKNOWN;
    }

    private BitSet udpPorts() {
        if (udpPorts == null) {
            udpPorts = new BitSet(1 << 16);
            boolean any = false;
            for (Path table : UDP_TABLES) {
                try {
                    for (String line : Files.readAllLines(table, StandardCharsets.ISO_8859_1)) {
                        int port = localPort(line);
                        if (port >= 0) {
                            udpPorts.set(port);
                        }
                    }
                    any = true;
                } catch (IOException | RuntimeException e) {
                    // not Linux, or no IPv6: the other table may still answer
                }
            }
            udpUnknown = !any;
        }
        return udpPorts;
    }

    /**
     * The local port of one {@code /proc/net/udp} line ({@code "  12: 0100007F:1F90 00000000:0000 07 ..."}: the
     * second field, the port in hex after the colon); -1 for the heading and anything unreadable.
     */
    static int localPort(String line) {
        String s = line.strip();
        int sp = s.indexOf(' ');
        if (sp < 0 || !s.substring(0, sp).endsWith(":")) {
            return -1;
        }
        String rest = s.substring(sp).stripLeading();
        int end = rest.indexOf(' ');
        String local = end < 0 ? rest : rest.substring(0, end);
        int colon = local.lastIndexOf(':');
        if (colon < 0 || local.length() - colon - 1 != 4) {
            return -1;
        }
        try {
            return Integer.parseInt(local.substring(colon + 1), 16);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static Answer localName(SocketAddress peer) {
        try (SlotSocket probe = SlotSocket.openLocal()) {
            probe.connect(peer);
            return Answer.ALIVE;
        } catch (PortUnreachableException e) {
            return Answer.GONE;
        } catch (IOException | RuntimeException e) {
            return Answer.UNKNOWN;
        }
    }
}
