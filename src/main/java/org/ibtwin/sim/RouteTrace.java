package org.ibtwin.sim;

import java.util.List;

/**
 * The way a packet takes from one LID's port to another's by the switches' LFTs over Active ports, as ibsim's Route
 * walks it ({@link Twin#routeTrace}): where it starts, each link crossed, and where it ends or why it stopped.
 *
 * @param hops    the links crossed: the egress port, and the node and port reached
 * @param toNode  the node reached at the end, null when it stopped short
 * @param failure why the walk stopped short (in ibsim's words: a port not Active, an LFT entry naming no port, no
 *                link, too many hops), or null when it reached the destination
 */
public record RouteTrace(String fromNode, int fromPort, List<Hop> hops, String toNode, int toPort, String failure) {

    /** One link crossed: out of {@code outPort}, into {@code port} of {@code node}. */
    public record Hop(int outPort, String node, int port) {
    }
}
