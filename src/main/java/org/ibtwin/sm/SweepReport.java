package org.ibtwin.sm;

import java.time.Duration;
import java.util.List;

/**
 * What one heavy sweep did, phase by phase, and whether the subnet is up.
 *
 * @param nodes            nodes discovered
 * @param switches         of which switches
 * @param cas              of which CAs
 * @param links            links between discovered ports
 * @param degradedLinks    "leaf02/33 <-> spine01/17 4xDDR (could be 4xHDR)", one per link below what both ends do
 * @param endPorts         ports that take a LID
 * @param lidsKept         end ports whose LID stayed
 * @param lidsRestored     end ports given back the LID the guid2lid file remembered
 * @param lidsAssigned     end ports given a new LID
 * @param lidsUnassigned   end ports left without a LID
 * @param smLid            the SM's LID
 * @param engine           the routing engine that routed
 * @param routingDetail    how it routed
 * @param declined         engines that declined, with why
 * @param lftBlocksWritten LFT blocks set
 * @param lftBlocksSame    LFT blocks left alone (unchanged since the last write)
 * @param portsArmed       ports moved Init to Armed
 * @param portsActivated   ports moved Armed to Active
 * @param portsActive      linked ports that were already Active
 * @param smps             SMPs sent in the sweep
 * @param failedSmps       of which failed
 * @param discovery        time in discovery
 * @param lids             time in the LID manager (and guid2lid)
 * @param routing          time routing
 * @param lfts             time writing LFTs
 * @param activation       time writing PortInfo
 * @param total            the whole sweep
 * @param subnetUp         no SMP of the sweep failed: the subnet is up as discovered and routed
 * @param problems         warnings, one line each
 * @param fastReroute      the fast re-route that ran before this sweep (a trap 128 or a light sweep's port state
 *                         change: only the destinations through the lost links, only the changed LFT blocks), with
 *                         the time from the trap to its last LFT block written; null when none ran
 */
public record SweepReport(int nodes, int switches, int cas, int links, List<String> degradedLinks, int endPorts,
                          int lidsKept, int lidsRestored, int lidsAssigned, int lidsUnassigned, int smLid,
                          String engine, String routingDetail, List<String> declined, long lftBlocksWritten,
                          long lftBlocksSame, int portsArmed, int portsActivated, int portsActive, long smps,
                          long failedSmps, Duration discovery, Duration lids, Duration routing, Duration lfts,
                          Duration activation, Duration total, boolean subnetUp, List<String> problems,
                          FastReroute fastReroute) {
    public SweepReport {
        degradedLinks = List.copyOf(degradedLinks);
        declined = List.copyOf(declined);
        problems = List.copyOf(problems);
    }

    /**
     * A fast re-route: the links found down, the engine and whether it routed in part (else {@code why}), the LIDs
     * re-routed, the LFT blocks written, and the time from the first trap (or light sweep) to the last block.
     */
    public record FastReroute(List<String> lostLinks, String engine, boolean partial, String why, int lidsRerouted,
                              long lftBlocksWritten, int switchesWritten, Duration trapToLastLft) {
        public FastReroute {
            lostLinks = List.copyOf(lostLinks);
        }
    }
}
