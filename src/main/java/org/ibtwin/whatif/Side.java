package org.ibtwin.whatif;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.ibtwin.model.Port;
import org.ibtwin.perf.LftRoutes;

/**
 * One copy of the fabric as its management port learnt it through MADs, after its SM reacted: what {@link Compare}
 * compares. A fabric cut in two is learnt as islands (each from a port inside it), so the hosts and switches below
 * may belong to several model fabrics; {@code routes} follows each island's LFTs and finds no route between islands.
 *
 * @param hosts      every CA port with a link, by port GUID, in fabric order (the before side's order is the report's)
 * @param island     the island each host was learnt in (hosts of two islands have no route between them)
 * @param routes     the route follower over the switches' LFTs (Active ports only)
 * @param pkeys      a port's P_Key table as read from it (null: unreadable)
 * @param lids       every end port's base LID (CA ports, switch port 0), by port GUID
 * @param tables     the switches' LFTs, by switch GUID
 * @param master     the master SM ("node001/1 (0x0002c90300000003)"), null when no SM is master
 * @param smPortGuid the master's port GUID (0: none)
 * @param creditLoop whether the master's routes have a channel dependency cycle (null: not known)
 * @param smWarnings what the SM warned of while it applied the change (a lock-out, ports leaving partitions)
 * @param allToAll   the all-to-all collective on these routes (null: not computed)
 */
public record Side(Map<Long, Port> hosts, Map<Long, Integer> island, LftRoutes routes, Function<Port, int[]> pkeys, Map<Long, Integer> lids,
                   Map<Long, Tables> tables, String master, long smPortGuid, Boolean creditLoop,
                   List<String> smWarnings, AllToAllLoad allToAll) {

    /** A switch's linear forwarding table as read from it. */
    public interface Tables {
        /** LinearFDBTop. */
        int top();

        /** Block {@code b} (64 entries), null when unreadable. */
        byte[] block(int b);

        /** How the report names the switch. */
        String name();
    }

    /**
     * The all-to-all collective over these routes: every host to every other at one rate (the perf model's max-min
     * share of the one collective), and the pairs crossing each directed link (by "node GUID/port" of the port it
     * leaves, with the link's name).
     */
    public record AllToAllLoad(long pairs, long unrouted, double perPairGbps, double aggregateGbps, String bottleneck,
                               Map<String, Long> linkPairs, Map<String, String> linkNames) {
    }

    /** The key of a directed link, by the port it leaves: "0x0002c90380000000/5". */
    public static String linkKey(Port from) {
        return String.format("0x%016x/%d", from.node().guid(), from.number());
    }
}
