package org.ibtwin.doctor.checks;

import java.util.ArrayList;
import java.util.List;
import org.ibtwin.doctor.Check;
import org.ibtwin.doctor.FabricState;
import org.ibtwin.doctor.Finding;
import org.ibtwin.doctor.HostInfo;
import org.ibtwin.doctor.Severity;
import org.ibtwin.doctor.Thresholds;
import org.ibtwin.model.IpoibMode;

/**
 * T14: IPoIB connected and datagram modes mixed on one subnet: TCP works between some pairs and hangs between
 * others. Names the datagram hosts (the fix is connected mode everywhere). On a mixed subnet T15's advice is part
 * of this finding; T15 speaks only when every host runs datagram.
 */
public final class IpoibMixedCheck implements Check {
    static final String FIX = "set one mode on every node: CONNECTED_MODE=yes and MTU=65520 in ifcfg-ib0 (or "
            + "echo connected > /sys/class/net/ib0/mode), then restart the interface";

    @Override
    public String id() {
        return "T14";
    }

    @Override
    public String name() {
        return "IPoIB connected and datagram mixed";
    }

    @Override
    public String skipReason(FabricState s) {
        return IpoibDatagramCheck.known(s) ? null : "no IPoIB facts (fabric description, ip -d link or ifcfg-ib0)";
    }

    @Override
    public List<Finding> run(FabricState s, Thresholds t) {
        List<String> datagram = new ArrayList<>();
        List<String> ev = new ArrayList<>();
        int connected = 0;
        int connectedMtu = 0;
        for (HostInfo h : s.hosts().values()) {
            IpoibMode m = h.ipoibMode();
            if (m == IpoibMode.CONNECTED) {
                connected++;
                if (h.ipoibMtu() != null) {
                    connectedMtu = Math.max(connectedMtu, h.ipoibMtu());
                }
            } else if (m == IpoibMode.DATAGRAM) {
                datagram.add(h.host());
                ev.add(h.host() + ": datagram" + (h.ipoibMtu() == null ? "" : ", MTU " + h.ipoibMtu())
                        + Words.from(h.source(HostInfo.Key.IPOIB_MODE)));
            }
        }
        if (datagram.isEmpty() || connected == 0) {
            return List.of();
        }
        List<String> lines = new ArrayList<>(Words.cap(ev));
        lines.add(Words.plural(connected, "other host runs", "other hosts run") + " connected"
                + (connectedMtu > 0 ? ", MTU " + connectedMtu : ""));
        return List.of(new Finding(id(), Severity.ERROR, Words.names(datagram), "IPoIB in datagram mode while "
                + "the other hosts are connected: TCP between them can hang", lines, FIX));
    }
}
