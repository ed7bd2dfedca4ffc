package org.ibtwin.format.tools;

import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.LinkWidth;
import org.ibtwin.model.NodeType;
import org.ibtwin.model.PhysState;
import org.ibtwin.model.PortState;

/**
 * One port as iblinkinfo or ibnetdiscover -p print it. Fields a tool does not print are null, or -1 for LIDs and
 * port numbers. GUIDs are unsigned 64-bit values, any {@code long} among them, so a GUID not printed is null.
 *
 * @param nodeGuid   the node GUID (switches; null for CAs, whose lines carry the port GUID)
 * @param portGuid   the port GUID (null when not printed)
 * @param nodeKey    what identifies the node within the output: the switch GUID, or for a CA its header's
 *                   description (iblinkinfo) or port GUID (-p)
 * @param remoteGuid the remote port's GUID (-p), null when not printed
 * @param couldBeWidth iblinkinfo's "Could be 4X": the width both ends support, when above the active one
 * @param couldBeSpeed iblinkinfo's "Could be 53.125 Gbps"
 */
public record PortLine(NodeType type, String nodeKey, Long nodeGuid, Long portGuid, String desc, int lid, int port,
                       LinkWidth width, LinkSpeed speed, PortState state, PhysState physState,
                       NodeType remoteType, Long remoteGuid, int remoteLid, int remotePort, String remoteDesc,
                       LinkWidth couldBeWidth, LinkSpeed couldBeSpeed, int line) {

    public boolean connected() {
        return remotePort > 0;
    }
}
