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

    /** The LFTs, and a line saying how (roots chosen, levels found...). */
    record Routed(Lfts lfts, String detail) implements Outcome {
    }

    /** Why the engine cannot route this fabric. */
    record Declined(String reason) implements Outcome {
    }
}
