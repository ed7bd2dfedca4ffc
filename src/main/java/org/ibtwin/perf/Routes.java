package org.ibtwin.perf;

import org.ibtwin.model.Port;

/**
 * How traffic finds its way between two CA ports. {@link MinHopRoutes} computes deterministic min-hop routes on the
 * model topology until the subnet manager programs forwarding tables; {@link LftRoutes} follows whatever forwarding
 * tables a subnet manager wrote. The performance model only asks for paths.
 */
public interface Routes {
    /** The path from {@code src} to {@code dst}, or null when no route exists. */
    Route route(Port src, Port dst);
}
