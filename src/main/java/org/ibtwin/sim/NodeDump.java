package org.ibtwin.sim;

import java.util.List;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.LinkWidth;
import org.ibtwin.model.Node;
import org.ibtwin.model.PhysState;
import org.ibtwin.model.PortState;

/**
 * A node as the twin holds it now, for the console's Dump ({@link Twin#dump()}): the model node, a switch's
 * LinearFDBCap, LinearFDBTop, PortStateChange and (when asked for) its LFT, and its ports.
 *
 * @param lft a switch's LFT entries 0..LinearFDBTop (0xFF where unprogrammed); null when not asked for, or a CA
 */
public record NodeDump(Node node, boolean isSwitch, int linearFdbCap, int fdbTop, boolean portStateChange, int[] lft,
        List<PortDump> ports) {

    /**
     * A port: a switch's port 0 and its external ports, a CA's ports from 1.
     *
     * @param remoteNode    the node at the other end of its cable, or null when unplugged
     * @param width         the trained width, null when down
     * @param speed         the trained speed, null when down
     * @param lid           the LID (of a CA port or a switch's port 0; 0 on a switch's external ports)
     * @param held          held down by a fault ({@link Twin#linkDown})
     * @param unpluggedFrom the port its cable was pulled from ({@code "S-…"[3]}), or null
     */
    public record PortDump(int number, long guid, String remoteNode, int remotePort, LinkWidth width, LinkSpeed speed,
            PortState state, PhysState phys, int lid, int lmc, int smLid, boolean held, boolean ethernet,
            String unpluggedFrom) {
    }
}
