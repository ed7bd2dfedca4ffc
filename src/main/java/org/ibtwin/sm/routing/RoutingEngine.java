package org.ibtwin.sm.routing;

/**
 * A routing engine: fills the linear forwarding tables of every switch from a read-only {@link SwitchGraph}. It
 * never sends a MAD. An engine that cannot route the fabric it is given (ftree on a fabric that is not a fat tree,
 * up/down without roots) declines, with a reason, and the next engine of the chain runs.
 */
public interface RoutingEngine {
    /** The engine's name, as {@code -R} takes it ("minhop", "updn", "ftree"). */
    String name();

    /** Routes {@code graph}, or declines. */
    Outcome route(SwitchGraph graph);

    /** What an engine did. */
    sealed interface Outcome permits Routed, Declined {
    }

    /**
     * The LFTs, a line saying how (roots chosen, levels found...), and the virtual lane (the path's SL) of every
     * route, for engines that break credit loops across lanes; and how to re-route parts of these tables after a
     * failure ({@link Reroute}: the rule that keeps the engine's guarantees, or why none does).
     */
    record Routed(Lfts lfts, String detail, RoutingCheck.Layers layers, Reroute reroute) implements Outcome {
        public Routed {
            if (reroute == null) {
                reroute = Reroute.none("it keeps nothing to re-route in part with");
            }
        }

        /** Routes on one lane. */
        public Routed(Lfts lfts, String detail, Reroute reroute) {
            this(lfts, detail, RoutingCheck.Layers.ONE, reroute);
        }
    }

    /** Why the engine cannot route this fabric. */
    record Declined(String reason) implements Outcome {
    }
}
