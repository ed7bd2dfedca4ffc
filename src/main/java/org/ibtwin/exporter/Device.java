package org.ibtwin.exporter;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.ibtwin.diag.LiveModel;
import org.ibtwin.diag.NetFabric;
import org.ibtwin.diag.NetNode;
import org.ibtwin.diag.NetPort;
import org.ibtwin.format.NodeNameMap;
import org.ibtwin.model.Link;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.LinkWidth;

/**
 * A device the exporter reads, as the reference exporter takes them from {@code ibnetdiscover --ports}: a switch
 * (its port GUID and LID, every port that has a link) or one cabled HCA port (a dual-port HCA is two devices, each
 * under its own port GUID). Routers and uncabled ports are left out, as there.
 *
 * @param isSwitch whether the device is a switch
 * @param guid     the GUID the metrics carry ({@code guid} label) and the counters are read for
 * @param lid      the LID its PMA answers at (a switch's port 0, an HCA port's base LID)
 * @param name     the node name map's name, else the node description
 * @param uplinks  the cabled ports, in port order
 */
public record Device(boolean isSwitch, long guid, int lid, String name, List<Uplink> uplinks) {
    public Device {
        uplinks = List.copyOf(uplinks);
    }

    /**
     * A cabled port and what is at its other end.
     *
     * @param port       the port number here
     * @param type       the peer's type as ibnetdiscover prints it: SW, CA or RT
     * @param remoteLid  the peer's LID (a switch's port 0 LID, else the port's base LID)
     * @param remotePort the peer's port number
     * @param remoteGuid the peer port's GUID
     * @param remoteName the peer's name
     * @param rate       the link's data rate, bytes/s (0 when PortInfo gave no width or speed)
     * @param rawRate    the link's signalling rate, bytes/s
     */
    public record Uplink(int port, String type, int remoteLid, int remotePort, long remoteGuid, String remoteName,
                         double rate, double rawRate) {
    }

    /** The GUID as the labels write it: {@code 0x} and 16 lower-case hex digits. */
    public String guidLabel() {
        return hex(guid);
    }

    static String hex(long guid) {
        return String.format(Locale.ROOT, "0x%016x", guid);
    }

    /** The switches of {@code f} and its cabled HCA ports, switches first, each list in GUID order (unsigned). */
    public static List<Device> of(NetFabric f, NodeNameMap names) {
        List<Device> switches = new ArrayList<>();
        List<Device> hcas = new ArrayList<>();
        for (NetNode n : f.nodes()) {
            if (n.isSwitch()) {
                List<Uplink> ups = new ArrayList<>();
                long guid = n.portGuid();
                for (int p = 1; p <= n.numPorts(); p++) {
                    NetPort port = n.port(p);
                    if (port != null && port.remote() != null) {
                        ups.add(uplink(port, names));
                    }
                }
                NetPort p0 = n.port(0);
                if (p0 != null) {
                    guid = p0.guid();
                }
                switches.add(new Device(true, guid, n.smaLid(), names.name(n.guid(), n.description()), ups));
            } else if (n.type() == NetNode.CA) {
                for (int p = 1; p <= n.numPorts(); p++) {
                    NetPort port = n.port(p);
                    if (port != null && port.remote() != null) {
                        hcas.add(new Device(false, port.guid(), port.baseLid(), names.name(n.guid(), n.description()),
                                List.of(uplink(port, names))));
                    }
                }
            }
        }
        java.util.Comparator<Device> byGuid = (a, b) -> Long.compareUnsigned(a.guid(), b.guid());
        switches.sort(byGuid);
        hcas.sort(byGuid);
        List<Device> all = new ArrayList<>(switches);
        all.addAll(hcas);
        return all;
    }

    private static Uplink uplink(NetPort port, NodeNameMap names) {
        NetPort r = port.remote();
        NetNode rn = r.node();
        String type = switch (rn.type()) {
            case NetNode.SWITCH -> "SW";
            case NetNode.CA -> "CA";
            case NetNode.ROUTER -> "RT";
            default -> "??";
        };
        LinkWidth w = LinkWidth.ofCode(port.widthActive());
        LinkSpeed s = LiveModel.activeSpeed(port);
        double rate = 0;
        double raw = 0;
        if (w != null && s != null) {
            rate = Link.dataGbps(w, s) * 1e9 / 8;
            raw = w.lanes() * s.signallingGbps() * 1e9 / 8;
        }
        return new Uplink(port.number(), type, rn.isSwitch() ? rn.smaLid() : r.baseLid(), r.number(), r.guid(),
                names.name(rn.guid(), rn.description()), rate, raw);
    }
}
